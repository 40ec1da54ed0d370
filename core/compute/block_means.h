// SPDX-License-Identifier: GPL-3.0-or-later
// Exact block sums for downsampled matrices: the building blocks that let a heatmap pixel show the
// mean of the cells it covers instead of one sampled cell, in O((rows + cols) d) rather than O(rows cols).
//
// Blocks. An axis of `extent` positions starting at `start`, shown as `count` <= extent cells, is cut
// into contiguous blocks: block r covers [start + floor(r extent / count), start + floor((r + 1) extent
// / count)), so block sizes differ by at most one and every position belongs to exactly one block.
//
// Three identities do the work (all sums over block I = [i0, i1) of rows and J = [j0, j1) of columns):
//   bilinear      sum_{i in I, j in J} x_i . y_j = (sum_I x_i) . (sum_J y_j)
//   Dirichlet     sum_{m=a}^{a+n-1} e^{i m w} = e^{i (a + (n-1)/2) w} sin(n w / 2) / sin(w / 2)
//                 (the geometric series written symmetrically, accurate for small w)
//   trapezoid     sum_{i in I, j in J} f(i - j) = G(i1-1-j0) - G(i0-1-j0) - G(i1-1-j1) + G(i0-1-j1),
//                 G(x) = sum_{y <= x} F(y), F(y) = sum_{o <= y} f(o)
//                 (the number of pairs with offset o is a trapezoid in o; the second prefix sum
//                 integrates it), with f = 0 outside the offsets the window can reach.
#pragma once

#include "scenario/types.h"

#include <Eigen/Dense>
#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

namespace posatlas {

// Block boundaries of one axis: size count + 1, boundaries[0] = start, boundaries[count] = start +
// extent, block r = [boundaries[r], boundaries[r + 1]). count == extent gives one position per block.
std::vector<std::int64_t> block_boundaries(std::int64_t start, std::int64_t extent, std::int64_t count);

// sum_{m=a}^{a+n-1} e^{i m w} by the Dirichlet form above; n >= 1.
std::complex<double> dirichlet_sum(double w, std::int64_t a, std::int64_t n);

// Block sums of a function of i - j over every pair of blocks, by the trapezoid identity.
// f(o) is evaluated once per offset o in [row_boundaries.front() - col_boundaries.back() + 1,
// row_boundaries.back() - 1 - col_boundaries.front()], in chunks (in parallel; `f` must be safe to
// call from OpenMP threads), and streamed: memory is O(blocks), not O(offsets). With `causal`,
// cells with j > i (o < 0) are left out and `counts` receives the number of cells kept per block;
// otherwise counts is the block area. Sums are accumulated in long double (64-bit mantissa): a block
// sum's absolute error is about 2^-64 (number of offsets)^2 max|f|.
struct OffsetBlockSums {
    Eigen::MatrixXd sums;   // rows blocks x cols blocks
    Eigen::MatrixXd counts; // cells summed per block
};
//
// `runs`, when given, makes f piecewise linear: runs->changes is the sorted list of offsets where a new run
// starts, and on the run that starts at a, f(a + t) = f(a) + runs->slope(a) t (slope empty: 0, constant
// runs). f is then evaluated once per run and each run is added in closed form (after k offsets of value
// v and slope w, the first prefix grows by v k + w k (k - 1) / 2 and the second by v k (k + 1) / 2 +
// w (k + 1) k (k - 1) / 6), so the cost is O(runs + blocks log blocks) whatever the number of offsets:
// T5's bias has at most its bucket count of constant runs, ALiBi's two linear ones.
struct OffsetRuns {
    std::vector<std::int64_t> changes;
    std::function<double(std::int64_t)> slope;
};
OffsetBlockSums offset_block_sums(const std::vector<std::int64_t>& row_boundaries,
                                  const std::vector<std::int64_t>& col_boundaries,
                                  const std::function<double(std::int64_t)>& f, bool causal,
                                  const CancelFn& cancel = {}, const OffsetRuns* runs = nullptr);

// The offsets o in (lo, hi] where g(o) != g(o - 1), sorted, for an integer-valued g that is monotone
// (non-decreasing or non-increasing) on [lo, -1] and on [1, hi] (any value at 0): found by bisection,
// O(changes x log(hi - lo)) calls of g. T5's bucket of an offset is such a function.
std::vector<std::int64_t> monotone_change_points(const std::function<std::int64_t(std::int64_t)>& g,
                                                 std::int64_t lo, std::int64_t hi);

// Cumulative sums at boundaries: row t of the result is sum_{p = boundaries[0]}^{boundaries[t] - 1}
// v(p) (row 0 is zero), for sorted boundaries. `add_segment(begin, end, acc)` must add
// sum_{p=begin}^{end-1} v(p) into acc (dim entries) and be safe to call from OpenMP threads. Segments
// are cut into pieces of at most kCumulativePiece positions, run in parallel in rounds; between
// rounds (on the calling thread) cancel is polled and progress reported from `progress_from` to
// `progress_to`, so even one block of 10^7 positions can be cancelled within a round.
inline constexpr std::int64_t kCumulativePiece = std::int64_t{1} << 14;
Eigen::MatrixXd cumulative_at(const std::vector<std::int64_t>& boundaries, int dim,
                              const std::function<void(std::int64_t, std::int64_t, double*)>& add_segment,
                              const CancelFn& cancel = {}, const ProgressFn& progress = {},
                              double progress_from = 0.0, double progress_to = 1.0);

} // namespace posatlas
