// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/curve_decimation.h"

#include "scenario/types.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace posatlas {

namespace {

void check_columns(const PixelColumns& c)
{
    const bool range = std::isfinite(c.lo) && std::isfinite(c.hi) && c.lo < c.hi && (!c.log || c.lo > 0.0);
    const bool pixels = std::isfinite(c.left) && std::isfinite(c.width) && c.width > 0.0 &&
                        c.width <= double(1 << 24) && std::abs(c.left) <= double(1 << 24);
    if (!range || !pixels)
        throw ParameterError(
            "columns",
            "a finite axis range lo < hi (lo > 0 on a log axis) and a plot width in (0, 2^24] "
            "pixels",
            "[" + std::to_string(c.lo) + ", " + std::to_string(c.hi) + "], width " + std::to_string(c.width) +
                ", left " + std::to_string(c.left));
}

} // namespace

std::size_t pixel_column_count(const PixelColumns& c)
{
    check_columns(c);
    return static_cast<std::size_t>(std::floor(c.left + c.width) - std::floor(c.left)) + 1;
}

std::size_t pixel_column(double x, const PixelColumns& c)
{
    const double f = c.log ? (std::log(x) - std::log(c.lo)) / (std::log(c.hi) - std::log(c.lo))
                           : (x - c.lo) / (c.hi - c.lo);
    const double column = std::floor(c.left + c.width * f) - std::floor(c.left);
    const double last = std::floor(c.left + c.width) - std::floor(c.left);
    // NaN (log of a non-positive x, checked by the caller) never reaches here; beyond the range: clamped.
    return static_cast<std::size_t>(std::clamp(column, 0.0, last));
}

std::vector<std::size_t> min_max_decimation(const std::vector<double>& x, const std::vector<double>& y,
                                            const PixelColumns& columns)
{
    check_columns(columns);
    if (x.size() != y.size())
        throw ParameterError("y", "as many values as x (" + std::to_string(x.size()) + ")",
                             std::to_string(y.size()));
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!std::isfinite(x[i]) || (columns.log && !(x[i] > 0.0)) || (i > 0 && x[i] < x[i - 1]))
            throw ParameterError("x",
                                 columns.log ? "finite, positive, non-decreasing" : "finite, non-decreasing",
                                 "x[" + std::to_string(i) + "] = " + std::to_string(x[i]));
        if (!std::isfinite(y[i]))
            throw ParameterError("y", "finite", "y[" + std::to_string(i) + "] = " + std::to_string(y[i]));
    }
    std::vector<std::size_t> kept;
    const std::size_t n = x.size();
    std::size_t i = 0;
    while (i < n) {
        // The run of points in the column of point i: [i, end).
        const std::size_t column = pixel_column(x[i], columns);
        std::size_t end = i + 1, lo = i, hi = i;
        while (end < n && pixel_column(x[end], columns) == column) {
            if (y[end] < y[lo])
                lo = end;
            if (y[end] > y[hi])
                hi = end;
            ++end;
        }
        std::array<std::size_t, 4> run = {i, lo, hi, end - 1};
        std::sort(run.begin(), run.end());
        for (std::size_t k = 0; k < run.size(); ++k)
            if (k == 0 || run[k] != run[k - 1])
                kept.push_back(run[k]);
        i = end;
    }
    return kept;
}

} // namespace posatlas
