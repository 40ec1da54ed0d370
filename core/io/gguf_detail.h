// SPDX-License-Identifier: GPL-3.0-or-later
// Inside the GGUF import (io/gguf.cpp, io/gguf_deepseek.cpp): a GGUF header's keys written as the
// config.json of the Hugging Face model of its architecture, which import_model_config then reads.
#pragma once

#include "io/gguf.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace posatlas::gguf_detail {

// A GGUF header's keys written as the config.json a Hugging Face model of its architecture has, with
// what the report needs to speak of the GGUF keys again: the GGUF key of every config key it wrote, the
// keys it did not use and the notes on them.
struct HfConfigFromGguf {
    const GgufHeader& h;
    std::string arch; // general.architecture: "llama"
    std::string mt;   // the Hugging Face model_type it is read as
    std::string pre;  // the prefix of the architecture's keys: "llama."
    nlohmann::json cfg = nlohmann::json::object();
    std::map<std::string, std::string> hf_to_gguf; // dotted HF key -> GGUF key, for the report
    std::vector<std::string> ignored, notes;
    // Keys of this architecture known to carry no position (besides gguf.cpp's list for every one).
    std::vector<std::string> no_position;

    // Reads general.architecture; ConfigError when it is missing or not a string.
    explicit HfConfigFromGguf(const GgufHeader& header);

    const GgufKeyValue* get(const std::string& suffix) const { return h.find(pre + suffix); }
    void put(const std::string& hf, const std::string& suffix, const nlohmann::json& v)
    {
        const auto dot = hf.find('.');
        if (dot == std::string::npos)
            cfg[hf] = v;
        else
            cfg[hf.substr(0, dot)][hf.substr(dot + 1)] = v;
        hf_to_gguf[hf] = pre + suffix;
    }
    void copy(const std::string& hf, const std::string& suffix)
    {
        if (const auto* kv = get(suffix))
            put(hf, suffix, kv->value);
    }
    // Whether some config key was written from this GGUF key (its full name).
    bool mapped(const std::string& gguf_key) const
    {
        for (const auto& [hf, gg] : hf_to_gguf)
            if (gg == gguf_key)
                return true;
        return false;
    }
};

// llama.cpp's deepseek2 (DeepSeek-V2, V2.5, V3, R1; io/gguf_deepseek.cpp): the multi-head latent
// attention's sizes (qk_rope_head_dim, qk_nope_head_dim, v_head_dim, q_lora_rank, kv_lora_rank).
void map_deepseek2_shape(HfConfigFromGguf& m);
// Its YaRN's mscale_all_dim (and mscale), from rope.scaling.yarn_log_multiplier; when the scaling is YaRN.
void map_deepseek2_yarn(HfConfigFromGguf& m);

} // namespace posatlas::gguf_detail
