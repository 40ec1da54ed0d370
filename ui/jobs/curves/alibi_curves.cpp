// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi's curves: each head's weight factor exp(−m r) (Press et al. 2022: the bias −m r becomes this
// factor on the softmax weight), at most 8 heads so that the legend stays readable.
#include "jobs/curves/method_curves.h"

#include "io/columns.h"
#include "jobs/curves/curve_support.h"
#include "jobs/view_job_support.h"

namespace posatlas::ui {

using namespace view_job_support;
using namespace curve_support;

void alibi_curves(const CurveRequest& r, CurveData& data)
{
    const AlibiParams& p = r.s.params<AlibiParams>();
    data.title = ViewJobs::tr("ALiBi attention decay exp(−m r) per head · ") + scenario_caption(r.s, false);
    data.y_label = ViewJobs::tr("weight factor exp(−m r)");
    data.y_column = column(columns::kWeightFactor);
    const std::vector<double> slopes = alibi_scaled_slopes(p);
    for (int h : sampled_heads(static_cast<int>(slopes.size()), 8)) {
        check_cancel(r.cancel);
        const double m = slopes[static_cast<std::size_t>(h)];
        data.series.push_back(
            make_series(ViewJobs::tr("m%1=%2").arg(subscript(h), QString::number(m, 'g', 2)),
                        QStringLiteral("head_%1").arg(h), r.dist, alibi_decay(m, r.dist)));
    }
    data.log_y = false;
    if (p.scaling != AlibiScaling::None) {
        data.markers.push_back(make_marker(static_cast<double>(p.trained_length),
                                           ViewJobs::tr("trained %1").arg(p.trained_length)));
        data.markers.push_back(make_marker(static_cast<double>(p.target_length),
                                           ViewJobs::tr("target %1").arg(p.target_length)));
    }
}

} // namespace posatlas::ui
