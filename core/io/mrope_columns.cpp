// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/mrope_columns.h"

#include "io/columns.h"

#include <string>

namespace posatlas {

std::vector<CsvColumn> mrope_position_columns(const MropeParams& p, std::int64_t tokens)
{
    const MropePositions positions(p);
    const auto n = static_cast<std::size_t>(std::max<std::int64_t>(0, tokens));
    std::vector<double> token(n), t(n), h(n), w(n);
    std::vector<std::string> kind(n);
    for (std::size_t i = 0; i < n; ++i) {
        const MropePosition at = positions.at(static_cast<std::int64_t>(i));
        token[i] = static_cast<double>(i);
        kind[i] = mrope_token_kind_id(at.kind);
        t[i] = static_cast<double>(at.t);
        h[i] = static_cast<double>(at.h);
        w[i] = static_cast<double>(at.w);
    }
    return {{columns::kPosition, token},
            {.name = columns::kTokenKind, .texts = kind},
            {columns::kTimeId, t},
            {columns::kHeightId, h},
            {columns::kWidthId, w}};
}

std::string_view mrope_axis_id(int axis)
{
    return axis == 0 ? "t" : axis == 1 ? "h" : "w";
}

} // namespace posatlas
