// SPDX-License-Identifier: GPL-3.0-or-later
// Fields that several methods share in meaning (a seeded stand-in table's seed and spread), written
// once so that their ranges, labels and keys agree.
#pragma once

#include "field_binding.h"

namespace posatlas {

inline constexpr double kSeedFieldMax = 9007199254740992.0; // 2^53

template <typename P>
Field seed_field(std::uint64_t P::*member, const char* label, const char* tooltip)
{
    return make_field("seed", FieldType::Seed, member,
                      {.lo = 0, .hi = kSeedFieldMax, .label = label, .tooltip = tooltip});
}

// initializer_range of Hugging Face configs: the spread of a seeded N(0, sigma) stand-in table.
template <typename P>
Field initializer_range_field(double P::*member)
{
    return make_field("initializer_range", FieldType::Real, member,
                      {.lo = 1e-6, .hi = 1e3, .log_scale = true, .decimals = 4, .step = 0.001,
                       .label = QT_TRANSLATE_NOOP("ParamSpec", "Initializer σ"),
                       .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Standard deviation of the seeded stand-in table (initializer_range, 0.02 in BERT and GPT-2)."),
                       .aliases = {"stddev"}});
}

} // namespace posatlas
