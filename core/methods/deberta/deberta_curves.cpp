// SPDX-License-Identifier: GPL-3.0-or-later
// DeBERTa's curves: the log-bucketed relative position and the embedding row attention reads
// (deberta_relative_positions; He et al. 2021, transformers' make_log_bucket_position).
#include "methods/deberta/deberta_curves.h"

#include "io/columns.h"
#include "methods/deberta/deberta.h"
#include "scenario/params.h"

namespace posatlas {

namespace {

Wording words(const char* text, std::vector<WordingArg> args = {})
{
    return {"Curves", text, std::move(args)};
}

FamilyCurves bucket_curves(const CurveFamilyRequest& r)
{
    const DebertaParams& p = r.s.params<DebertaParams>();
    FamilyCurves out;
    out.title = words(QT_TRANSLATE_NOOP("Curves", "DeBERTa log-bucketed relative position · "));
    out.y_label = words(QT_TRANSLATE_NOOP("Curves", "relative position δ (bucketed)"));
    out.y_column = columns::kBucket;
    // What attention uses is the relative-embedding row, the bucket clamped to the embedding table
    // (delta_used, in the unit of delta); the bucket itself keeps rising past max_relative_positions,
    // so it is drawn dashed for comparison.
    const DebertaPositionSeries pos =
        deberta_relative_positions(p, std::vector<std::int64_t>(r.dist.begin(), r.dist.end()));
    FamilySeries used;
    used.name = words(QT_TRANSLATE_NOOP("Curves", "row used by attention (clamped to ±%1)"),
                      {WordingArg::whole(pos.att_span)});
    used.id = columns::kBucketUsed;
    used.x = r.dist;
    used.y.assign(pos.delta_used.begin(), pos.delta_used.end());
    used.step = true;
    out.series.push_back(std::move(used));
    if (pos.delta_used != pos.delta) {
        FamilySeries bucket;
        bucket.name = words(QT_TRANSLATE_NOOP("Curves", "bucket δ before clamping"));
        bucket.id = columns::kBucket;
        bucket.x = r.dist;
        bucket.y.assign(pos.delta.begin(), pos.delta.end());
        bucket.step = bucket.dashed = true;
        out.series.push_back(std::move(bucket));
    }
    if (p.position_buckets > 0)
        out.markers.push_back({p.position_buckets / 2.0, words(QT_TRANSLATE_NOOP("Curves", "exact up to %1"),
                                                               {WordingArg::whole(p.position_buckets / 2)})});
    out.markers.push_back({static_cast<double>(p.max_relative_positions),
                           words(QT_TRANSLATE_NOOP("Curves", "max relative %1"),
                                 {WordingArg::whole(p.max_relative_positions)})});
    return out;
}

} // namespace

CurveFamily deberta_bucket_family()
{
    return {"buckets", nullptr, bucket_curves};
}

} // namespace posatlas
