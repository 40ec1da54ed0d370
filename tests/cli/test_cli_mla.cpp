// SPDX-License-Identifier: GPL-3.0-or-later
// MLA through the real binary: `compute matrix --method mla` with DeepSeek-V3's defaults gives, for all-ones
// content, (128 + 64 · cos terms) · softmax scale (the values derived in tests/core/methods/mla/test_mla.cpp
// from transformers' DeepseekV3Attention), a DeepSeek-V3 config.json with --method mla takes the model's MLA
// parameters, a DeepSeek-V3 GGUF file (llama.cpp's deepseek2, tests/support/weights_fixtures.h) is
// inspected as MLA with the parameters of its config.json, and bad values are one line naming the option
// and its range.
#include "cli_support.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

using nlohmann::json;
using namespace posatlas::test;

// DeepseekV3Attention.scaling for DeepSeek-V3: 192^-0.5 · (0.1 ln 40 + 1)^2.
double deepseek_v3_softmax_scale()
{
    const double mscale = 0.1 * std::log(40.0) + 1.0;
    return mscale * mscale / std::sqrt(192.0);
}

// At distance 0 every rotary pair lines up: 128 + 64 ones (attention factor 1), times the scale; the JSON's
// shortest round-trip numbers are the doubles, so 1e-14 relative.
TEST(CliMla, DiagonalOfAllOnesIsTheWholeHeadTimesTheSoftmaxScale)
{
    const Result r = run({"compute", "matrix", "--method", "mla", "--seq-len", "4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json v = json::parse(r.out);
    EXPECT_EQ(v["method"], "mla");
    const double want = 192.0 * deepseek_v3_softmax_scale();
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(v["matrix"][i][i].get<double>(), want, 1e-14 * want);
    // Toeplitz: the score depends on i - j only.
    EXPECT_EQ(v["matrix"][1][0], v["matrix"][3][2]);
    EXPECT_LT(v["matrix"][3][0].get<double>(), want);
}

// The position-free part alone at qk_rope_head_dim's smallest value: without scaling the softmax scale is
// (d_nope + 2)^-0.5, and with all-ones content the diagonal is (d_nope + 2) times it.
TEST(CliMla, OptionsReachTheKernel)
{
    const Result r = run({"compute", "matrix", "--method", "mla", "--seq-len", "2", "--rope-type", "default",
                          "--qk-nope-head-dim", "14", "--qk-rope-head-dim", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json v = json::parse(r.out);
    EXPECT_NEAR(v["matrix"][0][0].get<double>(), 16.0 / std::sqrt(16.0), 1e-14);
    // Off the diagonal the one rotary pair has turned by 1 rad: (14 + 2 cos 1) / 4.
    EXPECT_NEAR(v["matrix"][1][0].get<double>(), (14.0 + 2.0 * std::cos(1.0)) / 4.0, 1e-14);
}

TEST(CliMla, DeepSeekConfigWithMethodMla)
{
    const std::string cfg = std::string(POSATLAS_TEST_DATA) + "/configs/deepseek_v3_published.json";
    const Result r = run({"compute", "matrix", "--config", cfg, "--method", "mla", "--seq-len", "3"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json v = json::parse(r.out);
    EXPECT_EQ(v["method"], "mla");
    const double want = 192.0 * deepseek_v3_softmax_scale();
    EXPECT_NEAR(v["matrix"][2][2].get<double>(), want, 1e-14 * want);
}

TEST(CliMla, BadValuesNameTheOptionAndItsRange)
{
    const Result odd = run({"compute", "matrix", "--method", "mla", "--qk-rope-head-dim", "63"});
    EXPECT_EQ(odd.status, 2);
    EXPECT_NE(odd.err.find("--qk-rope-head-dim"), std::string::npos) << odd.err;
    EXPECT_NE(odd.err.find("even"), std::string::npos) << odd.err;
    const Result beta = run({"compute", "matrix", "--method", "mla", "--beta-fast", "0.5"});
    EXPECT_EQ(beta.status, 2);
    EXPECT_NE(beta.err.find("--beta-fast"), std::string::npos) << beta.err;
}

// A DeepSeek-V3 config without --method is MLA (io/model_config_mla.cpp); the RoPE quantities read its
// rotary part. 1e-14 relative.
TEST(CliMla, DeepSeekConfigIsMlaAndItsRotaryPartServesTheRopeQuantities)
{
    const Result r = run({"compute", "matrix", "--config",
                          (std::string(POSATLAS_TEST_DATA) + "/configs/deepseek_v3.json"), "--seq-len", "3"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json v = json::parse(r.out);
    EXPECT_EQ(v["method"], "mla");
    // All-ones content on the diagonal: 128 + 64 times DeepseekV3Attention's scale 192^-0.5 (0.1 ln 40 +
    // 1)^2.
    const double m = 0.1 * std::log(40.0) + 1.0;
    const double want = 192.0 * m * m / std::sqrt(192.0);
    EXPECT_NEAR(v["matrix"][0][0].get<double>(), want, 1e-14 * want);

    const Result f = run({"compute", "rope-frequencies", "--config",
                          (std::string(POSATLAS_TEST_DATA) + "/configs/deepseek_v3.json")});
    ASSERT_EQ(f.status, 0) << f.err;
    EXPECT_EQ(json::parse(f.out)["rotary_dim"], 64);
    EXPECT_NEAR(json::parse(f.out)["logit_multiplier"].get<double>(), m * m, 1e-14 * m * m);
}

TEST(CliMla, InspectedGgufOfDeepSeekIsMlaWithTheParametersOfItsConfig)
{
    const std::string gguf = write_file("deepseek_v3.gguf", deepseek_v3_gguf().bytes()).string();
    const Result g = run({"inspect", gguf, "--format", "json"});
    ASSERT_EQ(g.status, 0) << g.err;
    const Result c = run({"inspect", std::string(POSATLAS_TEST_DATA) + "/configs/deepseek_v3_published.json",
                          "--format", "json"});
    ASSERT_EQ(c.status, 0) << c.err;
    const json from_gguf = json::parse(g.out), from_config = json::parse(c.out);
    EXPECT_EQ(from_gguf.at("method"), "mla");
    EXPECT_EQ(from_gguf.at("parameters"), from_config.at("parameters"));
    EXPECT_EQ(from_gguf.at("parameters").at("qk_nope_head_dim"), 128);
    // The text report names the method and the GGUF key the rotary width came from.
    const Result t = run({"inspect", gguf});
    ASSERT_EQ(t.status, 0) << t.err;
    EXPECT_NE(t.out.find("method mla"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("deepseek2.attention.key_length_mla"), std::string::npos) << t.out;
}

} // namespace
