// SPDX-License-Identifier: GPL-3.0-or-later
// Swin Transformer's relative position bias (Liu et al. 2021, "Swin Transformer: Hierarchical Vision
// Transformer using Shifted Windows", arXiv:2103.14030, eq. (4)): attention runs inside windows of M x M
// patches, and the logit between patches i and j of one window is
//   q_i · k_j / sqrt(d) + B[index(i, j), h],
// B the learned relative_position_bias_table of (2M - 1)² rows and one column per head, and
//   index(i, j) = (dy + M - 1)(2M - 1) + (dx + M - 1),  dy = row_i - row_j, dx = col_i - col_j.
// The reference is Hugging Face transformers SwinSelfAttention: relative_position_index from
// coords_flatten[:, :, None] - coords_flatten[:, None, :] (i minus j), shifted by M - 1, the row offset
// multiplied by 2M - 1, the two summed; the bias gathered from the table by it is added to the scaled
// scores. The original code (microsoft/Swin-Transformer WindowAttention) initialises the table with
// trunc_normal_(std = .02) (timm: a normal cut to [-2, 2], absolute bounds), as the seeded stand-in does
// here with PosAtlas's RNG; a trained table comes from a file.
//
// Positions: patch p is in window p / M² at (row, column) = ((p mod M²) / M, p mod M): a sequence longer
// than one window is a run of windows, each numbered row by row, as the reference's window_partition lists
// them. Patches of different windows do not attend to each other: those cells are empty (NaN), like the
// causal mask's. (The shifted windows of every second block and their masks are not drawn.)
#pragma once

#include "methods/method.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>

namespace posatlas {

struct Scenario;

inline constexpr Method kSwin{"swin"};

struct SwinParams {
    static constexpr Method kMethod = kSwin;

    int window_size = 7; // swin-tiny-patch4-window7-224
    int num_heads = 3;   // its first stage
    int head_dim = 32;   // embed_dim 96 / 3 heads
    std::uint64_t seed = 0;
    double stddev = 0.02; // trunc_normal_(std = .02)
    std::string bias_table, bias_table_tensor;

    bool operator==(const SwinParams&) const = default;
};

// index(i, j) of two patches of one window, each given by its (row, column) in [0, M).
inline std::int64_t swin_relative_index(std::int64_t row_i, std::int64_t col_i, std::int64_t row_j,
                                        std::int64_t col_j, std::int64_t m)
{
    return (row_i - row_j + m - 1) * (2 * m - 1) + (col_i - col_j + m - 1);
}

// The seeded stand-in: (2M - 1)² x num_heads, each entry stddev · N(0, 1) redrawn while outside [-2, 2].
Eigen::MatrixXd swin_seeded_table(const SwinParams& p);
// The table in effect for s: the file when one is named, else the seeded stand-in.
Eigen::MatrixXd swin_bias_table(const Scenario& s);

} // namespace posatlas
