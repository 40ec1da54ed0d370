// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi, Press, Smith, Lewis 2022, "Train Short, Test Long: Attention with Linear Biases Enables
// Input Length Extrapolation" (ICLR): logit_ij = q_i . k_j - m_h (i - j), one fixed slope per head.
//
// Slopes: ofirpress/attention_with_linear_biases, fairseq/models/transformer.py::get_slopes:
//   n a power of two:  m_h = start^h, h = 1..n, start = 2^(-2^-(log2(n) - 3)) = 2^(-8/n)
//   otherwise:         c = 2^floor(log2 n); the c slopes of get_slopes(c), followed by the first
//                      n - c entries of every other slope (indices 0, 2, 4, ...) of get_slopes(2c).
// We evaluate the closed form 2^(-8h/c) of each geometric run (exact for the powers of two it
// usually is), which the reference's start * start^i reaches only up to ~c/2 ulp of rounding.
// HF BLOOM's modeling_bloom.py::build_alibi_tensor computes the same list (base^1..c, then
// extra_base^(1, 3, 5, ...)), in float32.
//
// Scalings for a context longer than the trained one (a = target_length / trained_length >= 1):
//  Interpolate: m'_h = m_h / a, i.e. positions scaled by L_train / L_target: linear position
//    interpolation for ALiBi, Al-Khateeb, Dey, Soboleva, Hestness 2023, "Position Interpolation
//    Improves ALiBi Extrapolation" (arXiv 2310.13017); the same rule is the "internal interpolation"
//    of keezen/ntk_alibi.
//  Ntk: NTK-ALiBi, keezen/ntk_alibi (GitHub, readme.md / readme_en.md, 2023; a community write-up,
//    not a paper), modelled on NTK-aware RoPE ("high-frequency extrapolation, low-frequency
//    interpolation", Su, kexue.fm/archives/9675):
//      m'_h = 1 / (2^(8h/H) * a^((h-1)/(H-1))) = m_h / a^((h-1)/(H-1)),   h = 1..H,
//    so the steepest head (h = 1) keeps its slope and the flattest (h = H) is divided by a. Its
//    reference code (a modified BLOOM build_alibi_tensor) computes scale = a^(1/(num_heads-1)),
//    slopes = (base/scale)^h * scale for the c = closest-power-of-two heads and leaves the extra heads
//    of a non-power-of-two count unchanged ("todo: fix ntk-alibi when num_heads is not power of 2");
//    we do exactly that. For H = 1 the exponent 0/0 is taken as 0 (the slope is unchanged), where the
//    reference code would divide by zero.
// Per-head slopes (params.slopes, a teaching knob: "what if head 3 looked further?") replace the
// paper's m_h of the first heads before the scaling, which then treats them as it treats the paper's.
// slope_scale then multiplies every slope (an exploration knob; 1 reproduces the reference).
#pragma once

#include "scenario/params.h"

#include <cstdint>
#include <vector>

namespace posatlas {

// get_slopes(num_heads) of the reference code, in double. num_heads in [1, 1024] (ParameterError
// "num_heads" otherwise).
std::vector<double> alibi_slopes(int num_heads);

// alibi_slopes(num_heads), the first heads replaced by params.slopes, with params.scaling applied,
// times params.slope_scale (see the header).
std::vector<double> alibi_scaled_slopes(const AlibiParams& params);

// The bias added to the logit of query i and key j:
//  Causal:    -slope * (i - j). Defined for every (i, j); for j > i it is the positive value
//             slope * (j - i): the causal mask, not this function, removes the future (the caller
//             adds -infinity there), so the value is still meaningful for drawing.
//  Symmetric: -slope * |i - j| (bidirectional use, e.g. encoders).
double alibi_bias(double slope, std::int64_t i, std::int64_t j, AlibiBias mode);

} // namespace posatlas
