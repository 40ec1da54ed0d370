// SPDX-License-Identifier: GPL-3.0-or-later
// Fields and kinds that several methods share in meaning (a seeded stand-in table's seed and spread, a
// head dimension, the logits), written once so that their ranges, labels and keys agree.
#pragma once

#include "io/number_text.h"
#include "methods/field_binding.h"
#include "scenario/content.h"

namespace posatlas {

template <typename P> Field seed_field(std::uint64_t P::*member, const char* label, const char* tooltip)
{
    return make_field("seed", FieldType::Seed, member,
                      {.lo = 0, .hi = kExactIntegerLimit, .label = label, .tooltip = tooltip});
}

// initializer_range of Hugging Face configs: the spread of a seeded N(0, sigma) stand-in table.
template <typename P> Field initializer_range_field(double P::*member)
{
    return make_field(
        "initializer_range", FieldType::Real, member,
        {.lo = 1e-6,
         .hi = 1e3,
         .log_scale = true,
         .decimals = 4,
         .step = 0.001,
         .label = QT_TRANSLATE_NOOP("ParamSpec", "Initializer σ"),
         .tooltip = QT_TRANSLATE_NOOP(
             "ParamSpec",
             "Standard deviation of the seeded stand-in table (initializer_range, 0.02 in BERT and GPT-2)."),
         .aliases = {"stddev"}});
}

// The head dimension of methods whose queries and keys may have any width (not rotated in pairs).
template <typename P> Field head_dim_field(int P::*member, const char* tooltip)
{
    return make_field("head_dim", FieldType::Int, member,
                      {.lo = 1,
                       .hi = 4096,
                       .log_scale = true,
                       .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                       .tooltip = tooltip});
}

// Block-mean predicate of kinds whose kernel always gives exact block means.
inline bool always_block_means(const Scenario&)
{
    return true;
}

// Block-mean predicate of kernels that are exact only when the logit is a function of i - j: relative
// methods whose positional term pairs each query with a vector of i - j, with position-independent content.
inline bool block_means_with_constant_content(const Scenario& s)
{
    return content_is_position_independent(s.content);
}

// The Logits kind, whose label and colour-bar quantity every method shares.
inline MatrixKindSpec logits_kind(std::function<void(MatrixJob&)> compute,
                                  std::function<bool(const Scenario&)> block_means)
{
    return {MatrixKind::Logits, QT_TRANSLATE_NOOP("MatrixKind", "logits"),
            QT_TRANSLATE_NOOP("MatrixLabel", "logit"), std::move(compute), std::move(block_means)};
}

} // namespace posatlas
