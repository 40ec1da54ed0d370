// SPDX-License-Identifier: GPL-3.0-or-later
// Pure functions Scenario (+ per-view settings, view_data.h) -> the plain data a view paints. They run on
// worker threads (main_window_jobs.cpp submits them to a JobTracker), call core only and never re-derive a
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

// `settings` as they apply to `s`: a matrix kind the method lacks becomes automatic (nullopt), and the
// heatmap window lies inside the matrix ([0, seq_len) rows and, but for an encoding's dimensions,
// columns; rows or cols 0 stay "everything"). Cheap, no file access: for the GUI thread.
ViewSettings normalized_view_settings(const Scenario& s, ViewSettings settings);
// One line naming the method and its key parameter values ("RoPE · θ 10000 · d 128 · YaRN · × 16").
QString scenario_caption(const Scenario& s, bool with_method = true);
// The caption of head `head`'s panel among `panels` small multiples: the head's value where the method's
// descriptor gives one (ALiBi: "m₃=0.0625", MethodDescriptor::head_values), else "h3".
QString head_caption(const Scenario& s, int head, int panels);
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
