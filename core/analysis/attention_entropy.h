// SPDX-License-Identifier: GPL-3.0-or-later
// Entropy of softmax attention against context length, with and without a RoPE scaling's attention
// temperature: the quantity behind YaRN's "0.1 ln s + 1" (Peng et al. 2023, arXiv:2309.00071,
// section 3.4: the temperature keeps attention from spreading out as the context grows) and LongRoPE's
// sqrt(1 + ln s / ln L) (Ding et al. 2024, arXiv:2402.13753).
//
// What is measured: the mean entropy of the LAST query's softmax attention over
// all keys 0 .. N - 1 (causal, itself included), exactly (every key, no sampling of keys or queries),
// averaged over seeded trials of the content. Two contents (EntropyContent):
//
// RepeatedToken: one token repeated, q = k_j = v for every position, v with N(0, 1) components drawn
// once per trial. Then (R(m) v).(R(j) v) = sum_i rho_i cos((m - j) theta_i) + |v_pass|^2 with
// rho_i = v_{i,1}^2 + v_{i,2}^2 the energy of pair i, so the logits are a pure function of the relative
// distance r = m - j: the softmax sees nothing but positions, and the entropy measures how far each set
// of frequencies spreads attention. Interpolating a pair (theta_i / s) stretches its part of the score
// over s times the distances, so PI, NTK-aware and Llama 3 give clearly different curves. It is the
// extreme of "queries and keys sharing a component": any shared component adds this term to the logits.
//
// RandomQK: independent random queries and keys. Read the curve with this in mind. With independent
// N(0, I) keys, R(j) k_j is again N(0, I) (a rotation
// is orthogonal), so for this content model the distribution of the entropy does not depend on the
// rotary frequencies at all, only on N, head_dim, rotary_dim and the logit multiplier; different
// scalings give different samples of the same distribution. Without positional structure the entropy
// grows like ln N: for iid Gaussian logits of variance sigma^2 and large N, E[H] ~= ln N - sigma^2 / 2
// (lognormal moments: ln Z ~= ln N + sigma^2 / 2, E_p[l] ~= sigma^2), with sigma^2 ~= |q|^2 / head_dim ~= 1
// here, and sigma^2 ~= (a^4 rotary_dim + head_dim - rotary_dim) / head_dim with the temperature a. The
// temperature therefore lowers the whole curve by about (a^4 - 1) rotary_dim / (2 head_dim) nats, which
// is the sharpening YaRN introduces to counter the ln N growth.
#pragma once

#include "analysis/query_scale.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace posatlas {

// Shannon entropy, in nats, of softmax(logits): H = -sum_j p_j ln p_j, p = softmax(logits), computed
// stably as H = ln S - T / S with m = max_j l_j, S = sum_j exp(l_j - m), T = sum_j exp(l_j - m)(l_j - m)
// (both terms non-negative, so no cancellation). All-equal logits give ln N; one logit gives 0.
// logits non-empty and finite (ParameterError "logits").
double softmax_entropy(const std::vector<double>& logits);

struct EntropyCurve {
    std::vector<std::int64_t> length;
    std::vector<double> entropy;                  // mean over trials, nats, temperature left out
    std::vector<double> entropy_with_temperature; // mean over trials, nats, temperature applied
    // Mean over trials, nats: the temperature applied AND every logit of the query at N - 1 multiplied by
    // query_scale_at(scale, N - 1) (query_scale.h: Qwen's log-n, Llama 4's attention temperature). Empty
    // when the scale is QueryScaleKind::None.
    std::vector<double> entropy_with_query_scale;
};

// For each N in `lengths` and each trial t = 0 .. trials - 1:
//   content: query q (head_dim components) and keys k_0 .. k_{N-1}, independent N(0, 1) components from
//     rng::normal (rng.h):  q_c   = rng::normal(seed, rng::kEntropyQuery + (t << 32), c),
//                           k_j,c = rng::normal(seed, rng::kEntropyKey   + (t << 32), j * head_dim + c).
//     Distinct streams per trial keep trials independent; key j does not depend on N, so all lengths
//     share their keys (common random numbers: the curve is smooth in N, and a length's keys are a
//     prefix of a longer length's).
//   frequencies: compute_rope_frequencies(p with seq_len = N) (the current length, which dynamic NTK and
//     LongRoPE use), attention factor a = its attention_factor, softmax multiplier c = its softmax_scale
//     (DeepSeek's get_mscale(s, mscale_all_dim)^2, else 1).
//   logits: l_j = (R(N-1) q) . (R(j) k_j) / sqrt(head_dim) with the scaled frequencies and p.pairing
//     (rope.h), WITHOUT a and c, for `entropy`; WITH them for `entropy_with_temperature`: as HF multiplies
//     cos and sin by attention_scaling, the rotary components of q and k are multiplied by a, i.e. the
//     rotary part of each logit by a^2; pass-through components of a partial rotary (index >= rotary_dim)
//     are not scaled (HF concatenates q_pass unchanged); c multiplies the whole logit, as DeepSeek's
//     attention multiplies its softmax scale (rope_scaling.h). So the rotary part is scaled by
//     f.logit_multiplier() = a^2 c.
//   H = softmax_entropy(l) (nats).
// Returns the mean of H over trials for each length, in the order of `lengths`.
// Cost O(N head_dim) per trial and length (generating the keys dominates); keys run OpenMP-parallel in
// fixed blocks merged in a fixed order, so the result is bitwise reproducible for a seed whatever the
// thread count. `cancel` is polled (Cancelled) and `progress` reported on the calling thread between
// chunks of keys (all trials of a chunk are computed together).
// Checks: validate(p); 1 to kMaxEntropyLengths lengths, each in [1, kMaxSeqLen] = [1, 10^7]
// (ParameterError "lengths");
// trials in [1, 1024] (ParameterError "trials").
EntropyCurve attention_entropy(const RopeParams& p, const std::vector<std::int64_t>& lengths,
                               std::uint64_t seed, int trials = 8, const CancelFn& cancel = {},
                               const ProgressFn& progress = {});

enum class EntropyContent {
    RandomQK,      // independent random q and k (attention_entropy above)
    RepeatedToken, // q = k_j = v, one random v per trial (see the top of this file)
};

// The frequencies at current length N; empty: compute_rope_frequencies(p with seq_len = N). The explorer
// passes llama.cpp's YaRN (compute_yarn_llamacpp) through it.
using FrequenciesAt = std::function<RopeFrequencies(std::int64_t n)>;

// attention_entropy for either content, with the frequencies from `frequencies` (same a, c and logit
// conventions as above; p gives head_dim, rotary_dim and pairing and, when `frequencies` is empty, the
// frequencies). RandomQK is exactly attention_entropy above. RepeatedToken:
//   v_c = rng::normal(seed, rng::kEntropyQuery + (t << 32), c), rho_i = v_first(i)^2 + v_second(i)^2
//     (rope.h pairing), P = sum of v_c^2 over the pass-through components c >= rotary_dim;
//   l(r) = (sum_i rho_i cos(r theta_i) + P) / sqrt(head_dim) for the key at distance r = 0 .. N - 1 from
//     the last query, WITHOUT a and c for `entropy`; c (a^2 sum_i rho_i cos(r theta_i) + P) / sqrt(head_dim)
//     for `entropy_with_temperature`. cos(r theta_i): exact cos and sin of r0 theta_i (angle formed in
//     double, rope.h) at every 64th distance r0, the rotation by theta_i in between (error ~1e-14, below
//     the rounding of the angle r theta_i itself once r exceeds a few hundred).
//   The query at N - 1 sees the distances 0 .. N - 1, so lengths whose frequencies are equal share one
//   pass over r (the entropy of a prefix); dynamic NTK and LongRoPE get one pass per distinct frequency set.
// Cost of RepeatedToken: O(N rotary_dim / 2) rotation steps (shared by the trials) per distinct frequency
// set, OpenMP over chunks of distances, accumulated in order: bitwise reproducible whatever the thread count.
// Same checks as attention_entropy; `frequencies` must give rotary_dim / 2 frequencies
// (ParameterError "frequencies").
EntropyCurve attention_entropy(const RopeParams& p, EntropyContent content, const FrequenciesAt& frequencies,
                               const std::vector<std::int64_t>& lengths, std::uint64_t seed, int trials = 8,
                               const CancelFn& cancel = {}, const ProgressFn& progress = {});
// The same, with `entropy_with_query_scale` filled for `scale` (validate(scale): ParameterError). The two
// other curves are those of the overload above, bit for bit. For RepeatedToken each length needs its own
// multiplier, so the prefix sums cannot be shared across lengths for that curve: an extra
// O(N trials) exponentials per length, no extra rotations.
EntropyCurve attention_entropy(const RopeParams& p, EntropyContent content, const FrequenciesAt& frequencies,
                               const std::vector<std::int64_t>& lengths, std::uint64_t seed, int trials,
                               const QueryScale& scale, const CancelFn& cancel = {},
                               const ProgressFn& progress = {});

} // namespace posatlas
