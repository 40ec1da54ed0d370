// SPDX-License-Identifier: GPL-3.0-or-later
// Fixed sinusoidal absolute position encodings.
//
// Interleaved layout: Vaswani et al. 2017, "Attention Is All You Need", sec. 3.5,
//   PE[p, 2i]     = sin(p / base^(2i / d))
//   PE[p, 2i + 1] = cos(p / base^(2i / d)),        i = 0 .. d/2 - 1,
// the layout of the paper and of the Annotated Transformer / PyTorch tutorial PositionalEncoding.
//
// Split layout: tensor2tensor layers/common_attention.py::get_timing_signal_1d (min_timescale = 1,
// max_timescale = base), the code the paper's models were trained with:
//   n = d / 2 timescales,  log_timescale_increment = log(base) / max(n - 1, 1),
//   inv_timescale_k = exp(-k * log_timescale_increment) = base^(-k / (n - 1)),
//   PE[p, k] = sin(p * inv_timescale_k),  PE[p, n + k] = cos(p * inv_timescale_k).
// NB the frequencies differ from the paper's: the slowest channel here has inv_timescale = 1/base
// exactly (exponent k / (n - 1) reaches 1), whereas Vaswani's 2i/d = k/n stops at (n - 1)/n, so the
// slowest paper frequency is base^(-(n-1)/n) (10000^(-255/256) for d = 512). Split is therefore not
// merely a permutation of Interleaved. The max(n - 1, 1) guard is t2t's own (tf.maximum), so d = 2
// gives the single frequency 1.
//
// Angles p * omega are computed in double. Both layouts satisfy PE[p] . PE[q] = sum_k cos((p - q)
// omega_k), which depends only on p - q.
#pragma once

#include "scenario/params.h"

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace posatlas {

// The d/2 angular frequencies omega_k (radians per position) of the chosen layout, slowest last.
Eigen::VectorXd sinusoidal_frequencies(const SinusoidalParams& params);

// Rows first_position .. first_position + count - 1 (rows = positions, cols = dim) of the encoding.
// count may be 0 (empty matrix). Throws ParameterError for invalid params or a matrix larger than
// kMaxMatrixElements. Rows are computed in parallel (OpenMP).
Eigen::MatrixXd sinusoidal_encoding(const SinusoidalParams& params, std::int64_t first_position,
                                    std::int64_t count);

// The encoding's rows at arbitrary positions (positions.size() x dim), frequencies computed once, rows
// in parallel: what a curve of every distance (10^6 rows) needs. Same values as sinusoidal_row.
Eigen::MatrixXd sinusoidal_rows_at(const SinusoidalParams& params,
                                   const std::vector<std::int64_t>& positions);

// The single row PE[position].
Eigen::VectorXd sinusoidal_row(const SinusoidalParams& params, std::int64_t position);

// a . p_j as a weighted sinusoid sum (sinusoid_sums.h): a's entries on the sin and cos channels of
// each frequency, in the chosen layout. a: dim entries (ParameterError "dim" otherwise).
struct SinusoidWeights {
    std::vector<double> w, ws, wc;
};
SinusoidWeights sinusoidal_weights(const SinusoidalParams& params, const Eigen::VectorXd& a);

// a . p_j for every position j of `positions` (a: dim entries, ParameterError "dim" otherwise): one
// query's positional term against many keys without forming their rows, runs of consecutive positions
// by rotation as in sinusoidal_rows_at (parallel; what the logit curve of every distance needs).
std::vector<double> sinusoidal_dots(const SinusoidalParams& params, const Eigen::VectorXd& a,
                                    const std::vector<std::int64_t>& positions);

} // namespace posatlas
