// SPDX-License-Identifier: GPL-3.0-or-later
// ViT's learned patch positions against Hugging Face transformers ViTEmbeddings: position_embeddings of
// shape [1, 1 + H·W, D], row 0 the CLS token's, then the patches row by row. The similarity kind is the
// ViT paper's Fig. 7 (cosine of two patches' position vectors), checked against a hand computation; the
// logits are (q_i + p_i)·(k_j + p_j)/√D; tables come from .csv and from .safetensors written with the
// project's writer (io/safetensors_write.h), and shapes that are not 1 + H² rows are refused by name.
#include "analysis/patch_grid.h"
#include "compute/attention_logits.h"
#include "io/safetensors_write.h"
#include "methods/registry.h"
#include "methods/vit/vit.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include "scenario/rng.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace posatlas;

namespace {

std::filesystem::path temp_dir()
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("posatlas_vit_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

std::string write(const std::string& name, const std::string& text)
{
    const std::filesystem::path p = temp_dir() / name;
    std::ofstream(p) << text;
    return p.string();
}

Scenario vit_scenario(const std::string& table, std::int64_t n, ContentKind content = ContentKind::Zero)
{
    Scenario s;
    s.method = kVit;
    s.seq_len = n;
    s.content.kind = content;
    s.content.seed = 3;
    s.params<VitParams>().position_table = table;
    return s;
}

// A 2 × 2 grid: CLS (9, 9), then p0 = (1, 0), p1 = (1, 1), p2 = (0, 2), p3 = (−3, 0).
const char* const kSmallTable = "9,9\n1,0\n1,1\n0,2\n-3,0\n";

// cos(p_i, p_j) by hand: p0·p1 = 1, |p0||p1| = √2; p0 ⊥ p2; p3 = −3 p0; p1·p2 = 2 over 2√2; p1·p3 = −3 over
// 3√2; p2 ⊥ p3.
const double kHandSimilarity[4][4] = {
    {1.0, 1.0 / std::sqrt(2.0), 0.0, -1.0},
    {1.0 / std::sqrt(2.0), 1.0, 1.0 / std::sqrt(2.0), -1.0 / std::sqrt(2.0)},
    {0.0, 1.0 / std::sqrt(2.0), 1.0, 0.0},
    {-1.0, -1.0 / std::sqrt(2.0), 0.0, 1.0},
};

std::string refusal(const Scenario& s, std::string& parameter)
{
    try {
        validate(s);
    } catch (const ParameterError& e) {
        parameter = e.parameter();
        return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
}

} // namespace

// The similarity kind equals the hand computation (tolerance 1e-12: a norm and a dot product of two
// two-component vectors); the CLS row takes no part (its (9, 9) would make every cosine positive).
TEST(Vit, SimilarityEqualsTheHandComputation)
{
    const Scenario s = vit_scenario(write("small_5x2.csv", kSmallTable), 4);
    ASSERT_NO_THROW(validate(s));
    EXPECT_EQ(vit_grid_side(s), 2);
    const MatrixResult m = compute_matrix(s, kVitSimilarity, {});
    ASSERT_EQ(m.rows(), 4);
    ASSERT_EQ(m.cols(), 4);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            EXPECT_NEAR(m.at(i, j), kHandSimilarity[i][j], 1e-12) << i << ", " << j;
            EXPECT_NEAR(vit_patch_similarity(vit_position_table(s), i, j), kHandSimilarity[i][j], 1e-12);
        }
    EXPECT_EQ(m.value_label, "cosine similarity");
    EXPECT_TRUE(m.is_signed);
}

// The logits with zero content are p_i · p_j / √D (D = 2): p1·p3 = −3, p2·p2 = 4 (tolerance 1e-12); with
// random content they add the content's terms as (q_i + p_i)·(k_j + p_j)/√D does.
TEST(Vit, LogitsArePositionDotProductsOverRootD)
{
    const std::string path = write("small_5x2_logits.csv", kSmallTable);
    const Scenario s = vit_scenario(path, 4);
    const MatrixResult m = compute_matrix(s, MatrixKind::Logits, {});
    EXPECT_NEAR(m.at(1, 3), -3.0 / std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(m.at(2, 2), 4.0 / std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(m.at(0, 2), 0.0, 1e-12);

    const Scenario r = vit_scenario(path, 4, ContentKind::Random);
    const MatrixResult with = compute_matrix(r, MatrixKind::Logits, {});
    std::vector<std::int64_t> pos = {0, 1, 2, 3};
    const Eigen::MatrixXd p = vit_position_table(r).bottomRows(4);
    const Eigen::MatrixXd q = content_queries(r.content, 2, pos) + p, k = content_keys(r.content, 2, pos) + p;
    const Eigen::MatrixXd expected = q * k.transpose() / std::sqrt(2.0);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_NEAR(with.at(i, j), expected(i, j), 1e-12) << i << ", " << j;
}

// A [1, 5, 4] position_embeddings tensor written by the project's safetensors writer, under ViT's own name
// and found without a tensor name: a 2 × 2 grid, the CLS row (row 0: 100, 100, ...) dropped, patch p read
// from row p + 1 (values exact in float32, so the cosines are those of the rows).
TEST(Vit, SafetensorsTableGivesATwoByTwoGridWithoutTheClsRow)
{
    const std::vector<float> values = {100, 100, 100, 100, // CLS
                                       1,   0,   0,   0,   // patch 0 (0, 0)
                                       0,   1,   0,   0,   // patch 1 (0, 1)
                                       1,   1,   0,   0,   // patch 2 (1, 0)
                                       0,   0,   0,   2};  // patch 3 (1, 1)
    const std::string path = (temp_dir() / "vit_1x5x4.safetensors").string();
    write_safetensors(path, {{"embeddings.position_embeddings", {1, 5, 4}, values}});

    const Scenario s = vit_scenario(path, 4);
    ASSERT_NO_THROW(validate(s));
    EXPECT_EQ(vit_grid_side(s), 2);
    EXPECT_EQ(vit_position_table(s).rows(), 5);
    EXPECT_EQ(descriptor(kVit).content_dim(s), 4);
    const std::optional<PatchGrid> grid = patch_grid(s);
    ASSERT_TRUE(grid.has_value());
    EXPECT_EQ(grid->width, 2);
    EXPECT_EQ(grid->height, 2);
    EXPECT_EQ(patch_grid_kind(s), kVitSimilarity);

    // Patch 2's row of the grid: (1, 1, 0, 0) against the four patches, the CLS row nowhere.
    const PatchGridRow row = patch_grid_row(s, 2);
    ASSERT_EQ(row.values.size(), 4u);
    EXPECT_NEAR(row.values[0], 1.0 / std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(row.values[1], 1.0 / std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(row.values[2], 1.0, 1e-12);
    EXPECT_NEAR(row.values[3], 0.0, 1e-12);

    // A longer sequence has no embedding past the last patch (NaN), as a learned table past its rows.
    const MatrixResult longer = compute_matrix(vit_scenario(path, 6), kVitSimilarity, {});
    EXPECT_TRUE(std::isnan(longer.at(4, 0)));
    EXPECT_TRUE(std::isnan(longer.at(0, 5)));
    EXPECT_NEAR(longer.at(3, 3), 1.0, 1e-12);

    // CLIP's name holds the same rows as a 2-D [5, 4] weight; any other name is read when named.
    const std::string clip = (temp_dir() / "clip_5x4.safetensors").string();
    write_safetensors(
        clip, {{"vision_model.embeddings.position_embedding.weight", {5, 4}, values},
               {"text_model.embeddings.position_embedding.weight", {3, 4}, std::vector<float>(12, 1.0f)}});
    EXPECT_EQ(vit_grid_side(vit_scenario(clip, 4)), 2);
    const std::string other = (temp_dir() / "other_1x5x4.safetensors").string();
    write_safetensors(other, {{"encoder.pos_embed", {1, 5, 4}, values}});
    Scenario named = vit_scenario(other, 4);
    named.params<VitParams>().position_table_tensor = "encoder.pos_embed";
    EXPECT_NEAR(compute_matrix(named, kVitSimilarity, {}).at(3, 0), 0.0, 1e-12);
}

// Rows that are not 1 + H² (a [1, 6, 4] table: five patches) are refused naming position_table, the shape
// found and what is allowed; a tensor name without a file names position_table_tensor.
TEST(Vit, TablesOfAnotherShapeAreRefusedByName)
{
    const std::string path = (temp_dir() / "vit_1x6x4.safetensors").string();
    write_safetensors(path, {{"embeddings.position_embeddings", {1, 6, 4}, std::vector<float>(24, 0.5f)}});
    std::string parameter;
    const std::string what = refusal(vit_scenario(path, 4), parameter);
    EXPECT_EQ(parameter, "position_table");
    EXPECT_NE(what.find("6 x 4"), std::string::npos) << what;
    EXPECT_NE(what.find("1 + H·H rows"), std::string::npos) << what;

    const std::string one_row = write("one_row.csv", "1,2\n");
    refusal(vit_scenario(one_row, 1), parameter);
    EXPECT_EQ(parameter, "position_table");

    Scenario tensor_alone = vit_scenario("", 4);
    tensor_alone.params<VitParams>().position_table_tensor = "embeddings.position_embeddings";
    refusal(tensor_alone, parameter);
    EXPECT_EQ(parameter, "position_table_tensor");
}

// The grid side of a table's rows: 1 + H² only.
TEST(Vit, GridSideOfRows)
{
    EXPECT_EQ(vit_grid_side_of_rows(197), 14);
    EXPECT_EQ(vit_grid_side_of_rows(2), 1);
    EXPECT_EQ(vit_grid_side_of_rows(577), 24); // ViT-L/16 at 384 pixels
    EXPECT_FALSE(vit_grid_side_of_rows(196));  // no CLS row (SigLIP's 14 × 14)
    EXPECT_FALSE(vit_grid_side_of_rows(198));  // DeiT distilled: CLS and distillation tokens
    EXPECT_FALSE(vit_grid_side_of_rows(1));
}

// The seeded start (ViTPreTrainedModel._init_weights: trunc_normal_, std initializer_range 0.02): 197 x 768
// entries inside [−2, 2], mean near 0 and spread near 0.02 (151 296 draws: standard errors 5e-5 and 4e-5,
// tolerances far beyond); another seed, another table.
TEST(Vit, SeededTableIsTheTruncatedNormalStart)
{
    VitParams p;
    p.grid_size = 14; // vit-base-patch16-224
    const Eigen::MatrixXd t = vit_seeded_table(p);
    ASSERT_EQ(t.rows(), 197);
    ASSERT_EQ(t.cols(), 768);
    EXPECT_LE(t.cwiseAbs().maxCoeff(), 2.0);
    const double mean = t.mean();
    const double sd = std::sqrt((t.array() - mean).square().sum() / static_cast<double>(t.size() - 1));
    EXPECT_NEAR(mean, 0.0, 5e-4);
    EXPECT_NEAR(sd, 0.02, 5e-4);
    p.seed = 1;
    EXPECT_NE(vit_seeded_table(p)(0, 0), t(0, 0));
    // The default grid is the default sequence's 256 patches, 16 × 16.
    Scenario s = vit_scenario("", 256);
    EXPECT_EQ(vit_grid_side(s), 16);
    EXPECT_EQ(patch_grid(s)->width, 16);
    EXPECT_EQ(patch_grid(s)->height, 16);
}

// Every entry is its own draw: entry (r, c) is draw r · hidden_size + c of the seed's stream 46, times σ,
// drawn again 2^40 indices further on while outside [−2, 2] (trunc_normal_'s bounds are absolute: with
// σ = 1.5, 18 % of the first draws are out). Written per entry with the scalar rng::normal, against the
// table's vectorised draws: equal bit for bit, redrawn entries included.
TEST(Vit, SeededTableEntriesAreTheirOwnDraws)
{
    VitParams p;
    p.grid_size = 6;
    p.hidden_size = 96;
    p.stddev = 1.5;
    p.seed = 9;
    const Eigen::MatrixXd t = vit_seeded_table(p);
    ASSERT_EQ(t.rows(), 37);
    int redrawn = 0;
    for (Eigen::Index r = 0; r < t.rows(); ++r)
        for (Eigen::Index c = 0; c < t.cols(); ++c) {
            const auto index = static_cast<std::uint64_t>(r * p.hidden_size + c);
            double v = rng::normal(9, 46, index) * 1.5;
            for (std::uint64_t attempt = 1; std::abs(v) > 2.0; ++attempt, ++redrawn)
                v = rng::normal(9, 46, index + (attempt << 40)) * 1.5;
            ASSERT_EQ(t(r, c), v) << r << ", " << c;
        }
    EXPECT_GT(redrawn, 300); // ~0.18 of 3552 entries, some twice
}

// A table's shape sets the grid, the width and the sequence (File > Open Weights…); choosing the grid side
// sets the sequence to its patches.
TEST(Vit, TableShapeAndGridSetTheSequence)
{
    const MethodDescriptor& d = descriptor(kVit);
    const Field* table = d.field("position_table");
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(table->table_adopt);
    Scenario s = vit_scenario("", 10);
    table->table_adopt(s, 197, 768);
    EXPECT_EQ(s.params<VitParams>().grid_size, 14);
    EXPECT_EQ(s.params<VitParams>().hidden_size, 768);
    EXPECT_EQ(s.seq_len, 196);

    const Field* grid = d.field("grid_size");
    ASSERT_NE(grid, nullptr);
    ASSERT_TRUE(grid->companion);
    s.params<VitParams>().grid_size = 3;
    EXPECT_EQ(grid->companion(s), "seq_len");
    EXPECT_EQ(s.seq_len, 9);
    EXPECT_EQ(grid->companion(s), "");
}
