// SPDX-License-Identifier: GPL-3.0-or-later
// Words core composed (methods/wording.h) as the GUI shows them: translated in their context, each
// argument formatted by the figures' number policy.
#pragma once

#include "methods/wording.h"

#include <QString>

#include <vector>

namespace posatlas::ui {

QString wording_text(const Wording& w);
// The non-empty ones joined with `separator`.
QString wording_text(const std::vector<Wording>& words, const QString& separator);

} // namespace posatlas::ui
