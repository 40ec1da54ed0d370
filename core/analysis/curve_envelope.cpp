// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/curve_envelope.h"

#include "compute/attention_logits.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/params.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace posatlas {

std::vector<CurveEnvelope> integer_envelopes(const std::vector<std::int64_t>& edges, std::int64_t edge_max,
                                             std::size_t curves, const MultiRangeValuesFn& values,
                                             std::int64_t chunk, bool parallel, const CancelFn& cancel,
                                             const ProgressFn& progress)
{
    if (edges.size() < 2)
        throw ParameterError("edges", "at least two bin edges", std::to_string(edges.size()));
    for (std::size_t i = 0; i < edges.size(); ++i) {
        require_int("edges", edges[i], 0, edge_max);
        if (i > 0 && edges[i] <= edges[i - 1])
            throw ParameterError("edges", "strictly increasing integers",
                                 std::to_string(edges[i - 1]) + " then " + std::to_string(edges[i]));
    }
    if (curves < 1 || curves > 16)
        throw ParameterError("curves", "1 to 16 curves evaluated together", std::to_string(curves));
    chunk = std::max<std::int64_t>(1, chunk);
    const std::size_t bins = edges.size() - 1;
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<CurveEnvelope> out(curves);
    for (CurveEnvelope& e : out) {
        e.min.assign(bins, inf);
        e.max.assign(bins, -inf);
    }

    // What one chunk found: the extremes of each bin it overlaps (bins first_bin, first_bin + 1, ...),
    // curve after curve: lo[c][i], hi[c][i].
    struct Partial {
        std::size_t first_bin = 0;
        std::vector<std::vector<double>> lo, hi;
    };
    const auto evaluate = [&](std::int64_t a, std::int64_t b, Partial& part, std::vector<double>& buffer) {
        const auto n = static_cast<std::size_t>(b - a);
        buffer.resize(n * curves);
        values(a, b, buffer.data());
        // The bin holding a: the last edge <= a.
        const std::size_t bin0 =
            static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), a) - edges.begin()) - 1;
        part.first_bin = bin0;
        part.lo.assign(curves, {});
        part.hi.assign(curves, {});
        for (std::size_t c = 0; c < curves; ++c) {
            const double* v = buffer.data() + c * n;
            std::vector<double>& lo = part.lo[c];
            std::vector<double>& hi = part.hi[c];
            std::size_t bin = bin0;
            // The bin's integers [from, to) within the chunk, folded in one tight loop each.
            for (std::int64_t from = a; from < b; ++bin) {
                const std::int64_t to = std::min(b, edges[bin + 1]);
                double l = inf, h = -inf;
                for (std::int64_t r = from; r < to; ++r) {
                    const double x = v[r - a];
                    if (std::isfinite(x)) {
                        l = std::min(l, x);
                        h = std::max(h, x);
                    }
                }
                lo.push_back(l);
                hi.push_back(h);
                from = to;
            }
        }
    };

    const std::int64_t begin = edges.front(), end = edges.back();
    const double total = static_cast<double>(end - begin);
    // Groups of chunks between two polls: two per thread when parallel, else one.
    const std::int64_t group = parallel ? 8 : 1;
    for (std::int64_t g = begin; g < end; g += group * chunk) {
        check_cancel(cancel);
        const std::int64_t count = std::min<std::int64_t>(group, (end - g + chunk - 1) / chunk);
        std::vector<Partial> parts(static_cast<std::size_t>(count));
        if (parallel) {
#pragma omp parallel
            {
                std::vector<double> buffer;
#pragma omp for schedule(dynamic)
                for (std::int64_t k = 0; k < count; ++k) {
                    const std::int64_t a = g + k * chunk;
                    evaluate(a, std::min(end, a + chunk), parts[static_cast<std::size_t>(k)], buffer);
                }
            }
        } else {
            std::vector<double> buffer;
            for (std::int64_t k = 0; k < count; ++k) {
                const std::int64_t a = g + k * chunk;
                evaluate(a, std::min(end, a + chunk), parts[static_cast<std::size_t>(k)], buffer);
            }
        }
        for (const Partial& part : parts)
            for (std::size_t c = 0; c < curves; ++c)
                for (std::size_t i = 0; i < part.lo[c].size(); ++i) {
                    out[c].min[part.first_bin + i] = std::min(out[c].min[part.first_bin + i], part.lo[c][i]);
                    out[c].max[part.first_bin + i] = std::max(out[c].max[part.first_bin + i], part.hi[c][i]);
                }
        report_progress(
            progress,
            total > 0 ? std::min(1.0, static_cast<double>(std::min(end, g + group * chunk) - begin) / total)
                      : 1.0);
    }
    check_cancel(cancel);
    for (CurveEnvelope& e : out)
        for (std::size_t b = 0; b < bins; ++b)
            if (e.min[b] > e.max[b]) // no finite value in the bin
                e.min[b] = e.max[b] = std::numeric_limits<double>::quiet_NaN();
    return out;
}

CurveEnvelope integer_envelope(const std::vector<std::int64_t>& edges, std::int64_t edge_max,
                               const RangeValuesFn& values, std::int64_t chunk, bool parallel,
                               const CancelFn& cancel, const ProgressFn& progress)
{
    return std::move(
        integer_envelopes(edges, edge_max, 1, values, chunk, parallel, cancel, progress).front());
}

namespace {

void check_query(const Scenario& s, std::int64_t query)
{
    require_int("query", query, 0, s.seq_len - 1);
}

// One row of compute_matrix over the keys of distances [first, last): exact cells, or with `samples`
// > 0 at most that many point samples (the centres of equal runs of keys).
MatrixResult logit_row(const Scenario& s, std::int64_t query, std::int64_t first, std::int64_t last,
                       const CancelFn& cancel, std::int64_t samples = 0, const ProgressFn& progress = {})
{
    MatrixWindow w;
    w.row0 = query;
    w.rows = 1;
    w.col0 = query - (last - 1);
    w.cols = last - first;
    w.out_rows = 1;
    w.out_cols = samples > 0 ? std::min(w.cols, samples) : w.cols;
    w.sample = SampleMode::Point;
    return compute_matrix(s, MatrixKind::Logits, w, cancel, progress);
}

// The methods' own evaluators give their logits; compute_matrix then hides the keys outside the
// scenario's sliding window or chunk and multiplies the row by its query's temperature (Llama 4). The
// same here, so that the fast paths stay the cells (query, query - r) of compute_matrix.
MethodDescriptor::DistanceLogitsFn as_matrix_cells(const Scenario& s, std::int64_t query,
                                                   MethodDescriptor::DistanceLogitsFn f)
{
    const double t = logit_temperature(s, query);
    const bool window = s.causal && s.window != LayerAttention::Global;
    if (t == 1.0 && !window)
        return f;
    return [s, query, t, window, f = std::move(f)](std::int64_t first, std::int64_t last, double* out) {
        f(first, last, out);
        for (std::int64_t r = first; r < last; ++r) {
            double& v = out[r - first];
            v = window && !mask_allows(s, query, query - r) ? std::numeric_limits<double>::quiet_NaN()
                                                            : v * t;
        }
    };
}

} // namespace

double logit_at_distance(const Scenario& s, std::int64_t query, std::int64_t r)
{
    check_query(s, query);
    require_int("distance", r, 0, query);
    return logit_row(s, query, r, r + 1, {}).values(0, 0);
}

CurveEnvelope logit_curve_envelope(const Scenario& s, std::int64_t query,
                                   const std::vector<std::int64_t>& edges, const CancelFn& cancel,
                                   const ProgressFn& progress, Precision precision)
{
    check_query(s, query);
    // compute_matrix is itself parallel: chunks run one after the other, each a row of up to 2^13 keys (a
    // block of 2^13 x d keys stays small, far below kMaxMatrixElements). CoPE's row needs every key from
    // j up to the query whatever the window, so it is computed in windows as wide as allowed instead.
    // Each call has a fixed cost (validation, the method's seeded tables): with position-independent
    // content, whose key matrix is one repeated vector, rows of up to 2^22 / d keys (2^16 for d = 64)
    // make 16 calls of a 10^6-distance curve instead of 122.
    const MethodDescriptor& method = descriptor(s.method);
    if (method.distance_logits && content_is_position_independent(s.content)) {
        // The method's own evaluator of the row: chunks in parallel, no matrices.
        validate(s);
        const MethodDescriptor::DistanceLogitsFn by_distance =
            as_matrix_cells(s, query, method.distance_logits(s, query, precision));
        return integer_envelope(edges, query + 1, by_distance, std::int64_t{1} << 14, true, cancel, progress);
    }
    const std::int64_t dim = std::max(1, method.content_dim ? method.content_dim(s) : 64);
    const std::int64_t wide =
        std::clamp<std::int64_t>((std::int64_t{1} << 22) / dim, std::int64_t{1} << 13, std::int64_t{1} << 16);
    if (method.streamed_distance_logits) {
        // A row that cannot be cut (CoPE): one stream from the query down, pieces in order, one thread.
        // As rows of compute_matrix in chunks of distances, each chunk streamed again every key above
        // it: quadratic in the chunks, 15 s for a curve of 10^7 positions.
        validate(s);
        return integer_envelope(edges, query + 1,
                                as_matrix_cells(s, query, method.streamed_distance_logits(s, query)),
                                std::int64_t{1} << 16, false, cancel, progress);
    }
    const std::int64_t chunk = content_is_position_independent(s.content) ? wide : std::int64_t{1} << 13;
    return integer_envelope(
        edges, query + 1,
        [&](std::int64_t first, std::int64_t last, double* out) {
            const MatrixResult m = logit_row(s, query, first, last, cancel);
            // Columns run j = query - (last - 1) .. query - first: distance r = query - j, backwards.
            const Eigen::Index cols = m.values.cols();
            for (Eigen::Index c = 0; c < cols; ++c)
                out[cols - 1 - c] = m.values(0, c);
        },
        chunk, false, cancel, progress);
}

namespace {

// Progress of a part of the work, mapped to [lo, hi] of the whole.
ProgressFn part_progress(const ProgressFn& progress, double lo, double hi)
{
    if (!progress)
        return {};
    return [progress, lo, hi](double f) { progress(lo + (hi - lo) * f); };
}

} // namespace

SampledCurveEnvelope sampled_logit_curve_envelope(const Scenario& s, std::int64_t query,
                                                  const std::vector<std::int64_t>& edges,
                                                  std::int64_t samples, const CancelFn& cancel,
                                                  const ProgressFn& progress)
{
    check_query(s, query);
    require_int("samples", samples, 64, std::int64_t{1} << 24);
    if (edges.size() < 2)
        throw ParameterError("edges", "at least two bin edges", std::to_string(edges.size()));
    const std::int64_t end = edges.back();
    // Distances below `samples` are evaluated exactly (that part costs no more than the sampled one); the
    // rest gets `samples` evenly spaced samples, and a bin no sample falls in (narrower than the spacing)
    // up to 8 of its own below.
    const std::size_t bins = edges.size() - 1;
    std::size_t split = bins;
    for (std::size_t b = 0; b < bins; ++b)
        if (edges[b] >= samples) {
            split = b;
            break;
        }
    SampledCurveEnvelope out;
    out.sampled_from = edges[split];
    out.spacing = split < bins
                      ? std::max(1.0, static_cast<double>(end - edges[split]) / static_cast<double>(samples))
                      : 1.0;
    if (split == bins || out.spacing <= 1.0) { // nothing worth sampling: every distance
        out.envelope = logit_curve_envelope(s, query, edges, cancel, progress);
        out.sampled_from = end;
        out.spacing = 1.0;
        return out;
    }
    const std::vector<std::int64_t> exact_edges(edges.begin(),
                                                edges.begin() + static_cast<std::ptrdiff_t>(split) + 1);
    const double exact_share =
        exact_edges.size() > 1 ? static_cast<double>(exact_edges.back() - exact_edges.front()) /
                                     static_cast<double>(exact_edges.back() - exact_edges.front() + samples)
                               : 0.0;
    if (exact_edges.size() > 1)
        out.envelope =
            logit_curve_envelope(s, query, exact_edges, cancel, part_progress(progress, 0.0, exact_share));
    // The sampled part: keys j = query - r for r in [sampled_from, end), one row point-sampled.
    const MatrixResult m = logit_row(s, query, out.sampled_from, end, cancel, samples,
                                     part_progress(progress, exact_share, 1.0));
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<double> lo(bins - split, inf), hi(bins - split, -inf);
    for (Eigen::Index c = 0; c < m.values.cols(); ++c) {
        const double v = m.values(0, c);
        if (!std::isfinite(v))
            continue;
        const std::int64_t r = query - m.col_index[static_cast<std::size_t>(c)];
        const auto b =
            static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), r) - edges.begin()) - 1;
        if (b < split || b >= bins)
            continue;
        lo[b - split] = std::min(lo[b - split], v);
        hi[b - split] = std::max(hi[b - split], v);
    }
    for (std::size_t b = 0; b < bins - split; ++b) {
        if (lo[b] > hi[b]) {
            // No sample fell in this bin (narrower than the spacing): up to kPerBin samples of its own,
            // denser than the rest, or every distance of a bin that small.
            constexpr std::int64_t kPerBin = 8;
            const std::int64_t first = edges[split + b], last = edges[split + b + 1];
            const MatrixResult one = logit_row(s, query, first, last, cancel, kPerBin);
            for (Eigen::Index c = 0; c < one.values.cols(); ++c)
                if (const double v = one.values(0, c); std::isfinite(v)) {
                    lo[b] = std::min(lo[b], v);
                    hi[b] = std::max(hi[b], v);
                }
        }
        const bool none = lo[b] > hi[b];
        out.envelope.min.push_back(none ? std::numeric_limits<double>::quiet_NaN() : lo[b]);
        out.envelope.max.push_back(none ? std::numeric_limits<double>::quiet_NaN() : hi[b]);
    }
    return out;
}

} // namespace posatlas
