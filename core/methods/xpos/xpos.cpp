// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/xpos/xpos.h"

#include "compute/clones.h"
#include "compute/exact_angle.h"
#include "compute/gemm.h"
#include "compute/matrix_job.h"
#include "compute/sinusoid_sums.h"
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

PairFactors pair_factors(const Eigen::VectorXd& log_zeta, const Eigen::VectorXd& theta, double gamma,
                         std::int64_t delta)
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
void for_each_offset(const Eigen::VectorXd& log_zeta, const Eigen::VectorXd& theta, double gamma,
                     std::int64_t lo, std::int64_t count, const CancelFn& cancel, Visit&& visit)
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
// curve passes it pair after pair and spent most of its time there). zeta_p grows with p, so the kept pairs
// are a suffix. The terms dropped are below 1e-280 |a_p| + |b_p|.
constexpr std::int64_t kConstantRun = 1024;
constexpr std::size_t kLanes = kSinusoidLanes;
constexpr double kFlush = 1e-280;

struct ConstantOffsetLogits {
    Eigen::VectorXd log_zeta, theta;
    double gamma = 1.0;
    PairFactors step, step8;  // z and z^8
    std::vector<double> a, b; // the sin and cos weights of sinusoid_sums: -b_p and a_p, / sqrt(d)
    double inv_sqrt_d = 1.0;

    ConstantOffsetLogits(const XposParams& p, const Eigen::VectorXd& q, const Eigen::VectorXd& k)
        : log_zeta(xpos_zeta(p).array().log().matrix()), theta(xpos_theta(p)), gamma(p.scale_base),
          step(pair_factors(log_zeta, theta, gamma, 1)), step8(pair_factors(log_zeta, theta, gamma, kLanes)),
          a(static_cast<std::size_t>(theta.size())), b(a.size()),
          inv_sqrt_d(1.0 / std::sqrt(static_cast<double>(p.head_dim)))
    {
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto e = static_cast<Eigen::Index>(i);
            const double q1 = q[2 * e], q2 = q[2 * e + 1], k1 = k[2 * e], k2 = k[2 * e + 1];
            // Re(z) a_p - Im(z) b_p = ws Im(z) + wc Re(z) with ws = -b_p, wc = a_p (lane_rotation_sums).
            a[i] = -(q2 * k1 - q1 * k2) * inv_sqrt_d;
            b[i] = (q1 * k1 + q2 * k2) * inv_sqrt_d;
        }
    }

    // The logits of offsets [first, last) into out, on the calling thread (negative offsets: keys after
    // the query, unmasked; their factors start large and shrink along the run).
    void operator()(std::int64_t first, std::int64_t last, double* out) const
    {
        const std::size_t pairs = a.size();
        std::vector<double> lc(pairs * kLanes), ls(lc.size());
        const double log_flush = std::log(kFlush);
        for (std::int64_t r = first; r < last; r += kConstantRun) {
            std::size_t p0 = 0;
            while (p0 < pairs &&
                   log_zeta[static_cast<Eigen::Index>(p0)] / gamma * static_cast<double>(r) < log_flush)
                ++p0;
            for (std::size_t p = p0; p < pairs; ++p) {
                const auto e = static_cast<Eigen::Index>(p);
                const CosSin z = exact_cos_sin(static_cast<double>(r), theta[e]);
                const double m = std::exp(log_zeta[e] * static_cast<double>(r) / gamma);
                start_lanes(m * z.c, m * z.s, step.c[e], step.s[e], lc.data() + p * kLanes,
                            ls.data() + p * kLanes);
            }
            lane_rotation_sums(pairs - p0, std::min(last, r + kConstantRun) - r, a.data() + p0, b.data() + p0,
                               step8.c.data() + p0, step8.s.data() + p0, lc.data() + p0 * kLanes,
                               ls.data() + p0 * kLanes, out + (r - first));
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

// b[t] for a block index t.
std::int64_t at(const std::vector<std::int64_t>& b, std::int64_t t)
{
    return b[static_cast<std::size_t>(t)];
}

// The geometric factors of the blocks away from the diagonal (see constant_block_means): per pair p the
// coefficient c_p / sqrt(d), the powers z_p^e, and per block length n the sum S_p(n) and the step z_p^n.
class GeometricFactors
{
public:
    using cd = std::complex<double>;

    GeometricFactors(const ConstantOffsetLogits& constant, const std::vector<std::int64_t>& rb,
                     const std::vector<std::int64_t>& cb)
        : m_rb(rb), m_cb(cb), m_theta(constant.theta), m_pairs(m_theta.size()),
          m_lz(constant.log_zeta / constant.gamma), m_coef(static_cast<std::size_t>(m_pairs))
    {
        // c_p / sqrt(d) = (a_p + i b_p) / sqrt(d) from ConstantOffsetLogits' weights (ws = -b_p, wc = a_p).
        for (std::size_t p = 0; p < m_coef.size(); ++p)
            m_coef[p] = cd(constant.b[p], -constant.a[p]);
        // Block sizes differ by at most one: two lengths per axis.
        for (const auto* b : {&rb, &cb})
            for (std::size_t t = 0; t + 1 < b->size(); ++t)
                m_lengths.emplace((*b)[t + 1] - (*b)[t], Length{});
        for (auto& [n, l] : m_lengths) {
            l.geo.resize(static_cast<std::size_t>(m_pairs));
            l.step.resize(static_cast<std::size_t>(m_pairs));
            for (Eigen::Index p = 0; p < m_pairs; ++p) {
                l.geo[static_cast<std::size_t>(p)] = expm1_nw(p, n) / expm1_nw(p, 1);
                l.step[static_cast<std::size_t>(p)] = power(p, n);
            }
        }
    }

    Eigen::Index pairs() const { return m_pairs; }

    // The factors of rows r0 .. r1 - 1 (A) and of column blocks sa .. sb - 1 (B) about pivot P. A pair whose
    // coefficient is 0 stays 0 in both, so that an overflowing factor cannot turn it into inf x 0.
    void row_factors(Eigen::MatrixXd& a, std::int64_t r0, std::int64_t r1, std::int64_t P) const
    {
        constexpr std::int64_t kResync = 64;
        a.setZero(r1 - r0, 2 * m_pairs);
        std::vector<cd> zr(static_cast<std::size_t>(m_pairs)); // z^(rb[r] - P)
        for (std::int64_t r = r0; r < r1; ++r) {
            const Length& l = length(m_rb, r);
            for (Eigen::Index p = 0; p < m_pairs; ++p) {
                if (m_coef[static_cast<std::size_t>(p)] == 0.0)
                    continue;
                cd& z = zr[static_cast<std::size_t>(p)];
                if ((r - r0) % kResync == 0)
                    z = power(p, at(m_rb, r) - P);
                const cd v = m_coef[static_cast<std::size_t>(p)] * l.geo[static_cast<std::size_t>(p)] * z;
                a(r - r0, p) = v.real();
                a(r - r0, m_pairs + p) = -v.imag();
                z *= l.step[static_cast<std::size_t>(p)];
            }
        }
    }

    void col_factors(Eigen::MatrixXd& b, std::int64_t sa, std::int64_t sb, std::int64_t P) const
    {
        b.setZero(sb - sa, 2 * m_pairs);
        for (std::int64_t s = sa; s < sb; ++s) {
            const Length& l = length(m_cb, s);
            for (Eigen::Index p = 0; p < m_pairs; ++p) {
                if (m_coef[static_cast<std::size_t>(p)] == 0.0)
                    continue;
                const cd v = l.geo[static_cast<std::size_t>(p)] * power(p, P - at(m_cb, s + 1) + 1);
                b(s - sa, p) = v.real();
                b(s - sa, m_pairs + p) = v.imag();
            }
        }
    }

private:
    struct Length {
        std::vector<cd> geo, step; // S_p(n) and z_p^n
    };

    // z_p^e for an integer e, the angle exact (exact_angle.h).
    cd power(Eigen::Index p, std::int64_t e) const
    {
        const auto ee = static_cast<double>(e);
        const CosSin a = exact_cos_sin(ee, m_theta[p]);
        return std::exp(m_lz[p] * ee) * cd(a.c, a.s);
    }

    // expm1(n w_p) = e^{n lz} cos(n theta) - 1 + i e^{n lz} sin(n theta), the real part as
    // expm1(n lz) cos(n theta) - 2 sin^2(n theta / 2) so that it stays accurate when n w is small.
    cd expm1_nw(Eigen::Index p, std::int64_t n) const
    {
        const auto nn = static_cast<double>(n);
        const CosSin a = exact_cos_sin(nn, m_theta[p]);
        const CosSin h = exact_cos_sin(nn, 0.5 * m_theta[p]);
        const double x = m_lz[p] * nn;
        return cd(std::expm1(x) * a.c - 2.0 * h.s * h.s, std::exp(x) * a.s);
    }

    const Length& length(const std::vector<std::int64_t>& b, std::int64_t t) const
    {
        return m_lengths.at(b[static_cast<std::size_t>(t) + 1] - b[static_cast<std::size_t>(t)]);
    }

    const std::vector<std::int64_t>& m_rb;
    const std::vector<std::int64_t>& m_cb;
    const Eigen::VectorXd& m_theta;
    Eigen::Index m_pairs;
    Eigen::VectorXd m_lz; // log |z_p|, < 0
    std::vector<cd> m_coef;
    std::map<std::int64_t, Length> m_lengths;
};

// Tiles of K column blocks. Tile t: rows r >= below[t] (rb[r] >= its last column) in the product below
// the diagonal, rows r < above[t] (rb[r + 1] - 1 <= its first column; none when causal) in the
// product above it, the rows between in the band.
struct Tiles {
    std::int64_t K = 1, count = 0;
    std::vector<std::int64_t> below, above;
    std::int64_t o_lo = 0, o_hi = -1; // the offsets the band's unmasked cells have
};

Tiles make_tiles(const std::vector<std::int64_t>& rb, const std::vector<std::int64_t>& cb, bool causal)
{
    const auto R = static_cast<std::int64_t>(rb.size()) - 1, C = static_cast<std::int64_t>(cb.size()) - 1;
    Tiles tl;
    const double mean_block = static_cast<double>(cb.back() - cb.front()) / static_cast<double>(C);
    tl.K = std::clamp<std::int64_t>(
        std::llround(std::sqrt(static_cast<double>(R) * static_cast<double>(C) / std::max(1.0, mean_block))),
        1, C);
    tl.count = (C + tl.K - 1) / tl.K;
    tl.below.resize(static_cast<std::size_t>(tl.count));
    tl.above.resize(tl.below.size());
    for (std::int64_t t = 0; t < tl.count; ++t) {
        const std::int64_t sa = t * tl.K, sb = std::min(C, sa + tl.K);
        const std::int64_t fr = std::lower_bound(rb.begin(), rb.end() - 1, at(cb, sb) - 1) - rb.begin();
        const std::int64_t ar =
            causal ? 0
                   : std::min<std::int64_t>(fr, std::upper_bound(rb.begin() + 1, rb.end(), at(cb, sa) + 1) -
                                                    (rb.begin() + 1));
        tl.below[static_cast<std::size_t>(t)] = fr;
        tl.above[static_cast<std::size_t>(t)] = ar;
        if (fr > ar) { // rows ar .. fr - 1 against columns sa .. sb - 1
            tl.o_hi = std::max(tl.o_hi, at(rb, fr) - 1 - at(cb, sa));
            if (!causal)
                tl.o_lo = std::min(tl.o_lo, at(rb, ar) - (at(cb, sb) - 1));
        }
    }
    return tl;
}

// The blocks below and above the band: per tile one real product of row factors and column factors
// (computed in parallel), then the products one after the other (the BLAS threads each): sums / (|I| |J|).
void geometric_blocks(MatrixJob& job, const GeometricFactors& factors, const Tiles& tl)
{
    const std::vector<std::int64_t>& rb = job.rb;
    const std::vector<std::int64_t>& cb = job.cb;
    const auto R = static_cast<std::int64_t>(rb.size()) - 1, C = static_cast<std::int64_t>(cb.size()) - 1;
    struct Product {
        Eigen::MatrixXd a, b;
        std::int64_t r0 = 0, sa = 0;
    };
    std::vector<Product> products(static_cast<std::size_t>(2 * tl.count));
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t u = 0; u < 2 * tl.count; ++u) {
        const std::int64_t t = u / 2, sa = t * tl.K, sb = std::min(C, sa + tl.K);
        Product& pr = products[static_cast<std::size_t>(u)];
        pr.sa = sa;
        if (u % 2 == 0) { // below the diagonal, pivot the tile's last column
            pr.r0 = tl.below[static_cast<std::size_t>(t)];
            if (pr.r0 < R) {
                factors.row_factors(pr.a, pr.r0, R, at(cb, sb) - 1);
                factors.col_factors(pr.b, sa, sb, at(cb, sb) - 1);
            }
        } else if (tl.above[static_cast<std::size_t>(t)] > 0) { // above it, pivot the tile's first column
            factors.row_factors(pr.a, 0, tl.above[static_cast<std::size_t>(t)], at(cb, sa));
            factors.col_factors(pr.b, sa, sb, at(cb, sa));
        }
    }
    check_cancel(job.cancel);
    report_progress(job.progress, 0.4);
    Eigen::MatrixXd& out = job.out.values;
    Eigen::MatrixXd prod;
    for (const Product& pr : products) {
        if (pr.a.rows() == 0)
            continue;
        gemm_nt(pr.a, pr.b, 1.0, Precision::Double, prod);
        for (Eigen::Index s = 0; s < prod.cols(); ++s) {
            const auto nj = static_cast<double>(at(cb, pr.sa + s + 1) - at(cb, pr.sa + s));
            for (Eigen::Index r = 0; r < prod.rows(); ++r) {
                const auto ni = static_cast<double>(at(rb, pr.r0 + r + 1) - at(rb, pr.r0 + r));
                out(pr.r0 + r, pr.sa + s) = prod(r, s) / (ni * nj);
            }
        }
    }
}

// The band: the logit of every offset o_lo .. o_hi, its suffix sums fs(o) = sum_{o' >= o} f(o') and
// ss(o) = sum_{o' >= o} (o' - o + 1) f(o') in long double, and per block the trapezoid identity with
// Gs(x) = ss(x + 2) (0 above o_hi; below o_lo, where f = 0, ss(o_lo) + (o_lo - x - 2) fs(o_lo)). The
// cell count of a masked block from the prefix form H(x) = (x + 1)(x + 2) / 2 (integers, exact).
void band_blocks(MatrixJob& job, const ConstantOffsetLogits& constant, const Tiles& tl, bool causal)
{
    const std::vector<std::int64_t>& rb = job.rb;
    const std::vector<std::int64_t>& cb = job.cb;
    const auto C = static_cast<std::int64_t>(cb.size()) - 1;
    const std::int64_t o_lo = tl.o_lo, o_hi = tl.o_hi;
    const std::int64_t n_band = std::max<std::int64_t>(o_hi - o_lo + 1, 0);
    std::vector<long double> fs(static_cast<std::size_t>(n_band) + 1, 0.0L), ss(fs.size(), 0.0L);
    if (n_band > 0) {
        const std::vector<double> logit = constant.table(o_lo, n_band, job.cancel);
        for (std::int64_t o = n_band - 1; o >= 0; --o) {
            fs[static_cast<std::size_t>(o)] =
                fs[static_cast<std::size_t>(o) + 1] + logit[static_cast<std::size_t>(o)];
            ss[static_cast<std::size_t>(o)] =
                ss[static_cast<std::size_t>(o) + 1] + fs[static_cast<std::size_t>(o)];
        }
    }
    const auto Gs = [&](std::int64_t x) {
        const std::int64_t y = x + 2;
        if (y > o_hi)
            return 0.0L;
        if (y >= o_lo)
            return ss[static_cast<std::size_t>(y - o_lo)];
        return ss[0] + static_cast<long double>(o_lo - y) * fs[0];
    };
    const auto H = [](std::int64_t x) {
        return x < 0 ? 0.0L : static_cast<long double>(x + 1) * static_cast<long double>(x + 2) * 0.5L;
    };
    const auto trapezoid = [](const auto& F, std::int64_t i0, std::int64_t i1, std::int64_t j0,
                              std::int64_t j1) {
        return F(i1 - 1 - j0) - F(i0 - 1 - j0) - F(i1 - 1 - j1) + F(i0 - 1 - j1);
    };
    Eigen::MatrixXd& out = job.out.values;
#pragma omp parallel for schedule(static)
    for (std::int64_t t = 0; t < tl.count; ++t) {
        const std::int64_t sa = t * tl.K, sb = std::min(C, sa + tl.K);
        for (std::int64_t s = sa; s < sb; ++s)
            for (std::int64_t r = tl.above[static_cast<std::size_t>(t)];
                 r < tl.below[static_cast<std::size_t>(t)]; ++r) {
                const std::int64_t i0 = at(rb, r), i1 = at(rb, r + 1), j0 = at(cb, s), j1 = at(cb, s + 1);
                if (causal && i1 - 1 < j0) {
                    out(r, s) = std::numeric_limits<double>::quiet_NaN(); // every cell masked
                    continue;
                }
                const long double cells =
                    causal ? trapezoid(H, i0, i1, j0, j1)
                           : static_cast<long double>(i1 - i0) * static_cast<long double>(j1 - j0);
                out(r, s) = static_cast<double>(trapezoid(Gs, i0, i1, j0, j1) / cells);
            }
    }
}

// Block means with position-independent content in closed form, with or without the causal mask:
// O(blocks x pairs) whatever the block size, where summing the logit of every offset costs O(N). With z_p =
// zeta_p^(1/gamma) e^{i theta_p} and c_p = a_p + i b_p (xpos.h), the logit is f(delta) = Re sum_p c_p
// z_p^delta / sqrt(d), |z_p| < 1: it decays with delta >= 0 and grows without bound with delta < 0 (keys
// after the query, unmasked). Over a block I x J the sum is a geometric double series; written from the
// block's cell of largest magnitude it has only factors of modulus <= 1 besides that cell's own, on either
// side of the diagonal:
//   delta >= 0 everywhere (i0 >= j1 - 1):  sum z^(i - j) = z^(i0 - (j1 - 1)) S(|I|) S(|J|),
//   delta <= 0 everywhere (i1 - 1 <= j0):  the same formula, its first factor now the largest (>= 1),
//   S(n) = sum_{a<n} z^a = expm1(n w) / expm1(w),  w = log(zeta) / gamma + i theta
// (expm1 of the complex w keeps S accurate when z is close to 1). Splitting z^(i0 - j1 + 1) into a row
// factor times a column factor makes the blocks one real product per tile of K column blocks,
// [Re A | -Im A] [Re B | Im B]^T, with a pivot position P: A(r, p) = c_p S_p(|I_r|) z_p^(i0 - P),
// B(s, p) = S_p(|J_s|) z_p^(P - j1 + 1). Below the diagonal P is the tile's last column and the rows
// are those with i0 >= P: both exponents >= 0, |z^e| <= 1, nothing overflows whatever N and gamma (a
// factor that underflows belongs to a term below 1e-308 of the largest). Above it (no mask) P is the
// tile's first column and the rows those with i1 - 1 <= P: both exponents <= 0 and each factor at most
// the block's largest cell, so a factor overflows only where the logits themselves do. One sum of
// terms that grow and decay by many orders of magnitude (the walk over offsets from the most negative)
// cancelled catastrophically: block means of 0 where the cells average 3.46.
// The blocks of the band between (those the diagonal cuts, and their neighbours within the tile) add the
// logits of their offsets o_lo .. o_hi by the trapezoid identity (block_means.h) written with suffix
// sums: Gs(x) = sum_{o >= x + 2} (o - x - 1) f(o). Both ways from the diagonal, |f| falls as o grows
// above x + 2, so each Gs is dominated by the terms next to the block's own corner, and the four-term
// difference keeps the accuracy of the block's largest cells (the prefix form, from o_lo upward, kept it
// relative to the largest logit of the table). The masked offsets (o < 0 when causal) are f = 0; the
// cell count is the same identity with f = 1. K = sqrt(rows x cols / block size) balances the tiles' row
// factors against that table. Accuracy: the row factors advance by z^|I| (modulus <= 1) from an exact
// power every kResync rows (~kResync roundings, ~1e-14 relative); the geometric sums and powers are
// within a few roundings; reference: the brute-force and walk-over-offsets tests in test_xpos.cpp.
void constant_block_means(MatrixJob& job, const ConstantOffsetLogits& constant, bool causal)
{
    const Tiles tiles = make_tiles(job.rb, job.cb, causal);
    geometric_blocks(job, GeometricFactors(constant, job.rb, job.cb), tiles);
    check_cancel(job.cancel);
    report_progress(job.progress, 0.6);
    band_blocks(job, constant, tiles, causal);
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
    // Block means exist only for position-independent content (block_means_with_constant_content).
    if (job.block_means()) {
        constant_block_means(
            job,
            ConstantOffsetLogits(p, content_query(job.s.content, d, 0), content_key(job.s.content, d, 0)),
            p.causal);
        return;
    }
    // The offsets i - j the cells need.
    const std::int64_t lo = job.rows.front() - job.cols.back();
    const std::int64_t hi = job.rows.back() - job.cols.front();
    const std::int64_t count = hi - lo + 1;
    if (content_is_position_independent(job.s.content)) {
        // One logit per offset (count doubles, like the Toeplitz fill's own table), from the run walk.
        const Eigen::VectorXd q = content_query(job.s.content, d, 0), k = content_key(job.s.content, d, 0);
        const std::vector<double> logit = ConstantOffsetLogits(p, q, k).table(lo, count, job.cancel);
        const auto by_offset = [&](std::int64_t delta) {
            return logit[static_cast<std::size_t>(delta - lo)];
        };
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
                for_each_offset(log_zeta, theta, p.scale_base, first, n, job.cancel,
                                [&](std::int64_t o, const double* fc, const double* fs) {
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
            fill(table, 0, kFine, 1);                             // fine: offsets 0 .. kFine - 1
            fill(coarse, lo, (count + kFine - 1) / kFine, kFine); // coarse: lo + kFine h
        }
        const Eigen::MatrixXd q = job_queries(job, d).transpose(), k = job_keys(job, d).transpose();
        fill_each_cell(job, [&](std::int64_t r, std::int64_t c) {
            const std::int64_t delta =
                job.rows[static_cast<std::size_t>(r)] - job.cols[static_cast<std::size_t>(c)];
            if (p.causal && delta < 0)
                return std::numeric_limits<double>::quiet_NaN();
            if (tabulate)
                return logit_from(table.c.col(delta - lo).data(), table.s.col(delta - lo).data(), pairs,
                                  q.col(r).data(), k.col(c).data(), inv_sqrt_d);
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

namespace {

// "What am I looking at?" (explanation.h).
ExplanationText xpos_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "xPos is RoPE with a decay: each pair is also scaled by ζ^((i − j)/γ) with "
                            "ζ < 1, so the scores fade with the distance to earlier keys, fastest for "
                            "the fast pairs."));
    if (explained_constant_content(s))
        t.add(QT_TRANSLATE_NOOP(
            "Explanation",
            "With the same vector at every position the matrix is constant along each diagonal."));
    return t;
}

} // namespace

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
                   {.lo = 2,
                    .hi = 8192,
                    .even = true,
                    .log_scale = true,
                    .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "head_dim: pairs (2p, 2p+1) rotate by θ_p and decay by ζ_p (even).")}),
        make_field(
            "base", FieldType::Real, &P::base,
            {.lo = 1,
             .hi = 1e12,
             .lo_open = true,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Rotation base: pair p turns by θ_p = base^(-2p/d) "
                                                       "per position (10000 in the reference).")}),
        make_field("scale_base", FieldType::Real, &P::scale_base,
                   {.lo = 1,
                    .hi = 1e9,
                    .log_scale = true,
                    .decimals = 1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Scale base γ"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "scale_base γ: pair p's logit is multiplied by ζ_p^((i−j)/γ), ζ_p = (2p "
                                     "+ 0.4d)/(1.4d). Smaller γ: faster decay (512 in the reference).")}),
        make_field(
            "causal", FieldType::Bool, &P::causal,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Causal mask"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Decoder: keys after the query are masked (their "
                                                       "factor ζ^((i−j)/γ) would grow without bound).")}),
    };
    d.kinds = {logits_kind(xpos_logits, block_means_with_constant_content)};
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    // ConstantOffsetLogits on the calling thread (no mask: offsets >= 0).
    d.distance_logits = [](const Scenario& s, std::int64_t, Precision) -> MethodDescriptor::DistanceLogitsFn {
        const P& p = s.params<P>();
        return ConstantOffsetLogits(p, content_query(s.content, p.head_dim, 0),
                                    content_key(s.content, p.head_dim, 0));
    };
    d.context_length = [](const Scenario& s) { return static_cast<std::int64_t>(s.params<P>().scale_base); };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"base", QT_TRANSLATE_NOOP("Caption", "θ %1")},
                        {"scale_base", QT_TRANSLATE_NOOP("Caption", "γ %1")}};
    d.explain = xpos_explanation;
    return d;
}

} // namespace posatlas
