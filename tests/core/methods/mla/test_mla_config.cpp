// SPDX-License-Identifier: GPL-3.0-or-later
// A DeepSeek-V3 config.json fills the MLA method's parameters (io/model_config_mla.cpp) beside the RoPE of
// its rotary part, and its import report names no positional key as read but not modelled. The config
// (tests/data/configs/deepseek_v3_published.json, README there) holds transformers' DeepseekV3Config
// defaults and deepseek-ai/DeepSeek-V3's published rope_scaling (YaRN factor 40 from 4096, β 32 / 1,
// mscale = mscale_all_dim = 1) and max_position_embeddings 163840.
#include "io/model_config.h"
#include "methods/mla/mla.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace posatlas;

namespace {

std::string data(const char* name)
{
    return std::string(POSATLAS_TEST_DATA) + "/configs/" + name;
}

bool has(const std::vector<std::string>& v, const std::string& s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

TEST(MlaConfig, DeepSeekV3ConfigFillsTheMlaParameters)
{
    const ConfigImport c = load_model_config(data("deepseek_v3_published.json"));
    const MlaParams& m = c.scenario.params<MlaParams>();
    EXPECT_EQ(m.qk_nope_head_dim, 128);
    EXPECT_EQ(m.qk_rope_head_dim, 64);
    EXPECT_EQ(m.rope_theta, 10000.0);
    EXPECT_TRUE(m.rope_interleave);
    EXPECT_EQ(m.rope_type, MlaRopeType::Yarn);
    EXPECT_EQ(m.factor, 40.0);
    EXPECT_EQ(m.original_max_position_embeddings, 4096);
    EXPECT_EQ(m.max_position_embeddings, 163840);
    EXPECT_EQ(m.beta_fast, 32.0);
    EXPECT_EQ(m.beta_slow, 1.0);
    ASSERT_TRUE(m.mscale && m.mscale_all_dim);
    EXPECT_EQ(*m.mscale, 1.0);
    EXPECT_EQ(*m.mscale_all_dim, 1.0);
    // They are the MLA method's defaults, which are DeepSeek-V3's.
    EXPECT_EQ(m, MlaParams{});
    // DeepseekV3Attention.scaling: 192^-0.5 · yarn_get_mscale(40, 1)^2; 1e-15 relative (one rounding).
    const double mscale = 0.1 * std::log(40.0) + 1.0;
    EXPECT_NEAR(mla_softmax_scale(m), mscale * mscale / std::sqrt(192.0), 1e-15);
    // The model's method is MLA, and it validates with these parameters; --method rope shows the rotary part.
    EXPECT_EQ(c.scenario.method, kMLA);
    EXPECT_NO_THROW(validate(c.scenario));
    Scenario s = c.scenario;
    s.method = Method::RoPE;
    EXPECT_NO_THROW(validate(s));
}

TEST(MlaConfig, ReportListsNoPositionalKeyAsNotModelled)
{
    const ConfigImport c = load_model_config(data("deepseek_v3_published.json"));
    EXPECT_TRUE(c.ignored_keys.empty())
        << "first: " << (c.ignored_keys.empty() ? "" : c.ignored_keys.front());
    for (const char* key :
         {"qk_nope_head_dim", "qk_rope_head_dim", "rope_theta", "rope_interleave", "rope_scaling.factor",
          "rope_scaling.mscale_all_dim", "rope_scaling.original_max_position_embeddings"})
        EXPECT_TRUE(has(c.read_keys, key)) << key;
    // Sizes of the values and the low-rank projections: known, not positional, not unknown.
    for (const char* key : {"v_head_dim", "kv_lora_rank", "q_lora_rank"}) {
        EXPECT_FALSE(has(c.ignored_keys, key)) << key;
        EXPECT_FALSE(has(c.unknown_keys, key)) << key;
    }
}

// rope_interleave false (apply_rotary_pos_emb) and a smaller position-free part; no rope_scaling: no
// scaling and the plain softmax scale (HF: "if self.config.rope_scaling is not None").
TEST(MlaConfig, InterleaveFalseAndNoScalingAreRead)
{
    const nlohmann::json cfg = nlohmann::json::parse(
        R"({"model_type":"deepseek_v3","qk_nope_head_dim":96,"qk_rope_head_dim":32,"rope_theta":50000,
            "rope_interleave":false,"max_position_embeddings":8192})");
    const ConfigImport c = import_model_config(cfg);
    const MlaParams& m = c.scenario.params<MlaParams>();
    EXPECT_EQ(m.qk_nope_head_dim, 96);
    EXPECT_EQ(m.qk_rope_head_dim, 32);
    EXPECT_EQ(m.rope_theta, 50000.0);
    EXPECT_FALSE(m.rope_interleave);
    EXPECT_EQ(m.rope_type, MlaRopeType::Default);
    EXPECT_EQ(mla_softmax_scale(m), 1.0 / std::sqrt(128.0));
}

TEST(MlaConfig, AnOutOfRangePositionFreePartIsRefusedByName)
{
    const nlohmann::json cfg = nlohmann::json::parse(
        R"({"model_type":"deepseek_v2","qk_nope_head_dim":100000,"qk_rope_head_dim":64})");
    try {
        import_model_config(cfg);
        FAIL() << "qk_nope_head_dim 100000 was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("qk_nope_head_dim"), std::string::npos) << e.what();
    }
}
