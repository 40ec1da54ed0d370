// SPDX-License-Identifier: GPL-3.0-or-later
// Contextual Position Encoding (CoPE), Golovneva, Wang, Weston, Sukhbaatar 2024, "Contextual Position
// Encoding: Learning to Count What's Important" (arXiv 2405.18719), following the paper's Python
// listing (classes CoPE and SelfAttn; also facebookresearch/RAM projects/cope):
//   logits0_ij = q_i . k_j / sqrt(d)                         (SelfAttn divides by sqrt(head_dim))
//   g_ij       = sigmoid(gate_scale * logits0_ij), 0 where the causal mask removes j > i
//                (the listing adds mask.log() = -inf before the gates; gate_scale = 1 is the paper)
//   p_ij       = min(sum_{t=j}^{n-1} g_it, npos_max - 1)     (gates.flip(-1).cumsum(-1).flip(-1),
//                                                            clamp(max=npos_max-1); causally
//                                                            sum_{t=j}^{i})
//   z_ir       = q_i . e[r],  r = 0 .. npos_max - 1           (torch.matmul(query, pos_emb); no
//                                                            1/sqrt(d) on this term)
//   w_ij       = p_ij - floor(p_ij)
//   cope_ij    = z_i[ceil p_ij] w_ij + z_i[floor p_ij] (1 - w_ij)
//   logits_ij  = logits0_ij + cope_ij for j <= i, -infinity for masked j > i (the listing's
//                attn_logits + mask.log() + cope).
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace posatlas {

// Row-major: every step of CoPE walks one query's keys (the gates' reverse cumulative sum), so a row
// is contiguous. Column-major storage made each step of that walk a cache and TLB miss across four
// 128 MB matrices at N = 4096 (1.6 s per heatmap instead of ~0.1 s).
using CopeMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct CopeResult {
    CopeMatrix gates;           // nq x nk, g_ij (0 where masked)
    CopeMatrix positions;       // nq x nk, p_ij (0 where masked: a sum of masked gates)
    CopeMatrix position_logits; // nq x nk, cope_ij, the interpolated q_i . e[p_ij]
    CopeMatrix logits;          // nq x nk, logits0 + cope; -infinity where masked
};

// q: nq x d queries, k: nk x d keys (query i and key j at positions i and j), pos_emb: npos_max x d
// (row r = e[r]). When causal, keys j > i are masked. Throws std::invalid_argument on mismatched
// sizes, ParameterError ("gate_scale", "seq_len") for a non-finite gate_scale or an nq x nk above
// kMaxMatrixElements. Rows are computed in parallel (OpenMP).
CopeResult cope_attention(const Eigen::Ref<const Eigen::MatrixXd>& q,
                          const Eigen::Ref<const Eigen::MatrixXd>& k,
                          const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale,
                          bool causal = true);

// One of CoPE's per-cell quantities.
enum class CopeQuantity { Gates, Positions, Logits };

// The causal rows of CoPE for some queries only, against every key of a window: q_rows is R x d (the
// sampled queries), k is span x d (keys at positions lo .. lo + span - 1), query r sits at position
// lo + row_offsets[r] (0 <= row_offsets[r] < span, std::invalid_argument otherwise). Entry (r, t) is
// `what` at key lo + t for t <= row_offsets[r], exactly as cope_attention's causal block row (same
// gates, same reverse sum), and NaN after. Costs R x span instead of span^2: a heatmap of 4096 positions
// at 900 px computes 900 rows, not 4096, and never holds four span x span matrices. With `columns`
// (ascending key offsets in [0, span)), entry (r, c) is the value at key lo + columns[c] and the result
// is R x columns->size(): a point-sampled picture keeps only its columns.
CopeMatrix cope_causal_rows(const Eigen::Ref<const Eigen::MatrixXd>& q_rows,
                            const Eigen::Ref<const Eigen::MatrixXd>& k,
                            const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale,
                            const std::vector<std::int64_t>& row_offsets, CopeQuantity what,
                            const std::vector<std::int64_t>* columns = nullptr);

// One query's row of CoPE, produced a piece at a time from the query down: next(n, out) writes `what` at
// the n keys below those given so far, nearest the query first (out[t] is key query - given() - t,
// i.e. distance given() + t). dots(a, b, q, out) writes q . k_j for the keys j = a .. b - 1, asked for
// in pieces of at most kCopeRowChunk (content_key_dots: no key matrix; key_dots_from for a caller that
// has the keys). The gates' reverse sum is carried from piece to piece, so the values are those of
// cope_causal_rows's row for the query (the same gates, the same order of the sum). A curve of 10^7
// positions with generated content needed 5.1 GB of keys at once, and computed in independent chunks
// of distances it streamed every key above each chunk again.
inline constexpr std::int64_t kCopeRowChunk = 16384;
class CopeRowStream
{
public:
    using KeysFn = std::function<Eigen::MatrixXd(std::int64_t, std::int64_t)>;
    using KeyDotsFn = std::function<void(std::int64_t, std::int64_t, const Eigen::VectorXd&, double*)>;
    CopeRowStream(const Eigen::Ref<const Eigen::VectorXd>& q, std::int64_t query, KeyDotsFn dots,
                  const Eigen::Ref<const Eigen::MatrixXd>& pos_emb, double gate_scale, CopeQuantity what);
    // Throws std::invalid_argument when fewer than n keys are left (given() + n > query + 1).
    void next(std::int64_t n, double* out, const CancelFn& cancel = {});
    std::int64_t given() const { return m_given; }
    // Once the gates given so far sum to the largest position (npos_max - 1), every key further down has
    // that position whatever the keys between: each gate is >= 0, so the sum only grows, and CoPE clamps
    // it (Golovneva et al. 2024, p_ij = min(sum, npos_max - 1)). Such a key's value then needs only
    // q . k_j: clamped_value(dot) is the value next() would give a key with q . k_j = dot (the same
    // operations; the dot itself may round differently where it is computed in another grouping).
    bool clamped() const { return m_running >= m_max_pos; }
    double clamped_value(double dot) const;

private:
    Eigen::VectorXd m_q, m_z;
    std::int64_t m_query;
    KeyDotsFn m_dots;
    Eigen::VectorXd m_logit0; // one piece's q . k_j
    double m_gate_scale, m_max_pos, m_inv_sqrt_d;
    CopeQuantity m_what;
    double m_running = 0.0; // the gates of every key given so far
    std::int64_t m_given = 0;
};

// The dot products of keys(a, b) ((b - a) x d) with q, for callers that have key matrices.
CopeRowStream::KeyDotsFn key_dots_from(CopeRowStream::KeysFn keys);

// CoPE when every query is q and every key is k (position-independent content: ones, zero, fixed).
// Every gate is then the same g = sigmoid(gate_scale q . k / sqrt(d)), so the causal quantities
// depend on the offset delta = i - j >= 0 alone: p(delta) = min((delta + 1) g, npos_max - 1) and the
// logit q . k / sqrt(d) + the interpolated q . e[p(delta)]. A heatmap is then a Toeplitz fill (or exact
// block means of a function of i - j) and a curve of 10^6 distances costs 10^6 evaluations, not
// 10^6 x d products. p is formed as (delta + 1) g, not by the reverse running sum of cope_attention:
// the two differ by the running sum's rounding, at most about (delta + 1)^2 2^-53 g (Higham eq. 4.4).
struct CopeConstantContent {
    double logit0 = 0.0;  // q . k / sqrt(d)
    double gate = 0.0;    // g
    double max_pos = 0.0; // npos_max - 1
    Eigen::VectorXd z;    // z_r = q . e[r]
    // `what` at offset delta >= 0.
    double at(CopeQuantity what, std::int64_t delta) const;
    // The offsets delta in [1, hi] where floor(p(delta)) differs from floor(p(delta - 1)), sorted: between
    // two of them p is linear in delta and so is every quantity (the interpolation is linear in p while
    // its floor stays), with slope(what, a) per offset on the run that starts at a; 0 once p is clamped.
    // At most npos_max - 1 of them: block means then add runs in closed form (block_means.h OffsetRuns).
    std::vector<std::int64_t> floor_changes(std::int64_t hi) const;
    double slope(CopeQuantity what, std::int64_t a) const;
};
// q, k: d-vectors; pos_emb: npos_max x d. Throws as cope_attention for a non-finite gate_scale or
// mismatched sizes.
CopeConstantContent cope_constant_content(const Eigen::Ref<const Eigen::VectorXd>& q,
                                          const Eigen::Ref<const Eigen::VectorXd>& k,
                                          const Eigen::Ref<const Eigen::MatrixXd>& pos_emb,
                                          double gate_scale);

// The shape of e from a file: npos_max x head_dim.
TableShape cope_pos_emb_shape(const CopeParams& params);

// The position embeddings e[r] (npos_max x head_dim): CopeParams::pos_emb's file as stored, else the
// seeded stand-in, entry (r, c) = rng::normal(seed, kCopePos, r * head_dim + c) * stddev. (The listing
// initialises pos_emb to zeros before training.) Throws ParameterError for invalid params, or a file that
// cannot be read or has another shape ("pos_emb").
Eigen::MatrixXd cope_position_embeddings(const CopeParams& params);

} // namespace posatlas
