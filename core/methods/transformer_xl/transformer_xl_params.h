// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of Transformer-XL / XLNet relative positions: one plain struct, its fields named after the
// Hugging Face config keys where one exists. Ranges, labels and command-line options are the method's
// registry fields (transformer_xl/ beside this file); a Scenario keeps one of these
// (s.params<TransformerXLParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string>

namespace posatlas {

struct TransformerXLParams {
    static constexpr Method kMethod = Method::TransformerXL;

    int head_dim = 64; // d of the sinusoid R_{i-j}
    double base = 10000.0;
    std::uint64_t seed = 0; // seeded projections W_{k,R} and biases u, v
    double stddev = 0.02;
    // Which of the four terms of Dai et al. eq. (3) enter the logit.
    bool term_a = true; // content x content      q_i W_q^T W_{k,E} x_j
    bool term_b = true; // content x position     q_i W_q^T W_{k,R} R_{i-j}
    bool term_c = true; // global content bias    u^T W_{k,E} x_j
    bool term_d = true; // global position bias   v^T W_{k,R} R_{i-j}
    // Trained tables from files (methods/table_files.h), each replacing its stand-in; "" = seeded.
    std::string r_net, r_net_tensor;       // W_{k,R}: head_dim x e, e (even) the dimension of R_{i-j}
    std::string r_w_bias, r_w_bias_tensor; // u: head_dim values
    std::string r_r_bias, r_r_bias_tensor; // v: head_dim values

    bool operator==(const TransformerXLParams&) const = default;
};

} // namespace posatlas
