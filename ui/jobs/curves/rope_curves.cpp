// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE's curves: the long-term decay (RoFormer's bound, Su et al. 2021 sec. 3.4.3, and the mean cosine
// over pairs), relative to r = 0, with the unscaled θ dashed when a scaling changes it.
#include "jobs/curves/method_curves.h"

#include "io/columns.h"
#include "jobs/curves/curve_support.h"
#include "jobs/view_job_support.h"

namespace posatlas::ui {

using namespace view_job_support;
using namespace curve_support;

namespace {

// A RoPE decay curve divided by `scale` over the distances `dist` (sorted integers from 0 to max_d). Where
// the samples skip integers, each sample stands for the bin of integers up to the next one and the
// series is the envelope of that bin over every integer (core's rope_curve_envelope, summed in float32
// from exact angles: within (d/2 + 4)^2 2^-24 of the double bound, 8.5e-6 of bound(0) for d = 128, far
// below a pixel; decay_single.h); otherwise the values themselves, in double. Either way the crosshair
// reads the double value at the integer under the cursor.
CurveSeries rope_series_shell(const QString& name, const QString& id, RopeCurve curve,
                              const std::vector<double>& inv_freq, double scale, std::int64_t max_d)
{
    CurveSeries series = make_series(name, id);
    series.value_at = [curve, inv_freq, scale, max_d](double x) {
        const double r = std::round(x);
        if (!(r >= 0.0 && r <= static_cast<double>(max_d)))
            return std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> v =
            curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, {r}) : rope_mean_cos(inv_freq, {r});
        return v.front() / scale;
    };
    return series;
}

bool every_integer(const std::vector<double>& dist, std::int64_t max_d)
{
    return dist.size() == static_cast<std::size_t>(max_d) + 1;
}

void fill_values(CurveSeries& series, RopeCurve curve, const std::vector<double>& inv_freq, double scale,
                 const std::vector<double>& dist, const CancelFn& cancel, const ProgressFn& progress)
{
    series.x = dist;
    series.y = curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, dist, cancel, progress)
                                         : rope_mean_cos(inv_freq, dist, cancel, progress);
    for (double& y : series.y)
        y /= scale;
}

CurveSeries rope_curve_series(const QString& name, const QString& id, RopeCurve curve,
                              const std::vector<double>& inv_freq, double scale,
                              const std::vector<double>& dist, std::int64_t max_d, const CancelFn& cancel,
                              const ProgressFn& progress)
{
    CurveSeries series = rope_series_shell(name, id, curve, inv_freq, scale, max_d);
    if (every_integer(dist, max_d)) // every integer: nothing to hide
        fill_values(series, curve, inv_freq, scale, dist, cancel, progress);
    else
        append_envelope(
            series, dist,
            rope_curve_envelope(curve, inv_freq, bin_edges(dist, max_d), cancel, progress, Precision::Single),
            scale);
    return series;
}

} // namespace

void rope_curves(const CurveRequest& r, CurveData& data)
{
    const RopeParams& p = r.s.params<RopeParams>();
    const RopeFrequencies f = compute_rope_frequencies(rope_for_views(p));
    data.title = ViewJobs::tr("RoPE long-term decay · ") + scenario_caption(r.s, false);
    data.y_label = ViewJobs::tr("relative size");
    data.y_column = column(columns::kRelativeSize);
    // The bound is shown relative to its value at r = 0, so that it shares the axis with the mean
    // cosine (1 at r = 0): both then show the decay's shape.
    const double bound0 = rope_decay_bound(f.inv_freq, {0.0}).front();
    CurveSeries bound =
        rope_series_shell(ViewJobs::tr("RoFormer bound ÷ bound(0)"), QStringLiteral("bound_relative"),
                          RopeCurve::Bound, f.inv_freq, bound0, r.max_distance);
    CurveSeries mean_cos = rope_series_shell(ViewJobs::tr("mean cos(r θᵢ)"), column(columns::kMeanCos),
                                             RopeCurve::MeanCos, f.inv_freq, 1.0, r.max_distance);
    const bool unscaled = f.inv_freq != f.inv_freq_original;
    const double done = unscaled ? 0.6 : 1.0;
    if (every_integer(r.dist, r.max_distance)) {
        fill_values(bound, RopeCurve::Bound, f.inv_freq, bound0, r.dist, r.cancel,
                    sub_progress(r.progress, 0, done / 2));
        fill_values(mean_cos, RopeCurve::MeanCos, f.inv_freq, 1.0, r.dist, r.cancel,
                    sub_progress(r.progress, done / 2, done));
    } else {
        // Both envelopes from one pass over the integers (the bound's rotations give the mean cosine).
        const RopeCurveEnvelopes env =
            rope_curve_envelopes(f.inv_freq, bin_edges(r.dist, r.max_distance), r.cancel,
                                 sub_progress(r.progress, 0, done), Precision::Single);
        append_envelope(bound, r.dist, env.bound, bound0);
        append_envelope(mean_cos, r.dist, env.mean_cos, 1.0);
    }
    data.series.push_back(std::move(bound));
    data.series.push_back(std::move(mean_cos));
    if (unscaled) {
        // What tells it from the scaled bound first: a docked chart's legend elides the end of each label.
        CurveSeries orig = rope_curve_series(ViewJobs::tr("unscaled θ: RoFormer bound ÷ bound(0)"),
                                             QStringLiteral("bound_relative_unscaled"), RopeCurve::Bound,
                                             f.inv_freq_original, bound0, r.dist, r.max_distance, r.cancel,
                                             sub_progress(r.progress, done, 1.0));
        orig.dashed = true;
        data.series.push_back(std::move(orig));
    }
    data.markers.push_back(make_marker(static_cast<double>(p.trained_length()),
                                       ViewJobs::tr("trained %1").arg(p.trained_length())));
    if (const std::int64_t target = rope_default_target_length(p); target != p.trained_length())
        data.markers.push_back(
            make_marker(static_cast<double>(target), ViewJobs::tr("target %1").arg(target)));
    // Short: the note shares a line with the chart's controls.
    data.note = ViewJobs::tr("bound(0) = %1 · attention factor %2")
                    .arg(short_num(bound0), format_number(f.attention_factor, 4));
    for (const QString& extra : {length_note(p), identity_note(p, f), trained_length_note(p)})
        if (!extra.isEmpty())
            data.note += ViewJobs::tr(" · ") + extra;
}

} // namespace posatlas::ui
