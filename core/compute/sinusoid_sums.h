// SPDX-License-Identifier: GPL-3.0-or-later
// Weighted sums of sinusoids at many integer positions:
//   out[r] = sum_k ws[k] sin(p_r w_k) + wc[k] cos(p_r w_k),   p_r = positions[r].
// What a sinusoidal query against many keys (a . p_j) and Transformer-XL's relative term for every
// offset (g . W_{k,R} R_delta) reduce to. Runs of consecutive positions advance every sinusoid by one
// rotation, restarted from exact angles (exact_angle.h) every 256 positions and after any jump: one
// complex product per term and position instead of a sine and a cosine (~1 ns against ~20 ns), within
// ~3e-14 relative of the exact-angle sums. Parallel (OpenMP), the term loop vectorised for SSE2, AVX2
// and AVX-512 (clones.h).
#pragma once

#include <cstdint>
#include <vector>

namespace posatlas {

// w, ws, wc: the same number of terms (std::invalid_argument otherwise).
std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions);

} // namespace posatlas
