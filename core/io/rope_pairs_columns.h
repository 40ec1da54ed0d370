// SPDX-License-Identifier: GPL-3.0-or-later
// The per-pair table of a RoPE scaling (rope_pairs, rope_compare.h) as CSV / JSON columns, one layout for
// every place that writes it: `posatlas compute rope-pairs`, the spectrum view's data export (its first
// columns) and the context-extension explorer's table (one table per variant, a series column first).
// Columns, by their names in columns.h:
//   pair, inv_freq_original_rad_per_token, inv_freq_rad_per_token, wavelength_original_tokens,
//   wavelength_tokens, ratio_scaled_to_original, [yarn_ramp], regime, trained_max_angle_rad,
//   target_max_angle_rad, unseen_rotation (0 or 1)
// The ramp column is there when a table has a ramp (YaRN); the spectrum view's export ends after it.
#pragma once

#include "analysis/rope_compare.h"
#include "io/number_text.h"

#include <string>
#include <vector>

namespace posatlas {

// The columns of one table.
std::vector<CsvColumn> rope_pairs_columns(const RopePairsTable& table);

// Several tables in long format: a `series` column holding names[k] on the rows of tables[k], then the
// columns above, the tables' rows one after another. The ramp column is there when any table has a
// ramp (empty cells for the others). names and tables have the same length.
std::vector<CsvColumn> rope_pairs_columns(const std::vector<std::string>& names,
                                          const std::vector<const RopePairsTable*>& tables);

} // namespace posatlas
