// SPDX-License-Identifier: GPL-3.0-or-later
// DeepSeek-V2/V3 GGUF files (llama.cpp architecture deepseek2) as the config.json DeepseekV2Config reads,
// so that they import as the MLA method (methods/mla/mla.h) exactly as the model's config.json does.
//
// What llama.cpp writes (convert_hf_to_gguf.py, DeepseekV2Model.set_gguf_parameters) and reads
// (src/llama-model.cpp, llama_model_deepseek2 load_arch_hparams; llama_hparams::is_mla):
//   rope.dimension_count          qk_rope_head_dim
//   attention.key_length_mla      qk_nope_head_dim + qk_rope_head_dim (files converted for MLA; then
//   attention.value_length_mla    v_head_dim          key_length = kv_lora_rank + qk_rope_head_dim and
//                                                     value_length = kv_lora_rank, the cached latent)
//   attention.key_length          qk_nope_head_dim + qk_rope_head_dim, value_length v_head_dim (older files
//                                 without the _mla keys, whose n_embd_head_k_mla() is key_length)
//   attention.q_lora_rank, attention.kv_lora_rank
//   rope.scaling.yarn_log_multiplier   0.1 * mscale_all_dim; the loader divides it by 0.1f again
//                                 ([TAG_DEEPSEEK2_YARN_LOG_MUL_FIX]), and llama-context.cpp takes mscale =
//                                 mscale_all_dim for deepseek2 (DeepSeek's configs state the two equal:
//                                 V2 0.707 and 0.707, V3 1 and 1).
#include "io/gguf_detail.h"
#include "io/number_text.h"

#include <cmath>
#include <limits>

namespace posatlas::gguf_detail {

namespace {

// A key's value as a non-negative integer; ConfigError naming the key otherwise.
std::int64_t size_value(const HfConfigFromGguf& m, const std::string& suffix)
{
    const GgufKeyValue* kv = m.get(suffix);
    const nlohmann::json& v = kv->value;
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0)
        throw ConfigError(m.pre + suffix + " must be a non-negative integer (got " + v.dump() + ")");
    return v.get<std::int64_t>();
}

} // namespace

void map_deepseek2_shape(HfConfigFromGguf& m)
{
    const GgufKeyValue* nrot = m.get("rope.dimension_count");
    if (nrot)
        m.put("qk_rope_head_dim", "rope.dimension_count", nrot->value);
    m.copy("q_lora_rank", "attention.q_lora_rank");
    m.copy("kv_lora_rank", "attention.kv_lora_rank");

    // llama_hparams::is_mla(): a file converted for MLA states the heads' widths under the _mla keys.
    const bool mla = m.get("attention.key_length_mla") != nullptr;
    const std::string key = mla ? "attention.key_length_mla" : "attention.key_length";
    const std::string value = mla ? "attention.value_length_mla" : "attention.value_length";
    m.copy("v_head_dim", value);
    if (mla && m.get("attention.key_length")) {
        m.no_position.push_back(m.pre + "attention.key_length");
        m.notes.push_back(m.pre + "attention.key_length is the width of the latent key llama.cpp caches " +
                          "(kv_lora_rank + qk_rope_head_dim), not a head's: the head's is " + m.pre + key);
    }
    if (!m.get(key))
        return;
    const std::int64_t width = size_value(m, key);
    if (!nrot)
        throw ConfigError(m.pre + key + " needs " + m.pre +
                          "rope.dimension_count (qk_rope_head_dim) to give qk_nope_head_dim");
    const std::int64_t rope = size_value(m, "rope.dimension_count");
    if (width < rope)
        throw ConfigError(m.pre + key + " must be at least " + m.pre + "rope.dimension_count = " +
                          std::to_string(rope) + " (got " + std::to_string(width) + ")");
    m.put("qk_nope_head_dim", key, width - rope);
    m.notes.push_back("qk_nope_head_dim = " + m.pre + key +
                      " - rope.dimension_count = " + std::to_string(width) + " - " + std::to_string(rope) +
                      " = " + std::to_string(width - rope));
}

void map_deepseek2_yarn(HfConfigFromGguf& m)
{
    const std::string suffix = "rope.scaling.yarn_log_multiplier";
    const GgufKeyValue* kv = m.get(suffix);
    if (!kv)
        return;
    // A float32 in llama.cpp's files (an f64 beyond float's range could not be divided as llama.cpp does).
    if (!kv->value.is_number() || !(std::fabs(kv->value.get<double>()) <= std::numeric_limits<float>::max()))
        throw ConfigError(m.pre + suffix + " must be a finite float32 number (got " + kv->value.dump() + ")");
    // In float, as llama_model_deepseek2 divides it (rope_yarn_log_mul /= 0.1f): 0.1f / 0.1f is exactly 1.
    const double mscale_all_dim = static_cast<double>(static_cast<float>(kv->value.get<double>()) / 0.1f);
    m.put("rope_scaling.mscale_all_dim", suffix, mscale_all_dim);
    m.put("rope_scaling.mscale", suffix, mscale_all_dim);
    m.notes.push_back(
        m.pre + suffix + " = " + number_text(kv->value.get<double>()) +
        " is 0.1 * mscale_all_dim (llama.cpp's convert_hf_to_gguf.py): mscale_all_dim = mscale = " +
        number_text(mscale_all_dim));
}

} // namespace posatlas::gguf_detail
