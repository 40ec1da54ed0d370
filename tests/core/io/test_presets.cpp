// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the embedded model presets (core/io/presets.h, resources/presets/*.json).
// Expected values come from each model's published config.json (the preset's _posatlas_source) and the
// transformers rules in modeling_rope_utils.py; exact comparisons unless stated.
#include "analysis/rope_compare.h"
#include "io/presets.h"
#include "io/scenario_json.h"
#include "methods/mla/mla.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

using namespace posatlas;

namespace {

struct Expected {
    const char* id;
    Method method;
    const char* family;
};

// The ids the project requires, the method each model uses and its family.
constexpr Expected kRequired[] = {
    {"transformer-base", Method::Sinusoidal, "Transformer"},
    {"bert-base", Method::Learned, "BERT"},
    {"gpt2", Method::Learned, "GPT-2"},
    {"t5-base", Method::T5, "T5"},
    {"deberta-v3-base", Method::DeBERTa, "DeBERTa"},
    {"llama-2-7b", Method::RoPE, "Llama"},
    {"llama-3.1-8b", Method::RoPE, "Llama"},
    {"qwen2-7b", Method::RoPE, "Qwen"},
    {"mistral-7b", Method::RoPE, "Mistral"},
    {"codellama-7b", Method::RoPE, "Llama"},
    {"gpt-neox-20b", Method::RoPE, "GPT-NeoX"},
    {"bloom-560m", Method::ALiBi, "BLOOM"},
    {"mpt-7b", Method::ALiBi, "MPT"},
    {"yarn-llama-2-7b-64k", Method::RoPE, "Llama"},
    {"deepseek-v2-lite", MlaParams::kMethod, "DeepSeek"}, // multi-head latent attention
    {"phi-3-mini-128k", Method::RoPE, "Phi"},
    {"gpt-oss-20b", Method::RoPE, "GPT-OSS"},
};

} // namespace

TEST(Presets, EveryRequiredPresetLoadsAndValidates)
{
    for (const auto& e : kRequired) {
        SCOPED_TRACE(e.id);
        const auto info = find_preset(e.id);
        ASSERT_TRUE(info.has_value());
        EXPECT_EQ(info->id, e.id);
        EXPECT_FALSE(info->name.empty());
        EXPECT_EQ(info->family, e.family);
        EXPECT_EQ(info->source.rfind("https://", 0), 0u) << info->source;
        EXPECT_FALSE(info->description.empty());
        EXPECT_EQ(info->method, e.method);
        const auto c = load_preset(e.id);
        EXPECT_EQ(c.scenario.method, e.method);
        EXPECT_NO_THROW(validate(c.scenario));
        // Preset files hold only keys the importer knows; metadata keys are not "unknown".
        EXPECT_TRUE(c.unknown_keys.empty()) << c.unknown_keys.front();
    }
}

TEST(Presets, ListIsSortedAndComplete)
{
    const auto all = list_presets();
    ASSERT_GE(all.size(), std::size(kRequired));
    for (std::size_t i = 1; i < all.size(); ++i)
        EXPECT_LT(all[i - 1].id, all[i].id);
    for (const auto& p : all) {
        SCOPED_TRACE(p.id);
        EXPECT_NO_THROW(validate(load_preset(p.id).scenario));
    }
}

TEST(Presets, UnknownIdListsValidIds)
{
    EXPECT_FALSE(find_preset("llama-9").has_value());
    try {
        load_preset("llama-9");
        ADD_FAILURE() << "expected ConfigError";
    } catch (const ConfigError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("llama-9"), std::string::npos);
        EXPECT_NE(msg.find("gpt-oss-20b"), std::string::npos);
        EXPECT_NE(msg.find("bert-base"), std::string::npos);
    }
}

TEST(Presets, ViewingChoicesOfTheBaseAreKept)
{
    Scenario base;
    base.seq_len = 4096;
    base.content.kind = ContentKind::Fixed;
    base.params<T5Params>().num_buckets = 128; // a model parameter of another method: not a viewing choice
    const auto c = load_preset("llama-2-7b", base);
    EXPECT_EQ(c.scenario.seq_len, 4096);
    EXPECT_EQ(c.scenario.content.kind, ContentKind::Fixed);
    EXPECT_EQ(c.scenario.params<T5Params>().num_buckets, T5Params{}.num_buckets);
}

// Values of the published configs (see each preset's _posatlas_source).
TEST(Presets, RopeValues)
{
    {
        // openai/gpt-oss-20b: yarn, factor 32, beta 32/1, original 4096, theta 150000, head_dim 64, truncate
        // false.
        const auto r = load_preset("gpt-oss-20b").scenario.params<RopeParams>();
        EXPECT_EQ(r.rope_type, RopeType::Yarn);
        EXPECT_EQ(r.factor, 32.0);
        EXPECT_EQ(r.beta_fast, 32.0);
        EXPECT_EQ(r.beta_slow, 1.0);
        EXPECT_EQ(r.original_max_position_embeddings, 4096);
        EXPECT_EQ(r.max_position_embeddings, 131072);
        EXPECT_EQ(r.rope_theta, 150000.0);
        EXPECT_EQ(r.head_dim, 64);
        EXPECT_FALSE(r.truncate);
        EXPECT_EQ(r.pairing, RopePairing::Half);
    }
    {
        // microsoft/Phi-3-mini-128k-instruct: 96-dim heads -> 48 factors each; factor 131072 / 4096 = 32.
        const auto c = load_preset("phi-3-mini-128k");
        const auto& r = c.scenario.params<RopeParams>();
        EXPECT_EQ(r.rope_type, RopeType::LongRope);
        EXPECT_EQ(r.head_dim, 96);
        EXPECT_EQ(r.short_factor.size(), 48u);
        EXPECT_EQ(r.long_factor.size(), 48u);
        EXPECT_EQ(r.factor, 32.0);
        EXPECT_EQ(r.original_max_position_embeddings, 4096);
        EXPECT_EQ(r.long_factor.back(), 64.81001281738281);
        EXPECT_EQ(r.short_factor.front(), 1.05);
    }
    {
        // meta-llama/Llama-3.1-8B: llama3 scaling, factor 8, low/high 1/4, original 8192, theta 500000.
        const auto r = load_preset("llama-3.1-8b").scenario.params<RopeParams>();
        EXPECT_EQ(r.rope_type, RopeType::Llama3);
        EXPECT_EQ(r.factor, 8.0);
        EXPECT_EQ(r.low_freq_factor, 1.0);
        EXPECT_EQ(r.high_freq_factor, 4.0);
        EXPECT_EQ(r.original_max_position_embeddings, 8192);
        EXPECT_EQ(r.rope_theta, 500000.0);
        EXPECT_EQ(r.head_dim, 128);
    }
    {
        // deepseek-ai/DeepSeek-V2-Lite: rotary part 64, yarn factor 40, mscale 0.707, interleaved pairs.
        const auto r = load_preset("deepseek-v2-lite").scenario.params<RopeParams>();
        EXPECT_EQ(r.head_dim, 64);
        EXPECT_EQ(r.rope_type, RopeType::Yarn);
        EXPECT_EQ(r.factor, 40.0);
        EXPECT_EQ(r.original_max_position_embeddings, 4096);
        ASSERT_TRUE(r.mscale && r.mscale_all_dim);
        EXPECT_EQ(*r.mscale, 0.707);
        EXPECT_EQ(*r.mscale_all_dim, 0.707);
        EXPECT_EQ(r.pairing, RopePairing::Interleaved);
    }
    {
        // EleutherAI/gpt-neox-20b: 6144 / 64 = 96, rotary_pct 0.25 -> 24 rotary dims.
        const auto r = load_preset("gpt-neox-20b").scenario.params<RopeParams>();
        EXPECT_EQ(r.head_dim, 96);
        EXPECT_EQ(r.rotary_dim(), 24);
    }
    {
        // NousResearch/Yarn-Llama-2-7b-64k: yarn factor 16 over 4096 -> 65536.
        const auto r = load_preset("yarn-llama-2-7b-64k").scenario.params<RopeParams>();
        EXPECT_EQ(r.rope_type, RopeType::Yarn);
        EXPECT_EQ(r.factor, 16.0);
        EXPECT_EQ(r.original_max_position_embeddings, 4096);
        EXPECT_EQ(r.max_position_embeddings, 65536);
    }
    EXPECT_EQ(load_preset("codellama-7b").scenario.params<RopeParams>().rope_theta, 1000000.0);
    EXPECT_EQ(load_preset("qwen2-7b").scenario.params<RopeParams>().head_dim, 128); // 3584 / 28
    EXPECT_EQ(load_preset("mistral-7b").scenario.params<RopeParams>().max_position_embeddings, 32768);
}

TEST(Presets, OtherMethodValues)
{
    const auto t5 = load_preset("t5-base").scenario.params<T5Params>();
    EXPECT_EQ(t5.num_buckets, 32);
    EXPECT_EQ(t5.max_distance, 128); // absent from t5-base's config: T5Config default
    EXPECT_EQ(t5.num_heads, 12);

    const auto d = load_preset("deberta-v3-base").scenario.params<DebertaParams>();
    EXPECT_EQ(d.position_buckets, 256);
    EXPECT_EQ(d.max_relative_positions, 512); // -1 -> max_position_embeddings
    EXPECT_EQ(d.head_dim, 64);
    EXPECT_TRUE(d.c2p && d.p2c);

    EXPECT_EQ(load_preset("bloom-560m").scenario.params<AlibiParams>().num_heads, 16);
    EXPECT_EQ(load_preset("mpt-7b").scenario.params<AlibiParams>().num_heads, 32);

    const auto bert = load_preset("bert-base").scenario.params<LearnedParams>();
    EXPECT_EQ(bert.dim, 768);
    EXPECT_EQ(bert.trained_length, 512);
    const auto gpt2 = load_preset("gpt2").scenario.params<LearnedParams>();
    EXPECT_EQ(gpt2.dim, 768);
    EXPECT_EQ(gpt2.trained_length, 1024);

    EXPECT_EQ(load_preset("transformer-base").scenario.params<SinusoidalParams>().dim, 512);
}

namespace {

// Model configs shipped with the tests, each a real model's config.json reduced to the keys that matter
// (Gemma 3 in the v5 `rope_parameters` form and with linear scaling, Qwen2-VL's mrope, Qwen2.5 with the
// YaRN x4 block of its model card, Qwen2.5-Instruct with its sliding window off, DeepSeek-V3, a tiny Llama).
const char* const kShippedConfigs[] = {
    "llama_tiny.json",       "gemma3_12b.json",          "gemma3_tiny_v5.json", "qwen2_vl_7b.json",
    "qwen2.5_7b_yarn4.json", "qwen2.5_7b_instruct.json", "deepseek_v3.json"};

std::string config_path(const char* name)
{
    return std::string(POSATLAS_TEST_DATA) + "/configs/" + name;
}

} // namespace

// The GUI loads a preset on top of the current scenario. Nothing of the previous model may leak into
// it: loading B after A must give exactly the scenario of loading B alone (what `--preset B` gives).
// Compared through the session JSON, which holds every field.
TEST(Presets, LoadingAfterAnyOtherPresetEqualsLoadingItAlone)
{
    const auto presets = list_presets();
    for (const auto& b : presets) {
        const nlohmann::json alone = scenario_to_json(load_preset(b.id).scenario);
        for (const auto& a : presets) {
            const Scenario after_a = load_preset(a.id).scenario;
            EXPECT_EQ(scenario_to_json(load_preset(b.id, after_a).scenario), alone)
                << a.id << " then " << b.id;
        }
    }
}

TEST(Presets, ConfigImportAfterAnyPresetEqualsImportingItAlone)
{
    for (const char* name : kShippedConfigs) {
        const nlohmann::json alone = scenario_to_json(load_model_config(config_path(name)).scenario);
        for (const auto& a : list_presets()) {
            const Scenario after_a = load_preset(a.id).scenario;
            EXPECT_EQ(scenario_to_json(load_model_config(config_path(name), after_a).scenario), alone)
                << a.id << " then " << name;
        }
    }
}

// The context lengths of real configs, as the models' own code and model cards define them.
// trained = original_max_position_embeddings if set, else max_position_embeddings; target per
// rope_default_target_length (rope_compare.h). Exact integers.
// Gemma 3's rope_local_base_freq is positional (the base of its sliding-window layers): read into the
// sliding layers' anatomy (io/model_layers.h), with a note that the views show the global layers' base.
TEST(Presets, GemmaLocalBaseIsReadForTheSlidingLayers)
{
    const ConfigImport c = load_model_config(config_path("gemma3_12b.json"));
    EXPECT_NE(std::find(c.read_keys.begin(), c.read_keys.end(), "rope_local_base_freq"), c.read_keys.end());
    EXPECT_EQ(std::find(c.ignored_keys.begin(), c.ignored_keys.end(), "rope_local_base_freq"),
              c.ignored_keys.end());
    ASSERT_FALSE(c.layers.empty());
    EXPECT_EQ(c.layers[0].rope_theta, 10000.0);
    EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
        return n.find("rope_local_base_freq") != std::string::npos;
    }));
}

TEST(Presets, ShippedConfigsHaveTheirModelsContextLengths)
{
    struct Case {
        const char* file;
        std::int64_t trained;
        std::int64_t target;
    };
    const Case cases[] = {
        {"gemma3_12b.json", 32768, 131072}, // linear x8: pre-trained 32768, context 131072 (Gemma 3 report)
        {"gemma3_tiny_v5.json", 512, 512},  // rope_parameters.full_attention, default
        {"qwen2.5_7b_yarn4.json", 32768, 131072},   // YaRN x4 on an original 32768 (model card)
        {"llama_tiny.json", 1024, 2048},            // linear x2 on 1024
        {"qwen2.5_7b_instruct.json", 32768, 32768}, // no scaling; its sliding window is off
        {"deepseek_v3.json", 4096, 163840},         // YaRN x40 from 4096
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        const Scenario s = load_model_config(config_path(c.file)).scenario;
        // RoPE, or MLA (DeepSeek) whose rotary part the RoPE parameters hold.
        ASSERT_TRUE(rotary_params(s).has_value());
        ASSERT_EQ(*rotary_params(s), s.params<RopeParams>());
        EXPECT_EQ(s.params<RopeParams>().trained_length(), c.trained);
        EXPECT_EQ(rope_default_target_length(s.params<RopeParams>()), c.target);
        const RopePairsTable t = rope_pairs(s.params<RopeParams>());
        EXPECT_EQ(t.trained_length, c.trained);
        EXPECT_EQ(t.target_length, c.target);
    }
}
