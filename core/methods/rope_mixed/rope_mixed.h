// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE-Mixed (Heo et al. 2024, "Rotary Position Embedding for Vision Transformer", ECCV, arXiv:2403.13298,
// eq. (12)): rotary pairs with learnable 2D frequencies. Patch (row y, column x) of the grid turns pair i of
// head h by
//   x · θx[h, i] + y · θy[h, i],
// so each pair turns along its own direction in the image plane, not along the rows or the columns alone.
// The reference implementation is naver-ai/rope-vit, models/vit_rope.py:
//   init_random_2d_freqs(dim = head_dim, num_heads, theta = rope_theta): mag_j = theta^(-4j/d) for
//     j < d/4; per head one angle a = 2π · U(0, 1) (torch.rand); θx = [mag · cos a, mag · cos(π/2 + a)],
//     θy = [mag · sin a, mag · sin(π/2 + a)] (d/2 pairs: the first d/4 along a, the rest along a + π/2);
//     the model keeps them as the parameter `freqs` of shape (2, depth, num_heads · d/2), x then y,
//     heads one after another;
//   init_t_xy(end_x, end_y): patch t at x = t mod end_x, y = floor(t / end_x) (row-major);
//   compute_mixed_cis: angle = t_x · θx + t_y · θy; apply_rotary_emb: adjacent components (2i, 2i + 1)
//     as one complex number (view_as_complex), multiplied by e^{i angle}.
// The reference's rope_mixed_deit_small_patch16_LS: head_dim 384 / 6 = 64, rope_theta 10, 224 / 16 = 14
// patches per side. The CLS token is not rotated there (q[:, :, 1:]) and is not a patch here.
//
// The seeded stand-in draws each head's angle a from PosAtlas's RNG (scenario/rng.h), not torch.rand, so
// the same seed gives the same frequencies everywhere but not torch's; a trained layer's frequencies come
// from a file: the 2 x (num_heads · head_dim/2) table freqs[:, layer, :] of a checkpoint (the reader takes
// 2-D tensors, so the layer is sliced out first).
//
// The logit between patches i and j is (R(p_i) q_i) · (R(p_j) k_j) / sqrt(d) for the head shown, as for
// 2D RoPE (rope2d.h); position p is the patch p / W rows down and p mod W columns across.
#pragma once

#include "methods/method.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>

namespace posatlas {

struct Scenario;

inline constexpr Method kRopeMixed{"rope-mixed"};

struct RopeMixedParams {
    static constexpr Method kMethod = kRopeMixed;

    int grid_height = 14; // 224 / 16
    int grid_width = 14;
    int num_heads = 6;
    int head_dim = 64;
    double rope_theta = 10.0; // the magnitudes' base (rope_mixed_* models: 10)
    std::uint64_t seed = 0;   // the stand-in's angles
    std::string freqs_table, freqs_table_tensor;

    bool operator==(const RopeMixedParams&) const = default;
};

// The seeded stand-in, as init_random_2d_freqs lays it out: 2 x (num_heads · head_dim/2), row 0 θx, row 1
// θy, head h in columns [h · d/2, (h + 1) · d/2).
Eigen::MatrixXd rope_mixed_seeded_frequencies(const RopeMixedParams& p);
// The head's angle a of the stand-in, in [0, 2π).
double rope_mixed_seeded_angle(const RopeMixedParams& p, int head);
// The frequencies in effect for s: the table file when one is named (checked to be 2 x num_heads·d/2),
// else the seeded stand-in.
Eigen::MatrixXd rope_mixed_frequencies(const Scenario& s);

} // namespace posatlas
