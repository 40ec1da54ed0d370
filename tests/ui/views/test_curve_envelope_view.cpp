// SPDX-License-Identifier: GPL-3.0-or-later
// The Curves view at huge N: every method's logit curve (its own, or overlaid) is the exact per-bin
// min/max envelope over every integer distance, not point samples, and the crosshair reads the exact
// logit at the integer r under the cursor.
// Reference: compute_matrix(Logits) over the whole row of the last query, one exact cell per key (what
// `posatlas compute matrix` prints). Tolerance: 1e-9 * max(1, |value|) (double; the envelope's windows
// and the reference's window differ only in width); for the curves the view sums in float32
// (sinusoidal and Transformer-XL: SinusoidSum with Precision::Single, whose own bound
// 36 * 2^-24 * sum_k |weights_k| core's SinusoidSums.SinglePrecisionWithinTheStatedBound and
// LogitEnvelope.SinglePrecisionCurvesWithinTheSinusoidBound test) 1e-5 of the curve's range. The
// crosshair reads double values: 1e-9 there.
#include "jobs/curve_drawing.h"
#include "jobs/view_jobs.h"
#include "views/curve_chart.h"
#include "views/figure_style.h"

#include "analysis/curve_envelope.h"
#include "compute/attention_logits.h"
#include "methods/registry.h"

#include <QApplication>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

double tol(double v)
{
    return 1e-9 * std::max(1.0, std::abs(v));
}

Scenario scenario_of(const QString& method, std::int64_t n)
{
    Scenario s;
    s.method = *parse_method(method.toStdString());
    s.seq_len = n;
    return s;
}

std::vector<double> exact_row(const Scenario& s)
{
    // In windows of 50 000 keys (a 10^6 x 512 block would exceed kMaxMatrixElements), exact cells.
    const std::int64_t query = s.seq_len - 1;
    std::vector<double> byDistance(static_cast<std::size_t>(s.seq_len));
    for (std::int64_t col0 = 0; col0 <= query; col0 += 50000) {
        MatrixWindow w;
        w.row0 = query;
        w.rows = 1;
        w.col0 = col0;
        w.cols = std::min<std::int64_t>(50000, query + 1 - col0);
        const MatrixResult m = compute_matrix(s, MatrixKind::Logits, w);
        for (std::int64_t c = 0; c < w.cols; ++c)
            byDistance[static_cast<std::size_t>(query - (col0 + c))] = m.values(0, c);
    }
    return byDistance;
}

// Checks a drawn series against the exact curve: each bin (the distances from one x of the series to
// the next) shows exactly the min and max of the curve over its integers. Returns the number of bins.
int checkEnvelope(const CurveSeries& series, const std::vector<double>& exact, std::int64_t maxR,
                  Method method)
{
    const bool single = method == Method::Sinusoidal || method == Method::TransformerXL;
    const double range =
        *std::max_element(exact.begin(), exact.end()) - *std::min_element(exact.begin(), exact.end());
    const auto tolerance = [&](double v) { return single ? std::max(tol(v), 1e-5 * range) : tol(v); };
    if (!series.envelope) {
        QTest::qFail("not an envelope", __FILE__, __LINE__);
        return 0;
    }
    int bins = 0, failures = 0;
    std::size_t i = 0;
    while (i < series.x.size()) {
        const double x = series.x[i];
        double lo = series.y[i], hi = series.y[i];
        std::size_t k = i + 1;
        while (k < series.x.size() && series.x[k] == x) {
            lo = std::min(lo, series.y[k]);
            hi = std::max(hi, series.y[k]);
            ++k;
        }
        const auto first = static_cast<std::int64_t>(x);
        const std::int64_t last = k < series.x.size() ? static_cast<std::int64_t>(series.x[k]) : maxR + 1;
        double elo = std::numeric_limits<double>::infinity(), ehi = -elo;
        for (std::int64_t r = first; r < last; ++r) {
            elo = std::min(elo, exact[static_cast<std::size_t>(r)]);
            ehi = std::max(ehi, exact[static_cast<std::size_t>(r)]);
        }
        if (std::abs(lo - elo) > tolerance(elo) || std::abs(hi - ehi) > tolerance(ehi)) {
            if (++failures <= 5)
                qWarning("bin [%lld, %lld): drawn [%.12g, %.12g], exact [%.12g, %.12g]",
                         static_cast<long long>(first), static_cast<long long>(last), lo, hi, elo, ehi);
        }
        ++bins;
        i = k;
    }
    if (failures)
        QTest::qFail(qPrintable(QStringLiteral("%1 bins differ from the exact extremes").arg(failures)),
                     __FILE__, __LINE__);
    return bins;
}

} // namespace

class CurveEnvelopeViewTest : public QObject
{
    Q_OBJECT

private slots:
    void logitCurvesAtHugeNAreExactEnvelopes_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<bool>("logX");
        QTest::newRow("sinusoidal N=3e5 log x") << QStringLiteral("sinusoidal") << qint64(300000) << true;
        QTest::newRow("sinusoidal N=2e5 linear x") << QStringLiteral("sinusoidal") << qint64(200000) << false;
        QTest::newRow("xpos N=3e5 log x") << QStringLiteral("xpos") << qint64(300000) << true;
        QTest::newRow("transformer-xl N=2e5 log x")
            << QStringLiteral("transformer-xl") << qint64(200000) << true;
        QTest::newRow("deberta N=2e5 log x") << QStringLiteral("deberta") << qint64(200000) << true;
    }

    void logitCurvesAtHugeNAreExactEnvelopes()
    {
        QFETCH(QString, method);
        QFETCH(qint64, n);
        QFETCH(bool, logX);
        const Scenario s = scenario_of(method, n);
        ViewSettings v;
        v.log_x = logX;
        // Through the view's job, as the Curves view gets it. DeBERTa's own curve is its bucket function:
        // its logit is drawn once another method is overlaid.
        if (s.method == Method::DeBERTa)
            v.overlay = {Method::ALiBi};
        const CurveData data = curve_job(s, v);
        QVERIFY(!data.series.isEmpty());
        const CurveSeries& curve = data.series.front();
        const std::vector<double> exact = exact_row(s);
        const int bins = checkEnvelope(curve, exact, n - 1, s.method);
        // One bin per point of a wide chart, not per distance: at N = 3 x 10^5 a bin covers hundreds of
        // distances at the far end, which is where point samples lose the peaks. (10^6 behaves the same
        // and costs three times as much; the suite also runs under AddressSanitizer.)
        QVERIFY(bins > 100 && bins <= v.curve_points);
        // The crosshair: the exact logit at the integer nearest the cursor's x.
        for (double x : {1.0, 2.4, 77.6, 12345.5, 654321.2, static_cast<double>(n - 1)}) {
            if (x > n - 1)
                continue;
            const double e = exact[static_cast<std::size_t>(std::lround(x))];
            QVERIFY(curve.value_at);
            QVERIFY2(std::abs(curve.value_at(x) - e) <= tol(e), qPrintable(QString::number(x)));
        }
        QVERIFY(std::isnan(curve.value_at(static_cast<double>(n) + 5)));
        // The chart's readout shows that value (x = 77.6 reads r = 78), as the chart formats numbers.
        CurveChart chart;
        chart.setCurveData(data);
        const QString readout = chart.readoutAt(77.6);
        QVERIFY2(readout.contains(format_number(exact[78])),
                 qPrintable(readout + QStringLiteral(" / ") + format_number(exact[78])));
    }

    // The automatic range (ViewSettings::max_distance = 0): four times the model's context, or N - 1
    // when the sequence reaches further (its farthest distance; none beyond occurs in it). The RoPE
    // series answers at its last distance and not one past it; every series' x ends in its last bin.
    void automaticRangeIsFourContextsOrTheSequence_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("expected");
        Scenario rope; // its context is the target length (no scaling: the trained length)
        const qint64 context = descriptor(rope.method).context_length(rope);
        QTest::newRow("rope N=1000") << QStringLiteral("rope") << qint64(1000) << 4 * context;
        QTest::newRow("rope N=2 context") << QStringLiteral("rope") << 2 * context << 4 * context;
        QTest::newRow("rope N=10^6") << QStringLiteral("rope") << qint64(1000000) << qint64(999999);
        QTest::newRow("t5 N=4096") << QStringLiteral("t5") << qint64(4096) << qint64(4095); // context 128
        QTest::newRow("t5 N=100") << QStringLiteral("t5") << qint64(100) << qint64(512);
    }

    void automaticRangeIsFourContextsOrTheSequence()
    {
        QFETCH(QString, method);
        QFETCH(qint64, n);
        QFETCH(qint64, expected);
        const Scenario s = scenario_of(method, n);
        const CurveData data = curve_job(s, ViewSettings{});
        QVERIFY(!data.series.isEmpty());
        double x_max = 0;
        for (const CurveSeries& series : data.series) {
            if (s.method == Method::RoPE) { // RoPE's readout knows the range (T5's reads any bucket)
                QVERIFY(series.value_at);
                QVERIFY2(std::isfinite(series.value_at(static_cast<double>(expected))),
                         qPrintable(series.name));
                QVERIFY2(std::isnan(series.value_at(static_cast<double>(expected + 1))),
                         qPrintable(series.name));
            }
            for (double x : series.x)
                x_max = std::max(x_max, x);
        }
        QVERIFY2(x_max <= static_cast<double>(expected) && x_max >= 0.9 * static_cast<double>(expected),
                 qPrintable(QString::number(x_max)));
    }

    // The chart gets at most four points per pixel column of its plot (the job decimates them, core's
    // min_max_decimation), and the readout still reads the whole curve: a million points, the readout at
    // an integer x exactly y[x] (the sample itself, no interpolation: tolerance 0 in its printed form).
    void millionPointCurveReachesTheChartAsFourPointsPerPixelColumn()
    {
        CurveChart* chart = new CurveChart;
        CurveChartView view(chart);
        view.resize(820, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        CurveData data;
        data.x_label = QStringLiteral("r");
        CurveSeries series;
        series.name = QStringLiteral("oscillation");
        const std::size_t n = 1'000'000;
        for (std::size_t i = 0; i < n; ++i) {
            const double x = static_cast<double>(i);
            series.x.push_back(x);
            series.y.push_back(std::exp(-x / 3e5) * std::cos(0.37 * x) + 1e-3 * std::sin(1e-4 * x));
        }
        data.series.push_back(series);
        series.name = QStringLiteral("dashed copy");
        series.dashed = true;
        data.series.push_back(series);
        // As in the main window: the data's plot area (its tick labels, its legend) is known once it is
        // shown; the curves are then computed for it (here decimated as curve_job does on its worker).
        chart->setCurveData(data);
        QApplication::processEvents();
        const QRectF plot = chart->plotPixels();
        QVERIFY(plot.width() > 100);
        decimate_for_plot(data, plot.left(), plot.width());
        chart->setCurveData(data);
        QApplication::processEvents();
        QVERIFY(chart->showsDrawnPoints());
        const auto columns = static_cast<qsizetype>(std::floor(plot.right()) - std::floor(plot.left()) + 1);
        QCOMPARE(chart->series().size(), 2);
        for (qsizetype k = 0; k < 2; ++k) { // solid (a QLineSeries) and dashed (an item of its own)
            const QList<QPointF> drawn = chart->drawnPoints(k);
            QVERIFY2(drawn.size() > columns && drawn.size() <= 4 * columns,
                     qPrintable(QStringLiteral("%1 points for %2 columns").arg(drawn.size()).arg(columns)));
            // The drawn points are the curve's own samples, in order: the first and the last among them.
            QCOMPARE(drawn.front(), QPointF(0.0, data.series[0].y.front()));
            QCOMPARE(drawn.back(), QPointF(double(n - 1), data.series[0].y.back()));
            for (qsizetype i = 1; i < drawn.size(); ++i)
                QVERIFY(drawn[i - 1].x() < drawn[i].x() || drawn[i - 1].x() == drawn[i].x());
        }
        for (const std::size_t i : {std::size_t{1}, std::size_t{4321}, std::size_t{777777}, n - 1}) {
            const QString readout = chart->readoutAt(static_cast<double>(i));
            QVERIFY2(readout.contains(format_number(data.series[0].y[i])), qPrintable(readout));
        }

        // A plot of another width (a resized dock, a figure exported at its own size) draws every point
        // until the job has decimated for it.
        view.resize(600, 480);
        QApplication::processEvents();
        QVERIFY(!chart->showsDrawnPoints());
        QCOMPARE(chart->drawnPoints(0).size(), qsizetype(n));
    }

    // Through the job: the RoPE decay curves at N = 10^6 for a chart's plot area reach it as at most four
    // points per pixel column, and the readout is the curve's exact value at the integer under the cursor
    // (the series' value_at, which core computes for that one distance), not a decimated sample.
    void curveJobDecimatesForThePlotArea()
    {
        CurveChart* chart = new CurveChart;
        CurveChartView view(chart);
        view.resize(820, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QApplication::processEvents();
        Scenario s = scenario_of(QStringLiteral("rope"), 1'000'000);
        ViewSettings v;
        for (const bool logX : {true, false}) {
            v.log_x = logX;
            v.curve_plot_width = 0.0;
            chart->setLogX(logX);
            chart->setCurveData(curve_job(s, v)); // every point, until the plot area is known
            QApplication::processEvents();
            QVERIFY(!chart->showsDrawnPoints());
            const QRectF plot = chart->plotPixels();
            v.curve_plot_left = plot.left();
            v.curve_plot_width = plot.width();
            const CurveData data = curve_job(s, v);
            QVERIFY(data.drawn);
            chart->setCurveData(data);
            QApplication::processEvents();
            QVERIFY(chart->showsDrawnPoints());
            const auto columns =
                static_cast<qsizetype>(std::floor(plot.right()) - std::floor(plot.left()) + 1);
            QVERIFY(!chart->series().isEmpty());
            for (qsizetype k = 0; k < chart->series().size(); ++k) {
                const qsizetype count = chart->drawnPoints(k).size();
                QVERIFY2(count > 0 && count <= 4 * columns,
                         qPrintable(QStringLiteral("%1 points for %2 columns").arg(count).arg(columns)));
            }
            const QString readout = chart->readoutAt(654321.3);
            for (const CurveSeries& series : data.series)
                QVERIFY2(readout.contains(format_number(series.value_at(654321.0))), qPrintable(readout));
        }
    }

    void overlaidMethodsAreEnvelopesToo()
    {
        Scenario s; // RoPE, its own decay curves replaced by logits once another method is overlaid
        s.seq_len = 100000;
        ViewSettings v;
        v.overlay = {Method::Sinusoidal, Method::CoPE};
        const CurveData data = curve_job(s, v);
        QCOMPARE(data.series.size(), 3);
        for (qsizetype k = 0; k < data.series.size(); ++k) {
            Scenario o = s;
            o.method = k == 0 ? Method::RoPE : v.overlay[static_cast<std::size_t>(k - 1)];
            o.head = 0;
            const std::vector<double> exact = exact_row(o);
            QVERIFY(checkEnvelope(data.series[k], exact, s.seq_len - 1, o.method) > 100);
            const double e = exact[4321];
            QVERIFY(std::abs(data.series[k].value_at(4321.3) - e) <= tol(e));
        }
    }
};

QTEST_MAIN(CurveEnvelopeViewTest)
#include "test_curve_envelope_view.moc"
