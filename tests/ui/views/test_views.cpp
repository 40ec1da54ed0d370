// SPDX-License-Identifier: GPL-3.0-or-later
// QtTest for the figure views: each view gets synthetic data (hand-made MatrixResult, CurveData, ...),
// renders through renderFigure() into a QImage, and the pixels are checked. Reference colours are
// matplotlib 3.6's tables (lib/matplotlib/_cm_listed.py, lib/matplotlib/_cm.py::_coolwarm_data)
// converted to hex the way matplotlib.colors.to_hex does (round(channel * 255)), computed with a
// separate python3 script, not with our code.
#include "export/figure_export.h"
#include "jobs/view_jobs.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "views/colormap.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLogValueAxis>
#include <QPainter>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>
#include <QWheelEvent>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int distinct_colors(const QImage& image)
{
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            colors.insert(line[x]);
    }
    return static_cast<int>(colors.size());
}

QImage render(const Figure& figure, QSize size, const RenderOptions& options = {})
{
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::magenta); // any pixel left unpainted would show up as magenta
    QPainter painter(&image);
    figure.renderFigure(painter, QRectF(QPointF(0, 0), QSizeF(size)), options);
    painter.end();
    return image;
}

int count_near(const QImage& image, QColor c, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) <= tolerance && std::abs(p.green() - c.green()) <= tolerance &&
                std::abs(p.blue() - c.blue()) <= tolerance)
                ++n;
        }
    return n;
}

// rows x cols matrix at positions row0.., col0..; value f(r, c).
template <class F>
MatrixResult make_matrix(int rows, int cols, F f, std::int64_t row0 = 0, std::int64_t col0 = 0)
{
    MatrixResult m;
    m.values.resize(rows, cols);
    m.min = std::numeric_limits<double>::infinity();
    m.max = -m.min;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const double v = f(r, c);
            m.values(r, c) = v;
            if (std::isfinite(v)) {
                m.min = std::min(m.min, v);
                m.max = std::max(m.max, v);
            }
        }
    for (int r = 0; r < rows; ++r)
        m.row_index.push_back(row0 + r);
    for (int c = 0; c < cols; ++c)
        m.col_index.push_back(col0 + c);
    m.row_label = "query position i";
    m.col_label = "key position j";
    m.value_label = "logit";
    return m;
}

// A causal logit-like matrix: smooth signed values, NaN above the diagonal.
MatrixResult causal_logits(int n)
{
    MatrixResult m = make_matrix(n, n, [](int r, int c) {
        if (c > r)
            return kNaN;
        return std::cos(0.35 * (r - c)) * std::exp(-0.04 * (r - c)) + 0.3 * std::sin(0.2 * r);
    });
    m.is_signed = true;
    return m;
}

} // namespace

class ViewsTest : public QObject
{
    Q_OBJECT

private slots:
    void perPanelScaleIsNamedAsSuch();
    void longTitlesBreakAtASeparator();
    void curveAxesSurviveARangeJump();
    void curveLegendOfManySeriesInAColumn();
    void curveLogYMinorTicksOnlyOverFewDecades();
    void colormapTables_data();
    void colormapTables();
    void colormapIndex_data();
    void colormapIndex();
    void divergingCentre();
    void colormapIds();

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

    void rotationRender();
    void rotationControls();

    void curveRender_data();
    void curveRender();
    void curveLogAxisTicks();
    void curveCrosshair();
    void spectrumRender();
    void heatmapHighDpi();
    void heatmapWidgetAt720p();
};

// ----------------------------------------------------------------- colour maps

void ViewsTest::colormapTables_data()
{
    QTest::addColumn<Colormap>("map");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("middle"); // entry 128
    QTest::addColumn<QString>("last");
    // matplotlib 3.6 _cm_listed.py entries 0, 128, 255 rounded to 8 bits (python3 round(v * 255)).
    QTest::newRow("viridis") << Colormap::Viridis << "#440154"
                             << "#21918c"
                             << "#fde725";
    QTest::newRow("magma") << Colormap::Magma << "#000004"
                           << "#b73779"
                           << "#fcfdbf";
    QTest::newRow("cividis") << Colormap::Cividis << "#00224e"
                             << "#7d7c78"
                             << "#fee838";
    // coolwarm control points x = 0, 0.5, 1 of _cm.py::_coolwarm_data (entry 128 is the centre by design).
    QTest::newRow("diverging") << Colormap::Diverging << "#3b4cc0"
                               << "#dddddd"
                               << "#b40426";
}

void ViewsTest::colormapTables()
{
    QFETCH(Colormap, map);
    QFETCH(QString, first);
    QFETCH(QString, middle);
    QFETCH(QString, last);
    const QVector<QRgb> table = colormap_table(map);
    QCOMPARE(table.size(), 256);
    QCOMPARE(QColor(table[0]).name(), first);
    QCOMPARE(QColor(table[128]).name(), middle);
    QCOMPARE(QColor(table[255]).name(), last);
    // Perceptually uniform sequential maps are monotonic in lightness; the diverging map is darkest
    // at both ends and lightest at its centre.
    if (map != Colormap::Diverging) {
        for (int i = 1; i < 256; ++i)
            QVERIFY2(QColor(table[i]).lightnessF() >= QColor(table[i - 1]).lightnessF() - 0.01,
                     qPrintable(QString::number(i)));
    } else {
        QVERIFY(QColor(table[128]).lightness() > QColor(table[0]).lightness());
        QVERIFY(QColor(table[128]).lightness() > QColor(table[255]).lightness());
    }
}

void ViewsTest::colormapIndex_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("index");
    // floor((v - lo) / (hi - lo) * 256) clamped to [0, 255] (matplotlib Colormap.__call__ on Normalize).
    QTest::newRow("low end") << 0.0 << 0.0 << 1.0 << 0;
    QTest::newRow("high end") << 1.0 << 0.0 << 1.0 << 255;
    QTest::newRow("half") << 0.5 << 0.0 << 1.0 << 128;
    QTest::newRow("quarter") << 0.25 << 0.0 << 1.0 << 64;
    QTest::newRow("just below half") << 0.4999 << 0.0 << 1.0 << 127;
    QTest::newRow("below range") << -5.0 << 0.0 << 1.0 << 0;
    QTest::newRow("above range") << 7.0 << 0.0 << 1.0 << 255;
    QTest::newRow("shifted") << 15.0 << 10.0 << 20.0 << 128;
    QTest::newRow("nan") << kNaN << 0.0 << 1.0 << -1;
    QTest::newRow("degenerate") << 3.0 << 3.0 << 3.0 << 128;
}

void ViewsTest::colormapIndex()
{
    QFETCH(double, value);
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, index);
    QCOMPARE(colormap_index(value, ColorRange{lo, hi}), index);
}

void ViewsTest::divergingCentre()
{
    // Asymmetric data still centres the diverging map on 0: the range becomes [-5, 5].
    const ColorRange r = color_range(Colormap::Diverging, -3.0, 5.0);
    QCOMPARE(r.lo, -5.0);
    QCOMPARE(r.hi, 5.0);
    QCOMPARE(colormap_index(0.0, r), kDivergingCentre);
    QCOMPARE(kDivergingCentre, 128);
    QCOMPARE(colormap_index(-5.0, r), 0);
    QCOMPARE(colormap_index(5.0, r), 255);
    // Sequential maps span [min, max] as given.
    const ColorRange s = color_range(Colormap::Viridis, -3.0, 5.0);
    QCOMPARE(s.lo, -3.0);
    QCOMPARE(s.hi, 5.0);
}

void ViewsTest::colormapIds()
{
    for (Colormap m : all_colormaps()) {
        QCOMPARE(parse_colormap(colormap_id(m)), std::optional<Colormap>(m));
        QVERIFY(!colormap_name(m).isEmpty());
    }
    QCOMPARE(parse_colormap(u"VIRIDIS"), std::optional<Colormap>(Colormap::Viridis));
    QVERIFY(!parse_colormap(u"jet").has_value());
    QCOMPARE(default_colormap(true), Colormap::Diverging);
    QCOMPARE(default_colormap(false), Colormap::Viridis);
}

// ----------------------------------------------------------------- heatmap

void ViewsTest::heatmapImageMatchesTable()
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

void ViewsTest::heatmapRenderedCell()
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

void ViewsTest::heatmapNanIsNeutral()
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

void ViewsTest::heatmapSignedUsesDiverging()
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

void ViewsTest::heatmapSmallMultiples()
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

void ViewsTest::heatmapZoomRequestsViewport()
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

void ViewsTest::heatmapHoverReadout()
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

void ViewsTest::heatmapDownsampledExtent()
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

void ViewsTest::heatmapDark()
{
    HeatmapView view;
    view.setData({QStringLiteral("RoPE logits · causal · dark"), {{causal_logits(48), {}}}});
    const QImage image =
        render(view, QSize(960, 640), {true, 1.5, QStringLiteral("dark theme, font scale 1.5")});
    QCOMPARE(image.pixelColor(1, 1), figure_colors(true).background);
    QVERIFY(distinct_colors(image) > 100);
}

// ----------------------------------------------------------------- rotation

namespace {
RotationData rotation_data(double m, double n)
{
    RotationData d;
    d.title = QStringLiteral("RoPE rotation · base 10000 · d 64");
    d.query_position = m;
    d.key_position = n;
    const int pairs = 32;
    for (int i = 0; i < pairs; ++i) {
        const double theta = std::pow(10000.0, -2.0 * i / 64.0); // Su et al. 2021 eq. 15
        auto wrap = [](double a) {
            const double two_pi = 2 * std::numbers::pi;
            return std::fmod(std::fmod(a, two_pi) + two_pi, two_pi);
        };
        d.theta.push_back(theta);
        d.wavelength.push_back(2 * std::numbers::pi / theta);
        d.angle_q.push_back(wrap(m * theta));
        d.angle_k.push_back(wrap(n * theta));
        d.angle_rel.push_back(wrap((m - n) * theta));
    }
    d.shown_pairs = {0, 4, 12, 24};
    return d;
}
} // namespace

void ViewsTest::rotationRender()
{
    RotationView view;
    view.setData(rotation_data(7.0, 3.0));
    const QImage image = render(view, QSize(1100, 560), {false, 1.0, QStringLiteral("m = 7, n = 3")});
    QVERIFY(distinct_colors(image) > 50);
    QCOMPARE(count_near(image, Qt::magenta, 0), 0);
    // The query, key and relative-angle colours all appear (arrows, arcs, legend).
    for (int role = 0; role < 3; ++role)
        QVERIFY2(count_near(image, series_color(role, false), 10) > 40, qPrintable(QString::number(role)));
    const QImage dark = render(view, QSize(800, 700), {true, 1.3, {}});
    QCOMPARE(dark.pixelColor(1, 1), figure_colors(true).background);
    QVERIFY(distinct_colors(dark) > 50);
}

void ViewsTest::rotationControls()
{
    RotationControls controls;
    controls.setRange(0.0, 50.0);
    QSignalSpy spy(&controls, &RotationControls::positionChanged);
    controls.setPosition(10.0);
    QCOMPARE(controls.position(), 10.0);
    QCOMPARE(spy.count(), 0); // programmatic updates do not echo
    controls.setSpeed(100.0);
    controls.play();
    QVERIFY(controls.isPlaying());
    QVERIFY(spy.wait(1000));
    controls.pause();
    QVERIFY(!controls.isPlaying());
    QVERIFY(controls.position() != 10.0);
    QVERIFY(controls.position() >= 0.0 && controls.position() <= 50.0);
}

// ----------------------------------------------------------------- curves

void ViewsTest::curveRender_data()
{
    QTest::addColumn<bool>("logX");
    QTest::addColumn<bool>("step");
    QTest::addColumn<bool>("dark");
    QTest::newRow("linear") << false << false << false;
    QTest::newRow("log x") << true << false << false;
    QTest::newRow("step, dark") << false << true << true;
}

void ViewsTest::curveRender()
{
    QFETCH(bool, logX);
    QFETCH(bool, step);
    QFETCH(bool, dark);
    CurveData d;
    d.title = QStringLiteral("Long-term decay of the RoPE upper bound");
    d.x_label = QStringLiteral("relative distance");
    d.y_label = QStringLiteral("relative upper bound");
    d.note = QStringLiteral("Su et al. 2021, section 3.4.3");
    CurveSeries a, b;
    a.name = QStringLiteral("base 10000");
    b.name = QStringLiteral("base 500000");
    b.dashed = true;
    for (int k = 1; k <= 400; ++k) {
        const double x = step ? k / 8 : k;
        a.x.push_back(x);
        a.y.push_back(step ? std::floor(std::log2(x + 1)) : 20.0 / std::sqrt(x) + std::sin(x / 7.0));
        b.x.push_back(x);
        b.y.push_back(step ? std::floor(std::log2(x + 1)) + 0.5 : 18.0 / std::sqrt(x));
    }
    a.step = b.step = step;
    d.series = {a, b};
    d.markers = {{128.0, QStringLiteral("trained 128"), true},
                 {256.0, QStringLiteral("target 256"), true},
                 {2.0, QStringLiteral("y = 2"), false}};
    CurveView view;
    view.setData(d);
    view.setLogX(logX);
    QCOMPARE(view.logX(), logX);
    const QImage image = render(view, QSize(900, 560), {dark, 1.0, QStringLiteral("caption line")});
    QVERIFY(distinct_colors(image) > 30);
    QCOMPARE(count_near(image, Qt::magenta, 0), 0);
    QVERIFY2(count_near(image, series_color(0, dark), 30) > 200, "first series drawn");
    QVERIFY2(count_near(image, series_color(1, dark), 30) > 100, "second (dashed) series drawn");
    QCOMPARE(image.pixelColor(1, 1), figure_colors(dark).background);
}

// A log distance axis labels at least three ticks: powers of 2 below two decades (a five-word sentence's
// distances 1 ... 4), decades above.
void ViewsTest::curveLogAxisTicks()
{
    for (const double last : {4.0, 60.0, 4000.0}) {
        CurveData d;
        d.log_x = true;
        CurveSeries line;
        line.name = QStringLiteral("line");
        for (double x = 1; x <= last; x *= 1.5) {
            line.x.push_back(x);
            line.y.push_back(1.0 / x);
        }
        line.x.push_back(last);
        line.y.push_back(1.0 / last);
        d.series = {line};
        CurveView view;
        view.resize(700, 450);
        view.setData(d);
        auto* chartView = view.findChild<CurveChartView*>();
        QVERIFY(chartView);
        const QList<QAbstractAxis*> axes = chartView->curveChart()->axes(Qt::Horizontal);
        QCOMPARE(axes.size(), 1);
        auto* axis = qobject_cast<QLogValueAxis*>(axes.front());
        QVERIFY(axis);
        QCOMPARE(axis->base(), last < 100 ? 2.0 : 10.0);
        QVERIFY2(axis->tickCount() >= 3, qPrintable(QString::number(axis->tickCount())));
    }
}

void ViewsTest::curveCrosshair()
{
    CurveData d;
    d.x_label = QStringLiteral("distance");
    CurveSeries line, step;
    line.name = QStringLiteral("line");
    step.name = QStringLiteral("buckets");
    step.step = true;
    for (int k = 0; k <= 100; k += 10) {
        line.x.push_back(k);
        line.y.push_back(2.0 * k); // y = 2x: linear interpolation is exact
        step.x.push_back(k);
        step.y.push_back(k / 10); // held until the next sample
    }
    d.series = {line, step};
    CurveView view;
    view.resize(700, 450);
    view.setData(d);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto* chartView = view.findChild<CurveChartView*>();
    QVERIFY(chartView);
    CurveChart* chart = chartView->curveChart();
    QSignalSpy spy(&view, &CurveView::hovered);
    // x = 45 in the plot area: the line reads 90, the step series holds its value at 40, i.e. 4.
    const QRectF area = chart->plotArea();
    const QPointF chartPos(area.left() + 0.45 * area.width(), area.center().y());
    const QPoint at = chartView->mapFromScene(chart->mapToScene(chartPos));
    QTest::mouseMove(chartView->viewport(), at);
    QTRY_VERIFY(spy.count() >= 1);
    const QString readout = spy.last().at(0).toString();
    // Pixel rounding of the mouse position moves x by a fraction of a unit; the line series must read
    // 2x at whatever x is shown (4 significant digits: tolerance 0.1), the step series 4.
    const QRegularExpression pattern(
        QStringLiteral("^distance = ([0-9.]+) · line: ([0-9.]+) · buckets: ([0-9.]+)$"));
    const QRegularExpressionMatch match = pattern.match(readout);
    QVERIFY2(match.hasMatch(), qPrintable(readout));
    const double x = match.captured(1).toDouble();
    QVERIFY2(std::abs(x - 45.0) < 0.5, qPrintable(readout));
    QVERIFY2(std::abs(match.captured(2).toDouble() - 2 * x) < 0.1, qPrintable(readout));
    QCOMPARE(match.captured(3), QStringLiteral("4"));
}

// A sentence's words label both axes of the attention weights: the figure, written as SVG
// (text stays text), names each word at its row and column; a long sentence falls back to positions.
void ViewsTest::heatmapWordAxes()
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

void ViewsTest::spectrumRender()
{
    SpectrumData s;
    s.title = QStringLiteral("RoPE spectrum · base 10000 · d 128");
    s.scaling_label = QStringLiteral("yarn · factor 16");
    s.trained_length = 4096;
    s.target_length = 65536;
    s.attention_factor = 1.2773; // 0.1 ln(16) + 1 (Peng et al. 2023, YaRN eq. 22)
    const int pairs = 64;
    for (int i = 0; i < pairs; ++i) {
        const double theta = std::pow(10000.0, -2.0 * i / 128.0);
        const double wl = 2 * std::numbers::pi / theta;
        // Illustrative ramp between 32 and 1 rotations (not the exact YaRN boundaries).
        const double rotations = 4096.0 / wl;
        const double ramp = std::clamp((rotations - 1.0) / (32.0 - 1.0), 0.0, 1.0);
        const double ratio = ramp + (1 - ramp) / 16.0;
        s.pair.push_back(i);
        s.theta_original.push_back(theta);
        s.theta_scaled.push_back(theta * ratio);
        s.wavelength_original.push_back(wl);
        s.wavelength_scaled.push_back(wl / ratio);
        s.ratio.push_back(ratio);
        s.ramp.push_back(ramp);
    }
    SpectrumView view;
    view.setData(s);
    QCOMPARE(view.figureTitle(), QStringLiteral("RoPE spectrum · base 10000 · d 128 · yarn · factor 16"));
    const QImage image = render(view, QSize(900, 760), {false, 1.0, QStringLiteral("caption")});
    QVERIFY(distinct_colors(image) > 30);
    QCOMPARE(count_near(image, Qt::magenta, 0), 0);
    QVERIFY(count_near(image, series_color(1, false), 30) > 150); // the scaled wavelengths
    const QImage dark = render(view, QSize(900, 760), {true, 1.4, {}});
    QCOMPARE(dark.pixelColor(1, 1), figure_colors(true).background);
}

void ViewsTest::heatmapHighDpi()
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

void ViewsTest::heatmapWidgetAt720p()
{
    // The heatmap as the dock of a 1280 x 720 window shows it: the matrix keeps most of the width.
    HeatmapView heat;
    heat.resize(640, 400);
    heat.setData({QStringLiteral("RoPE logits · base 10000 · d 128"), {{causal_logits(64), {}}}});
    QVERIFY(heat.heatmapPixelSize().width() > 200);
}

// A chart in its view, not yet shown, of the given size.
std::unique_ptr<CurveChartView> chart_view(QSize size)
{
    auto view = std::make_unique<CurveChartView>(new CurveChart);
    view->resize(size);
    return view;
}

// A curve whose values jump from a range of 1 to a range of 10^9 (a new method or overlay): the axes take
// the new range with a handful of ticks. Laying the old tick interval (0.2) over the new range made
// Qt Charts create billions of tick items on the GUI thread, a freeze that the soak test caught.
void ViewsTest::curveAxesSurviveARangeJump()
{
    // On screen: Qt Charts lays the axes out only in a shown view.
    const auto view = chart_view(QSize(700, 450));
    CurveChart& chart = *view->curveChart();
    CurveData small;
    small.title = QStringLiteral("small");
    small.series.push_back(CurveSeries{QStringLiteral("a"), {0.0, 1.0}, {0.0, 1.0}});
    chart.setCurveData(small);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    CurveData huge = small;
    huge.series.front().x = {0.0, 1e9};
    huge.series.front().y = {-1e9, 1e9};
    chart.setCurveData(huge);
    QCoreApplication::processEvents();
    for (QAbstractAxis* axis : chart.axes()) {
        auto* v = qobject_cast<QValueAxis*>(axis);
        QVERIFY(v);
        QVERIFY(v->max() >= 1e9 * 0.99);
        if (v->tickType() == QValueAxis::TicksDynamic)
            QVERIFY2((v->max() - v->min()) / v->tickInterval() <= 40,
                     qPrintable(QString::number(v->tickInterval())));
        else
            QVERIFY(v->tickCount() <= 40);
    }
    chart.setCurveData(small); // and back
    for (QAbstractAxis* axis : chart.axes()) {
        auto* v = qobject_cast<QValueAxis*>(axis);
        QVERIFY(v->max() <= 2.0);
        if (v->tickType() == QValueAxis::TicksDynamic)
            QVERIFY((v->max() - v->min()) / v->tickInterval() <= 40);
    }
}

// Eight ALiBi heads in a docked chart (490 px wide): a bottom legend gives each entry an eighth of the
// width, and Qt Charts elided "m₁₅=0.0039" to "m₁…", hiding the slopes. More than four series go in a
// column at the right, wide enough for the longest label; two go back to the bottom.
void ViewsTest::curveLegendOfManySeriesInAColumn()
{
    const auto view = chart_view(QSize(490, 650));
    CurveChart& chart = *view->curveChart();
    CurveData heads;
    heads.title = QStringLiteral("ALiBi attention decay");
    QString longest;
    for (int h = 0; h < 8; ++h) {
        const QString name = QStringLiteral("m%1=%2").arg(h * 2 + 1).arg(std::pow(2.0, -1.0 - h), 0, 'g', 2);
        longest = name.size() > longest.size() ? name : longest;
        heads.series.push_back(CurveSeries{name, {1.0, 10.0, 100.0}, {0.9, 0.5 / (h + 1), 0.01}});
    }
    chart.setCurveData(heads);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QCoreApplication::processEvents();
    QCOMPARE(chart.legend()->alignment(), Qt::AlignRight);
    QVERIFY(chart.legend()->isVisible());
    const QFontMetricsF fm(chart.legend()->font());
    QVERIFY2(
        chart.legend()->geometry().width() >= fm.horizontalAdvance(longest),
        qPrintable(
            QStringLiteral("legend %1 px for \"%2\"").arg(chart.legend()->geometry().width()).arg(longest)));
    CurveData two = heads;
    two.series.resize(2);
    chart.setCurveData(two);
    QCOMPARE(chart.legend()->alignment(), Qt::AlignBottom);
}

// The spectrum's wavelengths span 1 to 10^8: eight minor ticks per decade drew the docked chart's axis
// as a thick dashed line. Over more than four decades only the decade ticks; over two, the minor ones.
void ViewsTest::curveLogYMinorTicksOnlyOverFewDecades()
{
    const auto view = chart_view(QSize(490, 650));
    CurveChart& chart = *view->curveChart();
    CurveData wide;
    wide.log_y = true;
    wide.series.push_back(CurveSeries{QStringLiteral("wavelength"), {0.0, 63.0}, {6.28, 2.0e7}});
    chart.setCurveData(wide);
    const auto minorTicks = [&] {
        for (QAbstractAxis* axis : chart.axes(Qt::Vertical))
            if (auto* log = qobject_cast<QLogValueAxis*>(axis))
                return log->minorTickCount();
        return -2;
    };
    QCOMPARE(minorTicks(), 0);
    CurveData narrow = wide;
    narrow.series.front().y = {2.0, 50.0};
    chart.setCurveData(narrow);
    QCOMPARE(minorTicks(), -1); // Qt's "all eight per decade"
}

QTEST_MAIN(ViewsTest)
#include "test_views.moc"

// The colour bar names the scale the panels use: with one scale per panel (small multiples) it cannot
// say "whole matrix" while the subtitle says "one colour scale per panel".
void ViewsTest::perPanelScaleIsNamedAsSuch()
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

// A figure title too long for a docked view breaks after a " · " instead of losing its end to an
// ellipsis (the heatmap's "… · 注意力分数 (log…" in a 1280-px window).
void ViewsTest::longTitlesBreakAtASeparator()
{
    QFont font;
    font.setPixelSize(14);
    const QFontMetricsF fm(font);
    const QString title =
        QStringLiteral("RoPE (Su et al. 2021) · θ 10000 · d 128 · N 256 · 注意力分数 (logit)");
    const double full = fm.horizontalAdvance(title);
    QCOMPARE(title_lines(title, fm, full + 1), QStringList{title});
    const QString tail = QStringLiteral("注意力分数 (logit)");
    const QStringList two = title_lines(title, fm, full - fm.horizontalAdvance(tail) / 2);
    QCOMPARE(two.size(), 2);
    QCOMPARE(two.at(0), QStringLiteral("RoPE (Su et al. 2021) · θ 10000 · d 128 · N 256"));
    QCOMPARE(two.at(1), tail);
    // No separator fits: one elided line.
    const QStringList one = title_lines(title, fm, fm.horizontalAdvance(QStringLiteral("RoPE (Su")));
    QCOMPARE(one.size(), 1);
    QVERIFY(one.at(0).endsWith(QChar(0x2026)));
}
