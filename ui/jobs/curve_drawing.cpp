// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/curve_drawing.h"

#include "jobs/figure_numbers.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

void drawn_polyline(const CurveSeries& s, bool log_x, bool log_y, std::vector<double>& x,
                    std::vector<double>& y)
{
    x.clear();
    y.clear();
    const std::size_t n = std::min(s.x.size(), s.y.size());
    x.reserve(s.step ? 2 * n : n);
    y.reserve(s.step ? 2 * n : n);
    bool have_prev = false;
    double prev_y = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        const double px = s.x[k], py = s.y[k];
        if (!(std::isfinite(px) && std::isfinite(py) && (!log_x || px > 0) && (!log_y || py > 0))) {
            have_prev = false;
            continue;
        }
        if (s.step && have_prev) {
            x.push_back(px);
            y.push_back(prev_y);
        }
        x.push_back(px);
        y.push_back(py);
        prev_y = py;
        have_prev = true;
    }
}

CurveRanges curve_ranges(const CurveData& data, bool log_x)
{
    if (data.fixed_ranges)
        return *data.fixed_ranges;
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    std::vector<double> px, py;
    for (const CurveSeries& s : data.series) {
        drawn_polyline(s, log_x, data.log_y, px, py);
        for (std::size_t i = 0; i < px.size(); ++i) {
            xlo = std::min(xlo, px[i]);
            xhi = std::max(xhi, px[i]);
            ylo = std::min(ylo, py[i]);
            yhi = std::max(yhi, py[i]);
        }
    }
    // Markers must be visible: a trained length above every wavelength still gets its line.
    for (const CurveMarker& m : data.markers) {
        if (!std::isfinite(m.value))
            continue;
        if (m.vertical && (!log_x || m.value > 0)) {
            xlo = std::min(xlo, m.value);
            xhi = std::max(xhi, m.value);
        } else if (!m.vertical && (!data.log_y || m.value > 0)) {
            ylo = std::min(ylo, m.value);
            yhi = std::max(yhi, m.value);
        }
    }
    if (!std::isfinite(xlo)) {
        xlo = log_x ? 1.0 : 0.0;
        xhi = log_x ? 10.0 : 1.0;
    }
    if (!std::isfinite(ylo)) {
        ylo = data.log_y ? 1.0 : 0.0;
        yhi = data.log_y ? 10.0 : 1.0;
    }
    if (xhi <= xlo) {
        xlo = log_x ? xlo / 2 : xlo - 1;
        xhi = log_x ? xhi * 2 : xhi + 1;
    }
    if (yhi <= ylo) {
        ylo = data.log_y ? ylo / 2 : ylo - 1;
        yhi = data.log_y ? yhi * 2 : yhi + 1;
    }
    // Ranges equal to within rounding (a ratio of 1 +- 1e-16) or wider than a double: Qt Charts steps
    // from tick to tick by addition and would never arrive.
    if (!log_x)
        widen_degenerate_range(xlo, xhi);
    else if (!(xhi > xlo * (1 + 1e-9))) {
        xlo /= 2;
        xhi *= 2;
    }
    if (!data.log_y)
        widen_degenerate_range(ylo, yhi);
    return {xlo, xhi, ylo, yhi};
}

void decimate_for_plot(CurveData& data, double left, double width)
{
    const CurveRanges r = curve_ranges(data, data.log_x);
    PixelColumns columns;
    columns.lo = r.xlo;
    columns.hi = r.xhi;
    columns.log = data.log_x;
    columns.left = left;
    columns.width = width;
    // A polyline within the bound is handed over whole: a dashed curve's dashes run along its length,
    // which the decimation shortens (same extents per column, other gaps between the dashes).
    const std::size_t budget = 4 * pixel_column_count(columns);
    std::vector<double> x, y;
    for (CurveSeries& s : data.series) {
        drawn_polyline(s, data.log_x, data.log_y, x, y);
        if (x.size() <= budget) {
            s.drawn_x = x;
            s.drawn_y = y;
            continue;
        }
        const std::vector<std::size_t> kept = min_max_decimation(x, y, columns);
        s.drawn_x.resize(kept.size());
        s.drawn_y.resize(kept.size());
        for (std::size_t k = 0; k < kept.size(); ++k) {
            s.drawn_x[k] = x[kept[k]];
            s.drawn_y[k] = y[kept[k]];
        }
    }
    data.drawn_columns = columns;
    data.drawn = true;
}

} // namespace posatlas::ui
