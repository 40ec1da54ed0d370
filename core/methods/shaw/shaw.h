// SPDX-License-Identifier: GPL-3.0-or-later
// Relative position representations, Shaw, Uszkoreit, Vaswani 2018, "Self-Attention with Relative
// Position Representations" (NAACL), eqs. (2)-(5):
//   relative index      clip(j - i, -k, k)                                   (eq. 5)
//   logit               e_ij = q_i . (k_j + a^K_ij) / sqrt(d_z)              (eq. 4)
//   output              z_i  = sum_j alpha_ij (v_j + a^V_ij)                 (eq. 3)
// where q_i = x_i W^Q, k_j = x_j W^K, v_j = x_j W^V are the caller's projected vectors and
// a^K_ij = w^K_{clip(j - i, -k, k)}, a^V_ij = w^V_{clip(j - i, -k, k)} are learned per relative
// distance (2k + 1 vectors each). Here the tables are seeded stand-ins N(0, stddev), or trained tables
// read from files (ShawParams::key_table, value_table; methods/table_files.h).
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <Eigen/Dense>
#include <cstdint>

namespace posatlas {

// clip(j - i, -k, k) (Shaw et al. eq. 5). k >= 0.
std::int64_t shaw_relative_index(std::int64_t i, std::int64_t j, int k);

struct ShawTables {
    Eigen::MatrixXd a_key;   // (2k + 1) x head_dim; row r + k holds w^K_r for relative r in [-k, k]
    Eigen::MatrixXd a_value; // (2k + 1) x head_dim; row r + k holds w^V_r
    int k = 0;               // max_relative_position
};

// The shape of a^K and a^V: (2k + 1) x head_dim.
TableShape shaw_table_shape(const ShawParams& params);

// The tables: each from its file when ShawParams names one (exactly as stored), else seeded:
// a_key(row, c) = rng::normal(seed, kShawKey, row * head_dim + c) * stddev, a_value likewise with
// kShawValue. Throws ParameterError for invalid params, tables above kMaxMatrixElements, or a file that
// cannot be read or has another shape (named "key_table" / "value_table").
ShawTables make_shaw_tables(const ShawParams& params);

// e_ij = q_i . (k_j + a^K_{clip(j-i)}) / sqrt(d) with d = q_i.size() (Shaw eq. 4). q_i and k_j must
// have head_dim entries (std::invalid_argument otherwise).
double shaw_logit(const ShawTables& tables, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                  const Eigen::Ref<const Eigen::VectorXd>& k_j, std::int64_t i, std::int64_t j);

// The position part of the logit alone, q_i . a^K_{clip(j-i)} / sqrt(d).
double shaw_position_logit(const ShawTables& tables, const Eigen::Ref<const Eigen::VectorXd>& q_i,
                           std::int64_t i, std::int64_t j);

// z_i = sum_j alpha_ij (v_j + a^V_{clip(j-i)}) (Shaw eq. 3) for query position i, where key/value
// position j runs over first_key .. first_key + alpha.size() - 1, alpha holds the attention weights
// of row i and values has one row per key position (alpha.size() x head_dim).
Eigen::VectorXd shaw_output(const ShawTables& tables, const Eigen::Ref<const Eigen::VectorXd>& alpha,
                            const Eigen::Ref<const Eigen::MatrixXd>& values, std::int64_t i,
                            std::int64_t first_key = 0);

} // namespace posatlas
