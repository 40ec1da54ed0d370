// SPDX-License-Identifier: GPL-3.0-or-later
// arg() of cli_i18n.h, without Qt: posatlas-lab (Qt-free) fills its patterns the same way.
#include "cli_i18n.h"

namespace posatlas::cli {

std::string arg(const std::string& pattern, std::initializer_list<std::string> args)
{
    std::string out;
    out.reserve(pattern.size());
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '%' && i + 1 < pattern.size() && pattern[i + 1] >= '1' && pattern[i + 1] <= '9') {
            const auto n = static_cast<std::size_t>(pattern[i + 1] - '1');
            if (n < args.size()) {
                out += *(args.begin() + n);
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

} // namespace posatlas::cli
