// SPDX-License-Identifier: GPL-3.0-or-later
// Weighted sinusoid sums (compute/sinusoid_sums.h): a table of exact lane rotations over blocks of 32
// positions, eight rotating lanes for short runs, both restarted from exact angles.
// Reference: the direct sum with std::sin / std::cos of each exact angle (the product p w formed
// exactly, as exact_cos_sin does, so the reference itself carries no ~p 2^-53 angle error). Tolerance:
// 1e-12 of sum_k |ws_k| + |wc_k| (the recurrences' ~3e-14 relative, with margin).
#include "compute/exact_angle.h"
#include "compute/sinusoid_sums.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using namespace posatlas;

struct Terms {
    std::vector<double> w, ws, wc;
    double scale = 0.0; // sum of |weights|
};

Terms terms(std::size_t n)
{
    Terms t;
    for (std::size_t k = 0; k < n; ++k) {
        t.w.push_back(std::pow(10000.0, -static_cast<double>(k) / static_cast<double>(n))); // 1 .. 1e-4 rad
        t.ws.push_back(std::sin(1.7 * static_cast<double>(k) + 0.3));
        t.wc.push_back(std::cos(0.9 * static_cast<double>(k) - 1.1));
        t.scale += std::abs(t.ws.back()) + std::abs(t.wc.back());
    }
    return t;
}

double direct(const Terms& t, std::int64_t p)
{
    double sum = 0.0;
    for (std::size_t k = 0; k < t.w.size(); ++k) {
        const CosSin z = exact_cos_sin(static_cast<double>(p), t.w[k]);
        sum += t.ws[k] * z.s + t.wc[k] * z.c;
    }
    return sum;
}

// Consecutive runs longer than one restart (kSinusoidRun), runs shorter than a block of lanes, single
// positions after jumps, at 0 and near 10^6, with a term count that is not a multiple of four.
TEST(SinusoidSums, EqualTheDirectSumsAtEveryPosition)
{
    const Terms t = terms(37);
    std::vector<std::int64_t> pos;
    for (std::int64_t p = 0; p < 5000; ++p)
        pos.push_back(p);
    for (std::int64_t p = 999'000; p < 999'005; ++p)
        pos.push_back(p);
    for (std::int64_t p : {7, 3, 123456, 10'000'000})
        pos.push_back(p);
    for (std::int64_t p = 1'000'000; p < 1'004'100; ++p)
        pos.push_back(p);
    const std::vector<double> got = sinusoid_sums(t.w, t.ws, t.wc, pos);
    ASSERT_EQ(got.size(), pos.size());
    for (std::size_t r = 0; r < pos.size(); ++r)
        ASSERT_NEAR(got[r], direct(t, pos[r]), 1e-12 * t.scale) << "position " << pos[r];
}

// The range form (a curve's chunks) gives the same numbers as the list form at the same positions: the
// restarts fall at the same places; bit for bit.
TEST(SinusoidSums, RangeEqualsTheListOfTheSamePositions)
{
    const Terms t = terms(20);
    for (const std::int64_t first : {std::int64_t{0}, std::int64_t{999'999}}) {
        const std::int64_t count = 2 * kSinusoidRun + 13;
        std::vector<std::int64_t> pos(static_cast<std::size_t>(count));
        for (std::int64_t r = 0; r < count; ++r)
            pos[static_cast<std::size_t>(r)] = first + r;
        const std::vector<double> list = sinusoid_sums(t.w, t.ws, t.wc, pos);
        std::vector<double> range(static_cast<std::size_t>(count));
        SinusoidSum(t.w, t.ws, t.wc).range(first, count, range.data());
        EXPECT_EQ(range, list) << "first " << first;
    }
    EXPECT_THROW(sinusoid_sums(t.w, {1.0}, t.wc, {0, 1}), std::invalid_argument);
}

// Runs on both sides of the two kernels' boundaries (the table's 32-position blocks, the lanes' 8, the
// restarts every kSinusoidRun) and a prepared sum used for many ranges, with 256 terms (a d = 512
// sinusoidal model) far from 0. Planting a wrong table column (b + 1 instead of b) or skipping the
// stride rotation of v moves values by O(1) of the scale.
TEST(SinusoidSums, EveryRunLengthAroundTheKernelBoundaries)
{
    const Terms t = terms(256);
    std::vector<std::int64_t> pos;
    std::int64_t p = 999'000;
    for (const std::int64_t len : {1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 2047, 2048, 2049, 4097}) {
        for (std::int64_t r = 0; r < len; ++r)
            pos.push_back(p + r);
        p += len + 1000; // a jump ends the run
    }
    const SinusoidSum sum(t.w, t.ws, t.wc);
    EXPECT_EQ(sum.terms(), 256u);
    const std::vector<double> got = sum.at(pos);
    for (std::size_t r = 0; r < pos.size(); ++r)
        ASSERT_NEAR(got[r], direct(t, pos[r]), 1e-12 * t.scale)
            << "position " << pos[r] << " (index " << r << ")";
    EXPECT_EQ(got, sinusoid_sums(t.w, t.ws, t.wc, pos)); // the one-off form is the prepared one
    // One prepared sum, many ranges (a curve's chunks), each as a sum prepared for it alone gives it.
    for (const std::int64_t first : {std::int64_t{0}, std::int64_t{123'457}, std::int64_t{10'000'000}}) {
        for (const std::int64_t count : {std::int64_t{5}, std::int64_t{32}, std::int64_t{16'384}}) {
            std::vector<double> a(static_cast<std::size_t>(count)), b(a.size());
            sum.range(first, count, a.data());
            SinusoidSum(t.w, t.ws, t.wc).range(first, count, b.data()); // a sum of its own
            ASSERT_EQ(a, b);
            for (std::int64_t r = 0; r < count; r += 97)
                ASSERT_NEAR(a[static_cast<std::size_t>(r)], direct(t, first + r), 1e-12 * t.scale)
                    << first + r;
        }
    }
    EXPECT_THROW(SinusoidSum(t.w, {1.0}, t.wc), std::invalid_argument);
}

// Single precision (the curves view): every value of ranges and lists within the bound the header
// states, 36 * 2^-24 * sum_k |(ws_k, wc_k)|, for 256 terms (eight panels), 45 (a partial panel) and 1;
// ranges longer than one single-precision restart (8 kSinusoidRun = 16384) and at 10^7. Runs shorter
// than a block stay double (within 1e-12 as above). Reference: the double direct sum. Dropping the
// panel's sine part, or advancing v_k once too often per block, fails it by orders of magnitude.
TEST(SinusoidSums, SinglePrecisionWithinTheStatedBound)
{
    for (const std::size_t n : {std::size_t{256}, std::size_t{45}, std::size_t{1}}) {
        const Terms t = terms(n);
        double modulus = 0.0; // sum_k |(ws_k, wc_k)|
        for (std::size_t k = 0; k < n; ++k)
            modulus += std::hypot(t.ws[k], t.wc[k]);
        const double bound = 36.0 * 0x1p-24 * modulus;
        const SinusoidSum single(t.w, t.ws, t.wc, Precision::Single);
        double worst = 0.0;
        for (const std::int64_t first :
             {std::int64_t{0}, std::int64_t{16'384 - 3000}, std::int64_t{10'000'000}}) {
            const std::int64_t count = 40'003; // the last block partial
            std::vector<double> got(static_cast<std::size_t>(count));
            single.range(first, count, got.data());
            for (std::int64_t r = 0; r < count;
                 r += (r < 70 || (r > 16'300 && r < 16'500) || r > count - 40) ? 1 : 37) {
                const double want = direct(t, first + r);
                ASSERT_NEAR(got[static_cast<std::size_t>(r)], want, bound)
                    << n << " terms, position " << first + r;
                worst = std::max(worst, std::abs(got[static_cast<std::size_t>(r)] - want));
            }
        }
        EXPECT_GT(worst, 1e-12 * t.scale)
            << n << " terms: float32 that agrees to double's 1e-12 is not float32";
        // The list form: long runs in float32, a lone position after a jump in double.
        std::vector<std::int64_t> pos;
        for (std::int64_t r = 0; r < 100; ++r)
            pos.push_back(5'000 + r);
        pos.push_back(7'777);
        const std::vector<double> list = single.at(pos);
        for (std::size_t r = 0; r < pos.size(); ++r)
            ASSERT_NEAR(list[r], direct(t, pos[r]), r < 100 ? bound : 1e-12 * t.scale) << pos[r];
    }
}

} // namespace
