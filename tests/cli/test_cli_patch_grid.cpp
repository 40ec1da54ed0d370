// SPDX-License-Identifier: GPL-3.0-or-later
// The image-patch methods through the real binary: 2D RoPE's logits derived by hand (the same derivation as
// tests/core/methods/rope2d/test_rope2d.cpp: all-ones content, d 4, Pixtral's rows on θ₀ = 1 and columns on
// θ₁ = 0.01), the grid setting the length, RoPE-Mixed's head, Swin's bias from a table file, ViT's position
// similarity from a table file (and its figure), and refusals that name the option and its range (exit 2).
#include "cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

using nlohmann::json;
using namespace posatlas::test;

// A 2 × 3 grid: patch 4 is (row 1, column 1), patch 0 is (0, 0): cos 1 + cos 0.01. Tolerance 1e-12 (JSON
// numbers are the shortest text that reads back, so only the kernel's rounding remains).
TEST(CliPatchGrid, RopeTwoDimensionalLogitsByHand)
{
    const Result r = run({"compute", "matrix", "--method", "rope2d", "--grid-height", "2", "--grid-width",
                          "3", "--head-dim", "4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json m = json::parse(r.out)["matrix"];
    ASSERT_EQ(m.size(), 6u); // the grid set the length to 2 × 3
    EXPECT_NEAR(m[4][0].get<double>(), std::cos(1.0) + std::cos(0.01), 1e-12);
    EXPECT_NEAR(m[2][0].get<double>(), 1.0 + std::cos(0.02), 1e-12); // (0, 2) against (0, 0)
}

TEST(CliPatchGrid, RefusalsNameTheOptionAndItsRange)
{
    const Result width = run({"compute", "matrix", "--method", "rope2d", "--grid-width", "0"});
    EXPECT_EQ(width.status, 2);
    EXPECT_NE(width.err.find("--grid-width"), std::string::npos) << width.err;
    EXPECT_NE(width.err.find("[1, 1024]"), std::string::npos) << width.err;
    const Result dim = run({"compute", "matrix", "--method", "rope2d", "--head-dim", "6"});
    EXPECT_EQ(dim.status, 2);
    EXPECT_NE(dim.err.find("head-dim"), std::string::npos) << dim.err;
    EXPECT_NE(dim.err.find("multiple of 4"), std::string::npos) << dim.err;
    const Result heads = run({"compute", "matrix", "--method", "rope-mixed", "--num-heads", "65"});
    EXPECT_EQ(heads.status, 2);
    EXPECT_NE(heads.err.find("--num-heads"), std::string::npos) << heads.err;
    const Result window = run({"compute", "matrix", "--method", "swin", "--window-size", "65"});
    EXPECT_EQ(window.status, 2);
    EXPECT_NE(window.err.find("--window-size"), std::string::npos) << window.err;
}

// RoPE-Mixed: one panel per head, the head chosen with --head; two heads' directions differ.
TEST(CliPatchGrid, RopeMixedHeadsDiffer)
{
    const Result a = run({"compute", "matrix", "--method", "rope-mixed", "--grid-height", "3", "--grid-width",
                          "3", "--head-dim", "8", "--num-heads", "2", "--head", "0"});
    const Result b = run({"compute", "matrix", "--method", "rope-mixed", "--grid-height", "3", "--grid-width",
                          "3", "--head-dim", "8", "--num-heads", "2", "--head", "1"});
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    const json ma = json::parse(a.out)["matrix"], mb = json::parse(b.out)["matrix"];
    ASSERT_EQ(ma.size(), 9u);
    EXPECT_NE(ma[8][0], mb[8][0]);
}

// Swin: a 9 x 1 table for window 2 (entry r is r): the bias of patch 3 (1, 1) against patch 0 (0, 0) is row
// (1 + 1)·3 + (1 + 1) = 8; the window sets the length to its 4 patches.
TEST(CliPatchGrid, SwinBiasFromATable)
{
    const std::string table = write_file("swin_bias_9x1.csv", "0\n1\n2\n3\n4\n5\n6\n7\n8\n").string();
    const Result r = run({"compute", "matrix", "--method", "swin", "--bias-table", table, "--kind", "bias",
                          "--window-size", "2", "--num-heads", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json m = json::parse(r.out)["matrix"];
    ASSERT_EQ(m.size(), 4u);
    EXPECT_EQ(m[3][0].get<double>(), 8.0);
    EXPECT_EQ(m[0][3].get<double>(), 0.0);
    EXPECT_EQ(m[1][1].get<double>(), 4.0);
}

// ViT: a 2 × 2 grid after the CLS row (9, 9); p1 = (1, 1) against p3 = (−3, 0) has cosine −1/√2 and logit
// (zero content) −3/√2 (tolerance 1e-12, as above). The table sets the grid, so the length is its 4 patches.
TEST(CliPatchGrid, VitSimilarityAndLogitsFromATable)
{
    const std::string table = write_file("vit_5x2.csv", "9,9\n1,0\n1,1\n0,2\n-3,0\n").string();
    const Result r = run({"compute", "matrix", "--method", "vit", "--position-table", table, "--kind",
                          "similarity", "--seq-len", "4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json m = json::parse(r.out)["matrix"];
    ASSERT_EQ(m.size(), 4u);
    EXPECT_NEAR(m[1][3].get<double>(), -1.0 / std::sqrt(2.0), 1e-12);
    EXPECT_NEAR(m[3][0].get<double>(), -1.0, 1e-12);
    const Result logits = run({"compute", "matrix", "--method", "vit", "--position-table", table, "--kind",
                               "logits", "--content", "zero", "--seq-len", "4"});
    ASSERT_EQ(logits.status, 0) << logits.err;
    EXPECT_NEAR(json::parse(logits.out)["matrix"][1][3].get<double>(), -3.0 / std::sqrt(2.0), 1e-12);

    // A table of 6 rows has no square grid after its CLS row: refused naming the option and the shape.
    const std::string bad = write_file("vit_6x2.csv", "9,9\n1,0\n1,1\n0,2\n-3,0\n1,2\n").string();
    const Result refused = run({"compute", "matrix", "--method", "vit", "--position-table", bad});
    EXPECT_EQ(refused.status, 2);
    EXPECT_NE(refused.err.find("position-table"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("1 + H·H rows"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("6 x 2"), std::string::npos) << refused.err;
}

// `posatlas export` draws ViT's similarity heatmap of the seeded table (its colour bar names the quantity).
TEST(CliPatchGrid, VitExportDrawsTheSimilarity)
{
    const fs::path out = temp_dir() / "vit_similarity.svg";
    const Result r = run({"export", "--view", "heatmap", "--method", "vit", "--grid-size", "6", "--kind",
                          "similarity", "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string svg = slurp(out);
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("cosine similarity"), std::string::npos);
}

} // namespace
