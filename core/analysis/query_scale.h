// SPDX-License-Identifier: GPL-3.0-or-later
// Length-dependent logit scales: the query at 0-based position p is multiplied by m(p) before its dot
// products with the keys (after RoPE), so every logit of that query is multiplied by m(p). Two models
// do this to keep attention from spreading out past the trained length:
//
//   Qwen's log-n scaling (Qwen-7B / Qwen-14B modeling_qwen.py, QWenAttention, `use_logn_attn`):
//     logn_list[i - 1] = log(i, seq_length) if i > seq_length else 1 for i = 1, 2, ...; forward multiplies
//     the query at position p by logn_list[p] (logn_tensor[:, key_len - q_len : key_len]). So
//     m(p) = ln(p + 1) / ln L when p + 1 > L, else 1, with L = seq_length (the trained length). Applied at
//     inference only (`not self.training`).
//   Llama 4's attention temperature (transformers Llama4TextAttention.forward, `attn_temperature_tuning`,
//     on the NoPE layers only): attn_scales = log(floor((cache_position + 1) / floor_scale) + 1) *
//     attn_scale + 1, query_states *= attn_scales. So m(p) = ln(floor((p + 1) / floor_scale) + 1) *
//     attn_scale + 1; Llama4TextConfig's defaults are floor_scale 8192 and attn_scale 0.1.
//
// At the trained length both give 1 (log-n up to p + 1 = L; Llama 4 up to p + 1 = floor_scale - 1).
// Log-n at p + 1 = s L is 1 + ln s / ln L: the logit multiplier of LongRoPE's attention factor
// sqrt(1 + ln s / ln L) (squared, as it scales both q and k) at the factor s.
#pragma once

#include <cstdint>
#include <string_view>

namespace posatlas {

enum class QueryScaleKind {
    None,   // m(p) = 1
    LogN,   // Qwen's log-n scaling
    Llama4, // Llama 4's attention temperature
};

struct QueryScale {
    QueryScaleKind kind = QueryScaleKind::None;
    std::int64_t trained_length = 0; // LogN: L (seq_length), in [2, kMaxSeqLen]
    double floor_scale = 8192.0;     // Llama4: positive
    double attn_scale = 0.1;         // Llama4: in [0, 10]
    bool operator==(const QueryScale&) const = default;
};

// Qwen: ln(pos + 1) / ln L when pos + 1 > L, else 1.
double logn_query_scale(std::int64_t pos, std::int64_t trained_length);
// Llama 4's: scenario/attention_span.h query_temperature(floor_scale, attn_scale, pos), the one definition
// (the scenario's logits and a model's layers use it too).
// m(pos) of `s` (1 for QueryScaleKind::None).
double query_scale_at(const QueryScale& s, std::int64_t pos);

// ParameterError naming the field and its range: "trained_length" in [2, 10^7] for LogN; "floor_scale" in
// (0, 10^9] and "attn_scale" in [0, 10] for Llama4.
void validate(const QueryScale& s);

// Stable ids for files and the command line: "none", "logn", "llama4".
std::string_view query_scale_id(QueryScaleKind kind);
bool parse_query_scale_kind(std::string_view id, QueryScaleKind* out);

} // namespace posatlas
