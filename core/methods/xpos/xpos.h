// SPDX-License-Identifier: GPL-3.0-or-later
// xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer", eq. 4-5; reference: microsoft/torchscale
// torchscale/component/xpos_relative_position.py, class XPOS). RoPE with interleaved pairs (rotate_every_two)
// whose pair p is also scaled: the query at position n by zeta_p^(n / gamma), the key at m by
// zeta_p^(-m / gamma), with zeta_p = (2p + 0.4 d) / (1.4 d) and gamma = scale_base (512 in the reference).
// The logit of query i and key j therefore carries zeta_p^((i - j) / gamma) per pair: an exponential
// decay with distance on top of RoPE's rotation (zeta_p < 1; fastest decay for the fastest pairs).
//
//   logit(i, j) = sum_p zeta_p^(delta / gamma) [a_p cos(delta theta_p) - b_p sin(delta theta_p)] / sqrt(d),
//   delta = i - j, theta_p = base^(-2p / d), a_p = q_2p k_2p + q_2p+1 k_2p+1, b_p = q_2p+1 k_2p - q_2p
//   k_2p+1.
//
// The reference centres positions (min_pos = -(length) // 2) so that neither factor under- or overflows;
// the product depends on i - j only, which is how it is evaluated here (no overflow at any length with
// the mask). Without the mask the keys after the query carry zeta_p^(-(j - i) / gamma) > 1: those logits
// themselves leave double's range once (j - i) ln(1.4 / 0.4) / gamma > ~709 (gamma 512: j - i ~ 290000).
#pragma once

#include "methods/method.h"

#include <Eigen/Dense>
#include <cstdint>

namespace posatlas {

inline constexpr Method kXPos{"xpos"};

struct XposParams {
    static constexpr Method kMethod = kXPos;

    int head_dim = 64;         // even: every dimension is rotated
    double base = 10000.0;     // the reference's fixed_pos_embedding uses 10000
    double scale_base = 512.0; // gamma
    bool causal = true;        // the reference is a decoder: keys after the query are masked

    bool operator==(const XposParams&) const = default;
};

// zeta_p for p = 0 .. head_dim / 2 - 1.
Eigen::VectorXd xpos_zeta(const XposParams& p);
// theta_p = base^(-2p / d).
Eigen::VectorXd xpos_theta(const XposParams& p);
// The logit of query vector q at position i and key vector k at position j (before masking).
double xpos_logit(const XposParams& p, const Eigen::Ref<const Eigen::VectorXd>& q,
                  const Eigen::Ref<const Eigen::VectorXd>& k, std::int64_t i, std::int64_t j);

} // namespace posatlas
