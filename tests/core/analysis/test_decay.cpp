// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the decay curves (core/analysis/decay.h).
// References: RoFormer (Su et al. 2021) section 3.4.3 / Figure 2, the bound (1/(d/2)) sum_{j=1}^{d/2} |S_j|,
// S_j = sum_{k<j} exp(i r theta_k), re-implemented in python3 (double) for the values below;
// ALiBi (Press et al. 2022) bias -m r, i.e. weight factor exp(-m r).
#include "analysis/decay.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/types.h"
#include "scenario/validation.h"

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

// Exact values for core's double thetas: tests/data/rope_decay_reference.py (60-digit decimal arithmetic).
// Core forms every angle r * theta exactly (hi + lo), so even r = 1e8 matches to 1e-13 relative; a plain
// double product would be off by ~1e-9 there.
struct ExactRow {
    double r;
    double bound;
    double mean_cos;
};
constexpr ExactRow kExact[] = {
    {1.0, 31.538166142658085, 0.9702138094651191},   {10.0, 17.95413713708483, 0.6690628577890171},
    {100.0, 10.227329948505139, 0.4772414797107915}, {1000.0, 4.470761034248701, 0.15902700206579148},
    {1e6, 8.337782073688247, -0.022690340616655275}, {1e8, 4.2228407967851815, 0.06289185378710921},
};

TEST(RopeDecay, BoundMatchesExactReference)
{
    std::vector<double> r;
    for (const ExactRow& row : kExact)
        r.push_back(row.r);
    const std::vector<double> b = rope_decay_bound(default_theta_128(), r);
    for (std::size_t i = 0; i < r.size(); ++i)
        EXPECT_NEAR(b[i], kExact[i].bound, 1e-13 * kExact[i].bound) << "r = " << r[i];
    // Negative distances: |S_j| is even in r.
    EXPECT_NEAR(rope_decay_bound(default_theta_128(), {-10.0})[0], kExact[1].bound, 1e-13 * kExact[1].bound);
}

// The recurrence path (evenly spaced distances, see decay.cpp) against the direct path (one distance at a
// time, sin/cos for every pair), at every integer of windows near 0, 10^4, 10^6 and up to 10^8: both form
// exact angles, so they agree to 1e-12 relative (bound) / 1e-13 absolute (mean cos) everywhere; and the
// windows that contain a reference distance hit it exactly.
TEST(RopeDecay, RecurrenceMatchesDirectSumsAtEveryInteger)
{
    const std::vector<double> theta = default_theta_128();
    for (double start : {0.0, 9900.0, 999'000.0, 99'998'001.0}) {
        SCOPED_TRACE(start);
        std::vector<double> run(2000);
        for (std::size_t i = 0; i < run.size(); ++i)
            run[i] = start + static_cast<double>(i);
        const std::vector<double> bound = rope_decay_bound(theta, run);
        const std::vector<double> mean = rope_mean_cos(theta, run);
        for (std::size_t i = 0; i < run.size(); i += 7) {
            // Alone, a distance is not an evenly spaced run: the direct sums.
            const double direct_bound = rope_decay_bound(theta, {run[i]})[0];
            const double direct_mean = rope_mean_cos(theta, {run[i]})[0];
            ASSERT_NEAR(bound[i], direct_bound, 1e-12 * direct_bound) << "r = " << run[i];
            ASSERT_NEAR(mean[i], direct_mean, 1e-13) << "r = " << run[i];
        }
        for (const ExactRow& row : kExact) {
            if (row.r >= start && row.r < start + 2000.0) {
                const auto i = static_cast<std::size_t>(row.r - start);
                EXPECT_NEAR(bound[i], row.bound, 1e-13 * row.bound);
                EXPECT_NEAR(mean[i], row.mean_cos, 1e-13);
            }
        }
    }
}

// The bound's square roots come from the CPU's reciprocal-square-root estimate plus a series correction
// on AVX-512 and AVX2, and from std::sqrt on the portable path (decay.cpp). Every path this CPU has,
// forced in turn, against the direct sums (std::sqrt, sin/cos per pair) at every integer of windows near
// 0, 10^6 and 10^8: 1e-13 relative, ten times inside the curves' 1e-12 (the correction's own error is
// ~1e-15). And a pair of frequencies a half-turn apart, so that |S_2| = |z_0 + z_1| falls to ~1e-16 at
// r = 1, 3, 5, ...: the root of a (near) zero stays (near) zero instead of becoming NaN or inf.
TEST(RopeDecay, EveryLaneInstructionSetMatchesTheDirectSums)
{
    const RopeLaneIsa before = rope_lane_isa();
    const std::vector<double> theta = default_theta_128();
    const double pi = std::acos(-1.0);
    const std::vector<double> half_turn = {1.0, 1.0 + pi};
    int tried = 0;
    for (RopeLaneIsa isa : {RopeLaneIsa::Portable, RopeLaneIsa::Avx2, RopeLaneIsa::Avx512}) {
        if (!use_rope_lane_isa(isa))
            continue; // this CPU lacks it
        ++tried;
        EXPECT_EQ(rope_lane_isa(), isa);
        SCOPED_TRACE(static_cast<int>(isa));
        for (double start : {0.0, 999'000.0, 99'998'001.0}) {
            std::vector<double> run(1024);
            for (std::size_t i = 0; i < run.size(); ++i)
                run[i] = start + static_cast<double>(i);
            const std::vector<double> bound = rope_decay_bound(theta, run);
            for (std::size_t i = 0; i < run.size(); i += 3) {
                const double direct = rope_decay_bound(theta, {run[i]})[0];
                ASSERT_NEAR(bound[i], direct, 1e-13 * direct) << "r = " << run[i];
            }
        }
        std::vector<double> run(256);
        for (std::size_t i = 0; i < run.size(); ++i)
            run[i] = static_cast<double>(i);
        const std::vector<double> bound = rope_decay_bound(half_turn, run);
        for (std::size_t i = 0; i < run.size(); ++i) {
            ASSERT_TRUE(std::isfinite(bound[i])) << "r = " << i;
            ASSERT_NEAR(bound[i], rope_decay_bound(half_turn, {run[i]})[0], 1e-13) << "r = " << i;
        }
        EXPECT_NEAR(bound[1], 0.5, 1e-13); // (|z_0| + |z_0 + z_1|) / 2 with z_1 = -z_0
    }
    EXPECT_GE(tried, 1);
    EXPECT_FALSE(use_rope_lane_isa(static_cast<RopeLaneIsa>(99)));
    ASSERT_TRUE(use_rope_lane_isa(before));
}

// Lane rotations are built once per spacing (decay.cpp lane_rotations) and reused by every block of that
// spacing; a block of another spacing builds its own. A series whose first blocks step by 3 and whose
// later blocks step by 0.5 (each block evenly spaced on its own) must match the direct sums in both parts,
// to the same 1e-12 relative / 1e-13 absolute.
TEST(RopeDecay, RecurrenceWithAnotherSpacingPerBlockMatchesDirectSums)
{
    const std::vector<double> theta = default_theta_128();
    std::vector<double> run;
    for (int i = 0; i < 512; ++i) // blocks 0 and 1: spacing 3
        run.push_back(12'345.0 + 3.0 * i);
    for (int i = 0; i < 512; ++i) // blocks 2 and 3: spacing 0.5
        run.push_back(700'000.0 + 0.5 * i);
    const std::vector<double> bound = rope_decay_bound(theta, run);
    const std::vector<double> mean = rope_mean_cos(theta, run);
    for (std::size_t i = 0; i < run.size(); i += 5) {
        const double direct_bound = rope_decay_bound(theta, {run[i]})[0];
        ASSERT_NEAR(bound[i], direct_bound, 1e-12 * direct_bound) << "r = " << run[i];
        ASSERT_NEAR(mean[i], rope_mean_cos(theta, {run[i]})[0], 1e-13) << "r = " << run[i];
    }
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
    // mean_i cos(r theta_i): exact references above; tolerance 1e-14 absolute.
    std::vector<double> r = {0.0};
    for (const ExactRow& row : kExact)
        r.push_back(row.r);
    const std::vector<double> c = rope_mean_cos(default_theta_128(), r);
    EXPECT_EQ(c[0], 1.0);
    for (std::size_t i = 1; i < r.size(); ++i)
        EXPECT_NEAR(c[i], kExact[i - 1].mean_cos, 1e-14) << "r = " << r[i];
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
                      DistanceCase{100'000'000, 4096, true}, DistanceCase{100'000'000, 4096, false}),
    [](const ::testing::TestParamInfo<DistanceCase>& info) { // Max1000_Points500_Log
        const DistanceCase& c = info.param;
        return "Max" + std::to_string(c.max_distance) + "_Points" + std::to_string(c.max_points) +
               (c.log_spaced ? "_Log" : "_Linear");
    });

TEST(RopeDecay, DistancesLogSpacingIsDenseNearZero)
{
    const std::vector<double> d = decay_distances(1'000'000, 1000, true);
    // Geometric spacing: every small integer present, about as many points per decade at the top.
    for (int v = 0; v <= 10; ++v)
        EXPECT_TRUE(std::binary_search(d.begin(), d.end(), static_cast<double>(v))) << v;
    EXPECT_THROW(decay_distances(-1, 10, true), ParameterError);
    EXPECT_THROW(decay_distances(10, 1, true), ParameterError);
}

// The envelope of a bin is the min and max of the curve over every integer in it: checked against the
// curve evaluated at every integer of [0, 60000) (itself checked against the direct sums above), for
// bins of 1 integer up to wide log-spaced ones. Tolerance 1e-12 relative (blocks start at other
// integers in the two computations, so the last bits may differ).
TEST(RopeDecay, EnvelopeIsTheExactMinAndMaxOfEachBin)
{
    const std::vector<double> theta = default_theta_128();
    std::vector<std::int64_t> edges = {0, 1, 2, 3, 10, 11, 100, 257, 1000, 4097, 10000, 33333, 59999, 60000};
    std::vector<double> all(60000);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<double>(i);
    for (RopeCurve curve : {RopeCurve::Bound, RopeCurve::MeanCos}) {
        const std::vector<double> every =
            curve == RopeCurve::Bound ? rope_decay_bound(theta, all) : rope_mean_cos(theta, all);
        const RopeCurveEnvelope env = rope_curve_envelope(curve, theta, edges);
        ASSERT_EQ(env.min.size(), edges.size() - 1);
        ASSERT_EQ(env.max.size(), edges.size() - 1);
        for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
            const auto first = every.begin() + edges[b];
            const auto last = every.begin() + edges[b + 1];
            const double lo = *std::min_element(first, last);
            const double hi = *std::max_element(first, last);
            EXPECT_NEAR(env.min[b], lo, 1e-12 * std::max(1.0, std::abs(lo))) << "bin " << b;
            EXPECT_NEAR(env.max[b], hi, 1e-12 * std::max(1.0, std::abs(hi))) << "bin " << b;
            if (edges[b + 1] - edges[b] == 1) {
                EXPECT_EQ(env.min[b], env.max[b]);
            }
        }
    }
    // The bound's peaks: a point sample at the left edge of a wide bin is (much) lower than the max.
    const RopeCurveEnvelope env = rope_curve_envelope(RopeCurve::Bound, theta, {20000, 40000});
    EXPECT_GT(env.max[0], rope_decay_bound(theta, {20000.0})[0] * 1.2);
}

// Both envelopes from one pass (the curves view's path) against each curve's own pass: the bound is the
// same computation (bit for bit); the mean cosine is the real part of the bound's last running sum;
// bins of 1 integer up to 10^5 wide, across blocks and chunks.
TEST(RopeDecay, BothEnvelopesInOnePassEqualEachCurvesOwn)
{
    const std::vector<double> theta = default_theta_128();
    const std::vector<std::int64_t> edges = {0, 1, 2, 17, 300, 301, 5000, 65535, 65536, 70001, 170001};
    const RopeCurveEnvelopes both = rope_curve_envelopes(theta, edges);
    const RopeCurveEnvelope bound = rope_curve_envelope(RopeCurve::Bound, theta, edges);
    const RopeCurveEnvelope mean_cos = rope_curve_envelope(RopeCurve::MeanCos, theta, edges);
    EXPECT_EQ(both.bound.min, bound.min);
    EXPECT_EQ(both.bound.max, bound.max);
    // The mean cosine: the bound's lanes may rotate with other instructions (fused multiply-adds) than
    // the mean cosine's own kernel, so the two agree to rounding, 1e-14 absolute (|mean cos| <= 1).
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        EXPECT_NEAR(both.mean_cos.min[b], mean_cos.min[b], 1e-14) << b;
        EXPECT_NEAR(both.mean_cos.max[b], mean_cos.max[b], 1e-14) << b;
    }
    // And a bin's extremes are values of the curve: r = 0 alone gives mean cos 1 and bound (d/2 + 1) / 2.
    EXPECT_DOUBLE_EQ(both.mean_cos.max[0], 1.0);
    EXPECT_DOUBLE_EQ(both.bound.max[0], (static_cast<double>(theta.size()) + 1.0) / 2.0);
    EXPECT_THROW(rope_curve_envelopes(theta, {3}), ParameterError);
    EXPECT_THROW(rope_curve_envelopes({}, {0, 3}), ParameterError);
}

TEST(RopeDecay, EnvelopeCancelsAndRejectsBadEdges)
{
    const std::vector<double> theta = default_theta_128();
    int polls = 0;
    EXPECT_THROW(rope_curve_envelope(RopeCurve::Bound, theta, {0, 10'000'000}, [&] { return ++polls > 1; }),
                 Cancelled);
    EXPECT_EQ(polls, 2); // a single wide bin is split into slices: the second poll stops it
    EXPECT_THROW(rope_curve_envelope(RopeCurve::Bound, theta, {5}), ParameterError);
    EXPECT_THROW(rope_curve_envelope(RopeCurve::Bound, theta, {5, 5}), ParameterError);
    EXPECT_THROW(rope_curve_envelope(RopeCurve::Bound, theta, {-1, 5}), ParameterError);
    EXPECT_THROW(rope_curve_envelope(RopeCurve::MeanCos, {}, {0, 5}), ParameterError);
}

// ---------------------------------------------------------------- single precision (the views)

namespace {

// Bins of one integer each over [first, first + n): the envelope is then the curve itself.
std::vector<std::int64_t> unit_bins(std::int64_t first, std::int64_t n)
{
    std::vector<std::int64_t> edges(static_cast<std::size_t>(n) + 1);
    for (std::int64_t i = 0; i <= n; ++i)
        edges[static_cast<std::size_t>(i)] = first + i;
    return edges;
}

} // namespace

// Every integer of several windows (across the 32-distance runs and the 2^16-distance chunks, at 10^7
// and near kMaxDistance) in float32 against the double curves, for four sets of frequencies: within
// the bounds analysis/decay_single.h states, (P + 4)^2 2^-24 for the bound and (P + 4) 2^-24 for the
// mean cosine (P = d/2). The errors seen are far smaller; a table entry off by one distance (t_k(b+1))
// makes them O(1).
TEST(RopeDecaySingle, EveryIntegerWithinTheStatedBound)
{
    RopeParams yarn;
    yarn.head_dim = 64;
    yarn.rope_theta = 500000.0;
    yarn.rope_type = RopeType::Yarn;
    yarn.factor = 8.0;
    std::vector<std::pair<const char*, std::vector<double>>> sets = {
        {"d = 128, base 10^4", default_theta_128()},
        {"YaRN x8, d = 64, base 5 x 10^5", compute_rope_frequencies(yarn).inv_freq},
        {"one pair, theta = 1", {1.0}},
        {"d = 256, base 10^6",
         [] {
             RopeParams p;
             p.head_dim = 256;
             p.rope_theta = 1e6;
             return compute_rope_frequencies(p).inv_freq;
         }()},
    };
    constexpr double u = 0x1p-24;
    for (const auto& [name, theta] : sets) {
        const double pairs = static_cast<double>(theta.size());
        const double bound_tol = (pairs + 4.0) * (pairs + 4.0) * u;
        const double cos_tol = (pairs + 4.0) * u;
        double worst_bound = 0.0, worst_cos = 0.0;
        for (const std::int64_t first : {std::int64_t{0}, std::int64_t{65536 - 700}, std::int64_t{10'000'003},
                                         kMaxDistance + 1 - 1500}) {
            const std::int64_t n = first == 0 ? 70001 : 1500;
            const std::vector<std::int64_t> edges = unit_bins(first, n);
            const RopeCurveEnvelopes single = rope_curve_envelopes(theta, edges, {}, {}, Precision::Single);
            const RopeCurveEnvelopes exact = rope_curve_envelopes(theta, edges);
            ASSERT_EQ(single.bound.min.size(), static_cast<std::size_t>(n));
            for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
                ASSERT_EQ(single.bound.min[i], single.bound.max[i]);
                ASSERT_NEAR(single.bound.min[i], exact.bound.min[i], bound_tol)
                    << name << ", r = " << first + i;
                ASSERT_NEAR(single.mean_cos.min[i], exact.mean_cos.min[i], cos_tol)
                    << name << ", r = " << first + i;
                worst_bound = std::max(worst_bound, std::abs(single.bound.min[i] - exact.bound.min[i]));
                worst_cos = std::max(worst_cos, std::abs(single.mean_cos.min[i] - exact.mean_cos.min[i]));
            }
        }
        // Not the worst case: the roundings do not all go one way (measured: 2.4 % of the bound for
        // d = 128, 12 % for one pair).
        EXPECT_LT(worst_bound, bound_tol / 4) << name;
        EXPECT_LT(worst_cos, cos_tol / 2) << name;
        EXPECT_GT(worst_bound, 0.0) << name << ": float32 that agrees to the last bit is not float32";
    }
}

// Wide bins (the view's): each extreme of the float32 envelope is within the same bound of the double
// one (a min or max moves by no more than the values do), both curves, bins up to 10^5 wide; the
// single-curve entry point returns its curve of the pair.
TEST(RopeDecaySingle, EnvelopesOfWideBinsWithinTheBound)
{
    const std::vector<double> theta = default_theta_128();
    const std::vector<std::int64_t> edges = {0, 1, 2, 17, 300, 301, 5000, 65535, 65536, 70001, 170001};
    const RopeCurveEnvelopes single = rope_curve_envelopes(theta, edges, {}, {}, Precision::Single);
    const RopeCurveEnvelopes exact = rope_curve_envelopes(theta, edges);
    constexpr double u = 0x1p-24;
    const double bound_tol = 68.0 * 68.0 * u, cos_tol = 68.0 * u;
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        EXPECT_NEAR(single.bound.min[b], exact.bound.min[b], bound_tol) << b;
        EXPECT_NEAR(single.bound.max[b], exact.bound.max[b], bound_tol) << b;
        EXPECT_NEAR(single.mean_cos.min[b], exact.mean_cos.min[b], cos_tol) << b;
        EXPECT_NEAR(single.mean_cos.max[b], exact.mean_cos.max[b], cos_tol) << b;
    }
    const RopeCurveEnvelope bound =
        rope_curve_envelope(RopeCurve::Bound, theta, edges, {}, {}, Precision::Single);
    const RopeCurveEnvelope mean_cos =
        rope_curve_envelope(RopeCurve::MeanCos, theta, edges, {}, {}, Precision::Single);
    EXPECT_EQ(bound.max, single.bound.max);
    EXPECT_EQ(mean_cos.min, single.mean_cos.min);
    // r = 0: every z_k is exactly 1 in float too, so the sums are exact.
    EXPECT_EQ(single.mean_cos.max[0], 1.0);
    EXPECT_EQ(single.bound.max[0], (static_cast<double>(theta.size()) + 1.0) / 2.0);
}

TEST(RopeDecaySingle, CancelsAndRejectsBadInput)
{
    const std::vector<double> theta = default_theta_128();
    int polls = 0;
    EXPECT_THROW(rope_curve_envelopes(
                     theta, {0, 10'000'000}, [&] { return ++polls > 1; }, {}, Precision::Single),
                 Cancelled);
    EXPECT_EQ(polls, 2);
    EXPECT_THROW(rope_curve_envelopes(theta, {5, 5}, {}, {}, Precision::Single), ParameterError);
    EXPECT_THROW(rope_curve_envelopes({}, {0, 5}, {}, {}, Precision::Single), ParameterError);
    EXPECT_THROW(rope_curve_envelopes({1.0, std::nan("")}, {0, 5}, {}, {}, Precision::Single),
                 ParameterError);
    EXPECT_THROW(rope_curve_envelope(RopeCurve::Bound, theta, {-1, 5}, {}, {}, Precision::Single),
                 ParameterError);
}
