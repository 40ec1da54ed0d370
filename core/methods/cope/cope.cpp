// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cope/cope.h"

#include "methods/table_files.h"

#include "scenario/rng.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

// `what` at a cell with content logit logit0, gate g and (clamped) position p; z(r) = q . e[r] is read at
// floor(p) and ceil(p) for the logits (linear interpolation between integer positions, as CoPE).
template <typename Z> double cope_cell(CopeQuantity what, double logit0, double g, double p, const Z& z)
{
    if (what == CopeQuantity::Gates)
        return g;
    if (what == CopeQuantity::Positions)
        return p;
    const double lo = std::floor(p);
    const double w = p - lo;
    return logit0 + z(static_cast<Eigen::Index>(std::ceil(p))) * w +
           z(static_cast<Eigen::Index>(lo)) * (1.0 - w);
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

    // z_ir = q_i . e[r] for every query at once (one product, not one per row).
    const Eigen::MatrixXd z_all = q * pos_emb.transpose(); // nq x npos
    constexpr double kInf = std::numeric_limits<double>::infinity();
#pragma omp parallel for schedule(dynamic, 16)
    for (Eigen::Index i = 0; i < nq; ++i) {
        // Causally only keys 0 .. i count; the masked ones get gate 0, position 0 (their sum of
        // masked gates) and logit -infinity without evaluating them.
        const Eigen::Index last = causal ? std::min(i, nk - 1) : nk - 1;
        double* gate = res.gates.row(i).data();
        double* pos = res.positions.row(i).data();
        double* pl = res.position_logits.row(i).data();
        double* logit = res.logits.row(i).data();
        for (Eigen::Index j = 0; j <= last; ++j)
            gate[j] = sigmoid(gate_scale * logit[j]);
        double running = 0.0; // reverse cumulative sum over j
        for (Eigen::Index j = last; j >= 0; --j) {
            running += gate[j];
            const double p = std::min(running, max_pos);
            const double lo = std::floor(p);
            const double w = p - lo;
            const auto f = static_cast<Eigen::Index>(lo);
            const auto c = static_cast<Eigen::Index>(std::ceil(p));
            pos[j] = p;
            pl[j] = z_all(i, c) * w + z_all(i, f) * (1.0 - w);
            logit[j] += pl[j];
        }
        for (Eigen::Index j = last + 1; j < nk; ++j) {
            gate[j] = 0.0;
            pos[j] = 0.0;
            pl[j] = z_all(i, 0); // the interpolation at p = 0, as the full computation gives
            logit[j] = -kInf;
        }
    }
    return res;
}

CopeConstantContent cope_constant_content(const Eigen::Ref<const Eigen::VectorXd>& q,
                                          const Eigen::Ref<const Eigen::VectorXd>& k,
                                          const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale)
{
    require_real("gate_scale", gate_scale, -1e3, 1e3, true);
    const Eigen::Index d = q.size();
    if (d < 1 || k.size() != d || pos_emb.cols() != d || pos_emb.rows() < 1)
        throw std::invalid_argument(
            "cope_constant_content: q, k and pos_emb need the same dimension, pos_emb a row");
    CopeConstantContent c;
    c.logit0 = q.dot(k) / std::sqrt(static_cast<double>(d));
    c.gate = sigmoid(gate_scale * c.logit0);
    c.max_pos = static_cast<double>(pos_emb.rows() - 1);
    c.z = pos_emb * q;
    return c;
}

double CopeConstantContent::at(CopeQuantity what, std::int64_t delta) const
{
    if (what == CopeQuantity::Gates)
        return gate;
    // As cope_attention: clamp, then interpolate between the embeddings at floor and ceil.
    const double p = std::min(static_cast<double>(delta + 1) * gate, max_pos);
    if (what == CopeQuantity::Positions)
        return p;
    const double lo = std::floor(p);
    const double w = p - lo;
    return logit0 + z[static_cast<Eigen::Index>(std::ceil(p))] * w +
           z[static_cast<Eigen::Index>(lo)] * (1.0 - w);
}

std::vector<std::int64_t> CopeConstantContent::floor_changes(std::int64_t hi) const
{
    std::vector<std::int64_t> out;
    if (!(gate > 0.0))
        return out; // p = 0 everywhere
    const auto floor_at = [&](std::int64_t delta) { return std::floor(at(CopeQuantity::Positions, delta)); };
    for (std::int64_t k = 1; k <= static_cast<std::int64_t>(max_pos); ++k) {
        // The first delta with (delta + 1) g >= k, from the real quotient, then corrected by the rounded
        // product that `at` evaluates (so a run never straddles a change of the floor).
        const double guess = std::ceil(static_cast<double>(k) / gate) - 1.0;
        if (guess > static_cast<double>(hi) + 1.0)
            break;
        auto delta = static_cast<std::int64_t>(std::max(0.0, guess));
        while (delta > 0 && floor_at(delta - 1) >= static_cast<double>(k))
            --delta;
        while (delta <= hi && floor_at(delta) < static_cast<double>(k))
            ++delta;
        if (delta >= 1 && delta <= hi && (out.empty() || out.back() != delta))
            out.push_back(delta);
    }
    return out;
}

double CopeConstantContent::slope(CopeQuantity what, std::int64_t a) const
{
    const double p = at(CopeQuantity::Positions, a);
    if (what == CopeQuantity::Gates || p >= max_pos)
        return 0.0;
    if (what == CopeQuantity::Positions)
        return gate;
    const auto f = static_cast<Eigen::Index>(std::floor(p));
    return gate * (z[f + 1] - z[f]);
}

CopeMatrix cope_causal_rows(const Eigen::Ref<const Eigen::MatrixXd>& q_rows,
                            const Eigen::Ref<const Eigen::MatrixXd>& k,
                            const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale,
                            const std::vector<std::int64_t>& row_offsets, CopeQuantity what,
                            const std::vector<std::int64_t>* columns)
{
    require_real("gate_scale", gate_scale, -1e3, 1e3, true);
    const Eigen::Index d = q_rows.cols(), nr = q_rows.rows(), span = k.rows();
    if (d < 1 || k.cols() != d || pos_emb.cols() != d || pos_emb.rows() < 1 ||
        static_cast<Eigen::Index>(row_offsets.size()) != nr)
        throw std::invalid_argument(
            "cope_causal_rows: q_rows, k and pos_emb need the same columns, one offset per row");
    for (std::int64_t o : row_offsets)
        if (o < 0 || o >= span)
            throw std::invalid_argument("cope_causal_rows: a row offset outside the keys");
    if (columns)
        for (std::size_t c = 0; c < columns->size(); ++c)
            if ((*columns)[c] < 0 || (*columns)[c] >= span || (c > 0 && (*columns)[c] <= (*columns)[c - 1]))
                throw std::invalid_argument("cope_causal_rows: columns must be ascending key offsets");
    const Eigen::Index nc = columns ? static_cast<Eigen::Index>(columns->size()) : span;
    require_matrix_fits("seq_len", std::max<Eigen::Index>(nr, 1), std::max<Eigen::Index>(nc, 1));
    const auto column = [&](Eigen::Index c) {
        return columns ? static_cast<Eigen::Index>((*columns)[static_cast<std::size_t>(c)]) : c;
    };
    const double max_pos = static_cast<double>(pos_emb.rows() - 1);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    CopeMatrix out(nr, nc);
    const Eigen::MatrixXd z_all = q_rows * pos_emb.transpose();
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    // Panels of rows: each thread multiplies its panel's queries with every key (the content logits,
    // kPanel x span, reused) and walks each row down from its query, writing only the wanted columns.
    // The whole R x span product and a gate vector per row used to be allocated (29 MB and 900
    // allocations for a 900-row picture of 4096 positions).
    constexpr Eigen::Index kPanel = 32;
    const Eigen::Index panels = (nr + kPanel - 1) / kPanel;
#pragma omp parallel if (panels > 1)
    {
        CopeMatrix logit0(std::min(kPanel, nr), span);
#pragma omp for schedule(dynamic, 1)
        for (Eigen::Index pn = 0; pn < panels; ++pn) {
            const Eigen::Index r0 = pn * kPanel, m = std::min(kPanel, nr - r0);
            logit0.topRows(m).noalias() = (q_rows.middleRows(r0, m) * k.transpose()) * inv_sqrt_d;
            for (Eigen::Index r = r0; r < r0 + m; ++r) {
                const auto last = static_cast<Eigen::Index>(row_offsets[static_cast<std::size_t>(r)]);
                const double* l0 = logit0.row(r - r0).data();
                double* row = out.row(r).data();
                Eigen::Index c = nc - 1;
                for (; c >= 0 && column(c) > last; --c)
                    row[c] = kNaN;
                double running = 0.0; // reverse cumulative sum over j, as cope_attention
                for (Eigen::Index j = last; j >= 0 && c >= 0; --j) {
                    const double g = sigmoid(gate_scale * l0[j]);
                    running += g;
                    if (column(c) == j) {
                        row[c] = cope_cell(what, l0[j], g, std::min(running, max_pos),
                                           [&](Eigen::Index t) { return z_all(r, t); });
                        --c;
                    }
                }
            }
        }
    }
    return out;
}

CopeRowStream::KeyDotsFn key_dots_from(CopeRowStream::KeysFn keys)
{
    return [keys = std::move(keys)](std::int64_t a, std::int64_t b, const Eigen::VectorXd& q, double* out) {
        const Eigen::MatrixXd k = keys(a, b);
        if (k.rows() != b - a || k.cols() != q.size())
            throw std::invalid_argument("CopeRowStream: keys(a, b) must give (b - a) x d");
        Eigen::Map<Eigen::VectorXd>(out, b - a).noalias() = k * q;
    };
}

CopeRowStream::CopeRowStream(const Eigen::Ref<const Eigen::VectorXd>& q, std::int64_t query, KeyDotsFn dots,
                             const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale,
                             CopeQuantity what)
    : m_q(q), m_query(query), m_dots(std::move(dots)), m_gate_scale(gate_scale), m_what(what)
{
    require_real("gate_scale", gate_scale, -1e3, 1e3, true);
    if (q.size() < 1 || pos_emb.cols() != q.size() || pos_emb.rows() < 1 || query < 0)
        throw std::invalid_argument("CopeRowStream: q and pos_emb need the same columns, and query >= 0");
    m_z = pos_emb * q;
    m_max_pos = static_cast<double>(pos_emb.rows() - 1);
    m_inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(q.size()));
}

void CopeRowStream::next(std::int64_t n, double* out, const CancelFn& cancel)
{
    if (n < 0 || m_given + n > m_query + 1)
        throw std::invalid_argument("CopeRowStream::next: only " + std::to_string(m_query + 1 - m_given) +
                                    " keys left");
    for (std::int64_t done = 0; done < n;) {
        check_cancel(cancel);
        const std::int64_t piece = std::min(kCopeRowChunk, n - done);
        const std::int64_t b = m_query - m_given + 1, a = b - piece; // keys a .. b - 1, taken from b - 1 down
        m_logit0.resize(piece);
        m_dots(a, b, m_q, m_logit0.data());
        for (std::int64_t t = piece - 1; t >= 0; --t) {
            const double l0 = m_logit0[static_cast<Eigen::Index>(t)] * m_inv_sqrt_d;
            const double g = sigmoid(m_gate_scale * l0);
            m_running += g;
            *out++ = cope_cell(m_what, l0, g, std::min(m_running, m_max_pos),
                               [&](Eigen::Index r) { return m_z[r]; });
        }
        m_given += piece;
        done += piece;
    }
}

double CopeRowStream::clamped_value(double dot) const
{
    if (!clamped())
        throw std::invalid_argument("CopeRowStream::clamped_value: the positions are not clamped yet");
    const double l0 = dot * m_inv_sqrt_d;
    return cope_cell(m_what, l0, sigmoid(m_gate_scale * l0), m_max_pos,
                     [&](Eigen::Index r) { return m_z[r]; });
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
