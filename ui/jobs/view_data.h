// SPDX-License-Identifier: GPL-3.0-or-later
// The contract between the compute jobs (view_jobs.*) and the views: what a view asks for
// (ViewSettings) and the plain data a job hands back. Everything numeric here was computed by core/;
// views only map it to pixels. Views include the contract (this header, heatmap_grid.h, curve_drawing.h,
// figure_numbers.h), jobs include it too; neither includes the other's headers.
#pragma once

#include "analysis/curve_decimation.h"
#include "analysis/heatmap_grid.h"
#include "compute/attention_logits.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace posatlas {
struct Field;
}

namespace posatlas::ui {

// ----------------------------------------------------------------- heatmap
struct HeatmapPanel {
    MatrixResult matrix;
    QString label; // small-multiple caption, e.g. "head 3 · m = 1/16"; empty for a single panel
    // The panel's whole (unzoomed) matrix, computed as the unzoomed view computes it, when `matrix` is
    // only a zoomed window of it; null when `matrix` is the whole matrix. Its extremes are the colour
    // scale a zoomed view keeps (so a cell keeps its colour while zooming), and it is the picture a pan
    // shows where the window's cells have not arrived yet.
    std::shared_ptr<const MatrixResult> whole;
    // The panel's own words when the panels show different sentences (a sentence beside its
    // permutation); empty: the data's row_tokens / col_tokens.
    QStringList row_tokens, col_tokens;
};
// Positions (rows) and columns [row0, row0 + rows) x [col0, col0 + cols). rows 0: not known.
struct HeatmapWindow {
    std::int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
};
struct HeatmapData {
    QString title;                // "RoPE logits · base 10000 · d 128"
    QVector<HeatmapPanel> panels; // one panel: a single heatmap; several: small multiples
    bool per_panel_scales = true; // ViewSettings' colour choices, so every path that paints this data
    bool subtract_mean = false;   // (screen, export, command line) colours it the same way
    // The window the panels' matrices cover and the whole matrix (the job knows both exactly; data
    // built by hand may leave them unknown, then the view estimates the window from the indices).
    HeatmapWindow window, whole;
    // The words at the positions when the scenario has a sentence (ContentParams::tokens): the axes
    // label rows (and columns, unless they are dimensions) with them where the cells are wide enough.
    QStringList row_tokens, col_tokens;
    // What a pixel shows when it is not the exact mean of the cells it covers (point samples of a kind
    // that is not linear in the cells, random content sampled at a length a slider cannot average,
    // exact cells of a zoomed window): the view prints it under the title. Empty otherwise.
    QString sampling_note;
    // A sentence beside its permutation (ContentParams::permuted, two panels): row k of panel 1 is the
    // word of row linked_rows[k] of panel 0 (scenario/permutation.h); empty when the rows are not linked.
    std::vector<std::int64_t> linked_rows;
    // Under the title: which word moved where ("dog 1 → 4 · man 4 → 1"), or why the rows are not linked.
    QString permutation_caption;
    // An animation's colour scale, fixed over its sweep (export/animation_export.h): per panel, the values
    // its scale spans (minus the panel's mean when it is subtracted), before the colour map's symmetry.
    // Empty (or a panel beyond its end): each panel's own extremes, as a still figure.
    std::vector<std::pair<double, double>> fixed_extremes;
};

// ----------------------------------------------------------------- curves (decay, buckets, ...)
struct CurveSeries {
    QString name;             // legend entry
    std::vector<double> x, y; // one point (or a bin's min and max) per ViewSettings::curve_points bin
    QColor color;             // invalid: the view picks from its palette by series index
    int color_index = -1; // >= 0: the palette's colour of this index instead (pairs of series of one head)
    bool step = false;    // draw as a step function (bucket plots)
    bool dashed = false;  // e.g. the unscaled reference
    // x/y hold, for each bin of distances, the exact min and max of the curve over every integer in it
    // (two points at the bin's first distance): an envelope that keeps every peak, where point samples
    // would alias.
    bool envelope = false;
    // Non-empty: the envelope is over sampled distances beyond some r (random content at long range),
    // and this says where and how densely; the job adds it to the figure's note.
    QString sampling;
    // The curve's exact value at x (computed by core, not interpolated): the crosshair's readout. Empty:
    // the readout interpolates the samples. Cheap (one distance) and safe to call on the GUI thread.
    std::function<double(double)> value_at;
    QString id; // its machine name in data exports ("mean_cos", "head_3"; columns.h)
    // The polyline the chart draws at CurveData::drawn_columns (steps and gaps resolved, at most four
    // points per pixel column: core's min_max_decimation, done by the job); unused when not `drawn`.
    // x / y stay whole: the readout, data exports and a figure rendered at another size use them.
    std::vector<double> drawn_x, drawn_y;
};
struct CurveMarker {
    double value = 0.0; // x for vertical markers, y for horizontal ones
    QString label;      // "trained 4096"
    bool vertical = true;
};
// The data ranges of a chart's axes (curve_drawing.h's curve_ranges: the x axis shows exactly [xlo, xhi],
// the y axis adds its padding or whole decades).
struct CurveRanges {
    double xlo = 0.0, xhi = 1.0, ylo = 0.0, yhi = 1.0;
    bool operator==(const CurveRanges&) const = default;
};
struct CurveData {
    QString title;
    QString x_label, y_label;
    // The axes' machine names for data exports (columns.h): "distance_tokens", "relative_size", ...
    QString x_column, y_column;
    bool log_x = false, log_y = false;
    QVector<CurveSeries> series;
    QVector<CurveMarker> markers;
    QString note; // one line under the chart, e.g. "attention factor 1.277"
    // Set by the job when the Curves chart's plot area was known (ViewSettings::curve_plot_width): the
    // pixel columns the series' drawn_x / drawn_y are decimated to. A chart of another plot area or x
    // axis draws x / y instead.
    bool drawn = false;
    PixelColumns drawn_columns;
    // An animation's axes, fixed over its sweep (export/animation_export.h); null: from the data.
    std::optional<CurveRanges> fixed_ranges;
};

// ----------------------------------------------------------------- rotation diagram (RoPE)
struct RotationData {
    QString title;
    double query_position = 0.0;    // m
    double key_position = 0.0;      // n
    std::vector<double> theta;      // scaled frequency of every pair (rad / position)
    std::vector<double> wavelength; // 2 pi / theta of every pair (positions), from core
    std::vector<double> angle_q;    // m * theta_i mod 2 pi, every pair (from core rope_angles)
    std::vector<double> angle_k;    // n * theta_i mod 2 pi
    std::vector<double> angle_rel;  // (m - n) * theta_i mod 2 pi
    std::vector<int> shown_pairs;   // pairs drawn as large unit circles
    double attention_factor = 1.0;
};

// ----------------------------------------------------------------- frequency spectrum (RoPE)
struct SpectrumData {
    QString title;
    std::vector<double> pair; // pair index i
    std::vector<double> theta_original, theta_scaled;
    std::vector<double> wavelength_original, wavelength_scaled;
    std::vector<double> ratio;   // theta_scaled / theta_original
    std::vector<double> ramp;    // YaRN ramp per pair, empty otherwise
    double trained_length = 0.0; // horizontal line on the wavelength plot
    double target_length = 0.0;
    double attention_factor = 1.0;
    double softmax_scale = 1.0; // the attention module's extra softmax multiplier (DeepSeek)
    QString scaling_label;      // "yarn · factor 16"
    QString note;               // under the plots: which length θ is for, identity scalings
    // An animation's axes of the wavelength and the ratio plot, fixed over its sweep; null: from the data.
    std::optional<CurveRanges> wavelength_ranges, ratio_ranges;
};

// ----------------------------------------------------------------- what the views ask for
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
    // What each panel of several needs besides its heatmap on screen, device pixels (the painter's
    // gaps, tick labels and caption band, HeatmapView::heatmapPanelChrome): the job's grid is then the
    // painter's. Zero: the job's panels are these few pixels larger than on screen.
    PanelChrome panel_chrome;
    bool small_multiples = true;  // per-head methods (ALiBi, T5 bias): one small panel per head
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

    // Patch grid (image-patch methods): the query patch, row-major on the grid; clamped to the patches.
    std::int64_t query_patch = 0;
};

using ViewResult = std::variant<HeatmapData, CurveData, RotationData, SpectrumData>;

// The kind shown for `s` under `settings` (validated against matrix_kinds_for).
MatrixKind effective_matrix_kind(const Scenario& s, const ViewSettings& settings);
// Number of heads of the per-head method (T5, ALiBi), 0 for the others.
int per_head_count(const Scenario& s);
// The name titles give choice `index` of a Choice field: its caption ("YaRN"), else its panel label,
// translated.
QString choice_caption(const Field& f, int index);

} // namespace posatlas::ui
