// SPDX-License-Identifier: GPL-3.0-or-later
// Long-range decay curves: how a position encoding's attention weight or logit envelope falls with the
// relative distance r. Loops over distances run OpenMP-parallel in chunks; between chunks the calling
// thread polls `cancel` (throws Cancelled) and reports `progress`. No callback is ever invoked from an
// OpenMP worker thread. Angles r * theta_i are formed in double, so distances up to kMaxDistance
// (1e8) keep ~1e-8 rad absolute accuracy at theta = 1.
#pragma once

#include "analysis/curve_envelope.h"
#include "scenario/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace posatlas {

// RoFormer's long-term-decay bound (Su et al. 2021, arXiv:2104.09864, section 3.4.3, Figure 2):
//   bound(r) = (1 / (d/2)) * sum_{j=1}^{d/2} |S_j|,   S_j = sum_{k=0}^{j-1} exp(i r theta_k),
// with d/2 = inv_freq.size(). This is the "relative upper bound" the paper plots: the Abel summation
// gives |sum_k h_k exp(i r theta_k)| <= (max_k |h_{k+1} - h_k|) * sum_j |S_j|, and Figure 2 shows
// sum_j |S_j| divided by d/2. bound(0) = (d/2 + 1) / 2.
// inv_freq: non-empty, finite, positive (ParameterError "inv_freq"); distances: finite with
// |r| <= kMaxDistance (ParameterError "distance").
std::vector<double> rope_decay_bound(const std::vector<double>& inv_freq,
                                     const std::vector<double>& distances, const CancelFn& cancel = {},
                                     const ProgressFn& progress = {});

// Mean over pairs of cos(r theta_i): the RoPE logit at distance r for q = k = the all-ones vector,
// divided by d (each pair contributes 2 cos(r theta_i)). Same argument checks as rope_decay_bound.
std::vector<double> rope_mean_cos(const std::vector<double>& inv_freq, const std::vector<double>& distances,
                                  const CancelFn& cancel = {}, const ProgressFn& progress = {});

// Which RoPE decay curve: the RoFormer bound above, or the mean cosine.
enum class RopeCurve { Bound, MeanCos };

// The exact extremes of a RoPE decay curve over every integer distance of each bin, so that a plot with
// fewer pixels than distances draws an envelope instead of aliased point samples (a point sample at
// 1 200 log-spaced distances misses most peaks past r ~ 10^4). Bin b holds the integers
// r in [edges[b], edges[b + 1]); edges: strictly increasing integers in [0, kMaxDistance + 1]
// (ParameterError "edges"), at least two. Every integer is evaluated (by the recurrence of
// rope_decay_bound), so the cost is (edges.back() - edges.front()) * d/2 multiply-adds.
// The bins are folded by the envelope helper every method's curve uses (curve_envelope.h).
// Precision::Single (what the curves view asks for) sums in float32 from exact angles
// (analysis/decay_single.h: within (d/2 + 4)^2 2^-24 of the double bound, (d/2 + 4) 2^-24 of the mean
// cosine), about three times faster; Double is exact to ~1e-15 relative.
using RopeCurveEnvelope = CurveEnvelope;
RopeCurveEnvelope rope_curve_envelope(RopeCurve curve, const std::vector<double>& inv_freq,
                                      const std::vector<std::int64_t>& edges, const CancelFn& cancel = {},
                                      const ProgressFn& progress = {},
                                      Precision precision = Precision::Double);

// Both curves' envelopes over the same bins in one pass: the bound's recurrence yields the mean cosine's
// sum on the way (the real part of S_{d/2}), so this costs what the bound alone costs. Same arguments.
struct RopeCurveEnvelopes {
    CurveEnvelope bound, mean_cos;
};
RopeCurveEnvelopes rope_curve_envelopes(const std::vector<double>& inv_freq,
                                        const std::vector<std::int64_t>& edges, const CancelFn& cancel = {},
                                        const ProgressFn& progress = {},
                                        Precision precision = Precision::Double);

// The instruction set the bound's inner loop runs on (decay.cpp explains the square roots): chosen at
// start from the CPU (AVX-512, else AVX2 + FMA, else portable SSE2 code with std::sqrt). For tests and
// benchmarks, use_rope_lane_isa switches to another one the CPU has (false, and no change, if it lacks
// it); not meant to be called while curves are computed.
enum class RopeLaneIsa { Portable, Avx2, Avx512 };
bool use_rope_lane_isa(RopeLaneIsa isa);
RopeLaneIsa rope_lane_isa();

// ALiBi's multiplicative decay of the attention weight, exp(-slope * r) (Press et al. 2022: the bias
// -slope * r added to the logit). slope >= 0 and finite (ParameterError "slope"); distances as above.
std::vector<double> alibi_decay(double slope, const std::vector<double>& distances);

// Distances at which to draw a decay curve over 0 .. max_distance: every integer when
// max_distance + 1 <= max_points; otherwise at most max_points integers, sorted, unique, always
// including 0 and max_distance, spaced geometrically over 1 .. max_distance (log_spaced) or evenly.
// max_distance in [0, kMaxDistance] (ParameterError "max_distance"); max_points >= 2 and <= 10^7
// (ParameterError "max_points").
std::vector<double> decay_distances(std::int64_t max_distance, std::size_t max_points, bool log_spaced);

} // namespace posatlas
