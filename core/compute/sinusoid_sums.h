// SPDX-License-Identifier: GPL-3.0-or-later
// Weighted sums of sinusoids at many integer positions:
//   out[r] = sum_k ws[k] sin(p_r w_k) + wc[k] cos(p_r w_k),   p_r = positions[r].
// What a sinusoidal query against many keys (a . p_j) and Transformer-XL's relative term for every
// offset (g . W_{k,R} R_delta) reduce to. A sine and a cosine per term and position cost ~20 ns; here a
// run of consecutive positions p + t, t = 32 m + b, is
//   sum_k Re(v_k(m) e^{i b w_k}),   v_k(m) = (wc_k - i ws_k) e^{i (p + 32 m) w_k},
// with e^{i b w_k} (b < 32) a table built once per sum (SinusoidSum: exact at every eighth b, one
// rotation to each b between) and v_k advanced by e^{32 i w_k} per block of 32 positions, restarted from
// exact angles (exact_angle.h) every kSinusoidRun positions: two multiply-adds per term and position,
// the table read from cache, and at most 7 + 63 rotations between exact values (within ~1e-14 relative
// of the exact-angle sums). Runs shorter than
// 32 positions (jumps in a list) rotate eight lanes per term instead (lane_rotation_sums). The list
// form is parallel (OpenMP) over chunks of kSinusoidRun positions when there are more; the range form
// runs on the calling thread. Kernels compiled for SSE2, AVX2 and AVX-512 (clones.h).
#pragma once

#include "scenario/types.h"

#include <cstdint>
#include <vector>

namespace posatlas {

inline constexpr std::int64_t kSinusoidRun = 2048; // positions between exact restarts; chunks of this many
inline constexpr std::size_t kSinusoidLanes = 8;

// The kernel: count consecutive positions from lanes lc, ls (n terms x kSinusoidLanes: cos and sin of
// the angles at positions p .. p + 7, term-major), each term advanced by (step_c, step_s) = e^{8 i w_k}
// (or any complex step: xPos's decaying z^8) per block of eight; out[t] = sum_k ws[k] s_k + wc[k] c_k.
// Lanes past count are advanced too (not written). Compiled for SSE2, AVX2 + FMA and AVX-512.
void lane_rotation_sums(std::size_t n, std::int64_t count, const double* ws, const double* wc,
                        const double* step_c, const double* step_s, double* lc, double* ls, double* out);

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

// A weighted sinusoid sum prepared once (its terms' steps and lane table) for many positions or ranges:
// what a curve evaluates in hundreds of chunks. w, ws, wc: the same number of terms
// (std::invalid_argument otherwise).
// Precision::Single (views' curves) runs the table kernel on float32: the table entries and each block's
// v_k rounded once, the products summed in float32 over panels of 32 terms and the panels in double,
// sixteen positions per AVX-512 vector. Each value of a run of >= 32 positions is then within
// 36 * 2^-24 * sum_k |(ws_k, wc_k)| of the double one (three roundings per product, one per addition
// over at most 32 terms plus the panel's widening; Higham, Accuracy and Stability of Numerical
// Algorithms, eq. 3.5), ~2e-6 of the largest possible value: below a pixel of any figure. Shorter runs
// (jumps in a list) stay double. range() restarts from exact angles every 8 kSinusoidRun positions
// instead of every kSinusoidRun (the double rotations between drift by ~6e-14, far inside the bound).
class SinusoidSum
{
public:
    SinusoidSum(std::vector<double> w, std::vector<double> ws, std::vector<double> wc,
                Precision precision = Precision::Double);

    // The sums at positions (any order; consecutive runs are the fast path), parallel over chunks.
    std::vector<double> at(const std::vector<std::int64_t>& positions) const;
    // The sums at the consecutive positions first .. first + count - 1, into out, on the calling thread
    // (no OpenMP team): for callers that are parallel over ranges themselves (a curve's chunks). The
    // same numbers as `at` gives for the same positions, bit for bit (restarts at the same places).
    void range(std::int64_t first, std::int64_t count, double* out) const;

    std::size_t terms() const { return w_.size(); }

private:
    struct Scratch;
    void run(std::int64_t p, std::int64_t len, Scratch& scratch, double* out) const;
    void chunk(const std::int64_t* positions, std::int64_t count, double* out) const;
    std::int64_t run_length() const; // positions between exact restarts in range()

    std::vector<double> w_, ws_, wc_;
    std::vector<double> step_c_, step_s_, step8_c_, step8_s_; // e^{i w_k}, e^{8 i w_k}: the lane kernel's
    std::vector<double> lane_c_, lane_s_;                     // terms x 32: e^{i b w_k}, b = 0 .. 31
    std::vector<double> stride_c_, stride_s_;                 // e^{32 i w_k}
    Precision precision_ = Precision::Double;
    std::vector<float> lane_cf_, lane_sf_; // Single: the lane table in float32
};

// The one-off form of SinusoidSum(w, ws, wc).at(positions).
std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions);

} // namespace posatlas
