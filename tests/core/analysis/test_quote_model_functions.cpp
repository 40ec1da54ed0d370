// SPDX-License-Identifier: GPL-3.0-or-later
// The quoted numbers of today's models (core/analysis/quote_model_functions.cpp), against their references:
//   position_id   Qwen2VLModel.get_rope_index (Hugging Face transformers), worked by hand for text:4,
//                 image:1x8x8 (spatial_merge_size 2), text:4: text ids 0..3, the image at start 4 with
//                 rows and columns 0..3, the text after it from the largest id + 1 = 8;
//   axis_pairs    mrope_section [16, 24, 24] of Qwen2-VL's config (head_dim 128) and Qwen3-VL's
//                 interleaved [24, 20, 20];
//   temperature   Llama4TextAttention.forward: log(floor((p + 1) / floor_scale) + 1) * attn_scale + 1;
//   family_curve  MLA's rotary share from mla_logit_parts and mla_rotary_share directly;
//   mla_softmax_scale  DeepseekV3Attention: 192^-1/2 (0.1 ln 40 + 1)^2 = 0.135234.
// Exact equality where the quote calls the same core function; 1e-12 relative against a formula.
#include "analysis/quoted_value.h"

#include "compute/attention_logits.h"
#include "methods/mla/mla.h"
#include "methods/mrope/mrope.h"
#include "methods/nope/nope.h"
#include "scenario/content.h"
#include "scenario/params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace posatlas;

namespace {

double eval(const char* text, const Scenario& s)
{
    return QuoteExpression::parse(text).evaluate(s);
}

std::string message(const char* text, const Scenario& s)
{
    try {
        eval(text, s);
    } catch (const QuoteError& e) {
        return e.what();
    }
    return "no error";
}

Scenario mrope(const char* layout, MropeVariant variant = MropeVariant::Qwen2VL)
{
    Scenario s;
    s.method = kMRoPE;
    s.params<MropeParams>().layout = layout;
    s.params<MropeParams>().variant = variant;
    s.seq_len = 24;
    return s;
}

} // namespace

TEST(QuoteModelFunctions, PositionIdsFollowGetRopeIndex)
{
    const Scenario s = mrope("text:4,image:1x8x8,text:4");
    for (int axis = 0; axis < 3; ++axis) {
        const std::string a = std::to_string(axis);
        EXPECT_EQ(eval(("position_id(3, " + a + ")").c_str(), s), 3.0);  // the last text token before
        EXPECT_EQ(eval(("position_id(4, " + a + ")").c_str(), s), 4.0);  // the image's first token
        EXPECT_EQ(eval(("position_id(20, " + a + ")").c_str(), s), 8.0); // text after: largest id + 1
        EXPECT_EQ(eval(("position_id(23, " + a + ")").c_str(), s), 11.0);
    }
    // Token 19, the image's last: t = start, row 3 and column 3 of the merged 4 x 4 grid.
    EXPECT_EQ(eval("position_id(19, 0)", s), 4.0);
    EXPECT_EQ(eval("position_id(19, 1)", s), 7.0);
    EXPECT_EQ(eval("position_id(19, 2)", s), 7.0);
    // Token 6: row 0, column 2.
    EXPECT_EQ(eval("position_id(6, 1)", s), 4.0);
    EXPECT_EQ(eval("position_id(6, 2)", s), 6.0);
}

TEST(QuoteModelFunctions, PairsPerAxisAreTheSections)
{
    const Scenario chunked = mrope("text:4");
    EXPECT_EQ(eval("axis_pairs(0)", chunked), 16.0);
    EXPECT_EQ(eval("axis_pairs(1)", chunked), 24.0);
    EXPECT_EQ(eval("axis_pairs(2)", chunked), 24.0);
    const Scenario interleaved = mrope("text:4", MropeVariant::Qwen3VL);
    EXPECT_EQ(eval("axis_pairs(0)", interleaved), 24.0);
    EXPECT_EQ(eval("axis_pairs(1)", interleaved), 20.0);
    EXPECT_EQ(eval("axis_pairs(2)", interleaved), 20.0);
    Scenario given = mrope("text:4");
    given.params<MropeParams>().head_dim = 16;
    given.params<MropeParams>().mrope_section = {2, 3, 3};
    EXPECT_EQ(eval("axis_pairs(1)", given), 3.0);
}

TEST(QuoteModelFunctions, TemperatureIsLlama4sAndScalesTheLogits)
{
    Scenario s;
    s.method = kNoPE;
    s.causal = true;
    s.seq_len = 8192;
    s.attn_temperature_tuning = true;
    s.floor_scale = 8192;
    s.attn_scale = 0.1;
    EXPECT_EQ(eval("temperature(0)", s), 1.0);
    EXPECT_EQ(eval("temperature(8190)", s), 1.0);
    EXPECT_NEAR(eval("temperature(8191)", s), 1.0 + 0.1 * std::log(2.0), 1e-12);
    EXPECT_NEAR(eval("temperature(1048575)", s), 1.0 + 0.1 * std::log(129.0), 1e-12);
    // The heatmap's logits carry it: row 8191 over row 0 for position-free content.
    EXPECT_NEAR(eval("logits(8191, 0) / logits(0, 0)", s), 1.0 + 0.1 * std::log(2.0), 1e-12);
    s.attn_temperature_tuning = false;
    EXPECT_NE(message("temperature(0)", s).find("needs attn_temperature_tuning"), std::string::npos);
}

TEST(QuoteModelFunctions, FamilyCurveIsTheMlaRotaryShare)
{
    Scenario s;
    s.method = kMLA;
    s.seq_len = 8192;
    const MlaParams& p = s.params<MlaParams>();
    const int dim = p.qk_nope_head_dim + p.qk_rope_head_dim;
    const RopeFrequencies f = mla_frequencies(p);
    ASSERT_TRUE(content_is_position_independent(s.content));
    const Eigen::VectorXd q = content_query(s.content, dim, 0), k = content_key(s.content, dim, 0);
    for (const int r : {0, 100, 4000}) {
        const double expected = mla_rotary_share(mla_logit_parts(p, f, q, k, r, 0));
        EXPECT_DOUBLE_EQ(eval(("family_curve(" + std::to_string(r) + ")").c_str(), s), expected) << r;
    }
    EXPECT_NEAR(eval("mla_softmax_scale()", s),
                std::pow(192.0, -0.5) * std::pow(0.1 * std::log(40.0) + 1.0, 2.0), 1e-12);
    EXPECT_NEAR(eval("mla_softmax_scale()", s), 0.135234, 5e-7);
}

TEST(QuoteModelFunctions, RefusalsNameTheFunctionAndTheRange)
{
    const Scenario s = mrope("text:4,image:1x8x8,text:4");
    EXPECT_NE(message("position_id(24, 0)", s).find("token 24 does not exist (the scenario has 24 tokens"),
              std::string::npos);
    EXPECT_NE(message("position_id(0, 3)", s).find("axis 3 does not exist (0 t, 1 h, 2 w)"),
              std::string::npos);
    Scenario rope;
    EXPECT_NE(message("position_id(0, 0)", rope).find("position_id needs a"), std::string::npos);
    EXPECT_NE(message("mla_softmax_scale()", rope).find("mla_softmax_scale needs a"), std::string::npos);
    Scenario nope;
    nope.method = kNoPE;
    EXPECT_NE(message("family_curve(1)", nope).find("not a curve family"), std::string::npos);
    Scenario mla;
    mla.method = kMLA;
    EXPECT_NE(message("family_curve(1, 5)", mla).find("series 5 does not exist"), std::string::npos);
}
