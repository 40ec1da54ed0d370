// SPDX-License-Identifier: GPL-3.0-or-later
// T5's curves: the relative-position bucket of a key r positions after and before the query
// (t5_distance_buckets; Raffel et al. 2020, transformers' T5Attention._relative_position_bucket), or with a
// trained table each head's learned bias against distance.
#include "methods/t5/t5_curves.h"

#include "io/columns.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/params.h"

#include <cmath>
#include <limits>

namespace posatlas {

namespace {

Wording words(const char* text, std::vector<WordingArg> args = {})
{
    return {"Curves", text, std::move(args)};
}

std::vector<std::int64_t> integers(const std::vector<double>& dist)
{
    return std::vector<std::int64_t>(dist.begin(), dist.end());
}

template <typename T> std::vector<double> doubles(const std::vector<T>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

FamilyMarker max_distance_marker(const T5Params& p)
{
    return {static_cast<double>(p.max_distance),
            words(QT_TRANSLATE_NOOP("Curves", "max distance %1"), {WordingArg::whole(p.max_distance)})};
}

// A trained table: each head's learned bias against distance, T5Attention.compute_bias
// bias(i, j, h) = table(bucket(j - i), h), for keys r positions before the query and, when bidirectional,
// after it. At most 4 heads (8 series) bidirectional, 8 causal, so that the legend stays readable.
FamilyCurves trained_bias_curves(const CurveFamilyRequest& r)
{
    const T5Params& p = r.s.params<T5Params>();
    const Eigen::MatrixXd table = t5_bias_table(p);
    FamilyCurves out;
    out.title = words(QT_TRANSLATE_NOOP("Curves", "T5 learned bias per head against distance · "));
    out.y_label = words(QT_TRANSLATE_NOOP("Curves", "bias added to the logit"));
    out.y_column = columns::kBias;
    const T5DistanceBuckets b = t5_distance_buckets(p, integers(r.dist));
    int colour = 0; // one colour per head: solid before, dashed after
    const auto series_of = [&](Wording name, std::string id, const std::vector<int>& buckets, int head,
                               std::int64_t sign) {
        FamilySeries s;
        s.name = std::move(name);
        s.id = std::move(id);
        s.x = r.dist;
        s.y.resize(buckets.size());
        for (std::size_t k = 0; k < buckets.size(); ++k)
            s.y[k] = table(buckets[k], head);
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
    const int shown = p.bidirectional ? 4 : 8;
    for (int h : sampled_curve_heads(p.num_heads, shown)) {
        check_cancel(r.cancel);
        const std::string head = "head_" + std::to_string(h);
        out.series.push_back(series_of(
            p.bidirectional ? words(QT_TRANSLATE_NOOP("Curves", "h%1 key before"), {WordingArg::subscript(h)})
                            : words(QT_TRANSLATE_NOOP("Curves", "h%1"), {WordingArg::subscript(h)}),
            head + "_before", b.before, h, -1));
        if (p.bidirectional) {
            FamilySeries after =
                series_of(words(QT_TRANSLATE_NOOP("Curves", "h%1 key after"), {WordingArg::subscript(h)}),
                          head + "_after", b.after, h, +1);
            after.dashed = true;
            out.series.push_back(std::move(after));
        }
        ++colour;
    }
    out.markers.push_back(max_distance_marker(p));
    if (p.num_heads > shown)
        out.notes.push_back(words(QT_TRANSLATE_NOOP("Curves", "%1 of %2 heads; the heatmap shows every head"),
                                  {WordingArg::whole(shown), WordingArg::whole(p.num_heads)}));
    return out;
}

FamilyCurves bucket_curves(const CurveFamilyRequest& r)
{
    const T5Params& p = r.s.params<T5Params>();
    FamilyCurves out;
    out.title = words(QT_TRANSLATE_NOOP("Curves", "T5 relative-position buckets · "));
    out.y_label = words(QT_TRANSLATE_NOOP("Curves", "bucket index"));
    out.y_column = columns::kBucket;
    const T5DistanceBuckets b = t5_distance_buckets(p, integers(r.dist));
    const auto series = [&](Wording name, std::string id, const std::vector<int>& buckets) {
        FamilySeries s;
        s.name = std::move(name);
        s.id = std::move(id);
        s.x = r.dist;
        s.y = doubles(buckets);
        s.step = true;
        return s;
    };
    // Causal T5 buckets only keys before the query (relative_position <= 0): one series.
    if (p.bidirectional) {
        out.series.push_back(
            series(words(QT_TRANSLATE_NOOP("Curves", "key after query (j − i = +r)")), "key_after", b.after));
        out.series.push_back(series(words(QT_TRANSLATE_NOOP("Curves", "key before query (j − i = −r)")),
                                    "key_before", b.before));
    } else {
        out.series.push_back(
            series(words(QT_TRANSLATE_NOOP("Curves", "key before query (causal)")), "key_before", b.before));
    }
    out.markers.push_back(max_distance_marker(p));
    return out;
}

} // namespace

CurveFamily t5_trained_bias_family()
{
    return {"trained_bias", [](const Scenario& s) { return !s.params<T5Params>().bias_path.empty(); },
            trained_bias_curves};
}

CurveFamily t5_bucket_family()
{
    return {"buckets", nullptr, bucket_curves};
}

} // namespace posatlas
