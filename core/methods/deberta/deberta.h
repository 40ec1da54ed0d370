// SPDX-License-Identifier: GPL-3.0-or-later
// DeBERTa v2/v3 disentangled attention (He et al. 2021, "DeBERTa: Decoding-enhanced BERT with
// Disentangled Attention", eq. (4); v3: He et al. 2023), following Hugging Face transformers
// models/deberta_v2/modeling_deberta_v2.py: make_log_bucket_position, build_relative_position and
// DisentangledSelfAttention.disentangled_attention_bias.
//
//   relative position   delta(i, j) = bucket(i - j)   (query i, key j; "P_q - P_k")
//   log buckets         mid = position_buckets / 2; for |r| <= mid: bucket(r) = r; otherwise
//                       bucket(r) = sign(r) * (mid + ceil(log(|r| / mid) / log((max_position - 1) / mid)
//                                                        * (mid - 1)))
//                       evaluated in float32 as in HF (abs_pos / mid is a float32 tensor, the
//                       denominator torch.tensor((max_position - 1) / mid) is float32).
//   att_span            position_buckets if > 0, else max_relative_positions
//   c2c                 q_i . k_j * scale
//   c2p                 q_i . K^r[clamp(delta(i, j) + att_span, 0, 2 att_span - 1)] * scale
//   p2c                 k_j . Q^r[clamp(-r_pos(j, i) + att_span, 0, 2 att_span - 1)] * scale
//   scale               1 / sqrt(d * scale_factor),  scale_factor = 1 + [c2p] + [p2c]
// where K^r = rel_embeddings W_k^T (pos_key_proj or, with share_att_key, key_proj) and Q^r =
// rel_embeddings W_q^T. About p2c: HF gathers key_layer . pos_query_layer^T with index
// clamp(-r_pos + att_span) where r_pos[a, b] = delta(a, b) and then transposes, so the entry for
// (query i, key j) uses -delta(j, i); since bucket() is odd this equals delta(i, j), i.e. the same row
// index as c2p. The paper's eq. (4) writes delta(j, i) instead; we follow the code.
//
// Simplification for a single head: W_q and W_k are the head's head_dim x e slice of HF's projections
// (HF projects the hidden_size-wide relative embeddings for all heads at once, then splits the heads);
// the seeded stand-in has e = head_dim. Projection biases are 0 as initialised by HF (_init_weights zeroes
// Linear biases). A trained rel_embeddings (DebertaParams::rel_embeddings, 2 att_span x e; HF
// DebertaV2Encoder.rel_embeddings, e = hidden_size) and trained projections (pos_key_proj, pos_query_proj,
// head_dim x e) replace the stand-ins exactly as stored; HF's LayerNorm of the relative embeddings
// (norm_rel_ebd "layer_norm") is not applied: a file holds the embeddings as attention reads them.
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

namespace posatlas {

// HF make_log_bucket_position for one value (see the header). bucket_size >= 2, max_position >
// bucket_size / 2 + 1 (ParameterError otherwise).
std::int64_t deberta_log_bucket(std::int64_t relative_pos, int bucket_size, int max_position);

// HF build_relative_position for one pair: query_pos - key_pos, bucketed when position_buckets > 0.
// Checks params (validate, ParameterError) on every call: for single values. Series and kernels validate
// once and use the unchecked formula (deberta_relative_positions, deberta_logit_terms).
std::int64_t deberta_relative_position(std::int64_t query_pos, std::int64_t key_pos,
                                       const DebertaParams& params);

// Validates params once (ParameterError), then gives deberta_relative_position(query_pos, key_pos) of any
// pair without a check: for kernels that ask per cell or per offset.
class DebertaRelative
{
public:
    explicit DebertaRelative(const DebertaParams& params);
    std::int64_t operator()(std::int64_t query_pos, std::int64_t key_pos) const;
    // The rows of K^r (c2p) and Q^r (p2c) that a query i and a key j read, delta = i - j
    // (deberta_c2p_index, deberta_p2c_index without the check).
    std::int64_t c2p_row(std::int64_t delta) const;
    std::int64_t p2c_row(std::int64_t delta) const;

private:
    DebertaParams m_params;
};

// The relative position and the embedding row attention reads, for every entry r of relative_positions
// (r = query_pos - key_pos, "P_q - P_k"), validating params once (ParameterError):
//   delta[k]      = deberta_relative_position(r, 0, params), the (log-bucketed) relative position;
//   delta_used[k] = deberta_c2p_index(params, r, 0) - att_span = clamp(delta, -att_span, att_span - 1),
//                   the row of K^r that c2p reads (and, bucket() being odd, of Q^r that p2c reads),
//                   in the same unit as delta. Past +-att_span the bucket keeps rising, the row does not.
struct DebertaPositionSeries {
    std::int64_t att_span = 0;
    std::vector<std::int64_t> delta;
    std::vector<std::int64_t> delta_used;
};
DebertaPositionSeries deberta_relative_positions(const DebertaParams& params,
                                                 const std::vector<std::int64_t>& relative_positions);

// position_buckets if > 0, else max_relative_positions (HF pos_ebd_size).
std::int64_t deberta_att_span(const DebertaParams& params);

// Row of K^r used by c2p, and of Q^r used by p2c, for query i and key j (see the header). validate(params)
// per call (ParameterError).
std::int64_t deberta_c2p_index(const DebertaParams& params, std::int64_t i, std::int64_t j);
std::int64_t deberta_p2c_index(const DebertaParams& params, std::int64_t i, std::int64_t j);

struct DebertaModel {
    DebertaParams params;
    std::int64_t att_span = 0;
    // 2 att_span x e: rng::normal(seed, kDebertaRel, r * e + c) * stddev (e = d), or rel_embeddings's file
    Eigen::MatrixXd rel_embeddings;
    Eigen::MatrixXd pos_key;   // K^r = rel_embeddings W_k^T, W_k(r, c) = normal(seed, kDebertaWk, r*e+c) *
                               // stddev, or a file
    Eigen::MatrixXd pos_query; // Q^r = rel_embeddings W_q^T, W_q(r, c) = normal(seed, kDebertaWq, r*e+c) *
                               // stddev, or a file
};

// Shapes of the tables from files: rel_embeddings 2 att_span x e (any e), the projections head_dim x e
// with e the relative embeddings' width (head_dim when they are seeded; reads rel_embeddings's file).
TableShape deberta_rel_shape(const DebertaParams& params);
TableShape deberta_proj_shape(const DebertaParams& params);

// A model's checkpoint (a cached snapshot's, for --model): when it holds the known relative embeddings
// (io/safetensors.h: deberta.encoder.rel_embeddings.weight), params.rel_embeddings and its tensor name
// them and true is returned; else params is unchanged and false. Throws SafetensorsError for a
// checkpoint that cannot be read.
bool deberta_use_checkpoint_rel_embeddings(DebertaParams& params, const std::string& checkpoint);

// The model: each table from its file when params names one, else seeded. Throws ParameterError for
// invalid params, a table above kMaxMatrixElements (named "position_buckets" or "max_relative_positions",
// whichever sets att_span), or a file that cannot be read or has another shape (named "rel_embeddings",
// "pos_key_proj", "pos_query_proj").
DebertaModel make_deberta_model(const DebertaParams& params);

struct DebertaTerms {
    double c2c = 0.0;   // already multiplied by scale
    double c2p = 0.0;   // 0 when params.c2p is off
    double p2c = 0.0;   // 0 when params.p2c is off
    double scale = 0.0; // 1 / sqrt(d * scale_factor)
    double total = 0.0; // c2c + c2p + p2c: the logit before the attention mask
};

// The disentangled logit for query i with projected content q_i and key j with projected content k_j
// (head_dim entries each; std::invalid_argument otherwise). `model` comes from make_deberta_model, which
// validated its params: no parameter check here, so kernels call it per cell (inside OpenMP loops).
DebertaTerms deberta_logit_terms(const DebertaModel& model, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                                 const Eigen::Ref<const Eigen::VectorXd>& k_j, std::int64_t i,
                                 std::int64_t j);

} // namespace posatlas
