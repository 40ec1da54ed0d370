// SPDX-License-Identifier: GPL-3.0-or-later
// Transformer-XL relative positional attention, Dai et al. 2019, "Transformer-XL: Attentive Language
// Models Beyond a Fixed-Length Context", eq. (3) (also XLNet, Yang et al. 2019):
//   A^rel_ij = (a) q_i^T k_j                     content x content      (E_xi^T W_q^T W_{k,E} E_xj)
//            + (b) q_i^T W_{k,R} R_{i-j}         content x position
//            + (c) u^T k_j                       global content bias
//            + (d) v^T W_{k,R} R_{i-j}           global position bias
// with q_i = W_q E_xi and k_j = W_{k,E} E_xj supplied by the caller (projected content vectors).
//
// R_{i-j} follows the original code, kimiyoung/transformer-xl pytorch/mem_transformer.py::
// PositionalEmbedding: inv_freq = 1 / base^(arange(0, d, 2) / d) and R = [sin(r inv_freq) |
// cos(r inv_freq)] (concatenated halves, not interleaved), evaluated at r = i - j (the code's pos_seq
// runs klen-1 .. 0). In RelPartialLearnableMultiHeadAttn, AC = (q + r_w_bias) . k holds (a)+(c),
// BD = (q + r_r_bias) . r_net(R) holds (b)+(d) (u = r_w_bias, v = r_r_bias, W_{k,R} = r_net), and the
// sum is then multiplied by 1/sqrt(d_head); the terms returned here are unscaled, so a caller that
// wants the code's logits multiplies total() by 1/sqrt(head_dim).
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>
#include <cstdint>

namespace posatlas {

// R_r = [sin(r w_0) .. sin(r w_{d/2-1}) | cos(r w_0) .. cos(r w_{d/2-1})], w_k = base^(-2k/d).
// dim must be even and >= 2, base > 1 (ParameterError "head_dim" / "base" otherwise).
Eigen::VectorXd txl_relative_sinusoid(int dim, double base, std::int64_t relative);

struct TxlModel {
    TransformerXLParams params;
    // d x e: W_{k,R}(r, c) = rng::normal(seed, kTxlWkR, r * d + c) * stddev with e = d, or r_net's file
    // (any even e: R_{i-j} then has e dimensions, as a checkpoint's r_net maps d_model to the heads).
    Eigen::MatrixXd w_k_r;
    Eigen::VectorXd u; // d: rng::normal(seed, kTxlU, c) * stddev, or r_w_bias's file
    Eigen::VectorXd v; // d: rng::normal(seed, kTxlV, c) * stddev, or r_r_bias's file
};

// Shapes of the tables from files: r_net head_dim x e (any even e), r_w_bias and r_r_bias head_dim values.
TableShape txl_r_net_shape(const TransformerXLParams& params);
TableShape txl_bias_shape(const TransformerXLParams& params);

// W_{k,R}, u, v: each from its file when params names one (exactly as stored; methods/table_files.h), else
// seeded. Throws ParameterError for invalid params, or a file that cannot be read or has another shape
// (named "r_net", "r_w_bias", "r_r_bias").
TxlModel make_txl_model(const TransformerXLParams& params);

// Reads only the files of params and checks their shapes (what make_txl_model would throw for them).
void check_txl_tables(const TransformerXLParams& params);

// W_{k,R} R_{relative}: the projected relative embedding shared by terms (b) and (d). It depends only
// on i - j, so callers drawing a Toeplitz picture can compute it once per distance.
Eigen::VectorXd txl_projected_relative(const TxlModel& model, std::int64_t relative);

struct TxlTerms {
    double a = 0.0, b = 0.0, c = 0.0, d = 0.0;
    // Sum of the terms enabled in params (term_a .. term_d); unscaled (see the header comment).
    double total(const TransformerXLParams& params) const;
};

// The four terms of eq. (3) for query position i and key position j. q_i, k_j have head_dim entries
// (std::invalid_argument otherwise).
TxlTerms txl_logit_terms(const TxlModel& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                         const Eigen::Ref<const Eigen::VectorXd>& k_j, std::int64_t i, std::int64_t j);

// Same, with W_{k,R} R_{i-j} already computed by txl_projected_relative(model, i - j).
TxlTerms txl_logit_terms_projected(const TxlModel& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                   const Eigen::Ref<const Eigen::VectorXd>& k_j,
                                   const Eigen::Ref<const Eigen::VectorXd>& projected_relative);

} // namespace posatlas
