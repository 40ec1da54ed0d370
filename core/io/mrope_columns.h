// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's position ids (methods/mrope/mrope.h) as columns, one layout for every place that writes them:
// `posatlas compute mrope-positions` and the token layout's Export Data (the dock, `posatlas export --view
// token-layout`). One row per token from 0: position, token_kind ("text", "image", "video"), t_id, h_id,
// w_id.
#pragma once

#include "io/number_text.h"
#include "methods/mrope/mrope.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace posatlas {

// The first `tokens` tokens of p's layout (text past its end).
std::vector<CsvColumn> mrope_position_columns(const MropeParams& p, std::int64_t tokens);

// The axis a rotary pair follows as the columns name it (mrope_pair_axes: 0 t, 1 h, 2 w).
std::string_view mrope_axis_id(int axis);

} // namespace posatlas
