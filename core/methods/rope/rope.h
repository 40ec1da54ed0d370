// SPDX-License-Identifier: GPL-3.0-or-later
// Rotary position embedding (Su et al. 2021, "RoFormer: Enhanced Transformer with Rotary Position
// Embedding", arXiv:2104.09864, eq. (14)-(16)).
//
// Pair i (i = 0 .. rotary_dim/2 - 1) of a vector is rotated by the angle position * theta_i:
//   (x1, x2) -> (x1 cos a - x2 sin a, x1 sin a + x2 cos a),  a = position * theta_i.
// Which two components form pair i depends on the layout (RopePairing):
//   Interleaved: (2i, 2i + 1)            RoFormer; Meta's llama reference model.py apply_rotary_emb
//                                        (view_as_complex on adjacent pairs); GPT-J.
//   Half:        (i, i + rotary_dim / 2) GPT-NeoX; HF transformers apply_rotary_pos_emb with
//                                        rotate_half(x) = cat(-x2, x1): q * cos + rotate_half(q) * sin.
// Components at index >= rotary_dim pass through unchanged (partial rotary, HF q_rot / q_pass split).
// Every rotated component is multiplied by f.attention_factor, as HF multiplies cos and sin by
// attention_scaling (YaRN mscale, LongRoPE scaling); pass-through components are not scaled.
//
// Angles are formed in double. cos / sin receive the full product position * theta_i (libm reduces
// the argument exactly), which is more accurate than reducing it by a rounded 2 pi first.
#pragma once

#include "methods/rope/rope_scaling.h"
#include "scenario/params.h"

#include <Eigen/Dense>
#include <vector>

namespace posatlas {

// The rotated vector R(position) x. x.size() is head_dim and must be >= f.rotary_dim (else
// ParameterError "head_dim").
Eigen::VectorXd rope_rotate(const RopeFrequencies& f, const Eigen::Ref<const Eigen::VectorXd>& x,
                            double position, RopePairing pairing);
// Row r of m replaced by R(position) applied to it, in place (the rows of a matrix of queries or keys);
// with `also`, row r of a second matrix at the same position, rotated with the same cos and sin (one
// sin/cos per angle for both). m (and also) have at least f.rotary_dim columns (not checked: a hot loop;
// callers size them from the same parameters).
void rope_rotate_row(const RopeFrequencies& f, Eigen::MatrixXd& m, Eigen::MatrixXd* also, Eigen::Index r,
                     double position, RopePairing pairing);
// The same rotation with one position per pair: pair i turns by positions[i] * theta_i (multimodal RoPE,
// where each pair follows one of a token's (t, h, w) ids: methods/mrope/mrope.h). With every position
// equal it is rope_rotate_row, bit for bit.
void rope_rotate_row_per_pair(const RopeFrequencies& f, Eigen::MatrixXd& m, Eigen::Index r,
                              const double* positions, RopePairing pairing);

// The attention logit (R(m) q) . (R(n) k) * f.softmax_scale, not divided by sqrt(d): with the
// attention module's extra softmax multiplier (1 but for DeepSeek, rope_scaling.h), so that every
// consumer of a RoPE logit sees what the model computes. Depends on m and n only through m - n
// (RoFormer eq. (16)).
double rope_score(const RopeFrequencies& f, const Eigen::Ref<const Eigen::VectorXd>& q,
                  const Eigen::Ref<const Eigen::VectorXd>& k, double m, double n, RopePairing pairing);

// The same value from delta = m - n alone, in O(d):
//   s(delta) = c * ( a^2 * sum_i [ (q1 k1 + q2 k2) cos(delta theta_i) + (q1 k2 - q2 k1) sin(delta theta_i) ]
//              + sum_{j >= rotary_dim} q_j k_j ),
// with (q1, q2), (k1, k2) the components of pair i, a = f.attention_factor and c = f.softmax_scale.
double rope_relative_score(const RopeFrequencies& f, const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& k, double delta, RopePairing pairing);

// Per-pair coefficients of rope_relative_score for one (q, k), so that a Toeplitz logit row over many
// deltas costs one cos/sin per pair and delta: score(delta) = passthrough
//   + sum_i cos_coef[i] cos(delta theta_i) + sin_coef[i] sin(delta theta_i).
struct RopePairCoefficients {
    std::vector<double> cos_coef; // c a^2 (q1 k1 + q2 k2)
    std::vector<double> sin_coef; // c a^2 (q1 k2 - q2 k1)
    double passthrough = 0.0;     // c * sum over components >= rotary_dim of q_j k_j
};
RopePairCoefficients rope_pair_coefficients(const RopeFrequencies& f,
                                            const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& k, RopePairing pairing);
double rope_relative_score(const RopeFrequencies& f, const RopePairCoefficients& c, double delta);

// Angle of each pair at `position`, position * theta_i reduced into [0, 2 pi) with std::fmod on the
// double product. Precision: the product carries a relative rounding error of 2^-53 (absolute
// |position * theta_i| * 1.1e-16, e.g. ~1e-10 rad at position 1e6, theta 1), and the reduction by the
// double nearest 2 pi adds at most (product / 2 pi) * 2.5e-16 rad; both are far below what a plot can
// show, whereas float32 angles would be off by ~0.06 rad at position 1e6.
std::vector<double> rope_angles(const RopeFrequencies& f, double position);

// The pairs the rotation view draws as large circles when none are chosen: the first, the ones a quarter
// and half way along, and the last, in order, each once (fewer than four when pairs < 4). pairs >= 1.
std::vector<int> rope_default_shown_pairs(int pairs);

// Maps the interleaved layout to the half layout within the first rotary_dim components:
// perm[j] is the interleaved index of the component that sits at index j in the half layout
// (perm[j] = 2j for j < rotary_dim/2, 2(j - rotary_dim/2) + 1 otherwise). If x_half[j] = x_int[perm[j]]
// for q and k, then rope_score(..., Half) on the permuted vectors equals rope_score(..., Interleaved)
// on the originals. rotary_dim must be even and >= 2 (ParameterError "rotary_dim").
Eigen::VectorXi pairing_permutation(int rotary_dim);

} // namespace posatlas
