// SPDX-License-Identifier: GPL-3.0-or-later
// The explorer's figures: PlotSpecs built from the job results (explorer_jobs.h), one per view, with a
// consistent colour per variant slot, and the short explanation shown beside each view.
#pragma once

#include "explorer/explorer_jobs.h"
#include "explorer/explorer_plot.h"

namespace posatlas::ui {

enum class ExplorerView { PerPair, Wavelength, Coverage, Dynamic, Temperature, Scores, Table };
inline constexpr int kExplorerViewCount = 7;
QString explorer_view_name(ExplorerView view);
// Rich text: what the view shows, the formulas, and where the numbers come from.
QString explorer_explanation(ExplorerView view);

QColor variant_color(int slot, bool dark); // explorer_variant_color; slot -1 (probe): grey
QColor regime_color(PairRegime regime, bool dark);

// theta'/theta per pair for every variant; the regimes of variant `regime_variant` shaded and labelled,
// every variant's regimes as strips, boundaries as labelled vertical lines (boundary_labels).
PlotSpec per_pair_spec(const ExplorerTables& t, int regime_variant, bool dark);
// Wavelengths per pair (log), trained / target context, YaRN's r = L / lambda axis and thresholds,
// Llama 3's low / high frequency wavelengths.
PlotSpec wavelength_spec(const ExplorerTables& t, bool dark);
// Trained angle range [0, L theta_i] against each variant's largest angle at the target; never-seen
// rotations as red points and strips.
PlotSpec coverage_spec(const ExplorerTables& t, bool dark);
// theta'/theta per pair at the slider's length; the effective dynamic-NTK base in the note.
PlotSpec dynamic_spec(const DynamicResult& d, bool dark);
// The temperature formulas over s, each variant's factor and applied temperature marked.
// With a query scale (query_scale.h), its multiplier at the position s L - 1 (the last token of a context
// of s times the trained length L) over the same s.
PlotSpec temperature_spec(const ExplorerTables& t, const QueryScale& scale, bool dark);
// Entropy of the last query's attention against context length per variant: solid with its temperature,
// dashed without (when it has one); the content (repeated token or random q, k) in the title and note.
PlotSpec entropy_spec(const EntropyResult& e, std::int64_t trained, std::int64_t target, bool dark);
// RoFormer's decay bound and the content-free score against distance, per variant, log distance.
PlotSpec decay_spec(const ExplorerTables& t, bool dark);
PlotSpec score_spec(const ExplorerTables& t, bool dark);

// "base 500000 → 1.9e6 (Dynamic NTK)" for every dynamic entry, joined with " · ".
QString dynamic_base_text(const DynamicResult& d);

} // namespace posatlas::ui
