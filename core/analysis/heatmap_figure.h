// SPDX-License-Identifier: GPL-3.0-or-later
// A heatmap figure, computed: the one core entry behind the heatmap view (ui's heatmap_job) and any other
// front end (the command line's export, a future Python module). From a scenario and a request (the
// matrix kind, the window of positions, the view's area in pixels, small multiples or not) it plans the
// panels (one per head for a per-head method, or a block mean beside its point sample), computes each
// panel's matrix at the panel's pixels on the grid the view lays them out on (heatmap_grid), the whole
// matrix behind a zoomed window (cached across zoom steps), and says what a caption needs in facts: the
// kind, the heads' parameter (head_symbol, head_values), how a pixel was sampled. No words: a front end
// translates the facts into its own language. Qt-free.
//
// The scenario is validated once, where it is edited (scenario/validation.h); heatmap_figure does not
// validate it again, and compute_matrix throws ParameterError for what it cannot compute.
#pragma once

#include "analysis/heatmap_grid.h"
#include "compute/attention_logits.h"
#include "scenario/types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace posatlas {

// What a front end asks for.
struct HeatmapRequest {
    // The kind to show; nullopt (or a kind the method lacks): the method's most telling kind
    // (matrix_kinds_for's first).
    std::optional<MatrixKind> kind;
    // The window of rows (query positions) [row0, row0 + rows) and columns (key positions, or for an
    // encoding embedding dimensions); clamped to the matrix. rows / cols 0: to the end.
    std::int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
    // The area the panels' grid fills, device pixels, and what each panel needs besides its heatmap
    // (gaps, caption band; used when there are several panels): each panel's matrix has at most as many
    // cells as its heatmap has pixels.
    double area_width = 640.0, area_height = 640.0;
    PanelChrome chrome;
    // A per-head method's heads (ALiBi, T5) as small multiples, at most max_panels of them (evenly
    // sampled, first and last always shown); else the scenario's head alone.
    bool small_multiples = true;
    int max_panels = 16;
    // A single downsampled panel of a kind with exact block means gets its point sample beside it.
    bool point_sample_beside_mean = false;
};

// What one panel shows.
enum class HeatmapPanelRole {
    Single,      // the figure's only panel (the scenario's head)
    Head,        // one head of small multiples (HeatmapFigurePanel::head)
    BlockMean,   // the block means, beside their point sample
    PointSample, // the same window point-sampled (one cell per pixel: it aliases)
};

struct HeatmapFigurePanel {
    HeatmapPanelRole role = HeatmapPanelRole::Single;
    MatrixResult matrix; // the window, at most one cell per pixel of the panel
    // The whole (unzoomed) matrix, as the unzoomed figure computes it, when `matrix` is a zoomed window
    // of it (its colour scale); null otherwise.
    std::shared_ptr<const MatrixResult> whole;
    int head = 0; // the head this panel shows
    // The head's value of the parameter that tells heads apart (MethodDescriptor::head_values: ALiBi's
    // slope m_h); nullopt when the method names none.
    std::optional<double> head_value;
};

// How a pixel of the first panel relates to the cells it covers, when not the exact mean (a caption
// says so: nothing is silently point-sampled).
enum class HeatmapSamplingFact {
    None,
    PointRandomLength, // point samples: random content is not averaged at this length
    PointConstantOnly, // point samples: block means only for position-independent content
    PointNotLinear,    // point samples: the kind is not linear in the cells
    ExactZoomedWindow, // one exact cell per pixel in a zoomed window of a non-linear kind
};

struct HeatmapFigure {
    MatrixKind kind = MatrixKind::Logits;
    // The window the panels cover, and the whole matrix's size (rows: seq_len; columns: seq_len, or
    // the encoding's dimension).
    std::int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
    std::int64_t whole_rows = 0, whole_cols = 0;
    bool zoomed = false;
    int heads = 0;                     // the method's heads (MethodDescriptor::heads), 0 when not per head
    const char* head_symbol = nullptr; // the heads' parameter ("m" for ALiBi), null: heads by index
    std::vector<HeatmapFigurePanel> panels;
    // Caption facts. The scenario whose fields the caption names (the weights' logits name their own
    // mask: weights_logits_scenario), and whether the caption adds the scenario's causal mask (a
    // method without a causal field whose matrix follows it).
    Scenario caption_scenario;
    bool caption_causal = false;
    HeatmapSamplingFact sampling = HeatmapSamplingFact::None;
    // A point sample was asked for beside a picture that has no block means: none is shown.
    bool point_sample_refused = false;
};

// Plans and computes the figure. Throws ParameterError (a window or kind compute_matrix rejects) and
// Cancelled (when cancel() returns true); progress goes from 0 to 1.
HeatmapFigure heatmap_figure(const Scenario& s, const HeatmapRequest& request, const CancelFn& cancel = {},
                             const ProgressFn& progress = {});

// Methods side by side: the kind each compared method shows. The request's kind, else logits, else
// weights, when every method offers it; else each method's own most telling kind.
std::vector<MatrixKind> compared_kinds(const std::vector<Method>& methods,
                                       std::optional<MatrixKind> requested);

// One panel per method, each exactly the figure heatmap_figure computes for that method alone (its own
// parameters, the scenario's sequence, content and mask; no small multiples: the scenario's head for
// its own method, head 0 for the others) at its share of the request's area (heatmap_grid of
// methods.size() panels with the request's chrome). The methods' scenarios are not validated here.
struct CompareHeatmapFigure {
    std::vector<MatrixKind> kinds;      // compared_kinds
    std::vector<HeatmapFigure> figures; // one per method, in the order asked, each of one panel
    // All panels cover the same window (false: an encoding's columns are dimensions, each its own).
    bool same_window = true;
};
CompareHeatmapFigure compare_heatmap_figure(const Scenario& s, const std::vector<Method>& methods,
                                            const HeatmapRequest& request, const CancelFn& cancel = {},
                                            const ProgressFn& progress = {});

} // namespace posatlas
