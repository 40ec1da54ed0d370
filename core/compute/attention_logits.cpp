// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/attention_logits.h"

#include "compute/block_means.h"
#include "compute/clones.h"
#include "compute/gemm.h"
#include "compute/matrix_job.h"
#include "io/columns.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/content_file.h"
#include "scenario/validation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace posatlas {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Rows per chunk between cancellation checks and progress reports.
constexpr std::int64_t kRowChunk = 32;
// The sampled positions of one axis: start + floor((r + 0.5) * extent / count), or start + r.
std::vector<std::int64_t> sample_axis(std::int64_t start, std::int64_t extent, std::int64_t count)
{
    std::vector<std::int64_t> idx(static_cast<std::size_t>(count));
    for (std::int64_t r = 0; r < count; ++r)
        idx[static_cast<std::size_t>(r)] =
            count == extent
                ? start + r
                : start + static_cast<std::int64_t>((static_cast<double>(r) + 0.5) *
                                                    static_cast<double>(extent) / static_cast<double>(count));
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
    const auto nr = static_cast<std::int64_t>(rows.size());
    const auto nc = static_cast<std::int64_t>(cols.size());
    if (distinct > cells) {
        // A sparse point sample (512 x 512 cells of 10^6 positions span 2 x 10^6 offsets): evaluating
        // each cell's offset is fewer calls than tabulating every offset of the span.
        constexpr std::int64_t kColumns = 64;
        for (std::int64_t c0 = 0; c0 < nc; c0 += kColumns) {
            check_cancel(cancel);
            const std::int64_t c1 = std::min(nc, c0 + kColumns);
#pragma omp parallel for schedule(static) if ((c1 - c0) * nr > 16384)
            for (std::int64_t c = c0; c < c1; ++c) {
                const std::int64_t col = cols[static_cast<std::size_t>(c)];
                double* column = values.col(c).data();
                for (std::int64_t r = 0; r < nr; ++r)
                    column[r] = by_offset(rows[static_cast<std::size_t>(r)] - col);
            }
            report_progress(progress, static_cast<double>(c1) / static_cast<double>(nc));
        }
        return true;
    }
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
void advise_huge_pages(void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < (std::size_t{16} << 20))
        return;
    constexpr std::uintptr_t kPage = 4096;
    const auto first = (reinterpret_cast<std::uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
    const auto last = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kPage - 1);
    if (last > first)
        ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace

void final_product(MatrixJob& job, const Eigen::Ref<const Eigen::MatrixXd>& a,
                   const Eigen::Ref<const Eigen::MatrixXd>& b, double scale)
{
    if (job.single_result) {                // compute_matrix refuses a float32 result with double arithmetic
        job.out.values = Eigen::MatrixXd(); // never touched, so never faulted in
        job.out.values_f.resize(a.rows(), b.rows());
        advise_huge_pages(job.out.values_f.data(),
                          static_cast<std::size_t>(job.out.values_f.size()) * sizeof(float));
        gemm_nt_single(a, b, scale, job.out.values_f);
        return;
    }
    gemm_nt(a, b, scale, job.precision, job.out.values);
}

Eigen::MatrixXd job_queries(const MatrixJob& c, int dim)
{
    return content_queries(c.s.content, dim, c.rows);
}
Eigen::MatrixXd job_keys(const MatrixJob& c, int dim)
{
    return content_keys(c.s.content, dim, c.cols);
}

// Plain content term q_i . k_j / sqrt(d) for every cell, as one matrix product.
Eigen::MatrixXd content_term(const MatrixJob& c, int dim)
{
    check_cancel(c.cancel);
    Eigen::MatrixXd qk;
    qk.noalias() = job_queries(c, dim) * job_keys(c, dim).transpose();
    return qk / std::sqrt(static_cast<double>(dim));
}

// ------------------------------------------------------------------ exact block means

double safe_mean(double sum, double count)
{
    return count > 0.0 ? sum / count : kNaN;
}

// values(r, s) = (sum of f(i - j) over the block) / (number of cells), from offset_block_sums.
void block_means_from_offsets(MatrixJob& c, const std::function<double(std::int64_t)>& by_offset, bool causal,
                              const OffsetRuns* changes)
{
    const OffsetBlockSums o = offset_block_sums(c.rb, c.cb, by_offset, causal, c.cancel, changes);
    for (Eigen::Index s = 0; s < o.sums.cols(); ++s)
        for (Eigen::Index r = 0; r < o.sums.rows(); ++r)
            c.out.values(r, s) = safe_mean(o.sums(r, s), o.counts(r, s));
    c.out.used_toeplitz = true;
    report_progress(c.progress, 1.0);
}

namespace {
// Sum of the content vectors (query, or key when `key`) over positions [begin, end), added into acc.
void add_content(const ContentParams& content, bool key, int d, std::int64_t begin, std::int64_t end,
                 double* acc)
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
} // namespace

// Block means of the content vectors over each block [b[t], b[t + 1]) clipped to [lo, hi) (the
// positions that exist); `valid` receives each block's clipped size. Rows with no position are 0.
Eigen::MatrixXd content_block_means(const MatrixJob& c, bool key, int d, const std::vector<std::int64_t>& b,
                                    std::int64_t lo, std::int64_t hi, std::vector<std::int64_t>& valid,
                                    double progress_from, double progress_to)
{
    std::vector<std::int64_t> clipped(b.size());
    for (std::size_t t = 0; t < b.size(); ++t)
        clipped[t] = std::clamp(b[t], lo, std::max(lo, hi));
    const Eigen::MatrixXd cum = cumulative_at(
        clipped, d,
        [&](std::int64_t begin, std::int64_t end, double* acc) {
            add_content(c.s.content, key, d, begin, end, acc);
        },
        c.cancel, c.progress, progress_from, progress_to);
    const auto n = static_cast<std::int64_t>(b.size()) - 1;
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, d);
    valid.assign(static_cast<std::size_t>(n), 0);
    for (std::int64_t t = 0; t < n; ++t) {
        const std::int64_t len =
            clipped[static_cast<std::size_t>(t) + 1] - clipped[static_cast<std::size_t>(t)];
        valid[static_cast<std::size_t>(t)] = len;
        if (len > 0)
            m.row(t) = (cum.row(t + 1) - cum.row(t)) / static_cast<double>(len);
    }
    return m;
}

// Content term of a masked block: sum over the unmasked cells (j <= i when causal) of q_i . k_j.
// Cumulative content sums at every row and column boundary give whole sub-blocks; only the part of
// the block on both sides of the diagonal (i and j both in I intersect J) needs single vectors, so
// the whole matrix costs O((rows + cols) d) content vectors.
Eigen::MatrixXd masked_content_sums(const MatrixJob& c, int d, bool causal)
{
    std::vector<std::int64_t> u(c.rb);
    u.insert(u.end(), c.cb.begin(), c.cb.end());
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    const std::int64_t r_lo = c.rb.front(), r_hi = c.rb.back(), c_lo = c.cb.front(), c_hi = c.cb.back();
    // Causal blocks on the diagonal read single vectors again. When every position's content fits in
    // 2^21 values (16 MB; N = 4096 at d <= 512), it is generated once for both uses, not once for the
    // block sums and again for each row of a straddling block (NoPE heatmap of 4096 positions, random
    // content: half of its normals).
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const std::int64_t base = std::min(r_lo, c_lo), span = std::max(r_hi, c_hi) - base;
    const bool cached = causal && !content_is_position_independent(c.s.content) && span * d <= (1 << 21);
    RowMajor q_all, k_all;
    if (cached) {
        std::vector<std::int64_t> positions(static_cast<std::size_t>(span));
        std::iota(positions.begin(), positions.end(), base);
        q_all = content_queries(c.s.content, d, positions);
        k_all = content_keys(c.s.content, d, positions);
    }
    const auto vector_at = [&](bool key, std::int64_t p, double* out) {
        if (cached)
            std::copy_n((key ? k_all : q_all).row(p - base).data(), d, out);
        else
            content_vector_into(c.s.content, key, d, p, out);
    };
    const auto add = [&](bool key, std::int64_t b, std::int64_t e, double* acc) {
        if (!cached) {
            add_content(c.s.content, key, d, b, e, acc);
            return;
        }
        Eigen::Map<Eigen::RowVectorXd> sum(acc, d);
        for (std::int64_t p = b; p < e; ++p)
            sum += (key ? k_all : q_all).row(p - base);
    };
    const Eigen::MatrixXd cq = cumulative_at(
        u, d,
        [&](std::int64_t b, std::int64_t e, double* acc) {
            add(false, std::max(b, r_lo), std::min(e, r_hi), acc);
        },
        c.cancel, c.progress, 0.3, 0.55);
    const Eigen::MatrixXd ck = cumulative_at(
        u, d,
        [&](std::int64_t b, std::int64_t e, double* acc) {
            add(true, std::max(b, c_lo), std::min(e, c_hi), acc);
        },
        c.cancel, c.progress, 0.55, 0.8);
    const auto at = [&](std::int64_t x) { return std::lower_bound(u.begin(), u.end(), x) - u.begin(); };
    // Sum over [x, y) of a cumulative table, both ends boundaries.
    const auto range = [&](const Eigen::MatrixXd& cum, std::int64_t x, std::int64_t y) -> Eigen::RowVectorXd {
        return cum.row(at(y)) - cum.row(at(x));
    };
    const auto R = static_cast<std::int64_t>(c.rb.size()) - 1, C = static_cast<std::int64_t>(c.cb.size()) - 1;
    // Every unmasked block's sum is (sum of its queries) . (sum of its keys): all of them at once as one
    // product of the R x d and C x d block sums, not one dot product per block through a lookup and two
    // temporary vectors.
    Eigen::MatrixXd bq(R, d), bk(C, d);
    for (std::int64_t r = 0; r < R; ++r)
        bq.row(r) = range(cq, c.rb[static_cast<std::size_t>(r)], c.rb[static_cast<std::size_t>(r) + 1]);
    for (std::int64_t s = 0; s < C; ++s)
        bk.row(s) = range(ck, c.cb[static_cast<std::size_t>(s)], c.cb[static_cast<std::size_t>(s) + 1]);
    check_cancel(c.cancel);
    Eigen::MatrixXd sums;
    gemm_nt(bq, bk, 1.0, Precision::Double, sums);
    report_progress(c.progress, 0.85);
    if (!causal)
        return sums;
    // Causal: blocks wholly after their query block are 0; the few that straddle the diagonal add
    // their unmasked part row by row.
    struct Straddle {
        std::int64_t r, s;
    };
    std::vector<Straddle> straddles;
    for (std::int64_t s = 0; s < C; ++s)
        for (std::int64_t r = 0; r < R; ++r) {
            const std::int64_t i0 = c.rb[static_cast<std::size_t>(r)],
                               i1 = c.rb[static_cast<std::size_t>(r) + 1];
            const std::int64_t j0 = c.cb[static_cast<std::size_t>(s)],
                               j1 = c.cb[static_cast<std::size_t>(s) + 1];
            if (j1 - 1 <= i0) // every cell unmasked
                continue;
            if (j0 > i1 - 1) // every cell masked
                sums(r, s) = 0.0;
            else
                straddles.push_back({r, s});
        }
    const auto ns = static_cast<std::int64_t>(straddles.size());
    constexpr std::int64_t kStraddles = 256;
    for (std::int64_t t0 = 0; t0 < ns; t0 += kStraddles) {
        check_cancel(c.cancel);
        const std::int64_t t1 = std::min(ns, t0 + kStraddles);
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t t = t0; t < t1; ++t) {
            const std::int64_t r = straddles[static_cast<std::size_t>(t)].r,
                               s = straddles[static_cast<std::size_t>(t)].s;
            const std::int64_t i0 = c.rb[static_cast<std::size_t>(r)],
                               i1 = c.rb[static_cast<std::size_t>(r) + 1];
            const std::int64_t j0 = c.cb[static_cast<std::size_t>(s)],
                               j1 = c.cb[static_cast<std::size_t>(s) + 1];
            double sum = 0.0;
            const std::int64_t full = std::max(i0, j1); // rows i >= j1 see the whole column block
            if (full < i1)
                sum += range(cq, full, i1).dot(range(ck, j0, j1));
            const std::int64_t m0 = std::max(i0, j0), m1 = std::min(i1, j1);
            Eigen::RowVectorXd k = range(ck, j0, m0); // keys j0 .. m0 - 1, seen by every row i >= m0
            Eigen::VectorXd qi(d), kj(d);
            for (std::int64_t i = m0; i < m1; ++i) {
                vector_at(true, i, kj.data());
                k += kj.transpose();
                vector_at(false, i, qi.data());
                sum += k.dot(qi.transpose());
            }
            sums(r, s) = sum;
        }
        report_progress(c.progress, 0.85 + 0.15 * static_cast<double>(t1) / static_cast<double>(ns));
    }
    return sums;
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

// ------------------------------------------------------------------ building blocks for kernels

bool fill_by_offset(const MatrixJob& job, Eigen::MatrixXd& values,
                    const std::function<double(std::int64_t)>& by_offset, bool force)
{
    return fill_toeplitz(values, job.rows, job.cols, job.cancel, job.progress, by_offset, force);
}

void mask_future(MatrixJob& job)
{
    for (std::size_t r = 0; r < job.rows.size(); ++r)
        for (std::size_t col = 0; col < job.cols.size(); ++col)
            if (job.cols[col] > job.rows[r])
                job.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = kNaN;
}

Eigen::MatrixXd block_cell_counts(const MatrixJob& job, bool causal)
{
    const OffsetRuns one_run; // f = 0 is one constant run: the counts in closed form
    const OffsetBlockSums o = offset_block_sums(
        job.rb, job.cb, [](std::int64_t) { return 0.0; }, causal, job.cancel, &one_run);
    return o.counts;
}

void fill_each_cell(MatrixJob& job, const std::function<double(std::int64_t, std::int64_t)>& cell)
{
    fill_cells(job.out.values, job.cancel, job.progress, cell);
}

void content_plus_gathered(MatrixJob& job, const Eigen::MatrixXd& q, const Eigen::MatrixXd& k, double scale,
                           const std::vector<GatheredTerm>& terms)
{
    check_cancel(job.cancel);
    Eigen::MatrixXd& v = job.out.values;
    gemm_nt(q, k, scale, job.precision, v);
    const auto rows = static_cast<std::int64_t>(job.rows.size()),
               cols = static_cast<std::int64_t>(job.cols.size());
    const std::int64_t cells = rows * cols;
    const std::int64_t lo = job.rows.front() - job.cols.back(), hi = job.rows.back() - job.cols.front();
    const bool by_offset_table = hi - lo + 1 <= cells;
    struct Prepared {
        const GatheredTerm* term;
        Eigen::MatrixXd products;        // (rows or cols) x E, scaled; empty: a dot product per cell
        std::vector<std::int32_t> index; // per offset - lo, when by_offset_table
    };
    std::vector<Prepared> prepared;
    for (const GatheredTerm& t : terms) {
        Prepared p{&t, {}, {}};
        const Eigen::MatrixXd& x = t.by_key ? k : q;
        if (x.rows() * t.embeddings.rows() <= std::max<std::int64_t>(cells, std::int64_t{1} << 22))
            gemm_nt(x, t.embeddings, scale, Precision::Double, p.products);
        if (by_offset_table) {
            p.index.resize(static_cast<std::size_t>(hi - lo + 1));
#pragma omp parallel for schedule(static) if (hi - lo > 4096)
            for (std::int64_t o = lo; o <= hi; ++o)
                p.index[static_cast<std::size_t>(o - lo)] = static_cast<std::int32_t>(t.index(o));
        }
        prepared.push_back(std::move(p));
        check_cancel(job.cancel);
    }
    fill_cells(v, job.cancel, job.progress, [&](std::int64_t r, std::int64_t c) {
        const std::int64_t delta =
            job.rows[static_cast<std::size_t>(r)] - job.cols[static_cast<std::size_t>(c)];
        double value = v(r, c);
        for (const Prepared& p : prepared) {
            const std::int64_t e =
                by_offset_table ? p.index[static_cast<std::size_t>(delta - lo)] : p.term->index(delta);
            const std::int64_t x = p.term->by_key ? c : r;
            value += p.products.size() > 0
                         ? p.products(x, e)
                         : scale * (p.term->by_key ? k : q).row(x).dot(p.term->embeddings.row(e));
        }
        return value;
    });
}

void relative_fill(MatrixJob& job, const std::function<double(std::int64_t, std::int64_t)>& direct,
                   const std::function<double(std::int64_t)>& by_offset, const OffsetRuns* runs)
{
    if (job.block_means()) {
        block_means_from_offsets(job, by_offset, false, runs);
        return;
    }
    if (content_is_position_independent(job.s.content) && fill_by_offset(job, job.out.values, by_offset)) {
        job.out.used_toeplitz = true;
        return;
    }
    fill_each_cell(job, direct);
}

OffsetRuns bucket_runs(const MatrixJob& job,
                       const std::vector<std::function<std::int64_t(std::int64_t)>>& buckets)
{
    OffsetRuns runs;
    if (!job.block_means())
        return runs;
    const std::int64_t lo = job.rb.front() - job.cb.back() + 1, hi = job.rb.back() - 1 - job.cb.front();
    for (const auto& g : buckets) {
        const std::vector<std::int64_t> c = monotone_change_points(g, lo, hi);
        runs.changes.insert(runs.changes.end(), c.begin(), c.end());
    }
    std::sort(runs.changes.begin(), runs.changes.end());
    runs.changes.erase(std::unique(runs.changes.begin(), runs.changes.end()), runs.changes.end());
    return runs;
}

void additive_bias_matrix(MatrixJob& c, const std::function<double(std::int64_t)>& bias_by_offset,
                          bool causal, int d, const OffsetRuns* changes)
{
    const bool bias_only = c.kind == MatrixKind::Bias;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    const bool constant_content = content_is_position_independent(c.s.content);
    const double qk = bias_only || !constant_content
                          ? 0.0
                          : content_query(c.s.content, d, 0).dot(content_key(c.s.content, d, 0)) * inv_sqrt_d;
    if (c.block_means()) {
        if (bias_only || constant_content) {
            block_means_from_offsets(
                c, [&](std::int64_t delta) { return bias_by_offset(delta) + qk; }, causal, changes);
            return;
        }
        const OffsetBlockSums o = offset_block_sums(c.rb, c.cb, bias_by_offset, causal, c.cancel, changes);
        report_progress(c.progress, 0.3);
        const Eigen::MatrixXd content = masked_content_sums(c, d, causal);
        for (Eigen::Index s = 0; s < o.sums.cols(); ++s)
            for (Eigen::Index r = 0; r < o.sums.rows(); ++r)
                c.out.values(r, s) = safe_mean(o.sums(r, s) + content(r, s) * inv_sqrt_d, o.counts(r, s));
        report_progress(c.progress, 1.0);
        return;
    }
    if (bias_only || constant_content) {
        fill_toeplitz(
            c.out.values, c.rows, c.cols, c.cancel, c.progress,
            [&](std::int64_t delta) { return bias_by_offset(delta) + qk; }, true);
        c.out.used_toeplitz = true;
    } else {
        Eigen::MatrixXd bias(c.out.values.rows(), c.out.values.cols());
        fill_toeplitz(bias, c.rows, c.cols, c.cancel, {}, bias_by_offset, true);
        c.out.values = content_term(c, d) + bias;
    }
    if (causal)
        mask_future(c);
    report_progress(c.progress, 1.0);
}

// ------------------------------------------------------------------ compute_matrix

namespace {

bool has_window(const Scenario& s)
{
    return s.causal && s.window != LayerAttention::Global;
}

// NaN at every cell the scenario's sliding window or chunks hide (mask_allows), as a causal mask hides
// keys after the query: the cells are exact or point samples here (block_mean_supported).
void mask_outside_window(MatrixJob& job)
{
    const auto rows = static_cast<Eigen::Index>(job.rows.size());
    const auto cols = static_cast<Eigen::Index>(job.cols.size());
    for (Eigen::Index r = 0; r < rows; ++r) {
        check_cancel(job.cancel);
        for (Eigen::Index c = 0; c < cols; ++c) {
            if (mask_allows(job.s, job.rows[static_cast<std::size_t>(r)],
                            job.cols[static_cast<std::size_t>(c)]))
                continue;
            if (job.out.single())
                job.out.values_f(r, c) = std::numeric_limits<float>::quiet_NaN();
            else
                job.out.values(r, c) = std::numeric_limits<double>::quiet_NaN();
        }
    }
}

// Llama 4's temperature (Scenario::attn_temperature_tuning) differs from 1 somewhere in 0 .. N - 1: it
// grows with the position (floor is monotone), so at the last position when anywhere.
bool temperature_varies(const Scenario& s)
{
    return temperature_applies(s) && logit_temperature(s, s.seq_len - 1) != 1.0;
}

// Row r of the logits times the temperature of its query position: the query scaled before its dot
// products (Llama4TextAttention.forward), the logits of NoPE and RoPE being linear in the query.
void scale_by_temperature(MatrixJob& job)
{
    for (std::size_t r = 0; r < job.rows.size(); ++r) {
        const double t = logit_temperature(job.s, job.rows[r]);
        const auto i = static_cast<Eigen::Index>(r);
        if (job.out.single())
            job.out.values_f.row(i) *= static_cast<float>(t);
        else
            job.out.values.row(i) *= t;
    }
}

} // namespace

bool block_mean_supported(const Scenario& s, MatrixKind kind)
{
    // The means over a window's or chunk's cells are not the kernels' business: point sampling then.
    if (kind == MatrixKind::Logits && (has_window(s) || temperature_varies(s)))
        return false;
    const MatrixKindSpec* spec = descriptor(s.method).kind(kind);
    return spec && spec->block_means && spec->block_means(s);
}

std::int64_t matrix_columns(const Scenario& s, MatrixKind kind)
{
    const MethodDescriptor& d = descriptor(s.method);
    return kind == MatrixKind::Encoding && d.encoding_dim ? d.encoding_dim(s) : s.seq_len;
}

MatrixResult compute_matrix(const Scenario& s, MatrixKind kind, const MatrixWindow& window,
                            const CancelFn& cancel, const ProgressFn& progress)
{
    validate(s);
    const MethodDescriptor& method = descriptor(s.method);
    const MatrixKindSpec* spec = method.kind(kind);
    if (!spec) {
        std::string allowed;
        for (const MatrixKindSpec& k : method.kinds) {
            if (!allowed.empty())
                allowed += '|';
            allowed +=
                k.kind.id(); // appended, not `"|" + std::string(...)`: GCC 12 warns a false -Wrestrict there
        }
        throw ParameterError("kind", "one of " + allowed + " for " + std::string(s.method.id()),
                             std::string(kind.id()));
    }
    const std::int64_t col_extent = matrix_columns(s, kind);
    const std::int64_t rows = window.rows > 0 ? window.rows : s.seq_len - window.row0;
    const std::int64_t cols = window.cols > 0 ? window.cols : col_extent - window.col0;
    require_int("row0", window.row0, 0, s.seq_len - 1);
    require_int("rows", rows, 1, s.seq_len - window.row0);
    require_int("col0", window.col0, 0, col_extent - 1);
    require_int("cols", cols, 1, col_extent - window.col0);
    const std::int64_t out_rows = window.out_rows > 0 ? std::min(window.out_rows, rows) : rows;
    const std::int64_t out_cols = window.out_cols > 0 ? std::min(window.out_cols, cols) : cols;
    require_matrix_fits(kind == MatrixKind::Encoding ? "seq_len" : "rows", out_rows, out_cols);
    if (window.single_result && window.precision != Precision::Single)
        throw ParameterError("precision", "single when a float32 result is asked for", "double");

    MatrixResult out;
    const bool downsampled = out_rows < rows || out_cols < cols;
    const bool blocks =
        downsampled && window.sample == SampleMode::BlockMean && block_mean_supported(s, kind);
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
    advise_huge_pages(out.values.data(), static_cast<std::size_t>(out.values.size()) * sizeof(double));
    out.row_label = QT_TRANSLATE_NOOP("MatrixLabel", "query position i");
    out.col_label = QT_TRANSLATE_NOOP("MatrixLabel", "key position j");
    out.value_label = spec->value_label;
    out.row_name = columns::kQueryPosition;
    out.col_name = columns::kKeyPosition;
    out.value_name = std::string(kind.id());
    std::replace(out.value_name.begin(), out.value_name.end(), '-', '_');
    out.is_signed = true;
    // The user's queries and keys are read (or taken from the cache) once here: kernels then read rows
    // without a lookup per cell.
    std::optional<Scenario> with_files;
    if (s.content.from_files()) {
        with_files = s;
        resolve_content_files(with_files->content);
    }
    MatrixJob job{with_files ? *with_files : s,
                  kind,
                  out.row_index,
                  out.col_index,
                  cancel,
                  progress,
                  out,
                  window.precision,
                  std::move(rb),
                  std::move(cb)};
    job.single_result = window.single_result;
    spec->compute(job);
    if (kind == MatrixKind::Logits && has_window(s))
        mask_outside_window(job);
    if (kind == MatrixKind::Logits && temperature_varies(s))
        scale_by_temperature(job);

    if (window.single_result && !out.single()) {
        // The kernel computed in double: one rounding to float32 per value, and the double array freed.
        out.values_f = out.values.cast<float>();
        out.values = Eigen::MatrixXd();
    }
    double lo = 0.0, hi = 0.0;
    const bool any = out.single() ? finite_extremes(out.values_f.data(), out.values_f.size(), lo, hi)
                                  : finite_extremes(out.values.data(), out.values.size(), lo, hi);
    if (any) {
        out.min = lo;
        out.max = hi;
    }
    // A diverging map centred on 0 only helps when the values straddle 0; all-positive logits or
    // all-negative biases read better on a sequential map over [min, max].
    out.is_signed = out.is_signed && any && out.min < 0.0 && out.max > 0.0;
    return out;
}

} // namespace posatlas
