// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/curves/curve_support.h"

#include <cmath>

namespace posatlas::ui::curve_support {

void append_envelope(CurveSeries& series, const std::vector<double>& dist, const CurveEnvelope& env,
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

std::vector<std::int64_t> bin_edges(const std::vector<double>& dist, std::int64_t last)
{
    std::vector<std::int64_t> edges(dist.size() + 1);
    for (std::size_t i = 0; i < dist.size(); ++i)
        edges[i] = static_cast<std::int64_t>(dist[i]);
    edges.back() = last + 1;
    return edges;
}

} // namespace posatlas::ui::curve_support
