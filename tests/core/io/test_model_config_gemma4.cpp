// SPDX-License-Identifier: GPL-3.0-or-later
// Gemma 4's config (tests/data/configs/gemma4_text_defaults.json: transformers' Gemma4TextConfig defaults,
// README there): the full-attention layers' RoPE is shown, proportional RoPE read as p-RoPE over
// global_head_dim (modeling_rope_utils.py _compute_proportional_rope_parameters), and the layers follow
// Gemma4TextConfig.__post_init__ (sliding unless (i + 1) % 6 == 0, the last layer full) with
// rope_parameters per layer type.
#include "io/model_config.h"
#include "methods/rope/rope_scaling.h"

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

TEST(GemmaFourConfig, ProportionalRopeOfTheFullAttentionLayers)
{
    const ConfigImport c = load_model_config(data("gemma4_text_defaults.json"));
    EXPECT_EQ(c.scenario.method, Method::RoPE);
    const RopeParams& p = c.scenario.params<RopeParams>();
    EXPECT_EQ(p.head_dim, 512);
    EXPECT_EQ(p.rope_theta, 1e6);
    EXPECT_EQ(p.partial_rotary_factor, 1.0);
    EXPECT_EQ(p.frequency_fraction, 0.25);
    EXPECT_EQ(p.rope_type, RopeType::Default);
    EXPECT_EQ(p.rotary_dim(), 128); // int(0.25 * 512 // 2) = 64 pairs
    // theta_63 = 1e6^(-126/512): the exponent over the whole head, 1e-15 relative.
    const RopeFrequencies f = compute_rope_frequencies(p);
    EXPECT_NEAR(f.inv_freq.back(), std::pow(1e6, -126.0 / 512.0), 1e-15 * f.inv_freq.back());
}

TEST(GemmaFourConfig, LayersSlideFiveInSixWithTheirOwnRope)
{
    const ConfigImport c = load_model_config(data("gemma4_text_defaults.json"));
    ASSERT_EQ(c.layers.size(), 30u);
    for (const LayerAnatomy& a : c.layers) {
        const bool full = (a.index + 1) % 6 == 0;
        EXPECT_EQ(a.attention, full ? LayerAttention::Global : LayerAttention::Sliding) << a.index;
        EXPECT_EQ(a.span, full ? 0 : 512) << a.index;
        EXPECT_EQ(a.rope_theta, full ? 1e6 : 10000.0) << a.index;
        EXPECT_EQ(a.rope_type, full ? "proportional" : "default") << a.index;
    }
}

TEST(GemmaFourConfig, DefaultsWhenRopeParametersAreAbsent)
{
    // Gemma4TextConfig.__post_init__ fills rope_parameters; global_head_dim defaults to 512.
    const ConfigImport c =
        import_model_config(nlohmann::json::parse(R"({"model_type":"gemma4_text","num_hidden_layers":7})"));
    const RopeParams& p = c.scenario.params<RopeParams>();
    EXPECT_EQ(p.head_dim, 512);
    EXPECT_EQ(p.frequency_fraction, 0.25);
    EXPECT_EQ(p.rope_theta, 1e6);
    ASSERT_EQ(c.layers.size(), 7u);
    EXPECT_EQ(c.layers[5].attention, LayerAttention::Global);
    EXPECT_EQ(c.layers[6].attention, LayerAttention::Global); // the last layer is always full
    EXPECT_EQ(c.layers[4].span, 512);
}

TEST(GemmaFourConfig, ProportionalWithAFactorIsLinear)
{
    const ConfigImport c = import_model_config(nlohmann::json::parse(
        R"({"model_type":"gemma4_text","rope_parameters":{"full_attention":{"rope_type":"proportional",
            "partial_rotary_factor":0.5,"rope_theta":1000000.0,"factor":8.0}}})"));
    const RopeParams& p = c.scenario.params<RopeParams>();
    EXPECT_EQ(p.rope_type, RopeType::Linear);
    EXPECT_EQ(p.factor, 8.0);
    EXPECT_EQ(p.frequency_fraction, 0.5);
    EXPECT_THROW(import_model_config(
                     nlohmann::json::parse(R"({"model_type":"gemma4_text","rope_parameters":{"full_attention":
        {"rope_type":"proportional","partial_rotary_factor":1.5,"rope_theta":10000.0}}})")),
                 ConfigError);
}
