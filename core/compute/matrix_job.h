// SPDX-License-Identifier: GPL-3.0-or-later
// What a method's matrix kernel receives (MatrixKindSpec::compute, methods/registry.h) and the
// building blocks it may use: content vectors at the sampled positions, Toeplitz filling of functions
// of i - j, exact block means of such functions, causal masking. compute_matrix (attention_logits.h)
// validates the scenario and the window, chooses the cells, calls the kernel, and takes min/max.
#pragma once

#include "compute/attention_logits.h"
#include "compute/block_means.h"
#include "scenario/content.h"

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <vector>

namespace posatlas {

struct MatrixJob {
    const Scenario& s;
    MatrixKind kind;
    const std::vector<std::int64_t>& rows; // the positions of the output rows (Exact, Point)
    const std::vector<std::int64_t>& cols; // the positions (or dimensions) of the output columns
    const CancelFn& cancel;
    const ProgressFn& progress;
    MatrixResult& out; // values are sized; labels preset for logits ("query position i", "logit")
    Precision precision = Precision::Double;
    // Block boundaries (block_means.h) when the kernel must give exact block means, else empty.
    std::vector<std::int64_t> rb, cb;
    // MatrixWindow::single_result: a kernel may put its values in out.values_f (and empty out.values);
    // compute_matrix rounds a double result to float32 itself otherwise.
    bool single_result = false;

    bool block_means() const { return !rb.empty(); }
};

// The job's values as scale a b^T (gemm_nt in the job's precision), when that product is the kernel's
// last step: with a single_result, SGEMM writes the float32 result directly (out.values freed).
void final_product(MatrixJob& job, const Eigen::Ref<const Eigen::MatrixXd>& a,
                   const Eigen::Ref<const Eigen::MatrixXd>& b, double scale);

// Content queries (keys) at the job's row (column) positions: rows x dim.
Eigen::MatrixXd job_queries(const MatrixJob& job, int dim);
Eigen::MatrixXd job_keys(const MatrixJob& job, int dim);
// q_i . k_j / sqrt(dim) for every output cell, one matrix product.
Eigen::MatrixXd content_term(const MatrixJob& job, int dim);
// values(r, c) = by_offset(rows[r] - cols[c]) from the distinct offsets only; false (nothing written)
// when there are nearly as many distinct offsets as cells. With `force`, always fills.
bool fill_by_offset(const MatrixJob& job, Eigen::MatrixXd& values,
                    const std::function<double(std::int64_t)>& by_offset, bool force = false);
// Exact block means of f(i - j) (over the unmasked cells j <= i when causal; NaN if none).
void block_means_from_offsets(MatrixJob& job, const std::function<double(std::int64_t)>& by_offset,
                              bool causal, const OffsetRuns* changes = nullptr);
// NaN at every cell whose key comes after its query (j > i).
void mask_future(MatrixJob& job);
// Sum over the cells of each block (unmasked ones, j <= i, when causal) of q_i . k_j (not scaled).
Eigen::MatrixXd masked_content_sums(const MatrixJob& job, int d, bool causal);
// Block means of the content vectors (keys when `key`) over each block [b[t], b[t + 1]) clipped to
// [lo, hi) (the positions that exist); `valid` receives each block's clipped size (rows with none are 0).
Eigen::MatrixXd content_block_means(const MatrixJob& job, bool key, int d, const std::vector<std::int64_t>& b,
                                    std::int64_t lo, std::int64_t hi, std::vector<std::int64_t>& valid,
                                    double progress_from, double progress_to);
// Logits of relative methods: q_i . k_j / sqrt(d) plus a term of i - j (and of q_i with random content).
// Block means (only reached with position-independent content) and Toeplitz filling use by_offset
// (i - j = delta); other cells use direct(r, c).
// `runs` (optional): by_offset is constant on these runs (bucket_runs), so block means cost O(runs).
void relative_fill(MatrixJob& job, const std::function<double(std::int64_t, std::int64_t)>& direct,
                   const std::function<double(std::int64_t)>& by_offset, const OffsetRuns* runs = nullptr);
// The runs of a function of the offset that is constant wherever every one of `buckets` is (each
// integer-valued and monotone on [lo, -1] and on [1, hi], as monotone_change_points needs: Shaw's
// clipped relative position, DeBERTa's log buckets), over the offsets the job's block means read: the
// union of their change points. Empty changes when the job has no block means.
OffsetRuns bucket_runs(const MatrixJob& job,
                       const std::vector<std::function<std::int64_t(std::int64_t)>>& buckets);
// Methods whose position enters as an additive bias of i - j (T5, ALiBi; NoPE with a zero bias):
// the Bias kind is by_offset(i - j) alone, the Logits kind q_i . k_j / sqrt(d) + by_offset(i - j);
// masked (NaN) where j > i when causal. Exact cells, or exact block means over the unmasked cells.
// `changes` (optional): by_offset is piecewise constant or linear on these runs (offset_block_sums):
// block means then cost O(runs), not O(offsets).
void additive_bias_matrix(MatrixJob& job, const std::function<double(std::int64_t)>& by_offset, bool causal,
                          int d, const OffsetRuns* changes = nullptr);
// Number of unmasked cells of each block.
Eigen::MatrixXd block_cell_counts(const MatrixJob& job, bool causal);
// Fills every cell with cell(r, c) (row-chunked, cancellable, parallel).
void fill_each_cell(MatrixJob& job, const std::function<double(std::int64_t, std::int64_t)>& cell);

// A term x . e_{index(i - j)} of a relative logit, where x is the query (by_key false) or the key
// (by_key true) of the cell and e_t is row t of `embeddings` (E x d): Shaw's q_i . a^K_{clip(j - i)},
// DeBERTa's c2p q_i . K^r_{row} and p2c k_j . Q^r_{row}.
struct GatheredTerm {
    const Eigen::MatrixXd& embeddings;
    bool by_key = false;
    std::function<std::int64_t(std::int64_t)> index; // row of embeddings for the offset i - j, in [0, E)
};
// Every cell of the job (no block means): scale (q_r . k_c + sum of the terms), where q and k are the
// job's content at its rows and columns. As a reference implementation does it (Hugging Face's DeBERTa:
// c2p_att = query_layer @ pos_key_layer^T, then torch.gather), the content term is one product and each
// term one product of the sampled vectors with every embedding row, E values per row that the cells then
// read; the row each cell reads comes from a table per distinct offset when there are fewer of those than
// cells. A term whose product would hold more than max(cells, 2^22) values is a dot product per cell.
void content_plus_gathered(MatrixJob& job, const Eigen::MatrixXd& q, const Eigen::MatrixXd& k, double scale,
                           const std::vector<GatheredTerm>& terms);

} // namespace posatlas
