// SPDX-License-Identifier: GPL-3.0-or-later
// The curves chart on screen keeps exactly one x and one y axis through the changes that rebuild it
// (log x toggled, other curve families): no axis of an earlier state stays drawn beside the new one, even
// when nothing but processEvents() runs in between (no event loop: `posatlas screenshots`); and at
// presentation sizes its title and legend show their numbers whole (curve_chart_fit.cpp).
#include "views/curve_chart.h"
#include "views/curve_view.h"

#include <QApplication>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

const QString kXTitle = QStringLiteral("distance");
const QString kYTitle = QStringLiteral("size");

CurveData curves(int families)
{
    CurveData data;
    data.title = QStringLiteral("decay");
    data.x_label = kXTitle;
    data.y_label = kYTitle;
    data.log_x = true;
    for (int f = 0; f < families; ++f) {
        CurveSeries s;
        s.name = QStringLiteral("family %1").arg(f);
        for (int r = 1; r <= 1000; ++r) {
            s.x.push_back(r);
            s.y.push_back(std::exp(-0.001 * (f + 1) * r));
        }
        data.series.append(s);
    }
    CurveMarker m;
    m.value = 100;
    m.vertical = true;
    m.label = QStringLiteral("trained 100");
    data.markers.append(m);
    return data;
}

// What the chart's scene draws with this exact text, visible: axis titles are text items of the chart.
int visible_texts(const QGraphicsScene* scene, const QString& text)
{
    int n = 0;
    for (const QGraphicsItem* item : scene->items()) {
        if (!item->isVisible())
            continue;
        QString shown;
        if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item))
            shown = t->toPlainText();
        else if (const auto* s = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
            shown = s->text();
        n += shown == text ? 1 : 0;
    }
    return n;
}

// Every visible text the chart's scene draws.
QStringList visible_texts(const QGraphicsScene* scene)
{
    QStringList out;
    for (const QGraphicsItem* item : scene->items()) {
        if (!item->isVisible())
            continue;
        if (const auto* t = dynamic_cast<const QGraphicsTextItem*>(item))
            out << t->toPlainText();
        else if (const auto* s = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
            out << s->text();
    }
    return out;
}

// Events, as the screenshots command lets them run: no event loop, so nothing deleted later is deleted.
void settle()
{
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
}

// The view at the tests' size, on screen.
bool shown(CurveView& view)
{
    view.resize(700, 450);
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

} // namespace

class CurveAxesTest : public QObject
{
    Q_OBJECT

private slots:
    void oneAxisPairThroughRebuilds();
    void titleAndLegendWholeAtPresentationSizes();
    void seriesOfOneNameShareOneLegendEntry();
    void curveOfOnePointShowsItsPoint();
    void narrowChartKeepsItsAxisTextsWhole();
};

void CurveAxesTest::oneAxisPairThroughRebuilds()
{
    CurveView view;
    QVERIFY(shown(view));
    CurveChart* chart = view.chartView()->curveChart();
    const QGraphicsScene* scene = chart->scene();
    QVERIFY(scene);

    // The screenshots' sequence: a default scenario (linear x), log x switched on, other families (a
    // preset's scaled model), a new size (presenting), log x off and on again.
    view.setData([] {
        CurveData d = curves(1);
        d.log_x = false;
        return d;
    }());
    settle();
    view.setLogX(true);
    settle();
    view.setData(curves(3));
    settle();
    view.resize(900, 600);
    settle();
    view.setLogX(false);
    settle();
    view.setLogX(true);
    settle();
    view.setData(curves(2));
    settle();

    QCOMPARE(chart->axes(Qt::Horizontal).size(), 1);
    QCOMPARE(chart->axes(Qt::Vertical).size(), 1);
    QVERIFY(qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).constFirst()));
    QVERIFY(qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).constFirst()));
    // Drawn: one title per axis, not a stale pair of an earlier layout beside them.
    QCOMPARE(visible_texts(scene, kXTitle), 1);
    QCOMPARE(visible_texts(scene, kYTitle), 1);

    // And in the picture: the same pixels as a fresh view of the same data and size, painted after the
    // event loop has deleted whatever Qt Charts deletes later.
    const QImage shown = view.chartView()->grab().toImage();
    CurveView fresh;
    fresh.resize(view.size());
    fresh.setLogX(true);
    fresh.setData(curves(2));
    fresh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fresh));
    QTest::qWait(50); // runs the deferred deletions
    const QImage expected = fresh.chartView()->grab().toImage();
    QCOMPARE(shown.size(), expected.size());
    int differing = 0;
    for (int y = 0; y < shown.height(); ++y)
        for (int x = 0; x < shown.width(); ++x)
            differing += shown.pixel(x, y) != expected.pixel(x, y) ? 1 : 0;
    QVERIFY2(differing < shown.width() * shown.height() / 200,
             qPrintable(QStringLiteral("%1 pixels differ from a fresh chart").arg(differing)));
}

void CurveAxesTest::titleAndLegendWholeAtPresentationSizes()
{
    // Llama 3.1 8B's decay curves as presented at 250 % on a 1920x1080 screen: Qt Charts elided the title
    // to "RoPE long-term decay · θ 500000 · d 128 · Llama 3 · × 8 · ..." and the legend entries to
    // "RoFormer bound ÷ bound...", "unscaled θ: RoFormer bou...".
    CurveData data = curves(3);
    data.title = QStringLiteral("RoPE long-term decay · θ 500000 · d 128 · Llama 3 · × 8 · original 8192 · "
                                "target 131072");
    data.series[0].name = QStringLiteral("RoFormer bound ÷ bound(0)");
    data.series[1].name = QStringLiteral("mean cos(r θᵢ)");
    data.series[2].name = QStringLiteral("unscaled θ: RoFormer bound ÷ bound(0)");
    CurveView view;
    QFont big = view.font();
    big.setPointSizeF(big.pointSizeF() * 2.5);
    view.setFont(big);
    view.resize(1000, 640);
    view.setData(data);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    settle();
    const QStringList texts = visible_texts(view.chartView()->curveChart()->scene());
    // Lines broken where they must be: read as one line each.
    QString all = texts.join(QLatin1Char('|'));
    for (const QChar brk : {QChar(u'\n'), QChar(QChar::LineSeparator), QChar(QChar::ParagraphSeparator)})
        all.replace(brk, QLatin1Char(' '));
    for (const QString& text : texts)
        QVERIFY2(!text.contains(QStringLiteral("...")) && !text.contains(QChar(0x2026)), qPrintable(all));
    for (const QString& whole : {QStringLiteral("500000"), QStringLiteral("131072"), data.series[0].name,
                                 data.series[1].name, data.series[2].name})
        QVERIFY2(all.contains(whole), qPrintable(whole + QStringLiteral(" in ") + all));
}

QTEST_MAIN(CurveAxesTest)
// A band drawn as two dashed series of one name (the lab sweep's lowest and highest seed): one legend
// entry, not two of the same text.
void CurveAxesTest::seriesOfOneNameShareOneLegendEntry()
{
    CurveView view;
    QVERIFY(shown(view));
    CurveData d = curves(3);
    d.series[1].name = d.series[2].name = QStringLiteral("band");
    d.series[0].name = QStringLiteral("mean");
    view.setData(d);
    settle();
    QStringList shown;
    for (const QLegendMarker* m : view.chartView()->curveChart()->legend()->markers())
        if (m->isVisible())
            shown << m->label();
    QCOMPARE(shown, (QStringList{QStringLiteral("mean"), QStringLiteral("band")}));
}

// A curve of one point (a learned table defined at the trained length only) has no line: its point is
// drawn. Curves of more points stay lines without point markers.
void CurveAxesTest::curveOfOnePointShowsItsPoint()
{
    CurveView view;
    QVERIFY(shown(view));
    CurveData d = curves(2);
    d.series[1].x.resize(1);
    d.series[1].y.resize(1);
    view.setData(d);
    settle();
    QList<const QLineSeries*> lines;
    for (const QAbstractSeries* s : view.chartView()->curveChart()->series())
        if (const auto* line = qobject_cast<const QLineSeries*>(s))
            lines << line;
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[1]->count(), 1);
    QVERIFY(lines[1]->pointsVisible());
    QVERIFY(lines[0]->count() > 1);
    QVERIFY(!lines[0]->pointsVisible());
}

// The curves beside a lesson at 1280 x 720 (a column some 200 px wide), distances 1 to 10⁶ on a log axis:
// Qt Charts elided the x axis title to "relative distance r (posi…" and the decades' labels to "10…".
// The title takes two lines and the ticks every second (or third) decade, each label whole; a wide
// chart keeps a label at every decade.
void CurveAxesTest::narrowChartKeepsItsAxisTextsWhole()
{
    CurveData d = curves(1);
    d.x_label = QStringLiteral("relative distance r (positions)");
    d.series[0].x.clear();
    d.series[0].y.clear();
    for (double r = 1; r <= 1e6; r *= 1.5) {
        d.series[0].x.push_back(r);
        d.series[0].y.push_back(1.0 / (1.0 + std::log(r)));
    }
    d.markers.clear();
    const auto baseAt = [&](int width, QStringList& texts) {
        CurveView view;
        view.resize(width, 420);
        view.setData(d);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return 0.0;
        settle();
        texts = visible_texts(view.chartView()->curveChart()->scene());
        const auto* axis =
            qobject_cast<QLogValueAxis*>(view.chartView()->curveChart()->axes(Qt::Horizontal).value(0));
        return axis ? axis->base() : 0.0;
    };
    QStringList texts;
    const double narrow = baseAt(230, texts);
    QString all = texts.join(QLatin1Char('|'));
    for (const QChar brk : {QChar(u'\n'), QChar(QChar::LineSeparator), QChar(QChar::ParagraphSeparator)})
        all.replace(brk, QLatin1Char(' '));
    for (const QString& text : texts)
        QVERIFY2(!text.contains(QStringLiteral("...")) && !text.contains(QChar(0x2026)), qPrintable(all));
    QVERIFY2(all.contains(d.x_label), qPrintable(all));
    QVERIFY2(narrow > 10.0, qPrintable(QString::number(narrow)));
    QCOMPARE(baseAt(1000, texts), 10.0);
}

#include "test_curve_axes.moc"
