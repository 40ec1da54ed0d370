// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's token-layout figure (jobs/token_layout_job.h, views/token_layout_view.h): the ids the view writes
// in each cell are core's (MropePositions::at, methods/mrope/mrope.h, which follows transformers'
// Qwen2VLModel.get_rope_index), every token's cell is inside the figure without overlapping another at a
// laptop's and at a projector's size, and the pairs' axes are core's mrope_pair_axes, chunked for
// Qwen2-VL and interleaved for Qwen3-VL. Ids are integers: compared exactly.
#include "jobs/token_layout_job.h"
#include "methods/mrope/mrope.h"
#include "views/token_layout_view.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

Scenario mrope_scenario(const std::string& layout, MropeVariant variant)
{
    Scenario s;
    s.method = MropeParams::kMethod;
    MropeParams& p = s.params<MropeParams>();
    p.layout = layout;
    p.variant = variant;
    return s;
}

} // namespace

class TokenLayoutViewTest : public QObject
{
    Q_OBJECT

private slots:
    void cellsShowCoreIds();
    void pairAxesChunkedAndInterleaved();
    void everyCellFitsAtLaptopAndProjectorSizes();
    void heightForCellsFitsEveryCellAtTheBodySize();
    void cutLayoutSaysHowManyFitBelowItsCells();
    void otherMethodsGetASentence();
    void badLayoutIsRefusedByName();
};

void TokenLayoutViewTest::cellsShowCoreIds()
{
    const Scenario s = mrope_scenario("text:5,image:1x4x6,text:3", MropeVariant::Qwen2VL);
    const TokenLayoutData d = token_layout_job(s);
    // 5 text tokens, the image's 1 x (4/2) x (6/2) = 6 merged patches, 3 text tokens.
    QCOMPARE(d.blocks.size(), std::size_t{3});
    QCOMPARE(d.blocks[1].rows, std::int64_t{2});
    QCOMPARE(d.blocks[1].columns, std::int64_t{3});
    QCOMPARE(d.ids_t.size(), std::size_t{14});
    TokenLayoutView view;
    view.setData(d);
    const MropePositions core(s.params<MropeParams>());
    for (std::size_t i = 0; i < d.ids_t.size(); ++i) {
        const MropePosition p = core.at(static_cast<std::int64_t>(i));
        QCOMPARE(view.cellLines(i),
                 (QStringList{QString::number(p.t), QString::number(p.h), QString::number(p.w)}));
    }
    // get_rope_index: the image starts after text ids 0..4 at 5; its patch (row 1, column 2) is (5, 6, 7);
    // the text after it continues from the largest id 7 + 1 = 8.
    QCOMPARE(view.cellLines(5 + 5), (QStringList{"5", "6", "7"}));
    QCOMPARE(view.cellLines(11), (QStringList{"8", "8", "8"}));
}

void TokenLayoutViewTest::pairAxesChunkedAndInterleaved()
{
    for (const MropeVariant v : {MropeVariant::Qwen2VL, MropeVariant::Qwen3VL}) {
        const Scenario s = mrope_scenario("text:2,image:1x4x4", v);
        const TokenLayoutData d = token_layout_job(s);
        QCOMPARE(d.pair_axes, mrope_pair_axes(s.params<MropeParams>()));
        QCOMPARE(d.interleaved, v == MropeVariant::Qwen3VL);
    }
    const TokenLayoutData chunked = token_layout_job(mrope_scenario("text:2", MropeVariant::Qwen2VL));
    QCOMPARE(chunked.pair_axes[15], 0); // [16, 24, 24]: pairs 0-15 t, 16-39 h, 40-63 w
    QCOMPARE(chunked.pair_axes[16], 1);
    QCOMPARE(chunked.pair_axes[40], 2);
    const TokenLayoutData inter = token_layout_job(mrope_scenario("text:2", MropeVariant::Qwen3VL));
    QCOMPARE(inter.pair_axes[0], 0); // apply_interleaved_mrope: t h w t h w …
    QCOMPARE(inter.pair_axes[1], 1);
    QCOMPARE(inter.pair_axes[2], 2);
}

void TokenLayoutViewTest::everyCellFitsAtLaptopAndProjectorSizes()
{
    const Scenario s = mrope_scenario("text:5,image:1x4x6,text:3", MropeVariant::Qwen2VL);
    TokenLayoutView view;
    view.setData(token_layout_job(s));
    for (const auto& [size, scale] : {std::pair{QSizeF(640, 420), 1.0}, std::pair{QSizeF(1600, 900), 2.0}}) {
        const QRectF target(QPointF(0, 0), size);
        RenderOptions options;
        options.font_scale = scale;
        const std::vector<QRectF> cells = view.cellRects(target, options);
        QCOMPARE(cells.size(), std::size_t{14});
        for (std::size_t i = 0; i < cells.size(); ++i) {
            QVERIFY(target.contains(cells[i]));
            for (std::size_t j = i + 1; j < cells.size(); ++j)
                QVERIFY(!cells[i].intersected(cells[j]).isValid() ||
                        cells[i].intersected(cells[j]).isEmpty());
        }
        // Legible: the ids' lines at least 12 pixels high at 100 %, twice that presented at 200 %.
        QVERIFY2(view.cellFontPixels(target, options) >= 12.0 * scale,
                 qPrintable(QString::number(view.cellFontPixels(target, options))));
        QImage image(size.toSize(), QImage::Format_ARGB32);
        QPainter painter(&image);
        view.renderFigure(painter, target, options);
    }
}

void TokenLayoutViewTest::heightForCellsFitsEveryCellAtTheBodySize()
{
    // Lesson 14's layout (4 text tokens, an 8 x 8 image merged to 4 x 4, 4 text tokens) under a
    // presentation's 250 % text: the height the view asks for is what its cells need at the body text's
    // size, side by side (one line of ids per cell: the short, wide dock of a projector), and no more.
    TokenLayoutView view;
    view.setData(token_layout_job(mrope_scenario("text:4,image:1x8x8,text:4", MropeVariant::Qwen2VL)));
    QFont presented = view.font();
    presented.setPointSizeF(presented.pointSizeF() * 2.5);
    view.setFont(presented);
    const double body = QFontMetricsF(presented).height();
    const RenderOptions options; // on screen: the widget's font is the presented one
    for (const int width : {1280, 1920}) {
        const int height = view.heightForCells(width);
        const QRectF target(0, 0, width, height);
        const std::vector<QRectF> cells = view.cellRects(target, options);
        QCOMPARE(cells.size(), std::size_t{24});
        const double ids = view.cellFontPixels(target, options);
        QVERIFY2(ids >= body, qPrintable(QStringLiteral("%1 < %2").arg(ids).arg(body)));
        QVERIFY2(cells.front().height() < 2 * ids, qPrintable(QString::number(cells.front().height())));
        const QRectF shorter(0, 0, width, height - 10);
        QVERIFY(view.cellRects(shorter, options).size() < 24 || view.cellFontPixels(shorter, options) < body);
    }
    // With the height to spare, the ids are stacked: three lines in each cell.
    const QRectF tall(0, 0, 1920, 2000);
    QVERIFY(view.cellRects(tall, options).front().height() >= 3 * view.cellFontPixels(tall, options));
}

void TokenLayoutViewTest::cutLayoutSaysHowManyFitBelowItsCells()
{
    // Lesson 14's second step (16 text tokens, a 16 x 16 image merged to 8 x 8, 16 text tokens) in a
    // dock too short for all 96: the line saying how many fit is under the last cells, none drawn over
    // it (it was written across the last row of the image). Rectangles: compared exactly.
    TokenLayoutView view;
    view.setData(token_layout_job(mrope_scenario("text:16,image:1x16x16,text:16", MropeVariant::Qwen2VL)));
    const RenderOptions options;
    for (const int height : {180, 220, 260}) {
        const QRectF target(0, 0, 1280, height);
        const std::vector<QRectF> cells = view.cellRects(target, options);
        const QRectF line = view.countLine(target, options);
        QVERIFY2(cells.size() < 96, qPrintable(QString::number(height)));
        QVERIFY(!line.isEmpty());
        QVERIFY(target.contains(line));
        for (const QRectF& cell : cells)
            QVERIFY2(cell.bottom() <= line.top() + 0.5,
                     qPrintable(QStringLiteral("%1: cell to %2, line from %3")
                                    .arg(height)
                                    .arg(cell.bottom())
                                    .arg(line.top())));
    }
    // With the height the cells need, all fit and there is no such line.
    const QRectF enough(0, 0, 1280, view.heightForCells(1280));
    QCOMPARE(view.cellRects(enough, options).size(), std::size_t{96});
    QVERIFY(view.countLine(enough, options).isEmpty());
}

void TokenLayoutViewTest::otherMethodsGetASentence()
{
    Scenario s;
    s.method = RopeParams::kMethod;
    QVERIFY(!shows_token_layout(s));
    const TokenLayoutData d = token_layout_job(s);
    QVERIFY(d.blocks.empty());
    QVERIFY(d.title.contains("M-RoPE"));
}

void TokenLayoutViewTest::badLayoutIsRefusedByName()
{
    try {
        token_layout_job(
            mrope_scenario("text:5,image:1x3x4", MropeVariant::Qwen2VL)); // 3 not a multiple of 2
        QFAIL("an image height that is no multiple of spatial_merge_size was accepted");
    } catch (const ParameterError& e) {
        QVERIFY2(QString(e.what()).contains("token_layout"), e.what());
    }
}

QTEST_MAIN(TokenLayoutViewTest)
#include "test_token_layout_view.moc"
