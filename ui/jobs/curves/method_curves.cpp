// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/curves/method_curves.h"

#include <utility>

namespace posatlas::ui {

CurveBuilder method_curve_builder(Method m)
{
    // One line per method with curves of its own; the others are drawn as their logits.
    static const std::pair<Method, CurveBuilder> table[] = {
        {Method::RoPE, rope_curves},
        {Method::ALiBi, alibi_curves},
        {Method::T5, t5_curves},
        {Method::DeBERTa, deberta_curves},
    };
    for (const auto& [method, builder] : table)
        if (method == m)
            return builder;
    return nullptr;
}

} // namespace posatlas::ui
