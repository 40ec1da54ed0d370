// SPDX-License-Identifier: GPL-3.0-or-later
// Which keys an attention layer lets a query see: every key (global), a sliding window of the last W keys,
// or the keys of the query's own chunk of C positions. The one definition of these masks: the scenario's
// mask (params.h: Scenario::window) and a model's layers (io/model_layers.h) both use it.
//
// Reference (huggingface/transformers masking_utils.py): causal_mask_function keeps kv_idx <= q_idx;
// sliding_window_overlay keeps kv_idx > q_idx - sliding_window (q - k < W); chunked_overlay keeps
// kv_idx // chunk_size == q_idx // chunk_size (no left padding here). The sliding and chunked masks of
// a decoder are these overlays combined with the causal mask (sliding_window_causal_mask_function,
// chunked_causal_mask_function).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace posatlas {

enum class LayerAttention { Global, Sliding, Chunked };

// May query position q attend to key position k under a causal mask restricted to `attention` with
// `span` (W keys for Sliding, the chunk size C for Chunked)? Causal: k <= q (and k >= 0); then q - k < W
// for Sliding, k / C == q / C for Chunked (a span below 1 lets nothing through).
inline bool span_allows(LayerAttention attention, std::int64_t span, std::int64_t q, std::int64_t k)
{
    if (k > q || k < 0)
        return false;
    switch (attention) {
    case LayerAttention::Global: return true;
    case LayerAttention::Sliding: return q - k < span;
    case LayerAttention::Chunked: return span > 0 && k / span == q / span;
    }
    return true;
}

// Llama 4's attention temperature at position `pos` (modeling_llama4.py Llama4TextAttention.forward:
// attn_scales = log(floor((cache_position + 1) / floor_scale) + 1) * attn_scale + 1, multiplying the
// query states): 1 when floor_scale is not positive.
inline double query_temperature(double floor_scale, double attn_scale, std::int64_t pos)
{
    if (!(floor_scale > 0.0))
        return 1.0;
    return std::log(std::floor((static_cast<double>(pos) + 1.0) / floor_scale) + 1.0) * attn_scale + 1.0;
}

// "none" (Global), "sliding", "chunked": the scenario's window field and the command line's --window.
std::string_view window_id(LayerAttention a);
std::optional<LayerAttention> parse_window(std::string_view id);

} // namespace posatlas
