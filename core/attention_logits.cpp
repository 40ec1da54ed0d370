// SPDX-License-Identifier: GPL-3.0-or-later
#include "attention_logits.h"

#include "alibi.h"
#include "block_means.h"
#include "content.h"
#include "cope.h"
#include "deberta.h"
#include "learned.h"
#include "rope.h"
#include "rope_scaling.h"
#include "shaw.h"
#include "sinusoidal.h"
#include "t5_buckets.h"
#include "transformer_xl.h"
#include "validation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <complex>
#include <limits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace posatlas {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Rows per chunk between cancellation checks and progress reports.
constexpr std::int64_t kRowChunk = 32;
// Largest square CoPE block (its positions need every key between j and i).
constexpr std::int64_t kMaxCopeSpan = 4096;

constexpr std::array<std::pair<std::string_view, MatrixKind>, 6> kKindIds{{
    {"logits", MatrixKind::Logits},
    {"encoding", MatrixKind::Encoding},
    {"bias", MatrixKind::Bias},
    {"buckets", MatrixKind::Buckets},
    {"cope-positions", MatrixKind::CopePositions},
    {"cope-gates", MatrixKind::CopeGates},
}};

// The sampled positions of one axis: start + floor((r + 0.5) * extent / count), or start + r.
std::vector<std::int64_t> sample_axis(std::int64_t start, std::int64_t extent, std::int64_t count)
{
    std::vector<std::int64_t> idx(static_cast<std::size_t>(count));
    for (std::int64_t r = 0; r < count; ++r)
        idx[static_cast<std::size_t>(r)] =
            count == extent ? start + r
                            : start + static_cast<std::int64_t>((static_cast<double>(r) + 0.5)
                                                                * static_cast<double>(extent)
                                                                / static_cast<double>(count));
    return idx;
}

// Fills values(r, c) = cell(r, c) row-chunk by row-chunk: OpenMP inside a chunk, cancel checks and
// progress between chunks on the calling thread.
template <typename Cell>
void fill_cells(Eigen::MatrixXd& values, const CancelFn& cancel, const ProgressFn& progress, Cell&& cell)
{
    const std::int64_t rows = values.rows(), cols = values.cols();
    for (std::int64_t r0 = 0; r0 < rows; r0 += kRowChunk) {
        check_cancel(cancel);
        const std::int64_t r1 = std::min(rows, r0 + kRowChunk);
        // Column-major storage: within a chunk of rows, walk down each column.
#pragma omp parallel for schedule(static) if ((r1 - r0) * cols > 4096)
        for (std::int64_t c = 0; c < cols; ++c)
            for (std::int64_t r = r0; r < r1; ++r)
                values(r, c) = cell(r, c);
        report_progress(progress, static_cast<double>(r1) / static_cast<double>(rows));
    }
}

// Toeplitz fill: value(i, j) = by_offset(i - j) for the sampled positions. The distinct offsets are
// computed once (in parallel), then scattered. Returns false (doing nothing) when the window has
// nearly as many distinct offsets as cells, so the direct path is no slower.
template <typename ByOffset>
bool fill_toeplitz(Eigen::MatrixXd& values, const std::vector<std::int64_t>& rows,
                   const std::vector<std::int64_t>& cols, const CancelFn& cancel, const ProgressFn& progress,
                   ByOffset&& by_offset, bool force = false)
{
    const std::int64_t lo = rows.front() - cols.back();
    const std::int64_t hi = rows.back() - cols.front();
    const std::int64_t distinct = hi - lo + 1;
    const std::int64_t cells = static_cast<std::int64_t>(rows.size() * cols.size());
    if (!force && distinct * 2 > cells)
        return false;
    std::vector<double> table(static_cast<std::size_t>(distinct));
    constexpr std::int64_t kChunk = 4096;
    for (std::int64_t o0 = 0; o0 < distinct; o0 += kChunk) {
        check_cancel(cancel);
        const std::int64_t o1 = std::min(distinct, o0 + kChunk);
#pragma omp parallel for schedule(static) if (o1 - o0 > 256)
        for (std::int64_t o = o0; o < o1; ++o)
            table[static_cast<std::size_t>(o)] = by_offset(lo + o);
        report_progress(progress, 0.5 * static_cast<double>(o1) / static_cast<double>(distinct));
    }
    const auto nr = static_cast<std::int64_t>(rows.size());
    const auto nc = static_cast<std::int64_t>(cols.size());
    // Eigen is column-major: walk down each column so the writes are contiguous.
#pragma omp parallel for schedule(static) if (cells > 16384)
    for (std::int64_t c = 0; c < nc; ++c) {
        const std::int64_t shift = cols[static_cast<std::size_t>(c)] + lo;
        double* column = values.col(c).data();
        for (std::int64_t r = 0; r < nr; ++r)
            column[r] = table[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)] - shift)];
    }
    report_progress(progress, 1.0);
    return true;
}

// Transparent huge pages for a large result, asked before its first touch. Faulting in a fresh
// 128 MB matrix page by page (4 KiB) cost more than the whole product on the build machine (about
// 1 s of the N = 4096 logits); with 2 MiB pages there are 512 times fewer faults. Only advice: where
// THP is off or unknown, nothing changes.
void advise_huge_pages(double* data, std::size_t count)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const std::size_t bytes = count * sizeof(double);
    if (bytes < (std::size_t{16} << 20))
        return;
    constexpr std::uintptr_t kPage = 4096;
    const auto first = (reinterpret_cast<std::uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
    const auto last = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kPage - 1);
    if (last > first)
        ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)count;
#endif
}

int content_dim(const Scenario& s)
{
    switch (s.method) {
    case Method::Sinusoidal: return s.params<SinusoidalParams>().dim;
    case Method::Learned: return s.params<LearnedParams>().dim;
    case Method::Shaw: return s.params<ShawParams>().head_dim;
    case Method::TransformerXL: return s.params<TransformerXLParams>().head_dim;
    case Method::DeBERTa: return s.params<DebertaParams>().head_dim;
    case Method::RoPE: return s.params<RopeParams>().head_dim;
    case Method::CoPE: return s.params<CopeParams>().head_dim;
    // Bias-only methods: the content term uses a conventional 64-dimensional head.
    case Method::T5:
    case Method::ALiBi: return 64;
    }
    return 64;
}

struct Context {
    const Scenario& s;
    const std::vector<std::int64_t>& rows;
    const std::vector<std::int64_t>& cols;
    const CancelFn& cancel;
    const ProgressFn& progress;
    MatrixResult& out;
    const LearnedTable* learned; // loaded once for Method::Learned, else null
    Precision precision = Precision::Double;
    // Block boundaries (block_means.h) when computing block means, else empty.
    std::vector<std::int64_t> rb, cb;
};

Eigen::MatrixXd queries(const Context& c, int dim) { return content_queries(c.s.content, dim, c.rows); }
Eigen::MatrixXd keys(const Context& c, int dim) { return content_keys(c.s.content, dim, c.cols); }

// Plain content term q_i . k_j / sqrt(d) for every cell, as one matrix product.
Eigen::MatrixXd content_term(const Context& c, int dim)
{
    check_cancel(c.cancel);
    Eigen::MatrixXd qk;
    qk.noalias() = queries(c, dim) * keys(c, dim).transpose();
    return qk / std::sqrt(static_cast<double>(dim));
}

// ------------------------------------------------------------------ exact block means

double safe_mean(double sum, double count) { return count > 0.0 ? sum / count : kNaN; }

// values(r, s) = (sum of f(i - j) over the block) / (number of cells), from offset_block_sums.
void block_from_offsets(Context& c, const std::function<double(std::int64_t)>& by_offset, bool causal)
{
    const OffsetBlockSums o = offset_block_sums(c.rb, c.cb, by_offset, causal, c.cancel);
    for (Eigen::Index s = 0; s < o.sums.cols(); ++s)
        for (Eigen::Index r = 0; r < o.sums.rows(); ++r)
            c.out.values(r, s) = safe_mean(o.sums(r, s), o.counts(r, s));
    c.out.used_toeplitz = true;
    report_progress(c.progress, 1.0);
}

// Sum of the content vectors (query, or key when `key`) over positions [begin, end), added into acc.
void add_content(const ContentParams& content, bool key, int d, std::int64_t begin, std::int64_t end, double* acc)
{
    if (begin >= end)
        return;
    if (content_is_position_independent(content)) {
        Eigen::VectorXd x(d);
        content_vector_into(content, key, d, begin, x.data());
        Eigen::Map<Eigen::VectorXd>(acc, d) += static_cast<double>(end - begin) * x;
        return;
    }
    Eigen::VectorXd x(d);
    Eigen::Map<Eigen::VectorXd> sum(acc, d);
    for (std::int64_t p = begin; p < end; ++p) {
        content_vector_into(content, key, d, p, x.data());
        sum += x;
    }
}

// Block means of the content vectors over each block [b[t], b[t + 1]) clipped to [lo, hi) (the
// positions that exist); `valid` receives each block's clipped size. Rows with no position are 0.
Eigen::MatrixXd content_block_means(const Context& c, bool key, int d, const std::vector<std::int64_t>& b,
                                    std::int64_t lo, std::int64_t hi, std::vector<std::int64_t>& valid,
                                    double progress_from, double progress_to)
{
    std::vector<std::int64_t> clipped(b.size());
    for (std::size_t t = 0; t < b.size(); ++t)
        clipped[t] = std::clamp(b[t], lo, std::max(lo, hi));
    const Eigen::MatrixXd cum = cumulative_at(
        clipped, d, [&](std::int64_t begin, std::int64_t end, double* acc) { add_content(c.s.content, key, d, begin, end, acc); },
        c.cancel, c.progress, progress_from, progress_to);
    const auto n = static_cast<std::int64_t>(b.size()) - 1;
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, d);
    valid.assign(static_cast<std::size_t>(n), 0);
    for (std::int64_t t = 0; t < n; ++t) {
        const std::int64_t len = clipped[static_cast<std::size_t>(t) + 1] - clipped[static_cast<std::size_t>(t)];
        valid[static_cast<std::size_t>(t)] = len;
        if (len > 0)
            m.row(t) = (cum.row(t + 1) - cum.row(t)) / static_cast<double>(len);
    }
    return m;
}

// Components of RoPE pair i: (2i, 2i + 1) interleaved, (i, i + rotary_dim / 2) half (rope.h).
std::pair<int, int> rope_pair(int i, int rotary_dim, RopePairing pairing)
{
    return pairing == RopePairing::Interleaved ? std::pair{2 * i, 2 * i + 1} : std::pair{i, i + rotary_dim / 2};
}

// Block means of the rotated content R(p) x_p over each block of b (rows of the result).
//   Position-independent x: per pair, the complex pair z times the Dirichlet sum of e^{i p theta}
//   over the block (block_means.h), so O(d) per block whatever its size.
//   Random x: the rotations are advanced by the angle-addition recurrence from an exact cos/sin at
//   every kResync-th position, so a block costs one multiply-add per component and position on top
//   of generating the content; the recurrence's rounding grows by about 2^-53 per step (< 1e-13 here).
Eigen::MatrixXd rope_block_means(const Context& c, const RopeFrequencies& f, bool key, const std::vector<std::int64_t>& b)
{
    const int d = c.s.params<RopeParams>().head_dim;
    const int pairs = f.pairs();
    const double af = f.attention_factor;
    const auto n = static_cast<std::int64_t>(b.size()) - 1;
    const RopePairing pairing = c.s.params<RopeParams>().pairing;
    Eigen::MatrixXd m(n, d);
    if (content_is_position_independent(c.s.content)) {
        Eigen::VectorXd x(d);
        content_vector_into(c.s.content, key, d, 0, x.data());
#pragma omp parallel for schedule(static) if (n * pairs > 4096)
        for (std::int64_t t = 0; t < n; ++t) {
            const std::int64_t a = b[static_cast<std::size_t>(t)], len = b[static_cast<std::size_t>(t) + 1] - a;
            for (int j = f.rotary_dim; j < d; ++j)
                m(t, j) = x[j];
            for (int i = 0; i < pairs; ++i) {
                const auto [j1, j2] = rope_pair(i, f.rotary_dim, pairing);
                const std::complex<double> z = std::complex<double>(x[j1], x[j2])
                                               * dirichlet_sum(f.inv_freq[static_cast<std::size_t>(i)], a, len)
                                               * (af / static_cast<double>(len));
                m(t, j1) = z.real();
                m(t, j2) = z.imag();
            }
        }
        return m;
    }
    constexpr std::int64_t kResync = 256;
    std::vector<double> step_c(static_cast<std::size_t>(pairs)), step_s(step_c.size());
    for (std::size_t i = 0; i < step_c.size(); ++i) {
        step_c[i] = std::cos(f.inv_freq[i]);
        step_s[i] = std::sin(f.inv_freq[i]);
    }
    const auto add_rotated = [&](std::int64_t begin, std::int64_t end, double* acc) {
        std::vector<double> x(static_cast<std::size_t>(d)), cs(step_c.size()), sn(step_c.size());
        for (std::int64_t p = begin; p < end; ++p) {
            content_vector_into(c.s.content, key, d, p, x.data());
            const bool exact = (p - begin) % kResync == 0;
            for (int i = 0; i < pairs; ++i) {
                const auto u = static_cast<std::size_t>(i);
                if (exact) {
                    const double angle = static_cast<double>(p) * f.inv_freq[u];
                    cs[u] = std::cos(angle);
                    sn[u] = std::sin(angle);
                } else {
                    const double next = cs[u] * step_c[u] - sn[u] * step_s[u];
                    sn[u] = sn[u] * step_c[u] + cs[u] * step_s[u];
                    cs[u] = next;
                }
                const auto [j1, j2] = rope_pair(i, f.rotary_dim, pairing);
                const double x1 = x[static_cast<std::size_t>(j1)], x2 = x[static_cast<std::size_t>(j2)];
                acc[j1] += x1 * cs[u] - x2 * sn[u];
                acc[j2] += x1 * sn[u] + x2 * cs[u];
            }
            for (int j = f.rotary_dim; j < d; ++j)
                acc[j] += x[static_cast<std::size_t>(j)];
        }
    };
    const Eigen::MatrixXd cum =
        cumulative_at(b, d, add_rotated, c.cancel, c.progress, key ? 0.45 : 0.0, key ? 0.9 : 0.45);
    for (std::int64_t t = 0; t < n; ++t) {
        const double inv_len = 1.0 / static_cast<double>(b[static_cast<std::size_t>(t) + 1] - b[static_cast<std::size_t>(t)]);
        for (int j = 0; j < d; ++j)
            m(t, j) = (cum(t + 1, j) - cum(t, j)) * inv_len * (j < f.rotary_dim ? af : 1.0);
    }
    return m;
}

void rope_block_logits(Context& c)
{
    const RopeFrequencies f = compute_rope_frequencies(c.s.params<RopeParams>());
    const Eigen::MatrixXd q = rope_block_means(c, f, false, c.rb);
    const Eigen::MatrixXd k = rope_block_means(c, f, true, c.cb);
    check_cancel(c.cancel);
    gemm_nt(q, k, 1.0 / std::sqrt(static_cast<double>(c.s.params<RopeParams>().head_dim)), c.precision, c.out.values);
    report_progress(c.progress, 1.0);
}

// Block means of the absolute position vectors p over each block of b, over the positions that have
// one ([0, trained length) for a learned table); `valid` receives the count per block.
//   Sinusoidal: mean sin(p w) and cos(p w) are Im and Re of the Dirichlet sum / block size.
//   Learned: the mean of the table's rows.
Eigen::MatrixXd position_block_means(const Context& c, const std::vector<std::int64_t>& b,
                                     std::vector<std::int64_t>& valid)
{
    const auto n = static_cast<std::int64_t>(b.size()) - 1;
    valid.assign(static_cast<std::size_t>(n), 0);
    if (c.s.method == Method::Sinusoidal) {
        const Eigen::VectorXd omega = sinusoidal_frequencies(c.s.params<SinusoidalParams>());
        const Eigen::Index half = omega.size();
        Eigen::MatrixXd m(n, c.s.params<SinusoidalParams>().dim);
        for (std::int64_t t = 0; t < n; ++t) {
            const std::int64_t a = b[static_cast<std::size_t>(t)], len = b[static_cast<std::size_t>(t) + 1] - a;
            valid[static_cast<std::size_t>(t)] = len;
            for (Eigen::Index k = 0; k < half; ++k) {
                const std::complex<double> z = dirichlet_sum(omega[k], a, len) / static_cast<double>(len);
                const bool interleaved = c.s.params<SinusoidalParams>().layout == SinusoidalLayout::Interleaved;
                m(t, interleaved ? 2 * k : k) = z.imag();
                m(t, interleaved ? 2 * k + 1 : half + k) = z.real();
            }
        }
        return m;
    }
    const LearnedTable& table = *c.learned;
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, table.dim());
    for (std::int64_t t = 0; t < n; ++t) {
        const std::int64_t a = b[static_cast<std::size_t>(t)];
        const std::int64_t end = std::min<std::int64_t>(b[static_cast<std::size_t>(t) + 1], table.trained_length());
        if (a >= end)
            continue;
        valid[static_cast<std::size_t>(t)] = end - a;
        m.row(t) = table.table().middleRows(a, end - a).colwise().mean();
    }
    return m;
}

// (mean_I (q + p)) . (mean_J (k + p)) / sqrt(d): exact because a learned table's valid positions form a
// product set with the keys' (both are [0, trained length)), so the mean over valid cells factorises.
void absolute_block_logits(Context& c)
{
    std::vector<std::int64_t> vr, vc, cr, cc;
    const Eigen::MatrixXd pr = position_block_means(c, c.rb, vr);
    const Eigen::MatrixXd pc = position_block_means(c, c.cb, vc);
    const int d = static_cast<int>(pr.cols());
    const std::int64_t limit = c.learned ? c.learned->trained_length() : std::numeric_limits<std::int64_t>::max();
    const Eigen::MatrixXd q = content_block_means(c, false, d, c.rb, 0, limit, cr, 0.0, 0.45) + pr;
    const Eigen::MatrixXd k = content_block_means(c, true, d, c.cb, 0, limit, cc, 0.45, 0.9) + pc;
    check_cancel(c.cancel);
    gemm_nt(q, k, 1.0 / std::sqrt(static_cast<double>(d)), c.precision, c.out.values);
    for (Eigen::Index s = 0; s < c.out.values.cols(); ++s)
        for (Eigen::Index r = 0; r < c.out.values.rows(); ++r)
            if (vr[static_cast<std::size_t>(r)] == 0 || vc[static_cast<std::size_t>(s)] == 0)
                c.out.values(r, s) = kNaN;
    report_progress(c.progress, 1.0);
}

// Encodings: rows are position blocks, columns dimension blocks; a cell is the mean over both.
void encoding_block_matrix(Context& c)
{
    c.out.row_label = "position";
    c.out.col_label = "dimension";
    c.out.value_label = "encoding";
    c.out.is_signed = true;
    std::vector<std::int64_t> valid;
    const Eigen::MatrixXd p = position_block_means(c, c.rb, valid);
    for (Eigen::Index s = 0; s + 1 < static_cast<Eigen::Index>(c.cb.size()); ++s) {
        const std::int64_t d0 = c.cb[static_cast<std::size_t>(s)], d1 = c.cb[static_cast<std::size_t>(s) + 1];
        for (Eigen::Index r = 0; r < p.rows(); ++r)
            c.out.values(r, s) =
                valid[static_cast<std::size_t>(r)] == 0 ? kNaN : p.row(r).segment(d0, d1 - d0).mean();
    }
    report_progress(c.progress, 1.0);
}

// Content term of a masked block: sum over the unmasked cells (j <= i when causal) of q_i . k_j.
// Cumulative content sums at every row and column boundary give whole sub-blocks; only the part of
// the block on both sides of the diagonal (i and j both in I intersect J) needs single vectors, so
// the whole matrix costs O((rows + cols) d) content vectors.
Eigen::MatrixXd masked_content_sums(const Context& c, int d, bool causal)
{
    std::vector<std::int64_t> u(c.rb);
    u.insert(u.end(), c.cb.begin(), c.cb.end());
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    const std::int64_t r_lo = c.rb.front(), r_hi = c.rb.back(), c_lo = c.cb.front(), c_hi = c.cb.back();
    const Eigen::MatrixXd cq = cumulative_at(
        u, d,
        [&](std::int64_t b, std::int64_t e, double* acc) {
            add_content(c.s.content, false, d, std::max(b, r_lo), std::min(e, r_hi), acc);
        },
        c.cancel, c.progress, 0.3, 0.55);
    const Eigen::MatrixXd ck = cumulative_at(
        u, d,
        [&](std::int64_t b, std::int64_t e, double* acc) {
            add_content(c.s.content, true, d, std::max(b, c_lo), std::min(e, c_hi), acc);
        },
        c.cancel, c.progress, 0.55, 0.8);
    const auto at = [&](std::int64_t x) { return std::lower_bound(u.begin(), u.end(), x) - u.begin(); };
    // Sum over [x, y) of a cumulative table, both ends boundaries.
    const auto range = [&](const Eigen::MatrixXd& cum, std::int64_t x, std::int64_t y) -> Eigen::RowVectorXd {
        return cum.row(at(y)) - cum.row(at(x));
    };
    const auto R = static_cast<std::int64_t>(c.rb.size()) - 1, C = static_cast<std::int64_t>(c.cb.size()) - 1;
    Eigen::MatrixXd sums(R, C);
    // Column chunks so that cancel is polled (on this thread) between them.
    constexpr std::int64_t kColumns = 16;
    for (std::int64_t s0 = 0; s0 < C; s0 += kColumns) {
    check_cancel(c.cancel);
    const std::int64_t s1 = std::min(C, s0 + kColumns);
#pragma omp parallel for schedule(dynamic, 1) collapse(2)
    for (std::int64_t s = s0; s < s1; ++s)
        for (std::int64_t r = 0; r < R; ++r) {
            const std::int64_t i0 = c.rb[static_cast<std::size_t>(r)], i1 = c.rb[static_cast<std::size_t>(r) + 1];
            const std::int64_t j0 = c.cb[static_cast<std::size_t>(s)], j1 = c.cb[static_cast<std::size_t>(s) + 1];
            if (!causal || j1 - 1 <= i0) { // every cell unmasked
                sums(r, s) = range(cq, i0, i1).dot(range(ck, j0, j1));
                continue;
            }
            if (j0 > i1 - 1) { // every cell masked
                sums(r, s) = 0.0;
                continue;
            }
            double sum = 0.0;
            const std::int64_t full = std::max(i0, j1); // rows i >= j1 see the whole column block
            if (full < i1)
                sum += range(cq, full, i1).dot(range(ck, j0, j1));
            const std::int64_t m0 = std::max(i0, j0), m1 = std::min(i1, j1);
            Eigen::RowVectorXd k = range(ck, j0, m0); // keys j0 .. m0 - 1, seen by every row i >= m0
            Eigen::VectorXd qi(d), kj(d);
            for (std::int64_t i = m0; i < m1; ++i) {
                content_vector_into(c.s.content, true, d, i, kj.data());
                k += kj.transpose();
                content_vector_into(c.s.content, false, d, i, qi.data());
                sum += k.dot(qi.transpose());
            }
            sums(r, s) = sum;
        }
    report_progress(c.progress, 0.8 + 0.2 * static_cast<double>(s1) / static_cast<double>(C));
    }
    return sums;
}

// ------------------------------------------------------------------ absolute methods

void absolute_logits(Context& c, const Eigen::MatrixXd& pe_rows, const Eigen::MatrixXd& pe_cols,
                     const std::vector<bool>& row_ok, const std::vector<bool>& col_ok)
{
    const int d = static_cast<int>(pe_rows.cols());
    const Eigen::MatrixXd q = queries(c, d) + pe_rows;
    const Eigen::MatrixXd k = keys(c, d) + pe_cols;
    check_cancel(c.cancel);
    gemm_nt(q, k, 1.0 / std::sqrt(static_cast<double>(d)), c.precision, c.out.values);
    for (std::size_t r = 0; r < row_ok.size(); ++r)
        for (std::size_t col = 0; col < col_ok.size(); ++col)
            if (!row_ok[r] || !col_ok[col])
                c.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = kNaN;
    report_progress(c.progress, 1.0);
}

Eigen::MatrixXd sinusoidal_rows(const SinusoidalParams& p, const std::vector<std::int64_t>& positions)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(positions.size()), p.dim);
    for (std::size_t r = 0; r < positions.size(); ++r)
        m.row(static_cast<Eigen::Index>(r)) = sinusoidal_row(p, positions[r]).transpose();
    return m;
}

// Rows of the learned table (zero where missing) and which positions exist.
std::pair<Eigen::MatrixXd, std::vector<bool>> learned_rows(const LearnedTable& t,
                                                           const std::vector<std::int64_t>& positions)
{
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(positions.size()), t.dim());
    std::vector<bool> ok(positions.size());
    for (std::size_t r = 0; r < positions.size(); ++r) {
        ok[r] = t.has(positions[r]);
        if (ok[r])
            m.row(static_cast<Eigen::Index>(r)) = t.table().row(positions[r]);
    }
    return {std::move(m), std::move(ok)};
}

void encoding_matrix(Context& c)
{
    // Rows are positions, columns are dimensions.
    c.out.row_label = "position";
    c.out.col_label = "dimension";
    c.out.value_label = "encoding";
    c.out.is_signed = true;
    auto pick = [&](const Eigen::VectorXd& row, Eigen::Index r) {
        for (std::size_t col = 0; col < c.cols.size(); ++col)
            c.out.values(r, static_cast<Eigen::Index>(col)) = row[c.cols[col]];
    };
    if (c.s.method == Method::Sinusoidal) {
        for (std::size_t r = 0; r < c.rows.size(); ++r) {
            if (r % kRowChunk == 0)
                check_cancel(c.cancel);
            pick(sinusoidal_row(c.s.params<SinusoidalParams>(), c.rows[r]), static_cast<Eigen::Index>(r));
        }
    } else {
        for (std::size_t r = 0; r < c.rows.size(); ++r) {
            const auto e = c.learned->embedding(c.rows[r]);
            if (e)
                pick(*e, static_cast<Eigen::Index>(r));
            else
                c.out.values.row(static_cast<Eigen::Index>(r)).setConstant(kNaN);
        }
    }
    report_progress(c.progress, 1.0);
}

// ------------------------------------------------------------------ relative methods

void rope_logits(Context& c)
{
    const RopeFrequencies f = compute_rope_frequencies(c.s.params<RopeParams>());
    const int d = c.s.params<RopeParams>().head_dim;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    if (content_is_position_independent(c.s.content)) {
        const Eigen::VectorXd q = content_query(c.s.content, d, 0);
        const Eigen::VectorXd k = content_key(c.s.content, d, 0);
        const RopePairCoefficients coef = rope_pair_coefficients(f, q, k, c.s.params<RopeParams>().pairing);
        auto by_offset = [&](std::int64_t delta) {
            return rope_relative_score(f, coef, static_cast<double>(delta)) * inv_sqrt_d;
        };
        if (fill_toeplitz(c.out.values, c.rows, c.cols, c.cancel, c.progress, by_offset)) {
            c.out.used_toeplitz = true;
            return;
        }
        // Nearly as many distinct offsets as cells (a sparse sample of a long sequence): a cos/sin per
        // pair and cell would cost d/2 sincos per cell; rotating each sampled query and key once and
        // multiplying (below) costs d/2 sincos per row and column.
    }
    // Rotate every sampled query and key once, then one matrix product.
    Eigen::MatrixXd q = queries(c, d), k = keys(c, d);
    const auto rotate_rows = [&](Eigen::MatrixXd& m, const std::vector<std::int64_t>& pos) {
        const auto n = static_cast<std::int64_t>(pos.size());
        for (std::int64_t r0 = 0; r0 < n; r0 += 256) {
            check_cancel(c.cancel);
            const std::int64_t r1 = std::min(n, r0 + 256);
#pragma omp parallel for schedule(static)
            for (std::int64_t r = r0; r < r1; ++r)
                m.row(r) = rope_rotate(f, m.row(r).transpose(), static_cast<double>(pos[static_cast<std::size_t>(r)]),
                                       c.s.params<RopeParams>().pairing)
                               .transpose();
        }
    };
    rotate_rows(q, c.rows);
    report_progress(c.progress, 0.25);
    rotate_rows(k, c.cols);
    report_progress(c.progress, 0.5);
    check_cancel(c.cancel);
    gemm_nt(q, k, inv_sqrt_d, c.precision, c.out.values);
    report_progress(c.progress, 1.0);
}

// Relative methods whose content term is q_i . k_j / sqrt(d) plus a positional term that depends on
// i - j (and, for random content, on q_i): Toeplitz for position-independent content.
template <typename Direct, typename ByOffset>
void relative_fill(Context& c, Direct&& direct, ByOffset&& by_offset)
{
    if (!c.rb.empty()) { // block means: only reached with position-independent content
        block_from_offsets(c, by_offset, false);
        return;
    }
    if (content_is_position_independent(c.s.content)
        && fill_toeplitz(c.out.values, c.rows, c.cols, c.cancel, c.progress, by_offset)) {
        c.out.used_toeplitz = true;
        return;
    }
    fill_cells(c.out.values, c.cancel, c.progress, direct);
}

void shaw_logits(Context& c)
{
    const ShawTables t = make_shaw_tables(c.s.params<ShawParams>());
    const int d = c.s.params<ShawParams>().head_dim;
    const Eigen::MatrixXd q = queries(c, d), k = keys(c, d);
    relative_fill(
        c,
        [&](std::int64_t r, std::int64_t col) {
            return shaw_logit(t, q.row(r).transpose(), k.row(col).transpose(), c.rows[static_cast<std::size_t>(r)],
                              c.cols[static_cast<std::size_t>(col)]);
        },
        [&](std::int64_t delta) { // i - j = delta; take i = delta, j = 0
            return shaw_logit(t, q.row(0).transpose(), k.row(0).transpose(), delta, 0);
        });
}

void txl_logits(Context& c)
{
    const TxlModel m = make_txl_model(c.s.params<TransformerXLParams>());
    const int d = c.s.params<TransformerXLParams>().head_dim;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    const Eigen::MatrixXd q = queries(c, d), k = keys(c, d);
    relative_fill(
        c,
        [&](std::int64_t r, std::int64_t col) {
            return txl_logit_terms(m, q.row(r).transpose(), k.row(col).transpose(),
                                   c.rows[static_cast<std::size_t>(r)], c.cols[static_cast<std::size_t>(col)])
                       .total(c.s.params<TransformerXLParams>())
                   * inv_sqrt_d;
        },
        [&](std::int64_t delta) {
            return txl_logit_terms(m, q.row(0).transpose(), k.row(0).transpose(), delta, 0).total(c.s.params<TransformerXLParams>())
                   * inv_sqrt_d;
        });
}

void deberta_logits(Context& c)
{
    const DebertaModel m = make_deberta_model(c.s.params<DebertaParams>());
    const int d = c.s.params<DebertaParams>().head_dim;
    const Eigen::MatrixXd q = queries(c, d), k = keys(c, d);
    relative_fill(
        c,
        [&](std::int64_t r, std::int64_t col) {
            return deberta_logit_terms(m, q.row(r).transpose(), k.row(col).transpose(),
                                       c.rows[static_cast<std::size_t>(r)], c.cols[static_cast<std::size_t>(col)])
                .total;
        },
        [&](std::int64_t delta) {
            return deberta_logit_terms(m, q.row(0).transpose(), k.row(0).transpose(), delta, 0).total;
        });
}

// Bias-only methods: bias(i, j) depends on i - j; the logit adds the content term.
template <typename Bias>
void bias_logits(Context& c, Bias&& bias_by_offset, bool causal)
{
    Eigen::MatrixXd bias(c.out.values.rows(), c.out.values.cols());
    fill_toeplitz(bias, c.rows, c.cols, c.cancel, {}, bias_by_offset, true);
    if (content_is_position_independent(c.s.content)) {
        const int d = content_dim(c.s);
        const double qk = content_query(c.s.content, d, 0).dot(content_key(c.s.content, d, 0))
                          / std::sqrt(static_cast<double>(d));
        c.out.values = bias.array() + qk;
        c.out.used_toeplitz = true;
    } else {
        c.out.values = content_term(c, content_dim(c.s)) + bias;
    }
    if (causal)
        for (std::size_t r = 0; r < c.rows.size(); ++r)
            for (std::size_t col = 0; col < c.cols.size(); ++col)
                if (c.cols[col] > c.rows[r])
                    c.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = kNaN;
    report_progress(c.progress, 1.0);
}

std::vector<double> alibi_head_slopes(const Scenario& s) { return alibi_scaled_slopes(s.params<AlibiParams>()); }

double alibi_offset_bias(const Scenario& s, double slope, std::int64_t delta)
{
    // i - j = delta; a masked (future) cell still gets its formula value here, the caller masks it.
    return alibi_bias(slope, delta, 0, s.params<AlibiParams>().bias);
}

void t5_or_alibi(Context& c, MatrixKind kind)
{
    const bool is_t5 = c.s.method == Method::T5;
    Eigen::MatrixXd table;
    double slope = 0.0;
    if (is_t5)
        table = t5_bias_table(c.s.params<T5Params>());
    else
        slope = alibi_head_slopes(c.s)[static_cast<std::size_t>(c.s.head)];
    const bool causal = is_t5 ? !c.s.params<T5Params>().bidirectional : c.s.params<AlibiParams>().bias == AlibiBias::Causal;
    auto bias_by_offset = [&](std::int64_t delta) {
        return is_t5 ? t5_bias(table, c.s.params<T5Params>(), delta, 0, c.s.head) : alibi_offset_bias(c.s, slope, delta);
    };
    if (!c.rb.empty()) {
        if (kind == MatrixKind::Bias) {
            c.out.value_label = "bias";
            block_from_offsets(c, bias_by_offset, causal);
            return;
        }
        const int d = content_dim(c.s);
        const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
        if (content_is_position_independent(c.s.content)) {
            const double qk = content_query(c.s.content, d, 0).dot(content_key(c.s.content, d, 0)) * inv_sqrt_d;
            block_from_offsets(c, [&](std::int64_t delta) { return bias_by_offset(delta) + qk; }, causal);
            return;
        }
        const OffsetBlockSums o = offset_block_sums(c.rb, c.cb, bias_by_offset, causal, c.cancel);
        report_progress(c.progress, 0.3);
        const Eigen::MatrixXd content = masked_content_sums(c, d, causal);
        for (Eigen::Index s = 0; s < o.sums.cols(); ++s)
            for (Eigen::Index r = 0; r < o.sums.rows(); ++r)
                c.out.values(r, s) = safe_mean(o.sums(r, s) + content(r, s) * inv_sqrt_d, o.counts(r, s));
        report_progress(c.progress, 1.0);
        return;
    }
    if (kind == MatrixKind::Bias) {
        c.out.value_label = "bias";
        fill_toeplitz(c.out.values, c.rows, c.cols, c.cancel, c.progress, bias_by_offset, true);
        c.out.used_toeplitz = true;
        if (causal)
            for (std::size_t r = 0; r < c.rows.size(); ++r)
                for (std::size_t col = 0; col < c.cols.size(); ++col)
                    if (c.cols[col] > c.rows[r])
                        c.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = kNaN;
        return;
    }
    bias_logits(c, bias_by_offset, causal);
}

void bucket_matrix(Context& c)
{
    c.out.value_label = c.s.method == Method::Shaw ? "clipped relative index j - i" : "bucket";
    c.out.is_integer = true;
    c.out.is_signed = c.s.method != Method::T5;
    auto by_offset = [&](std::int64_t delta) -> double { // delta = i - j
        switch (c.s.method) {
        case Method::T5:
            return t5_relative_position_bucket(-delta, c.s.params<T5Params>().bidirectional, c.s.params<T5Params>().num_buckets, c.s.params<T5Params>().max_distance);
        case Method::DeBERTa: return static_cast<double>(deberta_relative_position(delta, 0, c.s.params<DebertaParams>()));
        case Method::Shaw: return static_cast<double>(shaw_relative_index(delta, 0, c.s.params<ShawParams>().max_relative_position));
        default: return kNaN;
        }
    };
    fill_toeplitz(c.out.values, c.rows, c.cols, c.cancel, c.progress, by_offset, true);
    c.out.used_toeplitz = true;
}

void cope_matrix(Context& c, MatrixKind kind)
{
    // CoPE positions need every key between j and i: compute the square causal block covering the
    // window, then pick the sampled cells.
    const std::int64_t lo = std::min(c.rows.front(), c.cols.front());
    const std::int64_t hi = std::max(c.rows.back(), c.cols.back());
    const std::int64_t span = hi - lo + 1;
    if (span > kMaxCopeSpan)
        throw ParameterError("seq_len", "a window of at most " + std::to_string(kMaxCopeSpan)
                                            + " positions for CoPE (its positions are sums over the window)",
                             std::to_string(span));
    std::vector<std::int64_t> positions(static_cast<std::size_t>(span));
    for (std::int64_t p = 0; p < span; ++p)
        positions[static_cast<std::size_t>(p)] = lo + p;
    const int d = c.s.params<CopeParams>().head_dim;
    const Eigen::MatrixXd q = content_queries(c.s.content, d, positions);
    const Eigen::MatrixXd k = content_keys(c.s.content, d, positions);
    check_cancel(c.cancel);
    const CopeResult res = cope_attention(q, k, cope_position_embeddings(c.s.params<CopeParams>()), c.s.params<CopeParams>().gate_scale, true);
    report_progress(c.progress, 0.8);
    const Eigen::MatrixXd& src = kind == MatrixKind::CopePositions ? res.positions
                                 : kind == MatrixKind::CopeGates   ? res.gates
                                                                   : res.logits;
    c.out.value_label = kind == MatrixKind::CopePositions ? "contextual position p_ij"
                        : kind == MatrixKind::CopeGates   ? "gate sigmoid(q_i . k_j)"
                                                          : "logit";
    c.out.is_signed = kind == MatrixKind::Logits;
    for (std::size_t r = 0; r < c.rows.size(); ++r)
        for (std::size_t col = 0; col < c.cols.size(); ++col) {
            const auto i = c.rows[r] - lo, j = c.cols[col] - lo;
            c.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = j > i ? kNaN : src(i, j);
        }
    report_progress(c.progress, 1.0);
}

} // namespace

std::string_view matrix_kind_id(MatrixKind k)
{
    for (const auto& [name, value] : kKindIds)
        if (value == k)
            return name;
    return "logits";
}

std::optional<MatrixKind> parse_matrix_kind(std::string_view id)
{
    for (const auto& [name, value] : kKindIds)
        if (name == id)
            return value;
    return std::nullopt;
}

std::string_view matrix_sampling_id(MatrixSampling s)
{
    switch (s) {
    case MatrixSampling::Exact: return "exact";
    case MatrixSampling::BlockMean: return "block-mean";
    case MatrixSampling::Point: return "point";
    }
    return "exact";
}

bool block_mean_supported(const Scenario& s, MatrixKind kind)
{
    switch (kind) {
    case MatrixKind::Encoding:
    case MatrixKind::Bias: return true;
    case MatrixKind::Buckets:
    case MatrixKind::CopePositions:
    case MatrixKind::CopeGates: return false; // not linear in the cells: a mean of bucket indices means nothing
    case MatrixKind::Logits:
        switch (s.method) {
        case Method::Sinusoidal:
        case Method::Learned:
        case Method::RoPE:
        case Method::T5:
        case Method::ALiBi: return true;
        // Their positional term pairs the query (or key) of each position with a vector that depends
        // on i - j: exact block means with random content would need every row against every column
        // block. With position-independent content the logit depends on i - j only.
        case Method::Shaw:
        case Method::TransformerXL:
        case Method::DeBERTa: return content_is_position_independent(s.content);
        case Method::CoPE: return false; // softmax-like gates of running sums: nonlinear
        }
    }
    return false;
}

std::vector<MatrixKind> matrix_kinds_for(Method m)
{
    switch (m) {
    case Method::Sinusoidal:
    case Method::Learned: return {MatrixKind::Encoding, MatrixKind::Logits};
    case Method::Shaw: return {MatrixKind::Logits, MatrixKind::Buckets};
    case Method::TransformerXL: return {MatrixKind::Logits};
    case Method::T5: return {MatrixKind::Bias, MatrixKind::Logits, MatrixKind::Buckets};
    case Method::DeBERTa: return {MatrixKind::Logits, MatrixKind::Buckets};
    case Method::RoPE: return {MatrixKind::Logits};
    case Method::ALiBi: return {MatrixKind::Bias, MatrixKind::Logits};
    case Method::CoPE: return {MatrixKind::CopePositions, MatrixKind::Logits, MatrixKind::CopeGates};
    }
    return {MatrixKind::Logits};
}

MatrixResult compute_matrix(const Scenario& s, MatrixKind kind, const MatrixWindow& window, const CancelFn& cancel,
                            const ProgressFn& progress)
{
    validate(s);
    const auto kinds = matrix_kinds_for(s.method);
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
        std::string allowed;
        for (auto k : kinds) {
            if (!allowed.empty())
                allowed += '|';
            allowed += matrix_kind_id(k);
        }
        throw ParameterError("kind", "one of " + allowed + " for " + std::string(method_id(s.method)),
                             std::string(matrix_kind_id(kind)));
    }
    const bool encoding = kind == MatrixKind::Encoding;
    std::optional<LearnedTable> learned;
    if (s.method == Method::Learned)
        learned = LearnedTable::from_params(s.params<LearnedParams>()); // a user's table sets its own dimension
    const std::int64_t col_extent = !encoding ? s.seq_len : learned ? learned->dim() : content_dim(s);
    const std::int64_t rows = window.rows > 0 ? window.rows : s.seq_len - window.row0;
    const std::int64_t cols = window.cols > 0 ? window.cols : col_extent - window.col0;
    require_int("row0", window.row0, 0, s.seq_len - 1);
    require_int("rows", rows, 1, s.seq_len - window.row0);
    require_int("col0", window.col0, 0, col_extent - 1);
    require_int("cols", cols, 1, col_extent - window.col0);
    const std::int64_t out_rows = window.out_rows > 0 ? std::min(window.out_rows, rows) : rows;
    const std::int64_t out_cols = window.out_cols > 0 ? std::min(window.out_cols, cols) : cols;
    require_matrix_fits(encoding ? "seq_len" : "rows", out_rows, out_cols);

    MatrixResult out;
    const bool downsampled = out_rows < rows || out_cols < cols;
    const bool blocks = downsampled && window.sample == SampleMode::BlockMean && block_mean_supported(s, kind);
    std::vector<std::int64_t> rb, cb;
    if (blocks) {
        rb = block_boundaries(window.row0, rows, out_rows);
        cb = block_boundaries(window.col0, cols, out_cols);
        out.row_index.assign(rb.begin(), rb.end() - 1);
        out.row_block_end.assign(rb.begin() + 1, rb.end());
        out.col_index.assign(cb.begin(), cb.end() - 1);
        out.col_block_end.assign(cb.begin() + 1, cb.end());
        out.sampling = MatrixSampling::BlockMean;
    } else {
        out.row_index = sample_axis(window.row0, rows, out_rows);
        out.col_index = sample_axis(window.col0, cols, out_cols);
        for (const auto i : out.row_index)
            out.row_block_end.push_back(i + 1);
        for (const auto j : out.col_index)
            out.col_block_end.push_back(j + 1);
        out.sampling = downsampled ? MatrixSampling::Point : MatrixSampling::Exact;
    }
    out.values.resize(out_rows, out_cols);
    advise_huge_pages(out.values.data(), static_cast<std::size_t>(out.values.size()));
    out.row_label = "query position i";
    out.col_label = "key position j";
    out.value_label = "logit";
    out.is_signed = true;
    Context c{s, out.row_index, out.col_index, cancel, progress, out, learned ? &*learned : nullptr,
              window.precision, std::move(rb), std::move(cb)};

    if (blocks && kind == MatrixKind::Encoding)
        encoding_block_matrix(c);
    else if (blocks && kind == MatrixKind::Logits
             && (s.method == Method::Sinusoidal || s.method == Method::Learned))
        absolute_block_logits(c);
    else if (blocks && kind == MatrixKind::Logits && s.method == Method::RoPE)
        rope_block_logits(c);
    else { // point samples, exact cells, and the block means of offset functions (they branch on c.rb)
    switch (kind) {
    case MatrixKind::Encoding: encoding_matrix(c); break;
    case MatrixKind::Buckets: bucket_matrix(c); break;
    case MatrixKind::CopePositions:
    case MatrixKind::CopeGates: cope_matrix(c, kind); break;
    case MatrixKind::Bias: t5_or_alibi(c, kind); break;
    case MatrixKind::Logits:
        switch (s.method) {
        case Method::Sinusoidal: {
            absolute_logits(c, sinusoidal_rows(s.params<SinusoidalParams>(), c.rows), sinusoidal_rows(s.params<SinusoidalParams>(), c.cols),
                            std::vector<bool>(c.rows.size(), true), std::vector<bool>(c.cols.size(), true));
            break;
        }
        case Method::Learned: {
            auto [pr, okr] = learned_rows(*c.learned, c.rows);
            auto [pc, okc] = learned_rows(*c.learned, c.cols);
            absolute_logits(c, pr, pc, okr, okc);
            break;
        }
        case Method::Shaw: shaw_logits(c); break;
        case Method::TransformerXL: txl_logits(c); break;
        case Method::T5:
        case Method::ALiBi: t5_or_alibi(c, kind); break;
        case Method::DeBERTa: deberta_logits(c); break;
        case Method::RoPE: rope_logits(c); break;
        case Method::CoPE: cope_matrix(c, kind); break;
        }
        break;
    }
    }

    bool any = false;
    for (Eigen::Index i = 0; i < out.values.size(); ++i) {
        const double v = out.values.data()[i];
        if (!std::isfinite(v))
            continue;
        out.min = any ? std::min(out.min, v) : v;
        out.max = any ? std::max(out.max, v) : v;
        any = true;
    }
    // A diverging map centred on 0 only helps when the values straddle 0; all-positive logits or
    // all-negative biases read better on a sequential map over [min, max].
    out.is_signed = out.is_signed && any && out.min < 0.0 && out.max > 0.0;
    return out;
}

} // namespace posatlas
