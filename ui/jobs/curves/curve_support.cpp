// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/curves/curve_support.h"

#include "methods/curve_family.h"

namespace posatlas::ui::curve_support {

void append_envelope(CurveSeries& series, const std::vector<double>& dist, const CurveEnvelope& env,
                     double scale)
{
    FamilySeries out;
    posatlas::append_envelope(out, dist, env, scale);
    series.envelope = true;
    series.x.insert(series.x.end(), out.x.begin(), out.x.end());
    series.y.insert(series.y.end(), out.y.begin(), out.y.end());
}

std::vector<std::int64_t> bin_edges(const std::vector<double>& dist, std::int64_t last)
{
    return curve_bin_edges(dist, last);
}

} // namespace posatlas::ui::curve_support
