// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the Hugging Face config.json import (core/io/model_config.h).
// Expected values are the ones the model's own code derives from the same config: the defaults of the HF
// configuration classes (transformers src/transformers/models/<family>/configuration_<family>.py) and the
// rules of modeling_rope_utils.py, worked out by hand in the comments. Integer and exact-binary quantities
// are compared exactly; derived ratios with EXPECT_DOUBLE_EQ (4 ulp).
#include "io/model_config.h"
#include "methods/mla/mla.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace posatlas;
using nlohmann::json;

namespace {

ConfigImport imp(const std::string& text, const Scenario& base = {})
{
    return import_model_config(json::parse(text), base);
}

bool has(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

bool any_contains(const std::vector<std::string>& list, const std::string& part)
{
    return std::any_of(list.begin(), list.end(),
                       [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

std::string list_of(double v, int n)
{
    std::string s = "[";
    for (int i = 0; i < n; ++i) {
        if (i)
            s += ',';
        s += std::to_string(v);
    }
    return s + "]";
}

struct Case {
    const char* name;
    std::string config;
    Method method;
    std::function<void(const ConfigImport&)> check;
};

// One row per read rule. Every successful import must also pass validate().
std::vector<Case> cases()
{
    return {
        {"llama_head_dim_from_hidden", R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,
          "max_position_embeddings":4096,"rope_theta":10000.0})",
         Method::RoPE,
         [](const ConfigImport& c) {
             // head_dim = 4096 // 32 = 128 (LlamaConfig.__post_init__).
             EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 128);
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_theta, 10000.0);
             EXPECT_EQ(c.scenario.params<RopeParams>().max_position_embeddings, 4096);
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Default);
             EXPECT_EQ(c.scenario.params<RopeParams>().pairing, RopePairing::Half);
             EXPECT_EQ(c.model_type, "llama");
             EXPECT_TRUE(has(c.notes, "head_dim = hidden_size / num_attention_heads = 4096 / 32 = 128"));
             EXPECT_TRUE(has(c.read_keys, "rope_theta"));
         }},
        {"llama_defaults_when_missing", R"({"model_type":"llama"})", Method::RoPE,
         [](const ConfigImport& c) {
             // LlamaConfig: hidden_size 4096, num_attention_heads 32, max_position_embeddings 2048, theta
             // 1e4.
             EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 128);
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_theta, 10000.0);
             EXPECT_EQ(c.scenario.params<RopeParams>().max_position_embeddings, 2048);
             EXPECT_TRUE(any_contains(c.notes, "LlamaConfig default"));
         }},
        {"explicit_head_dim_wins", R"({"model_type":"qwen3","hidden_size":2560,"num_attention_heads":32,
          "head_dim":128,"rope_theta":1000000})",
         Method::RoPE,
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 128); }},
        {"mistral_default_max_positions",
         R"({"model_type":"mistral","hidden_size":4096,"num_attention_heads":32})", Method::RoPE,
         // MistralConfig: max_position_embeddings = 4096 * 32.
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().max_position_embeddings, 131072);
         }},
        {"linear_scaling", R"({"model_type":"llama","rope_scaling":{"type":"linear","factor":4.0}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Linear);
             EXPECT_EQ(c.scenario.params<RopeParams>().factor, 4.0);
             EXPECT_TRUE(has(c.read_keys, "rope_scaling.factor"));
             EXPECT_TRUE(has(c.read_keys, "rope_scaling.type"));
         }},
        {"dynamic_scaling", R"({"model_type":"llama","rope_scaling":{"rope_type":"dynamic","factor":2}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Dynamic);
             EXPECT_EQ(c.scenario.params<RopeParams>().factor, 2.0);
         }},
        {"legacy_su_is_longrope",
         R"({"model_type":"phi3","hidden_size":3072,"num_attention_heads":32,
          "max_position_embeddings":131072,"original_max_position_embeddings":4096,
          "rope_scaling":{"type":"su","short_factor":)" +
             list_of(1.0, 48) + R"(,"long_factor":)" + list_of(2.0, 48) + "}}",
         Method::RoPE,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.rope_type, RopeType::LongRope);
             // _compute_longrope_parameters: factor = 131072 / 4096 = 32 (exact in binary).
             EXPECT_EQ(r.factor, 32.0);
             EXPECT_EQ(r.original_max_position_embeddings, 4096);
             EXPECT_EQ(r.head_dim, 96);
             EXPECT_EQ(r.short_factor.size(), 48u);
             EXPECT_EQ(r.long_factor.size(), 48u);
             EXPECT_EQ(r.long_factor[0], 2.0);
             EXPECT_TRUE(any_contains(c.notes, "'su' read as longrope"));
             EXPECT_TRUE(has(c.read_keys, "original_max_position_embeddings"));
         }},
        {"phi3_yarn_is_longrope",
         R"({"model_type":"phi3","max_position_embeddings":8192,
          "rope_scaling":{"type":"yarn","short_factor":)" +
             list_of(1.0, 48) + R"(,"long_factor":)" + list_of(1.5, 48) + "}}",
         Method::RoPE,
         [](const ConfigImport& c) {
             // Phi3Config maps 'yarn' to longrope; original defaults to Phi3Config's 4096: factor 8192/4096
             // = 2.
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::LongRope);
             EXPECT_EQ(c.scenario.params<RopeParams>().factor, 2.0);
             EXPECT_EQ(c.scenario.params<RopeParams>().original_max_position_embeddings, 4096);
         }},
        {"phi3_top_level_original_wins",
         R"({"model_type":"phi3","max_position_embeddings":131072,
          "original_max_position_embeddings":4096,"rope_scaling":{"rope_type":"longrope",
          "original_max_position_embeddings":8192,"factor":99,"short_factor":)" +
             list_of(1.0, 48) + R"(,"long_factor":)" + list_of(1.0, 48) + "}}",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().original_max_position_embeddings, 4096);
             EXPECT_EQ(c.scenario.params<RopeParams>().factor, 32.0);
             EXPECT_TRUE(any_contains(c.notes, "wins over"));
         }},
        {"mrope_is_multimodal_rope", R"({"model_type":"qwen2","hidden_size":3584,"num_attention_heads":28,
          "rope_theta":1000000.0,"rope_scaling":{"type":"mrope","mrope_section":[16,24,24]}})",
         Method{"mrope"}, // multimodal RoPE (test_model_config_mrope.cpp)
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Default);
             EXPECT_TRUE(has(c.read_keys, "rope_scaling.mrope_section")); // not ignored: ..._mrope.cpp
             EXPECT_TRUE(any_contains(c.notes, "'mrope' read as default"));
         }},
        {"rope_parameters_flat", R"({"model_type":"llama","hidden_size":2048,"num_attention_heads":32,
          "max_position_embeddings":131072,"rope_parameters":{"rope_type":"llama3","rope_theta":500000.0,
          "factor":32.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.rope_type, RopeType::Llama3);
             EXPECT_EQ(r.rope_theta, 500000.0);
             EXPECT_EQ(r.head_dim, 64);
             EXPECT_EQ(r.factor, 32.0);
             EXPECT_EQ(r.original_max_position_embeddings, 8192);
             EXPECT_EQ(r.low_freq_factor, 1.0);
             EXPECT_EQ(r.high_freq_factor, 4.0);
             EXPECT_TRUE(has(c.read_keys, "rope_parameters.rope_theta"));
         }},
        {"rope_parameters_per_layer", R"({"model_type":"gpt_oss","hidden_size":2880,"num_attention_heads":64,
          "head_dim":64,"max_position_embeddings":131072,"rope_parameters":{
          "full_attention":{"rope_type":"yarn","rope_theta":150000.0,"factor":32.0,"beta_fast":32.0,"beta_slow":1.0,
                            "truncate":false,"original_max_position_embeddings":4096},
          "sliding_attention":{"rope_type":"default","rope_theta":10000.0}}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.rope_type, RopeType::Yarn);
             EXPECT_EQ(r.rope_theta, 150000.0);
             EXPECT_FALSE(r.truncate);
             EXPECT_TRUE(has(c.ignored_keys, "rope_parameters.sliding_attention"));
             EXPECT_TRUE(has(c.read_keys, "rope_parameters.full_attention.factor"));
             EXPECT_TRUE(any_contains(c.notes, "'full_attention' is shown"));
         }},
        {"gpt_oss_default_scaling", R"({"model_type":"gpt_oss"})", Method::RoPE,
         [](const ConfigImport& c) {
             // GptOssConfig: head_dim 64, theta 150000, default yarn dict (configuration_gpt_oss.py).
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.head_dim, 64);
             EXPECT_EQ(r.rope_theta, 150000.0);
             EXPECT_EQ(r.rope_type, RopeType::Yarn);
             EXPECT_EQ(r.factor, 32.0);
             EXPECT_EQ(r.original_max_position_embeddings, 4096);
             EXPECT_FALSE(r.truncate);
             EXPECT_FALSE(has(c.read_keys, "rope_scaling.factor")); // not from the file
         }},
        {"yarn_without_original_uses_max_positions", R"({"model_type":"qwen2","max_position_embeddings":32768,
          "rope_scaling":{"type":"yarn","factor":4.0}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.rope_type, RopeType::Yarn);
             EXPECT_EQ(r.original_max_position_embeddings, 32768);
             EXPECT_EQ(r.beta_fast, 32.0);
             EXPECT_EQ(r.beta_slow, 1.0);
             EXPECT_TRUE(r.truncate);
             EXPECT_FALSE(r.mscale.has_value());
         }},
        {"gpt_neox_rotary_pct", R"({"model_type":"gpt_neox","hidden_size":6144,"num_attention_heads":64,
          "rotary_pct":0.25,"rotary_emb_base":10000})",
         Method::RoPE,
         [](const ConfigImport& c) {
             // head_dim 6144 / 64 = 96, rotary_ndims = int(96 * 0.25) = 24.
             EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 96);
             EXPECT_EQ(c.scenario.params<RopeParams>().partial_rotary_factor, 0.25);
             EXPECT_EQ(c.scenario.params<RopeParams>().rotary_dim(), 24);
             EXPECT_TRUE(has(c.read_keys, "rotary_pct"));
             EXPECT_TRUE(has(c.read_keys, "rotary_emb_base"));
         }},
        {"gpt_neox_defaults", R"({"model_type":"gpt_neox","hidden_size":2048,"num_attention_heads":16,
          "rotary_emb_base":500000})",
         Method::RoPE,
         [](const ConfigImport& c) {
             // GPTNeoXConfig: rotary_pct default 0.25; rotary_emb_base is the base.
             EXPECT_EQ(c.scenario.params<RopeParams>().partial_rotary_factor, 0.25);
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_theta, 500000.0);
             EXPECT_EQ(c.scenario.params<RopeParams>().rotary_dim(), 32);
         }},
        {"partial_rotary_factor", R"({"model_type":"phi","hidden_size":2560,"num_attention_heads":32,
          "partial_rotary_factor":0.4})",
         Method::RoPE,
         // head_dim 80, rotary_dim = int(80 * 0.4) = 32.
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<RopeParams>().rotary_dim(), 32); }},
        {"deepseek_qk_rope_head_dim",
         R"({"model_type":"deepseek_v2","hidden_size":2048,"num_attention_heads":16,
          "qk_nope_head_dim":128,"qk_rope_head_dim":64,"max_position_embeddings":163840,
          "rope_scaling":{"type":"yarn","factor":40,"original_max_position_embeddings":4096,"beta_fast":32,
          "beta_slow":1,"mscale":0.707,"mscale_all_dim":0.707}})",
         kMLA,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.head_dim, 64);
             EXPECT_EQ(r.pairing, RopePairing::Interleaved);
             EXPECT_EQ(r.factor, 40.0);
             ASSERT_TRUE(r.mscale.has_value());
             EXPECT_EQ(*r.mscale, 0.707);
             ASSERT_TRUE(r.mscale_all_dim.has_value());
             EXPECT_EQ(*r.mscale_all_dim, 0.707);
             EXPECT_TRUE(has(c.read_keys, "qk_rope_head_dim"));
             EXPECT_TRUE(has(c.read_keys, "qk_nope_head_dim"));
         }},
        {"gptj_rotary_dim_interleaved", R"({"model_type":"gptj","n_embd":4096,"n_head":16,"rotary_dim":64,
          "n_positions":2048})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 256);
             EXPECT_EQ(c.scenario.params<RopeParams>().rotary_dim(), 64);
             EXPECT_EQ(c.scenario.params<RopeParams>().pairing, RopePairing::Interleaved);
             EXPECT_EQ(c.scenario.params<RopeParams>().max_position_embeddings, 2048);
         }},
        {"gptj_rotary_dim_not_exact_in_double",
         R"({"model_type":"gptj","n_embd":440,"n_head":10,"rotary_dim":30})", Method::RoPE,
         // head_dim 44: in double, 44 * (30 / 44) = 29.999... (python3: int(44 * (30 / 44)) == 29), yet
         // int(head_dim * factor) must give GPT-J's rotary_dim 30.
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<RopeParams>().rotary_dim(), 30); }},
        {"falcon_rope",
         R"({"model_type":"falcon","hidden_size":4544,"num_attention_heads":71,"alibi":false})", Method::RoPE,
         // 4544 / 71 = 64 (FalconConfig.head_dim).
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 64); }},
        {"falcon_alibi", R"({"model_type":"falcon","hidden_size":8192,"n_head":128,"alibi":true})",
         Method::ALiBi,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<AlibiParams>().num_heads, 128);
             EXPECT_TRUE(has(c.read_keys, "alibi"));
         }},
        {"bloom_heads", R"({"model_type":"bloom","hidden_size":1024,"n_head":16})", Method::ALiBi,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<AlibiParams>().num_heads, 16);
             EXPECT_EQ(c.scenario.params<AlibiParams>().bias, AlibiBias::Causal);
         }},
        {"bloom_default_heads", R"({"model_type":"bloom"})", Method::ALiBi,
         // BloomConfig: n_head = 8.
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<AlibiParams>().num_heads, 8); }},
        {"mpt_alibi", R"({"model_type":"mpt","d_model":4096,"n_heads":32,"max_seq_len":2048,
          "attn_config":{"alibi":true,"alibi_bias_max":8,"prefix_lm":false}})",
         Method::ALiBi,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<AlibiParams>().num_heads, 32);
             EXPECT_EQ(c.scenario.params<AlibiParams>().trained_length, 2048);
             EXPECT_EQ(c.scenario.params<AlibiParams>().bias, AlibiBias::Causal);
             EXPECT_TRUE(has(c.read_keys, "attn_config.alibi"));
         }},
        {"mpt_default_alibi", R"({"model_type":"mpt"})", Method::ALiBi,
         // MptAttentionConfig: alibi = True; MptConfig: n_heads = 16.
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<AlibiParams>().num_heads, 16); }},
        {"mpt_prefix_lm_symmetric", R"({"model_type":"mpt","n_heads":8,"attn_config":{"prefix_lm":true}})",
         Method::ALiBi,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<AlibiParams>().bias, AlibiBias::Symmetric);
         }},
        {"mpt_without_alibi_is_learned", R"({"model_type":"mpt","d_model":1024,"max_seq_len":4096,
          "attn_config":{"alibi":false}})",
         Method::Learned,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<LearnedParams>().dim, 1024);
             EXPECT_EQ(c.scenario.params<LearnedParams>().trained_length, 4096);
         }},
        {"t5_fields", R"({"model_type":"t5","num_heads":12,"relative_attention_num_buckets":64,
          "relative_attention_max_distance":256})",
         Method::T5,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<T5Params>().num_buckets, 64);
             EXPECT_EQ(c.scenario.params<T5Params>().max_distance, 256);
             EXPECT_EQ(c.scenario.params<T5Params>().num_heads, 12);
             EXPECT_TRUE(c.scenario.params<T5Params>().bidirectional);
         }},
        {"t5_defaults", R"({"model_type":"t5"})", Method::T5,
         [](const ConfigImport& c) {
             // T5Config: 32 buckets, max distance 128, 8 heads.
             EXPECT_EQ(c.scenario.params<T5Params>().num_buckets, 32);
             EXPECT_EQ(c.scenario.params<T5Params>().max_distance, 128);
             EXPECT_EQ(c.scenario.params<T5Params>().num_heads, 8);
         }},
        {"deberta_v3_fields", R"({"model_type":"deberta-v2","hidden_size":768,"num_attention_heads":12,
          "max_position_embeddings":512,"relative_attention":true,"position_buckets":256,
          "max_relative_positions":-1,"pos_att_type":"p2c|c2p","position_biased_input":false})",
         Method::DeBERTa,
         [](const ConfigImport& c) {
             const auto& d = c.scenario.params<DebertaParams>();
             EXPECT_EQ(d.head_dim, 64);
             EXPECT_EQ(d.position_buckets, 256);
             EXPECT_EQ(d.max_relative_positions, 512); // -1 -> max_position_embeddings
             EXPECT_TRUE(d.c2p);
             EXPECT_TRUE(d.p2c);
         }},
        {"deberta_list_pos_att_type_and_defaults", R"({"model_type":"deberta-v2","relative_attention":true,
          "pos_att_type":["c2p"]})",
         Method::DeBERTa,
         [](const ConfigImport& c) {
             const auto& d = c.scenario.params<DebertaParams>();
             // DebertaV2Config: hidden 1536 / 24 heads = 64; position_buckets -1; max_relative 512.
             EXPECT_EQ(d.head_dim, 64);
             EXPECT_EQ(d.position_buckets, -1);
             EXPECT_EQ(d.max_relative_positions, 512);
             EXPECT_TRUE(d.c2p);
             EXPECT_FALSE(d.p2c);
         }},
        {"deberta_without_relative_attention", R"({"model_type":"deberta-v2","hidden_size":768,
          "max_position_embeddings":512})",
         Method::Learned,
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<LearnedParams>().dim, 768); }},
        {"bert_learned", R"({"model_type":"bert","hidden_size":768,"max_position_embeddings":512,
          "initializer_range":0.02,"position_embedding_type":"absolute"})",
         Method::Learned,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<LearnedParams>().dim, 768);
             EXPECT_EQ(c.scenario.params<LearnedParams>().trained_length, 512);
             EXPECT_EQ(c.scenario.params<LearnedParams>().stddev, 0.02);
         }},
        {"gpt2_learned", R"({"model_type":"gpt2","n_embd":1600,"n_positions":1024,"initializer_range":0.01})",
         Method::Learned,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<LearnedParams>().dim, 1600);
             EXPECT_EQ(c.scenario.params<LearnedParams>().trained_length, 1024);
             EXPECT_EQ(c.scenario.params<LearnedParams>().stddev, 0.01);
         }},
        {"transformer_sinusoidal", R"({"model_type":"transformer","d_model":512})", Method::Sinusoidal,
         [](const ConfigImport& c) { EXPECT_EQ(c.scenario.params<SinusoidalParams>().dim, 512); }},
        {"unknown_type_with_rope_keys",
         R"({"model_type":"my_new_model","hidden_size":1024,"num_attention_heads":8,
          "rope_theta":50000,"weird_key":1})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 128);
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_theta, 50000.0);
             EXPECT_TRUE(any_contains(c.notes, "RoPE is assumed"));
             EXPECT_TRUE(has(c.unknown_keys, "weird_key"));
         }},
        {"unknown_keys_and_metadata", R"({"model_type":"llama","foo":1,"bar":{"baz":2},"vocab_size":32000,
          "_posatlas_name":"x","sliding_window":4096})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_TRUE(has(c.unknown_keys, "foo"));
             EXPECT_TRUE(has(c.unknown_keys, "bar"));
             EXPECT_FALSE(has(c.unknown_keys, "vocab_size"));     // known, not positional
             EXPECT_FALSE(has(c.unknown_keys, "_posatlas_name")); // metadata
             EXPECT_TRUE(has(c.ignored_keys, "sliding_window"));
             EXPECT_FALSE(has(c.unknown_keys, "sliding_window"));
         }},
        {"nulls_are_absent",
         R"({"model_type":"llama","rope_scaling":null,"head_dim":null,"rope_theta":null})", Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Default);
             EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 128);
             EXPECT_EQ(c.scenario.params<RopeParams>().rope_theta, 10000.0);
         }},
        // DeepSeek-V3 (reduced): softmax scale x yarn_get_mscale(40, 1)^2 (DeepseekV3Attention.__init__).
        {"deepseek_v3_softmax_mscale",
         R"({"model_type":"deepseek_v3","hidden_size":7168,"num_attention_heads":128,"qk_nope_head_dim":128,
          "qk_rope_head_dim":64,"max_position_embeddings":163840,"rope_theta":10000,
          "rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":40,"mscale":1.0,"mscale_all_dim":1.0,
          "original_max_position_embeddings":4096,"type":"yarn"}})",
         kMLA,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_TRUE(r.softmax_mscale);
             const RopeFrequencies f = compute_rope_frequencies(r);
             EXPECT_EQ(f.attention_factor, 1.0);
             const double m = 0.1 * std::log(40.0) + 1.0; // yarn_get_mscale(40, 1)
             EXPECT_NEAR(f.logit_multiplier(), m * m, 1e-14 * m * m);
             EXPECT_TRUE(any_contains(c.notes, "softmax scale"));
         }},
        {"deepseek_v3_mscale_all_dim_zero",
         R"({"model_type":"deepseek_v3","qk_rope_head_dim":64,"max_position_embeddings":163840,
          "rope_scaling":{"factor":40,"mscale":1.0,"mscale_all_dim":0,"original_max_position_embeddings":4096,
          "type":"yarn"}})",
         kMLA,
         // HF: "if mscale_all_dim:" is false for 0 -> no softmax multiplier.
         [](const ConfigImport& c) { EXPECT_FALSE(c.scenario.params<RopeParams>().softmax_mscale); }},
        // Gemma 3 4B/12B/27B: pre-trained at 32768, rescaled by linear 8 to 131072 (arXiv:2503.19786).
        {"gemma3_text_linear8_trained_32768",
         R"({"model_type":"gemma3_text","head_dim":256,"hidden_size":3840,"num_attention_heads":16,
          "max_position_embeddings":131072,"rope_theta":1000000.0,"rope_scaling":{"factor":8.0,"rope_type":"linear"}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().trained_length(), 32768);
             EXPECT_TRUE(any_contains(c.notes, "Gemma 3"));
             EXPECT_FALSE(any_contains(c.notes, "not known to PosAtlas"));
         }},
        // The Hub's multimodal config (google/gemma-3-12b-it, reduced): the text keys sit in text_config and
        // omit head_dim, rope_theta and max_position_embeddings (Gemma3TextConfig: 256, 1e6, 131072).
        {"gemma3_multimodal_text_config",
         R"({"architectures":["Gemma3ForConditionalGeneration"],"model_type":"gemma3",
          "text_config":{"hidden_size":3840,"model_type":"gemma3_text","num_attention_heads":16,
          "rope_scaling":{"factor":8.0,"rope_type":"linear"},"sliding_window":1024}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             const auto& r = c.scenario.params<RopeParams>();
             EXPECT_EQ(r.head_dim, 256);
             EXPECT_EQ(r.rope_theta, 1e6);
             EXPECT_EQ(r.max_position_embeddings, 131072);
             EXPECT_EQ(r.rope_type, RopeType::Linear);
             EXPECT_EQ(r.factor, 8.0);
             EXPECT_EQ(r.trained_length(), 32768);
             EXPECT_TRUE(any_contains(c.notes, "text_config"));
         }},
        {"linear_without_original_is_ambiguous",
         R"({"model_type":"llama","max_position_embeddings":8192,"rope_scaling":{"type":"linear","factor":4}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().trained_length(), 8192);
             EXPECT_TRUE(any_contains(c.notes, "ambiguous trained length"));
             EXPECT_FALSE(has(c.ignored_keys, "rope_scaling.original_max_position_embeddings"));
         }},
        {"linear_with_original_is_not",
         R"({"model_type":"llama","max_position_embeddings":8192,
          "rope_scaling":{"type":"linear","factor":4,"original_max_position_embeddings":2048}})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().trained_length(), 2048);
             EXPECT_FALSE(any_contains(c.notes, "ambiguous"));
             EXPECT_TRUE(has(c.read_keys, "rope_scaling.original_max_position_embeddings"));
         }},
        // Qwen2.5-7B-Instruct (reduced): Qwen2Config keeps sliding_window only if use_sliding_window.
        {"qwen25_sliding_window_off",
         R"({"model_type":"qwen2","hidden_size":3584,"num_attention_heads":28,"max_position_embeddings":32768,
          "max_window_layers":28,"rope_theta":1000000.0,"sliding_window":131072,"use_sliding_window":false})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_FALSE(any_contains(c.notes, "sliding_window is not modelled"));
             for (const char* k : {"sliding_window", "use_sliding_window", "max_window_layers"}) {
                 EXPECT_FALSE(has(c.ignored_keys, k)) << k;
                 EXPECT_FALSE(has(c.unknown_keys, k)) << k;
             }
             EXPECT_TRUE(any_contains(c.notes, "use_sliding_window is false"));
         }},
        {"qwen2_sliding_window_on",
         R"({"model_type":"qwen2","sliding_window":4096,"use_sliding_window":true})", Method::RoPE,
         [](const ConfigImport& c) {
             ASSERT_EQ(c.layers.size(), 32u); // Qwen2Config: sliding from max_window_layers = 28 on
             EXPECT_EQ(c.layers[28].attention, LayerAttention::Sliding);
         }},
        {"integral_float_accepted", R"({"model_type":"llama","max_position_embeddings":4096.0})",
         Method::RoPE,
         [](const ConfigImport& c) {
             EXPECT_EQ(c.scenario.params<RopeParams>().max_position_embeddings, 4096);
         }},
    };
}

} // namespace

TEST(ModelConfig, ReadRules)
{
    for (const auto& tc : cases()) {
        SCOPED_TRACE(tc.name);
        ConfigImport c;
        ASSERT_NO_THROW(c = imp(tc.config)) << tc.name;
        EXPECT_EQ(c.scenario.method, tc.method);
        tc.check(c);
        EXPECT_NO_THROW(validate(c.scenario));
    }
}

TEST(ModelConfig, ModelStartsFromItsOwnDefaultsNotFromBase)
{
    // The base is whatever the user looked at before: a DeepSeek-style YaRN setup and edited ALiBi/T5.
    Scenario base;
    base.method = Method::ALiBi;
    base.seq_len = 777;
    base.content.kind = ContentKind::Random;
    base.params<T5Params>().num_buckets = 64;
    base.params<AlibiParams>().num_heads = 5;
    base.params<RopeParams>().rope_type = RopeType::Yarn;
    base.params<RopeParams>().factor = 40.0;
    base.params<RopeParams>().mscale = 0.707;
    base.params<RopeParams>().original_max_position_embeddings = 4096;
    base.params<RopeParams>().long_factor = std::vector<double>(48, 2.0);
    const auto c = imp(R"({"model_type":"llama","max_position_embeddings":131072})", base);
    EXPECT_EQ(c.scenario.method, Method::RoPE);
    // The viewer's choices stay.
    EXPECT_EQ(c.scenario.seq_len, 777);
    EXPECT_EQ(c.scenario.content.kind, ContentKind::Random);
    // Nothing of the previous model does: LlamaConfig's defaults for every key the config omits.
    EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Default);
    EXPECT_EQ(c.scenario.params<RopeParams>().factor, 1.0);
    EXPECT_FALSE(c.scenario.params<RopeParams>().mscale.has_value());
    EXPECT_EQ(c.scenario.params<RopeParams>().original_max_position_embeddings, 0);
    EXPECT_TRUE(c.scenario.params<RopeParams>().long_factor.empty());
    EXPECT_EQ(c.scenario.params<RopeParams>().trained_length(), 131072);
    // Other methods' parameters are the defaults too, so a later method switch shows no stale values.
    EXPECT_EQ(c.scenario.params<T5Params>().num_buckets, T5Params{}.num_buckets);
    EXPECT_EQ(c.scenario.params<AlibiParams>().num_heads, AlibiParams{}.num_heads);
}

TEST(ModelConfig, HeadIsClampedToTheModelsHeads)
{
    Scenario base;
    base.head = 20;
    const auto c = imp(R"({"model_type":"bloom","n_head":16})", base);
    EXPECT_EQ(c.scenario.head, 0);
    EXPECT_NO_THROW(validate(c.scenario));
}

struct ErrorCase {
    const char* config;
    const char* key_in_message;
};

TEST(ModelConfig, WrongTypesNameTheKey)
{
    const ErrorCase errors[] = {
        {R"({"model_type":"llama","rope_theta":"abc"})", "rope_theta"},
        {R"({"model_type":"llama","hidden_size":"big"})", "hidden_size"},
        {R"({"model_type":"llama","num_attention_heads":0})", "num_attention_heads"},
        {R"({"model_type":"llama","max_position_embeddings":1.5})", "max_position_embeddings"},
        {R"({"model_type":"llama","rope_scaling":5})", "rope_scaling"},
        {R"({"model_type":"llama","rope_scaling":{"type":"linear","factor":"x"}})", "rope_scaling.factor"},
        {R"({"model_type":"llama","rope_scaling":{"type":"linear"}})", "rope_scaling.factor"},
        {R"({"model_type":"llama","rope_scaling":{"type":7}})", "rope_scaling.type"},
        {R"({"model_type":"llama","rope_scaling":{"rope_type":"foo","factor":2}})", "rope_scaling.rope_type"},
        {R"({"model_type":"llama","rope_scaling":{"type":"yarn","factor":4,"truncate":"no"}})",
         "rope_scaling.truncate"},
        {R"({"model_type":"phi3","rope_scaling":{"type":"su","short_factor":[1,1,1,"a"],"long_factor":[1]}})",
         "rope_scaling.short_factor[3]"},
        {R"({"model_type":"phi3","rope_scaling":{"type":"longrope","long_factor":[1]}})",
         "rope_scaling.short_factor"},
        {R"({"model_type":"gpt_neox","rotary_pct":"quarter"})", "rotary_pct"},
        {R"({"model_type":"deepseek_v2","qk_rope_head_dim":[64]})", "qk_rope_head_dim"},
        {R"({"model_type":"mpt","attn_config":{"alibi":"yes"}})", "attn_config.alibi"},
        {R"({"model_type":"mpt","attn_config":[1]})", "attn_config"},
        {R"({"model_type":"t5","relative_attention_num_buckets":"32"})", "relative_attention_num_buckets"},
        {R"({"model_type":"deberta-v2","relative_attention":true,"pos_att_type":5})", "pos_att_type"},
        {R"({"model_type":"deberta-v2","relative_attention":1})", "relative_attention"},
        {R"({"model_type":"bloom","n_head":1e30})", "n_head"},
        {R"({"model_type":7})", "model_type"},
        {R"({"model_type":"something","vocab_size":3})", "cannot tell which positional encoding"},
        {R"({})", "cannot tell which positional encoding"},
    };
    for (const auto& e : errors) {
        SCOPED_TRACE(e.config);
        try {
            imp(e.config);
            ADD_FAILURE() << "expected ConfigError";
        } catch (const ConfigError& err) {
            EXPECT_NE(std::string(err.what()).find(e.key_in_message), std::string::npos) << err.what();
        }
    }
}

TEST(ModelConfig, NonObjectConfigIsAnError)
{
    EXPECT_THROW(import_model_config(json::array({1, 2})), ConfigError);
    EXPECT_THROW(import_model_config(json("llama")), ConfigError);
    EXPECT_THROW(import_model_config(json()), ConfigError);
}

// Replaces each key of several configs with every kind of JSON value: the import either succeeds or
// throws ConfigError, never anything else (and never crashes).
TEST(ModelConfig, NeverCrashesOnAnyValue)
{
    const char* bases[] = {
        R"({"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"head_dim":128,"rope_theta":1e4,
            "max_position_embeddings":4096,"partial_rotary_factor":0.5,"original_max_position_embeddings":2048,
            "rope_scaling":{"type":"yarn","factor":4,"beta_fast":32,"mscale":1,"truncate":true}})",
        R"({"model_type":"phi3","rope_scaling":{"type":"longrope","short_factor":[1],"long_factor":[1],"factor":2}})",
        R"({"model_type":"gpt_oss","rope_parameters":{"full_attention":{"rope_type":"yarn","factor":2},
            "sliding_attention":{"rope_type":"default"}}})",
        R"({"model_type":"gptj","n_embd":4096,"n_head":16,"rotary_dim":64,"n_positions":2048})",
        R"({"model_type":"gpt_neox","rotary_pct":0.25,"rotary_emb_base":10000})",
        R"({"model_type":"deepseek_v2","qk_rope_head_dim":64})",
        R"({"model_type":"mpt","n_heads":8,"max_seq_len":2048,"attn_config":{"alibi":true,"prefix_lm":false}})",
        R"({"model_type":"falcon","alibi":true,"num_attention_heads":8})",
        R"({"model_type":"t5","num_heads":8,"relative_attention_num_buckets":32,"relative_attention_max_distance":128})",
        R"({"model_type":"deberta-v2","relative_attention":true,"position_buckets":256,"max_relative_positions":-1,
            "pos_att_type":["c2p"],"hidden_size":768,"num_attention_heads":12,"attention_head_size":64})",
        R"({"model_type":"gpt2","n_embd":768,"n_positions":1024,"initializer_range":0.02})",
        R"({"model_type":"transformer","d_model":512,"base":10000})",
    };
    const json values[] = {json(),         json(true),
                           json("s"),      json(-1),
                           json(0),        json(1e308),
                           json(-3.5),     json(std::uint64_t{18446744073709551615u}),
                           json::array(),  json::array({1, "x"}),
                           json::object(), json::object({{"rope_type", "yarn"}})};
    int ok = 0;
    int rejected = 0;
    for (const char* text : bases) {
        const json base = json::parse(text);
        std::vector<std::vector<std::string>> paths;
        for (auto it = base.begin(); it != base.end(); ++it) {
            paths.push_back({it.key()});
            if (it->is_object())
                for (auto jt = it->begin(); jt != it->end(); ++jt)
                    paths.push_back({it.key(), jt.key()});
        }
        for (const auto& path : paths) {
            for (const json& v : values) {
                json cfg = base;
                if (path.size() == 1)
                    cfg[path[0]] = v;
                else
                    cfg[path[0]][path[1]] = v;
                try {
                    const auto c = import_model_config(cfg);
                    (void)c;
                    ++ok;
                } catch (const ConfigError&) {
                    ++rejected;
                } catch (const std::exception& e) {
                    ADD_FAILURE() << "unexpected exception " << e.what() << " for " << cfg.dump();
                }
            }
        }
    }
    EXPECT_GT(ok, 0);
    EXPECT_GT(rejected, 0);
}

TEST(ModelConfig, LoadFromFile)
{
    const std::string dir = std::string(POSATLAS_TEST_DATA) + "/configs/";
    const auto c = load_model_config(dir + "llama_tiny.json");
    EXPECT_EQ(c.scenario.method, Method::RoPE);
    EXPECT_EQ(c.scenario.params<RopeParams>().head_dim, 64); // 256 / 4
    EXPECT_EQ(c.scenario.params<RopeParams>().rope_type, RopeType::Linear);
    EXPECT_EQ(c.scenario.params<RopeParams>().factor, 2.0);
    EXPECT_TRUE(has(c.unknown_keys, "some_future_key"));
    EXPECT_NO_THROW(validate(c.scenario));
}

TEST(ModelConfig, LoadErrorsNamePathAndReason)
{
    const std::string dir = std::string(POSATLAS_TEST_DATA) + "/configs/";
    const struct {
        std::string path;
        const char* reason;
    } errors[] = {
        {dir + "does_not_exist.json", "cannot open"},
        {dir + "malformed.json",
         "not valid JSON at byte 75, line 4, column 25: near key 'rope_theta': unexpected ','"},
        {dir + "not_an_object.json", "JSON object"},
    };
    for (const auto& e : errors) {
        SCOPED_TRACE(e.path);
        try {
            load_model_config(e.path);
            ADD_FAILURE() << "expected ConfigError";
        } catch (const ConfigError& err) {
            const std::string msg = err.what();
            EXPECT_NE(msg.find(e.path), std::string::npos) << msg;
            EXPECT_NE(msg.find(e.reason), std::string::npos) << msg;
        }
    }
}
