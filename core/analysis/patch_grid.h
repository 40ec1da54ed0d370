// SPDX-License-Identifier: GPL-3.0-or-later
// One query patch against every patch of the image grid: the row of the logits (or bias) matrix that
// compute_matrix gives for that query, laid out as the grid's rows and columns (patch p at row p / W,
// column p mod W, as rope2d.h, rope_mixed.h, swin.h and vit.h number patches). The GUI's patch-grid panel
// shows it; it is a window of one row of compute_matrix, so its values are the heatmap's, exactly.
#pragma once

#include "compute/attention_logits.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace posatlas {

// The grid a patch method lays its positions on: W patches across; H rows hold the scenario's
// seq_len patches (the last row may be partly empty). Swin numbers its M x M windows one after the
// other, so its grid is M wide and each window is M rows of it. ViT's grid is its table's H x H patches
// (the CLS token's row of the table is not on it; positions past H² have no embedding).
struct PatchGrid {
    std::int64_t width = 0;
    std::int64_t height = 0;
    // The method's table has a CLS token's row before the patches (ViT), which has no cell: the panel says
    // it is left out.
    bool cls_left_out = false;
};
// The grid of the scenario's method, or nothing for a method whose positions are a 1D sequence.
std::optional<PatchGrid> patch_grid(const Scenario& s);

// The kind the patch-grid panel shows: the method's most telling kind (logits for 2D RoPE and RoPE-Mixed,
// the bias for Swin, the position similarity for ViT).
MatrixKind patch_grid_kind(const Scenario& s);

struct PatchGridRow {
    PatchGrid grid;
    MatrixKind kind = MatrixKind::Logits;
    std::int64_t query = 0;
    // height x width values, row-major: values[r * width + c] is the cell (query, r * width + c) of
    // compute_matrix(s, kind); NaN past seq_len and where the method has no value (Swin across windows).
    std::vector<double> values;
    double min = 0.0, max = 0.0; // over finite values; min > max when there is none
    bool is_signed = false;
    std::string value_label; // compute_matrix's ("logit", "bias")
};

// Throws ParameterError when the scenario's method has no patch grid ("method") or `query` is outside
// [0, seq_len) ("query_patch", the command line's --query-patch), and what compute_matrix throws (Cancelled
// when cancel() returns true).
PatchGridRow patch_grid_row(const Scenario& s, std::int64_t query, const CancelFn& cancel = {},
                            const ProgressFn& progress = {});

} // namespace posatlas
