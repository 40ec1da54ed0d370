// SPDX-License-Identifier: GPL-3.0-or-later
// Attention weights: the row-wise softmax of a method's attention logits (Vaswani et al. 2017, eq. 1:
// softmax(Q K^T / sqrt(d_k))). The logits are the method's own (attention_logits.h): they already carry
// the 1/sqrt(d) scale, and RoPE's attention factor (YaRN mscale, LongRoPE) squared, as Hugging Face
// multiplies cos and sin by attention_scaling (transformers modeling_rope_utils.py, e.g.
// _compute_yarn_parameters returning attention_factor; LlamaRotaryEmbedding.forward:
// cos = emb.cos() * self.attention_scaling, sin likewise), so q.k scales by factor^2.
//
// A weight is normalised over all keys of its query, so a sampled cell needs its whole row. Exact rows
// for the sampled query rows only: each sampled query row i gets the logits of all N keys (O(N d)), the
// softmax over them, and then the sampled columns are picked from the exact row. Nothing is
// approximated; downsampling is point sampling (a weight of the full matrix at each output cell).
// The mask is the scenario's `causal` (bidirectional unless set): a method's own Bool field "causal"
// (NoPE, xPos) is set to it for the logits the weights use, so that NoPE's weights are bidirectional
// unless asked. The scenario's sliding window or chunks (Scenario::window) narrow the causal mask
// (mask_allows). Masked keys (j > i when causal, outside the window or chunk, and logits the method leaves
// NaN: a method causal by construction such as CoPE or ALiBi's causal bias, or a position without a learned
// embedding) get weight exactly 0; each row of the full matrix sums to 1 over its unmasked keys. A row with
// no unmasked key is NaN. With Llama 4's attention temperature (Scenario::attn_temperature_tuning, NoPE and
// RoPE) row i's logits are multiplied by logit_temperature(s, i) before the softmax.
#pragma once

#include "compute/matrix_job.h"

#include <cstdint>
#include <functional>

namespace posatlas {

// Largest seq_len for which weights are computed (the rows are exact, of N logits each).
inline constexpr std::int64_t kMaxWeightsSeqLen = 16384;
// Most logits one weights request computes (sampled query rows x N).
inline constexpr std::int64_t kMaxWeightsLogits = std::int64_t{1} << 26;

// The scenario whose logits the weights use: s with the method's own Bool field "causal" (NoPE, xPos),
// if it has one, set to s.causal.
Scenario weights_logits_scenario(const Scenario& s);

// Fills job.out.values with the weights of job's sampled cells, from the method's logits kernel.
// Throws ParameterError("seq_len", ...) when N > kMaxWeightsSeqLen or rows x N > kMaxWeightsLogits.
void attention_weights(MatrixJob& job, const std::function<void(MatrixJob&)>& logits);

} // namespace posatlas
