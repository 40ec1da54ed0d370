// SPDX-License-Identifier: GPL-3.0-or-later
// The image-patch methods through the real binary: 2D RoPE's logits derived by hand (the same derivation as
// tests/core/methods/rope2d/test_rope2d.cpp: all-ones content, d 4, Pixtral's rows on θ₀ = 1 and columns on
// θ₁ = 0.01), the grid setting the length, RoPE-Mixed's head, Swin's bias from a table file, ViT's position
// similarity from a table file (and its figure), and refusals that name the option and its range (exit 2).
// The patch grid (compute patch-grid, export --view patch-grid):
// its values are core's patch_grid_row (analysis/patch_grid.h) exactly, one CSV line per patch, every
// export format, and refusals of a method without a grid and of a query outside it.
#include "cli_support.h"

#include "analysis/patch_grid.h"
#include "methods/rope2d/rope2d.h"
#include "methods/swin/swin.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

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

// compute patch-grid on a 4 × 5 grid of 2D RoPE, query patch 7 (row 1, column 2): the JSON's values are
// patch_grid_row's, exactly (the JSON number is the shortest text that reads back the same double), with
// the metadata; the CSV has one line per patch with the same numbers.
TEST(CliPatchGrid, ComputeGivesCoreRowExactly)
{
    posatlas::Scenario s;
    s.method = posatlas::kRope2D;
    s.params<posatlas::Rope2dParams>().grid_height = 4;
    s.params<posatlas::Rope2dParams>().grid_width = 5;
    s.params<posatlas::Rope2dParams>().head_dim = 8;
    s.seq_len = 20;
    const posatlas::PatchGridRow row = posatlas::patch_grid_row(s, 7);
    const std::vector<std::string> model{"compute",       "patch-grid", "--method",      "rope2d",
                                         "--grid-height", "4",          "--grid-width",  "5",
                                         "--head-dim",    "8",          "--query-patch", "7"};
    const Result r = run(model);
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["method"], "rope2d");
    EXPECT_EQ(j["kind"], "logits");
    EXPECT_EQ(j["query_patch"], 7);
    EXPECT_EQ(j["query_row"], 1);
    EXPECT_EQ(j["query_column"], 2);
    EXPECT_EQ(j["grid"]["rows"], 4);
    EXPECT_EQ(j["grid"]["columns"], 5);
    ASSERT_EQ(j["value"].size(), 20u);
    for (std::size_t p = 0; p < 20; ++p) {
        EXPECT_EQ(j["value"][p].get<double>(), row.values[p]) << "patch " << p;
        EXPECT_EQ(j["row"][p].get<int>(), static_cast<int>(p / 5));
        EXPECT_EQ(j["column"][p].get<int>(), static_cast<int>(p % 5));
    }

    std::vector<std::string> csv_args = model;
    csv_args.insert(csv_args.end(), {"--format", "csv"});
    const Result csv = run(csv_args);
    ASSERT_EQ(csv.status, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "patch,row,column,value");
    std::size_t p = 0;
    for (; std::getline(lines, line); ++p) {
        ASSERT_LT(p, 20u);
        const std::size_t comma = line.rfind(',');
        EXPECT_EQ(std::stod(line.substr(comma + 1)), row.values[p]) << line;
    }
    EXPECT_EQ(p, 20u);
}

// Swin's grid is its window: the bias of the centre patch of a 3 × 3 window, exactly core's.
TEST(CliPatchGrid, ComputeSwinBias)
{
    posatlas::Scenario s;
    s.method = posatlas::kSwin;
    s.params<posatlas::SwinParams>().window_size = 3;
    s.seq_len = 9;
    const posatlas::PatchGridRow row = posatlas::patch_grid_row(s, 4);
    const Result r =
        run({"compute", "patch-grid", "--method", "swin", "--window-size", "3", "--query-patch", "4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["kind"], "bias");
    ASSERT_EQ(j["value"].size(), 9u);
    for (std::size_t p = 0; p < 9; ++p)
        EXPECT_EQ(j["value"][p].get<double>(), row.values[p]) << "patch " << p;
}

// export --view patch-grid: the figure in each format and its numbers, one CSV line per patch.
TEST(CliPatchGrid, ExportWritesEveryFormat)
{
    const fs::path dir = temp_dir();
    for (const char* ext : {"png", "svg", "pdf", "csv", "json"}) {
        const std::string out = (dir / (std::string("grid.") + ext)).string();
        const Result r = run({"export", "--view", "patch-grid", "--method", "rope2d", "--query-patch", "136",
                              "--width", "600", "--height", "500", "--out", out});
        ASSERT_EQ(r.status, 0) << ext << ": " << r.err;
        const std::string bytes = slurp(out);
        ASSERT_FALSE(bytes.empty()) << ext;
        if (std::string(ext) == "png") {
            EXPECT_EQ(bytes.substr(1, 3), "PNG");
        } else if (std::string(ext) == "pdf") {
            EXPECT_EQ(bytes.substr(0, 4), "%PDF");
        } else if (std::string(ext) == "csv") {
            EXPECT_EQ(std::count(bytes.begin(), bytes.end(), '\n'), 1 + 16 * 16); // header + 256 patches
        } else if (std::string(ext) == "json") {
            EXPECT_EQ(json::parse(bytes)["query_patch"], 136);
        }
    }
}

// Refused with exit 2, naming the option and what it allows: a method without a patch grid, a query patch
// outside [0, seq_len), for compute and for export; no file is written.
TEST(CliPatchGrid, PatchGridRefusals)
{
    const Result rope = run({"compute", "patch-grid", "--method", "rope", "--query-patch", "0"});
    EXPECT_EQ(rope.status, 2);
    EXPECT_NE(rope.err.find("--method"), std::string::npos) << rope.err;
    EXPECT_NE(rope.err.find("rope2d"), std::string::npos) << rope.err;
    for (const char* query : {"16", "-1"}) {
        const Result r =
            run({"compute", "patch-grid", "--method", "swin", "--window-size", "4", "--query-patch", query});
        EXPECT_EQ(r.status, 2) << query;
        EXPECT_NE(r.err.find("--query-patch"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("[0, 15]"), std::string::npos) << r.err;
    }
    const fs::path out = temp_dir() / "refused.png";
    const Result e = run({"export", "--view", "patch-grid", "--method", "rope2d", "--grid-height", "2",
                          "--grid-width", "2", "--query-patch", "4", "--out", out.string()});
    EXPECT_EQ(e.status, 2);
    EXPECT_NE(e.err.find("--query-patch"), std::string::npos) << e.err;
    EXPECT_NE(e.err.find("[0, 3]"), std::string::npos) << e.err;
    EXPECT_FALSE(fs::exists(out));
    const Result m = run({"export", "--view", "patch-grid", "--method", "alibi", "--out", out.string()});
    EXPECT_EQ(m.status, 2);
    EXPECT_NE(m.err.find("--method"), std::string::npos) << m.err;
    EXPECT_FALSE(fs::exists(out));
}

} // namespace
