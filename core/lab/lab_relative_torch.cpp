// SPDX-License-Identifier: GPL-3.0-or-later
// The relative encodings whose tables enter attention itself: Shaw et al. 2018, Transformer-XL (Dai et al.
// 2019) and DeBERTa (He et al. 2021). Which row of a table a pair (i, j) reads, and Transformer-XL's
// sinusoid, come from core's code (shaw_relative_index, txl_relative_sinusoid, DebertaRelative); the
// logits are core's definitions (shaw.h, transformer_xl.h, deberta.h), checked cell by cell by
// test_lab_core_equality with the model's tables handed to core as files.
#include "lab/lab_model_torch.h"

#include "methods/deberta/deberta.h"
#include "methods/shaw/shaw.h"
#include "methods/transformer_xl/transformer_xl.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace posatlas::lab {

namespace {

torch::Tensor pair_rows(std::int64_t L, const std::function<std::int64_t(std::int64_t, std::int64_t)>& row)
{
    std::vector<std::int64_t> r(static_cast<std::size_t>(L * L));
    for (std::int64_t i = 0; i < L; ++i)
        for (std::int64_t j = 0; j < L; ++j)
            r[static_cast<std::size_t>(i * L + j)] = row(i, j);
    return torch::tensor(r, torch::kInt64).view({L, L});
}

// The heads' tensors of one table, one [rows, cols] per head, stacked along the rows: [H rows, cols].
torch::Tensor heads_stacked(Model& m, int layer, const std::string& table)
{
    std::vector<torch::Tensor> t;
    for (int h = 0; h < m.config.heads; ++h)
        t.push_back(m.at(txl_tensor(layer, h, table)));
    return torch::cat(t, 0);
}

// table [R, e] times the heads' projections W [H dh, e] (nn.Linear, y = x W^T): [H, R, dh].
torch::Tensor per_head(const torch::Tensor& table, const torch::Tensor& w, int heads)
{
    return table.matmul(w.transpose(0, 1)).view({table.size(0), heads, -1}).permute({1, 0, 2});
}

// scores[b, h, i, j] = t[b, h, i, rows(i, j)]
torch::Tensor gather_rows(const torch::Tensor& t, const torch::Tensor& rows)
{
    const std::int64_t L = rows.size(0);
    return t.gather(-1, rows.view({1, 1, L, L}).expand({t.size(0), t.size(1), L, L}));
}

} // namespace

bool relative_method(const std::string& method)
{
    return method == "shaw" || method == "transformer-xl" || method == "deberta";
}

void relative_positional(Positional& p, const LabConfig& c, std::int64_t L, torch::Dtype dtype)
{
    if (c.method == "shaw") {
        const int k = c.shaw_max_relative_position;
        p.shaw_rows =
            pair_rows(L, [k](std::int64_t i, std::int64_t j) { return shaw_relative_index(i, j, k) + k; });
    } else if (c.method == "transformer-xl") {
        // R_{i-j} for i - j = 0 .. L - 1 (kimiyoung/transformer-xl PositionalEmbedding, as core forms it).
        const TransformerXLParams tp = txl_params(c);
        std::vector<double> r(static_cast<std::size_t>(L * c.d_model));
        for (std::int64_t m = 0; m < L; ++m) {
            const Eigen::VectorXd v = txl_relative_sinusoid(c.d_model, tp.base, m);
            std::copy(v.data(), v.data() + v.size(), r.begin() + m * c.d_model);
        }
        p.txl_r = torch::tensor(r, torch::kFloat64).view({L, c.d_model}).to(dtype);
        p.txl_rows =
            pair_rows(L, [](std::int64_t i, std::int64_t j) { return std::max<std::int64_t>(i - j, 0); });
    } else if (c.method == "deberta") {
        const DebertaRelative rel(deberta_params(c));
        p.deberta_c2p = pair_rows(L, [&rel](std::int64_t i, std::int64_t j) { return rel.c2p_row(i - j); });
        p.deberta_p2c = pair_rows(L, [&rel](std::int64_t i, std::int64_t j) { return rel.p2c_row(i - j); });
    }
}

torch::Tensor relative_scores(Model& m, int l, const torch::Tensor& q, const torch::Tensor& k,
                              const Positional& pos)
{
    const LabConfig& c = m.config;
    const std::int64_t H = c.heads, dh = c.head_dim();
    const torch::Tensor qk = q.matmul(k.transpose(-2, -1));
    if (c.method == "shaw") {
        // shaw_logit: q_i . (k_j + a^K_{clip(j-i)}) / sqrt(d)
        const torch::Tensor qa = q.matmul(m.at(shaw_tensor(l, "key")).transpose(0, 1)); // [B, H, L, 2k + 1]
        return (qk + gather_rows(qa, pos.shaw_rows)) / std::sqrt(static_cast<double>(dh));
    }
    if (c.method == "transformer-xl") {
        // txl_logit_terms / sqrt(d): (q + u) . k (terms a, c) + (q + v) . W_{k,R} R_{i-j} (terms b, d);
        // RelPartialLearnableMultiHeadAttn's AC + BD times 1/sqrt(d_head).
        const torch::Tensor u = heads_stacked(m, l, "r_w_bias").view({1, H, 1, dh});
        const torch::Tensor v = heads_stacked(m, l, "r_r_bias").view({1, H, 1, dh});
        const torch::Tensor proj = per_head(pos.txl_r, heads_stacked(m, l, "r_net"), c.heads); // [H, L, dh]
        const torch::Tensor ac = qk + u.matmul(k.transpose(-2, -1));
        const torch::Tensor bd = gather_rows((q + v).matmul(proj.transpose(-2, -1)), pos.txl_rows);
        return (ac + bd) / std::sqrt(static_cast<double>(dh));
    }
    // deberta_logit_terms (HF DisentangledSelfAttention.disentangled_attention_bias): c2c + c2p + p2c, each
    // scaled by 1/sqrt(3 d); K^r = rel W_k^T, Q^r = rel W_q^T per head.
    const torch::Tensor& rel = m.at(kDebertaRelTensor);
    std::vector<torch::Tensor> wk, wq;
    for (int h = 0; h < c.heads; ++h) {
        wk.push_back(m.at(deberta_tensor(l, h, "pos_key_proj")));
        wq.push_back(m.at(deberta_tensor(l, h, "pos_query_proj")));
    }
    const torch::Tensor kr = per_head(rel, torch::cat(wk, 0), c.heads); // [H, 2 att_span, dh]
    const torch::Tensor qr = per_head(rel, torch::cat(wq, 0), c.heads);
    const torch::Tensor c2p = gather_rows(q.matmul(kr.transpose(-2, -1)), pos.deberta_c2p);
    // p2c of (i, j) is k_j . Q^r[row(i, j)]: gathered along the keys' rows, then transposed.
    const torch::Tensor p2c =
        gather_rows(k.matmul(qr.transpose(-2, -1)), pos.deberta_p2c.transpose(0, 1).contiguous())
            .transpose(-2, -1);
    return (qk + c2p + p2c) / std::sqrt(3.0 * static_cast<double>(dh));
}

torch::Tensor relative_values(Model& m, int l, const torch::Tensor& weights, const Positional& pos)
{
    if (m.config.method != "shaw")
        return {};
    // shaw_output: sum_j alpha_ij a^V_{clip(j-i)}, the weights of each row summed per table row first.
    const torch::Tensor a_v = m.at(shaw_tensor(l, "value")); // [2k + 1, dh]
    const std::int64_t L = pos.shaw_rows.size(0);
    const torch::Tensor per_row =
        torch::zeros({weights.size(0), weights.size(1), L, a_v.size(0)}, weights.options())
            .scatter_add(-1, pos.shaw_rows.view({1, 1, L, L}).expand(weights.sizes()), weights);
    return per_row.matmul(a_v);
}

} // namespace posatlas::lab
