// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/block_means.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace posatlas {

std::vector<std::int64_t> block_boundaries(std::int64_t start, std::int64_t extent, std::int64_t count)
{
    std::vector<std::int64_t> b(static_cast<std::size_t>(count) + 1);
    // r * extent stays below 2^63 for every extent and count the validation allows (<= 2^31 each).
    for (std::int64_t r = 0; r <= count; ++r)
        b[static_cast<std::size_t>(r)] = start + r * extent / count;
    return b;
}

std::complex<double> dirichlet_sum(double w, std::int64_t a, std::int64_t n)
{
    const double half = std::sin(0.5 * w);
    // The centre a + (n - 1)/2 is a half-integer, exact in double for any position we allow.
    const double centre = static_cast<double>(a) + 0.5 * static_cast<double>(n - 1);
    const double magnitude =
        half == 0.0 ? static_cast<double>(n) : std::sin(0.5 * static_cast<double>(n) * w) / half;
    return std::polar(1.0, centre * w) * magnitude;
}

std::vector<std::int64_t> monotone_change_points(const std::function<std::int64_t(std::int64_t)>& g,
                                                 std::int64_t lo, std::int64_t hi)
{
    std::vector<std::int64_t> out;
    // Changes inside [a, b] of a monotone piece: none when g(a) == g(b); else split (the values at both
    // ends are known, so each call evaluates one new point).
    std::function<void(std::int64_t, std::int64_t, std::int64_t, std::int64_t)> scan =
        [&](std::int64_t a, std::int64_t b, std::int64_t ga, std::int64_t gb) {
            if (ga == gb)
                return;
            if (b == a + 1) {
                out.push_back(b);
                return;
            }
            const std::int64_t m = a + (b - a) / 2;
            const std::int64_t gm = g(m);
            scan(a, m, ga, gm);
            scan(m, b, gm, gb);
        };
    const auto piece = [&](std::int64_t a, std::int64_t b) { // monotone on [a, b]
        if (a <= b)
            scan(a, b, g(a), g(b));
    };
    const auto boundary = [&](std::int64_t o) { // o - 1 and o in different pieces
        if (o > lo && o <= hi && g(o) != g(o - 1))
            out.push_back(o);
    };
    piece(lo, std::min<std::int64_t>(hi, -1));
    boundary(0);
    boundary(1);
    piece(std::max<std::int64_t>(lo, 1), hi);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

// offset_block_sums for a piecewise-linear f: one f call per run, each run added in closed form. The runs
// and both prefixes at each run's start are built first; every query is then answered on its own (a
// binary search for its run), so no sort of the queries is needed.
void piecewise_prefixes(std::int64_t lo, std::int64_t hi, const std::function<double(std::int64_t)>& f,
                        bool causal, const OffsetRuns& runs, const std::vector<std::int64_t>& x,
                        std::vector<long double>& g, std::vector<std::int64_t>& gc, const CancelFn& cancel)
{
    const std::vector<std::int64_t>& changes = runs.changes;
    // After k offsets of value v, slope w: the first prefix grows by v k + w k (k - 1) / 2, the second by
    // first k + v k (k + 1) / 2 + w (k + 1) k (k - 1) / 6.
    const auto first_growth = [](long double v, long double w, std::int64_t k) {
        const auto kk = static_cast<long double>(k);
        return v * kk + w * kk * (kk - 1.0L) * 0.5L;
    };
    const auto second_growth = [](long double first, long double v, long double w, std::int64_t k) {
        const auto kk = static_cast<long double>(k);
        return first * kk + v * kk * (kk + 1.0L) * 0.5L + w * (kk + 1.0L) * kk * (kk - 1.0L) / 6.0L;
    };
    // The counts' prefixes, integers below 2^53 (at most 2 N^2), in integer arithmetic: exact, and a
    // quarter of the long-double work of a 900 x 900 picture.
    const auto count_growth = [](std::int64_t first, std::int64_t c, std::int64_t k) {
        return first * k + c * (k * (k + 1) / 2);
    };
    struct Run {
        std::int64_t a;
        long double v, w;     // value at a, slope
        std::int64_t c;       // 1 (kept) or 0 (masked)
        long double f1, g1;   // both prefixes before a
        std::int64_t c1, cg1; // and the counts'
    };
    std::vector<Run> list;
    std::vector<std::int64_t> starts;
    // The run containing lo starts at or before it: its slope is the one of that start.
    const auto start_of = [&](std::int64_t a) {
        const auto it = std::upper_bound(changes.begin(), changes.end(), a);
        return it == changes.begin() ? lo : *(it - 1);
    };
    long double f1 = 0.0L, g1 = 0.0L;
    std::int64_t c1 = 0, cg1 = 0;
    auto next = std::upper_bound(changes.begin(), changes.end(), lo);
    for (std::int64_t a = lo; a <= hi;) {
        if (list.size() % 4096 == 4095)
            check_cancel(cancel);
        std::int64_t b = next == changes.end() ? hi : std::min(hi, *next - 1);
        if (causal && a < 0)
            b = std::min<std::int64_t>(b, -1); // the masked offsets form runs of their own
        const bool kept = !causal || a >= 0;
        Run r{a,
              kept ? static_cast<long double>(f(a)) : 0.0L,
              kept && runs.slope ? static_cast<long double>(runs.slope(start_of(a))) : 0.0L,
              kept ? 1 : 0,
              f1,
              g1,
              c1,
              cg1};
        list.push_back(r);
        starts.push_back(a);
        const std::int64_t k = b - a + 1;
        g1 += second_growth(f1, r.v, r.w, k);
        cg1 += count_growth(c1, r.c, k);
        f1 += first_growth(r.v, r.w, k);
        c1 += r.c * k;
        a = b + 1;
        while (next != changes.end() && *next <= a)
            ++next;
    }
    check_cancel(cancel);
    const auto nq = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) if (nq > 4096)
    for (std::int64_t i = 0; i < nq; ++i) {
        const std::int64_t xi = x[static_cast<std::size_t>(i)];
        if (xi < lo) // before the first reachable offset both prefixes are 0
            continue;
        const auto at = std::upper_bound(starts.begin(), starts.end(), xi) - starts.begin() - 1;
        const Run& r = list[static_cast<std::size_t>(at)];
        const std::int64_t k = xi - r.a + 1;
        g[static_cast<std::size_t>(i)] = r.g1 + second_growth(r.f1, r.v, r.w, k);
        gc[static_cast<std::size_t>(i)] = r.cg1 + count_growth(r.c1, r.c, k);
    }
}

// offset_block_sums for any f: f at every offset (in parallel chunks), both prefixes summed in order, and
// the queries answered as the walk passes them (sorted once).
void walk_prefixes(std::int64_t lo, std::int64_t hi, const std::function<double(std::int64_t)>& f,
                   bool causal, const std::vector<std::int64_t>& x, std::vector<long double>& g,
                   std::vector<std::int64_t>& gc, const CancelFn& cancel)
{
    std::vector<std::size_t> order(x.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    long double f1 = 0.0L, g1 = 0.0L;
    std::int64_t c1 = 0, cg1 = 0;
    std::size_t q = 0;
    while (q < order.size() && x[order[q]] < lo) // before the first reachable offset both prefixes are 0
        ++q;
    constexpr std::int64_t kChunk = 1 << 16;
    std::vector<double> buf(static_cast<std::size_t>(std::min<std::int64_t>(kChunk, hi - lo + 1)));
    for (std::int64_t o0 = lo; o0 <= hi; o0 += kChunk) {
        check_cancel(cancel);
        const std::int64_t o1 = std::min(hi + 1, o0 + kChunk);
#pragma omp parallel for schedule(static) if (o1 - o0 > 1024)
        for (std::int64_t o = o0; o < o1; ++o)
            buf[static_cast<std::size_t>(o - o0)] = causal && o < 0 ? 0.0 : f(o);
        for (std::int64_t o = o0; o < o1; ++o) {
            f1 += buf[static_cast<std::size_t>(o - o0)];
            g1 += f1;
            if (!causal || o >= 0)
                ++c1;
            cg1 += c1;
            while (q < order.size() && x[order[q]] == o) {
                g[order[q]] = g1;
                gc[order[q]] = cg1;
                ++q;
            }
        }
    }
}

} // namespace

OffsetBlockSums offset_block_sums(const std::vector<std::int64_t>& rb, const std::vector<std::int64_t>& cb,
                                  const std::function<double(std::int64_t)>& f, bool causal,
                                  const CancelFn& cancel, const OffsetRuns* changes)
{
    const auto R = static_cast<std::int64_t>(rb.size()) - 1;
    const auto C = static_cast<std::int64_t>(cb.size()) - 1;
    const std::int64_t lo = rb.front() - cb.back() + 1;
    const std::int64_t hi = rb.back() - 1 - cb.front();
    // Query points x = rb[r] - 1 - cb[s]; G (and the count's G) is wanted at each.
    const std::size_t nq = static_cast<std::size_t>((R + 1) * (C + 1));
    std::vector<std::int64_t> x(nq);
#pragma omp parallel for schedule(static) if (nq > 65536)
    for (std::int64_t r = 0; r <= R; ++r)
        for (std::int64_t s = 0; s <= C; ++s)
            x[static_cast<std::size_t>(r * (C + 1) + s)] =
                rb[static_cast<std::size_t>(r)] - 1 - cb[static_cast<std::size_t>(s)];
    std::vector<long double> g(nq, 0.0L);
    std::vector<std::int64_t> gc(nq, 0);
    if (changes)
        piecewise_prefixes(lo, hi, f, causal, *changes, x, g, gc, cancel);
    else
        walk_prefixes(lo, hi, f, causal, x, g, gc, cancel);
    OffsetBlockSums out;
    out.sums.resize(R, C);
    out.counts.resize(R, C);
    auto at = [&](const auto& v, std::int64_t r, std::int64_t s) {
        return v[static_cast<std::size_t>(r * (C + 1) + s)];
    };
    // Four long-double and four integer lookups per block and output: split over threads (a 900 x 900
    // picture has 0.8 M blocks).
#pragma omp parallel for schedule(static) if (R * C > 65536)
    for (std::int64_t s = 0; s < C; ++s)
        for (std::int64_t r = 0; r < R; ++r) {
            out.sums(r, s) =
                static_cast<double>(at(g, r + 1, s) - at(g, r, s) - at(g, r + 1, s + 1) + at(g, r, s + 1));
            out.counts(r, s) = static_cast<double>(at(gc, r + 1, s) - at(gc, r, s) - at(gc, r + 1, s + 1) +
                                                   at(gc, r, s + 1));
        }
    return out;
}

Eigen::MatrixXd cumulative_at(const std::vector<std::int64_t>& boundaries, int dim,
                              const std::function<void(std::int64_t, std::int64_t, double*)>& add_segment,
                              const CancelFn& cancel, const ProgressFn& progress, double progress_from,
                              double progress_to)
{
    const auto n = static_cast<std::int64_t>(boundaries.size());
    Eigen::MatrixXd cum = Eigen::MatrixXd::Zero(std::max<std::int64_t>(n, 1), dim);
    if (n < 2)
        return cum;
    // Pieces: (segment t, begin, end) with end - begin <= kCumulativePiece.
    struct Piece {
        std::int64_t segment, begin, end;
    };
    std::vector<Piece> pieces;
    for (std::int64_t t = 1; t < n; ++t)
        for (std::int64_t b = boundaries[static_cast<std::size_t>(t - 1)];
             b < boundaries[static_cast<std::size_t>(t)]; b += kCumulativePiece)
            pieces.push_back({t, b, std::min(b + kCumulativePiece, boundaries[static_cast<std::size_t>(t)])});
    const auto np = static_cast<std::int64_t>(pieces.size());
    // Row-major scratch: one contiguous dim-vector per piece of the current round.
    constexpr std::int64_t kRound = 64;
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> part(std::min(np, kRound), dim);
    for (std::int64_t p0 = 0; p0 < np; p0 += kRound) {
        check_cancel(cancel);
        const std::int64_t p1 = std::min(np, p0 + kRound);
        part.setZero();
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t p = p0; p < p1; ++p)
            add_segment(pieces[static_cast<std::size_t>(p)].begin, pieces[static_cast<std::size_t>(p)].end,
                        part.row(p - p0).data());
        // Pieces arrive in segment order: add each to its segment's row, then prefix-sum at the end.
        for (std::int64_t p = p0; p < p1; ++p)
            cum.row(pieces[static_cast<std::size_t>(p)].segment) += part.row(p - p0);
        report_progress(progress, progress_from + (progress_to - progress_from) * static_cast<double>(p1) /
                                                      static_cast<double>(np));
    }
    for (std::int64_t t = 1; t < n; ++t)
        cum.row(t) += cum.row(t - 1);
    return cum;
}

} // namespace posatlas
