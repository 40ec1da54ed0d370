// SPDX-License-Identifier: GPL-3.0-or-later
// T5's curves: the relative-position bucket of a key r positions after and before the query (core
// t5_distance_buckets; Raffel et al. 2020, transformers' T5Attention._relative_position_bucket).
#include "jobs/curves/method_curves.h"

#include "io/columns.h"
#include "jobs/curves/curve_support.h"
#include "jobs/view_job_support.h"

namespace posatlas::ui {

using namespace view_job_support;
using namespace curve_support;

void t5_curves(const CurveRequest& r, CurveData& data)
{
    const T5Params& p = r.s.params<T5Params>();
    data.title = ViewJobs::tr("T5 relative-position buckets · ") + scenario_caption(r.s, false);
    data.y_label = ViewJobs::tr("bucket index");
    data.y_column = column(columns::kBucket);
    const T5DistanceBuckets b = t5_distance_buckets(p, integer_distances(r.dist));
    // Causal T5 buckets only keys before the query (relative_position <= 0): one series.
    CurveSeries first = p.bidirectional ? make_series(ViewJobs::tr("key after query (j − i = +r)"),
                                                      QStringLiteral("key_after"), r.dist, to_doubles(b.after))
                                        : make_series(ViewJobs::tr("key before query (causal)"),
                                                      QStringLiteral("key_before"), r.dist, to_doubles(b.before));
    first.step = true;
    data.series.push_back(std::move(first));
    if (p.bidirectional) {
        CurveSeries before = make_series(ViewJobs::tr("key before query (j − i = −r)"), QStringLiteral("key_before"),
                                         r.dist, to_doubles(b.before));
        before.step = true;
        data.series.push_back(std::move(before));
    }
    data.markers.push_back(make_marker(static_cast<double>(p.max_distance),
                                       ViewJobs::tr("max distance %1").arg(p.max_distance)));
}

} // namespace posatlas::ui
