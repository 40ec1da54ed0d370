// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi's curves: each head's weight factor exp(−m r) (Press et al. 2022: the bias −m r becomes this
// factor on the softmax weight), at most 8 heads so that the legend stays readable.
#include "methods/alibi/alibi_curves.h"

#include "analysis/decay.h"
#include "io/columns.h"
#include "methods/alibi/alibi.h"
#include "scenario/params.h"

namespace posatlas {

namespace {

Wording words(const char* text, std::vector<WordingArg> args = {})
{
    return {"Curves", text, std::move(args)};
}

FamilyCurves decay_curves(const CurveFamilyRequest& r)
{
    const AlibiParams& p = r.s.params<AlibiParams>();
    FamilyCurves out;
    out.title = words(QT_TRANSLATE_NOOP("Curves", "ALiBi attention decay exp(−m r) per head · "));
    out.y_label = words(QT_TRANSLATE_NOOP("Curves", "weight factor exp(−m r)"));
    out.y_column = columns::kWeightFactor;
    const std::vector<double> slopes = alibi_scaled_slopes(p);
    for (int h : sampled_curve_heads(static_cast<int>(slopes.size()), 8)) {
        check_cancel(r.cancel);
        const double m = slopes[static_cast<std::size_t>(h)];
        FamilySeries series;
        series.name = words(QT_TRANSLATE_NOOP("Curves", "m%1=%2"),
                            {WordingArg::subscript(h), WordingArg::significant(m, 2)});
        series.id = "head_" + std::to_string(h);
        series.x = r.dist;
        series.y = alibi_decay(m, r.dist);
        out.series.push_back(std::move(series));
    }
    if (p.scaling != AlibiScaling::None) {
        out.markers.push_back(
            {static_cast<double>(p.trained_length),
             words(QT_TRANSLATE_NOOP("Curves", "trained %1"), {WordingArg::whole(p.trained_length)})});
        out.markers.push_back(
            {static_cast<double>(p.target_length),
             words(QT_TRANSLATE_NOOP("Curves", "target %1"), {WordingArg::whole(p.target_length)})});
    }
    return out;
}

} // namespace

CurveFamily alibi_decay_family()
{
    return {"decay", nullptr, decay_curves};
}

DisplayedValues alibi_displayed_slopes(const Scenario& s)
{
    const AlibiParams& p = s.params<AlibiParams>();
    DisplayedValues out;
    out.values = alibi_scaled_slopes(p);
    if (p.scaling == AlibiScaling::Ntk)
        out.reasons.push_back({"DisplayedValues", "NTK-ALiBi"}); // a name: not translated
    else if (p.scaling == AlibiScaling::Interpolate)
        out.reasons.push_back({"DisplayedValues", QT_TRANSLATE_NOOP("DisplayedValues", "interpolation")});
    if (p.slope_scale != 1.0)
        out.reasons.push_back({"DisplayedValues",
                               QT_TRANSLATE_NOOP("DisplayedValues", "slope scale × %1"),
                               {WordingArg::significant(p.slope_scale, 6)}});
    return out;
}

} // namespace posatlas
