// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of RoPE and its scalings: one plain struct, its fields named after the Hugging Face config
// keys where one exists. Ranges, labels and command-line options are the method's registry fields
// (rope/ beside this file); a Scenario keeps one of these (s.params<RopeParams>()).
#pragma once

#include "methods/method.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

enum class RopeType { Default, Linear, Ntk, Dynamic, Yarn, Llama3, LongRope };
// "default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope"
std::string_view rope_type_id(RopeType t);
// Accepts the ids above and the legacy aliases of HF configs: "su" -> longrope,
// "mrope" -> default (multimodal sections share the default frequencies), "ntk-aware" -> ntk.
std::optional<RopeType> parse_rope_type(std::string_view id);

enum class RopePairing {
    Interleaved, // pairs (2i, 2i+1): RoFormer, GPT-J, Meta's Llama reference code
    Half,        // pairs (i, i + d/2): GPT-NeoX, Hugging Face rotate_half
};

// The factor a scaling type gets when a user chooses it while the factor is still 1, where it would be
// the identity (4x: Code Llama's and the PI paper's typical extension). Field::companion of rope_type.
inline constexpr double kDefaultScalingFactor = 4.0;

struct RopeParams {
    static constexpr Method kMethod = Method::RoPE;

    int head_dim = 128;                 // head_dim, or hidden_size / num_attention_heads
    double rope_theta = 10000.0;        // base
    double partial_rotary_factor = 1.0; // frequency_dim = int(head_dim * partial_rotary_factor)
    // p-RoPE (Barbero et al. 2024, "Round and Round We Go! What makes Rotary Positional Encodings
    // useful?", arXiv:2410.06205): the fraction p of the frequencies kept, the highest ones; the lowest
    // are removed (their pairs do not rotate). Pair i keeps theta_i = rope_theta^(-2i / frequency_dim), the
    // exponent over the whole frequency_dim, for i < floor(p * frequency_dim / 2). Gemma 4's "proportional"
    // rope type is this with p = its partial_rotary_factor (transformers modeling_rope_utils.py
    // _compute_proportional_rope_parameters: rope_angles = int(partial_rotary_factor * head_dim // 2),
    // the rest zero). 1: every frequency (plain RoPE). With default and linear scaling only.
    double frequency_fraction = 1.0;
    RopeType rope_type = RopeType::Default;
    RopePairing pairing = RopePairing::Half;
    double factor = 1.0;                               // scaling factor s
    std::int64_t max_position_embeddings = 2048;       // the model's (possibly extended) context
    std::int64_t original_max_position_embeddings = 0; // trained context; 0: same as max_position_embeddings
    std::int64_t seq_len = 0;                          // current length for dynamic NTK / longrope; 0: none
    // YaRN
    double beta_fast = 32.0;
    double beta_slow = 1.0;
    std::optional<double> mscale;
    std::optional<double> mscale_all_dim;
    std::optional<double> attention_factor; // explicit override (yarn, longrope)
    // DeepSeek-V2/V3 attention (yarn only): the softmax scale 1/sqrt(d) is also multiplied by
    // get_mscale(factor, mscale_all_dim)^2, beside the attention factor on cos and sin (rope_scaling.h,
    // RopeFrequencies::softmax_scale). Needs mscale_all_dim set and non-zero.
    bool softmax_mscale = false;
    bool truncate = true;
    // Llama 3
    double low_freq_factor = 1.0;
    double high_freq_factor = 4.0;
    // LongRoPE: one factor per rotary pair (rotary_dim / 2 values)
    std::vector<double> short_factor;
    std::vector<double> long_factor;

    // The dimension the frequencies' exponent runs over: int(head_dim * partial_rotary_factor).
    int frequency_dim() const { return static_cast<int>(head_dim * partial_rotary_factor); }
    // The rotated components: frequency_dim, or with p-RoPE twice the kept pairs,
    // 2 floor(p * frequency_dim / 2) (Python's int(p * d // 2) of _compute_proportional_rope_parameters).
    int rotary_dim() const
    {
        if (frequency_fraction >= 1.0)
            return frequency_dim();
        return 2 * static_cast<int>(std::floor(frequency_fraction * frequency_dim() / 2.0));
    }
    std::int64_t trained_length() const
    {
        return original_max_position_embeddings > 0 ? original_max_position_embeddings
                                                    : max_position_embeddings;
    }

    bool operator==(const RopeParams&) const = default;
};

} // namespace posatlas
