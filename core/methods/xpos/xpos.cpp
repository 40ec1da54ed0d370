// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/xpos/xpos.h"

#include "compute/exact_angle.h"
#include "compute/matrix_job.h"
#include "methods/common_fields.h"

#include <algorithm>
#include <cmath>
#include <vector>
#include <limits>

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
    if (content_is_position_independent(job.s.content)) {
        // One logit per offset (count doubles, like the Toeplitz fill's own table), from the run walk.
        const Eigen::VectorXd q = content_query(job.s.content, d, 0), k = content_key(job.s.content, d, 0);
        std::vector<double> logit(static_cast<std::size_t>(count));
        for_each_offset(log_zeta, theta, p.scale_base, lo, count, job.cancel, [&](std::int64_t t, const double* c, const double* sn) {
            logit[static_cast<std::size_t>(t)] = logit_from(c, sn, pairs, q.data(), k.data(), inv_sqrt_d);
        });
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
    d.context_length = [](const Scenario& s) { return static_cast<std::int64_t>(s.params<P>().scale_base); };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}, {"base", QT_TRANSLATE_NOOP("Caption", "θ %1")}, {"scale_base", QT_TRANSLATE_NOOP("Caption", "γ %1")}};
    return d;
}

} // namespace posatlas
