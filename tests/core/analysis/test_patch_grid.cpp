// SPDX-License-Identifier: GPL-3.0-or-later
// The patch grid (analysis/patch_grid.h): the grid each image-patch method lays its positions on, and a
// query patch's row, which must be compute_matrix's row (attention_logits.h) cell for cell, exactly (the
// same doubles: it is that window), laid out row-major with NaN past the sequence.
#include "analysis/patch_grid.h"

#include "compute/attention_logits.h"
#include "methods/rope2d/rope2d.h"
#include "methods/rope_mixed/rope_mixed.h"
#include "methods/swin/swin.h"
#include "scenario/params.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace posatlas;

namespace {

Scenario rope2d_scenario(int rows, int columns, std::int64_t n)
{
    Scenario s;
    s.method = kRope2D;
    s.seq_len = n;
    s.content.kind = ContentKind::Random;
    s.content.seed = 5;
    Rope2dParams& p = s.params<Rope2dParams>();
    p.grid_height = rows;
    p.grid_width = columns;
    p.head_dim = 16;
    return s;
}

void expect_row_is_compute_matrix_row(const Scenario& s, std::int64_t query)
{
    const PatchGridRow row = patch_grid_row(s, query);
    MatrixWindow window;
    window.row0 = query;
    window.rows = 1;
    const MatrixResult m = compute_matrix(s, patch_grid_kind(s), window);
    ASSERT_EQ(row.values.size(), static_cast<std::size_t>(row.grid.width * row.grid.height));
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(row.values.size()); ++j) {
        const double v = row.values[static_cast<std::size_t>(j)];
        if (j >= s.seq_len || std::isnan(m.at(0, j))) {
            EXPECT_TRUE(std::isnan(v)) << "patch " << j;
        } else {
            EXPECT_EQ(v, m.at(0, j)) << "patch " << j; // exact: the same window of compute_matrix
        }
    }
}

} // namespace

TEST(PatchGrid, AxialRopeGridIsItsRowsAndColumnsAndAShortSequenceLeavesEmptyCells)
{
    const Scenario s = rope2d_scenario(4, 5, 18);
    const std::optional<PatchGrid> grid = patch_grid(s);
    ASSERT_TRUE(grid.has_value());
    EXPECT_EQ(grid->width, 5);
    EXPECT_EQ(grid->height, 4); // 18 patches fill 3 rows and 3 cells of the fourth
    EXPECT_EQ(patch_grid_kind(s), MatrixKind::Logits);
    for (std::int64_t query : {0, 7, 17})
        expect_row_is_compute_matrix_row(s, query);
}

TEST(PatchGrid, RopeMixedRowIsTheShownHeadsRowOfComputeMatrix)
{
    Scenario s;
    s.method = kRopeMixed;
    s.seq_len = 36;
    s.content.kind = ContentKind::Random;
    s.head = 1;
    RopeMixedParams& p = s.params<RopeMixedParams>();
    p.grid_height = 6;
    p.grid_width = 6;
    p.head_dim = 16;
    const std::optional<PatchGrid> grid = patch_grid(s);
    ASSERT_TRUE(grid.has_value());
    EXPECT_EQ(grid->width, 6);
    EXPECT_EQ(grid->height, 6);
    expect_row_is_compute_matrix_row(s, 14);
}

TEST(PatchGrid, SwinGridIsOneWindowWideAndShowsTheBiasEmptyOutsideTheQueryWindow)
{
    Scenario s;
    s.method = kSwin;
    s.seq_len = 2 * 9; // two 3 x 3 windows, one below the other
    s.params<SwinParams>().window_size = 3;
    s.params<SwinParams>().num_heads = 2;
    s.params<SwinParams>().head_dim = 8;
    const std::optional<PatchGrid> grid = patch_grid(s);
    ASSERT_TRUE(grid.has_value());
    EXPECT_EQ(grid->width, 3);
    EXPECT_EQ(grid->height, 6);
    EXPECT_EQ(patch_grid_kind(s), MatrixKind::Bias);
    const PatchGridRow row = patch_grid_row(s, 4); // the centre of the first window
    for (std::int64_t j = 0; j < 18; ++j)
        EXPECT_EQ(std::isnan(row.values[static_cast<std::size_t>(j)]), j >= 9) << "patch " << j;
    expect_row_is_compute_matrix_row(s, 4);
    expect_row_is_compute_matrix_row(s, 13);
}

TEST(PatchGrid, SequenceMethodsHaveNoGridAndBadQueriesAreRefusedByName)
{
    Scenario rope;
    EXPECT_FALSE(patch_grid(rope).has_value());
    try {
        patch_grid_row(rope, 0);
        ADD_FAILURE() << "RoPE has no patch grid";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "method");
    }
    const Scenario s = rope2d_scenario(4, 4, 16);
    for (std::int64_t query : {-1, 16}) {
        try {
            patch_grid_row(s, query);
            ADD_FAILURE() << "query " << query << " is outside 0..15";
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "query_patch");
            EXPECT_EQ(e.allowed(), "an integer in [0, 15]");
        }
    }
}
