// SPDX-License-Identifier: GPL-3.0-or-later
// ViT's learned patch positions (Dosovitskiy et al. 2021, "An Image is Worth 16x16 Words: Transformers for
// Image Recognition at Scale", arXiv:2010.11929, eq. (1)): the image is cut into H × W patches, a CLS token
// is put before them, and a learned vector E_pos[t] is added to token t of the sequence [CLS, patch 0, …,
// patch HW − 1], the patches numbered row by row. The reference is Hugging Face transformers ViTEmbeddings:
// position_embeddings = nn.Parameter of shape [1, num_patches + 1, hidden_size] (google/vit-base-patch16-224:
// [1, 197, 768], 14 × 14 patches), added after torch.cat((cls_tokens, embeddings), dim=1); CLIP's
// CLIPVisionEmbeddings keeps the same rows as nn.Embedding(num_patches + 1, embed_dim),
// vision_model.embeddings.position_embedding.weight. ViTPreTrainedModel._init_weights draws it with
// nn.init.trunc_normal_(mean = 0, std = initializer_range) (bounds a = −2, b = 2, absolute), as the seeded
// stand-in does here with PosAtlas's RNG; a trained table comes from a file.
//
// Positions are the patches: position p is patch p, at row p / H and column p mod H of the grid, and table
// row p + 1 (row 0, the CLS token's, has no place on the grid and is left out of every figure). The
// grid is square (ViT's image_size / patch_size on both sides): a table of 1 + H² rows gives H. A
// position past the last patch has no embedding (NaN), as a learned table's past its last row.
//
// What it shows is the paper's Fig. 7 (centre): the cosine similarity between the position embedding of a
// query patch and that of every other patch, and the logits (q_i + p_i) · (k_j + p_j) / √D with the content
// (p_i · p_j / √D for zero content), as the learned absolute method has them.
#pragma once

#include "methods/method.h"

#include <Eigen/Dense>

#include <cstdint>
#include <optional>
#include <string>

namespace posatlas {

struct Scenario;

inline constexpr Method kVit{"vit"};
// The cosine similarity of two patches' position vectors (the paper's Fig. 7).
inline constexpr MatrixKind kVitSimilarity{"similarity"};

struct VitParams {
    static constexpr Method kMethod = kVit;

    int grid_size = 16; // image_size / patch_size: ViT-B/16 on 256 pixels, the default sequence's 256 patches
    int hidden_size = 768;  // vit-base
    std::uint64_t seed = 0; // the seeded stand-in when no table file is given
    double stddev = 0.02;   // initializer_range of ViTConfig
    std::string position_table, position_table_tensor;

    bool operator==(const VitParams&) const = default;
};

// The grid side H of a table of `rows` rows: rows = 1 + H² (a CLS row, then H × H patches), H >= 1;
// nullopt for any other number of rows.
std::optional<std::int64_t> vit_grid_side_of_rows(std::int64_t rows);

// The seeded stand-in: (1 + grid_size²) x hidden_size, row 0 the CLS token's, each entry stddev · N(0, 1)
// drawn again while outside [−2, 2] (trunc_normal_).
Eigen::MatrixXd vit_seeded_table(const VitParams& p);

// The table in effect for s, CLS row included: the file's when one is named (ParameterError naming
// position_table when it cannot be read or has no 1 + H² rows), else the seeded stand-in.
Eigen::MatrixXd vit_position_table(const Scenario& s);

// The grid side in effect for s: the file's table's, else grid_size.
std::int64_t vit_grid_side(const Scenario& s);

// The position embeddings of the patches only (table rows 1 .. H², the CLS row dropped), each scaled to
// length 1: row p is E_pos[p + 1] / |E_pos[p + 1]| (a zero row stays zero, and its similarities are NaN).
// Cell (i, j) of the similarity kind is the dot product of rows i and j.
Eigen::MatrixXd vit_unit_patch_rows(const Eigen::MatrixXd& table);

// cos(E_pos[i + 1], E_pos[j + 1]) of patches i and j of `table` (CLS row included); NaN when either row
// is zero or either patch is outside the table.
double vit_patch_similarity(const Eigen::MatrixXd& table, std::int64_t i, std::int64_t j);

} // namespace posatlas
