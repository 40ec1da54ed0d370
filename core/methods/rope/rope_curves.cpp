// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE's curves: the long-term decay (RoFormer's bound, Su et al. 2021 sec. 3.4.3, and the mean cosine
// over pairs), relative to r = 0, with the unscaled θ dashed when a scaling changes it.
#include "methods/rope/rope_curves.h"

#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "io/columns.h"
#include "methods/registry.h"
#include "scenario/params.h"

#include <cmath>
#include <limits>

namespace posatlas {

namespace {

Wording words(const char* text, std::vector<WordingArg> args = {})
{
    return {"Curves", text, std::move(args)};
}

// A RoPE decay curve divided by `scale` over the distances `dist` (sorted integers from 0 to max_d). Where
// the samples skip integers, each sample stands for the bin of integers up to the next one and the
// series is the envelope of that bin over every integer (rope_curve_envelope, summed in float32 from exact
// angles: within (d/2 + 4)^2 2^-24 of the double bound, 8.5e-6 of bound(0) for d = 128, far below a pixel;
// decay_single.h); otherwise the values themselves, in double. Either way the crosshair reads the double
// value at the integer under the cursor.
FamilySeries series_shell(Wording name, std::string id, RopeCurve curve, const std::vector<double>& inv_freq,
                          double scale, std::int64_t max_d)
{
    FamilySeries series;
    series.name = std::move(name);
    series.id = std::move(id);
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

void fill_values(FamilySeries& series, RopeCurve curve, const std::vector<double>& inv_freq, double scale,
                 const std::vector<double>& dist, const CancelFn& cancel, const ProgressFn& progress)
{
    series.x = dist;
    series.y = curve == RopeCurve::Bound ? rope_decay_bound(inv_freq, dist, cancel, progress)
                                         : rope_mean_cos(inv_freq, dist, cancel, progress);
    for (double& y : series.y)
        y /= scale;
}

ProgressFn part(const ProgressFn& progress, double lo, double hi)
{
    if (!progress)
        return {};
    return [progress, lo, hi](double f) { progress(lo + (hi - lo) * std::clamp(f, 0.0, 1.0)); };
}

FamilyCurves decay_curves(const CurveFamilyRequest& r)
{
    const RopeParams& p = r.s.params<RopeParams>();
    const RopeFrequencies f = compute_rope_frequencies(rope_view_params(p));
    FamilyCurves out;
    out.title = words(QT_TRANSLATE_NOOP("Curves", "RoPE long-term decay · "));
    out.y_label = words(QT_TRANSLATE_NOOP("Curves", "relative size"));
    out.y_column = columns::kRelativeSize;
    // The bound is shown relative to its value at r = 0, so that it shares the axis with the mean
    // cosine (1 at r = 0): both then show the decay's shape.
    const double bound0 = rope_decay_bound(f.inv_freq, {0.0}).front();
    FamilySeries bound = series_shell(words(QT_TRANSLATE_NOOP("Curves", "RoFormer bound ÷ bound(0)")),
                                      "bound_relative", RopeCurve::Bound, f.inv_freq, bound0, r.max_distance);
    FamilySeries mean_cos =
        series_shell(words(QT_TRANSLATE_NOOP("Curves", "mean cos(r θᵢ)")), columns::kMeanCos,
                     RopeCurve::MeanCos, f.inv_freq, 1.0, r.max_distance);
    const bool unscaled = f.inv_freq != f.inv_freq_original;
    const double done = unscaled ? 0.6 : 1.0;
    if (every_integer(r.dist, r.max_distance)) {
        fill_values(bound, RopeCurve::Bound, f.inv_freq, bound0, r.dist, r.cancel,
                    part(r.progress, 0, done / 2));
        fill_values(mean_cos, RopeCurve::MeanCos, f.inv_freq, 1.0, r.dist, r.cancel,
                    part(r.progress, done / 2, done));
    } else {
        // Both envelopes from one pass over the integers (the bound's rotations give the mean cosine).
        const RopeCurveEnvelopes env =
            rope_curve_envelopes(f.inv_freq, curve_bin_edges(r.dist, r.max_distance), r.cancel,
                                 part(r.progress, 0, done), Precision::Single);
        append_envelope(bound, r.dist, env.bound, bound0);
        append_envelope(mean_cos, r.dist, env.mean_cos, 1.0);
    }
    out.series.push_back(std::move(bound));
    out.series.push_back(std::move(mean_cos));
    if (unscaled) {
        // What tells it from the scaled bound first: a docked chart's legend elides the end of each label.
        FamilySeries orig = series_shell(
            words(QT_TRANSLATE_NOOP("Curves", "unscaled θ: RoFormer bound ÷ bound(0)")),
            "bound_relative_unscaled", RopeCurve::Bound, f.inv_freq_original, bound0, r.max_distance);
        const ProgressFn rest = part(r.progress, done, 1.0);
        if (every_integer(r.dist, r.max_distance))
            fill_values(orig, RopeCurve::Bound, f.inv_freq_original, bound0, r.dist, r.cancel, rest);
        else
            append_envelope(orig, r.dist,
                            rope_curve_envelope(RopeCurve::Bound, f.inv_freq_original,
                                                curve_bin_edges(r.dist, r.max_distance), r.cancel, rest,
                                                Precision::Single),
                            bound0);
        orig.dashed = true;
        out.series.push_back(std::move(orig));
    }
    out.markers.push_back(
        {static_cast<double>(p.trained_length()),
         words(QT_TRANSLATE_NOOP("Curves", "trained %1"), {WordingArg::whole(p.trained_length())})});
    if (const std::int64_t target = rope_default_target_length(p); target != p.trained_length())
        out.markers.push_back({static_cast<double>(target),
                               words(QT_TRANSLATE_NOOP("Curves", "target %1"), {WordingArg::whole(target)})});
    // Short: the note shares a line with the chart's controls.
    out.notes.push_back(words(QT_TRANSLATE_NOOP("Curves", "bound(0) = %1 · attention factor %2"),
                              {WordingArg::number(bound0, 6), WordingArg::number(f.attention_factor, 4)}));
    for (Wording extra : {rope_length_note(p), rope_identity_note(p, f), rope_trained_length_note(p)})
        if (!extra.empty())
            out.notes.push_back(std::move(extra));
    return out;
}

} // namespace

bool rope_length_dependent(const RopeParams& p)
{
    return p.rope_type == RopeType::Dynamic || p.rope_type == RopeType::LongRope;
}

RopeParams rope_view_params(const RopeParams& p)
{
    RopeParams q = p;
    if (rope_length_dependent(p) && p.seq_len == 0)
        q.seq_len = rope_default_target_length(p);
    return q;
}

Wording rope_length_note(const RopeParams& p)
{
    if (!rope_length_dependent(p))
        return {};
    const std::int64_t n = rope_view_params(p).seq_len;
    return p.seq_len == 0 ? words(QT_TRANSLATE_NOOP("Curves", "θ for length %1 (the target length)"),
                                  {WordingArg::whole(n)})
                          : words(QT_TRANSLATE_NOOP("Curves", "θ for length %1"), {WordingArg::whole(n)});
}

Wording rope_identity_note(const RopeParams& p, const RopeFrequencies& f)
{
    if (p.rope_type == RopeType::Default || f.inv_freq != f.inv_freq_original || f.logit_multiplier() != 1.0)
        return {};
    return words(QT_TRANSLATE_NOOP("Curves", "%1 × %2 is the identity here: θ′ = θ"),
                 {WordingArg::choice(*descriptor(RopeParams::kMethod).field("rope_type"),
                                     static_cast<int>(p.rope_type)),
                  WordingArg::number(p.factor, 6)});
}

Wording rope_trained_length_note(const RopeParams& p)
{
    if (!trained_length_ambiguous(p))
        return {};
    return words(QT_TRANSLATE_NOOP(
                     "Curves",
                     "trained length %1 assumed: the config does not say whether max_position_embeddings is "
                     "the trained or the extended context; set Original context"),
                 {WordingArg::whole(p.max_position_embeddings)});
}

CurveFamily rope_decay_family()
{
    return {"decay", nullptr, decay_curves};
}

} // namespace posatlas
