// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/transformer_xl/transformer_xl.h"

#include "methods/table_files.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <cmath>
#include <stdexcept>

namespace posatlas {

Eigen::VectorXd txl_relative_sinusoid(int dim, double base, std::int64_t relative)
{
    require_even_int("head_dim", dim, 2, 4096);
    require_real("base", base, 1.0, 1e12, false);
    const int half = dim / 2;
    Eigen::VectorXd r(dim);
    const double pos = static_cast<double>(relative);
    for (int k = 0; k < half; ++k) {
        // 1 / base^(2k / d), as torch computes 1 / (10000 ** (arange(0, d, 2) / d)).
        const double inv_freq = 1.0 / std::pow(base, (2.0 * k) / dim);
        const double angle = pos * inv_freq;
        r[k] = std::sin(angle);
        r[half + k] = std::cos(angle);
    }
    return r;
}

TableShape txl_r_net_shape(const TransformerXLParams& params)
{
    return {params.head_dim, -1, false, "head_dim x e, e even: the dimension of R_{i-j}"};
}

TableShape txl_bias_shape(const TransformerXLParams& params)
{
    return {1, params.head_dim, true, "head_dim"};
}

namespace {

Eigen::MatrixXd r_net_from_file(const TransformerXLParams& params)
{
    Eigen::MatrixXd w = table_from_file(params.r_net, params.r_net_tensor, "r_net", txl_r_net_shape(params));
    if (w.size() != 0 && (w.cols() % 2 != 0 || w.cols() > 4096))
        throw ParameterError("r_net", table_shape_text(txl_r_net_shape(params)),
                             std::to_string(w.rows()) + " x " + std::to_string(w.cols()) +
                                 " (e must be even and at most 4096)");
    return w;
}

} // namespace

void check_txl_tables(const TransformerXLParams& params)
{
    r_net_from_file(params);
    table_from_file(params.r_w_bias, params.r_w_bias_tensor, "r_w_bias", txl_bias_shape(params));
    table_from_file(params.r_r_bias, params.r_r_bias_tensor, "r_r_bias", txl_bias_shape(params));
}

TxlModel make_txl_model(const TransformerXLParams& params)
{
    validate(params);
    const int d = params.head_dim;
    TxlModel m;
    m.params = params;
    m.w_k_r = r_net_from_file(params);
    const Eigen::MatrixXd u =
        table_from_file(params.r_w_bias, params.r_w_bias_tensor, "r_w_bias", txl_bias_shape(params));
    const Eigen::MatrixXd v =
        table_from_file(params.r_r_bias, params.r_r_bias_tensor, "r_r_bias", txl_bias_shape(params));
    if (m.w_k_r.size() == 0) {
        m.w_k_r.resize(d, d);
#pragma omp parallel for schedule(static)
        for (int r = 0; r < d; ++r)
            for (int c = 0; c < d; ++c)
                m.w_k_r(r, c) =
                    rng::normal(params.seed, rng::kTxlWkR, static_cast<std::uint64_t>(r) * d + c) *
                    params.stddev;
    }
    m.u.resize(d);
    m.v.resize(d);
    for (int c = 0; c < d; ++c) {
        m.u[c] = u.size()
                     ? u(0, c)
                     : rng::normal(params.seed, rng::kTxlU, static_cast<std::uint64_t>(c)) * params.stddev;
        m.v[c] = v.size()
                     ? v(0, c)
                     : rng::normal(params.seed, rng::kTxlV, static_cast<std::uint64_t>(c)) * params.stddev;
    }
    return m;
}

Eigen::VectorXd txl_projected_relative(const TxlModel& model, std::int64_t relative)
{
    // R_{i-j} has as many dimensions as W_{k,R} has columns (head_dim for the seeded stand-in).
    return model.w_k_r *
           txl_relative_sinusoid(static_cast<int>(model.w_k_r.cols()), model.params.base, relative);
}

double TxlTerms::total(const TransformerXLParams& params) const
{
    return (params.term_a ? a : 0.0) + (params.term_b ? b : 0.0) + (params.term_c ? c : 0.0) +
           (params.term_d ? d : 0.0);
}

TxlTerms txl_logit_terms_projected(const TxlModel& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                   const Eigen::Ref<const Eigen::VectorXd>& k_j,
                                   const Eigen::Ref<const Eigen::VectorXd>& projected_relative)
{
    const Eigen::Index d = model.params.head_dim;
    if (q_i.size() != d || k_j.size() != d || projected_relative.size() != d)
        throw std::invalid_argument(
            "txl_logit_terms: q_i, k_j and W_{k,R} R must have head_dim = " + std::to_string(d) + " entries");
    TxlTerms t;
    t.a = q_i.dot(k_j);
    t.b = q_i.dot(projected_relative);
    t.c = model.u.dot(k_j);
    t.d = model.v.dot(projected_relative);
    return t;
}

TxlTerms txl_logit_terms(const TxlModel& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                         const Eigen::Ref<const Eigen::VectorXd>& k_j, std::int64_t i, std::int64_t j)
{
    return txl_logit_terms_projected(model, q_i, k_j, txl_projected_relative(model, i - j));
}

} // namespace posatlas
