// SPDX-License-Identifier: GPL-3.0-or-later
// Per-layer anatomy of a model config (core/io/model_layers.h, core/io/model_config_layers.cpp), on the
// configs of tests/data/configs (their sources in its README). Each expectation is the layer pattern the
// model's own transformers code builds, named per test; spans and bases are exact integers or exact
// binary values, compared exactly.
#include "io/model_config.h"
#include "io/model_layers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

using namespace posatlas;
using nlohmann::json;

namespace {

std::string data(const std::string& name)
{
    return std::string(POSATLAS_TEST_DATA) + "/configs/" + name;
}

json read_json(const std::string& name)
{
    std::ifstream in(data(name));
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

// The positional keys a config may carry: none of them may stay in "read, not modelled".
const char* const kPositional[] = {"sliding_window",
                                   "use_sliding_window",
                                   "max_window_layers",
                                   "layer_types",
                                   "attention_chunk_size",
                                   "no_rope_layers",
                                   "sliding_window_pattern",
                                   "rope_local_base_freq",
                                   "qk_nope_head_dim",
                                   "rope_interleave",
                                   "rope_parameters",
                                   "position_embedding_type",
                                   "no_rope_layer_interval",
                                   "attn_temperature_tuning",
                                   "floor_scale",
                                   "attn_scale"};

void expect_no_positional_not_modelled(const ConfigImport& c)
{
    for (const std::string& k : c.ignored_keys)
        for (const char* p : kPositional)
            EXPECT_NE(k.substr(0, k.find('.')), p) << k << " is still read but not modelled";
}

std::string pattern(const ConfigImport& c)
{
    std::string s;
    for (const LayerAnatomy& a : c.layers)
        s += a.attention == LayerAttention::Global    ? (a.rope ? 'G' : 'g')
             : a.attention == LayerAttention::Sliding ? (a.rope ? 'S' : 's')
                                                      : (a.rope ? 'C' : 'c');
    return s;
}

// Gemma2Config.layer_types: sliding when (i + 1) % 2 != 0, every layer RoPE with rope_theta.
TEST(ModelLayers, Gemma2AlternatesSlidingAndGlobal)
{
    const ConfigImport c = load_model_config(data("gemma2_9b.json"));
    ASSERT_EQ(c.layers.size(), 42u);
    for (const LayerAnatomy& a : c.layers) {
        EXPECT_EQ(a.attention, a.index % 2 == 0 ? LayerAttention::Sliding : LayerAttention::Global)
            << a.index;
        EXPECT_TRUE(a.rope);
        EXPECT_EQ(a.rope_theta, 10000.0);
        if (a.attention == LayerAttention::Sliding) {
            EXPECT_EQ(a.span, 4096);
        }
    }
    expect_no_positional_not_modelled(c);
}

// Gemma3TextConfig: global when (i + 1) % 6 == 0; modeling_gemma3.py: local layers rotate with
// rope_local_base_freq (10000, default RoPE), global ones with rope_theta and rope_scaling (linear 8).
TEST(ModelLayers, Gemma3FiveLocalToOneGlobal)
{
    const ConfigImport c = load_model_config(data("gemma3_27b_text.json"));
    ASSERT_EQ(c.layers.size(), 62u);
    EXPECT_EQ(pattern(c).substr(0, 12), "SSSSSGSSSSSG");
    for (const LayerAnatomy& a : c.layers) {
        const bool global = (a.index + 1) % 6 == 0;
        EXPECT_EQ(a.attention, global ? LayerAttention::Global : LayerAttention::Sliding);
        EXPECT_EQ(a.rope_theta, global ? 1e6 : 10000.0) << a.index;
        EXPECT_EQ(a.rope_type, global ? "linear" : "default") << a.index;
        EXPECT_EQ(a.rope_factor, global ? 8.0 : 1.0) << a.index;
        if (!global) {
            EXPECT_EQ(a.span, 1024);
        }
    }
    expect_no_positional_not_modelled(c);
    expect_no_positional_not_modelled(load_model_config(data("gemma3_12b.json")));
}

// Transformers v5: layer_types spelled out and rope_parameters per layer type (modeling_rope_utils.py,
// RotaryEmbeddingConfigMixin: one entry per layer type).
TEST(ModelLayers, V5LayerTypesWithRopeParametersPerType)
{
    const ConfigImport c = load_model_config(data("gemma3_1b_v5.json"));
    ASSERT_EQ(c.layers.size(), 26u);
    for (const LayerAnatomy& a : c.layers) {
        const bool global = (a.index + 1) % 6 == 0;
        EXPECT_EQ(a.rope_theta, global ? 1e6 : 10000.0) << a.index;
        EXPECT_EQ(a.span, global ? 0 : 512);
    }
    expect_no_positional_not_modelled(c);
}

// Llama4TextConfig: no_rope_layers[i] = int((i + 1) % 4 != 0); chunked_attention on RoPE layers,
// full_attention on NoPE layers; Llama4TextAttention: temperature tuning on NoPE layers only.
TEST(ModelLayers, Llama4IRope)
{
    const ConfigImport c = load_model_config(data("llama4_scout.json"));
    ASSERT_EQ(c.layers.size(), 48u);
    EXPECT_EQ(pattern(c).substr(0, 8), "CCCgCCCg");
    for (const LayerAnatomy& a : c.layers) {
        const bool nope = (a.index + 1) % 4 == 0;
        EXPECT_EQ(a.rope, !nope) << a.index;
        EXPECT_EQ(a.attention, nope ? LayerAttention::Global : LayerAttention::Chunked);
        EXPECT_EQ(a.temperature, nope);
        if (!nope) {
            EXPECT_EQ(a.span, 8192);
            EXPECT_EQ(a.rope_theta, 500000.0);
            EXPECT_EQ(a.rope_type, "llama3");
            EXPECT_EQ(a.rope_factor, 16.0);
        }
    }
    expect_no_positional_not_modelled(c);
    const ConfigImport v5 = load_model_config(data("llama4_v5.json"));
    EXPECT_EQ(pattern(v5), "CCCgCCCg");
    expect_no_positional_not_modelled(v5);
}

// log(floor((pos + 1) / floor_scale) + 1) * attn_scale + 1 (Llama4TextAttention.forward); tolerance 1e-15.
TEST(ModelLayers, Llama4AttentionTemperature)
{
    const ConfigImport c = load_model_config(data("llama4_scout.json"));
    const LayerAnatomy& nope = c.layers[3];
    EXPECT_EQ(attention_temperature(nope, 0), 1.0);
    EXPECT_EQ(attention_temperature(nope, 8190), 1.0); // floor(8191 / 8192) = 0
    EXPECT_NEAR(attention_temperature(nope, 8191), std::log(2.0) * 0.1 + 1.0,
                1e-15); // floor(8192 / 8192) = 1
    EXPECT_NEAR(attention_temperature(nope, 3 * 8192 - 1), std::log(4.0) * 0.1 + 1.0, 1e-15);
    EXPECT_EQ(attention_temperature(c.layers[0], 100000), 1.0); // RoPE layer: none
}

// Cohere2Attention: RoPE on the sliding layers only ((i + 1) % sliding_window_pattern != 0), NoPE on global.
TEST(ModelLayers, Cohere2RopeOnSlidingLayersOnly)
{
    for (const char* f : {"cohere2_r7b.json", "cohere2_v5.json"}) {
        const ConfigImport c = load_model_config(data(f));
        EXPECT_EQ(pattern(c).substr(0, 8), "SSSgSSSg") << f;
        EXPECT_EQ(c.layers[0].rope_theta, 50000.0) << f;
        EXPECT_EQ(c.layers[0].span, 4096) << f;
        expect_no_positional_not_modelled(c);
    }
}

// SmolLM3Config: no_rope_layers[i] == 1 means layer i USES RoPE (SmolLM3Attention.use_rope).
TEST(ModelLayers, SmolLM3NoRopeLayersOneMeansRope)
{
    const ConfigImport c = load_model_config(data("smollm3_3b.json"));
    ASSERT_EQ(c.layers.size(), 36u);
    EXPECT_EQ(pattern(c).substr(0, 8), "GGGgGGGg");
    EXPECT_EQ(c.layers[0].rope_theta, 5e6);
    expect_no_positional_not_modelled(c);
    // The same list inverted: layer 0 NoPE.
    json cfg = read_json("smollm3_3b.json");
    cfg["no_rope_layers"][0] = 0;
    cfg["no_rope_layers"][3] = 1;
    EXPECT_EQ(pattern(import_model_config(cfg)).substr(0, 4), "gGGG");
}

// MistralAttention: sliding_window on every layer.
TEST(ModelLayers, MistralSlidingEverywhere)
{
    const ConfigImport c = load_model_config(data("mistral_7b_v0.1.json"));
    EXPECT_EQ(pattern(c), std::string(32, 'S'));
    EXPECT_EQ(c.layers[31].span, 4096);
    expect_no_positional_not_modelled(c);
}

// Qwen2Config.layer_types: sliding when use_sliding_window and i >= max_window_layers.
TEST(ModelLayers, Qwen2SlidingFromMaxWindowLayers)
{
    const ConfigImport c = load_model_config(data("qwen2_sliding.json"));
    EXPECT_EQ(pattern(c), std::string(21, 'G') + std::string(7, 'S'));
    expect_no_positional_not_modelled(c);
    const ConfigImport off = load_model_config(data("qwen2.5_7b_instruct.json"));
    for (const LayerAnatomy& a : off.layers)
        EXPECT_EQ(a.attention, LayerAttention::Global);
    expect_no_positional_not_modelled(off);
}

// DeepseekV3: every layer global RoPE; qk_nope_head_dim and rope_interleave are read.
TEST(ModelLayers, DeepSeekV3GlobalRope)
{
    const ConfigImport c = load_model_config(data("deepseek_v3.json"));
    EXPECT_EQ(pattern(c), std::string(61, 'G'));
    expect_no_positional_not_modelled(c);
    json cfg = read_json("deepseek_v3.json");
    cfg["rope_interleave"] = false;
    const ConfigImport half = import_model_config(cfg);
    EXPECT_EQ(half.scenario.params<RopeParams>().pairing, RopePairing::Half);
    expect_no_positional_not_modelled(half);
}

TEST(ModelLayers, MaskPredicate)
{
    LayerAnatomy sliding{.attention = LayerAttention::Sliding, .span = 4};
    EXPECT_TRUE(layer_mask_allows(sliding, 10, 10));
    EXPECT_TRUE(layer_mask_allows(sliding, 10, 7)); // q - k = 3 < 4
    EXPECT_FALSE(layer_mask_allows(sliding, 10, 6));
    EXPECT_FALSE(layer_mask_allows(sliding, 10, 11)); // causal
    LayerAnatomy chunked{.attention = LayerAttention::Chunked, .span = 4};
    EXPECT_TRUE(layer_mask_allows(chunked, 7, 4));
    EXPECT_FALSE(layer_mask_allows(chunked, 8, 7)); // 8 starts a new chunk
    EXPECT_TRUE(layer_mask_allows(LayerAnatomy{}, 1000, 0));
}

TEST(ModelLayers, ReceptiveField)
{
    const LayerAnatomy s{.attention = LayerAttention::Sliding, .span = 4096};
    // Mistral: k layers of W = 4096 reach k * 4095 back (the paper's "k x W" counts W - 1 per layer plus
    // the query itself).
    std::vector<LayerAnatomy> mistral(32, s);
    EXPECT_EQ(receptive_field_start(mistral, 0, 100000), 100000);
    EXPECT_EQ(receptive_field_start(mistral, 1, 100000), 100000 - 4095);
    EXPECT_EQ(receptive_field_start(mistral, 32, 200000), 200000 - 32 * 4095);
    EXPECT_EQ(receptive_field_start(mistral, 32, 1000), 0);
    // Gemma 2: one global layer reaches the first token.
    const ConfigImport g = load_model_config(data("gemma2_9b.json"));
    EXPECT_EQ(receptive_field_start(g.layers, 1, 50000), 50000 - 4095);
    EXPECT_EQ(receptive_field_start(g.layers, 2, 50000), 0);
    // Chunked layers alone stay in the query's chunk: 20000 is in chunk [16384, 24576).
    const ConfigImport l = load_model_config(data("llama4_scout.json"));
    EXPECT_EQ(receptive_field_start(l.layers, 3, 20000), 16384);
    EXPECT_EQ(receptive_field_start(l.layers, 4, 20000), 0);
}

TEST(ModelLayers, GroupsConsecutiveAlikeLayers)
{
    const ConfigImport c = load_model_config(data("gemma3_27b_text.json"));
    const auto groups = group_layers(c.layers);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].ranges.front(), std::make_pair(0, 4));
    EXPECT_EQ(groups[1].ranges.front(), std::make_pair(5, 5));
    EXPECT_EQ(groups[0].ranges.back(), std::make_pair(60, 61));
}

void expect_refused(json cfg, const std::string& key)
{
    try {
        import_model_config(cfg);
        ADD_FAILURE() << "accepted: " << cfg.dump();
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
}

TEST(ModelLayers, HostileConfigsRefusedNamingTheKey)
{
    json g = read_json("gemma3_1b_v5.json");
    json shorter = g;
    shorter["layer_types"].erase(0);
    expect_refused(shorter, "layer_types has 25 entries but num_hidden_layers is 26");
    json unknown = g;
    unknown["layer_types"][3] = "mamba";
    expect_refused(unknown, "layer_types[3]");
    json negative = g;
    negative["sliding_window"] = -5;
    expect_refused(negative, "sliding_window must be a positive integer (got -5)");
    json not_list = g;
    not_list["layer_types"] = "sliding_attention";
    expect_refused(not_list, "layer_types must be a list");
    json chunk = read_json("llama4_v5.json");
    chunk["attention_chunk_size"] = 0;
    expect_refused(chunk, "attention_chunk_size");
    json nope = read_json("smollm3_3b.json");
    nope["no_rope_layers"][2] = 7;
    expect_refused(nope, "no_rope_layers[2]");
    json nope_short = read_json("smollm3_3b.json");
    nope_short["no_rope_layers"] = json::array({1, 1});
    expect_refused(nope_short, "no_rope_layers has 2 entries");
    json layers = read_json("mistral_7b_v0.1.json");
    layers["num_hidden_layers"] = 1000000000;
    expect_refused(layers, "num_hidden_layers");
}

} // namespace
