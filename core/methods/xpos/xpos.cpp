// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/xpos/xpos.h"

#include "compute/matrix_job.h"
#include "methods/common_fields.h"

#include <cmath>
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

// Per-pair factors of one distance: zeta^(delta / gamma) cos(delta theta) and ... sin(...).
struct PairFactors {
    Eigen::VectorXd c, s;
};

PairFactors pair_factors(const Eigen::VectorXd& log_zeta, const Eigen::VectorXd& theta, double gamma, std::int64_t delta)
{
    const auto dd = static_cast<double>(delta);
    PairFactors f{Eigen::VectorXd(theta.size()), Eigen::VectorXd(theta.size())};
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
        const double scale = std::exp(log_zeta[i] * dd / gamma);
        f.c[i] = scale * std::cos(dd * theta[i]);
        f.s[i] = scale * std::sin(dd * theta[i]);
    }
    return f;
}

double logit_from(const PairFactors& f, const double* q, const double* k, double inv_sqrt_d)
{
    double sum = 0.0;
    for (Eigen::Index i = 0; i < f.c.size(); ++i) {
        const double q1 = q[2 * i], q2 = q[2 * i + 1], k1 = k[2 * i], k2 = k[2 * i + 1];
        sum += f.c[i] * (q1 * k1 + q2 * k2) - f.s[i] * (q2 * k1 - q1 * k2);
    }
    return sum * inv_sqrt_d;
}

void xpos_logits(MatrixJob& job)
{
    const XposParams& p = job.s.params<XposParams>();
    const Eigen::VectorXd log_zeta = xpos_zeta(p).array().log().matrix();
    const Eigen::VectorXd theta = xpos_theta(p);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(p.head_dim));
    const int d = p.head_dim;
    if (content_is_position_independent(job.s.content)) {
        const Eigen::VectorXd q = content_query(job.s.content, d, 0), k = content_key(job.s.content, d, 0);
        const auto by_offset = [&](std::int64_t delta) {
            return logit_from(pair_factors(log_zeta, theta, p.scale_base, delta), q.data(), k.data(), inv_sqrt_d);
        };
        if (job.block_means()) {
            block_means_from_offsets(job, by_offset, p.causal);
            return;
        }
        fill_by_offset(job, job.out.values, by_offset, true);
        job.out.used_toeplitz = true;
    } else {
        // Random content: row-major query and key vectors, one set of pair factors per cell.
        const Eigen::MatrixXd q = job_queries(job, d).transpose(), k = job_keys(job, d).transpose();
        fill_each_cell(job, [&](std::int64_t r, std::int64_t c) {
            const std::int64_t delta = job.rows[static_cast<std::size_t>(r)] - job.cols[static_cast<std::size_t>(c)];
            if (p.causal && delta < 0)
                return std::numeric_limits<double>::quiet_NaN();
            return logit_from(pair_factors(log_zeta, theta, p.scale_base, delta), q.col(r).data(), k.col(c).data(),
                              inv_sqrt_d);
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
