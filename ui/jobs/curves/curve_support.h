// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers the curve builders share (curve_job.cpp and curves/*_curves.cpp).
#pragma once

#include "analysis/curve_envelope.h"
#include "jobs/view_data.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace posatlas::ui::curve_support {

inline CurveSeries make_series(const QString& name, const QString& id, std::vector<double> x = {},
                               std::vector<double> y = {})
{
    CurveSeries series;
    series.name = name;
    series.id = id;
    series.x = std::move(x);
    series.y = std::move(y);
    return series;
}

inline CurveMarker make_marker(double value, const QString& label)
{
    CurveMarker marker;
    marker.value = value;
    marker.label = label;
    return marker;
}

// Curve distances (whole numbers, decay_distances) as the integer positions core's series take.
inline std::vector<std::int64_t> integer_distances(const std::vector<double>& dist)
{
    return std::vector<std::int64_t>(dist.begin(), dist.end());
}

template <typename T> std::vector<double> to_doubles(const std::vector<T>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

// Appends, for each bin b of distances starting at dist[b], the envelope's min and max divided by
// `scale` (alternating their order so that the polyline zigzags through every peak); sets envelope.
void append_envelope(CurveSeries& series, const std::vector<double>& dist, const CurveEnvelope& env,
                     double scale);

// The bin edges of core's envelope functions for the sampled distances: dist[b] .. dist[b + 1] - 1, the
// last bin ending at last + 1.
std::vector<std::int64_t> bin_edges(const std::vector<double>& dist, std::int64_t last);

inline QString column(const char* name)
{
    return QString::fromLatin1(name);
}

} // namespace posatlas::ui::curve_support
