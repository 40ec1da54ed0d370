// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cope/cope.h"

#include "methods/table_files.h"

#include "scenario/rng.h"
#include "scenario/validation.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace posatlas {

namespace {

double sigmoid(double x)
{
    // Two branches so that exp never overflows.
    if (x >= 0.0)
        return 1.0 / (1.0 + std::exp(-x));
    const double e = std::exp(x);
    return e / (1.0 + e);
}

} // namespace

CopeResult cope_attention(const Eigen::Ref<const Eigen::MatrixXd>& q,
                          const Eigen::Ref<const Eigen::MatrixXd>& k,
                          const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale, bool causal)
{
    require_real("gate_scale", gate_scale, -1e3, 1e3, true);
    const Eigen::Index d = q.cols();
    if (d < 1 || k.cols() != d || pos_emb.cols() != d)
        throw std::invalid_argument(
            "cope_attention: q, k and pos_emb must have the same number (>= 1) of columns"
            " (got " +
            std::to_string(q.cols()) + ", " + std::to_string(k.cols()) + ", " +
            std::to_string(pos_emb.cols()) + ")");
    if (pos_emb.rows() < 1)
        throw std::invalid_argument("cope_attention: pos_emb needs at least one row (npos_max >= 1)");
    const Eigen::Index nq = q.rows();
    const Eigen::Index nk = k.rows();
    CopeResult res;
    if (nq == 0 || nk == 0) {
        res.gates.resize(nq, nk);
        res.positions.resize(nq, nk);
        res.position_logits.resize(nq, nk);
        res.logits.resize(nq, nk);
        return res;
    }
    require_matrix_fits("seq_len", nq, nk);
    const auto npos = pos_emb.rows();
    const double max_pos = static_cast<double>(npos - 1);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));

    res.logits.noalias() = (q * k.transpose()) * inv_sqrt_d;
    res.gates.resize(nq, nk);
    res.positions.resize(nq, nk);
    res.position_logits.resize(nq, nk);

#pragma omp parallel for schedule(static)
    for (Eigen::Index i = 0; i < nq; ++i) {
        const Eigen::VectorXd z = pos_emb * q.row(i).transpose(); // z_r = q_i . e[r]
        for (Eigen::Index j = 0; j < nk; ++j) {
            const bool masked = causal && j > i;
            res.gates(i, j) = masked ? 0.0 : sigmoid(gate_scale * res.logits(i, j));
        }
        double running = 0.0; // reverse cumulative sum over j
        for (Eigen::Index j = nk - 1; j >= 0; --j) {
            running += res.gates(i, j);
            const double p = std::min(running, max_pos);
            const double lo = std::floor(p);
            const double w = p - lo;
            const auto f = static_cast<Eigen::Index>(lo);
            const auto c = static_cast<Eigen::Index>(std::ceil(p));
            res.positions(i, j) = p;
            res.position_logits(i, j) = z[c] * w + z[f] * (1.0 - w);
        }
        for (Eigen::Index j = 0; j < nk; ++j) {
            if (causal && j > i)
                res.logits(i, j) = -std::numeric_limits<double>::infinity();
            else
                res.logits(i, j) += res.position_logits(i, j);
        }
    }
    return res;
}

TableShape cope_pos_emb_shape(const CopeParams& params)
{
    return {params.npos_max, params.head_dim, false, "npos_max x head_dim"};
}

Eigen::MatrixXd cope_position_embeddings(const CopeParams& params)
{
    validate(params);
    require_matrix_fits("npos_max", params.npos_max, params.head_dim);
    if (!params.pos_emb.empty())
        return table_from_file(params.pos_emb, params.pos_emb_tensor, "pos_emb", cope_pos_emb_shape(params));
    Eigen::MatrixXd e(params.npos_max, params.head_dim);
    for (int r = 0; r < params.npos_max; ++r)
        for (int c = 0; c < params.head_dim; ++c)
            e(r, c) =
                rng::normal(params.seed, rng::kCopePos, static_cast<std::uint64_t>(r) * params.head_dim + c) *
                params.stddev;
    return e;
}

} // namespace posatlas
