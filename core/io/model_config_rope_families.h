// SPDX-License-Identifier: GPL-3.0-or-later
// The RoPE model families the config import knows: the defaults of each one's Hugging Face configuration
// class, and the style of RoPE it uses (io/model_config_rope.cpp reads a config with them).
#pragma once

#include <cstdint>
#include <string_view>

namespace posatlas::detail {

enum class RopeStyle { Standard, NeoX, GptJ, DeepSeek, Phi3, Gemma3, Gemma4, Cohere, Llama4 };

// Defaults of the HF configuration class of each RoPE model type (configuration_<family>.py).
struct RopeFamily {
    std::string_view model_type;
    std::string_view config_class;
    int hidden_size;
    int num_heads;
    int head_dim; // 0: hidden_size / num_heads
    std::int64_t max_pos;
    double rope_theta;
    double partial; // partial_rotary_factor / rotary_pct default
    RopeStyle style;
};

} // namespace posatlas::detail
