// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE's decay curves (decay.h) in single precision, for views: the bound and the mean cosine at
// consecutive integer distances, twice as many per vector as in double and no square-root series.
// Internal to core/analysis (decay.cpp chooses it for Precision::Single).
//
// Method. A run of kRun = 32 consecutive distances r0 + b (b < 32) has
//   z_k(r0 + b) = v_k * t_k(b),   v_k = exp(i r0 theta_k),   t_k(b) = exp(i b theta_k),
// so S_j = sum_{k<j} z_k is four multiply-adds per pair and distance into running sums, with t_k(b) a
// table (every entry from an exact angle, rounded once to float) built once per set of frequencies
// and v_k advanced by exp(i 32 theta_k) in double from one exact start per range. Only the products,
// the running sums and the root are float32; angles, the table's entries and v stay exact or double
// until each is rounded once.
//
// Error (tested in RopeDecaySingle.*), u = 2^-24, P = d/2 pairs: z_k carries three roundings (v, t, the
// product, each relative to |z_k| = 1) and each pair's two fused multiply-adds one rounding each of the
// running sum, at most k + 1 in size, so |S_j - S_j,exact| <= sqrt(2) u (3j + j(j + 1)) (Higham,
// Accuracy and Stability of Numerical Algorithms, eq. 3.5); the root adds 2u |S_j| and the float32 sum
// of the P roots one rounding of at most j (j + 1) / 2 per term. Averaged over j (divided by P):
//   |bound - bound_exact| <= (P + 4)^2 u   (about 0.64 P^2 u from the terms above; 2.8e-4 for d = 128,
//                                           8.5e-6 of bound(0) = (P + 1)/2, which the view divides by);
// the mean cosine is Re S_P alone: three roundings per term and one per addition of a real part at most
// k + 1, divided by P:
//   |mean_cos - mean_cos_exact| <= (P + 4) u   (about (P/2 + 4) u; 4.1e-6 for d = 128).
// These are worst cases (roundings of one sign throughout); measured errors are 2-12 % of the first and
// under 4 % of the second (RopeDecaySingle.EveryIntegerWithinTheStatedBound). A figure of 1080 px
// resolves 1e-3 of its axis.
#pragma once

#include "scenario/types.h"

#include <cstdint>
#include <vector>

namespace posatlas::decay_detail {

class RopeSingleCurves
{
public:
    // inv_freq: checked by the caller (non-empty, finite, positive).
    explicit RopeSingleCurves(const std::vector<double>& inv_freq);

    // The bound at every integer r of [first, last) into bound[r - first] and, if mean_cos is not
    // null, the mean cosine into mean_cos[r - first]. 0 <= first <= last <= kMaxDistance + 1.
    // Thread-safe (const; scratch on the stack).
    void range(std::int64_t first, std::int64_t last, double* bound, double* mean_cos) const;

    static constexpr std::size_t kRun = 32;

private:
    std::vector<double> m_theta;
    std::vector<float> m_tr, m_ti;  // t_k(b): [k * kRun + b]
    std::vector<double> m_wr, m_wi; // exp(i kRun theta_k)
};

} // namespace posatlas::decay_detail
