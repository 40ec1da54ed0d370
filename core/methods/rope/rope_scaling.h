// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE frequencies and their context-extension scalings.
//
// Reference implementation: Hugging Face transformers, src/transformers/modeling_rope_utils.py,
// the functions _compute_default_rope_parameters, _compute_linear_scaling_rope_parameters,
// _compute_dynamic_ntk_parameters, _compute_yarn_parameters, _compute_longrope_parameters and
// _compute_llama3_parameters. Checked against:
//   * the transformers main line after the `rope_parameters` refactor (v5 series, read in verbatim
//     copies because the repository snapshot was too large to mirror here), and
//   * the stored huggingface/transformers commit ef46806472a64b0013ed413781e3afed82bfa047 (v4.4x).
// The two agree on every formula below except the YaRN factor rule, see compute_rope_frequencies.
//
// Numbers: HF builds inv_freq in float32 (torch.arange(...).float()); we compute the same formulas in
// double, so values agree with HF to float32 rounding (~1e-7 relative) and with a double
// re-implementation of HF to ~1e-15.
#pragma once

#include "scenario/params.h"

#include <optional>
#include <string_view>
#include <vector>

namespace posatlas {

// How a rotary pair's frequency relates to the unscaled one.
enum class PairRegime {
    Kept,         // inv_freq == inv_freq_original (extrapolated: the high-frequency end of YaRN / Llama 3)
    Interpolated, // inv_freq == inv_freq_original / factor (position interpolation)
    Blended,      // anything else (YaRN/Llama 3 ramp, NTK / dynamic base change, LongRoPE per-pair factors)
};
// "kept", "interpolated", "blended"
std::string_view pair_regime_id(PairRegime r);

// Relative tolerance of the regime classification: |ratio - 1| <= tol is Kept,
// |ratio * factor - 1| <= tol is Interpolated (ratio = inv_freq / inv_freq_original).
inline constexpr double kPairRegimeTolerance = 1e-9;

struct RopeFrequencies {
    RopeType rope_type = RopeType::Default;
    int rotary_dim = 0;       // RopeParams::rotary_dim(); rotary_dim / 2 pairs
    double base_used = 0.0;   // effective base: rope_theta, or the NTK / dynamic-NTK enlarged base
    double factor_used = 1.0; // the scaling factor the formulas used (1 for default; see longrope rule)
    std::vector<double> inv_freq_original; // theta_i = rope_theta^(-2i / rotary_dim)
    std::vector<double> inv_freq;          // scaled theta'_i
    double attention_factor = 1.0;         // HF "attention_scaling": multiplies cos and sin
    // Extra multiplier of the softmax scale 1/sqrt(d), applied by the attention module rather than the
    // rotary embedding, so to the whole logit q.k (rotary and pass-through parts). 1 except for
    // DeepSeek-V2/V3 (p.softmax_mscale): get_mscale(s, mscale_all_dim)^2, see compute_rope_frequencies.
    double softmax_scale = 1.0;
    // What the model multiplies the rotary part of q.k / sqrt(d) by: attention_factor^2 * softmax_scale
    // (e.g. DeepSeek-V3, factor 40, mscale = mscale_all_dim = 1: 1 * (0.1 ln 40 + 1)^2 = 1.8739).
    double logit_multiplier() const { return attention_factor * attention_factor * softmax_scale; }
    std::vector<double> wavelength; // 2 pi / inv_freq (scaled), in tokens
    // YaRN only: HF linear_ramp_factor per pair; 0 keeps the original frequency, 1 is fully
    // interpolated (inv_freq = (1 - ramp) * theta_i + ramp * theta_i / factor). Empty otherwise.
    std::vector<double> ramp;
    std::vector<PairRegime> regime; // per pair, see PairRegime and kPairRegimeTolerance
    // YaRN only: the correction range [low, high] as HF's find_correction_range returns it (after the
    // optional floor/ceil of `truncate`, clamped to [0, rotary_dim - 1]). Units: pair index.
    std::optional<double> yarn_low;
    std::optional<double> yarn_high;
    // Llama 3 only: original_max_position_embeddings / low_freq_factor (wavelengths above are divided by
    // factor) and / high_freq_factor (wavelengths below are kept).
    std::optional<double> llama3_low_freq_wavelen;
    std::optional<double> llama3_high_freq_wavelen;

    int pairs() const { return rotary_dim / 2; }
};

// Computes the rotary frequencies of `p` (validate(p) first; throws ParameterError).
// d = rotary_dim, theta_i = rope_theta^(-2i/d), i = 0 .. d/2 - 1, s = factor, L = trained_length().
//  p-RoPE   : with p.frequency_fraction p < 1 (default and linear only), d = rotary_dim() =
//             2 floor(p D / 2) and theta_i = rope_theta^(-2i/D) with D = frequency_dim(): the highest
//             frequencies of D, the lowest removed (Barbero et al. 2024; Gemma 4's "proportional",
//             _compute_proportional_rope_parameters, whose zero frequencies are the pairs not rotated
//             here; its inv_freq /= factor is linear).
//  default  : theta_i; attention factor 1.                   (_compute_default_rope_parameters)
//  linear   : theta_i / s (kaiokendev's position interpolation; Chen et al. 2023, "Extending Context
//             Window of Large Language Models via Positional Interpolation").
//                                                            (_compute_linear_scaling_rope_parameters)
//  ntk      : static NTK-aware scaling: base' = rope_theta * s^(d / (d - 2)), theta_i' = base'^(-2i/d)
//             (bloc97, "NTK-Aware Scaled RoPE allows LLaMA models to have extended (8k+) context size
//             without any fine-tuning", r/LocalLLaMA, June 2023; no longer in HF main). Needs d >= 4.
//  dynamic  : HF _compute_dynamic_ntk_parameters: len = max(seq_len, max_position_embeddings) (seq_len 0:
//             max_position_embeddings), base' = rope_theta * (s * len / max_position_embeddings
//             - (s - 1))^(d / (d - 2)). HF uses config.max_position_embeddings here, NOT the original
//             length: in v4.4x (with a TODO "use the new original_max_position_embeddings") and still in
//             the v5 rewrite (rope_parameters; seq_len = max(seq_len, config.max_position_embeddings)).
//             original_max_position_embeddings is therefore ignored: a DeepSeek-V3 config (163840, original
//             4096) switched to dynamic keeps rope_theta up to 163840. Equals default while seq_len <=
//             max_position_embeddings. The one definition behind `compute rope-frequencies --rope-type
//             dynamic` and the explorer (dynamic_ntk_params, rope_compare.h).
//  yarn     : HF _compute_yarn_parameters (Peng et al. 2023, "YaRN", arXiv:2309.00071):
//             find_correction_dim(r) = d ln(L / (2 pi r)) / (2 ln rope_theta);
//             low = find_correction_dim(beta_fast), high = find_correction_dim(beta_slow), floored /
//             ceiled when `truncate`, then low = max(low, 0), high = min(high, d - 1) (HF clamps to
//             d - 1, not d/2 - 1); ramp_i = clamp((i - low) / (high - low), 0, 1) with high += 0.001 when
//             low == high; theta_i' = (1 - ramp_i) theta_i + ramp_i theta_i / s.
//             Attention factor: attention_factor if given; else, when mscale and mscale_all_dim are both
//             set and non-zero, get_mscale(s, mscale) / get_mscale(s, mscale_all_dim); else get_mscale(s),
//             where get_mscale(s, m) = 1 for s <= 1, else 0.1 m ln(s) + 1.
//             Softmax scale (p.softmax_mscale, DeepSeek): get_mscale(s, mscale_all_dim)^2. This is not
//             in modeling_rope_utils but in the attention module: transformers
//             models/deepseek_v3/modeling_deepseek_v3.py DeepseekV3Attention.__init__ ("if
//             self.config.rope_scaling is not None: mscale_all_dim = rope_scaling.get('mscale_all_dim', 0)
//             ... if mscale_all_dim: mscale = yarn_get_mscale(scaling_factor, mscale_all_dim);
//             self.scaling = self.scaling * mscale * mscale"), and DeepSeek's own modeling_deepseek.py
//             (DeepseekV2Attention / DeepseekV3Attention.__init__, softmax_scale), which HF's in-library
//             DeepSeek-V2 port leaves out. With mscale == mscale_all_dim the attention factor is 1 and
//             this square is the whole temperature: (0.1 ln 40 + 1)^2 = 1.8739 for DeepSeek-V3.
//             Factor rule: the explicit `factor` is used (HF v5: `factor` wins, max/original is only a
//             fallback when factor is absent, and a mismatch is merely warned about). HF v4.45-v4.57
//             instead replaced factor by max_position_embeddings / original_max_position_embeddings
//             whenever original_max_position_embeddings was in rope_scaling; both agree for consistent
//             configs (e.g. DeepSeek-V2/V3: 163840 / 4096 = 40). L = original_max_position_embeddings,
//             or max_position_embeddings when it is 0.
//  llama3   : HF _compute_llama3_parameters (Meta llama-models apply_scaling): with
//             low_wl = L / low_freq_factor, high_wl = L / high_freq_factor, wl_i = 2 pi / theta_i:
//             wl_i < high_wl -> theta_i; wl_i > low_wl -> theta_i / s; else
//             smooth = (L / wl_i - low_freq_factor) / (high_freq_factor - low_freq_factor),
//             theta_i' = (1 - smooth) theta_i / s + smooth theta_i. Attention factor 1.
//  longrope : HF _compute_longrope_parameters (Ding et al. 2024, "LongRoPE", arXiv:2402.13753; Phi-3):
//             theta_i' = 1 / (ext_i * rope_theta^(2i/d)) with ext = long_factor when
//             seq_len > L, else short_factor (seq_len 0 counts as short). Factor: when
//             original_max_position_embeddings is set, max_position_embeddings / original (Phi-3's
//             rule in every HF version; HF v5 lets an explicit rope_parameters["factor"] win, which a
//             Phi-3 config does not set), else `factor`. Attention factor: attention_factor if given,
//             else 1 when factor <= 1, else sqrt(1 + ln(factor) / ln(L)).
RopeFrequencies compute_rope_frequencies(const RopeParams& p);

// YaRN as llama.cpp computes it (ggml/src/ggml.c ggml_rope_yarn_corr_dims and
// ggml/src/ggml-cpu/ggml-cpu.c rope_yarn / rope_yarn_ramp, llama.cpp commit
// c392e5094deaf2d1a7c18683214f007fad3fe42b, Feb 2025). It differs from HF in:
//  * the correction range is always floored / ceiled (no `truncate` option), clamped to [0, d - 1];
//  * the ramp divides by max(0.001, high - low) instead of adding 0.001 only when low == high;
//  * the attention factor is attn_factor * (1 + 0.1 ln(1 / freq_scale)) = attn_factor * (1 + 0.1 ln s)
//    applied inside the kernel whenever ext_factor != 0 (here ext_factor = 1, the YaRN default);
//    mscale / mscale_all_dim of the HF config are not read by the kernel (llama.cpp handles
//    DeepSeek's mscale in the model graph via rope_yarn_log_mul: kq_scale = mscale^2 / sqrt(d) with the
//    kernel's factor divided out, the same logit multiplier as HF's softmax_scale; softmax_scale is left
//    1 here, so that logit_multiplier() = (1 + 0.1 ln s)^2 is that value for mscale_all_dim = 1, e.g.
//    DeepSeek-V3). `attention_factor`, when set, is
//    taken as llama.cpp's attn_factor multiplier (cparams.yarn_attn_factor * hparams.rope_attn_factor),
//    otherwise 1;
//  * ggml computes in float32.
// rope_type of the result is Yarn whatever p.rope_type says; validate(p) is applied.
RopeFrequencies compute_yarn_llamacpp(const RopeParams& p);

} // namespace posatlas
