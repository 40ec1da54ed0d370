// SPDX-License-Identifier: GPL-3.0-or-later
// The main window under QT_QPA_PLATFORM=offscreen: a slider changes the heatmap and undo restores it, every
// preset renders every view, config import, the key position control, status messages, the hover readout,
// settings and the dark theme after a restart.
#include "gui_support.h"
#include "io/presets.h"
#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "widgets/log_slider.h"
#include "widgets/parameter_panel.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <memory>
#include <numbers>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// Number of distinct colours, capped: "not one colour" and "has real content" checks.
int distinctColors(const QImage& image, int cap = 64)
{
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 2) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); x += 2) {
            seen.insert(line[x]);
            if (seen.size() >= cap)
                return cap;
        }
    }
    return static_cast<int>(seen.size());
}

} // namespace

class MainWindowTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString settingsPath(const QString& name) const { return m_dir.filePath(name + QStringLiteral(".ini")); }

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void sliderChangesHeatmapAndUndoRestoresIt()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("slider"));
        QVERIFY(!w->heatmapView()->data().panels.isEmpty());
        const QImage before = renderToImage(*w->heatmapView());
        QVERIFY(distinctColors(before) > 8);

        QSlider* s = w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"))->slider();
        s->setFocus();
        QTest::keyClick(s, Qt::Key_PageDown); // a smaller base: faster rotations, a different picture
        QVERIFY(w->model()->scenario().params<RopeParams>().rope_theta < 10000.0);
        QVERIFY(waitIdle(w->jobs()));
        const QImage changed = renderToImage(*w->heatmapView());
        QVERIFY(changed != before);

        w->model()->undoStack()->undo();
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_theta, 10000.0);
        QVERIFY(waitIdle(w->jobs()));
        const QImage restored = renderToImage(*w->heatmapView());
        QVERIFY(restored == before);
        // Every view shows the restored scenario, not the one before the undo.
        QVERIFY2(w->curveView()->data().title.contains(QStringLiteral("θ 10000")),
                 qPrintable(w->curveView()->data().title));
    }

    void everyPresetLoadsAndRendersEveryView_data()
    {
        QTest::addColumn<QString>("id");
        for (const PresetInfo& p : list_presets())
            QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
    }

    void everyPresetLoadsAndRendersEveryView()
    {
        QFETCH(QString, id);
        if (!m_presetWindow)
            m_presetWindow = showMainWindow(m_dir, QStringLiteral("presets"));
        MainWindow* w = m_presetWindow.get();
        QSignalSpy failed(w->jobs(), &JobTracker::jobFailed);
        const int steps = w->model()->undoStack()->count();
        const int index = w->model()->undoStack()->index();
        QVERIFY2(w->loadPreset(id), qPrintable(w->statusMessage()));
        // One undo step (none when the scenario already was this preset).
        QVERIFY(w->model()->undoStack()->index() <= index + 1);
        QVERIFY(w->model()->undoStack()->count() <= steps + 1);
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        const Figure* figures[] = {w->heatmapView(), w->curveView(), w->rotationView(), w->spectrumView()};
        for (const Figure* f : figures) {
            const QImage image = renderToImage(*f);
            QVERIFY2(distinctColors(image) > 4, qPrintable(f->figureTitle()));
        }
        if (w->model()->scenario().method == Method::RoPE) {
            QVERIFY(!w->rotationView()->data().theta.empty());
            QVERIFY(!w->spectrumView()->data().pair.empty());
        }
    }

    void configImportAppliesValues()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("import"));
        // A Llama 3.1 style config (keys as in meta-llama/Llama-3.1-8B config.json).
        const QString path = m_dir.filePath(QStringLiteral("config.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                    "max_position_embeddings": 131072, "rope_theta": 500000.0, "sliding_window": null,
                    "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                     "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})");
        f.close();
        const int index = w->model()->undoStack()->index();
        QVERIFY2(w->openConfig(path), qPrintable(w->statusMessage()));
        const Scenario& s = w->model()->scenario();
        QCOMPARE(s.method, Method::RoPE);
        QCOMPARE(s.params<RopeParams>().rope_theta, 500000.0);
        QCOMPARE(s.params<RopeParams>().rope_type, RopeType::Llama3);
        QCOMPARE(s.params<RopeParams>().factor, 8.0);
        QCOMPARE(s.params<RopeParams>().head_dim, 128); // 4096 / 32
        QCOMPARE(s.params<RopeParams>().original_max_position_embeddings, std::int64_t{8192});
        QCOMPARE(w->model()->undoStack()->index(), index + 1);
        QVERIFY(w->importDock()->isVisible());
        QVERIFY(w->importReportText().contains(QStringLiteral("rope_theta")));
        // The panel shows the imported values.
        QCOMPARE(w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"))->value(), 500000.0);
        QVERIFY(w->parameterPanel()->isRowVisible(param(Method::RoPE, "low_freq_factor")));
        QVERIFY(waitIdle(w->jobs()));
        // One undo step takes all of it back.
        w->model()->undoStack()->undo();
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_theta, 10000.0);
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_type, RopeType::Default);

        // A broken file: a message, no state change.
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("{ not json");
        b.close();
        const int count = w->model()->undoStack()->count();
        QVERIFY(!w->openConfig(bad));
        QVERIFY(!w->statusMessage().isEmpty());
        QCOMPARE(w->model()->undoStack()->count(), count);
    }

    void keyPositionControlMovesTheRotationDiagram()
    {
        // The key position n is a control of its own: editing it re-runs the rotation job and the key's
        // angles become n * theta_i (mod 2 pi) as core's rope_angles computes them.
        auto w = showMainWindow(m_dir, QStringLiteral("keypos"));
        QVERIFY(waitIdle(w->jobs()));
        auto* controls = w->findChild<RotationControls*>();
        QVERIFY(controls);
        QCOMPARE(controls->keyPosition(), w->rotationView()->data().key_position);
        auto* spin = controls->findChild<QDoubleSpinBox*>(QStringLiteral("keyPosition"));
        QVERIFY(spin);
        QSignalSpy spy(controls, &RotationControls::keyPositionChanged);
        spin->setValue(9.0);
        QCOMPARE(spy.count(), 1);
        QVERIFY(waitIdle(w->jobs()));
        const RotationData& d = w->rotationView()->data();
        QCOMPARE(d.key_position, 9.0);
        // Pair 0 has theta_0 = 1 (default RoPE): its key angle is 9 mod 2 pi. Tolerance 1e-12 rad.
        QVERIFY(std::abs(d.angle_k[0] - std::fmod(9.0, 2.0 * std::numbers::pi)) < 1e-12);
        controls->setKeyPosition(3.0); // programmatic updates do not echo
        QCOMPARE(spy.count(), 1);
    }

    void invalidEditShowsStatusMessage()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("invalid"));
        QVERIFY(!w->model()->setValue(param(Method::RoPE, "head_dim"), 7)); // head_dim must be even
        QVERIFY(w->statusMessage().contains(QStringLiteral("head_dim")));
        QCOMPARE(w->model()->scenario().params<RopeParams>().head_dim, 128);
    }

    // The status bar's hover readout describes the figure under the cursor; after any change of the
    // scenario that figure is gone, so the readout goes too (a logit read at base 10000 must not stay
    // beside the map at base 20000, nor a RoPE cell's beside an ALiBi map).
    void hoverReadoutClearsWhenTheScenarioChanges()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("readout"));
        const QString readout = QStringLiteral("query position i = 12 · key position j = 40 · logit = 0.53");
        emit w->heatmapView()->hovered(readout);
        auto showing = [&] {
            for (QLabel* l : w->statusBar()->findChildren<QLabel*>())
                if (l->text() == readout)
                    return true;
            return false;
        };
        QVERIFY(showing());
        QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 20000.0));
        QVERIFY(!showing());
        emit w->heatmapView()->hovered(readout);
        QVERIFY(showing());
        QVERIFY(w->model()->setMethod(Method::ALiBi));
        QVERIFY(!showing());
    }

    void settingsRestoreAfterRestart()
    {
        const QString name = QStringLiteral("restart");
        {
            auto w = showMainWindow(m_dir, name);
            QVERIFY(w->model()->setMethod(Method::ALiBi));
            QVERIFY(w->model()->setValue(param(Method::ALiBi, "num_heads"), 12));
            w->dock(ViewKind::Spectrum)->hide();
            w->close(); // saves
        }
        {
            auto w = showMainWindow(m_dir, name);
            QCOMPARE(w->model()->scenario().method, Method::ALiBi);
            QCOMPARE(w->model()->scenario().params<AlibiParams>().num_heads, 12);
            QVERIFY(!w->dock(ViewKind::Spectrum)->isVisible());
            QCOMPARE(w->model()->undoStack()->count(), 0); // a restore is not an edit
            w->close();
        }
        Settings settings(settingsPath(QStringLiteral("recent")));
        for (int i = 0; i < 10; ++i)
            settings.addRecentFile(m_dir.filePath(QStringLiteral("c%1.json").arg(i)));
        settings.addRecentFile(m_dir.filePath(QStringLiteral("c5.json")));
        const QStringList recent = settings.recentFiles();
        QCOMPARE(recent.size(), Settings::kMaxRecentFiles);
        QVERIFY(recent.front().endsWith(QStringLiteral("c5.json")));
        QCOMPARE(recent.filter(QStringLiteral("c5.json")).size(), 1);
    }

    // View > Dark Theme darkens the application and the figures, and the next start is dark too.
    void darkThemeDarkensTheFiguresAndIsRemembered()
    {
        {
            auto w = showMainWindow(m_dir, QStringLiteral("dark"));
            w->setDarkTheme(true);
            QVERIFY(waitIdle(w->jobs()));
            QVERIFY(palette_is_dark(QApplication::palette()));
            QVERIFY(palette_is_dark(w->heatmapView()->palette()));
            const QImage shown = w->heatmapView()->grab().toImage();
            QCOMPARE(shown.pixelColor(1, 1), figure_colors(true).background);
        }
        QApplication::setPalette(QApplication::style()->standardPalette());
        QVERIFY(!palette_is_dark(QApplication::palette()));
        auto again = showMainWindow(m_dir, QStringLiteral("dark"));
        QVERIFY(palette_is_dark(QApplication::palette()));
        again->setDarkTheme(false);
        QVERIFY(!palette_is_dark(QApplication::palette()));
    }

    void cleanupTestCase() { m_presetWindow.reset(); }

private:
    std::unique_ptr<MainWindow> m_presetWindow;
};

QTEST_MAIN(MainWindowTest)
#include "test_main_window.moc"
