// Tests of the decay curves (core/decay.h).
// References: RoFormer (Su et al. 2021) section 3.4.3 / Figure 2, the bound (1/(d/2)) sum_{j=1}^{d/2} |S_j|,
// S_j = sum_{k<j} exp(i r theta_k), re-implemented in python3 (double) for the values below;
// ALiBi (Press et al. 2022) bias -m r, i.e. weight factor exp(-m r).
#include "decay.h"
#include "rope_scaling.h"
#include "types.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace posatlas;

namespace {

std::vector<double> default_theta_128()
{
    RopeParams p; // head_dim 128, base 10000
    return compute_rope_frequencies(p).inv_freq;
}

} // namespace

TEST(RopeDecay, BoundAtZeroIsMeanOfOneToHalfDim)
{
    // |S_j| = j at r = 0, so the bound is mean(1 .. d/2) = (d/2 + 1) / 2 = 32.5 for d = 128.
    const std::vector<double> b = rope_decay_bound(default_theta_128(), {0.0});
    EXPECT_NEAR(b[0], 32.5, 1e-12);
}

TEST(RopeDecay, BoundMatchesPythonReference)
{
    struct Row {
        double r;
        double want;
    };
    // python3 double re-implementation; tolerance 1e-9 relative (summation order is the same; libm
    // cos/sin may differ in the last bit, amplified at r = 1e8 by |dS/dtheta| ~ r).
    const Row rows[] = {{1.0, 31.53816614265808},    {10.0, 17.95413713708483},   {-10.0, 17.95413713708483},
                        {100.0, 10.227329948505133}, {1000.0, 4.470761034248742}, {1e6, 8.337782073744402},
                        {1e8, 4.222840791967049}};
    std::vector<double> r;
    for (const Row& row : rows)
        r.push_back(row.r);
    const std::vector<double> b = rope_decay_bound(default_theta_128(), r);
    for (std::size_t i = 0; i < r.size(); ++i)
        EXPECT_NEAR(b[i], rows[i].want, 1e-9 * rows[i].want) << "r = " << r[i];
}

TEST(RopeDecay, EnvelopeDecreasesOverDecades)
{
    // RoFormer Figure 2: the bound decays with distance. Point values oscillate, so compare the means
    // over [0,10), [10,100), [100,1000), [1000,10000) (python: 24.13, 12.09, 6.699, 4.796).
    const std::vector<double> b = rope_decay_bound(default_theta_128(), decay_distances(9999, 20000, false));
    ASSERT_EQ(b.size(), 10000u);
    auto mean = [&](std::size_t lo, std::size_t hi) {
        return std::accumulate(b.begin() + static_cast<std::ptrdiff_t>(lo),
                               b.begin() + static_cast<std::ptrdiff_t>(hi), 0.0) /
               static_cast<double>(hi - lo);
    };
    const double w[] = {mean(0, 10), mean(10, 100), mean(100, 1000), mean(1000, 10000)};
    const double want[] = {24.133664622214535, 12.09217362764329, 6.69857550250528, 4.795647110007553};
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(w[i], want[i], 1e-9 * want[i]);
    for (int i = 0; i + 1 < 4; ++i)
        EXPECT_GT(w[i], w[i + 1]);
}

TEST(RopeDecay, MeanCos)
{
    // mean_i cos(r theta_i), python3 reference; tolerance 1e-12 absolute.
    const std::vector<double> c = rope_mean_cos(default_theta_128(), {0.0, 1.0, 10.0, 1e6});
    EXPECT_NEAR(c[0], 1.0, 1e-15);
    EXPECT_NEAR(c[1], 0.9702138094651194, 1e-12);
    EXPECT_NEAR(c[2], 0.6690628577890172, 1e-12);
    EXPECT_NEAR(c[3], -0.022690340616275402, 1e-10); // r = 1e6: last-bit cos differences times r
}

TEST(RopeDecay, AlibiIsExponential)
{
    // ALiBi head 0 of 8 heads: slope 2^-1; exp(-0.5 r).
    const std::vector<double> a = alibi_decay(0.5, {0.0, 4.0, 100.0});
    EXPECT_EQ(a[0], 1.0);
    EXPECT_NEAR(a[1], std::exp(-2.0), 1e-16);
    EXPECT_NEAR(a[2], std::exp(-50.0), 1e-30);
    EXPECT_THROW(alibi_decay(-1.0, {1.0}), ParameterError);
}

TEST(RopeDecay, CancelAndProgressOnCallingThread)
{
    const std::vector<double> r = decay_distances(100000, 100001, false);
    std::vector<double> seen;
    rope_decay_bound(default_theta_128(), r, {}, [&](double f) { seen.push_back(f); });
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_EQ(seen.back(), 1.0);

    int polls = 0;
    EXPECT_THROW(rope_mean_cos(default_theta_128(), r, [&] { return ++polls > 2; }), Cancelled);
    EXPECT_EQ(polls, 3); // stopped at the third poll, between chunks
}

TEST(RopeDecay, BadInputs)
{
    try {
        rope_decay_bound({}, {1.0});
        FAIL();
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "inv_freq");
    }
    try {
        rope_mean_cos({1.0}, {2e8});
        FAIL();
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "distance");
    }
}

struct DistanceCase {
    std::int64_t max_distance;
    std::size_t max_points;
    bool log_spaced;
};

class DecayDistances : public ::testing::TestWithParam<DistanceCase>
{
};

TEST_P(DecayDistances, SortedUniqueIntegersWithEndpoints)
{
    const auto [R, n, log_spaced] = GetParam();
    const std::vector<double> d = decay_distances(R, n, log_spaced);
    ASSERT_FALSE(d.empty());
    EXPECT_EQ(d.front(), 0.0);
    EXPECT_EQ(d.back(), static_cast<double>(R));
    EXPECT_LE(d.size(), n);
    EXPECT_TRUE(std::adjacent_find(d.begin(), d.end(), std::greater_equal<>()) ==
                d.end()); // strictly increasing
    for (double v : d)
        EXPECT_EQ(v, std::round(v));
    if (static_cast<std::size_t>(R) + 1 <= n) {
        EXPECT_EQ(d.size(), static_cast<std::size_t>(R) + 1); // every integer
    } else {
        // A sampled set should use most of the budget (log: the dense low end merges).
        EXPECT_GE(d.size(), n / 2);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Table, DecayDistances,
    ::testing::Values(DistanceCase{0, 2, true}, DistanceCase{1, 2, false}, DistanceCase{10, 11, true},
                      DistanceCase{10, 100, false}, DistanceCase{11, 2, true}, DistanceCase{1000, 500, true},
                      DistanceCase{1000, 500, false}, DistanceCase{1'000'000, 1000, true},
                      DistanceCase{100'000'000, 4096, true}, DistanceCase{100'000'000, 4096, false}));

TEST(RopeDecay, DistancesLogSpacingIsDenseNearZero)
{
    const std::vector<double> d = decay_distances(1'000'000, 1000, true);
    // Geometric spacing: every small integer present, about as many points per decade at the top.
    for (int v = 0; v <= 10; ++v)
        EXPECT_TRUE(std::binary_search(d.begin(), d.end(), static_cast<double>(v))) << v;
    EXPECT_THROW(decay_distances(-1, 10, true), ParameterError);
    EXPECT_THROW(decay_distances(10, 1, true), ParameterError);
}
