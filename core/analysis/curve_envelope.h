// SPDX-License-Identifier: GPL-3.0-or-later
// Exact per-bin extremes of a curve over integer distances: what a plot with fewer pixel columns than
// distances draws instead of point samples, so that no peak of an oscillating curve is lost. One helper,
// integer_envelope, folds every integer of every bin; the RoPE decay curves (decay.h) and the logit
// curves of every method (below) use it with their own exact evaluation.
#pragma once

#include "scenario/types.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace posatlas {

struct Scenario;

// Bin b holds the integers r in [edges[b], edges[b + 1]); min[b] / max[b] are the exact extremes of the
// curve over them, ignoring non-finite values (NaN in both when a bin has no finite value).
struct CurveEnvelope {
    std::vector<double> min, max; // one entry per bin
};

// Writes the curve's value at every integer r of [first, last) to out[r - first] (NaN: no value there).
using RangeValuesFn = std::function<void(std::int64_t first, std::int64_t last, double* out)>;

// The envelope of a curve over `edges`: strictly increasing integers in [0, edge_max] (ParameterError
// "edges"), at least two. The integers [edges.front(), edges.back()) are evaluated in contiguous chunks
// of at most `chunk` (whatever the bins: many narrow bins cost one call, a bin of 10^8 distances many),
// each chunk's values folded into the bins it overlaps. Cancel is polled and progress reported between
// groups of chunks; with `parallel` the chunks of a group run OpenMP-parallel (values must then be
// thread-safe and must not itself start parallel work or call back).
CurveEnvelope integer_envelope(const std::vector<std::int64_t>& edges, std::int64_t edge_max,
                               const RangeValuesFn& values, std::int64_t chunk, bool parallel,
                               const CancelFn& cancel = {}, const ProgressFn& progress = {});

// Several curves that one evaluation yields together (RoPE's bound and mean cosine share their
// rotations): writes curve c's value at r in [first, last) to out[c * (last - first) + (r - first)].
using MultiRangeValuesFn = std::function<void(std::int64_t first, std::int64_t last, double* out)>;

// The envelopes of `curves` such curves over the same bins, in one pass over the integers; otherwise as
// integer_envelope (which is this with one curve). curves >= 1 (ParameterError "curves").
std::vector<CurveEnvelope> integer_envelopes(const std::vector<std::int64_t>& edges, std::int64_t edge_max,
                                             std::size_t curves, const MultiRangeValuesFn& values,
                                             std::int64_t chunk, bool parallel, const CancelFn& cancel = {},
                                             const ProgressFn& progress = {});

// The logit curve of any method: the logit of query position `query` against the key at distance r,
// key position query - r, for r in [0, query]. This is exactly the cell (query, query - r) of
// compute_matrix(s, Logits) (what `posatlas compute matrix` prints); NaN where the method has no value.
// query in [0, seq_len) (ParameterError "query"), r in [0, query] (ParameterError "distance").
double logit_at_distance(const Scenario& s, std::int64_t query, std::int64_t r);

// The exact envelope of that curve over the bins `edges` (edges in [0, query + 1]): every integer
// distance is evaluated, in windows of one row of compute_matrix (up to 2^13 keys each), so the cost is
// that of one row of (edges.back() - edges.front()) cells. Precision::Single (the curves view) lets a
// method with a float32 kernel for its curve use it (MethodDescriptor::distance_logits: sinusoidal and
// Transformer-XL with position-independent content, within SinusoidSum's stated bound); every other
// curve is computed in double either way.
CurveEnvelope logit_curve_envelope(const Scenario& s, std::int64_t query,
                                   const std::vector<std::int64_t>& edges, const CancelFn& cancel = {},
                                   const ProgressFn& progress = {}, Precision precision = Precision::Double);

// The same envelope where evaluating every distance would cost more than the picture is worth (random
// content generates every key's vector: 5 x 10^8 normals for a sinusoidal curve of 10^6 distances).
// Bins below distance `samples` stay exact; beyond, each bin's extremes are over `samples` evenly
// spaced distances of that range (the centres of equal runs; compute_matrix's point samples) instead of
// over every integer, and a bin no sample falls in (narrower than the spacing) gets up to 8 samples of
// its own (all its distances when it has no more). `sampled_from` is the first distance of the sampled
// part (edges.back(): nothing sampled) and `spacing` the largest number of distances per sample there,
// so that a view can say what its curve shows. samples in [64, 2^24] (ParameterError "samples").
struct SampledCurveEnvelope {
    CurveEnvelope envelope;
    std::int64_t sampled_from = 0;
    double spacing = 1.0;
};
SampledCurveEnvelope sampled_logit_curve_envelope(const Scenario& s, std::int64_t query,
                                                  const std::vector<std::int64_t>& edges,
                                                  std::int64_t samples, const CancelFn& cancel = {},
                                                  const ProgressFn& progress = {});

} // namespace posatlas
