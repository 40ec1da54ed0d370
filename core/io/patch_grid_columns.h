// SPDX-License-Identifier: GPL-3.0-or-later
// The patch grid's row (analysis/patch_grid.h: one query patch against every patch) as CSV columns and as
// a JSON document, one layout for every place that writes it: `posatlas compute patch-grid`,
// `posatlas export --view patch-grid --out FILE.csv|json` and the patch-grid dock's Export Data.
//   CSV: patch, row, column, value: one line per patch of the scenario (seq_len lines, patch p at row
//        p / W, column p mod W), value NaN (empty) where the method has none (Swin across windows).
//   JSON: {"view": "patch-grid", "method", "kind", "value_label", "grid": {"rows", "columns"}, "seq_len",
//          "query_patch", "query_row", "query_column", "min", "max", then the four columns as arrays}.
#pragma once

#include "analysis/patch_grid.h"
#include "io/number_text.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace posatlas {

std::vector<CsvColumn> patch_grid_columns(const Scenario& s, const PatchGridRow& row);
nlohmann::json patch_grid_json(const Scenario& s, const PatchGridRow& row);

} // namespace posatlas
