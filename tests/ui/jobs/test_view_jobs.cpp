// SPDX-License-Identifier: GPL-3.0-or-later
// The views' jobs under QT_QPA_PLATFORM=offscreen: only what a view shows is computed, ALiBi's per-head
// panels, the curves (envelopes, T5's steps, overlays), the RoPE-only views under other methods, and a
// hidden view computed only once shown (the job tracker itself: test_job_tracker.cpp).
#include "gui_support.h"
#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "methods/alibi/alibi.h"
#include "methods/t5/t5_buckets.h"
#include "model/scenario_model.h"
#include "views/spectrum_view.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class ViewJobsTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void heatmapJobComputesOnlyWhatIsShown()
    {
        Scenario s;
        s.seq_len = 1'000'000; // a million positions: never N x N, only the view's pixels
        ViewSettings v;
        v.pixel_width = 200;
        v.pixel_height = 150;
        const HeatmapData d = heatmap_job(s, v);
        QCOMPARE(d.panels.size(), 1);
        // The view's panel area is 200 x 150: the N x N heatmap keeps its square aspect there, as the
        // view paints it (heatmap_grid), so 150 x 150 pixels.
        QCOMPARE(d.panels.front().matrix.values.rows(), 150);
        QCOMPARE(d.panels.front().matrix.values.cols(), 150);
        QVERIFY(d.panels.front().matrix.row_index.back() > 990'000);
        // A zoomed window asks for exactly those positions.
        v.row0 = 1000;
        v.col0 = 2000;
        v.rows = v.cols = 50;
        const HeatmapData z = heatmap_job(s, v);
        QCOMPARE(z.panels.front().matrix.values.rows(), 50);
        QCOMPARE(z.panels.front().matrix.row_index.front(), std::int64_t{1000});
        QCOMPARE(z.panels.front().matrix.col_index.front(), std::int64_t{2000});
    }

    void perHeadSmallMultiplesCarryTheSlope()
    {
        Scenario s;
        s.method = Method::ALiBi;
        s.params<AlibiParams>().num_heads = 8;
        ViewSettings v;
        v.matrix_kind = MatrixKind::Bias;
        const HeatmapData d = heatmap_job(s, v);
        QCOMPARE(d.panels.size(), 8);
        // Slopes from core (alibi_scaled_slopes); for 8 heads 2^-1 .. 2^-8 (Press et al. 2022, sec. 3).
        const std::vector<double> slopes = alibi_scaled_slopes(s.params<AlibiParams>());
        for (int h = 0; h < 8; ++h)
            QVERIFY2(d.panels[h].label.endsWith(QStringLiteral("=") +
                                                QString::number(slopes[static_cast<std::size_t>(h)], 'g', 3)),
                     qPrintable(d.panels[h].label));
        QVERIFY(d.panels[7].label.endsWith(QStringLiteral("=0.00391"))); // 2^-8 to 3 digits
        // More heads than panels: sampled, first and last always shown.
        s.params<AlibiParams>().num_heads = 64;
        v.max_panels = 16;
        const HeatmapData many = heatmap_job(s, v);
        QCOMPARE(many.panels.size(), 16);
        QVERIFY(many.title.contains(QStringLiteral("16")) && many.title.contains(QStringLiteral("64")));
    }

    void curveJobs()
    {
        Scenario s; // RoPE
        ViewSettings v;
        v.max_distance = 1'000'000;
        v.curve_points = 500;
        const CurveData c = curve_job(s, v);
        QVERIFY(c.log_x);
        QVERIFY(c.series.size() >= 2);
        QCOMPARE(c.series.front().x.back(), 1e6);
        // An envelope: at most the min and the max of each of the <= 501 bins.
        QVERIFY(c.series.front().envelope);
        QVERIFY(c.series.front().x.size() <= 2 * 501);
        QVERIFY(c.series.front().x.front() > 0.0); // log axis: r = 0 dropped
        // T5: the step plot is core's bucket function at each distance.
        s.method = Method::T5;
        v.max_distance = 300;
        const CurveData t = curve_job(s, v);
        QCOMPARE(t.series.size(), 2); // bidirectional: both sides
        QVERIFY(t.series.front().step);
        for (std::size_t i = 0; i < t.series.front().x.size(); ++i)
            QCOMPARE(t.series.front().y[i],
                     double(t5_relative_position_bucket(static_cast<std::int64_t>(t.series.front().x[i]),
                                                        true, 32, 128)));
        // Overlay: another method's logit curve joins, dashed.
        s.method = Method::RoPE;
        v.overlay = {Method::ALiBi, Method::Sinusoidal};
        const CurveData o = curve_job(s, v);
        QCOMPARE(
            std::count_if(o.series.begin(), o.series.end(), [](const CurveSeries& x) { return x.dashed; }),
            2);
    }

    void rotationAndSpectrumExplainOtherMethods()
    {
        Scenario s;
        s.method = Method::T5;
        const RotationData r = rotation_job(s, ViewSettings{});
        QVERIFY(r.theta.empty());
        QVERIFY(r.title.contains(QStringLiteral("RoPE")));
        const SpectrumData sp = spectrum_job(s, ViewSettings{});
        QVERIFY(sp.pair.empty());
        QVERIFY(sp.title.contains(QStringLiteral("RoPE")));
        s.method = Method::RoPE;
        const RotationData rr = rotation_job(s, ViewSettings{});
        QCOMPARE(rr.theta.size(), std::size_t{64});
        QCOMPARE(rr.shown_pairs, (std::vector<int>{0, 16, 32, 63}));
    }

    void hiddenViewIsComputedOnlyOnceShown()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("hidden"));
        w->setComputeHiddenViews(false);
        w->dock(ViewKind::Spectrum)->hide();
        QVERIFY(waitIdle(w->jobs()));
        const int spectrum = static_cast<int>(ViewKind::Spectrum);
        const quint64 before = w->jobs()->generation(spectrum);
        QSignalSpy delivered(w->jobs(), &JobTracker::resultDelivered);
        QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 5000.0));
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(!delivered.isEmpty()); // the visible views follow the change
        for (const QList<QVariant>& d : delivered)
            QVERIFY(d.front().toInt() != spectrum);
        QCOMPARE(w->jobs()->generation(spectrum), before);

        delivered.clear();
        w->setComputeHiddenViews(true); // enabled again: computed with the current scenario
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(w->jobs()->generation(spectrum) > before);
        // Other hidden views may be delivered too, in any order; the spectrum's last delivery is current.
        QStringList order;
        quint64 last = 0;
        for (const QList<QVariant>& d : delivered) {
            order << QString::number(d.front().toInt());
            if (d.front().toInt() == spectrum)
                last = d.back().toULongLong();
        }
        QVERIFY2(last != 0, qPrintable(order.join(QLatin1Char(' '))));
        QCOMPARE(last, w->jobs()->generation(spectrum));
        QVERIFY2(w->spectrumView()->data().title.contains(QStringLiteral("θ 5000")),
                 qPrintable(w->spectrumView()->data().title));
    }
};

QTEST_MAIN(ViewJobsTest)
#include "test_view_jobs.moc"
