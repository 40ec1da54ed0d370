// SPDX-License-Identifier: GPL-3.0-or-later
// Content vectors: the "x" that positional information is added to or mixed with, so that the
// positional part of an attention logit can be seen apart from (or together with) content.
//   Ones:   q_i = k_j = (1, ..., 1)                   -> logits show the pure positional pattern
//   Zero:   q_i = k_j = 0                             -> only position-position terms survive (for
//           absolute encodings the classic p_i . p_j picture; relative methods that multiply content
//           by position, such as RoPE, give zero)
//   Fixed:  q_i = k_j = one seeded N(0,1) vector      -> a single "token" repeated
//   Random: q_i, k_j independent seeded N(0,1) vectors -> a random sequence
// Vectors are generated per position from core/scenario/rng.h, so any window of positions is produced
// without materialising the positions before it.
#pragma once

#include "scenario/params.h"

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace posatlas {

// The query (or key) content vector of dimension `dim` at `position`.
Eigen::VectorXd content_query(const ContentParams& c, int dim, std::int64_t position);
Eigen::VectorXd content_key(const ContentParams& c, int dim, std::int64_t position);

// Rows = the given positions, cols = dim.
Eigen::MatrixXd content_queries(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions);
Eigen::MatrixXd content_keys(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions);

// The query (key = false) or key (key = true) content vector of `position` written into out[0 .. dim),
// without allocating: the inner loop of block sums over millions of positions.
void content_vector_into(const ContentParams& c, bool key, int dim, std::int64_t position, double* out);

// True when q_i and k_j do not depend on position (Ones, Fixed): then every relative method's
// logit depends on i - j only and the matrix is Toeplitz.
bool content_is_position_independent(const ContentParams& c);

} // namespace posatlas
