// SPDX-License-Identifier: GPL-3.0-or-later
// Matrices for heatmaps, computed for exactly the cells shown: a window of rows (query positions)
// and columns (key positions), optionally downsampled, never the full N x N. Where the value
// depends on i - j only (relative methods with position-independent content, bias tables) the
// 2N - 1 distinct values (over the window's offset range) are computed once and scattered.
//
// Logit definitions per method (q_i, k_j from content.h, d = the method's head dimension):
//   Sinusoidal / Learned: (q_i + p_i) . (k_j + p_j) / sqrt(d)                (Vaswani et al. 2017)
//   Shaw:                 q_i . (k_j + a^K_{clip(j-i)}) / sqrt(d)               (Shaw et al. 2018 eq. 4)
//   Transformer-XL:       (a) + (b) + (c) + (d), the enabled terms, / sqrt(d)   (Dai et al. 2019 eq. 3)
//   T5:                   q_i . k_j / sqrt(d) + bias[bucket(j - i), head]      (T5 does not scale by sqrt(d):
//   the
//                         content term here uses the same 1/sqrt(d) as the others so that panels are
//                         comparable; the Bias kind shows T5's bias alone, exactly)
//   DeBERTa:              (c2c + c2p + p2c) / sqrt(d * (1 + #position terms))   (He et al. 2021)
//   RoPE:                 R(i) q_i . R(j) k_j / sqrt(d)                         (Su et al. 2021)
//   ALiBi:                q_i . k_j / sqrt(d) - m_h (i - j), masked for j > i when causal (Press et al. 2022)
//   CoPE:                 the CoPE logits of Golovneva et al. 2024 (causal)
// A NaN cell means "no value": masked by causality, or a position with no learned embedding. The
// scenario's sliding window or chunks (Scenario::window, under its causal mask) mask the logits of every
// method: the cells they hide are NaN, and those logits are exact cells or point samples (no block means).
// Llama 4's attention temperature (Scenario::attn_temperature_tuning; NoPE, RoPE) multiplies the logits of
// query row i by logit_temperature(s, i); point samples too when it differs from 1 within seq_len.
#pragma once

#include "compute/gemm.h"
#include "methods/method.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// MatrixKind (methods/method.h); the kinds a method offers and their kernels are in its descriptor.
std::string_view
matrix_kind_id(MatrixKind k); // "logits", "encoding", "bias", "buckets", "cope-positions", ...
std::optional<MatrixKind> parse_matrix_kind(std::string_view id);
// The kinds that make sense for a method, the most telling first.
std::vector<MatrixKind> matrix_kinds_for(Method m);

// How a downsampled window is reduced to its output cells.
enum class SampleMode {
    BlockMean, // each output cell is the exact mean of the cells of its block (where the kind allows it)
    Point,     // each output cell is one cell of its block (the old picture; cheaper for nonlinear kinds)
};

// Precision (gemm.h): Single rounds the final product's factors to float32; each logit then carries
// an absolute error of at most about (d + 2) 2^-24 sum_k |q_k k_k| / sqrt(d) (gemm.h).

// What an output cell shows.
enum class MatrixSampling {
    Exact,     // not downsampled: one cell per output cell
    BlockMean, // the exact mean of the block's cells (over unmasked cells; NaN if the block has none)
    Point,     // one cell of the block, at row_index / col_index: downsampled by point sampling
};
std::string_view matrix_sampling_id(MatrixSampling s); // "exact", "block-mean", "point"

// The cells to compute. Rows cover positions [row0, row0 + rows), columns [col0, col0 + cols)
// (for Encoding: dimensions). When out_rows < rows (or out_cols < cols) the window is downsampled.
// Blocks are contiguous: output row r covers [row0 + floor(r rows / out_rows), row0 + floor((r + 1)
// rows / out_rows)) (block_means.h), columns likewise.
//   SampleMode::BlockMean: the cell is the exact mean over its block, for every kind that is linear in
//     the cells (MatrixResult::sampling = BlockMean):
//       logits of RoPE and the absolute methods, with any content: bilinear in the rotated or
//         position-added query and key, so mean = (block mean of queries) . (block mean of keys) / sqrt(d);
//       T5 and ALiBi biases and logits: the bias depends on i - j, summed by the trapezoid identity;
//         under a causal mask the mean is over the unmasked cells (j <= i), NaN when there are none;
//       Shaw, Transformer-XL (any content), DeBERTa, xPos and CoPE (positions, gates, logits) with
//         position-independent content (a function of i - j; xPos's causal blocks as geometric series);
//       encodings (positions x dimensions): means over position and dimension blocks.
//     Every other kind (bucket indices, CoPE with random content, Shaw, DeBERTa and xPos with random
//     content) falls back to point sampling and says so (sampling = Point).
//   SampleMode::Point: the cell at row0 + floor((r + 0.5) rows / out_rows) (sampling = Point).
struct MatrixWindow {
    std::int64_t row0 = 0;
    std::int64_t col0 = 0;
    std::int64_t rows = 0;     // 0: the scenario's seq_len
    std::int64_t cols = 0;     // 0: seq_len (or the encoding dimension for Encoding)
    std::int64_t out_rows = 0; // 0: rows (no downsampling)
    std::int64_t out_cols = 0;
    SampleMode sample = SampleMode::BlockMean;
    Precision precision = Precision::Double;
    // With Precision::Single: return the values in float32 (MatrixResult::values_f) instead of widening
    // them into double. Half the memory, and the kernels whose last step is the product (RoPE,
    // Transformer-XL) write it straight from SGEMM, with no widening pass over the result. For callers
    // that read values_f: `posatlas compute matrix --precision single` and the benchmarks. Every other
    // kind's values are computed in double and rounded to float32 once at the end.
    bool single_result = false;
};

struct MatrixResult {
    Eigen::MatrixXd values;   // out_rows x out_cols (empty when values_f holds them)
    Eigen::MatrixXf values_f; // out_rows x out_cols in float32 when the window asked for a
                              // single_result (then `values` is empty), else empty
    // Row r shows positions [row_index[r], row_block_end[r]) (a block mean), or the single position
    // row_index[r] (Exact, Point; then row_block_end[r] = row_index[r] + 1). Columns likewise.
    std::vector<std::int64_t> row_index; // first position (or dimension) of each row's block
    std::vector<std::int64_t> col_index;
    std::vector<std::int64_t> row_block_end; // one past the last position of each row's block
    std::vector<std::int64_t> col_block_end;
    MatrixSampling sampling = MatrixSampling::Exact;
    std::string row_label;   // "query position i"
    std::string col_label;   // "key position j" / "dimension"
    std::string value_label; // "logit", "bias", "bucket", ...
    // The same three as machine names (columns.h) for CSV headers: "query_position", "key_position"
    // (or "position", "dimension"), and the kind's id in snake_case ("logits", "cope_gates").
    std::string row_name, col_name, value_name;
    bool is_signed = false;      // values straddle 0: suggests a diverging colour map centred on 0
    bool is_integer = false;     // bucket indices
    bool used_toeplitz = false;  // computed from distinct offsets only
    double min = 0.0, max = 0.0; // over finite cells

    bool single() const { return values_f.size() > 0; }
    Eigen::Index rows() const { return single() ? values_f.rows() : values.rows(); }
    Eigen::Index cols() const { return single() ? values_f.cols() : values.cols(); }
    double at(Eigen::Index r, Eigen::Index c) const { return single() ? values_f(r, c) : values(r, c); }
};

// The smallest and largest finite value of v[0 .. n) (NaN and +-inf skipped) into lo and hi; false, and
// lo > hi, when there is none. MatrixResult::min and max come from it.
bool finite_extremes(const double* v, std::int64_t n, double& lo, double& hi);
bool finite_extremes(const float* v, std::int64_t n, double& lo, double& hi);

// Columns of the full matrix: seq_len, or the encoding's dimension for Encoding.
std::int64_t matrix_columns(const Scenario& s, MatrixKind kind);

// True when compute_matrix gives exact block means for this scenario and kind (see MatrixWindow).
bool block_mean_supported(const Scenario& s, MatrixKind kind);

// Throws ParameterError for invalid parameters or a window outside [0, seq_len) / too large,
// and for a kind that the method does not have; Cancelled when cancel() returns true.
MatrixResult compute_matrix(const Scenario& s, MatrixKind kind, const MatrixWindow& window,
                            const CancelFn& cancel = {}, const ProgressFn& progress = {});

} // namespace posatlas
