// SPDX-License-Identifier: GPL-3.0-or-later
// The contract between the patch-grid job (jobs/patch_grid_job.h) and its view (views/patch_grid_view.h):
// core's row of one query patch against every patch of the image grid (analysis/patch_grid.h), and the
// words of its title and note. The view only maps the numbers to colours and places the words.
#pragma once

#include "analysis/patch_grid.h"

#include <QString>

#include <optional>

namespace posatlas::ui {

struct PatchGridData {
    std::optional<PatchGridRow> row; // empty: nothing to show (title says why)
    // "2D RoPE · 16 × 16 patch grid · query patch 136 (row 8, column 8) · logits"
    QString title;
    QString value_label; // the colour bar's quantity, translated ("logit", "bias")
    QString note;        // under the figure: what grey cells are, when there are any
};

} // namespace posatlas::ui
