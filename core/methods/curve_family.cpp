// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/curve_family.h"

#include "analysis/curve_envelope.h"
#include "methods/registry.h"
#include "scenario/params.h"

#include <algorithm>
#include <cmath>

namespace posatlas {

const CurveFamily* curve_family_for(const Scenario& s)
{
    for (const CurveFamily& f : descriptor(s.method).curve_families)
        if (!f.applies || f.applies(s))
            return &f;
    return nullptr;
}

void append_envelope(FamilySeries& series, const std::vector<double>& dist, const CurveEnvelope& env,
                     double scale)
{
    series.envelope = true;
    series.x.reserve(2 * dist.size());
    series.y.reserve(2 * dist.size());
    for (std::size_t b = 0; b < dist.size(); ++b) {
        if (!std::isfinite(env.min[b]) || !std::isfinite(env.max[b]))
            continue;
        const bool up = b % 2 == 0;
        series.x.push_back(dist[b]);
        series.y.push_back((up ? env.min[b] : env.max[b]) / scale);
        if (env.max[b] != env.min[b]) {
            series.x.push_back(dist[b]);
            series.y.push_back((up ? env.max[b] : env.min[b]) / scale);
        }
    }
}

std::vector<std::int64_t> curve_bin_edges(const std::vector<double>& dist, std::int64_t last)
{
    std::vector<std::int64_t> edges(dist.size() + 1);
    for (std::size_t i = 0; i < dist.size(); ++i)
        edges[i] = static_cast<std::int64_t>(dist[i]);
    edges.back() = last + 1;
    return edges;
}

std::vector<int> sampled_curve_heads(int heads, int max_shown)
{
    std::vector<int> out;
    if (heads <= max_shown) {
        for (int h = 0; h < heads; ++h)
            out.push_back(h);
        return out;
    }
    for (int k = 0; k < max_shown; ++k)
        out.push_back(static_cast<int>(std::lround(static_cast<double>(k) * (heads - 1) / (max_shown - 1))));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace posatlas
