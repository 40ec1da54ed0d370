// SPDX-License-Identifier: GPL-3.0-or-later
// The heatmap view with synthetic matrices (hand-made MatrixResult), rendered through renderFigure() into
// a QImage whose pixels are checked: the colour table, cells, NaN, signed data, small multiples and their
// scale, zoom requests, the hover readout, downsampled extents, the dark theme, word axes, high DPI and a
// 720p window. Reference colours are matplotlib 3.6's tables (lib/matplotlib/_cm_listed.py,
// lib/matplotlib/_cm.py::_coolwarm_data) converted to hex the way matplotlib.colors.to_hex does
// (round(channel * 255)), computed with a separate python3 script, not with our code.
#include "export/figure_export.h"
#include "jobs/view_jobs.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "view_fixtures.h"
#include "views/colormap.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class HeatmapViewTest : public QObject
{
    Q_OBJECT

private slots:
    void heatmapImageMatchesTable();
    void heatmapRenderedCell();
    void heatmapNanIsNeutral();
    void heatmapSignedUsesDiverging();
    void heatmapSmallMultiples();
    void heatmapZoomRequestsViewport();
    void heatmapHoverReadout();
    void heatmapDownsampledExtent();
    void heatmapDark();
    void heatmapWordAxes();
    void heatmapHighDpi();
    void heatmapWidgetAt720p();
    void perPanelScaleIsNamedAsSuch();
    void animationScaleIsNamedAsSuch();
};

void HeatmapViewTest::heatmapImageMatchesTable()
{
    // Values 0, 0.5, 1 on a [0, 1] range land on entries 0, 128 and 255 (see colormapIndex).
    MatrixResult m = make_matrix(3, 4, [](int r, int c) { return (r * 4 + c) / 11.0; });
    m.values(1, 2) = 0.5;
    HeatmapView view;
    view.setData({QStringLiteral("test"), {{m, {}}}});
    QCOMPARE(view.colormap(), Colormap::Viridis); // unsigned data: sequential default
    const QImage& image = view.panelImage(0);
    QCOMPARE(image.size(), QSize(4, 3)); // one pixel per cell: columns x rows
    QCOMPARE(QColor(image.pixel(0, 0)).name(), QStringLiteral("#440154"));
    QCOMPARE(QColor(image.pixel(2, 1)).name(), QStringLiteral("#21918c"));
    QCOMPARE(QColor(image.pixel(3, 2)).name(), QStringLiteral("#fde725"));

    view.setColormap(Colormap::Magma);
    QCOMPARE(view.colormap(), Colormap::Magma);
    QCOMPARE(QColor(view.panelImage(0).pixel(2, 1)).name(), QStringLiteral("#b73779"));
}

void HeatmapViewTest::heatmapRenderedCell()
{
    MatrixResult m = make_matrix(8, 8, [](int r, int c) { return r * 8 + c; });
    HeatmapView view;
    view.setData({QStringLiteral("gradient"), {{m, {}}}});
    const QSize size(900, 600);
    const RenderOptions options;
    const QImage image = render(view, size, options);
    QVERIFY(distinct_colors(image) > 64);
    const QList<QRectF> rects = view.heatmapRects(QRectF(QPointF(0, 0), QSizeF(size)), options);
    QCOMPARE(rects.size(), 1);
    // Centre of cell (row 2, column 5): value 21 of [0, 63] -> entry floor(21 / 63 * 256) = 85.
    const QRectF heat = rects.front();
    const QPoint centre(static_cast<int>(heat.left() + (5 + 0.5) * heat.width() / 8),
                        static_cast<int>(heat.top() + (2 + 0.5) * heat.height() / 8));
    QCOMPARE(QColor(image.pixel(centre)).name(), QColor(colormap_table(Colormap::Viridis)[85]).name());
    QCOMPARE(count_near(image, Qt::magenta, 0), 0); // everything painted
}

void HeatmapViewTest::heatmapNanIsNeutral()
{
    MatrixResult m = causal_logits(16);
    HeatmapView view;
    view.setData({QStringLiteral("causal"), {{m, {}}}});
    QCOMPARE(qAlpha(view.panelImage(0).pixel(10, 3)), 0); // column 10 > row 3: masked, transparent
    const QSize size(800, 600);
    const QImage image = render(view, size);
    const QRectF heat = view.heatmapRects(QRectF(QPointF(0, 0), QSizeF(size)), {}).front();
    // Every pixel inside the masked cell is grey (fill or hatch line, antialiased between the two).
    const QRectF cell(heat.left() + 10 * heat.width() / 16, heat.top() + 3 * heat.height() / 16,
                      heat.width() / 16, heat.height() / 16);
    for (int y = static_cast<int>(cell.top()) + 2; y < static_cast<int>(cell.bottom()) - 2; ++y)
        for (int x = static_cast<int>(cell.left()) + 2; x < static_cast<int>(cell.right()) - 2; ++x) {
            const QColor p = image.pixelColor(x, y);
            QVERIFY2(p.red() == p.green() && p.green() == p.blue(), qPrintable(p.name()));
        }
    QCOMPARE(image.pixelColor(cell.center().toPoint()).name().size(), 7);
}

void HeatmapViewTest::heatmapSignedUsesDiverging()
{
    MatrixResult m =
        make_matrix(4, 4, [](int r, int c) { return (c - r) * 0.5; }); // -1.5 .. 1.5, 0 on diagonal
    m.is_signed = true;
    HeatmapView view;
    QSignalSpy spy(&view, &HeatmapView::colormapChanged);
    view.setData({QStringLiteral("signed"), {{m, {}}}});
    QCOMPARE(view.colormap(), Colormap::Diverging);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(view.colorRange().lo, -1.5);
    QCOMPARE(view.colorRange().hi, 1.5);
    // The diagonal is exactly 0: the neutral centre #dddddd of coolwarm.
    QCOMPARE(QColor(view.panelImage(0).pixel(2, 2)).name(), QStringLiteral("#dddddd"));
    // Once chosen explicitly, the map stays even for signed data.
    view.setColormap(Colormap::Cividis);
    view.setData({QStringLiteral("signed"), {{m, {}}}});
    QCOMPARE(view.colormap(), Colormap::Cividis);
}

void HeatmapViewTest::heatmapSmallMultiples()
{
    HeatmapData data;
    data.title = QStringLiteral("ALiBi bias · 8 heads");
    for (int h = 0; h < 6; ++h) {
        const double slope = std::pow(2.0, -(h + 1));
        MatrixResult m = make_matrix(32, 32, [&](int r, int c) { return c > r ? kNaN : -slope * (r - c); });
        m.is_signed = true;
        m.value_label = "bias";
        data.panels.append({m, QStringLiteral("head %1 · m = 1/%2").arg(h).arg(1 << (h + 1))});
    }
    HeatmapView view;
    view.setData(data);
    const QSize size(1000, 640);
    const QImage image = render(view, size, {false, 1.0, QStringLiteral("ALiBi, causal, 8 heads, seq 32")});
    const QList<QRectF> rects =
        view.heatmapRects(QRectF(QPointF(0, 0), QSizeF(size)), {false, 1.0, QStringLiteral("x")});
    QCOMPARE(rects.size(), 6);
    for (int i = 0; i < rects.size(); ++i) {
        QVERIFY(rects[i].width() > 100 && rects[i].height() > 100);
        QVERIFY(QRectF(0, 0, size.width(), size.height()).contains(rects[i]));
        for (int j = i + 1; j < rects.size(); ++j)
            QVERIFY(!rects[i].intersects(rects[j]));
    }
    QVERIFY(distinct_colors(image) > 100);
}

void HeatmapViewTest::heatmapZoomRequestsViewport()
{
    MatrixResult m = make_matrix(64, 64, [](int r, int c) { return std::sin(0.1 * r) * std::cos(0.1 * c); });
    HeatmapView view;
    view.resize(700, 500);
    view.setData({QStringLiteral("zoom"), {{m, {}}}});
    QSignalSpy spy(&view, &HeatmapView::viewportRequested);
    const QRectF heat = view.heatmapRects(QRectF(view.rect()), {}).front();
    const QPointF at = heat.center();
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 3 * 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    // Zoom is immediate on screen, the request is debounced.
    QVERIFY(view.viewport().rows < 64 && view.viewport().cols < 64);
    QCOMPARE(spy.count(), 0);
    QVERIFY(spy.wait(1000));
    QCOMPARE(spy.count(), 1);
    const auto args = spy.takeFirst();
    const auto row0 = args[0].value<std::int64_t>(), col0 = args[1].value<std::int64_t>();
    const auto rows = args[2].value<std::int64_t>(), cols = args[3].value<std::int64_t>();
    // 3 notches at 0.8 each: 64 * 0.512 = 32.8 positions around the centre (32), rounded outwards.
    QVERIFY2(rows >= 32 && rows <= 35, qPrintable(QString::number(rows)));
    QVERIFY2(cols >= 32 && cols <= 35, qPrintable(QString::number(cols)));
    QVERIFY(row0 >= 14 && row0 <= 17);
    QVERIFY(col0 >= 14 && col0 <= 17);

    // The data for the requested window keeps the zoom; a double click goes back to everything.
    MatrixResult zoomed = make_matrix(
        static_cast<int>(rows), static_cast<int>(cols),
        [](int r, int c) { return std::sin(0.1 * r) * std::cos(0.1 * c); }, row0, col0);
    view.setData({QStringLiteral("zoom"), {{zoomed, {}}}});
    QVERIFY(view.viewport().rows < 64);
    view.resetViewport();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst()[2].value<std::int64_t>(), std::int64_t(64));
}

void HeatmapViewTest::heatmapHoverReadout()
{
    MatrixResult m = make_matrix(
        10, 10, [](int r, int c) { return r * 100 + c; }, 1000, 2000);
    HeatmapView view;
    view.resize(700, 500);
    view.setData({QStringLiteral("hover"), {{m, {}}}});
    QSignalSpy spy(&view, &HeatmapView::hovered);
    const QRectF heat = view.heatmapRects(QRectF(view.rect()), {}).front();
    const QPoint at(static_cast<int>(heat.left() + 7.5 * heat.width() / 10),
                    static_cast<int>(heat.top() + 3.5 * heat.height() / 10));
    QMouseEvent move(QEvent::MouseMove, at, view.mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QCOMPARE(spy.count(), 1);
    const QString readout = spy.takeFirst().at(0).toString();
    // Row 3 -> position 1003, column 7 -> position 2007, value 3 * 100 + 7.
    QVERIFY2(readout.contains(QStringLiteral("query position i = 1003")), qPrintable(readout));
    QVERIFY2(readout.contains(QStringLiteral("key position j = 2007")), qPrintable(readout));
    QVERIFY2(readout.contains(QStringLiteral("logit = 307")), qPrintable(readout));
}

void HeatmapViewTest::heatmapDownsampledExtent()
{
    // 1000 positions shown as 100 rows: point samples at floor((r + 0.5) * 10) = 5, 15, ..., 995
    // (attention_logits.h MatrixWindow), so the view spans positions [0, 1000).
    MatrixResult m = make_matrix(100, 100, [](int r, int c) { return r - c; });
    for (int k = 0; k < 100; ++k)
        m.row_index[static_cast<std::size_t>(k)] = m.col_index[static_cast<std::size_t>(k)] = 10 * k + 5;
    HeatmapView view;
    view.setData({QStringLiteral("downsampled"), {{m, {}}}});
    QCOMPARE(view.viewport().row0, 0.0);
    QCOMPARE(view.viewport().rows, 1000.0);
    QCOMPARE(view.viewport().cols, 1000.0);
}

void HeatmapViewTest::heatmapDark()
{
    HeatmapView view;
    view.setData({QStringLiteral("RoPE logits · causal · dark"), {{causal_logits(48), {}}}});
    const QImage image =
        render(view, QSize(960, 640), {true, 1.5, QStringLiteral("dark theme, font scale 1.5")});
    QCOMPARE(image.pixelColor(1, 1), figure_colors(true).background);
    QVERIFY(distinct_colors(image) > 100);
}

// A sentence's words label both axes of the attention weights: the figure, written as SVG
// (text stays text), names each word at its row and column; a long sentence falls back to positions.
void HeatmapViewTest::heatmapWordAxes()
{
    Scenario s;
    s.method = kNoPE;
    common_field("text")->set(s, std::string("the dog bit the man"));
    ViewSettings v;
    v.matrix_kind = MatrixKind::Weights;
    v.pixel_width = 400;
    v.pixel_height = 400;
    HeatmapView view;
    view.setData(heatmap_job(s, v));
    QCOMPARE(view.data().row_tokens.size(), 5);
    QCOMPARE(view.data().col_tokens, view.data().row_tokens);
    const QString file = QDir(QDir::tempPath()).filePath(QStringLiteral("posatlas_word_axes.svg"));
    FigureExportOptions options;
    options.size = QSizeF(700, 560);
    const auto read_svg = [&] {
        QFile in(file);
        return in.open(QIODevice::ReadOnly) ? QString::fromUtf8(in.readAll()) : QString();
    };
    export_figure(view, file, options);
    const QString svg = read_svg();
    const auto labels = [&](const QString& word) {
        return svg.count(QRegularExpression(QStringLiteral(">\\s*%1\\s*</text>").arg(word)));
    };
    QCOMPARE(labels(QStringLiteral("dog")), 2); // one row, one column
    QCOMPARE(labels(QStringLiteral("the")), 4); // at positions 0 and 3 of both axes
    QCOMPARE(labels(QStringLiteral("bit")), 2);
    QCOMPARE(labels(QStringLiteral("man")), 2);
    // The hover readout names the words as the axes do: some cell reads "… = 2 “bit” · … = 1 “dog” · …".
    view.resize(700, 560);
    bool found = false;
    for (int y = 0; y < 560 && !found; y += 4)
        for (int x = 0; x < 700 && !found; x += 4) {
            const QString r = view.readoutAt(QPointF(x, y));
            found = r.contains(QStringLiteral("= 2 “bit”")) && r.contains(QStringLiteral("= 1 “dog”"));
        }
    QVERIFY(found);
    // 300 words in 400 pixels: too many to read, positions instead (no word at all).
    std::string many;
    for (int k = 0; k < 300; ++k)
        many += k % 2 ? "dog " : "cat ";
    common_field("text")->set(s, many);
    view.setData(heatmap_job(s, v));
    export_figure(view, file, options);
    const QString svg2 = read_svg();
    QVERIFY(!svg2.contains(QRegularExpression(QStringLiteral(">\\s*dog\\s*</text>"))));
    QVERIFY(svg2.contains(QRegularExpression(QStringLiteral(">\\s*100\\s*</text>"))));
    QFile::remove(file);
}

void HeatmapViewTest::heatmapHighDpi()
{
    // A 2x device-pixel-ratio image: the same logical layout, twice the pixels; cell colours exact.
    MatrixResult m = make_matrix(8, 8, [](int r, int c) { return r * 8 + c; });
    HeatmapView view;
    view.setData({QStringLiteral("2x"), {{m, {}}}});
    const QSize logical(600, 400);
    QImage image(logical * 2, QImage::Format_ARGB32);
    image.setDevicePixelRatio(2.0);
    image.fill(Qt::magenta);
    {
        QPainter painter(&image);
        view.renderFigure(painter, QRectF(QPointF(0, 0), QSizeF(logical)), {});
    }
    QCOMPARE(count_near(image, Qt::magenta, 0), 0);
    const QRectF heat = view.heatmapRects(QRectF(QPointF(0, 0), QSizeF(logical)), {}).front();
    const QPoint centre(static_cast<int>(2 * (heat.left() + 5.5 * heat.width() / 8)),
                        static_cast<int>(2 * (heat.top() + 2.5 * heat.height() / 8)));
    QCOMPARE(QColor(image.pixel(centre)).name(), QColor(colormap_table(Colormap::Viridis)[85]).name());
}

void HeatmapViewTest::heatmapWidgetAt720p()
{
    // The heatmap as the dock of a 1280 x 720 window shows it: the matrix keeps most of the width.
    HeatmapView heat;
    heat.resize(640, 400);
    heat.setData({QStringLiteral("RoPE logits · base 10000 · d 128"), {{causal_logits(64), {}}}});
    QVERIFY(heat.heatmapPixelSize().width() > 200);
}

// The colour bar names the scale the panels use: with one scale per panel (small multiples) it cannot
// say "whole matrix" while the subtitle says "one colour scale per panel".
void HeatmapViewTest::perPanelScaleIsNamedAsSuch()
{
    Scenario s;
    s.method = Method::ALiBi;
    s.seq_len = 32;
    ViewSettings v;
    v.matrix_kind = MatrixKind::Bias;
    v.small_multiples = true;
    v.pixel_width = 400;
    v.pixel_height = 400;
    HeatmapView view;
    view.setData(heatmap_job(s, v));
    QVERIFY(view.data().panels.size() > 1);
    view.setPerPanelScales(true);
    QVERIFY2(view.scaleLabel().contains(QStringLiteral("each panel")), qPrintable(view.scaleLabel()));
    view.setPerPanelScales(false);
    QVERIFY2(view.scaleLabel().contains(QStringLiteral("whole matrix")), qPrintable(view.scaleLabel()));
}

// An animation's frame takes its colours from the scale of the whole sweep (HeatmapData::fixed_extremes,
// wider than the frame's own values): the bar must say so, not "whole matrix".
void HeatmapViewTest::animationScaleIsNamedAsSuch()
{
    Scenario s;
    s.seq_len = 32;
    ViewSettings v;
    v.pixel_width = 400;
    v.pixel_height = 400;
    HeatmapData data = heatmap_job(s, v);
    const MatrixResult& m = data.panels.front().matrix;
    data.fixed_extremes = {{m.min - 1.0, m.max + 1.0}};
    HeatmapView view;
    view.setData(data);
    QVERIFY2(view.scaleLabel().contains(QStringLiteral("fixed over the animation")),
             qPrintable(view.scaleLabel()));
    data.fixed_extremes.clear();
    view.setData(data);
    QVERIFY2(view.scaleLabel().contains(QStringLiteral("whole matrix")), qPrintable(view.scaleLabel()));
}

QTEST_MAIN(HeatmapViewTest)
#include "test_heatmap_view.moc"
