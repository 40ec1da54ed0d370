// SPDX-License-Identifier: GPL-3.0-or-later
// The Layers dock in the main window: File > Open config.json of a model whose layers differ shows the
// dock with one cell per layer, in English and Chinese, at 100 % and in presentation mode at 200 %, where
// the cells and their letters grow with the text. With POSATLAS_LAYERS_SHOTS set to a folder, each state
// is also saved there as a PNG for review by eye (layers-MODEL-LANGUAGE-PERCENT.png).
#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "window/language.h"
#include "window/layers_controller.h"
#include "window/layers_panel.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QDir>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

class LayersWindowTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static void save(QWidget* w, const QString& name)
    {
        const QString folder = qEnvironmentVariable("POSATLAS_LAYERS_SHOTS");
        if (folder.isEmpty())
            return;
        QDir().mkpath(folder);
        QVERIFY(w->grab().save(QDir(folder).filePath(name + QStringLiteral(".png"))));
    }

    // Lets the window lay out the change; when pictures are saved, lets the views' jobs finish too so
    // that they show their figures. (The strip is what is checked here; Llama 4's figures at its
    // presented size took the sanitizer build most of this suite's three minutes, and the views' own
    // suites check them.)
    static void settle(MainWindow& w)
    {
        QTest::qWait(300); // the debounce of the views' requests
        if (qEnvironmentVariableIsEmpty("POSATLAS_LAYERS_SHOTS"))
            return;
        QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), 300000); // a bound, not a time
        QTest::qWait(100);
    }

private slots:
    void cleanup() { installLanguage(QStringLiteral("en")); }

    void stripInEveryLanguageAndAtPresentationSize_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("layers");
        for (const char* language : {"en", "zh_CN"}) {
            QTest::addRow("gemma 3 in %s", language) << QStringLiteral("gemma3_12b") << language << 26;
            QTest::addRow("llama 4 in %s", language) << QStringLiteral("llama4_scout") << language << 48;
        }
    }

    void stripInEveryLanguageAndAtPresentationSize()
    {
        QFETCH(QString, config);
        QFETCH(QString, language);
        QFETCH(int, layers);
        QVERIFY(installLanguage(language));
        MainWindow w(m_dir.filePath(QStringLiteral("layers.ini")));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.layersDock()->isHidden());
        QVERIFY(
            w.openConfig(QStringLiteral(POSATLAS_TEST_DATA "/configs/") + config + QStringLiteral(".json")));
        QVERIFY(!w.layersDock()->isHidden());
        LayersPanel* panel = w.layersPanel();
        QCOMPARE(static_cast<int>(w.layersController()->layers().size()), layers);
        QVERIFY(panel->emptyText().isEmpty());
        QVERIFY(panel->strip()->isVisible());
        // Every cell is on screen, side by side.
        for (int i = 0; i < layers; ++i)
            QVERIFY(panel->strip()->rect().contains(panel->strip()->cellRect(i)));
        // Select the second layer (Gemma 3: sliding, Llama 4: chunked RoPE).
        QVERIFY(w.layersController()->selectLayer(1));
        settle(w);
        save(&w, QStringLiteral("layers-%1-%2-100").arg(config, language));
        // The layer's mask is in the scenario; with more positions than Gemma 3's window of 1024 keys the
        // heatmap shows the window as a band along the diagonal (the cells outside it masked).
        QVERIFY(w.model()->scenario().causal);
        QVERIFY(w.model()->scenario().window != LayerAttention::Global);
        if (config == QLatin1String("gemma3_12b")) {
            Scenario longer = w.model()->scenario();
            longer.seq_len = 4096;
            QVERIFY(w.model()->setScenario(longer, QStringLiteral("seq_len")));
            settle(w);
            save(&w, QStringLiteral("layers-%1-%2-band").arg(config, language));
        }
        const int normal = panel->strip()->cellRect(0).height();

        Presentation* p = w.presentation();
        p->setFontScale(2.0);
        p->enter();
        settle(w);
        QVERIFY(panel->isVisible());
        QVERIFY2(
            panel->strip()->cellRect(0).height() >= normal * 17 / 10,
            qPrintable(QStringLiteral("%1 -> %2").arg(normal).arg(panel->strip()->cellRect(0).height())));
        save(&w, QStringLiteral("layers-%1-%2-200").arg(config, language));
        p->leave();
        p->setFontScale(1.0);
    }
};

QTEST_MAIN(LayersWindowTest)
#include "test_layers_window.moc"
