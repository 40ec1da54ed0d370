// SPDX-License-Identifier: GPL-3.0-or-later
// GGUF metadata (llama.cpp model files): the header and the key-value section, never the tensor data, and
// their positional keys imported into a Scenario the way a Hugging Face config.json is (io/model_config.h).
//
// Format (ggml docs/gguf.md, "File Structure"; llama.cpp gguf-py/gguf/constants.py for key names), all
// little-endian: magic "GGUF", uint32 version (2 or 3 read; version 1 used 32-bit lengths), uint64
// tensor_count, uint64 metadata_kv_count, then per key-value: gguf_string key, uint32 value type, value.
// gguf_string = uint64 length + bytes (no terminator). Types: 0 UINT8, 1 INT8, 2 UINT16, 3 INT16,
// 4 UINT32, 5 INT32, 6 FLOAT32, 7 BOOL, 8 STRING, 9 ARRAY (uint32 element type, uint64 count, elements),
// 10 UINT64, 11 INT64, 12 FLOAT64.
#pragma once

#include "io/model_config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace posatlas {

struct GgufKeyValue {
    std::string key;
    std::uint32_t type = 0;         // the GGUF value type (0..12)
    nlohmann::json value;           // number, bool, string; an array of up to kGgufKeptArray scalars or
                                    // strings (an array of arrays keeps none)
    std::uint64_t array_length = 0; // ARRAY: its length (value holds the first elements only when longer)
};

struct GgufHeader {
    std::uint32_t version = 0;
    std::uint64_t tensor_count = 0;
    std::vector<GgufKeyValue> kv;

    const GgufKeyValue* find(const std::string& key) const;
};

// Arrays longer than this (tokenizer vocabularies) are skipped, their length kept.
inline constexpr std::uint64_t kGgufKeptArray = 64;
// Strings longer than this are skipped (kept as ""); no positional key is a long string.
inline constexpr std::uint64_t kGgufKeptString = std::uint64_t{1} << 16;
// Memory for the keys and values kept, in all: beyond it values are skipped (a string as "", an array
// empty) and keys refused, so no file makes the header cost more.
inline constexpr std::uint64_t kGgufKeptBytes = std::uint64_t{32} << 20;
// Most key-values read (real files have 20-50; the tokenizer's lists are single array values).
inline constexpr std::uint64_t kGgufMaxKeyValues = std::uint64_t{1} << 16;
// Most values read in one header: key-values, and the elements of arrays of strings and of arrays (arrays
// of numbers are skipped in one seek, nested ones too). Bounds the work per header whatever the file size;
// the largest tokenizers (vocabulary and merges) have about 10^6.
inline constexpr std::uint64_t kGgufMaxValues = std::uint64_t{1} << 22;

// Reads the header and every key-value of the GGUF file at `path`, by ranges. Nothing the file says is
// allocated before it is checked against the bytes that remain: counts and string/array lengths larger
// than the rest of the file are refused. Bad magic, big-endian files, versions other than 2 and 3,
// unknown value types, arrays nested deeper than 4, more than kGgufMaxValues values, truncation:
// ConfigError "PATH: reason (at byte N)".
GgufHeader read_gguf_header(const std::string& path);

// The positional keys of `header` as a Scenario, through import_model_config() on the equivalent
// config.json: general.architecture gives {arch} and the model type (llama.cpp arch names mapped to HF
// model types: gptneox -> gpt_neox, phi2 -> phi, qwen2moe -> qwen2_moe, deepseek2 -> deepseek_v2, ...),
//   {arch}.context_length -> max_position_embeddings (n_positions for gptj, max_seq_len for mpt)
//   {arch}.embedding_length -> hidden_size, .attention.head_count -> num_attention_heads,
//   .attention.key_length -> head_dim, .rope.freq_base -> rope_theta,
//   .rope.dimension_count -> the rotary part (partial_rotary_factor = dims / head_dim; rotary_dim for gptj,
//        rotary_pct for gpt_neox, qk_rope_head_dim for deepseek2),
//   .rope.scaling.type (none | linear | yarn | longrope) and .rope.scale_linear -> rope_scaling,
//   .rope.scaling.factor, .original_context_length, .yarn_beta_fast, .yarn_beta_slow -> rope_scaling,
//   .attention.max_alibi_bias -> attn_config.alibi_bias_max (mpt), .attention.relative_buckets_count ->
//        relative_attention_num_buckets (t5).
//   .block_count -> num_hidden_layers, .attention.sliding_window -> sliding_window (not for llama4, whose
//        chunk size llama.cpp fixes), .attention.sliding_window_pattern -> sliding_window_pattern (a period)
//        or layer_types (one bool per layer, true = sliding), .rope.freq_base_swa -> rope_local_base_freq.
// The report (read / ignored / unknown keys) names GGUF keys. llama.cpp-only YaRN knobs (yarn_ext_factor,
// yarn_attn_factor, yarn_log_multiplier, attn_factor) are reported as ignored, with a note.
ConfigImport import_gguf_config(const GgufHeader& header, const Scenario& base = {});

// read_gguf_header + import_gguf_config; every error names the path. load_model_config() calls this for
// a path ending in ".gguf".
ConfigImport load_gguf_config(const std::string& path, const Scenario& base = {});

} // namespace posatlas
