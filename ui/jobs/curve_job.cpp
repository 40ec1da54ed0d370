// SPDX-License-Identifier: GPL-3.0-or-later
// The curves view's job: decay curves, bucket functions and every method's exact logit envelope.
#include "jobs/view_jobs.h"

#include "io/columns.h"
#include "jobs/curve_drawing.h"
#include "jobs/curves/curve_support.h"
#include "jobs/curves/method_curves.h"
#include "jobs/view_job_support.h"

#include "analysis/curve_envelope.h"
#include "methods/registry.h"

#include "scenario/content.h"
#include <cmath>

namespace posatlas::ui {

using namespace view_job_support;
using namespace curve_support;

namespace {

// Logit of query `query` (default: the last position) against keys at distance r = query - j >= 0, from
// core's compute_matrix: the curve for methods without a closed-form decay, and the common unit for
// overlaid methods. Up to `points` distances (log-spaced with log_x): every integer when they fit, else
// the min and max over every integer distance of each bin (core's logit_curve_envelope), so that
// an oscillating curve keeps its peaks at any N. The crosshair reads the exact logit at the integer r.
CurveSeries logit_series(const Scenario& s, int points, bool log_x, const CancelFn& cancel,
                         const ProgressFn& progress, std::int64_t query = -1)
{
    if (query < 0)
        query = s.seq_len - 1;
    CurveSeries series = make_series(qs(method_display_name(s.method)) + ViewJobs::tr(" · logit"),
                                     QStringLiteral("logit_") + qs(method_id(s.method)));
    series.value_at = [s, query](double x) {
        const double r = std::round(x);
        if (!(r >= 0.0 && r <= static_cast<double>(query)))
            return std::numeric_limits<double>::quiet_NaN();
        return logit_at_distance(s, query, static_cast<std::int64_t>(r));
    };
    const std::vector<double> dist =
        decay_distances(query, static_cast<std::size_t>(std::max(2, points)), log_x);
    // Content drawn for every position (random vectors, a sentence's tokens) costs d normals per key:
    // 5 x 10^8 for a sinusoidal curve of 10^6 distances (11 s). Beyond `samples` distances the envelope
    // is then taken over evenly spaced samples (core's sampled_logit_curve_envelope), and the figure's
    // note says so.
    // The budget is in normals: 2^20 / d samples (2^14 for d = 64, 2^11 for a 512-wide sinusoidal
    // model). CoPE's row is streamed, but its samples cost one key each too once its positions are
    // clamped at npos_max - 1, a few hundred keys from the query (cope_row).
    const MethodDescriptor& method = descriptor(s.method);
    const int dim = std::max(1, method.content_dim ? method.content_dim(s) : 64);
    const std::int64_t samples =
        std::clamp<std::int64_t>((std::int64_t{1} << 20) / dim, 1024, std::int64_t{1} << 14);
    const bool generated = !content_is_position_independent(s.content) && !s.content.from_files();
    CurveEnvelope env;
    if (generated && query + 1 > 2 * samples) {
        const SampledCurveEnvelope sampled =
            sampled_logit_curve_envelope(s, query, bin_edges(dist, query), samples, cancel, progress);
        env = sampled.envelope;
        if (sampled.sampled_from <= query)
            series.sampling = ViewJobs::tr("generated content: distances ≥ %1 sampled, at least 1 in %2")
                                  .arg(sampled.sampled_from)
                                  .arg(std::llround(sampled.spacing));
    } else {
        // Wide bins (more distances than points): float32 sums where the method has them (registry.h,
        // distance_logits; SinusoidSum's bound, far below a pixel). Every integer drawn: its values, in
        // double, as the crosshair and `posatlas compute` give them.
        const bool everyInteger = dist.size() == static_cast<std::size_t>(query) + 1;
        env = logit_curve_envelope(s, query, bin_edges(dist, query), cancel, progress,
                                   everyInteger ? Precision::Double : Precision::Single);
    }
    if (dist.size() == static_cast<std::size_t>(query) + 1) { // every integer: the values themselves
        for (std::size_t b = 0; b < dist.size(); ++b)
            if (std::isfinite(env.min[b])) {
                series.x.push_back(dist[b]);
                series.y.push_back(env.min[b]);
            }
        return series;
    }
    append_envelope(series, dist, env, 1.0);
    return series;
}

// The query whose logits a curve shows: the last position that has one (MethodDescriptor::last_query: a
// learned table shorter than the sequence, GPT-2's 1024 rows, stops at its last row).
std::int64_t curve_query(const Scenario& s)
{
    return curve_last_query(s);
}

void drop_nonpositive_x(CurveSeries& series)
{
    // A log axis cannot show r = 0; the curve starts at r = 1 instead.
    std::size_t k = 0;
    for (std::size_t i = 0; i < series.x.size(); ++i)
        if (series.x[i] > 0.0) {
            series.x[k] = series.x[i];
            series.y[k] = series.y[i];
            ++k;
        }
    series.x.resize(k);
    series.y.resize(k);
}

// Methods side by side: every compared method's logit of the last query against distance, on shared
// axes. Their own curves are in different units (RoPE's relative size, ALiBi's weight factor, bucket
// indices), so, as with overlays, the one unit they share is the logit. Colours: the view's palette by
// series index, so each method has its own.
CurveData compare_curve_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                            const ProgressFn& progress)
{
    check_compare_list(v.compare);
    CurveData data;
    data.log_x = v.log_x;
    data.x_label = ViewJobs::tr("relative distance r (positions)");
    data.x_column = column(columns::kDistance);
    data.y_label = ViewJobs::tr("logit");
    data.y_column = column(columns::kLogit);
    // The methods first (a narrow figure elides the title's end; the window title says "Comparing: …").
    data.title =
        ViewJobs::tr("%1 · logit against distance · N %2").arg(compare_names(v.compare)).arg(s.seq_len);
    data.note = ViewJobs::tr("the last query's logits, each method with its own parameters");
    const int points = std::max(16, v.curve_points);
    const std::size_t count = v.compare.size();
    for (std::size_t k = 0; k < count; ++k) {
        check_cancel(cancel);
        Scenario o = as_method(s, v.compare[k]);
        validate(o);
        CurveSeries series =
            logit_series(o, points, v.log_x, cancel,
                         sub_progress(progress, double(k) / count, double(k + 1) / count), curve_query(o));
        series.name = short_method_name(o.method); // the legend names the methods
        data.series.push_back(std::move(series));
    }
    return data;
}

// The current method's own curve, and the overlays.
CurveData single_curve_data(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                            const ProgressFn& progress)
{
    CurveData data;
    data.log_x = v.log_x;
    data.x_label = ViewJobs::tr("relative distance r (positions)");
    const std::int64_t maxD = auto_max_distance(s, v);
    const auto points = static_cast<std::size_t>(std::max(16, v.curve_points));
    const std::vector<double> dist = decay_distances(maxD, points, v.log_x);
    const double overlayShare = v.overlay.empty() ? 1.0 : 0.7;
    const ProgressFn mainProgress = sub_progress(progress, 0.0, overlayShare);

    data.x_column = column(columns::kDistance);
    const CurveFamily* family = curve_family_for(s);
    if (family) {
        family_curves(*family, s, maxD, dist, cancel, mainProgress, data);
    } else {
        // Short: the full method name with its citation made this title longer than a docked chart
        // (it is in the heatmap's title and the panel); "last query" moves to the note.
        data.title = ViewJobs::tr("%1 logit against distance · %2")
                         .arg(short_method_name(s.method), scenario_caption(s, false));
        data.y_label = ViewJobs::tr("logit");
        data.y_column = column(columns::kLogit);
        const std::int64_t query = curve_query(s);
        if (query < s.seq_len - 1) { // a learned table shorter than the sequence (last_query)
            data.title = ViewJobs::tr("%1 logit vs distance (query %2) · %3")
                             .arg(short_method_name(s.method))
                             .arg(query)
                             .arg(scenario_caption(s, false));
            data.note = ViewJobs::tr("no learned embedding at positions ≥ %1: distances from query %2")
                            .arg(query + 1)
                            .arg(query);
        } else {
            data.note =
                ViewJobs::tr(
                    "the last query's logits; distances up to N − 1 = %1: increase the sequence length to "
                    "see further")
                    .arg(s.seq_len - 1);
        }
        data.series.push_back(
            logit_series(s, static_cast<int>(points), v.log_x, cancel, mainProgress, query));
    }

    // Overlays are logits of the last query against distance. The method's own curve above may be in
    // another unit (RoPE's relative size, ALiBi's weight factor, bucket indices): on one axis that would
    // mix units, so with overlays every method, this one included, is drawn as that logit.
    const bool overlaid =
        std::any_of(v.overlay.begin(), v.overlay.end(), [&](Method m) { return m != s.method; });
    if (overlaid && family) {
        data.series.clear();
        data.markers.clear();
        data.series.push_back(
            logit_series(s, static_cast<int>(points), v.log_x, cancel, mainProgress, curve_query(s)));
        data.title = ViewJobs::tr("Logit against distance (last query) · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("logit");
        data.y_column = column(columns::kLogit);
        data.note =
            ViewJobs::tr("overlay: every curve is the logit of the last query against distance, in one unit");
    }
    for (std::size_t k = 0; k < v.overlay.size(); ++k) {
        if (v.overlay[k] == s.method)
            continue;
        check_cancel(cancel);
        const Scenario o = as_method(s, v.overlay[k]);
        CurveSeries series =
            logit_series(o, static_cast<int>(points), v.log_x, cancel,
                         sub_progress(progress, overlayShare + (1 - overlayShare) * k / v.overlay.size(),
                                      overlayShare + (1 - overlayShare) * (k + 1) / v.overlay.size()),
                         curve_query(o));
        series.dashed = true;
        data.series.push_back(std::move(series));
    }
    return data;
}

} // namespace

// ---------------------------------------------------------------- curves

CurveData curve_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                    const ProgressFn& progress)
{
    validate(s);
    CurveData data;
    if (!v.compare.empty())
        data = compare_curve_job(s, v, cancel, progress);
    else
        data = single_curve_data(s, v, cancel, progress);

    if (data.log_x)
        for (auto& series : data.series)
            drop_nonpositive_x(series);
    // Say what a sampled envelope shows (the first such series speaks for all: same rule, same N).
    for (const auto& series : data.series)
        if (!series.sampling.isEmpty()) {
            data.note += (data.note.isEmpty() ? QString() : ViewJobs::tr(" · ")) + series.sampling;
            break;
        }
    // A vertical marker beyond the curves (a 4096 context on a 256-distance plot) would stretch the
    // axis and squash the data into a corner: keep only the markers inside the plotted range.
    double x_max = 0.0;
    for (const auto& series : data.series)
        for (double x : series.x)
            x_max = std::max(x_max, x);
    data.markers.erase(std::remove_if(data.markers.begin(), data.markers.end(),
                                      [&](const CurveMarker& m) { return m.vertical && m.value > x_max; }),
                       data.markers.end());
    // What the chart draws: at most four points per pixel column of its plot, decimated here on the
    // worker. The series hold one or two points per bin (up to 2 x 10^5 points); Qt Charts strokes every
    // segment on the GUI thread, and several bins' segments in one pixel column only overdraw each other.
    if (v.curve_plot_width > 0.0)
        decimate_for_plot(data, v.curve_plot_left, v.curve_plot_width);
    report_progress(progress, 1.0);
    return data;
}

} // namespace posatlas::ui
