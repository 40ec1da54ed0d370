// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi slopes and biases. References: ofirpress/attention_with_linear_biases
// fairseq/models/transformer.py::get_slopes (the slopes in the test tables are the values that
// function returns, worked out by hand: 2^(-8h/n) for powers of two, plus every other slope of 2c
// otherwise); HF transformers models/bloom/modeling_bloom.py::build_alibi_tensor (re-implemented below
// in float32, as BLOOM computes it); keezen/ntk_alibi readme (NTK-ALiBi), ported to python3 and run
// here (double precision) to produce the NTK table.
#include "methods/alibi/alibi.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace posatlas;

namespace {

struct SlopeCase {
    int heads;
    std::vector<double> exponents; // slope_h = 2^exponent
};

class AlibiSlopesTable : public ::testing::TestWithParam<SlopeCase>
{
};

TEST_P(AlibiSlopesTable, MatchesReferenceGetSlopes)
{
    const auto& c = GetParam();
    const auto slopes = alibi_slopes(c.heads);
    ASSERT_EQ(slopes.size(), c.exponents.size());
    for (std::size_t h = 0; h < slopes.size(); ++h) {
        // Tolerance: 2 ulp relative; pow(2^(-8/n), h) vs the exact power of two.
        const double expected = std::exp2(c.exponents[h]);
        EXPECT_NEAR(slopes[h], expected, 4e-16 * expected) << "head " << h;
    }
}

// 8 heads: 1/2 .. 1/256 (Press et al. sec. 3). 16 heads: 2^-0.5 .. 2^-8. 12 heads (non-power of two):
// get_slopes(8) + get_slopes(16)[0::2][:4]. 6 heads: get_slopes(4) + get_slopes(8)[0::2][:2].
// 3 heads: get_slopes(2) + get_slopes(4)[0::2][:1]. 1 head: 2^-8.
INSTANTIATE_TEST_SUITE_P(
    ReferenceSlopes, AlibiSlopesTable,
    ::testing::Values(
        SlopeCase{8, {-1, -2, -3, -4, -5, -6, -7, -8}},
        SlopeCase{16, {-0.5, -1, -1.5, -2, -2.5, -3, -3.5, -4, -4.5, -5, -5.5, -6, -6.5, -7, -7.5, -8}},
        SlopeCase{12, {-1, -2, -3, -4, -5, -6, -7, -8, -0.5, -1.5, -2.5, -3.5}},
        SlopeCase{6, {-2, -4, -6, -8, -1, -3}}, SlopeCase{3, {-4, -8, -2}}, SlopeCase{1, {-8}}),
    [](const ::testing::TestParamInfo<SlopeCase>& info) {
        return "Heads" + std::to_string(info.param.heads);
    });

// HF BLOOM build_alibi_tensor, float32 like the original (torch.tensor(..., dtype=float32), torch.pow).
std::vector<float> bloom_slopes(int num_heads)
{
    const int c = 1 << static_cast<int>(std::floor(std::log2(num_heads)));
    const auto base = static_cast<float>(std::exp2(-std::exp2(-(std::log2(c) - 3))));
    std::vector<float> slopes;
    for (int p = 1; p <= c; ++p)
        slopes.push_back(std::pow(base, static_cast<float>(p)));
    if (c != num_heads) {
        const auto extra_base = static_cast<float>(std::exp2(-std::exp2(-(std::log2(2 * c) - 3))));
        const int remaining = std::min(c, num_heads - c);
        for (int p = 1; p < 1 + 2 * remaining; p += 2)
            slopes.push_back(std::pow(extra_base, static_cast<float>(p)));
    }
    return slopes;
}

TEST(AlibiSlopes, EqualBloomBuildAlibiTensorForEveryHeadCount)
{
    for (int n = 1; n <= 80; ++n) {
        const auto ours = alibi_slopes(n);
        const auto bloom = bloom_slopes(n);
        ASSERT_EQ(ours.size(), bloom.size()) << n << " heads";
        const int c = 1 << static_cast<int>(std::floor(std::log2(n)));
        for (std::size_t h = 0; h < ours.size(); ++h) {
            // BLOOM works in float32: its base carries up to 2^-24 relative rounding, which base^p
            // multiplies by p, plus the rounding of pow itself. Tolerance (p + 1) 2^-24 relative.
            const int hh = static_cast<int>(h);
            const int power = hh < c ? hh + 1 : 2 * (hh - c) + 1;
            EXPECT_NEAR(ours[h], bloom[h], std::abs(ours[h]) * 0x1p-24 * (power + 1))
                << n << " heads, head " << h;
        }
    }
}

TEST(AlibiSlopes, RejectsBadHeadCount)
{
    EXPECT_THROW(alibi_slopes(0), ParameterError);
    try {
        alibi_slopes(2000);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "num_heads");
    }
}

TEST(AlibiScaling, InterpolateDividesBySequenceRatio)
{
    AlibiParams p;
    p.num_heads = 8;
    p.scaling = AlibiScaling::Interpolate;
    p.trained_length = 2048;
    p.target_length = 8192;
    const auto s = alibi_scaled_slopes(p);
    // Al-Khateeb et al. 2023: m' = m * L_train / L_target = 2^-h / 4 (exact in binary).
    for (int h = 1; h <= 8; ++h)
        EXPECT_DOUBLE_EQ(s[static_cast<std::size_t>(h - 1)], std::exp2(-h) / 4.0);
}

TEST(AlibiScaling, NtkMatchesKeezenReference)
{
    // python3 port of keezen/ntk_alibi build_alibi_tensor (a = 2, 8 heads; a = 4, 12 heads).
    const std::vector<double> ntk8 = {0.5,
                                      0.22643091606597665,
                                      0.10254191950095475,
                                      0.046437321535529645,
                                      0.02102969050988057,
                                      0.009523544173472467,
                                      0.00431284966278833,
                                      0.001953125000000001};
    const std::vector<double> ntk12 = {0.5,
                                       0.22039781374900533,
                                       0.09715039261068248,
                                       0.04282346827250387,
                                       0.01887639756881949,
                                       0.00832063351124971,
                                       0.003667698869772291,
                                       0.0016167056247750212,
                                       0.7071067811865476,
                                       0.35355339059327384,
                                       0.17677669529663695,
                                       0.08838834764831849};
    AlibiParams p;
    p.scaling = AlibiScaling::Ntk;
    p.num_heads = 8;
    p.trained_length = 1000;
    p.target_length = 2000;
    auto s = alibi_scaled_slopes(p);
    ASSERT_EQ(s.size(), ntk8.size());
    for (std::size_t h = 0; h < s.size(); ++h)
        EXPECT_NEAR(s[h], ntk8[h], 1e-14 * ntk8[h]) << h; // relative 1e-14: different rounding order
    // First head unchanged (high-frequency extrapolation), last divided by a (low-frequency interpolation).
    EXPECT_DOUBLE_EQ(s.front(), 0.5);
    EXPECT_NEAR(s.back(), std::exp2(-8) / 2.0, 1e-18);

    p.num_heads = 12;
    p.target_length = 4000;
    s = alibi_scaled_slopes(p);
    ASSERT_EQ(s.size(), ntk12.size());
    for (std::size_t h = 0; h < s.size(); ++h)
        EXPECT_NEAR(s[h], ntk12[h], 1e-14 * ntk12[h]) << h;

    // One head: exponent 0/0 taken as 0, slope unchanged.
    p.num_heads = 1;
    EXPECT_DOUBLE_EQ(alibi_scaled_slopes(p)[0], std::exp2(-8));
}

TEST(AlibiScaling, NoScalingAtEqualLengthsAndSlopeScaleMultiplies)
{
    AlibiParams p;
    p.num_heads = 4;
    p.trained_length = p.target_length = 1024;
    const auto ref = alibi_slopes(4);
    for (auto mode : {AlibiScaling::None, AlibiScaling::Interpolate, AlibiScaling::Ntk}) {
        p.scaling = mode;
        p.slope_scale = 3.0;
        const auto s = alibi_scaled_slopes(p);
        for (std::size_t h = 0; h < s.size(); ++h)
            EXPECT_DOUBLE_EQ(s[h], 3.0 * ref[h]);
    }
}

TEST(AlibiScaling, RejectsTargetShorterThanTrained)
{
    AlibiParams p;
    p.scaling = AlibiScaling::Interpolate;
    p.trained_length = 4096;
    p.target_length = 1024;
    try {
        alibi_scaled_slopes(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "target_length");
    }
}

TEST(AlibiBias, CausalAndSymmetric)
{
    // Press et al. Figure 3: bias -m (i - j); exact in binary for m = 0.25.
    EXPECT_DOUBLE_EQ(alibi_bias(0.25, 10, 10, AlibiBias::Causal), 0.0);
    EXPECT_DOUBLE_EQ(alibi_bias(0.25, 10, 6, AlibiBias::Causal), -1.0);
    EXPECT_DOUBLE_EQ(alibi_bias(0.25, 6, 10, AlibiBias::Causal), 1.0); // future: value returned, caller masks
    EXPECT_DOUBLE_EQ(alibi_bias(0.25, 6, 10, AlibiBias::Symmetric), -1.0);
    EXPECT_DOUBLE_EQ(alibi_bias(0.25, 10, 6, AlibiBias::Symmetric), -1.0);
    EXPECT_DOUBLE_EQ(alibi_bias(0.5, 1'000'000, 0, AlibiBias::Causal), -500000.0);
}

} // namespace
