// SPDX-License-Identifier: GPL-3.0-or-later
// A sentence beside its permutation (ContentParams::permuted): the permutation equivariance of attention
// without positions, shown as two heatmaps whose rows of the same word are linked.
#include "jobs/heatmap_grid.h"
#include "jobs/view_job_support.h"
#include "scenario/content.h"
#include "scenario/permutation.h"

namespace posatlas::ui {

using namespace view_job_support;

bool shows_permuted(const Scenario& s, const ViewSettings& v)
{
    return v.compare.empty() && !s.content.tokens.empty() && !s.content.from_files() &&
           !tokenize_text(s.content.permuted).empty();
}

HeatmapData permuted_heatmap_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                                 const ProgressFn& progress)
{
    Scenario first = s;
    first.content.permuted.clear();
    Scenario second = first;
    common_field("text")->set(second, s.content.permuted); // its tokens, and seq_len = their number
    // Each panel exactly as heatmap_job computes its sentence alone, at its share of the view (the grid
    // of two panels the view lays out: heatmap_grid), one head.
    ViewSettings half = v;
    half.small_multiples = false;
    half.show_point_sample = false;
    const PanelPixels px = panel_pixel_budget(heatmap_grid(2, v.pixel_width, v.pixel_height, v.panel_chrome));
    half.pixel_width = static_cast<int>(px.width);
    half.pixel_height = static_cast<int>(px.height);
    half.panel_chrome = {}; // px is each panel's heatmap alone
    HeatmapData a = heatmap_job(first, half, cancel, sub_progress(progress, 0.0, 0.5));
    HeatmapData b = heatmap_job(second, half, cancel, sub_progress(progress, 0.5, 1.0));
    report_progress(progress, 1.0);

    HeatmapData data = a;
    data.panels.clear();
    // One colour scale for both: the same number is the same colour in either sentence.
    data.per_panel_scales = false;
    const auto panel = [](HeatmapData& d, const std::string& text) {
        HeatmapPanel p = std::move(d.panels.front());
        p.label = ViewJobs::tr("“%1”").arg(QString::fromStdString(text));
        p.row_tokens = d.row_tokens;
        p.col_tokens = d.col_tokens;
        return p;
    };
    data.panels.push_back(panel(a, first.content.text));
    data.panels.push_back(panel(b, s.content.permuted));
    if (b.window.rows != a.window.rows || b.window.cols != a.window.cols || b.whole.cols != a.whole.cols) {
        data.window = {}; // the sentences differ in length: each panel its own window
        data.whole = {};
    }
    if (b.sampling_note != a.sampling_note && data.sampling_note.isEmpty())
        data.sampling_note = b.sampling_note;

    const auto p = token_permutation(first.content.tokens, second.content.tokens);
    if (!p) {
        data.permutation_caption =
            ViewJobs::tr("the second sentence is not a permutation of the first: rows not linked");
        return data;
    }
    data.linked_rows = *p;
    QStringList moves;
    for (const TokenMove& m : token_moves(second.content.tokens, *p))
        moves << ViewJobs::tr("%1 %2 → %3", "a word, its position in the sentence and in the permutation")
                     .arg(QString::fromStdString(m.token))
                     .arg(m.from)
                     .arg(m.to);
    data.permutation_caption = moves.isEmpty() ? ViewJobs::tr("the same order: every word in its place")
                                               : ViewJobs::tr("moved: %1").arg(list_join(moves));
    return data;
}

} // namespace posatlas::ui
