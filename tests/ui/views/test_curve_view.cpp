// SPDX-License-Identifier: GPL-3.0-or-later
// The curve view with synthetic curves (hand-made CurveData), rendered through renderFigure() into a QImage
// whose pixels are checked: series, log-axis ticks, the crosshair, and the chart's axes after a range jump,
// a legend of many series, minor ticks of a log y axis.
#include "view_fixtures.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/note_text.h"

#include <QLogValueAxis>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <memory>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// A chart in its view, not yet shown, of the given size.
std::unique_ptr<CurveChartView> chart_view(QSize size)
{
    auto view = std::make_unique<CurveChartView>(new CurveChart);
    view->resize(size);
    return view;
}

} // namespace

class CurveViewTest : public QObject
{
    Q_OBJECT

private slots:
    void curveRender_data();
    void curveRender();
    void curveLogAxisTicks();
    void curveCrosshair();
    void curveAxesSurviveARangeJump();
    void curveLegendOfManySeriesInAColumn();
    void curveLogYMinorTicksOnlyOverFewDecades();
    void noteUnderTheChartInAShortView();
};

void CurveViewTest::curveRender_data()
{
    QTest::addColumn<bool>("logX");
    QTest::addColumn<bool>("step");
    QTest::addColumn<bool>("dark");
    QTest::newRow("linear") << false << false << false;
    QTest::newRow("log x") << true << false << false;
    QTest::newRow("step, dark") << false << true << true;
}

void CurveViewTest::curveRender()
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
void CurveViewTest::curveLogAxisTicks()
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

void CurveViewTest::curveCrosshair()
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

// A curve whose values jump from a range of 1 to a range of 10^9 (a new method or overlay): the axes take
// the new range with a handful of ticks. Laying the old tick interval (0.2) over the new range made
// Qt Charts create billions of tick items on the GUI thread, a freeze that the soak test caught.
void CurveViewTest::curveAxesSurviveARangeJump()
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
void CurveViewTest::curveLegendOfManySeriesInAColumn()
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
void CurveViewTest::curveLogYMinorTicksOnlyOverFewDecades()
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

void CurveViewTest::noteUnderTheChartInAShortView()
{
    // A long note in a narrow column (the lesson's curves beside the course at 1280 x 720): the view asks
    // for the chart's minimum and two of the note's lines, and never draws the note over the chart. Too
    // short for the whole note, it shows what fits, the whole note in the tooltip; tall enough, all of it.
    CurveData d;
    d.title = QStringLiteral("Logit against distance");
    d.x_label = QStringLiteral("relative distance r");
    d.y_label = QStringLiteral("logit");
    d.note = QStringLiteral("the last query's logits; distances up to N - 1 = 95: a longer sequence shows "
                            "more of them, and the dashed line is the trained length");
    CurveSeries a;
    a.name = QStringLiteral("M-RoPE");
    for (int k = 1; k <= 95; ++k) {
        a.x.push_back(k);
        a.y.push_back(11.0 - std::log(k));
    }
    d.series.push_back(a);
    CurveView view;
    view.setData(d);
    view.resize(200, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const NoteText* note = view.note();
    const int lines = note->heightForWidth(note->width()) / note->fontMetrics().lineSpacing();
    QVERIFY2(lines > NoteText::kMinimumLines, qPrintable(QString::number(lines)));
    QTRY_VERIFY(!note->cut());
    QCOMPARE(note->toolTip(), QString());
    // The least height: the chart's minimum, two lines of the note, the margins.
    const int least = view.minimumSizeHint().height();
    QVERIFY2(least >= view.chartView()->minimumHeight() + 2 * note->fontMetrics().lineSpacing(),
             qPrintable(QStringLiteral("%1 for a chart of at least %2")
                            .arg(least)
                            .arg(view.chartView()->minimumHeight())));
    view.resize(200, least);
    QTRY_COMPARE(view.height(), least);
    QTRY_VERIFY(note->cut());
    QVERIFY2(note->geometry().top() > view.chartView()->geometry().bottom(),
             qPrintable(QStringLiteral("note from %1, chart to %2")
                            .arg(note->geometry().top())
                            .arg(view.chartView()->geometry().bottom())));
    QVERIFY(note->geometry().bottom() < view.height());
    QVERIFY(note->height() >= NoteText::kMinimumLines * note->fontMetrics().lineSpacing());
    QCOMPARE(note->toolTip(), d.note);
}

QTEST_MAIN(CurveViewTest)
#include "test_curve_view.moc"
