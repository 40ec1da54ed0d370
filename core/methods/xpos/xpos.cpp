// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/xpos/xpos.h"

#include "compute/clones.h"
#include "compute/exact_angle.h"
#include "compute/gemm.h"
#include "compute/sinusoid_sums.h"
#include "compute/matrix_job.h"
#include "methods/common_fields.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <vector>

namespace posatlas {

Eigen::VectorXd xpos_zeta(const XposParams& p)
{
    const int pairs = p.head_dim / 2;
    Eigen::VectorXd z(pairs);
    for (int i = 0; i < pairs; ++i)
        z[i] = (2.0 * i + 0.4 * p.head_dim) / (1.4 * p.head_dim);
    return z;
}

Eigen::VectorXd xpos_theta(const XposParams& p)
{
    const int pairs = p.head_dim / 2;
    Eigen::VectorXd t(pairs);
    for (int i = 0; i < pairs; ++i)
        t[i] = std::pow(p.base, -2.0 * i / p.head_dim);
    return t;
}

namespace {

// Per-pair factors of one distance: zeta^(delta / gamma) cos(delta theta) and ... sin(...), the angle
// formed exactly (compute/exact_angle.h).
struct PairFactors {
    Eigen::VectorXd c, s;
};

PairFactors pair_factors(const Eigen::VectorXd& log_zeta, const Eigen::VectorXd& theta, double gamma, std::int64_t delta)
{
    const auto dd = static_cast<double>(delta);
    PairFactors f{Eigen::VectorXd(theta.size()), Eigen::VectorXd(theta.size())};
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
        const double scale = std::exp(log_zeta[i] * dd / gamma);
        const CosSin z = exact_cos_sin(dd, theta[i]);
        f.c[i] = scale * z.c;
        f.s[i] = scale * z.s;
    }
    return f;
}

double logit_from(const double* fc, const double* fs, Eigen::Index pairs, const double* q, const double* k,
                  double inv_sqrt_d)
{
    double sum = 0.0;
    for (Eigen::Index i = 0; i < pairs; ++i) {
        const double q1 = q[2 * i], q2 = q[2 * i + 1], k1 = k[2 * i], k2 = k[2 * i + 1];
        sum += fc[i] * (q1 * k1 + q2 * k2) - fs[i] * (q2 * k1 - q1 * k2);
    }
    return sum * inv_sqrt_d;
}

double logit_from(const PairFactors& f, const double* q, const double* k, double inv_sqrt_d)
{
    return logit_from(f.c.data(), f.s.data(), f.c.size(), q, k, inv_sqrt_d);
}

// Visits the pair factors of every offset lo .. lo + count - 1: visit(t, c, s) for offset lo + t, c and s
// the pairs' cosine and sine parts. Consecutive offsets differ by one step, zeta^(1/gamma) exp(i theta),
// so each run of kRun offsets starts from exact factors (pair_factors) and multiplies by the step: one
// complex product per pair and offset instead of an exp, a sin and a cos (~60 ns: a 10^6-distance
// curve spent 7 s on them). Each step adds ~1 rounding: ~1e-14 relative after kRun - 1 of them. Runs
// are visited in parallel (visit must be thread-safe); cancel is polled between groups of runs.
template <typename Visit>
void for_each_offset(const Eigen::VectorXd& log_zeta, const Eigen::VectorXd& theta, double gamma, std::int64_t lo,
                     std::int64_t count, const CancelFn& cancel, Visit&& visit)
{
    constexpr std::int64_t kRun = 64;
    constexpr std::int64_t kRunsPerPoll = 1024;
    const Eigen::Index pairs = theta.size();
    const PairFactors step = pair_factors(log_zeta, theta, gamma, 1);
    const std::int64_t runs = (count + kRun - 1) / kRun;
    for (std::int64_t r0 = 0; r0 < runs; r0 += kRunsPerPoll) {
        check_cancel(cancel);
        const std::int64_t r1 = std::min(runs, r0 + kRunsPerPoll);
#pragma omp parallel for schedule(static)
        for (std::int64_t run = r0; run < r1; ++run) {
            const std::int64_t first = run * kRun, last = std::min(count, first + kRun);
            PairFactors f = pair_factors(log_zeta, theta, gamma, lo + first);
            for (std::int64_t o = first; o < last; ++o) {
                if (o > first)
                    for (Eigen::Index i = 0; i < pairs; ++i) {
                        const double c = f.c[i], sn = f.s[i];
                        f.c[i] = c * step.c[i] - sn * step.s[i];
                        f.s[i] = sn * step.c[i] + c * step.s[i];
                    }
                visit(o, f.c.data(), f.s.data());
            }
        }
    }
}

// Position-independent content: one logit per offset, f(delta) = sum_p Re(z_p^delta) a_p - Im(z_p^delta) b_p
// with a_p = q_2p k_2p + q_2p+1 k_2p+1 and b_p = q_2p+1 k_2p - q_2p k_2p+1 formed once (logit_from forms
// them per offset). Eight consecutive offsets are eight lanes of one vector per pair, each advanced by
// z_p^8: the lanes are independent, so the sum over pairs needs no horizontal reduction per offset and
// no chain of dependent rotations (one pair vector per offset, as for_each_offset does, was latency-bound).
// Runs of kConstantRun offsets restart from exact factors (pair_factors) at their first offset, the
// other lanes by one step each; ~kConstantRun / 8 + 8 roundings per factor: ~3e-14 relative.
// Pairs whose factor |z_p|^delta is below kFlush at a run's start are left out of the run: they would
// decay through the subnormal range, where every multiplication costs ~100 cycles (a 10^7-distance
// curve passes it pair after pair; 230 of its 250 ms). zeta_p grows with p, so the kept pairs are a
// suffix. The terms dropped are below 1e-280 |a_p| + |b_p|.
constexpr std::int64_t kConstantRun = 1024;
constexpr std::size_t kLanes = kSinusoidLanes;
constexpr double kFlush = 1e-280;

struct ConstantOffsetLogits {
    Eigen::VectorXd log_zeta, theta;
    double gamma = 1.0;
    PairFactors step, step8; // z and z^8
    std::vector<double> a, b;     // the sin and cos weights of sinusoid_sums: -b_p and a_p, / sqrt(d)
    double inv_sqrt_d = 1.0;

    ConstantOffsetLogits(const XposParams& p, const Eigen::VectorXd& q, const Eigen::VectorXd& k)
        : log_zeta(xpos_zeta(p).array().log().matrix()), theta(xpos_theta(p)), gamma(p.scale_base),
          step(pair_factors(log_zeta, theta, gamma, 1)), step8(pair_factors(log_zeta, theta, gamma, kLanes)),
          a(static_cast<std::size_t>(theta.size())), b(a.size()), inv_sqrt_d(1.0 / std::sqrt(static_cast<double>(p.head_dim)))
    {
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto e = static_cast<Eigen::Index>(i);
            const double q1 = q[2 * e], q2 = q[2 * e + 1], k1 = k[2 * e], k2 = k[2 * e + 1];
            // Re(z) a_p - Im(z) b_p = ws Im(z) + wc Re(z) with ws = -b_p, wc = a_p (lane_rotation_sums).
            a[i] = -(q2 * k1 - q1 * k2) * inv_sqrt_d;
            b[i] = (q1 * k1 + q2 * k2) * inv_sqrt_d;
        }
    }

    // The logits of offsets [first, last) (first >= 0) into out, on the calling thread.
    void operator()(std::int64_t first, std::int64_t last, double* out) const
    {
        const std::size_t pairs = a.size();
        std::vector<double> lc(pairs * kLanes), ls(lc.size());
        const double log_flush = std::log(kFlush);
        for (std::int64_t r = first; r < last; r += kConstantRun) {
            std::size_t p0 = 0;
            while (p0 < pairs && log_zeta[static_cast<Eigen::Index>(p0)] / gamma * static_cast<double>(r) < log_flush)
                ++p0;
            for (std::size_t p = p0; p < pairs; ++p) {
                const auto e = static_cast<Eigen::Index>(p);
                const CosSin z = exact_cos_sin(static_cast<double>(r), theta[e]);
                const double m = std::exp(log_zeta[e] * static_cast<double>(r) / gamma);
                start_lanes(m * z.c, m * z.s, step.c[e], step.s[e], lc.data() + p * kLanes, ls.data() + p * kLanes);
            }
            lane_rotation_sums(pairs - p0, std::min(last, r + kConstantRun) - r, a.data() + p0, b.data() + p0,
                               step8.c.data() + p0, step8.s.data() + p0, lc.data() + p0 * kLanes, ls.data() + p0 * kLanes,
                               out + (r - first));
        }
    }

    // The logits of offsets lo .. lo + count - 1, runs in parallel, cancel polled between groups.
    std::vector<double> table(std::int64_t lo, std::int64_t count, const CancelFn& cancel) const
    {
        std::vector<double> out(static_cast<std::size_t>(count));
        constexpr std::int64_t kGroup = std::int64_t{1} << 18;
        for (std::int64_t g = 0; g < count; g += kGroup) {
            check_cancel(cancel);
            const std::int64_t g1 = std::min(count, g + kGroup);
#pragma omp parallel for schedule(static)
            for (std::int64_t r = g; r < g1; r += kConstantRun)
                (*this)(lo + r, lo + std::min(g1, r + kConstantRun), out.data() + r);
        }
        return out;
    }
};

// Causal block means with position-independent content in closed form: O(blocks x pairs) whatever the
// block size, where summing the logit of every offset cost O(N) (280 ms for 10^6 positions, 3-6 s for
// 10^7; issue #14). With z_p = zeta_p^(1/gamma) e^{i theta_p} and c_p = a_p + i b_p (xpos.h), the logit
// is f(delta) = Re sum_p c_p z_p^delta / sqrt(d), so over a block I x J with every cell unmasked
// (delta_min = i0 - (j1 - 1) >= 0) the sum is a geometric double series:
//   sum_{i in I, j in J} z^(i - j) = z^delta_min S(|I|) S(|J|),   S(n) = sum_{a<n} z^a = expm1(n w) / expm1(w),
// w = log(zeta) / gamma + i theta (expm1 of the complex w keeps S accurate when z is close to 1).
// Splitting z^delta_min into a row factor times a column factor makes the blocks one real product per
// tile of K column blocks, [Re A | -Im A] [Re B | Im B]^T, with the tile's last column position P as
// pivot: A(r, p) = c_p S_p(|I_r|) z_p^(i0 - P), B(s, p) = S_p(|J_s|) z_p^(P - j1 + 1). For the rows with
// i0 >= P both exponents are >= 0, so |z^e| <= 1: nothing overflows, whatever N and gamma (a factor
// that underflows belongs to a term below 1e-308 of the largest). Blocks near the diagonal (i0 < P),
// including those the mask cuts, add the logits of their offsets 0 .. O_max by the trapezoid identity
// (block_means.h), O_max about K + 2 block sizes. K = sqrt(rows x cols / block size) balances the tiles'
// row factors against that table. Accuracy: the row factors advance by z^|I| from an exact power every
// kResync rows (~kResync roundings, ~1e-14 relative); the geometric sums and powers are within a few
// roundings; reference: the brute-force and walk-over-offsets tests in test_xpos.cpp.
void causal_constant_block_means(MatrixJob& job, const ConstantOffsetLogits& constant)
{
    using cd = std::complex<double>;
    const std::vector<std::int64_t>& rb = job.rb;
    const std::vector<std::int64_t>& cb = job.cb;
    const auto R = static_cast<std::int64_t>(rb.size()) - 1, C = static_cast<std::int64_t>(cb.size()) - 1;
    const Eigen::VectorXd& theta = constant.theta;
    const Eigen::Index pairs = theta.size();
    const Eigen::VectorXd lz = constant.log_zeta / constant.gamma; // log |z_p|, < 0
    // c_p / sqrt(d) = (a_p + i b_p) / sqrt(d) from ConstantOffsetLogits' weights (ws = -b_p, wc = a_p).
    std::vector<cd> coef(static_cast<std::size_t>(pairs));
    for (std::size_t p = 0; p < coef.size(); ++p)
        coef[p] = cd(constant.b[p], -constant.a[p]);
    // z_p^e for an integer e >= 0, the angle exact (exact_angle.h).
    const auto power = [&](Eigen::Index p, std::int64_t e) {
        const auto ee = static_cast<double>(e);
        const CosSin a = exact_cos_sin(ee, theta[p]);
        return std::exp(lz[p] * ee) * cd(a.c, a.s);
    };
    // expm1(n w_p) = e^{n lz} cos(n theta) - 1 + i e^{n lz} sin(n theta), the real part as
    // expm1(n lz) cos(n theta) - 2 sin^2(n theta / 2) so that it stays accurate when n w is small.
    const auto expm1_nw = [&](Eigen::Index p, std::int64_t n) {
        const auto nn = static_cast<double>(n);
        const CosSin a = exact_cos_sin(nn, theta[p]);
        const CosSin h = exact_cos_sin(nn, 0.5 * theta[p]);
        const double x = lz[p] * nn;
        return cd(std::expm1(x) * a.c - 2.0 * h.s * h.s, std::exp(x) * a.s);
    };
    // Per block length n: S_p(n) and z_p^n (block sizes differ by at most one: two lengths per axis).
    struct Length {
        std::vector<cd> geo, step;
    };
    std::map<std::int64_t, Length> lengths;
    for (const auto* b : {&rb, &cb})
        for (std::size_t t = 0; t + 1 < b->size(); ++t)
            lengths.emplace((*b)[t + 1] - (*b)[t], Length{});
    for (auto& [n, l] : lengths) {
        l.geo.resize(static_cast<std::size_t>(pairs));
        l.step.resize(static_cast<std::size_t>(pairs));
        for (Eigen::Index p = 0; p < pairs; ++p) {
            l.geo[static_cast<std::size_t>(p)] = expm1_nw(p, n) / expm1_nw(p, 1);
            l.step[static_cast<std::size_t>(p)] = power(p, n);
        }
    }
    const auto length = [&](const std::vector<std::int64_t>& b, std::int64_t t) -> const Length& {
        return lengths.at(b[static_cast<std::size_t>(t) + 1] - b[static_cast<std::size_t>(t)]);
    };

    // Tiles of K column blocks; tile t's GEMM rows are r >= first_row[t] (rb[r] >= its pivot).
    const double mean_block = static_cast<double>(cb.back() - cb.front()) / static_cast<double>(C);
    const auto K = std::clamp<std::int64_t>(
        std::llround(std::sqrt(static_cast<double>(R) * static_cast<double>(C) / std::max(1.0, mean_block))), 1, C);
    const std::int64_t tiles = (C + K - 1) / K;
    std::vector<std::int64_t> first_row(static_cast<std::size_t>(tiles));
    std::int64_t o_max = -1; // the largest offset a cell of a non-GEMM, unmasked block has
    for (std::int64_t t = 0; t < tiles; ++t) {
        const std::int64_t sa = t * K, sb = std::min(C, sa + K);
        const std::int64_t pivot = cb[static_cast<std::size_t>(sb)] - 1;
        const auto fr = std::lower_bound(rb.begin(), rb.end() - 1, pivot) - rb.begin();
        first_row[static_cast<std::size_t>(t)] = fr;
        if (fr > 0) // row fr - 1 against column sa: the widest offset of the tile's remaining blocks
            o_max = std::max(o_max, rb[static_cast<std::size_t>(fr)] - 1 - cb[static_cast<std::size_t>(sa)]);
    }
    Eigen::MatrixXd& out = job.out.values;
    constexpr std::int64_t kResync = 64;
    std::vector<Eigen::MatrixXd> a_tiles(static_cast<std::size_t>(tiles)), b_tiles(a_tiles.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t t = 0; t < tiles; ++t) {
        const std::int64_t sa = t * K, sb = std::min(C, sa + K);
        const std::int64_t pivot = cb[static_cast<std::size_t>(sb)] - 1;
        const std::int64_t fr = first_row[static_cast<std::size_t>(t)];
        Eigen::MatrixXd& a = a_tiles[static_cast<std::size_t>(t)];
        Eigen::MatrixXd& b = b_tiles[static_cast<std::size_t>(t)];
        a.resize(R - fr, 2 * pairs);
        b.resize(sb - sa, 2 * pairs);
        for (std::int64_t s = sa; s < sb; ++s) {
            const Length& l = length(cb, s);
            const std::int64_t e = pivot - cb[static_cast<std::size_t>(s) + 1] + 1;
            for (Eigen::Index p = 0; p < pairs; ++p) {
                const cd v = l.geo[static_cast<std::size_t>(p)] * power(p, e);
                b(s - sa, p) = v.real();
                b(s - sa, pairs + p) = v.imag();
            }
        }
        std::vector<cd> zr(static_cast<std::size_t>(pairs)); // z^(rb[r] - pivot)
        for (std::int64_t r = fr; r < R; ++r) {
            const Length& l = length(rb, r);
            for (Eigen::Index p = 0; p < pairs; ++p) {
                cd& z = zr[static_cast<std::size_t>(p)];
                if ((r - fr) % kResync == 0)
                    z = power(p, rb[static_cast<std::size_t>(r)] - pivot);
                const cd v = coef[static_cast<std::size_t>(p)] * l.geo[static_cast<std::size_t>(p)] * z;
                a(r - fr, p) = v.real();
                a(r - fr, pairs + p) = -v.imag();
                z *= l.step[static_cast<std::size_t>(p)];
            }
        }
    }
    check_cancel(job.cancel);
    report_progress(job.progress, 0.4);
    // The products, one tile after the other (the BLAS threads each): sums / (|I| |J|).
    Eigen::MatrixXd prod;
    for (std::int64_t t = 0; t < tiles; ++t) {
        const std::int64_t sa = t * K, fr = first_row[static_cast<std::size_t>(t)];
        if (fr >= R)
            continue;
        gemm_nt(a_tiles[static_cast<std::size_t>(t)], b_tiles[static_cast<std::size_t>(t)], 1.0, Precision::Double,
                prod);
        for (Eigen::Index s = 0; s < prod.cols(); ++s) {
            const auto nj = static_cast<double>(cb[static_cast<std::size_t>(sa + s) + 1] - cb[static_cast<std::size_t>(sa + s)]);
            for (Eigen::Index r = 0; r < prod.rows(); ++r) {
                const auto ni = static_cast<double>(rb[static_cast<std::size_t>(fr + r) + 1] - rb[static_cast<std::size_t>(fr + r)]);
                out(fr + r, sa + s) = prod(r, s) / (ni * nj);
            }
        }
    }
    check_cancel(job.cancel);
    report_progress(job.progress, 0.6);
    // The other blocks: the logit of every offset 0 .. o_max, its two prefix sums in long double, and per
    // block the trapezoid identity; G(x) = 0 for x < 0 (masked offsets), the cell count likewise from
    // H(x) = (x + 1)(x + 2) / 2.
    std::vector<long double> g(static_cast<std::size_t>(std::max<std::int64_t>(o_max + 1, 0)));
    if (o_max >= 0) {
        const std::vector<double> logit = constant.table(0, o_max + 1, job.cancel);
        long double f1 = 0.0L, g1 = 0.0L;
        for (std::size_t o = 0; o < g.size(); ++o) {
            f1 += logit[o];
            g1 += f1;
            g[o] = g1;
        }
    }
    const auto G = [&](std::int64_t x) { return x < 0 ? 0.0L : g[static_cast<std::size_t>(x)]; };
    const auto H = [](std::int64_t x) {
        return x < 0 ? 0.0L : static_cast<long double>(x + 1) * static_cast<long double>(x + 2) * 0.5L;
    };
    const auto trapezoid = [](const auto& F, std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1) {
        return F(i1 - 1 - j0) - F(i0 - 1 - j0) - F(i1 - 1 - j1) + F(i0 - 1 - j1);
    };
#pragma omp parallel for schedule(static)
    for (std::int64_t t = 0; t < tiles; ++t) {
        const std::int64_t sa = t * K, sb = std::min(C, sa + K);
        for (std::int64_t s = sa; s < sb; ++s)
            for (std::int64_t r = 0; r < first_row[static_cast<std::size_t>(t)]; ++r) {
                const std::int64_t i0 = rb[static_cast<std::size_t>(r)], i1 = rb[static_cast<std::size_t>(r) + 1];
                const std::int64_t j0 = cb[static_cast<std::size_t>(s)], j1 = cb[static_cast<std::size_t>(s) + 1];
                if (i1 - 1 < j0) {
                    out(r, s) = std::numeric_limits<double>::quiet_NaN(); // every cell masked
                    continue;
                }
                out(r, s) = static_cast<double>(trapezoid(G, i0, i1, j0, j1) / trapezoid(H, i0, i1, j0, j1));
            }
    }
    job.out.used_toeplitz = true;
    report_progress(job.progress, 1.0);
}

// The pair factors of offsets lo .. lo + count - 1 (column t: offset lo + t), for random content, where
// a cell needs its offset's factors and not just one logit per offset. Only when small (kMaxFactors).
struct FactorTable {
    Eigen::MatrixXd c, s; // pairs x count
};
constexpr std::int64_t kMaxFactors = std::int64_t{1} << 22; // pairs x offsets: 64 MB for both parts

void xpos_logits(MatrixJob& job)
{
    const XposParams& p = job.s.params<XposParams>();
    const Eigen::VectorXd log_zeta = xpos_zeta(p).array().log().matrix();
    const Eigen::VectorXd theta = xpos_theta(p);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(p.head_dim));
    const int d = p.head_dim;
    const Eigen::Index pairs = theta.size();
    // The offsets i - j the cells (or the blocks) need.
    const bool means = job.block_means();
    const std::int64_t lo = means ? job.rb.front() - job.cb.back() + 1 : job.rows.front() - job.cols.back();
    const std::int64_t hi = means ? job.rb.back() - 1 - job.cb.front() : job.rows.back() - job.cols.front();
    const std::int64_t count = hi - lo + 1;
    if (content_is_position_independent(job.s.content) && means && p.causal) {
        causal_constant_block_means(
            job, ConstantOffsetLogits(p, content_query(job.s.content, d, 0), content_key(job.s.content, d, 0)));
        return;
    }
    if (content_is_position_independent(job.s.content)) {
        // One logit per offset (count doubles, like the Toeplitz fill's own table), from the run walk.
        const Eigen::VectorXd q = content_query(job.s.content, d, 0), k = content_key(job.s.content, d, 0);
        const std::vector<double> logit = ConstantOffsetLogits(p, q, k).table(lo, count, job.cancel);
        const auto by_offset = [&](std::int64_t delta) { return logit[static_cast<std::size_t>(delta - lo)]; };
        if (means) {
            block_means_from_offsets(job, by_offset, p.causal);
            return;
        }
        fill_by_offset(job, job.out.values, by_offset, true);
        job.out.used_toeplitz = true;
    } else {
        // Random content: row-major query and key vectors, the pair factors of each cell's offset:
        // from a table when the window's offsets are few (a curve's row, a heatmap of 4096 positions);
        // else (a sparse point sample of 10^6 positions spans 2 x 10^6 offsets) from two small tables,
        // since the factors are exponentials, f(a + b) = f(a) f(b) per pair: offset lo + kFine h + l is
        // coarse[h] times fine[l], a complex product per pair instead of an exp, a sin and a cos.
        const auto cells = static_cast<std::int64_t>(job.rows.size() * job.cols.size());
        const bool tabulate = count <= 4 * cells && count * pairs <= kMaxFactors;
        constexpr std::int64_t kFine = 1024;
        FactorTable table, coarse;
        const auto fill = [&](FactorTable& t, std::int64_t first, std::int64_t n, std::int64_t stride) {
            t.c.resize(pairs, n);
            t.s.resize(pairs, n);
            if (stride == 1) {
                for_each_offset(log_zeta, theta, p.scale_base, first, n, job.cancel, [&](std::int64_t o, const double* fc, const double* fs) {
                    std::copy(fc, fc + pairs, t.c.col(o).data());
                    std::copy(fs, fs + pairs, t.s.col(o).data());
                });
                return;
            }
#pragma omp parallel for schedule(static)
            for (std::int64_t h = 0; h < n; ++h) {
                const PairFactors f = pair_factors(log_zeta, theta, p.scale_base, first + h * stride);
                t.c.col(h) = f.c;
                t.s.col(h) = f.s;
            }
        };
        if (tabulate) {
            fill(table, lo, count, 1);
        } else {
            fill(table, 0, kFine, 1);                                // fine: offsets 0 .. kFine - 1
            fill(coarse, lo, (count + kFine - 1) / kFine, kFine);    // coarse: lo + kFine h
        }
        const Eigen::MatrixXd q = job_queries(job, d).transpose(), k = job_keys(job, d).transpose();
        fill_each_cell(job, [&](std::int64_t r, std::int64_t c) {
            const std::int64_t delta = job.rows[static_cast<std::size_t>(r)] - job.cols[static_cast<std::size_t>(c)];
            if (p.causal && delta < 0)
                return std::numeric_limits<double>::quiet_NaN();
            if (tabulate)
                return logit_from(table.c.col(delta - lo).data(), table.s.col(delta - lo).data(), pairs, q.col(r).data(),
                                  k.col(c).data(), inv_sqrt_d);
            const std::int64_t h = (delta - lo) / kFine, l = (delta - lo) % kFine;
            const double* qc = q.col(r).data();
            const double* kc = k.col(c).data();
            double sum = 0.0;
            for (Eigen::Index i = 0; i < pairs; ++i) {
                const double ac = coarse.c(i, h), as = coarse.s(i, h), bc = table.c(i, l), bs = table.s(i, l);
                const double fc = ac * bc - as * bs, fs = ac * bs + as * bc;
                const double q1 = qc[2 * i], q2 = qc[2 * i + 1], k1 = kc[2 * i], k2 = kc[2 * i + 1];
                sum += fc * (q1 * k1 + q2 * k2) - fs * (q2 * k1 - q1 * k2);
            }
            return sum * inv_sqrt_d;
        });
    }
    if (p.causal)
        mask_future(job);
}

} // namespace

double xpos_logit(const XposParams& p, const Eigen::Ref<const Eigen::VectorXd>& q,
                  const Eigen::Ref<const Eigen::VectorXd>& k, std::int64_t i, std::int64_t j)
{
    const Eigen::VectorXd log_zeta = xpos_zeta(p).array().log().matrix();
    const Eigen::VectorXd qq = q, kk = k;
    return logit_from(pair_factors(log_zeta, xpos_theta(p), p.scale_base, i - j), qq.data(), kk.data(),
                      1.0 / std::sqrt(static_cast<double>(p.head_dim)));
}

MethodDescriptor describe_xpos()
{
    using P = XposParams;
    MethodDescriptor d;
    d.method = kXPos;
    d.section = "xpos";
    d.name = QT_TRANSLATE_NOOP("Method", "xPos (Sun et al. 2022)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "xPos");
    d.noun = "xPos rotations with exponential decay";
    d.reference = "Sun et al. 2022, A Length-Extrapolatable Transformer; microsoft/torchscale XPOS";
    d.fields = {
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 2, .hi = 8192, .even = true, .log_scale = true, .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "head_dim: pairs (2p, 2p+1) rotate by θ_p and decay by ζ_p (even).")}),
        make_field("base", FieldType::Real, &P::base,
                   {.lo = 1, .hi = 1e12, .lo_open = true, .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Rotation base: pair p turns by θ_p = base^(-2p/d) per position (10000 in the reference).")}),
        make_field("scale_base", FieldType::Real, &P::scale_base,
                   {.lo = 1, .hi = 1e9, .log_scale = true, .decimals = 1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Scale base γ"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "scale_base γ: pair p's logit is multiplied by ζ_p^((i−j)/γ), ζ_p = (2p + 0.4d)/(1.4d). Smaller γ: faster decay (512 in the reference).")}),
        make_field("causal", FieldType::Bool, &P::causal,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Causal mask"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Decoder: keys after the query are masked (their factor ζ^((i−j)/γ) would grow without bound).")}),
    };
    d.kinds = {logits_kind(xpos_logits, block_means_with_constant_content)};
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    // ConstantOffsetLogits on the calling thread (no mask: offsets >= 0).
    d.distance_logits = [](const Scenario& s, std::int64_t, Precision) -> MethodDescriptor::DistanceLogitsFn {
        const P& p = s.params<P>();
        return ConstantOffsetLogits(p, content_query(s.content, p.head_dim, 0), content_key(s.content, p.head_dim, 0));
    };
    d.context_length = [](const Scenario& s) { return static_cast<std::int64_t>(s.params<P>().scale_base); };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}, {"base", QT_TRANSLATE_NOOP("Caption", "θ %1")}, {"scale_base", QT_TRANSLATE_NOOP("Caption", "γ %1")}};
    return d;
}

} // namespace posatlas
