// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of sinusoidal encoding (Vaswani et al. 2017): one plain struct, its fields named after the
// Hugging Face config keys where one exists. Ranges, labels and command-line options are the method's
// registry fields (sinusoidal/ beside this file); a Scenario keeps one of these
// (s.params<SinusoidalParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>

namespace posatlas {

enum class SinusoidalLayout {
    Interleaved, // PE[p, 2i] = sin, PE[p, 2i+1] = cos (Vaswani et al.; Annotated Transformer)
    Split,       // [sin ... | cos ...] halves (tensor2tensor get_timing_signal_1d)
};
struct SinusoidalParams {
    static constexpr Method kMethod = Method::Sinusoidal;

    int dim = 512;         // d_model; even, >= 2
    double base = 10000.0; // the 10000 of the paper; > 1
    SinusoidalLayout layout = SinusoidalLayout::Interleaved;

    bool operator==(const SinusoidalParams&) const = default;
};

} // namespace posatlas
