// SPDX-License-Identifier: GPL-3.0-or-later
// Pure functions Scenario (+ per-view settings) -> the plain data a view paints. They run on worker
// threads (main_window_jobs.cpp submits them to a JobTracker), call core only and never re-derive a
// formula core computes: the UI maps numbers to pixels, nothing more. Each takes core's cancel
// predicate and progress callback.
#pragma once

#include "compute/attention_logits.h"
#include "jobs/view_data.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace posatlas {
struct Field;
}

namespace posatlas::ui {

enum class ViewKind { Heatmap, Curves, Rotation, Spectrum };
inline constexpr int kViewKindCount = 4;
inline constexpr ViewKind kAllViewKinds[] = {ViewKind::Heatmap, ViewKind::Curves, ViewKind::Rotation,
                                             ViewKind::Spectrum};

// What the views ask for besides the scenario itself.
struct ViewSettings {
    // Heatmap. matrix_kind nullopt (or a kind the method lacks): the method's most telling kind.
    std::optional<MatrixKind> matrix_kind;
    std::int64_t row0 = 0, col0 = 0; // visible window (zoom / pan); rows/cols 0: everything
    std::int64_t rows = 0, cols = 0;
    int pixel_width = 640, pixel_height = 640; // device pixels of the view: the window is downsampled to this
    bool small_multiples = true;               // per-head methods (ALiBi, T5 bias): one small panel per head
    int max_panels = 16;          // heads beyond this are sampled evenly (first and last always shown)
    bool per_panel_scales = true; // small multiples: one colour scale per panel (else one shared scale)
    bool subtract_mean = false;   // colour each panel's values minus its mean
    // Colour scale of a zoomed heatmap: the visible window's extremes (true), or the whole matrix's
    // (false, the default: a cell keeps its colour while zooming and panning).
    bool fit_colors_to_view = false;
    // View > Point Sample beside Mean (teaching aliasing): a downsampled single heatmap whose kind has
    // exact block means gets a second panel, the point sample of the same window, on one colour scale.
    bool show_point_sample = false;

    // Curves. max_distance 0: automatic (four times the model's context, or N - 1 if that is further;
    // from 64 to kMaxDistance).
    std::int64_t max_distance = 0;
    bool log_x = true;
    int curve_points = 1200; // ~ 1-2 points per pixel of a wide chart
    // The Curves chart's plot area, device pixels (left edge and width; width 0: not known): the job
    // hands the chart at most four points per pixel column of it (curve_drawing.h, decimate_for_plot).
    double curve_plot_left = 0.0, curve_plot_width = 0.0;
    std::vector<Method> overlay; // other methods drawn on top (logit against distance), same scenario

    // Methods side by side: 2 to 4 distinct methods, empty = off. Each uses its own
    // parameters from the same scenario, on its common seq_len / content / causal settings. The heatmap
    // shows one panel per method (colour scale shared or per panel: per_panel_scales), the curves one
    // logit series per method on shared axes; rotation and spectrum keep showing the current method.
    std::vector<Method> compare;

    // Rotation diagram (RoPE): query at m, key at n, and the pairs drawn as large circles.
    double query_position = 12.0;
    double key_position = 4.0;
    std::vector<int> pairs; // empty: first, quarter, middle and last pair
};

using ViewResult = std::variant<HeatmapData, CurveData, RotationData, SpectrumData>;

// Comparison lists: at least kMinCompared, at most kMaxCompared distinct, known methods.
inline constexpr int kMinCompared = 2, kMaxCompared = 4;
// What is wrong with `list` as a comparison (empty: nothing; an empty list is "off" and fine), in
// words that name the allowed values; the caller prefixes the key or option it came from.
std::string compare_list_problem(const std::vector<Method>& list);
// Throws ParameterError("compare", the allowed values, the list) when compare_list_problem finds one.
void check_compare_list(const std::vector<Method>& list);
// Parses method ids ("sinusoidal", "rope", ...) into a comparison list. Unknown ids, duplicates or a
// count outside [2, 4]: nullopt, and `error` (when given) says what is wrong and the allowed values.
std::optional<std::vector<Method>> parse_compare_list(const std::vector<std::string>& ids,
                                                      std::string* error);
// Sinusoidal, RoPE and ALiBi: View > Compare: Sinusoidal, RoPE, ALiBi (the lesson "Choosing an encoding").
std::vector<Method> classic_comparison();
// "Sinusoidal, RoPE, ALiBi": the compared methods' short names.
QString compare_names(const std::vector<Method>& list);
// The matrix kind each compared method shows: the asked kind (settings.matrix_kind, else logits) when
// every compared method offers it, else logits or weights when every one offers that, else each
// method's own first kind.
std::vector<MatrixKind> compared_matrix_kinds(const std::vector<Method>& list, const ViewSettings& settings);

// The kind shown for `s` under `settings` (validated against matrix_kinds_for).
MatrixKind effective_matrix_kind(const Scenario& s, const ViewSettings& settings);
// `settings` as they apply to `s`: a matrix kind the method lacks becomes automatic (nullopt), and the
// heatmap window lies inside the matrix ([0, seq_len) rows and, but for an encoding's dimensions,
// columns; rows or cols 0 stay "everything"). Cheap, no file access: for the GUI thread.
ViewSettings normalized_view_settings(const Scenario& s, ViewSettings settings);
// Number of heads of the per-head method (T5, ALiBi), 0 for the others.
int per_head_count(const Scenario& s);
// One line naming the method and its key parameter values ("RoPE · θ 10000 · d 128 · YaRN · × 16").
QString scenario_caption(const Scenario& s, bool with_method = true);
// The name titles give choice `index` of a Choice field: its caption ("YaRN"), else its panel label,
// translated.
QString choice_caption(const Field& f, int index);
// RoPE's scaling by that name ("YaRN", "Llama 3", "linear (PI)"), never the config id ("yarn").
QString rope_scaling_name(RopeType type);
// Items of a list in running text: "a, b" (Chinese "a、b").
QString list_join(const QStringList& items);

// True when the heatmap shows the sentence beside its permutation (ContentParams::permuted): a sentence and
// a second one given, no content files, no comparison of methods.
bool shows_permuted(const Scenario& s, const ViewSettings& settings);
// The sentence and its permutation side by side: two panels, each what heatmap_job computes for its
// sentence alone, with the rows of the same word linked (HeatmapData::linked_rows) and a caption saying
// which word moved where. heatmap_job calls it when shows_permuted().
HeatmapData permuted_heatmap_job(const Scenario& s, const ViewSettings& settings, const CancelFn& cancel = {},
                                 const ProgressFn& progress = {});
HeatmapData heatmap_job(const Scenario& s, const ViewSettings& settings, const CancelFn& cancel = {},
                        const ProgressFn& progress = {});
CurveData curve_job(const Scenario& s, const ViewSettings& settings, const CancelFn& cancel = {},
                    const ProgressFn& progress = {});
// For a method other than RoPE: empty vectors and a title that says the view applies to RoPE.
RotationData rotation_job(const Scenario& s, const ViewSettings& settings, const CancelFn& cancel = {},
                          const ProgressFn& progress = {});
SpectrumData spectrum_job(const Scenario& s, const ViewSettings& settings, const CancelFn& cancel = {},
                          const ProgressFn& progress = {});

// Dispatch by kind (the job the main window submits for each view). Throws what core throws
// (ParameterError, Cancelled).
ViewResult run_view_job(ViewKind kind, const Scenario& s, const ViewSettings& settings,
                        const CancelFn& cancel, const ProgressFn& progress);

} // namespace posatlas::ui
