// SPDX-License-Identifier: GPL-3.0-or-later
// What the heatmap shows while zooming and panning is what the model computes: a cell keeps
// its colour at any zoom unless the colours are fitted to the view, a pan shows a picture where the
// old one was until the new window arrives, and a saved session holds the kind and window on screen.
#include "gui_support.h"
#include "jobs/view_jobs.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

struct Window {
    std::int64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
};

Window takeRequest(QSignalSpy& spy)
{
    const auto args = spy.takeLast();
    spy.clear();
    return {args[0].value<std::int64_t>(), args[1].value<std::int64_t>(), args[2].value<std::int64_t>(),
            args[3].value<std::int64_t>()};
}

// Centre of matrix cell (row, col) on the widget, given where the heatmap is and what it shows.
QPoint cellCentre(const HeatmapView& view, double row, double col)
{
    const QRectF heat = view.heatmapRects(QRectF(view.rect()), {}).front();
    const HeatmapView::Viewport vp = view.viewport();
    return QPointF(heat.left() + (col + 0.5 - vp.col0) / vp.cols * heat.width(),
                   heat.top() + (row + 0.5 - vp.row0) / vp.rows * heat.height())
        .toPoint();
}

QRgb expectedColour(const HeatmapView& view, double value)
{
    return colormap_table(view.colormap())[colormap_index(value, view.panelRange(0))];
}

void wheelAt(HeatmapView& view, QPointF at, int notches)
{
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, notches * 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
}

void mouse(HeatmapView& view, QEvent::Type type, QPointF at, Qt::MouseButtons buttons)
{
    QMouseEvent e(type, at, view.mapToGlobal(at), Qt::LeftButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(&view, &e);
}

} // namespace

class HeatmapZoomTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // RoPE logits over 64 positions at one pixel per cell or more: every cell exact, in the whole
    // matrix and in any window, so the same cell has the same value before and after zooming.
    static Scenario smallRope()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.seq_len = 64;
        return s;
    }

    // Shows the whole matrix, zooms in with the wheel about `at` (fractions of the heatmap) and
    // delivers what the worker computes for the requested window. Returns that window.
    static Window zoomIn(HeatmapView& view, const Scenario& s, ViewSettings v, QPointF at, int notches)
    {
        v.row0 = v.col0 = v.rows = v.cols = 0;
        view.setData(heatmap_job(s, v));
        QSignalSpy spy(&view, &HeatmapView::viewportRequested);
        const QRectF heat = view.heatmapRects(QRectF(view.rect()), {}).front();
        wheelAt(view, QPointF(heat.left() + at.x() * heat.width(), heat.top() + at.y() * heat.height()),
                notches);
        if (!spy.wait(5000))
            return {};
        const Window w = takeRequest(spy);
        v.row0 = w.row0;
        v.col0 = w.col0;
        v.rows = w.rows;
        v.cols = w.cols;
        view.setData(heatmap_job(s, v));
        return w;
    }

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void jobSendsWholeMatrixWithWindow()
    {
        // T5 bucket indices over more positions than pixels: point samples, whose indices alone put
        // the extent at N + 0.56 (the origin of windows of N + 1 positions).
        Scenario s;
        s.method = Method::T5;
        s.seq_len = 1000;
        ViewSettings v;
        v.matrix_kind = MatrixKind::Buckets;
        v.pixel_width = v.pixel_height = 640;
        const HeatmapData all = heatmap_job(s, v);
        QVERIFY(!all.panels.front().whole); // the matrix is the whole matrix
        QCOMPARE(all.window.rows, std::int64_t(1000));
        QCOMPARE(all.whole.cols, std::int64_t(1000));
        HeatmapView view;
        view.resize(760, 640);
        view.setData(all);
        QCOMPARE(view.viewport().rows, 1000.0);
        QCOMPARE(view.viewport().cols, 1000.0);

        v.row0 = 100;
        v.col0 = 200;
        v.rows = v.cols = 50;
        const HeatmapData zoomed = heatmap_job(s, v);
        QCOMPARE(zoomed.window.row0, std::int64_t(100));
        QCOMPARE(zoomed.window.cols, std::int64_t(50));
        const auto& whole = zoomed.panels.front().whole;
        QVERIFY(whole);
        QCOMPARE(whole->min, all.panels.front().matrix.min);
        QCOMPARE(whole->max, all.panels.front().matrix.max);
        QCOMPARE(whole->values, all.panels.front().matrix.values);
    }

    void settingsFollowTheScenario()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.seq_len = 300;
        ViewSettings v;
        v.matrix_kind = MatrixKind::Buckets; // T5's, not RoPE's
        v.row0 = 250;
        v.rows = 301;
        v.col0 = -3;
        v.cols = 400;
        const ViewSettings n = normalized_view_settings(s, v);
        QVERIFY(!n.matrix_kind);
        QCOMPARE(n.row0, std::int64_t(250));
        QCOMPARE(n.rows, std::int64_t(50));
        QCOMPARE(n.col0, std::int64_t(0));
        QCOMPARE(n.cols, std::int64_t(300));
        v.matrix_kind = MatrixKind::Logits;
        QCOMPARE(normalized_view_settings(s, v).matrix_kind, std::optional(MatrixKind::Logits));
    }

    void zoomKeepsCellColour()
    {
        const Scenario s = smallRope();
        ViewSettings v;
        HeatmapView view;
        view.resize(760, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setData(heatmap_job(s, v));
        const Colormap map = view.colormap();
        const ColorRange wholeRange = view.panelRange(0);
        const int row = 30, col = 27;
        const double value = view.data().panels.front().matrix.values(row, col);
        const QRgb before = view.grab().toImage().pixel(cellCentre(view, row, col));
        QCOMPARE(before, expectedColour(view, value));

        const Window w = zoomIn(view, s, v, {0.45, 0.45}, 6);
        QVERIFY(w.rows > 0 && w.rows < 32);
        QVERIFY(row >= w.row0 && row < w.row0 + w.rows && col >= w.col0 && col < w.col0 + w.cols);
        const MatrixResult& window = view.data().panels.front().matrix;
        // The window's own extremes differ from the whole matrix's: a scale fitted to it would recolour.
        QVERIFY(window.max - window.min <
                0.9 * (view.data().panels.front().whole->max - view.data().panels.front().whole->min));
        QCOMPARE(window.values(row - w.row0, col - w.col0), value);
        QCOMPARE(view.colormap(), map);
        QCOMPARE(view.panelRange(0).lo, wholeRange.lo);
        QCOMPARE(view.panelRange(0).hi, wholeRange.hi);
        const QRgb after = view.grab().toImage().pixel(cellCentre(view, row, col));
        QCOMPARE(QColor(after).name(), QColor(before).name());
        QVERIFY(view.scaleLabel().contains(QStringLiteral("whole matrix")));
    }

    void colormapKindKeptOnZoom()
    {
        // Sinusoidal encodings are signed (diverging map); the last dimensions over the first positions
        // are sin/cos of tiny angles, all >= 0: alone they would get the sequential map.
        Scenario s;
        s.method = Method::Sinusoidal;
        s.seq_len = 64;
        ViewSettings v;
        v.matrix_kind = MatrixKind::Encoding;
        HeatmapView view;
        view.resize(760, 640);
        view.setData(heatmap_job(s, v));
        QCOMPARE(view.colormap(), Colormap::Diverging);
        QSignalSpy changed(&view, &HeatmapView::colormapChanged);
        const Window w = zoomIn(view, s, v, {0.995, 0.005}, 12);
        QVERIFY(w.rows > 0);
        const MatrixResult& window = view.data().panels.front().matrix;
        QVERIFY2(window.min >= 0.0, "the window must be unsigned for this test to mean anything");
        QCOMPARE(view.colormap(), Colormap::Diverging);
        QCOMPARE(changed.count(), 0);
        // Fitting the scale to the view changes the scale, not the kind of map.
        view.setFitColorsToView(true);
        QCOMPARE(view.colormap(), Colormap::Diverging);
    }

    void fitToViewUsesWindowRange()
    {
        const Scenario s = smallRope();
        ViewSettings v;
        HeatmapView view;
        view.resize(760, 640);
        view.setColormap(Colormap::Viridis); // sequential: the scale is exactly [min, max]
        QSignalSpy fitted(&view, &HeatmapView::fitColorsToViewChanged);
        const Window w = zoomIn(view, s, v, {0.3, 0.6}, 5);
        QVERIFY(w.rows > 0);
        const MatrixResult& window = view.data().panels.front().matrix;
        const MatrixResult& whole = *view.data().panels.front().whole;
        QCOMPARE(view.panelRange(0).lo, whole.min);
        QCOMPARE(view.panelRange(0).hi, whole.max);

        view.fitColorsAction()->trigger(); // as the menu or the shortcut does
        QVERIFY(view.fitColorsToView());
        QCOMPARE(fitted.count(), 1);
        QCOMPARE(view.panelRange(0).lo, window.min);
        QCOMPARE(view.panelRange(0).hi, window.max);
        QVERIFY(view.scaleLabel().contains(QStringLiteral("fitted to view")));
        // The window's extremes now take the table's ends.
        Eigen::Index r = 0, c = 0;
        window.values.maxCoeff(&r, &c);
        QCOMPARE(view.panelImage(0).pixel(static_cast<int>(c), static_cast<int>(r)),
                 colormap_table(Colormap::Viridis)[kColormapSize - 1]);

        view.setFitColorsToView(false);
        QVERIFY(!view.fitColorsAction()->isChecked());
        QCOMPARE(view.panelRange(0).lo, whole.min);
        QCOMPARE(view.panelRange(0).hi, whole.max);
    }

    void dragPanKeepsPicture()
    {
        const Scenario s = smallRope();
        ViewSettings v;
        HeatmapView view;
        view.resize(760, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const Window w = zoomIn(view, s, v, {0.5, 0.5}, 6);
        QVERIFY(w.rows > 0 && w.rows < 32);
        const QRectF heat = view.heatmapRects(QRectF(view.rect()), {}).front();

        // Drag left and up by a third of the heatmap: cells right of and below the computed window
        // come into view. The worker's result for the new window has not arrived (no setData).
        QSignalSpy requests(&view, &HeatmapView::viewportRequested);
        const QPointF from = heat.center(), to = from - QPointF(heat.width() / 3, heat.height() / 3);
        mouse(view, QEvent::MouseButtonPress, from, Qt::LeftButton);
        for (int i = 1; i <= 4; ++i)
            mouse(view, QEvent::MouseMove, from + (to - from) * (i / 4.0), Qt::LeftButton);
        mouse(view, QEvent::MouseButtonRelease, to, Qt::NoButton);
        const HeatmapView::Viewport vp = view.viewport();
        QVERIFY(vp.col0 + vp.cols > w.col0 + w.cols + 2); // the view reaches beyond the data's window
        QVERIFY(vp.row0 + vp.rows > w.row0 + w.rows + 2);

        const QImage image = view.grab().toImage();
        const QRgb background = figure_colors(palette_is_dark(view.palette())).background.rgb();
        int blank = 0;
        for (int y = static_cast<int>(heat.top()) + 2; y < static_cast<int>(heat.bottom()) - 2; ++y)
            for (int x = static_cast<int>(heat.left()) + 2; x < static_cast<int>(heat.right()) - 2; ++x)
                blank += image.pixel(x, y) == background ? 1 : 0;
        QCOMPARE(blank, 0);
        // A cell outside the old window shows its own colour on the whole matrix's scale.
        const auto row = static_cast<int>(std::floor(vp.row0 + vp.rows - 1.5));
        const auto col = static_cast<int>(std::floor(vp.col0 + vp.cols - 1.5));
        QVERIFY(row >= w.row0 + w.rows && col >= w.col0 + w.cols);
        const double value = view.data().panels.front().whole->values(row, col);
        QCOMPARE(QColor(image.pixel(cellCentre(view, row, col))).name(),
                 QColor(expectedColour(view, value)).name());
        // Hovering there reads that cell of the whole matrix.
        QSignalSpy hovered(&view, &HeatmapView::hovered);
        mouse(view, QEvent::MouseMove, cellCentre(view, row, col), Qt::NoButton);
        QCOMPARE(hovered.count(), 1);
        const QString readout = hovered.first().first().toString();
        QVERIFY2(readout.contains(QStringLiteral("i = %1 ").arg(row)) &&
                     readout.contains(QStringLiteral("j = %1 ").arg(col)),
                 qPrintable(readout));
        // The pan asks for its window once the drag settles.
        QVERIFY(requests.wait(5000));
    }

    void contextMenuHasFitAction()
    {
        HeatmapView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QList<QAction*> shown;
        QTimer::singleShot(0, this, [&] {
            if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
                shown = menu->actions();
                menu->close();
            }
        });
        QContextMenuEvent event(QContextMenuEvent::Mouse, QPoint(50, 50), view.mapToGlobal(QPoint(50, 50)));
        QApplication::sendEvent(&view, &event);
        QVERIFY(shown.contains(view.fitColorsAction()));
        QVERIFY(view.fitColorsAction()->isCheckable());
        QVERIFY(!view.fitColorsAction()->shortcut().isEmpty());
    }

    void mainWindowFitActionPersists()
    {
        const QString settings = m_dir.filePath(QStringLiteral("fit.ini"));
        {
            MainWindow w(settings);
            QAction* fit = nullptr;
            for (QAction* menu : w.menuBar()->actions())
                if (menu->menu())
                    for (QAction* a : menu->menu()->actions())
                        if (a->objectName() == QLatin1String("fitColorsToViewAction"))
                            fit = a;
            QVERIFY(fit);
            QCOMPARE(fit, w.heatmapView()->fitColorsAction());
            QVERIFY(!fit->isChecked());
            fit->trigger();
            QVERIFY(w.heatmapView()->fitColorsToView());
            QVERIFY(w.viewSettings().fit_colors_to_view); // exports and sessions colour like the screen
        }
        MainWindow again(settings);
        QVERIFY(again.heatmapView()->fitColorsToView());
        QVERIFY(again.heatmapView()->fitColorsAction()->isChecked());
    }

    void sessionHoldsCurrentKindAndWindow()
    {
        MainWindow w(m_dir.filePath(QStringLiteral("session.ini")));
        w.setComputeHiddenViews(true);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(waitIdle(w.jobs()));
        const auto saved = [&](const QString& name) {
            const QString path = m_dir.filePath(name);
            if (!w.sessionActions()->saveSession(path))
                return QJsonObject();
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                return QJsonObject();
            return QJsonDocument::fromJson(f.readAll())
                .object()[QLatin1String("views")]
                .toObject()[QLatin1String("settings")]
                .toObject();
        };

        // T5's bucket indices (point samples) over more positions than the heatmap has pixels.
        Scenario s = w.model()->scenario();
        s.method = Method::T5;
        s.seq_len = 1000;
        QVERIFY(w.model()->setScenario(s, QStringLiteral("T5")));
        ViewSettings v = w.viewSettings();
        v.matrix_kind = MatrixKind::Buckets;
        v.pixel_width = v.pixel_height = 640;
        w.setViewSettings(v, ViewKind::Heatmap);
        QVERIFY(waitIdle(w.jobs()));
        // Zoom in, then back out to everything (as the 0 key or a double click does).
        HeatmapView* view = w.heatmapView();
        QSignalSpy requests(view, &HeatmapView::viewportRequested);
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(requests.wait(5000));
        QVERIFY(waitIdle(w.jobs()));
        QTest::keyClick(view, Qt::Key_0);
        QVERIFY(waitIdle(w.jobs()));
        QJsonObject j = saved(QStringLiteral("t5.posatlas.json"));
        QCOMPARE(j[QLatin1String("matrix_kind")].toString(), QStringLiteral("buckets"));
        for (const auto& [first, count] : {std::pair{"row0", "rows"}, std::pair{"col0", "cols"}}) {
            const qint64 a = j[QLatin1String(first)].toInteger(), n = j[QLatin1String(count)].toInteger();
            QVERIFY2(a >= 0 && n >= 0 && a + n <= 1000, qPrintable(QStringLiteral("%1 %2, %3 %4")
                                                                       .arg(QLatin1String(first))
                                                                       .arg(a)
                                                                       .arg(QLatin1String(count))
                                                                       .arg(n)));
        }

        // RoPE has no bucket indices: it shows logits, and the session says so.
        s = w.model()->scenario();
        s.method = Method::RoPE;
        s.seq_len = 300;
        QVERIFY(w.model()->setScenario(s, QStringLiteral("RoPE")));
        QVERIFY(waitIdle(w.jobs()));
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(requests.wait(5000));
        QVERIFY(waitIdle(w.jobs()));
        j = saved(QStringLiteral("rope.posatlas.json"));
        QCOMPARE(j[QLatin1String("matrix_kind")].toString(),
                 QString::fromLatin1(
                     matrix_kind_id(effective_matrix_kind(w.model()->scenario(), w.viewSettings()))));
        QCOMPARE(j[QLatin1String("matrix_kind")].toString(), QStringLiteral("logits"));
        for (const auto& [first, count] : {std::pair{"row0", "rows"}, std::pair{"col0", "cols"}}) {
            const qint64 a = j[QLatin1String(first)].toInteger(), n = j[QLatin1String(count)].toInteger();
            QVERIFY(a >= 0 && n > 0 && a + n <= 300); // zoomed: a window inside the matrix
        }
    }
};

QTEST_MAIN(HeatmapZoomTest)
#include "test_heatmap_zoom.moc"
