// SPDX-License-Identifier: GPL-3.0-or-later
// Min/max decimation of a polyline to the pixel columns of a plot. Of the points that fall in one
// column it keeps the first, the lowest, the highest and the last (in their order): the polyline through
// the kept points covers in every column the same vertical extent as the polyline through all of them
// and enters and leaves every column at the same points, so that drawn at that width it is the same
// picture, with at most four points per column whatever the number of points (M4 aggregation: Jugel et
// al., "M4: A Visualization-Oriented Time Series Data Aggregation", VLDB 2014).
#pragma once

#include <cstddef>
#include <vector>

namespace posatlas {

// The pixel columns of a plot's x axis. A value x of the axis range [lo, hi] lies at the device pixel
// position left + width * f, f the fraction of the range at which x lies (of log x on a log axis), as a
// chart maps its points; column c holds the positions [floor(left) + c, floor(left) + c + 1).
struct PixelColumns {
    double lo = 0.0, hi = 1.0; // the axis range: lo < hi, both finite (> 0 on a log axis)
    bool log = false;          // a logarithmic axis
    double left = 0.0;         // the plot's left edge, device pixels (finite)
    double width = 1.0;        // its width, device pixels: finite, in (0, 2^24]
};

// Number of columns the plot's pixels span: floor(left + width) - floor(left) + 1.
std::size_t pixel_column_count(const PixelColumns& columns);

// The column of x (x beyond the range counts to the first or last column).
std::size_t pixel_column(double x, const PixelColumns& columns);

// Indices, increasing, of the points (x[i], y[i]) that keep the polyline's picture at `columns`: in each
// column its first and last point and the first of its lowest and of its highest points. The first and
// the last point are always kept; at most 4 * pixel_column_count(columns) indices. x must be
// non-decreasing, x and y finite and of one size, x > 0 on a log axis (ParameterError "x", "y");
// `columns` as described above (ParameterError "columns").
std::vector<std::size_t> min_max_decimation(const std::vector<double>& x, const std::vector<double>& y,
                                            const PixelColumns& columns);

} // namespace posatlas
