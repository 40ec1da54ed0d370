// SPDX-License-Identifier: GPL-3.0-or-later
// The per-layer anatomy of a model: for each decoder layer its attention span (global, a sliding window of
// W keys, or chunks of C positions), its positional encoding (RoPE with its base and scaling, or NoPE) and
// the attention temperature it applies, as the model's own code builds them from its config.json.
//
// References (huggingface/transformers; the config import, io/model_config_layers.cpp, follows them):
//   masking_utils.py   sliding_window_overlay: key k is seen by query q when q - k < W (and k <= q);
//                      chunked_overlay: k // C == q // C (and k <= q); causal_mask_function: k <= q.
//   models/gemma2/configuration_gemma2.py   layer_types: sliding when (i + 1) % 2 != 0.
//   models/gemma3/configuration_gemma3.py   layer_types: sliding when (i + 1) % sliding_window_pattern != 0;
//                      modeling_gemma3.py: sliding layers rotate with rope_local_base_freq, default RoPE;
//                      global layers with rope_theta and rope_scaling.
//   models/llama4/configuration_llama4.py   Llama4TextConfig: no_rope_layers[i] = int((i + 1) %
//                      no_rope_layer_interval != 0) (1: the layer uses RoPE); layer_types chunked_attention
//                      on the RoPE layers, full_attention on the NoPE ones; modeling_llama4.py
//                      Llama4TextAttention.forward: on NoPE layers with attn_temperature_tuning the query is
//                      scaled by log(floor((pos + 1) / floor_scale) + 1) * attn_scale + 1.
//   models/cohere2/modeling_cohere2.py      Cohere2Attention: RoPE only on the sliding layers,
//                      sliding when (i + 1) % sliding_window_pattern != 0.
//   models/smollm3/configuration_smollm3.py no_rope_layers[i] == 1: layer i uses RoPE.
//   models/qwen2/configuration_qwen2.py     sliding when use_sliding_window and i >= max_window_layers.
//   models/mistral/modeling_mistral.py      sliding_window on every layer.
#pragma once

#include "scenario/attention_span.h"

#include <cstdint>
#include <string>
#include <vector>

namespace posatlas {

struct LayerAnatomy {
    int index = 0;
    LayerAttention attention = LayerAttention::Global;
    std::int64_t span = 0; // Sliding: keys a query sees (itself included); Chunked: the chunk size
    bool rope = true;      // false: NoPE (no positional signal in the logits of this layer)
    double rope_theta = 0.0;
    std::string rope_type = "default"; // Hugging Face rope_type of this layer's RoPE
    double rope_factor = 1.0;          // its scaling factor (1 for default)
    // Llama 4's attention temperature tuning on this layer (query scaled by attention_temperature()).
    bool temperature = false;
    double floor_scale = 0.0;
    double attn_scale = 0.0;

    bool operator==(const LayerAnatomy&) const = default;
};

// The mask of `layer` (transformers masking_utils): may query position q attend to key position k?
// Causal (k <= q) and, for a sliding window of W, q - k < W; for chunks of C, k / C == q / C
// (span_allows, scenario/attention_span.h).
bool layer_mask_allows(const LayerAnatomy& layer, std::int64_t q, std::int64_t k);

// Llama 4's query scale at position `pos` (Llama4TextAttention.forward): 1 when the layer has none, else
// log(floor((pos + 1) / floor_scale) + 1) * attn_scale + 1.
double attention_temperature(const LayerAnatomy& layer, std::int64_t pos);

// The earliest position whose information can reach the query at position `q` after the first `k` layers
// (layers 0 .. k-1). Derivation: the positions feeding q at the output of layer k-1 form an interval
// [lo, q] (every mask is causal and contiguous); going down one layer, each position p of the interval
// sees the keys its mask allows, so lo becomes: 0 for a global layer; max(0, lo - (W - 1)) for a sliding
// window of W (p = lo sees back to lo - W + 1); (lo / C) * C for chunks of C (the start of lo's chunk,
// the earliest any p >= lo sees). Start with lo = q (k = 0: only itself). The distance q - result is how far
// back position information reaches; a sliding-only model reaches k (W - 1), chunked-only layers never
// leave the query's chunk.
std::int64_t receptive_field_start(const std::vector<LayerAnatomy>& layers, int k, std::int64_t q);

// Layers that are alike, in the order of their first layer: each run lists the ranges [first, last] of
// consecutive layer indices whose anatomy (apart from the index) is the same.
struct LayerGroup {
    std::vector<std::pair<int, int>> ranges;
    LayerAnatomy anatomy; // the first layer's
};
std::vector<LayerGroup> group_layers(const std::vector<LayerAnatomy>& layers);

// The HF layer type of a layer: "full_attention", "sliding_attention" or "chunked_attention".
std::string layer_type_name(LayerAttention a);

} // namespace posatlas
