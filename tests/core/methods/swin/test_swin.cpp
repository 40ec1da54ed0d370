// SPDX-License-Identifier: GPL-3.0-or-later
// Swin's relative position bias against Hugging Face transformers SwinSelfAttention: its
// relative_position_index for a 2 x 2 window written out by hand (coords_flatten[:, :, None] -
// coords_flatten[:, None, :], + M - 1, the row offset times 2M - 1), the bias gathered from a table read
// from a file, the logit q·k/√d + bias, and windows that do not attend to each other.
#include "compute/attention_logits.h"
#include "methods/registry.h"
#include "methods/swin/swin.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <unistd.h>

using namespace posatlas;

namespace {

Scenario swin_scenario(int window, int heads, std::int64_t n, ContentKind content)
{
    Scenario s;
    s.method = kSwin;
    s.seq_len = n;
    s.content.kind = content;
    s.content.seed = 9;
    SwinParams& p = s.params<SwinParams>();
    p.window_size = window;
    p.num_heads = heads;
    p.head_dim = 8;
    return s;
}

std::string write(const std::string& name, const std::string& text)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("posatlas_swin_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::filesystem::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}

// A 9 x 2 table whose entry (row r, head h) is 10 r + h: a cell's value names the row it came from.
std::string named_rows_table()
{
    std::string text;
    for (int r = 0; r < 9; ++r)
        text += std::to_string(10 * r) + "," + std::to_string(10 * r + 1) + "\n";
    return text;
}

} // namespace

// relative_position_index of window 2: patches (0,0), (0,1), (1,0), (1,1); entry (i, j) from dy = row_i -
// row_j and dx = col_i - col_j as (dy + 1)·3 + (dx + 1).
TEST(Swin, RelativeIndexOfATwoByTwoWindow)
{
    const std::int64_t expected[4][4] = {{4, 3, 1, 0}, {5, 4, 2, 1}, {7, 6, 4, 3}, {8, 7, 5, 4}};
    for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t j = 0; j < 4; ++j) {
            EXPECT_EQ(swin_relative_index(i / 2, i % 2, j / 2, j % 2, 2), expected[i][j]) << i << ", " << j;
        }
    // Window 7: the corners' offsets are the table's first and last rows, the diagonal its centre.
    EXPECT_EQ(swin_relative_index(0, 0, 6, 6, 7), 0);
    EXPECT_EQ(swin_relative_index(6, 6, 0, 0, 7), 168);
    EXPECT_EQ(swin_relative_index(3, 4, 3, 4, 7), 84);
}

// The Bias kind gathers the table's entries exactly (values exact in binary); the Logits kind adds the
// content term q·k/√d (tolerance 1e-12: one product of order 3 with rounding of the sums); patches 4..7
// form the second window, and cells between the windows are empty.
TEST(Swin, BiasAndLogitsFromATableWithTwoWindows)
{
    Scenario s = swin_scenario(2, 2, 8, ContentKind::Random);
    s.params<SwinParams>().bias_table = write("bias_9x2.csv", named_rows_table());
    ASSERT_NO_THROW(validate(s));
    const std::int64_t index[4][4] = {{4, 3, 1, 0}, {5, 4, 2, 1}, {7, 6, 4, 3}, {8, 7, 5, 4}};
    std::vector<std::int64_t> pos(8);
    std::iota(pos.begin(), pos.end(), 0);
    const Eigen::MatrixXd content =
        content_queries(s.content, 8, pos) * content_keys(s.content, 8, pos).transpose() / std::sqrt(8.0);
    for (int head = 0; head < 2; ++head) {
        s.head = head;
        const MatrixResult bias = compute_matrix(s, MatrixKind::Bias, {});
        const MatrixResult logits = compute_matrix(s, MatrixKind::Logits, {});
        for (std::int64_t i = 0; i < 8; ++i)
            for (std::int64_t j = 0; j < 8; ++j) {
                if (i / 4 != j / 4) {
                    EXPECT_TRUE(std::isnan(bias.values(i, j))) << i << ", " << j;
                    EXPECT_TRUE(std::isnan(logits.values(i, j))) << i << ", " << j;
                    continue;
                }
                const double b = 10.0 * static_cast<double>(index[i % 4][j % 4]) + head;
                EXPECT_EQ(bias.values(i, j), b) << head << ": " << i << ", " << j;
                EXPECT_NEAR(logits.values(i, j), content(i, j) + b, 1e-12) << head << ": " << i << ", " << j;
            }
    }
}

// A table sets the window and the heads it fixes ((2M - 1)² x H); one of another shape is refused by name.
TEST(Swin, TableShapeAdoptedOrRefusedByName)
{
    const Field* table = descriptor(kSwin).field("bias_table");
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(table->table_adopt);
    Scenario s = swin_scenario(7, 3, 49, ContentKind::Fixed);
    table->table_adopt(s, 49, 4);
    EXPECT_EQ(s.params<SwinParams>().window_size, 4);
    EXPECT_EQ(s.params<SwinParams>().num_heads, 4);

    Scenario bad = swin_scenario(3, 2, 9, ContentKind::Fixed);
    bad.params<SwinParams>().bias_table = write("bias_9x2_for_window3.csv", named_rows_table());
    try {
        validate(bad);
        ADD_FAILURE() << "a 9 x 2 table accepted for window 3";
    } catch (const ParameterError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("bias_table"), std::string::npos) << what;
        EXPECT_NE(what.find("25 x 2"), std::string::npos) << what;
    }
}

// The seeded start (trunc_normal_ std 0.02): 169 x 3 entries, all inside [-2, 2], with a spread near 0.02
// (the sample standard deviation of 507 normals is within 0.02 · (1 ± 0.15) far beyond 3 standard errors).
TEST(Swin, SeededTableIsSmallAndCentred)
{
    SwinParams p;
    const Eigen::MatrixXd t = swin_seeded_table(p);
    ASSERT_EQ(t.rows(), 169);
    ASSERT_EQ(t.cols(), 3);
    EXPECT_LE(t.cwiseAbs().maxCoeff(), 2.0);
    const double mean = t.mean();
    const double sd = std::sqrt((t.array() - mean).square().sum() / static_cast<double>(t.size() - 1));
    EXPECT_NEAR(mean, 0.0, 0.004);
    EXPECT_NEAR(sd, 0.02, 0.003);
    p.seed = 1;
    EXPECT_NE(swin_seeded_table(p)(0, 0), t(0, 0));
}
