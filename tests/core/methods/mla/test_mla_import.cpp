// SPDX-License-Identifier: GPL-3.0-or-later
// DeepSeek-V2/V3 configs import as the MLA method (io/model_config_mla.cpp): tests/data/configs/
// deepseek_v3.json and deepseek_v3_published.json (README there), the preset deepseek-v2-lite, and a model
// type PosAtlas does not know that carries DeepSeek's latent-attention keys. The RoPE parameters keep the
// rotary part (with DeepSeek's softmax multiplier), which the rotary views and RoPE quantities read.
#include "io/model_config.h"
#include "io/presets.h"
#include "methods/mla/mla.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace posatlas;

namespace {

std::string data(const char* name)
{
    return std::string(POSATLAS_TEST_DATA) + "/configs/" + name;
}

} // namespace

TEST(MlaImport, DeepSeekConfigsAreMultiHeadLatentAttention)
{
    for (const char* name : {"deepseek_v3.json", "deepseek_v3_published.json"}) {
        SCOPED_TRACE(name);
        const ConfigImport c = load_model_config(data(name));
        EXPECT_EQ(c.scenario.method, MlaParams::kMethod);
        EXPECT_NO_THROW(validate(c.scenario));
        const MlaParams& m = c.scenario.params<MlaParams>();
        EXPECT_EQ(m.qk_rope_head_dim, 64);
        EXPECT_EQ(m.rope_type, MlaRopeType::Yarn);
        EXPECT_EQ(m.factor, 40.0);
        ASSERT_TRUE(m.mscale && m.mscale_all_dim);
        EXPECT_EQ(*m.mscale_all_dim, 1.0);
        // DeepseekV3Attention.scaling = (128 + 64)^-0.5 · yarn_get_mscale(40, 1)^2; 1e-15 relative.
        const double ms = 0.1 * std::log(40.0) + 1.0;
        const double want = ms * ms / std::sqrt(192.0);
        EXPECT_NEAR(mla_softmax_scale(m), want, 1e-15 * want);
        // The rotary views draw the rotary part: the imported RoPE parameters of that part.
        const std::optional<RopeParams> rotary = rotary_params(c.scenario);
        ASSERT_TRUE(rotary.has_value());
        EXPECT_EQ(*rotary, c.scenario.params<RopeParams>());
        EXPECT_FALSE(c.layers.empty()); // the layer anatomy is still read
    }
}

TEST(MlaImport, DeepSeekV2LitePresetIsMla)
{
    const ConfigImport c = load_preset("deepseek-v2-lite");
    EXPECT_EQ(c.scenario.method, MlaParams::kMethod);
    const MlaParams& m = c.scenario.params<MlaParams>();
    EXPECT_EQ(m.qk_nope_head_dim, 128);
    EXPECT_EQ(m.qk_rope_head_dim, 64);
    ASSERT_TRUE(m.mscale_all_dim);
    EXPECT_EQ(*m.mscale_all_dim, 0.707);
    EXPECT_NO_THROW(validate(c.scenario));
}

TEST(MlaImport, AnUnknownModelTypeWithLatentAttentionKeys)
{
    const ConfigImport c = import_model_config(nlohmann::json::parse(
        R"({"model_type":"some_latent_model","kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,
            "rope_theta":10000})"));
    EXPECT_EQ(c.scenario.method, MlaParams::kMethod);
    EXPECT_EQ(c.scenario.params<MlaParams>().qk_rope_head_dim, 64);
    EXPECT_EQ(c.scenario.params<MlaParams>().rope_type, MlaRopeType::Default);
}
