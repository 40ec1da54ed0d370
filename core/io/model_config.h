// SPDX-License-Identifier: GPL-3.0-or-later
// Import of a Hugging Face model config.json into a Scenario: which positional encoding the model uses
// and with which parameters, read the way the model's own code reads them.
//
// References (the rules below follow these files of huggingface/transformers):
//   modeling_rope_utils.py        _compute_{default,linear,dynamic_ntk,yarn,longrope,llama3}_parameters,
//                                 RotaryEmbeddingConfigMixin.standardize_rope_params (rope_parameters, v5)
//   models/<family>/configuration_<family>.py   the default of every key that a config.json omits
//   models/gptj/modeling_gptj.py  rotary_dim, interleaved pairs (rotate_every_two)
//   models/deepseek_v2/modeling_deepseek_v2.py  rotary part of MLA = qk_rope_head_dim, interleaved pairs
//   models/deberta_v2/modeling_deberta_v2.py    position_buckets (-1), max_relative_positions < 1 ->
//   max_position_embeddings models/t5/modeling_t5.py      T5Attention._relative_position_bucket
//   models/bloom/modeling_bloom.py, mosaicml mpt modeling_mpt.py, models/falcon/modeling_falcon.py (ALiBi)
#pragma once

#include "io/input_file.h"
#include "io/model_layers.h"
#include "scenario/params.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace posatlas {

struct ConfigImport {
    // The method the model uses and its parameters. Every parameter the config does not set takes the
    // default of the model's own code, never a value of `base`: loading a model after another gives
    // the same scenario as loading it alone. From `base` only the viewer's choices are kept: seq_len,
    // content and head (clamped to the model's heads).
    Scenario scenario;
    std::string model_type; // e.g. "llama"; "" when the config has none
    std::vector<std::string>
        read_keys; // keys used, dotted: "rope_theta", "rope_scaling.factor", "attn_config.alibi"
    std::vector<std::string> ignored_keys; // present, describe positions, not modelled ("sliding_window",
                                           // "rope_scaling.mrope_section")
    std::vector<std::string> unknown_keys; // top-level keys not recognised at all (report only)
    std::vector<std::string> notes;        // sentences: derived values, defaults taken, legacy names read
    // Per decoder layer: attention span and positional encoding (io/model_layers.h), read by
    // model_config_layers.cpp from layer_types, sliding_window, attention_chunk_size, no_rope_layers, ...
    // Empty for a method other than RoPE.
    std::vector<LayerAnatomy> layers;
};

// A config that cannot be read: malformed or absent file, wrong JSON type of a key (the message names the
// key, dotted), a rope type that is not modelled, or no positional information at all.
class ConfigError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// Largest config.json read (real ones are a few kB; Phi-3's factor lists make the largest ~10 kB).
inline constexpr std::int64_t kMaxConfigBytes = std::int64_t{16} << 20;

// Reads `config` (the parsed config.json). Decides the method from model_type and the keys present:
//   RoPE   llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, phi, phi3, deepseek_v2, deepseek_v3,
//          gpt_oss, gpt_neox, gptj, falcon (alibi false), gemma3_text and gemma3 (its text_config read as
//          the text model's keys), and any unknown model_type with rope keys;
//   ALiBi  bloom, mpt (attn_config.alibi, default true), falcon (alibi true);
//   T5     t5, mt5 (relative buckets); DeBERTa: deberta-v2, deberta (relative_attention true);
//   Learned bert, roberta, gpt2, ... (max_position_embeddings / n_positions, hidden_size / n_embd,
//          initializer_range); Sinusoidal: "transformer" (PosAtlas' own name for Vaswani et al. 2017,
//          keys d_model and optional base, since that model has no HF config).
// Keys the config omits take the default of the model's HF configuration class. RoPE details:
//   head_dim = head_dim key, else hidden_size // num_attention_heads (DeepSeek: qk_rope_head_dim);
//   rotary fraction = partial_rotary_factor | rotary_pct (GPT-NeoX) | rotary_dim / head_dim (GPT-J);
//   scaling from rope_scaling, else rope_parameters (flat, or per layer type: full_attention is used);
//   rope type from rope_type, else type; "su" -> longrope, "mrope" -> default (Phi-3 also: "yarn" ->
//   longrope); yarn/llama3 without original_max_position_embeddings use max_position_embeddings; longrope
//   factor = max_position_embeddings / original_max_position_embeddings (top-level key first). Pairing:
//   rotate_half (RopePairing::Half) as in the HF ports, except GPT-J and DeepSeek (interleaved).
//   DeepSeek with a non-zero rope_scaling.mscale_all_dim: softmax_mscale (its attention multiplies the
//   softmax scale by get_mscale(factor, mscale_all_dim)^2). Linear / NTK without an original length:
//   Gemma 3's factor 8 gets its documented 32768, anything else a note that the trained length is assumed.
//   use_sliding_window false: sliding_window / max_window_layers are read (off), not "not modelled".
// Layers (model_config_layers.cpp, io/model_layers.h): layer_types, sliding_window, sliding_window_pattern,
//   attention_chunk_size, no_rope_layers, rope_local_base_freq, per-layer-type rope_parameters, Llama 4's
//   temperature keys and Qwen2's use_sliding_window / max_window_layers fill `layers` by each family's rule.
// Never calls validate(): the caller does. Throws ConfigError; never crashes on any JSON value.
ConfigImport import_model_config(const nlohmann::json& config, const Scenario& base = {});

// Parses the file at `path` and imports it. A path ending in .gguf is a llama.cpp model file: its metadata
// is imported by load_gguf_config() (io/gguf.h). Absent/unreadable file or malformed JSON -> ConfigError with
// the path and the reason (for JSON, the parser's message with its byte position).
ConfigImport load_model_config(const std::string& path, const Scenario& base = {});

} // namespace posatlas
