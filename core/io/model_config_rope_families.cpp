// SPDX-License-Identifier: GPL-3.0-or-later
// The defaults of each RoPE family's HF configuration class (configuration_<family>.py), by model_type.
#include "io/model_config_rope_families.h"
#include "io/model_config_detail.h"

#include <array>

namespace posatlas::detail {

namespace {

constexpr std::array<RopeFamily, 27> kRopeFamilies{{
    {"llama", "LlamaConfig", 4096, 32, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    {"mistral", "MistralConfig", 4096, 32, 0, 4096 * 32, 10000.0, 1.0, RopeStyle::Standard},
    {"mixtral", "MixtralConfig", 4096, 32, 0, 4096 * 32, 1e6, 1.0, RopeStyle::Standard},
    {"qwen2", "Qwen2Config", 4096, 32, 0, 32768, 10000.0, 1.0, RopeStyle::Standard},
    {"qwen3", "Qwen3Config", 4096, 32, 128, 32768, 10000.0, 1.0, RopeStyle::Standard},
    // Multimodal Qwen: the text model's class (M-RoPE's sections: model_config_mrope.cpp).
    {"qwen2_vl", "Qwen2VLTextConfig", 8192, 64, 0, 32768, 1e6, 1.0, RopeStyle::Standard},
    {"qwen2_5_vl", "Qwen2_5_VLTextConfig", 8192, 64, 0, 32768, 1e6, 1.0, RopeStyle::Standard},
    {"qwen3_vl", "Qwen3VLTextConfig", 4096, 32, 128, 128000, 5e6, 1.0, RopeStyle::Standard},
    {"phi", "PhiConfig", 2048, 32, 0, 2048, 10000.0, 0.5, RopeStyle::Standard},
    {"phi3", "Phi3Config", 3072, 32, 0, 4096, 10000.0, 1.0, RopeStyle::Phi3},
    {"deepseek_v2", "DeepseekV2Config", 4096, 32, 0, 2048, 10000.0, 1.0, RopeStyle::DeepSeek},
    {"deepseek_v3", "DeepseekV3Config", 7168, 128, 0, 4096, 10000.0, 1.0, RopeStyle::DeepSeek},
    {"gpt_oss", "GptOssConfig", 2880, 64, 64, 131072, 150000.0, 1.0, RopeStyle::Standard},
    {"gpt_neox", "GPTNeoXConfig", 6144, 64, 0, 2048, 10000.0, 0.25, RopeStyle::NeoX},
    {"gptj", "GPTJConfig", 4096, 16, 0, 2048, 10000.0, 1.0, RopeStyle::GptJ},
    {"falcon", "FalconConfig", 4544, 71, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    {"RefinedWeb", "FalconConfig", 4544, 71, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    {"RefinedWebModel", "FalconConfig", 4544, 71, 0, 2048, 10000.0, 1.0, RopeStyle::Standard},
    // Gemma 3: the text model's keys (a multimodal "gemma3" config holds them in text_config, which
    // import_model_config reads); the global layers' RoPE, rope_theta, is the one shown.
    {"gemma3_text", "Gemma3TextConfig", 2304, 8, 256, 131072, 1e6, 1.0, RopeStyle::Gemma3},
    {"gemma3", "Gemma3TextConfig", 2304, 8, 256, 131072, 1e6, 1.0, RopeStyle::Gemma3},
    // Gemma 4 (transformers models/gemma4/configuration_gemma4.py, Gemma4TextConfig): the full-attention
    // layers' RoPE is shown, with their head size global_head_dim (default 512; head_dim, 256, is the
    // sliding layers') and rope_parameters["full_attention"] (default proportional, 0.25, 1e6).
    {"gemma4_text", "Gemma4TextConfig", 2304, 8, 512, 131072, 1e6, 1.0, RopeStyle::Gemma4},
    {"gemma4", "Gemma4TextConfig", 2304, 8, 512, 131072, 1e6, 1.0, RopeStyle::Gemma4},
    // Families with per-layer attention spans or NoPE layers (model_config_layers.cpp reads the layers).
    {"gemma2", "Gemma2Config", 2304, 8, 256, 8192, 10000.0, 1.0, RopeStyle::Standard},
    {"cohere2", "Cohere2Config", 8192, 64, 0, 8192, 10000.0, 1.0, RopeStyle::Cohere},
    {"smollm3", "SmolLM3Config", 2048, 16, 0, 32768, 2000000.0, 1.0, RopeStyle::Standard},
    {"llama4_text", "Llama4TextConfig", 5120, 40, 128, 131072, 500000.0, 1.0, RopeStyle::Llama4},
    {"llama4", "Llama4TextConfig", 5120, 40, 128, 131072, 500000.0, 1.0, RopeStyle::Llama4},
}};

// Unknown model types that carry RoPE keys are read with LlamaConfig's defaults.
constexpr RopeFamily kGenericRope{"", "LlamaConfig", 4096, 32, 0, 2048, 10000.0, 1.0, RopeStyle::Standard};

} // namespace

const RopeFamily* find_rope_family(std::string_view model_type)
{
    for (const auto& f : kRopeFamilies)
        if (f.model_type == model_type)
            return &f;
    return nullptr;
}

const RopeFamily& generic_rope_family()
{
    return kGenericRope;
}

} // namespace posatlas::detail
