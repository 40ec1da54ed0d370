// SPDX-License-Identifier: GPL-3.0-or-later
// DeBERTa's curves: the log-bucketed relative position and the embedding row attention reads (core
// deberta_relative_positions; He et al. 2021, transformers' make_log_bucket_position).
#include "jobs/curves/method_curves.h"

#include "io/columns.h"
#include "jobs/curves/curve_support.h"
#include "jobs/view_job_support.h"

namespace posatlas::ui {

using namespace view_job_support;
using namespace curve_support;

void deberta_curves(const CurveRequest& r, CurveData& data)
{
    const DebertaParams& p = r.s.params<DebertaParams>();
    data.title = ViewJobs::tr("DeBERTa log-bucketed relative position · ") + scenario_caption(r.s, false);
    data.y_label = ViewJobs::tr("relative position δ (bucketed)");
    data.y_column = column(columns::kBucket);
    // What attention uses is the relative-embedding row, the bucket clamped to the embedding table
    // (delta_used, in the unit of delta); the bucket itself keeps rising past max_relative_positions,
    // so it is drawn dashed for comparison.
    const DebertaPositionSeries pos = deberta_relative_positions(p, integer_distances(r.dist));
    CurveSeries used = make_series(ViewJobs::tr("row used by attention (clamped to ±%1)").arg(pos.att_span),
                                   column(columns::kBucketUsed), r.dist, to_doubles(pos.delta_used));
    CurveSeries bucket = make_series(ViewJobs::tr("bucket δ before clamping"), column(columns::kBucket),
                                     r.dist, to_doubles(pos.delta));
    used.step = bucket.step = true;
    bucket.dashed = true;
    const bool clamps = pos.delta_used != pos.delta;
    data.series.push_back(std::move(used));
    if (clamps)
        data.series.push_back(std::move(bucket));
    if (p.position_buckets > 0)
        data.markers.push_back(make_marker(p.position_buckets / 2.0,
                                           ViewJobs::tr("exact up to %1").arg(p.position_buckets / 2)));
    data.markers.push_back(make_marker(static_cast<double>(p.max_relative_positions),
                                       ViewJobs::tr("max relative %1").arg(p.max_relative_positions)));
}

} // namespace posatlas::ui
