// SPDX-License-Identifier: GPL-3.0-or-later
// Weighted sums of sinusoids at many integer positions:
//   out[r] = sum_k ws[k] sin(p_r w_k) + wc[k] cos(p_r w_k),   p_r = positions[r].
// What a sinusoidal query against many keys (a . p_j) and Transformer-XL's relative term for every
// offset (g . W_{k,R} R_delta) reduce to. Runs of consecutive positions advance every sinusoid by
// rotation, restarted from exact angles (exact_angle.h) every kSinusoidRun positions and after any
// jump: one complex product per term and position instead of a sine and a cosine (~1 ns against
// ~20 ns). Eight consecutive positions are the eight lanes of one vector per term, each advanced by
// 8 w_k at once (the lanes start one rotation apart), so neither a horizontal sum per position nor one
// chain of dependent rotations limits the loop: at most 7 + 256 roundings per angle, within ~3e-14
// relative of the exact-angle sums. Parallel (OpenMP) over chunks of kSinusoidRun positions when there
// are more (a call with at most that many starts no OpenMP team); the lane loops vectorised for SSE2,
// AVX2 and AVX-512 (clones.h).
#pragma once

#include <cstdint>
#include <vector>

namespace posatlas {

inline constexpr std::int64_t kSinusoidRun = 2048; // positions between exact restarts; chunks of this many
inline constexpr std::size_t kSinusoidLanes = 8;

// The kernel: count consecutive positions from lanes lc, ls (n terms x kSinusoidLanes: cos and sin of
// the angles at positions p .. p + 7, term-major), each term advanced by (step_c, step_s) = e^{8 i w_k}
// (or any complex step: xPos's decaying z^8) per block of eight; out[t] = sum_k ws[k] s_k + wc[k] c_k.
// Lanes past count are advanced too (not written). Compiled for SSE2, AVX2 + FMA and AVX-512.
void lane_rotation_sums(std::size_t n, std::int64_t count, const double* ws, const double* wc, const double* step_c,
                        const double* step_s, double* lc, double* ls, double* out);

// Lane j of one term (j = 0 .. kSinusoidLanes - 1) from the term's value (c, s) at the first position:
// (c, s) rotated j times by (step_c, step_s), the start of lane_rotation_sums after an exact restart.
inline void start_lanes(double c, double s, double step_c, double step_s, double* lc, double* ls)
{
    for (std::size_t j = 0; j < kSinusoidLanes; ++j) {
        lc[j] = c;
        ls[j] = s;
        const double next = c * step_c - s * step_s;
        s = s * step_c + c * step_s;
        c = next;
    }
}

// w, ws, wc: the same number of terms (std::invalid_argument otherwise).
std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions);

// The same sums at the consecutive positions first .. first + count - 1, into out, on the calling
// thread (no OpenMP team): for callers that are parallel over ranges themselves (a curve's chunks).
void sinusoid_sums_range(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc,
                         std::int64_t first, std::int64_t count, double* out);

} // namespace posatlas
