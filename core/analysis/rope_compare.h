// SPDX-License-Identifier: GPL-3.0-or-later
// The context-extension explorer's numbers: one row per rotary pair for a RoPE scaling (how its
// frequency changed, its regime, the rotation angles it reaches in training and at the target length),
// the regime runs for labelling, YaRN's r = L / lambda thresholds, the attention temperatures of YaRN,
// DeepSeek and LongRoPE, a set of standard scalings of one model for side-by-side comparison, and the
// positional score against distance.
//
// Frequencies come from compute_rope_frequencies (rope_scaling.h), which follows Hugging Face
// transformers src/transformers/modeling_rope_utils.py (see that header for the versions checked).
#pragma once

#include "methods/rope/rope_scaling.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

namespace posatlas {

// One rotary pair i of one scaling.
struct RopePairRow {
    int index = 0;
    double theta = 0.0;             // theta_i = rope_theta^(-2i / rotary_dim), the trained frequency
    double wavelength = 0.0;        // 2 pi / theta_i, in tokens
    double scaled_theta = 0.0;      // theta'_i after the scaling
    double scaled_wavelength = 0.0; // 2 pi / theta'_i
    double ratio = 0.0;             // theta'_i / theta_i (1: kept, 1 / factor: interpolated)
    PairRegime regime = PairRegime::Kept;
    // Largest angle pair i reaches in training, positions 0 .. L_train - 1: (L_train - 1) * theta_i.
    double trained_max_angle = 0.0;
    // Largest angle at the target length with the scaled frequency: (L_target - 1) * theta'_i.
    double target_max_angle = 0.0;
    // Full turns over the context: L_train * theta_i / (2 pi) and L_target * theta'_i / (2 pi).
    double trained_rotations = 0.0;
    double target_rotations = 0.0;
    // YaRN only: HF's linear_ramp_factor of the pair (0 kept, 1 interpolated); NaN for other types.
    double ramp = 0.0;
    // True when the target context rotates this pair to angles it never reached in training:
    //   trained_max_angle < 2 pi  and  target_max_angle >= trained_length * theta_i.
    // Why the first condition: a pair whose angle passes 2 pi during training has already seen every
    // rotation (angles act modulo 2 pi), so a larger angle at the target repeats a phase it knows. A
    // pair that completes less than one turn in training has seen only [0, trained_max_angle]; if the
    // target reaches further, the angles beyond are new to it. These are the low-frequency pairs that
    // position interpolation, YaRN and Llama 3 shrink (YaRN, Peng et al. 2023, section 3.2, interpolates
    // exactly the pairs whose wavelength is at least the trained context, r = L / lambda < 1).
    // Why L_train * theta_i and not trained_max_angle = (L_train - 1) theta_i: position interpolation
    // (Chen et al. 2023, arXiv:2306.15595: f'(x, m) = f(x, m L / L')) maps [0, L') into the trained interval
    // [0, L), so at exactly target = factor * L its last position lands at L - 1/factor, a fraction of one
    // step past L - 1. Counting that as "unseen" would flag PI itself; the threshold is therefore the angle
    // of the first position past the trained window, L theta_i (one position step of slack). Unscaled
    // RoPE flags its slow pairs as soon as target > L_train, i.e. a position >= L_train occurs.
    // Relative to pre-training at trained_length; fine-tuning at the target length is not modelled.
    bool unseen_rotation = false;
};

// A maximal run of consecutive pairs with the same regime, e.g. "pairs 0-28 kept (lambda <= 1956)".
// Wavelengths are the original (unscaled) wavelengths 2 pi / theta_i of the first and last pair of the
// run, because YaRN's and Llama 3's thresholds are stated on them.
struct RegimeBoundary {
    int first_pair = 0;
    int last_pair = 0;
    PairRegime regime = PairRegime::Kept;
    double wavelength_first = 0.0;
    double wavelength_last = 0.0;
};

struct RopePairsTable {
    RopeFrequencies
        frequencies; // as computed (seq_len = target_length for dynamic / longrope, see rope_pairs)
    std::int64_t trained_length = 0;
    std::int64_t target_length = 0;
    std::vector<RopePairRow> rows;          // one per pair, index order
    std::vector<RegimeBoundary> boundaries; // covers 0 .. pairs - 1 in order
};

// The context length the scaling of p aims at, when the user gives none. With L = p.trained_length(),
// s = p.factor, M = p.max_position_embeddings:
//   default type                        : M
//   scaled types, original length set   : M when M > L, the context the config extends to
//                                         (Llama 3.1: 131072 from 8192 x 8; Gemma 3: 131072 from
//                                         32768 x 8), else round(L * s) (Qwen2.5: 32768 x 4 = 131072)
//   scaled types, original length unset : round(L * s)            (L = M then)
// then at least L (a default type with an original length above M: L), clamped to kMaxSeqLen
// (validation.h). validate(p) first (ParameterError). This is the one target length of the views
// (spectrum, curves, the length dynamic NTK / LongRoPE use there), `compute rope-pairs` and the
// explorer's scaled models (an unscaled model's explorer target is round(L * factor), the extension it
// explores: rope_extension_target_length).
std::int64_t rope_default_target_length(const RopeParams& p);

// True when p's trained length is a guess: linear or static NTK scaling (factor != 1) without
// original_max_position_embeddings. Those scalings read only the factor, so max_position_embeddings M may
// be the trained context (extended to M * factor) or already the extended one (Gemma 3: trained M /
// factor); trained_length() then takes M, and the views say so (the user sets the original length).
bool trained_length_ambiguous(const RopeParams& p);

// The target length a comparison of scalings of p aims at (the context-extension explorer): for a
// scaled p, rope_default_target_length(p); for rope_type default, round(L * factor) (factor >= 1), the
// length an extension by `factor` reaches; at least L, clamped to kMaxSeqLen. validate(p) and factor in
// [1, 1e6] (ParameterError "factor").
std::int64_t rope_extension_target_length(const RopeParams& p, double factor);

// The scaling factor that stretches the trained context L = trained_length to the target T =
// target_length: T / L, at least 1 (a target inside the trained context needs no scaling) and at most
// 1e6 (the largest factor validate accepts). The factor the explorer gives the methods that follow its
// target (PI, NTK-aware, dynamic NTK, YaRN, Llama 3: each reads "factor" as the context multiple it
// reaches). Lengths in [1, kMaxSeqLen] (ParameterError "trained_length" / "target_length").
double extension_factor(std::int64_t trained_length, std::int64_t target_length);

// The per-pair table of p. trained_length 0 means p.trained_length(); target_length 0 means
// rope_default_target_length(p). Both in [1, kMaxSeqLen] after that (ParameterError "trained_length" /
// "target_length"). As in rope_spectrum, when p.seq_len is 0 the current length is taken to be
// target_length, which is what dynamic NTK and LongRoPE (short / long factor) depend on.
// Rows: theta = frequencies.inv_freq_original, scaled_theta = frequencies.inv_freq, regime and ramp from
// RopeFrequencies; angles and unseen_rotation as documented in RopePairRow.
RopePairsTable rope_pairs(const RopeParams& p, std::int64_t trained_length = 0,
                          std::int64_t target_length = 0);

// The same table from frequencies already computed (the one place that forms the rows: rope_pairs and
// yarn_llamacpp_pairs call it). f must have inv_freq_original, inv_freq and regime of one size, ramp
// empty or of that size (std::invalid_argument otherwise); lengths in [1, kMaxSeqLen] (ParameterError
// "trained_length" / "target_length"). Rows as documented in RopePairRow, boundaries from
// regime_boundaries(f); f is moved into the table's `frequencies`.
RopePairsTable rope_pairs_from_frequencies(RopeFrequencies f, std::int64_t trained_length,
                                           std::int64_t target_length);

// llama.cpp's YaRN (compute_yarn_llamacpp, rope_scaling.h: ggml_rope_yarn_corr_dims and rope_yarn of
// ggml-cpu) as a per-pair table. Lengths as in rope_pairs (0: p.trained_length(), resp.
// rope_default_target_length(p)); validate(p) first. The rows differ from rope_pairs(p) where llama.cpp's
// ramp differs from HF's (always floored / ceiled correction range, max(0.001, high - low) divisor), and
// frequencies.attention_factor is llama.cpp's attn_factor * (1 + 0.1 ln s).
RopePairsTable yarn_llamacpp_pairs(const RopeParams& p, std::int64_t trained_length = 0,
                                   std::int64_t target_length = 0);

// Maximal runs of equal regime in f.regime, with original wavelengths (see RegimeBoundary).
std::vector<RegimeBoundary> regime_boundaries(const RopeFrequencies& f);

// YaRN's per-pair view (Peng et al. 2023, arXiv:2309.00071, section 3.2, eq. (17)-(18)):
//   r_i = L / lambda_i, the number of full turns pair i makes over the original context L
//   (L = p.trained_length(), lambda_i = 2 pi / theta_i the original wavelength);
//   gamma(r) = 0 if r < alpha, 1 if r > beta, (r - alpha) / (beta - alpha) otherwise;
//   h(theta_i) = (1 - gamma(r_i)) theta_i / s + gamma(r_i) theta_i.
// So in the paper gamma = 1 KEEPS the frequency (fast pairs, r > beta) and gamma = 0 interpolates it
// (slow pairs, r < alpha). Mapping to HF (_compute_yarn_parameters): HF's linear_ramp_factor is the
// opposite, 0 keeps and 1 interpolates, and it is linear in the PAIR INDEX between low =
// find_correction_dim(beta_fast) (the index where r = beta) and high = find_correction_dim(beta_slow)
// (where r = alpha), floored / ceiled when truncate; since ln r_i is linear in i, HF's ramp is linear in
// ln r, not in r. At the ends the two agree: HF ramp 0 <=> r >= beta (up to the floor), HF ramp 1 <=>
// r <= alpha (up to the ceil). alpha is beta_slow and beta is beta_fast in HF's names. Computed for any
// rope_type from p.beta_fast / p.beta_slow; validate(p) first.
struct YarnThresholds {
    double alpha = 1.0;        // beta_slow
    double beta = 32.0;        // beta_fast
    double context = 0.0;      // L, the original context length used for r
    std::vector<double> r;     // r_i = L / lambda_i per pair
    std::vector<double> gamma; // the paper's gamma(r_i) per pair (1 = kept)
};
YarnThresholds yarn_thresholds(const RopeParams& p);

// Attention temperatures of the scalings, for s = the scaling factor (p.factor; for rope_type longrope
// the factor its rule uses, max_position_embeddings / original_max_position_embeddings when the
// original length is set). Every formula gives 1 for s <= 1.
struct TemperatureInfo {
    double factor = 1.0; // s
    // YaRN eq. (22)-(23) (Peng et al. 2023): sqrt(1 / t) = 0.1 ln s + 1; q and k are both multiplied by
    // it, so logits by 1 / t. HF get_mscale(s).
    double yarn_sqrt_inv_t = 1.0;
    // DeepSeek-V2 (HF _compute_yarn_parameters): get_mscale(s, mscale) / get_mscale(s, mscale_all_dim),
    // get_mscale(s, m) = 0.1 m ln s + 1. NaN unless p.mscale and p.mscale_all_dim are both set and
    // non-zero (the condition under which HF uses it).
    double deepseek_mscale_ratio = 0.0;
    // LongRoPE / Phi-3 (HF _compute_longrope_parameters): sqrt(1 + ln s / ln L), L = p.trained_length().
    double longrope_factor = 1.0;
    // llama.cpp's YaRN kernel (rope_yarn): attn_factor * (1 + 0.1 ln s), attn_factor =
    // p.attention_factor or 1 (see compute_yarn_llamacpp).
    double llamacpp_yarn = 1.0;
    // What HF applies for p: compute_rope_frequencies(p).attention_factor (multiplies cos and sin).
    double used = 1.0;
    // DeepSeek's attention (p.softmax_mscale, yarn): get_mscale(s, mscale_all_dim)^2 multiplies the softmax
    // scale (transformers DeepseekV3Attention.__init__); NaN when p does not set it.
    double deepseek_softmax = 0.0;
    // What p's model multiplies the rotary part of q.k / sqrt(d) by: used^2 * softmax_scale, with
    // softmax_scale = compute_rope_frequencies(p).softmax_scale (RopeFrequencies::logit_multiplier).
    // DeepSeek-V3 (factor 40, mscale = mscale_all_dim = 1): used = 1, logit_multiplier = 1.8739.
    double softmax_scale = 1.0;
    double logit_multiplier = 1.0;
};
TemperatureInfo attention_temperature(const RopeParams& p);

// One scaling in a comparison.
struct ScalingVariant {
    std::string label;
    RopeParams params;
};

// rope_pairs of every variant at the same lengths (0: each variant's default, see rope_pairs; pass
// explicit lengths to put all variants on shared axes).
std::vector<RopePairsTable> compare_scalings(const std::vector<ScalingVariant>& variants,
                                             std::int64_t trained_length = 0, std::int64_t target_length = 0);

// The standard context extensions of one model, built from its base configuration only (head_dim,
// rope_theta, partial_rotary_factor, pairing and the trained length L = model.trained_length()), all
// with scaling factor `factor` (>= 1) aiming at `target_length` (in [1, kMaxSeqLen]):
//   "Default (unscaled)"  rope_type default, the reference the others change;
//   "PI (linear)"         linear, factor;
//   "NTK-aware"           ntk (static), factor;
//   "Dynamic NTK"         dynamic_ntk_params(model, factor) with seq_len = target_length: the model's own
//                         max_position_embeddings M, from which HF scales (for a model whose M is already
//                         the extended length, e.g. Llama 3.1 or DeepSeek-V3, nothing changes up to M);
//   "YaRN"                yarn, factor, beta_fast 32, beta_slow 1, truncate, default mscale
//                         (no mscale / mscale_all_dim / attention_factor), original = L;
//   "Llama 3"             llama3, factor, low_freq_factor 1, high_freq_factor 4, original = L;
//   "LongRoPE"            only when model.rope_type is longrope with both factor lists: the model's own
//                         configuration (its lists are tuned for its own factor) with seq_len =
//                         target_length.
// Except for dynamic and LongRoPE: max_position_embeddings = target_length,
// original_max_position_embeddings = L. validate(model) first (ParameterError).
std::vector<ScalingVariant> standard_variants(const RopeParams& model, double factor,
                                              std::int64_t target_length);

// The model's configuration read as dynamic NTK with scaling factor `factor`: what transformers computes
// when the model's config.json says rope_scaling {"rope_type": "dynamic", "factor": factor}, and what
// `posatlas compute rope-frequencies --config <model> --rope-type dynamic --factor <factor>` computes. Base
// fields (head_dim, rope_theta, partial_rotary_factor, pairing), max_position_embeddings and
// original_max_position_embeddings are the model's; every other scaling field takes its default. The
// frequencies depend on M = max_position_embeddings only: HF's _compute_dynamic_ntk_parameters reads
// config.max_position_embeddings, in v4.4x and in v5, never the original length (rope_scaling.h); the
// original length is kept as the trained length the views show. seq_len = 0 (compute_rope_frequencies
// then uses M). The one
// definition of the explorer's dynamic NTK (its variants and its probe). validate(model) first; factor in
// [1, 1e6] (ParameterError "factor").
RopeParams dynamic_ntk_params(const RopeParams& model, double factor);

// The positional part of the attention score against relative distance r:
//   score(r) = rope_relative_score(f, q, k, r) / sqrt(head_dim)   with q = k = the all-ones vector of
// head_dim components. With all-ones content every pair contributes 2 a^2 cos(r theta_i) in either
// pairing (the sine terms vanish), so score(r) = c (2 a^2 sum_i cos(r theta_i) + (head_dim - rotary_dim))
// / sqrt(head_dim), a = f.attention_factor, c = f.softmax_scale (DeepSeek's, else 1): what content-free
// queries and keys see of position alone, including the scaling's temperature. head_dim in [f.rotary_dim,
// 8192] (ParameterError "head_dim"); distances finite with |r| <= kMaxDistance (ParameterError "distance").
// OpenMP over distances; cancel polled and progress reported between chunks on the calling thread.
std::vector<double> rope_score_vs_distance(const RopeFrequencies& f, int head_dim,
                                           const std::vector<double>& distances, const CancelFn& cancel = {},
                                           const ProgressFn& progress = {});

// The same for explicit q and k (head_dim = q.size() = k.size(), >= f.rotary_dim), in the given pairing:
//   score(r) = rope_relative_score(f, q, k, r, pairing) / sqrt(head_dim), via rope_pair_coefficients.
std::vector<double> rope_score_vs_distance(const RopeFrequencies& f,
                                           const Eigen::Ref<const Eigen::VectorXd>& q,
                                           const Eigen::Ref<const Eigen::VectorXd>& k, RopePairing pairing,
                                           const std::vector<double>& distances, const CancelFn& cancel = {},
                                           const ProgressFn& progress = {});

} // namespace posatlas
