// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of ALiBi: one plain struct, its fields named after the Hugging Face config
// keys where one exists. Ranges, labels and command-line options are the method's registry fields
// (alibi/ beside this file); a Scenario keeps one of these (s.params<AlibiParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <vector>

namespace posatlas {

enum class AlibiBias {
    Causal,    // -m (i - j) for j <= i (Press et al.)
    Symmetric, // -m |i - j| (bidirectional encoders, e.g. MPT with alibi and prefix-lm)
};
enum class AlibiScaling {
    None,
    Interpolate, // m' = m * L_train / L_target (Al-Khateeb et al. 2023, "Position Interpolation Improves
                 // ALiBi Extrapolation")
    Ntk,         // NTK-ALiBi (see alibi.h for the formula and its source)
};
struct AlibiParams {
    static constexpr Method kMethod = Method::ALiBi;

    int num_heads = 8;
    double slope_scale = 1.0; // multiplies every slope (exploration knob; 1 = reference)
    AlibiBias bias = AlibiBias::Causal;
    AlibiScaling scaling = AlibiScaling::None;
    std::int64_t trained_length = 2048; // for Interpolate / Ntk
    std::int64_t target_length = 2048;  // for Interpolate / Ntk
    // Per-head slopes m_h chosen by the user for heads 0 .. size-1 (the later heads keep the paper's);
    // empty: every head has the paper's slope. At most num_heads entries. The scaling and slope_scale
    // apply to them as to the paper's (alibi.h).
    std::vector<double> slopes;

    bool operator==(const AlibiParams&) const = default;
};

} // namespace posatlas
