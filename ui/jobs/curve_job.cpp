// SPDX-License-Identifier: GPL-3.0-or-later
// The curves view's job: decay curves, bucket functions and every method's exact logit envelope.
#include "jobs/view_jobs.h"

#include "jobs/view_job_support.h"

#include "analysis/curve_envelope.h"

namespace posatlas::ui {

using namespace view_job_support;

namespace {

void append_envelope(CurveSeries& series, const std::vector<double>& dist, const CurveEnvelope& env, double scale)
{
    series.envelope = true;
    series.x.reserve(2 * dist.size());
    series.y.reserve(2 * dist.size());
    for (std::size_t b = 0; b < dist.size(); ++b) {
        if (!std::isfinite(env.min[b]) || !std::isfinite(env.max[b]))
            continue;
        const bool up = b % 2 == 0;
        series.x.push_back(dist[b]);
        series.y.push_back((up ? env.min[b] : env.max[b]) / scale);
        if (env.max[b] != env.min[b]) {
            series.x.push_back(dist[b]);
            series.y.push_back((up ? env.max[b] : env.min[b]) / scale);
        }
    }
}

// Logit of query `query` (default: the last position) against keys at distance r = query - j >= 0, from
// core's compute_matrix: the curve for methods without a closed-form decay, and the common unit for
// overlaid methods. Up to `points` distances (log-spaced with log_x): every integer when they fit, else
// the exact min and max over every integer distance of each bin (core's logit_curve_envelope), so that
// an oscillating curve keeps its peaks at any N. The crosshair reads the exact logit at the integer r.
CurveSeries logit_series(const Scenario& s, int points, bool log_x, const CancelFn& cancel,
                         const ProgressFn& progress, std::int64_t query = -1)
{
    if (query < 0)
        query = s.seq_len - 1;
    CurveSeries series;
    series.name = qs(method_display_name(s.method)) + ViewJobs::tr(" · logit");
    series.value_at = [s, query](double x) {
        const double r = std::round(x);
        if (!(r >= 0.0 && r <= static_cast<double>(query)))
            return std::numeric_limits<double>::quiet_NaN();
        return logit_at_distance(s, query, static_cast<std::int64_t>(r));
    };
    const std::vector<double> dist = decay_distances(query, static_cast<std::size_t>(std::max(2, points)), log_x);
    std::vector<std::int64_t> edges(dist.size() + 1);
    for (std::size_t i = 0; i < dist.size(); ++i)
        edges[i] = static_cast<std::int64_t>(dist[i]);
    edges.back() = query + 1;
    const CurveEnvelope env = logit_curve_envelope(s, query, edges, cancel, progress);
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

// The query whose logits a curve shows: the last position, or for a learned table shorter than the
// sequence (GPT-2: 1024 rows) the last position that has an embedding (the table is loaded for its
// length, as core reads it).
std::int64_t curve_query(const Scenario& s)
{
    if (s.method != Method::Learned)
        return s.seq_len - 1;
    return std::min(s.seq_len, learned_shape(s.params<LearnedParams>()).trained_length) - 1;
}

CurveSeries make_series(const QString& name, std::vector<double> x = {}, std::vector<double> y = {})
{
    CurveSeries series;
    series.name = name;
    series.x = std::move(x);
    series.y = std::move(y);
    return series;
}

// A RoPE decay curve divided by `scale` over the distances `dist` (sorted integers from 0 to max_d). Where
// the samples skip integers, each sample stands for the bin of integers up to the next one and the
// series is the exact envelope of that bin (core's rope_curve_envelope); otherwise the values
// themselves. Either way the crosshair reads the exact value at the integer under the cursor.
CurveSeries rope_curve_series(const QString& name, RopeCurve curve, const std::vector<double>& inv_freq,
                              double scale, const std::vector<double>& dist, std::int64_t max_d,
                              const CancelFn& cancel, const ProgressFn& progress)
{
    CurveSeries series = make_series(name);
    series.value_at = [curve, inv_freq, scale, max_d](double x) {
        const double r = std::round(x);
        if (!(r >= 0.0 && r <= static_cast<double>(max_d)))
            return std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> v =
            curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, {r}) : rope_mean_cos(inv_freq, {r});
        return v.front() / scale;
    };
    if (dist.size() == static_cast<std::size_t>(max_d) + 1) { // every integer: nothing to hide
        series.x = dist;
        series.y = curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, dist, cancel, progress)
                                             : rope_mean_cos(inv_freq, dist, cancel, progress);
        for (double& y : series.y)
            y /= scale;
        return series;
    }
    std::vector<std::int64_t> edges(dist.size() + 1);
    for (std::size_t i = 0; i < dist.size(); ++i)
        edges[i] = static_cast<std::int64_t>(dist[i]);
    edges.back() = max_d + 1;
    append_envelope(series, dist, rope_curve_envelope(curve, inv_freq, edges, cancel, progress), scale);
    return series;
}

// Curve distances (whole numbers, decay_distances) as the integer positions core's series take.
std::vector<std::int64_t> integer_distances(const std::vector<double>& dist)
{
    std::vector<std::int64_t> out(dist.size());
    for (std::size_t i = 0; i < dist.size(); ++i)
        out[i] = static_cast<std::int64_t>(dist[i]);
    return out;
}

template <typename T>
std::vector<double> to_doubles(const std::vector<T>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

CurveMarker make_marker(double value, const QString& label)
{
    CurveMarker marker;
    marker.value = value;
    marker.label = label;
    return marker;
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

} // namespace

// ---------------------------------------------------------------- curves

CurveData curve_job(const Scenario& s, const ViewSettings& v, const CancelFn& cancel,
                    const ProgressFn& progress)
{
    validate(s);
    CurveData data;
    data.log_x = v.log_x;
    data.x_label = ViewJobs::tr("relative distance r (positions)");
    const std::int64_t maxD = auto_max_distance(s, v);
    const auto points = static_cast<std::size_t>(std::max(16, v.curve_points));
    const std::vector<double> dist = decay_distances(maxD, points, v.log_x);
    const double overlayShare = v.overlay.empty() ? 1.0 : 0.7;
    const ProgressFn mainProgress = sub_progress(progress, 0.0, overlayShare);

    bool logitCurve = false; // the method's curve is logit against distance (else a unit of its own)
    if (s.method == Method::RoPE) {

        const RopeFrequencies f = compute_rope_frequencies(rope_for_views(s.params<RopeParams>()));
        data.title = ViewJobs::tr("RoPE long-term decay · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("relative size");
        // The bound is shown relative to its value at r = 0, so that it shares the axis with the mean
        // cosine (1 at r = 0): both then show the decay's shape.
        const double bound0 = rope_decay_bound(f.inv_freq, {0.0}).front();
        data.series.push_back(rope_curve_series(ViewJobs::tr("RoFormer bound ÷ bound(0)"), RopeCurve::Bound, f.inv_freq,
                                                bound0, dist, maxD, cancel, sub_progress(mainProgress, 0, 0.35)));
        data.series.push_back(rope_curve_series(ViewJobs::tr("mean cos(r θ_i)"), RopeCurve::MeanCos, f.inv_freq, 1.0, dist,
                                                maxD, cancel, sub_progress(mainProgress, 0.35, 0.7)));
        if (f.inv_freq != f.inv_freq_original) {
            CurveSeries orig =
                rope_curve_series(ViewJobs::tr("RoFormer bound ÷ bound(0), unscaled θ"), RopeCurve::Bound,
                                  f.inv_freq_original, bound0, dist, maxD, cancel, sub_progress(mainProgress, 0.7, 1.0));
            orig.dashed = true;
            data.series.push_back(std::move(orig));
        }
        data.markers.push_back(make_marker(static_cast<double>(s.params<RopeParams>().trained_length()),
                                           ViewJobs::tr("trained %1").arg(s.params<RopeParams>().trained_length())));
        if (const std::int64_t target = rope_default_target_length(s.params<RopeParams>()); target != s.params<RopeParams>().trained_length())
            data.markers.push_back(make_marker(static_cast<double>(target), ViewJobs::tr("target %1").arg(target)));
        // Short: the note shares a line with the chart's controls. (Bound: Su et al. 2021 sec. 3.4.3.)
        data.note = ViewJobs::tr("bound(0) = %1 · attention factor %2").arg(short_num(bound0), format_number(f.attention_factor, 4));
        for (const QString& extra : {length_note(s.params<RopeParams>()), identity_note(s.params<RopeParams>(), f)})
            if (!extra.isEmpty())
                data.note += ViewJobs::tr(" · ") + extra;
    } else if (s.method == Method::ALiBi) {

        data.title = ViewJobs::tr("ALiBi attention decay exp(−m r) per head · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("weight factor exp(−m r)");
        const std::vector<double> slopes = alibi_scaled_slopes(s.params<AlibiParams>());
        // At most 8 curves: more would not fit a readable legend.
        for (int h : sampled_heads(static_cast<int>(slopes.size()), 8)) {
            check_cancel(cancel);
            const double m = slopes[static_cast<std::size_t>(h)];
            data.series.push_back(make_series(ViewJobs::tr("m%1=%2").arg(subscript(h), QString::number(m, 'g', 2)),
                                              dist, alibi_decay(m, dist)));
        }
        data.log_y = false;
        if (s.params<AlibiParams>().scaling != AlibiScaling::None) {
            data.markers.push_back(make_marker(static_cast<double>(s.params<AlibiParams>().trained_length),
                                               ViewJobs::tr("trained %1").arg(s.params<AlibiParams>().trained_length)));
            data.markers.push_back(make_marker(static_cast<double>(s.params<AlibiParams>().target_length),
                                               ViewJobs::tr("target %1").arg(s.params<AlibiParams>().target_length)));
        }

    } else if (s.method == Method::T5) {

        data.title = ViewJobs::tr("T5 relative-position buckets · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("bucket index");
        const T5DistanceBuckets b = t5_distance_buckets(s.params<T5Params>(), integer_distances(dist));
        // Causal T5 buckets only keys before the query (relative_position <= 0): one series.
        CurveSeries first = s.params<T5Params>().bidirectional
                                ? make_series(ViewJobs::tr("key after query (j − i = +r)"), dist, to_doubles(b.after))
                                : make_series(ViewJobs::tr("key before query (causal)"), dist, to_doubles(b.before));
        first.step = true;
        data.series.push_back(std::move(first));
        if (s.params<T5Params>().bidirectional) {
            CurveSeries before = make_series(ViewJobs::tr("key before query (j − i = −r)"), dist, to_doubles(b.before));
            before.step = true;
            data.series.push_back(std::move(before));
        }
        data.markers.push_back(make_marker(static_cast<double>(s.params<T5Params>().max_distance),
                                           ViewJobs::tr("max distance %1").arg(s.params<T5Params>().max_distance)));
    } else if (s.method == Method::DeBERTa) {
        data.title = ViewJobs::tr("DeBERTa log-bucketed relative position · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("relative position δ (bucketed)");
        // What attention uses is the relative-embedding row, the bucket clamped to the embedding table
        // (core deberta_relative_positions: delta_used, in the unit of delta); the bucket itself keeps
        // rising past max_relative_positions, so it is drawn dashed for comparison.
        const DebertaPositionSeries p = deberta_relative_positions(s.params<DebertaParams>(), integer_distances(dist));
        CurveSeries used = make_series(ViewJobs::tr("row used by attention (clamped to ±%1)").arg(p.att_span), dist,
                                       to_doubles(p.delta_used));
        CurveSeries bucket = make_series(ViewJobs::tr("bucket δ before clamping"), dist, to_doubles(p.delta));
        used.step = bucket.step = true;
        bucket.dashed = true;
        const bool clamps = p.delta_used != p.delta;
        data.series.push_back(std::move(used));
        if (clamps)
            data.series.push_back(std::move(bucket));
        if (s.params<DebertaParams>().position_buckets > 0)
            data.markers.push_back(make_marker(s.params<DebertaParams>().position_buckets / 2.0,
                                               ViewJobs::tr("exact up to %1").arg(s.params<DebertaParams>().position_buckets / 2)));
        data.markers.push_back(make_marker(static_cast<double>(s.params<DebertaParams>().max_relative_positions),
                                           ViewJobs::tr("max relative %1").arg(s.params<DebertaParams>().max_relative_positions)));

    } else {
        // Short: the full method name with its citation made this title longer than a docked chart
        // (it is in the heatmap's title and the panel); "last query" moves to the note.
        data.title = ViewJobs::tr("%1 logit against distance · %2").arg(short_method_name(s.method), scenario_caption(s, false));
        data.y_label = ViewJobs::tr("logit");
        logitCurve = true;
        const std::int64_t query = curve_query(s);
        if (query < s.seq_len - 1) { // a learned table shorter than the sequence
            data.title = ViewJobs::tr("%1 logit vs distance (query %2) · %3")
                             .arg(short_method_name(s.method))
                             .arg(query)
                             .arg(scenario_caption(s, false));
            data.note = ViewJobs::tr("no learned embedding at positions ≥ %1: distances from query %2").arg(query + 1).arg(query);
        } else {
            data.note = ViewJobs::tr("the last query's logits; distances up to N − 1 = %1: increase the sequence length to "
                           "see further")
                            .arg(s.seq_len - 1);
        }
        data.series.push_back(logit_series(s, static_cast<int>(points), v.log_x, cancel, mainProgress, query));

    }


    // Overlays are logits of the last query against distance. The method's own curve above may be in
    // another unit (RoPE's relative size, ALiBi's weight factor, bucket indices): on one axis that would
    // mix units, so with overlays every method, this one included, is drawn as that logit.
    const bool overlaid = std::any_of(v.overlay.begin(), v.overlay.end(), [&](Method m) { return m != s.method; });
    if (overlaid && !logitCurve) {
        data.series.clear();
        data.markers.clear();
        data.series.push_back(logit_series(s, static_cast<int>(points), v.log_x, cancel, mainProgress, curve_query(s)));
        data.title = ViewJobs::tr("Logit against distance (last query) · ") + scenario_caption(s, false);
        data.y_label = ViewJobs::tr("logit");
        data.note = ViewJobs::tr("overlay: every curve is the logit of the last query against distance, in one unit");
    }
    for (std::size_t k = 0; k < v.overlay.size(); ++k) {
        if (v.overlay[k] == s.method)
            continue;
        check_cancel(cancel);
        Scenario o = s;
        o.method = v.overlay[k];
        o.head = 0;
        CurveSeries series =
            logit_series(o, static_cast<int>(points), v.log_x, cancel,
                         sub_progress(progress, overlayShare + (1 - overlayShare) * k / v.overlay.size(),
                                      overlayShare + (1 - overlayShare) * (k + 1) / v.overlay.size()),
                         curve_query(o));
        series.dashed = true;
        data.series.push_back(std::move(series));
    }

    if (data.log_x)
        for (auto& series : data.series)
            drop_nonpositive_x(series);
    // A vertical marker beyond the curves (a 4096 context on a 256-distance plot) would stretch the
    // axis and squash the data into a corner: keep only the markers inside the plotted range.
    double x_max = 0.0;
    for (const auto& series : data.series)
        for (double x : series.x)
            x_max = std::max(x_max, x);
    data.markers.erase(std::remove_if(data.markers.begin(), data.markers.end(),
                                      [&](const CurveMarker& m) { return m.vertical && m.value > x_max; }),
                       data.markers.end());
    report_progress(progress, 1.0);
    return data;
}

} // namespace posatlas::ui
