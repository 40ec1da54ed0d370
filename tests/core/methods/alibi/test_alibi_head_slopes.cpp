// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi's per-head slopes (AlibiParams::slopes): a chosen slope replaces the paper's m_h of
// its head only. References: the bias -m_h |i - j| (symmetric) / -m_h (i - j) (causal) of Press et al.
// 2022 as ofirpress/attention_with_linear_biases and HF transformers modeling_bloom.py::
// build_alibi_tensor add it; the paper's slopes 2^(-8h/n) of get_slopes (exact in binary for n = 8).
// Tolerance: 1e-15 relative (the kernel multiplies one slope by an integer distance; both are exact
// here, so the comparison is in effect exact).
#include "compute/attention_logits.h"
#include "io/scenario_json.h"
#include "methods/alibi/alibi.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using namespace posatlas;
using nlohmann::json;

namespace {

constexpr double kRel = 1e-15;

const Field& slopes_field()
{
    return *descriptor(Method::ALiBi).field("slopes");
}

Scenario alibi_scenario(int heads)
{
    Scenario s;
    s.method = Method::ALiBi;
    s.seq_len = 24;
    s.params<AlibiParams>().num_heads = heads;
    s.params<AlibiParams>().bias = AlibiBias::Symmetric;
    return s;
}

// Every cell of head `head`'s bias matrix is -m |i - j| within kRel.
void expect_bias_slope(Scenario s, int head, double m)
{
    s.head = head;
    const MatrixResult r = compute_matrix(s, MatrixKind::Bias, {});
    ASSERT_EQ(r.values.rows(), s.seq_len);
    for (Eigen::Index i = 0; i < r.values.rows(); ++i)
        for (Eigen::Index j = 0; j < r.values.cols(); ++j) {
            const double want = -m * static_cast<double>(std::abs(i - j));
            EXPECT_NEAR(r.values(i, j), want, kRel * std::abs(want))
                << "head " << head << " cell " << i << "," << j;
        }
}

} // namespace

TEST(AlibiHeadSlopes, ReplaceOnlyTheirHeads)
{
    AlibiParams p;
    p.num_heads = 8;
    p.slopes = {0.5, 0.25, 0.01}; // heads 1 and 2 at the paper's 2^-1, 2^-2; head 3 looks further
    const std::vector<double> m = alibi_scaled_slopes(p);
    ASSERT_EQ(m.size(), 8U);
    EXPECT_EQ(m[2], 0.01);
    for (int h = 1; h <= 8; ++h) {
        if (h != 3) { // EXPECT_EQ expands to an if/else: braces, or GCC warns of a dangling else
            EXPECT_EQ(m[static_cast<std::size_t>(h - 1)], std::exp2(-8.0 * h / 8)) << h;
        }
    }
}

TEST(AlibiHeadSlopes, ScalingAndSlopeScaleTreatAChosenSlopeAsThePapers)
{
    AlibiParams p;
    p.num_heads = 8;
    p.slopes = {0.5, 0.25, 0.01};
    p.scaling = AlibiScaling::Interpolate; // m / (L_target / L_train) = m / 4
    p.trained_length = 1024;
    p.target_length = 4096;
    p.slope_scale = 2.0;
    const std::vector<double> m = alibi_scaled_slopes(p);
    EXPECT_NEAR(m[2], 0.01 / 4 * 2, kRel * 0.005);
    EXPECT_EQ(m[3], std::exp2(-4) / 4 * 2);
}

TEST(AlibiHeadSlopes, BiasMatrixOfHeadThreeFollowsItsSlopeOthersThePapers)
{
    Scenario s = alibi_scenario(8);
    s.params<AlibiParams>().slopes = {0.5, 0.25, 0.0123};
    validate(s);
    expect_bias_slope(s, 2, 0.0123);
    for (int h = 0; h < 8; ++h)
        if (h != 2)
            expect_bias_slope(s, h, std::exp2(-8.0 * (h + 1) / 8));
    // Causal: -m (i - j) below the diagonal, the future masked.
    s.params<AlibiParams>().bias = AlibiBias::Causal;
    s.head = 2;
    const MatrixResult r = compute_matrix(s, MatrixKind::Bias, {});
    EXPECT_NEAR(r.values(20, 3), -0.0123 * 17, kRel * 0.0123 * 17);
    EXPECT_TRUE(std::isnan(r.values(3, 20)));
}

TEST(AlibiHeadSlopes, SessionRoundTrip)
{
    Scenario s = alibi_scenario(12);
    s.params<AlibiParams>().slopes = {0.7, 0.3, 1e-6, 16};
    const json j = scenario_to_json(s);
    ASSERT_TRUE(j.at("alibi").contains("slopes")) << j.dump();
    EXPECT_EQ(j.at("alibi").at("slopes"), json({0.7, 0.3, 1e-6, 16.0}));
    const Scenario back = scenario_from_json(json::parse(j.dump()));
    EXPECT_TRUE(back == s) << j.dump();
    // An empty list (the paper's slopes) survives too.
    const Scenario plain = scenario_from_json(scenario_to_json(alibi_scenario(12)));
    EXPECT_TRUE(plain.params<AlibiParams>().slopes.empty());
}

TEST(AlibiHeadSlopes, RefusesOutOfRangeElementsAndMoreSlopesThanHeadsNamingSlopes)
{
    for (const double bad : {0.0, -0.5, 17.0, 1e-7, std::nan(""), HUGE_VAL}) {
        Scenario s = alibi_scenario(8);
        s.params<AlibiParams>().slopes = {0.5, bad};
        try {
            validate(s);
            FAIL() << "accepted slope " << bad;
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "slopes");
            EXPECT_NE(std::string(e.what()).find("1e-06"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("16"), std::string::npos) << e.what();
        }
    }
    Scenario s = alibi_scenario(2);
    s.params<AlibiParams>().slopes = {0.5, 0.25, 0.125};
    try {
        validate(s);
        FAIL() << "accepted 3 slopes for 2 heads";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "slopes");
        EXPECT_NE(std::string(e.what()).find("num_heads = 2"), std::string::npos) << e.what();
    }
}

TEST(AlibiHeadSlopes, ANewHeadCountKeepsChosenSlopesAndThePapersFollowIt)
{
    const Field& heads = *descriptor(Method::ALiBi).field("num_heads");
    Scenario s = alibi_scenario(8);
    // Head 1 chosen (0.7), head 2 the paper's for 8 heads (2^-2), heads 3 and 4 chosen.
    s.params<AlibiParams>().slopes = {0.7, 0.25, 0.01, 0.02};
    heads.set(s, 16); // head 2 takes the paper's 2^(-16/16) = 2^-1 for 16 heads; chosen ones stay
    EXPECT_EQ(s.params<AlibiParams>().slopes, (std::vector<double>{0.7, 0.5, 0.01, 0.02}));
    heads.set(s, 2); // heads 3 and 4 are gone; head 2 is the paper's 2^-8 for 2 heads: trimmed
    EXPECT_EQ(s.params<AlibiParams>().slopes, (std::vector<double>{0.7}));
    validate(s);
    EXPECT_EQ(alibi_scaled_slopes(s.params<AlibiParams>()), (std::vector<double>{0.7, std::exp2(-8)}));
    // Head 2's chosen slope goes with its head, head 1 held the paper's: nothing is left.
    s = alibi_scenario(8);
    s.params<AlibiParams>().slopes = {0.5, 0.3}; // head 1 at the paper's 2^-1 for 8 heads
    heads.set(s, 1);
    EXPECT_TRUE(s.params<AlibiParams>().slopes.empty());
}

TEST(AlibiHeadSlopes, ListWithStoresTheShortestFormAndResetRestoresThePapers)
{
    const Field& f = slopes_field();
    Scenario s = alibi_scenario(8);
    // Head 3 (index 2): heads 1 and 2 get their paper's values as the prefix.
    json v = f.list_with(s, 2, 0.01);
    EXPECT_EQ(v, json({0.5, 0.25, 0.01}));
    f.set(s, v);
    EXPECT_EQ(f.list_values(s)[2], 0.01);
    EXPECT_EQ(f.list_values(s)[7], std::exp2(-8));
    // Head 1 set, then head 3 reset: the list ends at head 1.
    f.set(s, f.list_with(s, 0, 0.9));
    EXPECT_EQ(f.get(s), json({0.9, 0.25, 0.01}));
    f.set(s, f.list_with(s, 2, std::nullopt));
    EXPECT_EQ(f.get(s), json({0.9}));
    // Setting a head to the paper's own value is no choice at all.
    f.set(s, f.list_with(s, 0, 0.5));
    EXPECT_EQ(f.get(s), json::array());
    EXPECT_EQ(f.list_values(s), alibi_slopes(8));
    // An index past the heads changes nothing.
    EXPECT_EQ(f.list_with(s, 8, 0.3), json::array());
}
