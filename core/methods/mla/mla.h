// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-head latent attention (MLA) with decoupled RoPE: DeepSeek-V2 (DeepSeek-AI 2024, "DeepSeek-V2",
// arXiv:2405.04434, sec. 2.1.3) and DeepSeek-V3 (arXiv:2412.19437, sec. 2.1.1). The reference
// implementation is Hugging Face transformers, models/deepseek_v3/modeling_deepseek_v3.py:
//
//   DeepseekV3Attention.forward: each head's query is split into q_pass (qk_nope_head_dim components, no
//   position) and q_rot (qk_rope_head_dim components); the key likewise into k_pass and k_rot (k_rot is
//   shared by the heads: one rotary key per token). Only q_rot and k_rot are rotated, and the query and key
//   are cat(pass, rot), so
//
//     logit(m, n) = (q_nope · k_nope + R(m) q_rope · R(n) k_rope) · softmax_scale.
//
//   Rotation: with rope_interleave (DeepseekV3Config's default, true) apply_rotary_pos_emb_interleave
//   de-interleaves q_rot and k_rot (view(d/2, 2).transpose) before rotate_half, so pair i is the adjacent
//   components (2i, 2i + 1) turning by inv_freq[i]: RopePairing::Interleaved (methods/rope/rope.h). With
//   rope_interleave false, apply_rotary_pos_emb: pairs (i, i + d/2), RopePairing::Half.
//   Frequencies: DeepseekV3RotaryEmbedding through ROPE_INIT_FUNCTIONS: the default or YaRN
//   (_compute_yarn_parameters, with mscale and mscale_all_dim) of compute_rope_frequencies (rope_scaling.h)
//   over the qk_rope_head_dim rotary dimensions; cos and sin carry the attention factor a
//   (get_mscale(s, mscale) / get_mscale(s, mscale_all_dim), 1 for DeepSeek-V3), so the rotary term
//   carries a².
//   Softmax scale: DeepseekV3Attention.__init__: qk_head_dim^-0.5 with qk_head_dim = qk_nope_head_dim +
//   qk_rope_head_dim, times yarn_get_mscale(factor, mscale_all_dim)² when rope_scaling is set and its
//   mscale_all_dim is non-zero (yarn_get_mscale(s, m) = 1 for s <= 1, else 0.1 m ln s + 1). DeepSeek-V3:
//   192^-0.5 · (0.1 ln 40 + 1)² = 0.0721688 · 1.87385 = 0.135234.
//   DeepSeek's own modeling_deepseek.py (DeepseekV2Attention, softmax_scale) applies the same square for
//   DeepSeek-V2; Hugging Face's in-library DeepseekV2Attention leaves it out (see rope_scaling.h). The
//   MLA method follows DeepSeek's code and DeepseekV3Attention for both.
//
// The rotary share of the logit (mla_rotary_share) is |rope part| / (|nope part| + |rope part|) of one
// query and key: 0 where the logit carries no position, 1 where it is position alone.
#pragma once

#include "methods/method.h"
#include "methods/rope/rope_scaling.h"

#include <Eigen/Dense>
#include <cstdint>
#include <optional>

namespace posatlas {

inline constexpr Method kMLA{"mla"};

// The rope scalings DeepSeek's configs use: none, or YaRN (DeepSeek-V2 and V3 both ship YaRN, factor 40).
enum class MlaRopeType { Default, Yarn };

struct MlaParams {
    static constexpr Method kMethod = kMLA;

    // DeepSeek-V3's published config.json (deepseek-ai/DeepSeek-V3).
    int qk_nope_head_dim = 128;
    int qk_rope_head_dim = 64;
    double rope_theta = 10000.0;
    bool rope_interleave = true; // pairs (2i, 2i + 1); false: (i, i + d/2)
    MlaRopeType rope_type = MlaRopeType::Yarn;
    double factor = 40.0;
    std::int64_t max_position_embeddings = 163840;
    std::int64_t original_max_position_embeddings = 4096;
    double beta_fast = 32.0;
    double beta_slow = 1.0;
    std::optional<double> mscale = 1.0;
    std::optional<double> mscale_all_dim = 1.0;

    bool operator==(const MlaParams&) const = default;
};

// The pairing rope_interleave chooses (apply_rotary_pos_emb_interleave or apply_rotary_pos_emb).
RopePairing mla_pairing(const MlaParams& p);
// The RoPE parameters of the rotary part: head_dim = qk_rope_head_dim, every component rotated, the scaling
// and pairing of p; without DeepSeek's softmax multiplier (mla_softmax_scale applies it to the whole logit).
RopeParams mla_rope_params(const MlaParams& p);
// Its frequencies: compute_rope_frequencies(mla_rope_params(p)).
RopeFrequencies mla_frequencies(const MlaParams& p);
// yarn_get_mscale(factor, mscale_all_dim)² when p uses YaRN with a non-zero mscale_all_dim, else 1.
double mla_mscale_squared(const MlaParams& p);
// DeepseekV3Attention's softmax scale: (qk_nope_head_dim + qk_rope_head_dim)^-0.5 · mla_mscale_squared(p).
double mla_softmax_scale(const MlaParams& p);

// The two parts of one logit, each multiplied by the softmax scale: nope = q_nope · k_nope · c, rope =
// R(m) q_rope · R(n) k_rope · c (a² inside the rotation). q and k have qk_nope_head_dim + qk_rope_head_dim
// components, the position-free part first (cat(q_pass, q_rot)).
struct MlaLogitParts {
    double nope = 0.0;
    double rope = 0.0;
    double logit() const { return nope + rope; }
};
MlaLogitParts mla_logit_parts(const MlaParams& p, const RopeFrequencies& f,
                              const Eigen::Ref<const Eigen::VectorXd>& q,
                              const Eigen::Ref<const Eigen::VectorXd>& k, double m, double n);
// |rope| / (|nope| + |rope|); 0 when both are 0.
double mla_rotary_share(const MlaLogitParts& parts);

} // namespace posatlas
