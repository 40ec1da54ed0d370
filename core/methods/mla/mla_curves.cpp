// SPDX-License-Identifier: GPL-3.0-or-later
// MLA's rotary share against distance (mla_curves.h): how much of the logit the decoupled RoPE dimensions
// carry, query by key, as they turn away from the position-free part.
#include "methods/mla/mla_curves.h"

#include "methods/mla/mla.h"
#include "scenario/content.h"
#include "scenario/params.h"

#include <cmath>

namespace posatlas {

namespace {

// Its machine name in data exports.
constexpr const char* kRotaryShareColumn = "rotary_share";

Wording words(const char* text, std::vector<WordingArg> args = {})
{
    return {"Curves", text, std::move(args)};
}

// The share at distance r: the query at r and the key at 0 for position-independent content, else the
// last query and the key r before it.
struct ShareAt {
    MlaParams p;
    RopeFrequencies f;
    ContentParams content;
    bool constant = true;
    std::int64_t last = 0;
    int dim = 0;

    double operator()(std::int64_t r) const
    {
        const std::int64_t i = constant ? r : last, j = i - r;
        const Eigen::VectorXd q = content_query(content, dim, constant ? 0 : i);
        const Eigen::VectorXd k = content_key(content, dim, constant ? 0 : j);
        return mla_rotary_share(mla_logit_parts(p, f, q, k, static_cast<double>(i), static_cast<double>(j)));
    }
};

FamilyCurves share_curves(const CurveFamilyRequest& r)
{
    const MlaParams& p = r.s.params<MlaParams>();
    ShareAt at{p,
               mla_frequencies(p),
               r.s.content,
               content_is_position_independent(r.s.content),
               curve_last_query(r.s),
               p.qk_nope_head_dim + p.qk_rope_head_dim};
    FamilyCurves out;
    out.title = words(QT_TRANSLATE_NOOP("Curves", "MLA rotary share of the logit · "));
    out.y_label = words(QT_TRANSLATE_NOOP("Curves", "rotary share |R| / (|N| + |R|)"));
    out.y_column = kRotaryShareColumn;
    FamilySeries series;
    series.id = kRotaryShareColumn;
    series.name = words(QT_TRANSLATE_NOOP("Curves", "rotary share, d_nope %1, d_rope %2"),
                        {WordingArg::whole(p.qk_nope_head_dim), WordingArg::whole(p.qk_rope_head_dim)});
    for (std::size_t b = 0; b < r.dist.size(); ++b) {
        if (b % 1024 == 0)
            check_cancel(r.cancel);
        const auto d = static_cast<std::int64_t>(r.dist[b]);
        if (!at.constant && d > at.last)
            break;
        series.x.push_back(r.dist[b]);
        series.y.push_back(at(d));
    }
    const std::int64_t stop = at.constant ? std::int64_t{-1} : at.last;
    series.value_at = [at, stop](double x) {
        const auto d = static_cast<std::int64_t>(std::llround(std::max(0.0, x)));
        return stop >= 0 && d > stop ? std::nan("") : at(d);
    };
    out.series.push_back(std::move(series));
    if (p.rope_type == MlaRopeType::Yarn) {
        out.markers.push_back({static_cast<double>(p.original_max_position_embeddings),
                               words(QT_TRANSLATE_NOOP("Curves", "trained %1"),
                                     {WordingArg::whole(p.original_max_position_embeddings)})});
        out.markers.push_back({static_cast<double>(p.max_position_embeddings),
                               words(QT_TRANSLATE_NOOP("Curves", "target %1"),
                                     {WordingArg::whole(p.max_position_embeddings)})});
    }
    out.notes.push_back(
        words(QT_TRANSLATE_NOOP("Curves", "softmax scale %1 = (d_nope + d_rope)^−½ × mscale²"),
              {WordingArg::significant(mla_softmax_scale(p), 6)}));
    return out;
}

} // namespace

CurveFamily mla_rotary_share_family()
{
    return {"rotary_share", nullptr, share_curves};
}

} // namespace posatlas
