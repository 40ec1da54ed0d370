// SPDX-License-Identifier: GPL-3.0-or-later
// DeepSeek-V2/V3 configs and the MLA method (methods/mla/mla.h): besides the RoPE of the rotary part (the
// RoPE reader, model_config_rope.cpp: qk_rope_head_dim, rope_theta, rope_scaling with YaRN's factor,
// original_max_position_embeddings, beta_fast, beta_slow, mscale, mscale_all_dim), the scenario's MLA
// parameters get the position-free part qk_nope_head_dim and rope_interleave, so that the MLA method shows
// the model's whole logit:
//   qk_nope_head_dim   DeepseekV2Config / DeepseekV3Config default 128
//   rope_interleave    DeepseekV3Config default true (apply_rotary_pos_emb_interleave); DeepSeek-V2's code
//                      always takes adjacent pairs
// v_head_dim, kv_lora_rank and q_lora_rank size the values and the low-rank projections: read, not
// positional (model_config.cpp lists them with the other keys of no position).
#include "io/model_config_detail.h"
#include "methods/mla/mla.h"

namespace posatlas::detail {

namespace {

// DeepseekV2Config and DeepseekV3Config: qk_nope_head_dim.
constexpr int kDefaultNopeHeadDim = 128;
// The largest qk_nope_head_dim the MLA method takes (its field's range).
constexpr std::int64_t kMaxNopeHeadDim = 4096;

} // namespace

void read_mla(Reader& r, const json& cfg, Scenario& s)
{
    const RopeParams& rope = s.params<RopeParams>();
    MlaParams m;
    const auto nope = r.integer(cfg, "qk_nope_head_dim", "qk_nope_head_dim");
    if (nope && (*nope < 0 || *nope > kMaxNopeHeadDim))
        throw ConfigError("qk_nope_head_dim must be in [0, " + std::to_string(kMaxNopeHeadDim) + "] (got " +
                          std::to_string(*nope) + ")");
    m.qk_nope_head_dim = nope ? static_cast<int>(*nope) : kDefaultNopeHeadDim;
    m.qk_rope_head_dim = rope.rotary_dim();
    m.rope_theta = rope.rope_theta;
    m.rope_interleave = r.boolean(cfg, "rope_interleave", "rope_interleave").value_or(true);
    m.max_position_embeddings = rope.max_position_embeddings;
    m.original_max_position_embeddings = rope.trained_length();
    m.factor = rope.factor;
    m.beta_fast = rope.beta_fast;
    m.beta_slow = rope.beta_slow;
    m.mscale = rope.mscale;
    m.mscale_all_dim = rope.mscale_all_dim;
    if (rope.rope_type == RopeType::Yarn) {
        m.rope_type = MlaRopeType::Yarn;
    } else {
        m.rope_type = MlaRopeType::Default;
        if (rope.rope_type != RopeType::Default)
            r.note(
                "the MLA method (--method mla) takes no scaling or YaRN only: it shows this model's rotary "
                "part without its " +
                std::string(rope_type_id(rope.rope_type)) + " scaling");
    }
    s.params<MlaParams>() = m;
    // The model's method is MLA: its logit is the position-free part and the rotary part together, with
    // DeepseekV3Attention's softmax scale. The RoPE parameters keep the rotary part alone (with DeepSeek's
    // softmax multiplier, softmax_mscale), which --method rope and the RoPE quantities read.
    s.method = kMLA;
    r.note("multi-head latent attention (method mla): the whole logit, " +
           std::to_string(m.qk_nope_head_dim) + " position-free dimensions (qk_nope_head_dim) beside the " +
           std::to_string(m.qk_rope_head_dim) +
           " rotary ones, with the softmax scale of DeepseekV3Attention; the rotary views show the rotary "
           "part, and --method rope shows it alone");
}

} // namespace posatlas::detail
