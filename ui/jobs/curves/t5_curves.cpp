// SPDX-License-Identifier: GPL-3.0-or-later
// T5's curves: the relative-position bucket of a key r positions after and before the query (core
// t5_distance_buckets; Raffel et al. 2020, transformers' T5Attention._relative_position_bucket), or with a
// trained table each head's learned bias against distance.
#include "jobs/curves/method_curves.h"

#include "io/columns.h"
#include "jobs/curves/curve_support.h"
#include "jobs/view_job_support.h"
#include "methods/t5/t5_buckets.h"

#include <cmath>
#include <limits>

namespace posatlas::ui {

using namespace view_job_support;
using namespace curve_support;

namespace {

// A trained table: each head's learned bias against distance, T5Attention.compute_bias
// bias(i, j, h) = table(bucket(j - i), h), for keys r positions before the query and, when bidirectional,
// after it. At most 4 heads (8 series) bidirectional, 8 causal, so that the legend stays readable.
void trained_bias_curves(const CurveRequest& r, CurveData& data)
{
    const T5Params& p = r.s.params<T5Params>();
    const Eigen::MatrixXd table = t5_bias_table(p);
    data.title = ViewJobs::tr("T5 learned bias per head against distance · ") + scenario_caption(r.s, false);
    data.y_label = ViewJobs::tr("bias added to the logit");
    data.y_column = column(columns::kBias);
    const std::vector<std::int64_t> distances = integer_distances(r.dist);
    const T5DistanceBuckets b = t5_distance_buckets(p, distances);
    int colour = 0; // one colour per head: solid before, dashed after
    const auto series_of = [&](const QString& name, const QString& id, const std::vector<int>& buckets,
                               int head, std::int64_t sign) {
        std::vector<double> y(buckets.size());
        for (std::size_t k = 0; k < buckets.size(); ++k)
            y[k] = table(buckets[k], head);
        CurveSeries s = make_series(name, id, r.dist, std::move(y));
        s.step = true;
        s.color_index = colour;
        const T5Bucketer bucket(p);
        s.value_at = [table, bucket, head, sign](double x) {
            const double d = std::round(x);
            if (!(d >= 0.0 && d <= 1e15))
                return std::numeric_limits<double>::quiet_NaN();
            return table(bucket(sign * static_cast<std::int64_t>(d)), head);
        };
        return s;
    };
    for (int h : sampled_heads(p.num_heads, p.bidirectional ? 4 : 8)) {
        check_cancel(r.cancel);
        data.series.push_back(series_of(p.bidirectional ? ViewJobs::tr("h%1 key before").arg(subscript(h))
                                                        : ViewJobs::tr("h%1").arg(subscript(h)),
                                        QStringLiteral("head_%1_before").arg(h), b.before, h, -1));
        if (p.bidirectional) {
            CurveSeries after = series_of(ViewJobs::tr("h%1 key after").arg(subscript(h)),
                                          QStringLiteral("head_%1_after").arg(h), b.after, h, +1);
            after.dashed = true;
            data.series.push_back(std::move(after));
        }
        ++colour;
    }
    data.markers.push_back(make_marker(static_cast<double>(p.max_distance),
                                       ViewJobs::tr("max distance %1").arg(p.max_distance)));
    if (p.num_heads > (p.bidirectional ? 4 : 8))
        data.note = ViewJobs::tr("%1 of %2 heads; the heatmap shows every head")
                        .arg(p.bidirectional ? 4 : 8)
                        .arg(p.num_heads);
}

} // namespace

void t5_curves(const CurveRequest& r, CurveData& data)
{
    const T5Params& p = r.s.params<T5Params>();
    if (!p.bias_path.empty()) {
        trained_bias_curves(r, data);
        return;
    }
    data.title = ViewJobs::tr("T5 relative-position buckets · ") + scenario_caption(r.s, false);
    data.y_label = ViewJobs::tr("bucket index");
    data.y_column = column(columns::kBucket);
    const T5DistanceBuckets b = t5_distance_buckets(p, integer_distances(r.dist));
    // Causal T5 buckets only keys before the query (relative_position <= 0): one series.
    CurveSeries first = p.bidirectional
                            ? make_series(ViewJobs::tr("key after query (j − i = +r)"),
                                          QStringLiteral("key_after"), r.dist, to_doubles(b.after))
                            : make_series(ViewJobs::tr("key before query (causal)"),
                                          QStringLiteral("key_before"), r.dist, to_doubles(b.before));
    first.step = true;
    data.series.push_back(std::move(first));
    if (p.bidirectional) {
        CurveSeries before = make_series(ViewJobs::tr("key before query (j − i = −r)"),
                                         QStringLiteral("key_before"), r.dist, to_doubles(b.before));
        before.step = true;
        data.series.push_back(std::move(before));
    }
    data.markers.push_back(make_marker(static_cast<double>(p.max_distance),
                                       ViewJobs::tr("max distance %1").arg(p.max_distance)));
}

} // namespace posatlas::ui
