// SPDX-License-Identifier: GPL-3.0-or-later
// View > Show Timings (compute and paint milliseconds per view, measured), the point sample
// beside the exact block mean, and heatmaps of kinds that are not linear in the cells saying what a
// pixel shows.
#include "gui_support.h"
#include "jobs/view_jobs.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/heatmap_view.h"
#include "window/main_window.h"
#include "window/view_timings.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

Scenario rope_scenario(std::int64_t n)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = n;
    return s;
}

ViewSettings small_view(MatrixKind kind)
{
    ViewSettings v;
    v.matrix_kind = kind;
    v.pixel_width = 256;
    v.pixel_height = 256;
    return v;
}

} // namespace

class TimingsTest : public QObject
{
    Q_OBJECT
private slots:
    void showTimingsLabelHasMeasuredNumbersAfterAJob()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        {
            auto w = test::showMainWindow(ini);
            auto* action = w->findChild<QAction*>(QStringLiteral("showTimingsAction"));
            QVERIFY(action && action->isCheckable() && !action->isChecked());
            QLabel* label = w->timingsLabel();
            QVERIFY(label && label->isHidden());
            action->trigger();
            QVERIFY(w->showTimings() && !label->isHidden());
            // A slider move: a new job per view; its run time and the repaint after it are measured.
            const quint64 paintsBefore = w->viewTimings()->timing(ViewKind::Heatmap).paints;
            QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 20000.0));
            QVERIFY(test::waitIdle(w->jobs()));
            QTRY_VERIFY(w->viewTimings()->timing(ViewKind::Heatmap).paintsSinceDelivery > 0);
            const ViewTimings::Timing& t = w->viewTimings()->timing(ViewKind::Heatmap);
            QVERIFY(t.paints > paintsBefore);
            QVERIFY2(t.computeMs >= 0 && t.paintMs >= 0, qPrintable(label->text()));
            QCOMPARE(t.computeMs, w->jobs()->lastRunMs(static_cast<int>(ViewKind::Heatmap)));
            // "Heatmap: compute 12 ms · paint 3.4 ms" for each visible view.
            const QRegularExpression numbers(
                QStringLiteral("compute [0-9]+(\\.[0-9])? ms · paint [0-9]+(\\.[0-9])? ms"));
            QVERIFY2(numbers.match(label->text()).hasMatch(), qPrintable(label->text()));
            QVERIFY2(label->text().contains(w->dock(ViewKind::Heatmap)->windowTitle()),
                     qPrintable(label->text()));
        }
        // Persisted like the other view settings; off hides the label again.
        QVERIFY(Settings(ini).showTimings());
        auto w = test::showMainWindow(ini);
        QVERIFY(w->showTimings() && !w->timingsLabel()->isHidden());
        w->setShowTimings(false);
        QVERIFY(w->timingsLabel()->isHidden());
        QVERIFY(!Settings(ini).showTimings());
    }

    void jobTrackerMeasuresRunTimeOnTheWorker()
    {
        JobTracker jobs;
        QCOMPARE(jobs.lastRunMs(3), -1.0);
        double runMs = -1, deliverMs = -1;
        connect(&jobs, &JobTracker::resultTimed, this, [&](int slot, double run, double deliver) {
            QCOMPARE(slot, 3);
            runMs = run;
            deliverMs = deliver;
        });
        jobs.submit(
            3,
            [](const JobControl&) {
                QThread::msleep(40);
                return 1;
            },
            [](int) { QThread::msleep(20); });
        QVERIFY(test::waitIdle(&jobs));
        // Sleeps are lower bounds of wall time (upper bounds would fail on a loaded machine).
        QVERIFY2(runMs >= 39.0, qPrintable(QString::number(runMs)));
        QVERIFY2(deliverMs >= 19.0, qPrintable(QString::number(deliverMs)));
        QCOMPARE(jobs.lastRunMs(3), runMs);
    }

    void pointSampleBesideMeanGivesTwoLabelledPanels()
    {
        // RoPE logits of 4096 positions on 256 x 128 pixels: the block means are exact (bilinear), the
        // point sample of the same window aliases the fast pairs, so the two panels differ.
        ViewSettings v = small_view(MatrixKind::Logits);
        v.show_point_sample = true;
        const HeatmapData data = heatmap_job(rope_scenario(4096), v);
        QCOMPARE(data.panels.size(), 2);
        QCOMPARE(data.panels[0].matrix.sampling, MatrixSampling::BlockMean);
        QCOMPARE(data.panels[1].matrix.sampling, MatrixSampling::Point);
        QCOMPARE(data.panels[0].matrix.values.rows(), data.panels[1].matrix.values.rows());
        QCOMPARE(data.panels[0].matrix.values.cols(), data.panels[1].matrix.values.cols());
        QVERIFY(data.panels[0].label.contains(QStringLiteral("mean")));
        QVERIFY(data.panels[1].label.contains(QStringLiteral("point sample")));
        QVERIFY(!data.per_panel_scales); // one scale: the panels compare cell for cell
        QVERIFY((data.panels[0].matrix.values - data.panels[1].matrix.values).cwiseAbs().maxCoeff() > 1e-3);
        // Off: one panel, the block means.
        const HeatmapData off = heatmap_job(rope_scenario(4096), small_view(MatrixKind::Logits));
        QCOMPARE(off.panels.size(), 1);
        QVERIFY(off.sampling_note.isEmpty());

        // The View menu's action does the same in the main window.
        QTemporaryDir dir;
        auto w = test::showMainWindow(dir.filePath(QStringLiteral("settings.ini")));
        QVERIFY(w->model()->setValue(param("seq_len"), 100000.0));
        QVERIFY(test::waitIdle(w->jobs()));
        QCOMPARE(w->heatmapView()->data().panels.size(), 1);
        auto* beside = w->findChild<QAction*>(QStringLiteral("pointSampleBesideMeanAction"));
        QVERIFY(beside);
        beside->trigger();
        QVERIFY(test::waitIdle(w->jobs()));
        const HeatmapData& shown = w->heatmapView()->data();
        QCOMPARE(shown.panels.size(), 2);
        QCOMPARE(shown.panels[0].matrix.sampling, MatrixSampling::BlockMean);
        QCOMPARE(shown.panels[1].matrix.sampling, MatrixSampling::Point);
    }

    void nonLinearKindsSayWhatAPixelShows()
    {
        // Softmax weights are not linear in the logits: no block mean, a point sample, and the view says so.
        const Scenario s = rope_scenario(4096);
        QVERIFY(!block_mean_supported(s, MatrixKind::Weights));
        const HeatmapData weights = heatmap_job(s, small_view(MatrixKind::Weights));
        QCOMPARE(weights.panels.front().matrix.sampling, MatrixSampling::Point);
        QVERIFY2(weights.sampling_note.contains(QStringLiteral("not linear")),
                 qPrintable(weights.sampling_note));
        HeatmapView view;
        view.setData(weights);
        QVERIFY2(view.note().contains(weights.sampling_note), qPrintable(view.note()));
        // The toggle has nothing to compare there, and says so instead of a second panel.
        ViewSettings beside = small_view(MatrixKind::Weights);
        beside.show_point_sample = true;
        const HeatmapData one = heatmap_job(s, beside);
        QCOMPARE(one.panels.size(), 1);
        QVERIFY(one.sampling_note.contains(QStringLiteral("no point sample beside it")));
        // Zoomed in to one cell per pixel: exact, and said so.
        ViewSettings zoom = small_view(MatrixKind::Weights);
        zoom.row0 = 1000;
        zoom.col0 = 900;
        zoom.rows = 200;
        zoom.cols = 200;
        const HeatmapData exact = heatmap_job(s, zoom);
        QCOMPARE(exact.panels.front().matrix.sampling, MatrixSampling::Exact);
        QVERIFY2(exact.sampling_note.startsWith(QStringLiteral("exact")), qPrintable(exact.sampling_note));
        // A kind with exact block means gets no such line.
        QVERIFY(heatmap_job(s, small_view(MatrixKind::Logits)).sampling_note.isEmpty());
        // Logits that are linear but averaged only for position-independent content (DeBERTa with
        // random content) say that, not "not linear".
        Scenario deberta = s;
        deberta.method = Method::DeBERTa;
        deberta.content.kind = ContentKind::Random;
        QVERIFY(!block_mean_supported(deberta, MatrixKind::Logits));
        const HeatmapData random = heatmap_job(deberta, small_view(MatrixKind::Logits));
        QCOMPARE(random.panels.front().matrix.sampling, MatrixSampling::Point);
        QVERIFY2(
            random.sampling_note.contains(QStringLiteral("averaged only for position-independent content")),
            qPrintable(random.sampling_note));
        QVERIFY2(!random.sampling_note.contains(QStringLiteral("not linear")),
                 qPrintable(random.sampling_note));
        // The label on screen, in the main window at 1920x1080.
        QTemporaryDir dir;
        auto w = test::showMainWindow(dir, QStringLiteral("settings"), {.size = {1920, 1080}});
        QVERIFY(w->model()->setValue(param("seq_len"), 4096.0));
        ViewSettings v = w->viewSettings();
        v.matrix_kind = MatrixKind::Weights;
        w->setViewSettings(v);
        QVERIFY(test::waitIdle(w->jobs()));
        QVERIFY2(w->heatmapView()->note().contains(QStringLiteral("not linear")),
                 qPrintable(w->heatmapView()->note()));
    }
};

QTEST_MAIN(TimingsTest)
#include "test_timings.moc"
