// SPDX-License-Identifier: GPL-3.0-or-later
// The patch-grid figure's numbers (jobs/patch_grid_data.h): core's patch_grid_row (analysis/patch_grid.h)
// with the title that names the method, the grid, the query patch and the kind. Runs on a worker thread
// (the patch-grid dock submits it to the window's JobTracker), and on the calling thread for
// `posatlas export --view patch-grid` and the gallery.
#pragma once

#include "jobs/patch_grid_data.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <cstdint>

namespace posatlas::ui {

// Throws what patch_grid_row throws: ParameterError for a method without a patch grid ("method") or a
// query outside [0, seq_len) ("query_patch"), Cancelled when `cancel` turns true.
PatchGridData patch_grid_job(const Scenario& s, std::int64_t query, const CancelFn& cancel = {},
                             const ProgressFn& progress = {});

// The title of the grid for `s` and `query` (also before the row is computed).
QString patch_grid_title(const Scenario& s, std::int64_t query);

} // namespace posatlas::ui
