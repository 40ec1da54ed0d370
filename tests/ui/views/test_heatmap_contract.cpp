// SPDX-License-Identifier: GPL-3.0-or-later
// The contract between the heatmap's job and its view: the job computes every panel at the pixels the
// view gives it on screen (one grid, heatmap_grid, for both), its whole-matrix colour scale follows the
// data a file holds, not only its path, and one slider move validates the scenario once for all views.
#include "gui_support.h"
#include "jobs/heatmap_grid.h"
#include "jobs/view_jobs.h"
#include "model/scenario_model.h"
#include "scenario/validation_count.h"
#include "views/heatmap_view.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// Lays `data` out in `view` and checks that each panel's matrix has the pixels of its place on screen,
// within one block (one cell: the job rounds the panel's device pixels up, the painter draws the
// heatmap at its exact size): the job's grid, with the gaps and caption band the view measured
// (ViewSettings::panel_chrome), is the painter's.
void checkPanelsMatchScreen(HeatmapView& view, const HeatmapData& data)
{
    view.setData(data);
    const QList<QRectF> rects = view.heatmapRects(QRectF(view.rect()), {});
    QCOMPARE(rects.size(), data.panels.size());
    QVERIFY(rects.size() > 1);
    const double dpr = view.devicePixelRatioF();
    for (qsizetype i = 0; i < rects.size(); ++i) {
        const MatrixResult& m = data.panels[i].matrix;
        const double w = rects[i].width() * dpr, h = rects[i].height() * dpr;
        QVERIFY2(std::abs(static_cast<double>(m.cols()) - w) <= 1.0 &&
                     std::abs(static_cast<double>(m.rows()) - h) <= 1.0,
                 qPrintable(QStringLiteral("panel %1: %2 x %3 cells for %4 x %5 pixels")
                                .arg(i)
                                .arg(m.rows())
                                .arg(m.cols())
                                .arg(h)
                                .arg(w)));
    }
}

// What the view controller does after a resize (updateHeatmapPixelSize): the view's size and its
// panels' measured chrome in ViewSettings, then the job.
void reportSize(const HeatmapView& view, ViewSettings& v)
{
    const QSize px = view.heatmapPixelSize();
    v.pixel_width = px.width();
    v.pixel_height = px.height();
    v.panel_chrome = view.heatmapPanelChrome();
}

HeatmapData computeAfterResize(HeatmapView& view, const Scenario& s, ViewSettings& v, QSize from, QSize to)
{
    view.resize(from);
    view.setData(heatmap_job(s, v));
    reportSize(view, v);
    view.setData(heatmap_job(s, v)); // the view now shows its own panels at its first size
    view.resize(to);
    reportSize(view, v);
    return heatmap_job(s, v);
}

// A learned position table of `rows` x 4 whose values are `scale` x (row + column) / 100, three decimals
// each (scales 1 to 9 give files of one size: only their bytes tell them apart).
void writeTable(const QString& path, int rows, double scale)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    for (int r = 0; r < rows; ++r) {
        QStringList cells;
        for (int c = 0; c < 4; ++c)
            cells << QString::number(scale * (r + c) / 100.0, 'f', 3);
        f.write(cells.join(QLatin1Char(',')).toUtf8() + '\n');
    }
}

} // namespace

class HeatmapContractTest : public QObject
{
    Q_OBJECT
private slots:
    void gridPicksTheLargestPanels()
    {
        // 8 panels in a square: 3 x 3 (the job's old ceil(sqrt(n)) agrees here), each a third.
        HeatmapGrid g = heatmap_grid(8, 900, 900);
        QCOMPARE(g.columns, 3);
        QCOMPARE(g.rows, 3);
        QCOMPARE(g.panel_width, 300.0);
        // 8 panels in a wide strip: 4 x 2 (ceil(sqrt(8)) = 3 columns would give 1600 / 3 x 900 / 3).
        g = heatmap_grid(8, 1600, 700);
        QCOMPARE(g.columns, 4);
        QCOMPARE(g.panel_height, 350.0);
        QCOMPARE(panel_pixel_budget(g).width, std::int64_t(350));
        // Chrome comes off each panel's share.
        g = heatmap_grid(2, 820, 400, PanelChrome{20, 0, 0, 10});
        QCOMPARE(g.columns, 2);
        QCOMPARE(g.panel_width, 390.0);
        QCOMPARE(g.panel_height, 390.0);
    }

    void smallMultiplesAfterResizeHaveTheirScreenPixels()
    {
        // ALiBi's 8 heads as small multiples, the view enlarged: each head's matrix has the pixels of its
        // panel, not a third of them.
        Scenario s;
        s.method = Method::ALiBi;
        s.seq_len = 4096;
        ViewSettings v;
        HeatmapView view;
        checkPanelsMatchScreen(view, computeAfterResize(view, s, v, {500, 400}, {1200, 900}));
    }

    void comparedMethodsAfterResizeHaveTheirScreenPixels()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.seq_len = 4096;
        ViewSettings v;
        v.compare = {Method::Sinusoidal, Method::RoPE, Method::ALiBi};
        HeatmapView view;
        checkPanelsMatchScreen(view, computeAfterResize(view, s, v, {500, 400}, {1400, 700}));
    }

    void pointSampleBesideMeanAfterResizeHasItsScreenPixels()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.seq_len = 4096;
        ViewSettings v;
        v.show_point_sample = true;
        HeatmapView view;
        checkPanelsMatchScreen(view, computeAfterResize(view, s, v, {500, 400}, {1300, 600}));
    }

    void wholeMatrixScaleFollowsTheFileNotItsPath()
    {
        // A zoomed heatmap's colour scale is its whole matrix's, cached across zoom steps: a table changed
        // on disk at the same path is another matrix, and the scale follows it.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("table.csv"));
        writeTable(path, 64, 1.0);
        Scenario s;
        s.method = Method::Learned;
        s.seq_len = 64;
        Field const* table = descriptor(Method::Learned).field("table_path");
        table->set(s, path.toStdString());
        ViewSettings v;
        v.matrix_kind = MatrixKind::Encoding;
        v.row0 = 8;
        v.rows = 16;
        const HeatmapData before = heatmap_job(s, v);
        QVERIFY(before.panels.front().whole);
        // (63 + 3) / 100: the largest value of the whole table.
        QCOMPARE(before.panels.front().whole->max, 0.66);

        const qint64 size = QFileInfo(path).size();
        writeTable(path, 64, 9.0); // same path, same size, new values
        QCOMPARE(QFileInfo(path).size(), size);
        const HeatmapData after = heatmap_job(s, v);
        QVERIFY(after.panels.front().whole);
        QCOMPARE(after.panels.front().matrix.max, 9.0 * (23 + 3) / 100.0); // the window is recomputed anyway
        QCOMPARE(after.panels.front().whole->max, 9.0 * 0.66);
    }

    void oneValidationPerSliderMove()
    {
        // Every view computed (hidden ones too), the four of them: a slider move validates the scenario
        // once, in the model; the jobs and the kernels they call do not check it again.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto w = showMainWindow(dir.filePath(QStringLiteral("settings.ini")));
        for (ViewKind k : kAllViewKinds)
            w->dock(k)->show();
        ScenarioModel* model = w->model();
        QVERIFY(model->setMethod(Method::RoPE));
        QVERIFY(waitIdle(w->jobs()));
        for (double theta : {20000.0, 30000.0, 50000.0}) {
            const std::int64_t before = testing::full_validation_count();
            model->beginInteractiveEdit();
            QVERIFY(model->setValue(param(Method::RoPE, "rope_theta"), theta));
            model->endInteractiveEdit();
            QVERIFY(waitIdle(w->jobs()));
            QCOMPARE(testing::full_validation_count() - before, std::int64_t(1));
        }
    }
};

QTEST_MAIN(HeatmapContractTest)
#include "test_heatmap_contract.moc"
