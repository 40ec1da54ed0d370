// SPDX-License-Identifier: GPL-3.0-or-later
// The session entry lives apart from the others: it needs the Qt ui library, the rest only core, so
// the core fuzz targets build without Qt.
#include "fuzz_entries.h"

#include "model/session.h"

#include <QByteArray>

namespace posatlas::fuzz {

std::string session(std::string_view bytes)
{
    try {
        ui::session_from_json(QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())));
    } catch (const InputFileError& e) { // SessionError
        return e.what();
    }
    return {};
}

} // namespace posatlas::fuzz
