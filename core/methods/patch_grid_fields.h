// SPDX-License-Identifier: GPL-3.0-or-later
// The rows and columns of an image's patch grid, for the methods whose positions are patches numbered row
// by row (2D RoPE, RoPE-Mixed): written once so that their ranges, labels and the rule that ties the
// sequence to the grid agree.
#pragma once

#include "methods/field_binding.h"
#include "scenario/params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace posatlas {

// Choosing the grid sets the sequence to rows × columns patches (the companion names seq_len when it moved).
template <typename P> std::string patch_grid_companion(Scenario& s)
{
    const P& p = s.params<P>();
    const std::int64_t patches = static_cast<std::int64_t>(p.grid_height) * p.grid_width;
    if (s.seq_len == patches)
        return "";
    s.seq_len = patches;
    return "seq_len";
}

// grid_height and grid_width in [1, 1024] patches.
template <typename P> std::vector<Field> patch_grid_fields()
{
    return {make_field("grid_height", FieldType::Int, &P::grid_height,
                       {.lo = 1,
                        .hi = 1024,
                        .log_scale = true,
                        .label = QT_TRANSLATE_NOOP("ParamSpec", "Grid rows"),
                        .unit = QT_TRANSLATE_NOOP("ParamSpec", "patches"),
                        .tooltip = QT_TRANSLATE_NOOP(
                            "ParamSpec", "Rows of patches (image height / patch size). Choosing it sets the "
                                         "sequence to rows × columns patches; patches past it continue on "
                                         "further rows."),
                        .companion = patch_grid_companion<P>}),
            make_field("grid_width", FieldType::Int, &P::grid_width,
                       {.lo = 1,
                        .hi = 1024,
                        .log_scale = true,
                        .label = QT_TRANSLATE_NOOP("ParamSpec", "Grid columns"),
                        .unit = QT_TRANSLATE_NOOP("ParamSpec", "patches"),
                        .tooltip = QT_TRANSLATE_NOOP(
                            "ParamSpec", "Columns of patches (image width / patch size): patch p sits at row "
                                         "p / columns and column p mod columns."),
                        .companion = patch_grid_companion<P>})};
}

} // namespace posatlas
