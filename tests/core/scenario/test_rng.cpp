// SPDX-License-Identifier: GPL-3.0-or-later
// The seeded normals (core/scenario/rng.h): Box-Muller with PosAtlas's own logarithm, cosine and sine.
// Reference: the same formula with the C library's log, cos and sin evaluated in long double,
// sqrt(-2 ln u1) (cos, sin)(2 pi u2) on rng::uniform's u1 and u2; and normals() against normal(), bit for
// bit.
#include "scenario/rng.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <vector>

namespace {

using namespace posatlas;

// Box-Muller's pair 2p, 2p + 1 from u1 = uniform(4p), u2 = uniform(4p + 1): r cos and r sin.
long double reference_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
{
    const std::uint64_t p = index / 2;
    const long double u1 = rng::uniform(seed, stream, 4 * p);
    const long double u2 = rng::uniform(seed, stream, 4 * p + 1);
    const long double angle = 2.0L * std::numbers::pi_v<long double> * u2;
    return std::sqrt(-2.0L * std::log(u1)) * (index % 2 == 0 ? std::cos(angle) : std::sin(angle));
}

// Error of each value against the long-double reference, in units of 2^-52 of the value's scale
// sqrt(-2 ln u1) (cos near 0 makes a relative error meaningless): at most 8, i.e. a few roundings in
// the logarithm (~2), the square root (1), the angle (~2) and the series (~2).
TEST(SeededNormals, MatchBoxMullerToAFewUnitsInTheLastPlace)
{
    double worst = 0.0;
    for (std::uint64_t seed : {1ULL, 42ULL, 0xdeadbeefULL})
        for (std::uint64_t i = 0; i < 200000; ++i) {
            const double v = rng::normal(seed, rng::kQueryContent, i);
            const long double ref = reference_normal(seed, rng::kQueryContent, i);
            const long double scale = std::sqrt(-2.0L * std::log(static_cast<long double>(rng::uniform(
                                                            seed, rng::kQueryContent, 4 * (i / 2)))));
            worst = std::max(worst, static_cast<double>(std::abs(static_cast<long double>(v) - ref) / scale));
        }
    EXPECT_LE(worst, 8.0 * 0x1.0p-52) << worst / 0x1.0p-52 << " units";
    // The extremes of the uniforms: u1 = 2^-54 (the largest |normal|, ~8.6) and u2 near 0, 1/4, 1/2, 1.
    EXPECT_GT(worst, 0.0);
}

TEST(SeededNormals, VectorsGiveTheScalarValuesBitForBit)
{
    for (const std::int64_t count : {0, 1, 3, 4, 7, 8, 9, 16, 127, 128, 129, 1000})
        for (const std::uint64_t first : {0ULL, 5ULL, 1ULL << 40}) {
            std::vector<double> v(static_cast<std::size_t>(count) + 1, -7.0);
            rng::normals(3, rng::kKeyContent, first, count, v.data());
            for (std::int64_t i = 0; i < count; ++i) {
                const double s = rng::normal(3, rng::kKeyContent, first + static_cast<std::uint64_t>(i));
                EXPECT_EQ(std::memcmp(&v[static_cast<std::size_t>(i)], &s, sizeof s), 0)
                    << "count " << count << ", first " << first << ", i " << i << ": "
                    << v[static_cast<std::size_t>(i)] << " vs " << s;
            }
            EXPECT_EQ(v.back(), -7.0) << "wrote past count";
        }
}

// Standard normal moments over 10^6 draws, within 5 standard errors: mean 0 (se 1e-3), variance 1
// (se sqrt(2) 1e-3), fourth moment 3 (se sqrt(96) 1e-3), and the share beyond 3 sigma 0.0027.
TEST(SeededNormals, HaveStandardNormalMoments)
{
    constexpr int n = 1000000;
    std::vector<double> v(n);
    rng::normals(9, rng::kFixedContent, 0, n, v.data());
    double m1 = 0.0, m2 = 0.0, m4 = 0.0;
    int tail = 0;
    for (const double x : v) {
        m1 += x;
        m2 += x * x;
        m4 += x * x * x * x;
        tail += std::abs(x) > 3.0 ? 1 : 0;
    }
    EXPECT_NEAR(m1 / n, 0.0, 5e-3);
    EXPECT_NEAR(m2 / n, 1.0, 5 * 1.4142e-3);
    EXPECT_NEAR(m4 / n, 3.0, 5 * 9.8e-3);
    EXPECT_NEAR(static_cast<double>(tail) / n, 0.0026998, 5 * std::sqrt(0.0027 / n));
    // The two values of a Box-Muller pair are independent: their products average 0 (se 1 / sqrt(n/2)),
    // and so do those of their squares minus 1 (se 2 / sqrt(n/2); were the sine a copy of the cosine: 2).
    double cross = 0.0, cross_sq = 0.0;
    for (int t = 0; t + 1 < n; t += 2) {
        cross += v[t] * v[t + 1];
        cross_sq += (v[t] * v[t] - 1.0) * (v[t + 1] * v[t + 1] - 1.0);
    }
    EXPECT_NEAR(cross / (n / 2), 0.0, 5 * std::sqrt(2.0 / n));
    EXPECT_NEAR(cross_sq / (n / 2), 0.0, 5 * std::sqrt(8.0 / n));
}

} // namespace
