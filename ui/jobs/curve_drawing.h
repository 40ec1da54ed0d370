// SPDX-License-Identifier: GPL-3.0-or-later
// What the Curves chart draws of a CurveData, computed one way for the chart (views/curve_chart.cpp) and
// for the worker that decimates it (curve_job): each series' polyline, the axes' data ranges, and the
// polyline reduced to at most four points per pixel column of the plot (core's min_max_decimation).
#pragma once

#include "jobs/view_data.h"

#include <vector>

namespace posatlas::ui {

// The points of a series as drawn: step series get a horizontal then a vertical segment per sample;
// non-finite points and, on log axes, non-positive coordinates are left out (they have no position).
void drawn_polyline(const CurveSeries& s, bool log_x, bool log_y, std::vector<double>& x,
                    std::vector<double>& y);

// The data ranges of the chart's axes: every drawn point and every marker the axis can show, a default
// range when there is none, degenerate ranges widened. The x axis shows exactly [xlo, xhi]; the y axis
// adds its padding (linear) or whole decades (log) to [ylo, yhi]. CurveRanges is in view_data.h;
// data.fixed_ranges, when set, is returned as it is.
CurveRanges curve_ranges(const CurveData& data, bool log_x);

// Sets every series' drawn_x / drawn_y to its polyline on an x axis that is logarithmic when data.log_x,
// decimated to the pixel columns of a plot whose left edge and width are `left` and `width` device pixels
// (width > 0) when it has more than four points per column, and data.drawn_columns to those columns.
// The series' x / y are left whole.
void decimate_for_plot(CurveData& data, double left, double width);

} // namespace posatlas::ui
