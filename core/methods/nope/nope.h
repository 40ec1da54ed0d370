// SPDX-License-Identifier: GPL-3.0-or-later
// NoPE: no positional encoding at all (Kazemnejad et al. 2023, "The Impact of Positional Encoding on
// Length Generalization in Transformers"; Haviv et al. 2022, "Transformer Language Models without
// Positional Encodings Still Learn Positional Information"). The logit is the content term alone,
// q_i . k_j / sqrt(d); a causal mask is the only source of order a decoder has. That mask is the
// scenario's `causal` switch (Scenario::causal), the one that also masks the attention weights: NoPE has no
// switch of its own, so its logits and its weights cannot disagree. Sessions and lessons written when NoPE
// had its own "causal" key ("nope": {"causal": ...}) load it as the scenario's switch (scenario_json.h).
#pragma once

#include "methods/method.h"

namespace posatlas {

inline constexpr Method kNoPE{"nope"};

struct NopeParams {
    static constexpr Method kMethod = kNoPE;

    int head_dim = 64;

    bool operator==(const NopeParams&) const = default;
};

} // namespace posatlas
