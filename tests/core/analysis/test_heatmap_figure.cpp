// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the heatmap figure, core's one entry behind the heatmap view (core/analysis/heatmap_figure.h).
// References: ALiBi (Press et al. 2022), slopes m_h = 2^(-8 h / H) for H = 8 heads (h = 1 .. 8), as
// ofirpress/attention_with_linear_biases get_slopes gives them (exact powers of two: compared exactly).
#include "analysis/heatmap_figure.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace posatlas;

namespace {

Scenario alibi(std::int64_t n)
{
    Scenario s;
    s.method = Method::ALiBi;
    s.seq_len = n;
    return s;
}

} // namespace

TEST(HeatmapFigure, AlibiHeadsAreSmallMultiplesWithTheirSlopes)
{
    const Scenario s = alibi(4096);
    HeatmapRequest r;
    r.area_width = 800;
    r.area_height = 400;
    const HeatmapFigure f = heatmap_figure(s, r);
    EXPECT_EQ(f.kind, MatrixKind::Bias); // ALiBi's most telling kind: -m_h (i - j)
    ASSERT_EQ(f.heads, 8);
    ASSERT_NE(f.head_symbol, nullptr);
    EXPECT_EQ(std::string(f.head_symbol), "m");
    ASSERT_EQ(f.panels.size(), 8u);
    for (int h = 0; h < 8; ++h) {
        const HeatmapFigurePanel& p = f.panels[static_cast<std::size_t>(h)];
        EXPECT_EQ(p.role, HeatmapPanelRole::Head);
        EXPECT_EQ(p.head, h);
        ASSERT_TRUE(p.head_value);
        EXPECT_EQ(*p.head_value, std::ldexp(1.0, -(h + 1)));
        // 4 x 2 panels of 200 x 200 pixels: one cell per pixel.
        EXPECT_EQ(p.matrix.rows(), 200);
        EXPECT_EQ(p.matrix.cols(), 200);
        EXPECT_FALSE(p.whole);
    }
    EXPECT_FALSE(f.zoomed);
    EXPECT_EQ(f.whole_rows, 4096);
    EXPECT_EQ(f.rows, 4096);
}

TEST(HeatmapFigure, ChromeComesOffEachOfSeveralPanels)
{
    const Scenario s = alibi(4096);
    HeatmapRequest r;
    r.area_width = 820;
    r.area_height = 420;
    r.chrome = PanelChrome{20, 0, 0, 10};
    r.max_panels = 2;
    // Two panels side by side: (820 + 20) / 2 - 20 = 400 wide, 420 - 10 = 410 high, square: 400 x 400.
    HeatmapFigure f = heatmap_figure(s, r);
    ASSERT_EQ(f.panels.size(), 2u);
    EXPECT_EQ(f.panels[1].head, 7); // first and last head
    EXPECT_EQ(f.panels[0].matrix.cols(), 400);
    EXPECT_EQ(f.panels[0].matrix.rows(), 400);
    // A single panel has no gap and no caption band: the whole area's 420 x 420.
    r.small_multiples = false;
    f = heatmap_figure(s, r);
    ASSERT_EQ(f.panels.size(), 1u);
    EXPECT_EQ(f.panels[0].role, HeatmapPanelRole::Single);
    EXPECT_EQ(f.panels[0].matrix.rows(), 420);
}

TEST(HeatmapFigure, PointSampleBesideItsBlockMeans)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 4096;
    HeatmapRequest r;
    r.area_width = 1000;
    r.area_height = 500;
    r.point_sample_beside_mean = true;
    const HeatmapFigure f = heatmap_figure(s, r);
    ASSERT_EQ(f.panels.size(), 2u);
    EXPECT_EQ(f.panels[0].role, HeatmapPanelRole::BlockMean);
    EXPECT_EQ(f.panels[1].role, HeatmapPanelRole::PointSample);
    EXPECT_EQ(f.panels[0].matrix.sampling, MatrixSampling::BlockMean);
    EXPECT_EQ(f.panels[1].matrix.sampling, MatrixSampling::Point);
    EXPECT_EQ(f.panels[0].matrix.rows(), 500);
    EXPECT_EQ(f.panels[1].matrix.rows(), 500);
    EXPECT_FALSE(f.point_sample_refused);
    EXPECT_EQ(f.sampling, HeatmapSamplingFact::None);
}

TEST(HeatmapFigure, ZoomedWindowKeepsItsWholeMatrixAcrossCalls)
{
    const Scenario s = alibi(1024);
    HeatmapRequest r;
    r.small_multiples = false;
    r.row0 = 100;
    r.rows = 50;
    const HeatmapFigure a = heatmap_figure(s, r);
    ASSERT_TRUE(a.zoomed);
    ASSERT_TRUE(a.panels[0].whole);
    EXPECT_EQ(a.panels[0].matrix.rows(), 50);
    EXPECT_EQ(a.panels[0].whole->rows(), 640); // the unzoomed figure's 640 pixels
    r.row0 = 200;
    const HeatmapFigure b = heatmap_figure(s, r);
    EXPECT_EQ(b.panels[0].whole.get(), a.panels[0].whole.get()); // computed once
}

TEST(HeatmapFigure, CancelledBeforeAnyPanel)
{
    HeatmapRequest r;
    int asked = 0;
    EXPECT_THROW(heatmap_figure(alibi(4096), r,
                                [&] {
                                    ++asked;
                                    return true;
                                }),
                 Cancelled);
    EXPECT_GE(asked, 1);
}

TEST(HeatmapFigure, ComparedMethodsEachAtTheirShareOfTheArea)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 4096;
    HeatmapRequest r;
    r.area_width = 1240;
    r.area_height = 420;
    r.chrome = PanelChrome{20, 0, 0, 20};
    r.point_sample_beside_mean = true; // not for compared panels: one panel per method
    const CompareHeatmapFigure c =
        compare_heatmap_figure(s, {Method::Sinusoidal, Method::RoPE, Method::ALiBi}, r);
    // Sinusoidal, RoPE and ALiBi all have logits; three in a row: (1240 + 20) / 3 - 20 = 400 wide,
    // 420 - 20 = 400 high.
    ASSERT_EQ(c.figures.size(), 3u);
    EXPECT_TRUE(c.same_window);
    for (const HeatmapFigure& f : c.figures) {
        EXPECT_EQ(f.kind, MatrixKind::Logits);
        ASSERT_EQ(f.panels.size(), 1u);
        EXPECT_EQ(f.panels[0].role, HeatmapPanelRole::Single);
        EXPECT_EQ(f.panels[0].matrix.rows(), 400);
        EXPECT_EQ(f.panels[0].matrix.cols(), 400);
    }
}
