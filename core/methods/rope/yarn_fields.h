// SPDX-License-Identifier: GPL-3.0-or-later
// YaRN's ramp (β fast, β slow) and its attention-temperature numerator (mscale) as registry fields of any
// parameter set that holds them: RoPE's (rope_method.cpp) and MLA's rotary part (mla_method.cpp) declare
// them once, here, with the same keys, ranges and texts. `shown`: when the panel shows them (YaRN).
#pragma once

#include "methods/field_binding.h"
#include "methods/method.h"

#include <functional>
#include <vector>

namespace posatlas {

template <typename P> std::vector<Field> yarn_ramp_fields(const std::function<bool(const Scenario&)>& shown)
{
    return {
        make_field("beta_fast", FieldType::Real, &P::beta_fast,
                   {.lo = 0,
                    .hi = 1e6,
                    .lo_open = true,
                    .log_scale = true,
                    .decimals = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "β fast"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "rotations"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "YaRN: pairs that complete more than β_fast rotations over "
                                                 "the trained context are left unscaled (extrapolated)."),
                    .shown = shown}),
        make_field("beta_slow", FieldType::Real, &P::beta_slow,
                   {.lo = 0,
                    .hi = 1e6,
                    .lo_open = true,
                    .log_scale = true,
                    .decimals = 2,
                    .step = 0.1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "β slow"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "rotations"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "YaRN: pairs that complete fewer than β_slow rotations are "
                                                 "fully interpolated (divided by the factor)."),
                    .shown = shown}),
        make_field("mscale", FieldType::OptionalReal, &P::mscale,
                   {.lo = 0,
                    .hi = 1e3,
                    .lo_open = true,
                    .decimals = 3,
                    .step = 0.1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "mscale"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "YaRN (DeepSeek): numerator coefficient of the attention temperature "
                                     "0.1·mscale·ln(s) + 1 (unset: the default formula)."),
                    .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "unset"),
                    .shown = shown}),
    };
}

} // namespace posatlas
