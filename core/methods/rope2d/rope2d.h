// SPDX-License-Identifier: GPL-3.0-or-later
// Axial 2D rotary position embedding for image patches: each patch of an H x W grid has a row and a
// column, and half of the rotary pairs turn by the row, the other half by the column. Two published
// layouts are reproduced exactly (Hugging Face transformers):
//
//   Pixtral (PixtralRotaryEmbedding.compute_default_rope_parameters, apply_rotary_pos_emb with
//   rotate_half; position ids from position_ids_in_meshgrid, id = row * max_width + col):
//     θ_k = rope_theta^(-2k/d), k = 0 .. d/2 - 1 (the default RoPE frequencies);
//     freqs_h = θ_0, θ_2, θ_4, … (the even ones), freqs_w = θ_1, θ_3, … (the odd ones), concatenated
//     [freqs_h, freqs_w] per patch: pair i (components i and i + d/2, the rotate_half layout) turns by
//       row · θ_{2i}              for i < d/4,
//       col · θ_{2(i - d/4) + 1}  for d/4 <= i < d/2.
//   Llama 4 vision (Llama4VisionRotaryEmbedding, vision_apply_rotary_emb: view_as_complex on adjacent
//   components):
//     φ_j = rope_theta^(-4j/d), j = 0 .. d/4 - 1 (rope_freq over freq_dim = d/2); the angles are
//     [freqs_x, freqs_y] after the repeat_interleave and the [..., ::2] slice, so pair i (components
//     2i and 2i + 1) turns by
//       (col + 1) · φ_i           for i < d/4,
//       (row + 1) · φ_{i - d/4}   for d/4 <= i < d/2.
//     The + 1 shifts every patch alike and cancels in a logit. Llama 4's CLS token (id -2, angle 0) is
//     not a patch of the grid and is left out.
//
// Both need head_dim a multiple of 4 (d/4 pairs per axis). Patch p (the scenario's position) sits at row
// p / W and column p mod W (row-major, as both references number patches); the grid height H sets the
// sequence length to H·W when chosen, and positions past H·W continue on further rows.
//
// The logit between patches i and j is (R(p_i) q_i) · (R(p_j) k_j) / sqrt(d) with the scenario's queries
// and keys: a function of the 2D offset (row_i - row_j, col_i - col_j), not of i - j.
#pragma once

#include "methods/method.h"
#include "methods/rope/rope_params.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace posatlas {

inline constexpr Method kRope2D{"rope2d"};

enum class Rope2dVariant {
    Pixtral, // rotate_half pairs (i, i + d/2); rows the even frequencies, columns the odd ones
    Llama4,  // adjacent pairs (2i, 2i + 1); columns the first d/4 pairs, rows the rest, same frequencies
};

struct Rope2dParams {
    static constexpr Method kMethod = kRope2D;

    Rope2dVariant variant = Rope2dVariant::Pixtral;
    int grid_height = 16; // patch rows (image_size / patch_size)
    int grid_width = 16;  // patch columns
    double rope_theta = 10000.0;
    int head_dim = 64; // Pixtral-12B's vision encoder: hidden_size 1024 / 16 heads

    bool operator==(const Rope2dParams&) const = default;
};

// What pair i (of head_dim / 2) follows: the axis (0 the row, 1 the column), its frequency, and the offset
// added to the coordinate (Llama 4's + 1).
struct Rope2dPair {
    int axis = 0;
    double theta = 0.0;
    double offset = 0.0;
};
std::vector<Rope2dPair> rope2d_pairs(const Rope2dParams& p);

// Row and column of patch `position` on a grid `width` patches wide.
struct PatchCoordinates {
    std::int64_t row = 0, col = 0;
};
inline PatchCoordinates patch_coordinates(std::int64_t position, std::int64_t width)
{
    return {position / width, position % width};
}

struct MatrixJob;
// The patch methods' rotation (2D RoPE, RoPE-Mixed: rope_mixed.h): row r of m, the query or key of patch
// pos[r] on a grid `grid_width` wide, with its pairs in `pairing` turned by the angles angles(at, out)
// writes for the patch's coordinates (one per pair, m.cols() / 2 of them). Chunked, cancellable and
// parallel (the angles function is called from several threads); progress goes from `from` to `to`.
void rotate_patches(MatrixJob& c, Eigen::MatrixXd& m, const std::vector<std::int64_t>& pos, int grid_width,
                    RopePairing pairing, const std::function<void(PatchCoordinates, double*)>& angles,
                    double from, double to);

} // namespace posatlas
