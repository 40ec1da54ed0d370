// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the min/max decimation to pixel columns (core/analysis/curve_decimation.h) that the Curves view
// hands its chart. Reference: brute force over every point, column by column: the first, last, lowest and
// highest value of each column (M4 aggregation, Jugel et al. 2014) must be those of the kept points, exactly
// (the kept points are a subset: no arithmetic on values, tolerance 0).
#include "analysis/curve_decimation.h"

#include "scenario/types.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace posatlas;

namespace {

struct ColumnStats {
    bool any = false;
    double first = 0, last = 0, lo = 0, hi = 0;
};

// Per column, the first, last, lowest and highest y of the points with index in `which` (all: empty).
std::vector<ColumnStats> brute_force(const std::vector<double>& x, const std::vector<double>& y,
                                     const PixelColumns& c, const std::vector<std::size_t>& which)
{
    std::vector<ColumnStats> out(pixel_column_count(c));
    const std::size_t n = which.empty() ? x.size() : which.size();
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = which.empty() ? k : which[k];
        // The column straight from the mapping a chart uses, not from pixel_column.
        const double f = c.log ? (std::log(x[i]) - std::log(c.lo)) / (std::log(c.hi) - std::log(c.lo))
                               : (x[i] - c.lo) / (c.hi - c.lo);
        const auto col = static_cast<std::size_t>(std::floor(c.left + c.width * f) - std::floor(c.left));
        ColumnStats& s = out.at(col);
        if (!s.any) {
            s.any = true;
            s.first = s.lo = s.hi = y[i];
        }
        s.last = y[i];
        s.lo = std::min(s.lo, y[i]);
        s.hi = std::max(s.hi, y[i]);
    }
    return out;
}

void expect_same_picture(const std::vector<double>& x, const std::vector<double>& y, const PixelColumns& c)
{
    const std::vector<std::size_t> kept = min_max_decimation(x, y, c);
    ASSERT_FALSE(kept.empty());
    EXPECT_EQ(kept.front(), 0u);
    EXPECT_EQ(kept.back(), x.size() - 1);
    EXPECT_LE(kept.size(), 4 * pixel_column_count(c));
    for (std::size_t k = 1; k < kept.size(); ++k) {
        ASSERT_LT(kept[k - 1], kept[k]); // the points' order, hence non-decreasing x
        ASSERT_LE(x[kept[k - 1]], x[kept[k]]);
    }
    const std::vector<ColumnStats> all = brute_force(x, y, c, {});
    const std::vector<ColumnStats> some = brute_force(x, y, c, kept);
    ASSERT_EQ(all.size(), some.size());
    int differ = 0;
    for (std::size_t col = 0; col < all.size(); ++col) {
        const ColumnStats &a = all[col], &b = some[col];
        const bool same =
            a.any == b.any &&
            (!a.any || (a.first == b.first && a.last == b.last && a.lo == b.lo && a.hi == b.hi));
        if (!same && ++differ <= 5)
            ADD_FAILURE() << "column " << col << ": all points [" << a.lo << ", " << a.hi << "] first "
                          << a.first << " last " << a.last << "; kept [" << b.lo << ", " << b.hi << "] first "
                          << b.first << " last " << b.last;
    }
}

} // namespace

TEST(CurveDecimation, ColumnExtremesFirstAndLastEqualBruteForceOnALinearAxis)
{
    // A million points of a noisy oscillation, 700 columns whose left edge is not on a pixel boundary.
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.2);
    const std::size_t n = 1'000'000;
    std::vector<double> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<double>(i);
        y[i] = std::exp(-1e-6 * x[i]) * std::cos(0.37 * x[i]) + noise(rng);
    }
    expect_same_picture(x, y, {0.0, static_cast<double>(n - 1), false, 67.3, 700.0});
    const std::vector<std::size_t> kept = min_max_decimation(x, y, {0.0, double(n - 1), false, 67.3, 700.0});
    EXPECT_GT(kept.size(), 3u * 700u); // every column full: its four points (a bound that is not too loose)
}

TEST(CurveDecimation, ColumnExtremesEqualBruteForceOnALogAxisWithRepeatedX)
{
    // An envelope as the Curves view's jobs build it: two points (min, max) at each bin's first distance,
    // log-spaced bins from 1 to 10^6; many bins share a column at the far end, none at the near end.
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> x, y;
    double r = 1.0;
    for (int b = 0; r < 1e6; ++b) {
        const double a = u(rng), c = u(rng);
        x.push_back(r);
        y.push_back(b % 2 ? std::max(a, c) : std::min(a, c));
        x.push_back(r);
        y.push_back(b % 2 ? std::min(a, c) : std::max(a, c));
        r = std::max(r + 1.0, std::round(r * 1.002));
    }
    ASSERT_GT(x.size(), 5000u);
    expect_same_picture(x, y, {1.0, x.back(), true, 0.0, 640.0});
    expect_same_picture(x, y, {0.5, 2e6, true, 12.75, 333.5}); // a range wider than the data
}

TEST(CurveDecimation, FewPointsAreKeptAsTheyAre)
{
    const std::vector<double> x = {0, 1, 2, 3}, y = {3, -1, 4, 1};
    const std::vector<std::size_t> kept = min_max_decimation(x, y, {0.0, 3.0, false, 0.0, 800.0});
    EXPECT_EQ(kept, (std::vector<std::size_t>{0, 1, 2, 3}));
    EXPECT_TRUE(min_max_decimation({}, {}, {0.0, 1.0, false, 0.0, 10.0}).empty());
    // One column: first, lowest, highest, last.
    const std::vector<double> x6 = {0, 1, 2, 3, 4, 5}, y6 = {0, 5, -2, 1, 2, 0.5};
    EXPECT_EQ(min_max_decimation(x6, y6, {0.0, 5.0, false, 0.0, 0.5}),
              (std::vector<std::size_t>{0, 1, 2, 5}));
}

TEST(CurveDecimation, RejectsWhatNoChartCouldDraw)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const PixelColumns linear{0.0, 10.0, false, 0.0, 100.0};
    EXPECT_THROW(min_max_decimation({0, 2, 1}, {0, 0, 0}, linear), ParameterError); // x decreasing
    EXPECT_THROW(min_max_decimation({0, nan}, {0, 0}, linear), ParameterError);
    EXPECT_THROW(min_max_decimation({0, 1}, {0, nan}, linear), ParameterError);
    EXPECT_THROW(min_max_decimation({0, 1}, {0}, linear), ParameterError);
    EXPECT_THROW(min_max_decimation({0, 1}, {0, 1}, {0.0, 10.0, true, 0.0, 100.0}), ParameterError); // lo 0
    EXPECT_THROW(min_max_decimation({0, 1}, {0, 1}, {1.0, 10.0, true, 0.0, 100.0}), ParameterError); // x 0
    EXPECT_THROW(min_max_decimation({0, 1}, {0, 1}, {1.0, 1.0, false, 0.0, 100.0}), ParameterError);
    EXPECT_THROW(min_max_decimation({0, 1}, {0, 1}, {0.0, 1.0, false, 0.0, 0.0}), ParameterError);
}
