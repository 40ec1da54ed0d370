// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/deberta/deberta.h"

#include "io/safetensors.h"
#include "methods/table_files.h"

#include "scenario/rng.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace posatlas {

namespace {

// The float32 evaluation of HF make_log_bucket_position for |relative_pos| > mid; validated inputs.
std::int64_t log_bucket_unchecked(std::int64_t relative_pos, int bucket_size, int max_position)
{
    const std::int64_t mid = bucket_size / 2;
    const std::int64_t sign = relative_pos > 0 ? 1 : (relative_pos < 0 ? -1 : 0);
    // HF: abs_pos = mid - 1 inside (-mid, mid), |rel| elsewhere; where(abs_pos <= mid, rel, ...).
    const std::int64_t abs_pos = (relative_pos < mid && relative_pos > -mid)
                                     ? mid - 1
                                     : (relative_pos < 0 ? -relative_pos : relative_pos);
    if (abs_pos <= mid)
        return relative_pos;
    // float32 as in HF: abs_pos / mid is a float32 tensor; torch.tensor((max_position - 1) / mid)
    // rounds the Python double to float32 before its log.
    const float ratio = static_cast<float>(abs_pos) / static_cast<float>(mid);
    const auto span_ratio =
        static_cast<float>(static_cast<double>(max_position - 1) / static_cast<double>(mid));
    const float scaled = std::log(ratio) / std::log(span_ratio) * static_cast<float>(mid - 1);
    const float log_pos = std::ceil(scaled) + static_cast<float>(mid);
    return static_cast<std::int64_t>(log_pos) * sign;
}

// Parameters validate(DebertaParams) accepted: the functions below never check, so that kernels (OpenMP
// loops among them, where an exception would end the process) call them freely after one validate.
// Far beyond max_position the bucket saturates; clamping to +-kFar keeps |rel| and the float cast defined.
constexpr std::int64_t kFar = std::int64_t{1} << 62;

std::int64_t relative_unchecked(std::int64_t query_pos, std::int64_t key_pos, const DebertaParams& p)
{
    const std::int64_t rel = query_pos - key_pos;
    if (p.position_buckets > 0 && p.max_relative_positions > 0)
        return log_bucket_unchecked(std::clamp(rel, -kFar, kFar), p.position_buckets,
                                    p.max_relative_positions);
    return rel;
}

std::int64_t row_unchecked(std::int64_t delta, std::int64_t span)
{
    return std::clamp<std::int64_t>(delta + span, 0, 2 * span - 1);
}

std::int64_t c2p_unchecked(const DebertaParams& p, std::int64_t i, std::int64_t j)
{
    return row_unchecked(relative_unchecked(i, j, p), deberta_att_span(p));
}

std::int64_t p2c_unchecked(const DebertaParams& p, std::int64_t i, std::int64_t j)
{
    // HF: r_pos = build_relative_position(key, key) indexed [key j, query i], then -r_pos + att_span.
    return row_unchecked(-relative_unchecked(j, i, p), deberta_att_span(p));
}

} // namespace

std::int64_t deberta_log_bucket(std::int64_t relative_pos, int bucket_size, int max_position)
{
    DebertaParams p;
    p.position_buckets = bucket_size;
    p.max_relative_positions = max_position;
    validate(p);
    return log_bucket_unchecked(std::clamp(relative_pos, -kFar, kFar), bucket_size, max_position);
}

DebertaRelative::DebertaRelative(const DebertaParams& params) : m_params(params)
{
    validate(params);
}

std::int64_t DebertaRelative::operator()(std::int64_t query_pos, std::int64_t key_pos) const
{
    return relative_unchecked(query_pos, key_pos, m_params);
}

std::int64_t DebertaRelative::c2p_row(std::int64_t delta) const
{
    return c2p_unchecked(m_params, delta, 0);
}

std::int64_t DebertaRelative::p2c_row(std::int64_t delta) const
{
    return p2c_unchecked(m_params, delta, 0);
}

std::int64_t deberta_relative_position(std::int64_t query_pos, std::int64_t key_pos,
                                       const DebertaParams& params)
{
    validate(params);
    return relative_unchecked(query_pos, key_pos, params);
}

std::int64_t deberta_att_span(const DebertaParams& params)
{
    return params.position_buckets > 0 ? params.position_buckets : params.max_relative_positions;
}

std::int64_t deberta_c2p_index(const DebertaParams& params, std::int64_t i, std::int64_t j)
{
    validate(params);
    return c2p_unchecked(params, i, j);
}

std::int64_t deberta_p2c_index(const DebertaParams& params, std::int64_t i, std::int64_t j)
{
    validate(params);
    return p2c_unchecked(params, i, j);
}

DebertaPositionSeries deberta_relative_positions(const DebertaParams& params,
                                                 const std::vector<std::int64_t>& relative_positions)
{
    validate(params);
    DebertaPositionSeries out;
    out.att_span = deberta_att_span(params);
    out.delta.resize(relative_positions.size());
    out.delta_used.resize(relative_positions.size());
    for (std::size_t k = 0; k < relative_positions.size(); ++k) {
        const std::int64_t delta = relative_unchecked(relative_positions[k], 0, params);
        out.delta[k] = delta;
        out.delta_used[k] = row_unchecked(delta, out.att_span) - out.att_span;
    }
    return out;
}

bool deberta_use_checkpoint_rel_embeddings(DebertaParams& params, const std::string& checkpoint)
{
    const SafetensorsCatalog catalog = read_safetensors(checkpoint);
    const SafetensorsTensor* t = find_known_tensor(catalog, "deberta");
    if (!t)
        return false;
    params.rel_embeddings = checkpoint;
    params.rel_embeddings_tensor = t->name; // named, so that a session reproduces it
    return true;
}

TableShape deberta_rel_shape(const DebertaParams& params)
{
    return {2 * deberta_att_span(params), -1, false, "2 att_span x e", "deberta"};
}

namespace {

// W_k and W_q map the relative embeddings' e columns to the head's: head_dim x e.
TableShape proj_shape(const DebertaParams& params, Eigen::Index e)
{
    return {params.head_dim, e, false, "head_dim x e, e the width of the relative embeddings"};
}

} // namespace

TableShape deberta_proj_shape(const DebertaParams& params)
{
    const Eigen::MatrixXd rel = table_from_file(params.rel_embeddings, params.rel_embeddings_tensor,
                                                "rel_embeddings", deberta_rel_shape(params));
    return proj_shape(params, rel.size() ? rel.cols() : params.head_dim);
}

DebertaModel make_deberta_model(const DebertaParams& params)
{
    validate(params);
    DebertaModel m;
    m.params = params;
    m.att_span = deberta_att_span(params);
    const int d = params.head_dim;
    require_matrix_fits(params.position_buckets > 0 ? "position_buckets" : "max_relative_positions",
                        2 * m.att_span, d);
    const std::int64_t rows = 2 * m.att_span;
    m.rel_embeddings = table_from_file(params.rel_embeddings, params.rel_embeddings_tensor, "rel_embeddings",
                                       deberta_rel_shape(params));
    if (m.rel_embeddings.size() == 0) {
        m.rel_embeddings.resize(rows, d);
#pragma omp parallel for schedule(static)
        for (std::int64_t r = 0; r < rows; ++r)
            for (int c = 0; c < d; ++c)
                m.rel_embeddings(r, c) =
                    rng::normal(params.seed, rng::kDebertaRel, static_cast<std::uint64_t>(r * d + c)) *
                    params.stddev;
    }
    const Eigen::Index e = m.rel_embeddings.cols();
    const TableShape proj = proj_shape(params, e);
    Eigen::MatrixXd w_q =
        table_from_file(params.pos_query_proj, params.pos_query_proj_tensor, "pos_query_proj", proj);
    Eigen::MatrixXd w_k =
        table_from_file(params.pos_key_proj, params.pos_key_proj_tensor, "pos_key_proj", proj);
    const bool seed_q = w_q.size() == 0, seed_k = w_k.size() == 0;
    if (seed_q)
        w_q.resize(d, e);
    if (seed_k)
        w_k.resize(d, e);
    for (int r = 0; r < d; ++r) {
        for (Eigen::Index c = 0; c < e; ++c) {
            const auto index =
                static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(e) + static_cast<std::uint64_t>(c);
            if (seed_q)
                w_q(r, c) = rng::normal(params.seed, rng::kDebertaWq, index) * params.stddev;
            if (seed_k)
                w_k(r, c) = rng::normal(params.seed, rng::kDebertaWk, index) * params.stddev;
        }
    }
    // nn.Linear: y = x W^T (+ bias, zero at initialisation).
    m.pos_key.noalias() = m.rel_embeddings * w_k.transpose();
    m.pos_query.noalias() = m.rel_embeddings * w_q.transpose();
    return m;
}

DebertaTerms deberta_logit_terms(const DebertaModel& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                 const Eigen::Ref<const Eigen::VectorXd>& k_j, std::int64_t i, std::int64_t j)
{
    const auto& p = model.params;
    if (q_i.size() != p.head_dim || k_j.size() != p.head_dim)
        throw std::invalid_argument("deberta_logit_terms: q_i and k_j must have head_dim = " +
                                    std::to_string(p.head_dim) + " entries");
    const int scale_factor = 1 + (p.c2p ? 1 : 0) + (p.p2c ? 1 : 0);
    DebertaTerms t;
    t.scale = 1.0 / std::sqrt(static_cast<double>(p.head_dim) * scale_factor);
    t.c2c = q_i.dot(k_j) * t.scale;
    if (p.c2p)
        t.c2p = q_i.dot(model.pos_key.row(c2p_unchecked(p, i, j)).transpose()) * t.scale;
    if (p.p2c)
        t.p2c = k_j.dot(model.pos_query.row(p2c_unchecked(p, i, j)).transpose()) * t.scale;
    t.total = t.c2c + t.c2p + t.p2c;
    return t;
}

} // namespace posatlas
