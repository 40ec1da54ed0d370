// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/heatmap_figure.h"

#include "compute/attention_weights.h"
#include "methods/curve_family.h"
#include "methods/registry.h"
#include "scenario/scenario_files.h"

#include <algorithm>
#include <list>
#include <mutex>
#include <string>
#include <utility>

namespace posatlas {

namespace {

// Whole matrices of recent figures: zooming and panning ask for one window after another of the same
// matrix, whose colour scale is the whole matrix's; it is computed once, not once per window. Shared by
// the threads that compute figures (a mutex), bounded by the number of cells kept.
class WholeMatrixCache
{
public:
    // The scenario names its files by path: `files` (scenario_files_fingerprint) is what they hold, so
    // that a file changed on disk at the same path is another matrix with another colour scale.
    struct Key {
        Scenario scenario;
        std::string files;
        MatrixKind kind;
        std::int64_t out_rows, out_cols;
        SampleMode sample;
        bool operator==(const Key&) const = default;
    };
    std::shared_ptr<const MatrixResult> find(const Key& key)
    {
        const std::lock_guard lock(m_mutex);
        for (const auto& [k, m] : m_entries)
            if (k == key)
                return m;
        return nullptr;
    }
    void insert(const Key& key, std::shared_ptr<const MatrixResult> m)
    {
        const std::lock_guard lock(m_mutex);
        m_entries.emplace_front(key, std::move(m));
        std::int64_t cells = 0;
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
            cells += it->second->values.size();
            if (cells > kMaxCells && it != m_entries.begin()) {
                m_entries.erase(it, m_entries.end());
                break;
            }
        }
    }

private:
    static constexpr std::int64_t kMaxCells = std::int64_t{8} << 20; // 64 MiB of doubles
    std::mutex m_mutex;
    std::list<std::pair<Key, std::shared_ptr<const MatrixResult>>> m_entries;
};

WholeMatrixCache& whole_matrix_cache()
{
    static WholeMatrixCache cache;
    return cache;
}

ProgressFn sub_progress(const ProgressFn& progress, double lo, double hi)
{
    if (!progress)
        return {};
    return [progress, lo, hi](double f) { progress(lo + (hi - lo) * std::clamp(f, 0.0, 1.0)); };
}

// The figure's plan: the window and the whole matrix behind it, the heads of the panels.
struct Plan {
    MatrixWindow window, whole;
    bool per_head = false, beside_mean = false;
    std::vector<int> shown; // the heads of the panels
    std::string files;      // what the scenario's files hold (the whole-matrix cache's key)
};

// Every panel's pixels: heatmap_grid over the request's area, the grid the view lays the panels out on,
// for a window of `rows` x `cols` cells. A single panel has neither gaps nor a caption band.
PanelPixels panel_pixels(const HeatmapRequest& r, int panels, std::int64_t rows, std::int64_t cols)
{
    const double aspect = rows > 0 ? static_cast<double>(cols) / static_cast<double>(rows) : 1.0;
    const PanelChrome chrome = panels > 1 ? r.chrome : PanelChrome{};
    return panel_pixel_budget(
        heatmap_grid(panels, r.area_width, r.area_height, chrome, aspect, heatmap_keeps_aspect(aspect)));
}

Plan plan(const Scenario& s, const HeatmapRequest& r, HeatmapFigure& f)
{
    Plan p;
    const std::int64_t n = s.seq_len;
    // Columns are positions, or for an encoding embedding dimensions, as many as core's table has (a
    // user's table sets its own width), so the window clamps to them like rows to the sequence.
    const std::int64_t ncols = matrix_columns(s, f.kind);
    MatrixWindow& w = p.window;
    w.row0 = std::clamp<std::int64_t>(r.row0, 0, n - 1);
    w.rows = r.rows > 0 ? std::min(r.rows, n - w.row0) : n - w.row0;
    w.col0 = std::clamp<std::int64_t>(r.col0, 0, ncols - 1);
    w.cols = r.cols > 0 ? std::min(r.cols, ncols - w.col0) : ncols - w.col0;

    p.per_head =
        r.small_multiples && f.heads > 1 &&
        (f.kind == MatrixKind::Bias || f.kind == MatrixKind::Logits || f.kind == MatrixKind::Weights);
    p.shown = p.per_head ? sampled_curve_heads(f.heads, std::max(1, r.max_panels)) : std::vector<int>{s.head};
    // Point sample beside the mean: a second panel of the same window.
    p.beside_mean = r.point_sample_beside_mean && !p.per_head;
    const int panels = p.beside_mean ? 2 : static_cast<int>(p.shown.size());
    const PanelPixels px = panel_pixels(r, panels, w.rows, w.cols);
    w.out_rows = std::min<std::int64_t>(w.rows, px.height);
    w.out_cols = std::min<std::int64_t>(w.cols, px.width);
    // A pixel shows the exact mean of its block (or says it is a point sample: MatrixResult::sampling);
    // float32 products are far below what a colour map can show (README, Benchmarks). Exact means over
    // random content generate every position's q and k (seconds beyond ~10^6 positions), too slow for
    // a slider: there the figure has point samples, and its caption says so.
    w.precision = Precision::Single;
    constexpr std::int64_t kInteractiveRandomPositions = std::int64_t{1} << 19;
    const auto sample_for = [&](const MatrixWindow& m) {
        return s.content.kind == ContentKind::Random && m.rows + m.cols > kInteractiveRandomPositions
                   ? SampleMode::Point
                   : SampleMode::BlockMean;
    };
    w.sample = sample_for(w);

    // A zoomed window also gets the whole matrix, exactly as the unzoomed figure computes it (same
    // pixel grid, same sampling): its colour scale, so that zooming does not recolour a cell.
    f.zoomed = w.row0 != 0 || w.col0 != 0 || w.rows != n || w.cols != ncols;
    const PanelPixels whole_px = panel_pixels(r, panels, n, ncols);
    p.whole.rows = n;
    p.whole.cols = ncols;
    p.whole.out_rows = std::min<std::int64_t>(n, whole_px.height);
    p.whole.out_cols = std::min<std::int64_t>(ncols, whole_px.width);
    p.whole.precision = w.precision;
    p.whole.sample = sample_for(p.whole);
    if (f.zoomed)
        p.files = scenario_files_fingerprint(s, s.method);
    f.row0 = w.row0;
    f.col0 = w.col0;
    f.rows = w.rows;
    f.cols = w.cols;
    f.whole_rows = n;
    f.whole_cols = ncols;
    return p;
}

// The whole matrix behind a zoomed window, from the cache when a recent figure computed it.
std::shared_ptr<const MatrixResult> whole_matrix(const Scenario& sh, const Plan& p, MatrixKind kind,
                                                 const MatrixWindow& whole, const CancelFn& cancel,
                                                 const ProgressFn& progress)
{
    const WholeMatrixCache::Key key{sh, p.files, kind, whole.out_rows, whole.out_cols, whole.sample};
    if (auto m = whole_matrix_cache().find(key))
        return m;
    auto m = std::make_shared<const MatrixResult>(compute_matrix(sh, kind, whole, cancel, progress));
    whole_matrix_cache().insert(key, m);
    return m;
}

// One panel of head `head`: the window (and, zoomed, the whole matrix), progress over [p0, p1].
HeatmapFigurePanel head_panel(const Scenario& s, const Plan& p, const HeatmapFigure& f, int head,
                              const MatrixWindow& window, const MatrixWindow& whole, const CancelFn& cancel,
                              const ProgressFn& progress, double p0, double p1)
{
    Scenario sh = s;
    sh.head = head;
    HeatmapFigurePanel panel;
    panel.head = head;
    double mid = p0;
    if (f.zoomed) {
        mid = 0.5 * (p0 + p1);
        panel.whole = whole_matrix(sh, p, f.kind, whole, cancel, sub_progress(progress, p0, mid));
    }
    panel.matrix = compute_matrix(sh, f.kind, window, cancel, sub_progress(progress, mid, p1));
    return panel;
}

// Nothing silently point-sampled: what a pixel shows when it is not a block mean.
HeatmapSamplingFact sampling_fact(const Scenario& s, const HeatmapFigure& f, MatrixSampling sampling)
{
    const bool linear = block_mean_supported(s, f.kind);
    // Logits that are linear in the cells but whose block means this method computes only for
    // position-independent content (Shaw, DeBERTa, xPos with random or token content) must not be
    // called "not linear".
    Scenario constant = s;
    constant.content = ContentParams{};
    const bool linear_for_constant = !linear && block_mean_supported(constant, f.kind);
    if (sampling == MatrixSampling::Point)
        return linear                ? HeatmapSamplingFact::PointRandomLength
               : linear_for_constant ? HeatmapSamplingFact::PointConstantOnly
                                     : HeatmapSamplingFact::PointNotLinear;
    if (sampling == MatrixSampling::Exact && !linear && f.zoomed)
        return HeatmapSamplingFact::ExactZoomedWindow;
    return HeatmapSamplingFact::None;
}

} // namespace

HeatmapFigure heatmap_figure(const Scenario& s, const HeatmapRequest& request, const CancelFn& cancel,
                             const ProgressFn& progress)
{
    HeatmapFigure f;
    const std::vector<MatrixKind> kinds = matrix_kinds_for(s.method);
    f.kind = request.kind && std::find(kinds.begin(), kinds.end(), *request.kind) != kinds.end()
                 ? *request.kind
                 : (kinds.empty() ? MatrixKind::Logits : kinds.front());
    const MethodDescriptor& d = descriptor(s.method);
    f.heads = d.heads ? d.heads(s) : 0;
    f.head_symbol = d.head_symbol;
    // The weights' caption names their own mask: a method's causal field follows the scenario's.
    f.caption_scenario = f.kind == MatrixKind::Weights ? weights_logits_scenario(s) : s;
    f.caption_causal =
        s.causal && (f.kind == MatrixKind::Weights || d.logits_follow_causal) && !d.field("causal");
    const Plan p = plan(s, request, f);
    const std::vector<double> values =
        d.head_symbol && d.head_values ? d.head_values(s) : std::vector<double>{};
    const auto head_value = [&](int head) -> std::optional<double> {
        if (head < 0 || static_cast<std::size_t>(head) >= values.size())
            return std::nullopt;
        return values[static_cast<std::size_t>(head)];
    };

    const double count = static_cast<double>(p.shown.size());
    for (std::size_t k = 0; k < p.shown.size(); ++k) {
        check_cancel(cancel);
        HeatmapFigurePanel panel = head_panel(s, p, f, p.shown[k], p.window, p.whole, cancel, progress,
                                              double(k) / count, double(k + 1) / count);
        panel.role = p.per_head ? HeatmapPanelRole::Head : HeatmapPanelRole::Single;
        panel.head_value = head_value(panel.head);
        f.panels.push_back(std::move(panel));
    }
    f.sampling = sampling_fact(s, f, f.panels.front().matrix.sampling);
    if (p.beside_mean) {
        // The same window point-sampled beside its block means, for teaching aliasing.
        if (f.panels.front().matrix.sampling != MatrixSampling::BlockMean) {
            f.point_sample_refused = true;
        } else {
            MatrixWindow pw = p.window, pwhole = p.whole;
            pw.sample = pwhole.sample = SampleMode::Point;
            HeatmapFigurePanel point = head_panel(s, p, f, p.shown.front(), pw, pwhole, cancel, {}, 0.0, 1.0);
            point.role = HeatmapPanelRole::PointSample;
            point.head_value = head_value(point.head);
            f.panels.front().role = HeatmapPanelRole::BlockMean;
            f.panels.push_back(std::move(point));
        }
    }
    report_progress(progress, 1.0);
    return f;
}

std::vector<MatrixKind> compared_kinds(const std::vector<Method>& methods,
                                       std::optional<MatrixKind> requested)
{
    const auto all_offer = [&](MatrixKind k) {
        return std::all_of(methods.begin(), methods.end(), [&](Method m) {
            const std::vector<MatrixKind> kinds = matrix_kinds_for(m);
            return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
        });
    };
    std::vector<MatrixKind> candidates;
    if (requested)
        candidates.push_back(*requested);
    candidates.push_back(MatrixKind::Logits);
    candidates.push_back(MatrixKind::Weights);
    for (MatrixKind k : candidates)
        if (all_offer(k))
            return std::vector<MatrixKind>(methods.size(), k);
    std::vector<MatrixKind> own;
    for (Method m : methods) {
        const std::vector<MatrixKind> kinds = matrix_kinds_for(m);
        own.push_back(kinds.empty() ? MatrixKind::Logits : kinds.front());
    }
    return own;
}

CompareHeatmapFigure compare_heatmap_figure(const Scenario& s, const std::vector<Method>& methods,
                                            const HeatmapRequest& request, const CancelFn& cancel,
                                            const ProgressFn& progress)
{
    CompareHeatmapFigure c;
    c.kinds = compared_kinds(methods, request.kind);
    const std::size_t count = methods.size();
    // Each panel its share of the view: the grid the view lays them out on, for the window of positions
    // the panels show.
    const double rows = static_cast<double>(request.rows > 0 ? request.rows : s.seq_len);
    const double cols = static_cast<double>(request.cols > 0 ? request.cols : s.seq_len);
    const double aspect = rows > 0 ? cols / rows : 1.0;
    const PanelPixels px =
        panel_pixel_budget(heatmap_grid(static_cast<int>(count), request.area_width, request.area_height,
                                        request.chrome, aspect, heatmap_keeps_aspect(aspect)));
    for (std::size_t k = 0; k < count; ++k) {
        check_cancel(cancel);
        Scenario one = s;
        one.method = methods[k];
        if (methods[k] != s.method)
            one.head = 0;
        HeatmapRequest single = request;
        single.kind = c.kinds[k];
        single.small_multiples = false;
        single.point_sample_beside_mean = false; // one panel per method
        single.area_width = static_cast<double>(static_cast<int>(px.width));
        single.area_height = static_cast<double>(static_cast<int>(px.height));
        single.chrome = {}; // px is the panel's heatmap alone
        HeatmapFigure f = heatmap_figure(one, single, cancel,
                                         sub_progress(progress, double(k) / count, double(k + 1) / count));
        const HeatmapFigure& first = k == 0 ? f : c.figures.front();
        if (f.rows != first.rows || f.cols != first.cols || f.whole_cols != first.whole_cols)
            c.same_window = false;
        c.figures.push_back(std::move(f));
    }
    report_progress(progress, 1.0);
    return c;
}

} // namespace posatlas
