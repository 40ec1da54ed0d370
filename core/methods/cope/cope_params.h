// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of CoPE: one plain struct, its fields named after the Hugging Face config
// keys where one exists. Ranges, labels and command-line options are the method's registry fields
// (cope/ beside this file); a Scenario keeps one of these (s.params<CopeParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string>

namespace posatlas {

struct CopeParams {
    static constexpr Method kMethod = Method::CoPE;

    int head_dim = 64;
    int npos_max = 64; // number of position embeddings e[0..npos_max-1]; positions clamp to npos_max - 1
    double gate_scale = 1.0; // multiplies q.k inside the sigmoid (teaching knob; 1 = reference)
    std::uint64_t seed = 0;  // seeded position embeddings
    double stddev = 0.02;
    std::string pos_emb, pos_emb_tensor; // trained e[r] from a file: npos_max x head_dim ("" = seeded)

    bool operator==(const CopeParams&) const = default;
};

} // namespace posatlas
