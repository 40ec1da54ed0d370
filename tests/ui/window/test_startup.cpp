// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas FILE`: the files on the command line (the desktop entry's Exec=posatlas %f, a double-click
// on a session) open in the main window as File > Open does. QtTest, QT_QPA_PLATFORM=offscreen.
#include "model/scenario_model.h"
#include "model/session.h"
#include "window/gui_main.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QUrl>

using namespace posatlas;
using namespace posatlas::ui;

class StartupTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    // The first launch fills most of the screen: on a 1080p projector the figures get the room they need.
    void firstLaunchFitsTheScreen()
    {
        QCOMPARE(first_launch_size(QSize(1920, 1080)), QSize(1728, 972));
        QCOMPARE(first_launch_size(QSize(1366, 728)), QSize(1280, 720)); // never below 1280 x 720 ...
        QCOMPARE(first_launch_size(QSize(1024, 600)), QSize(1024, 600)); // ... nor beyond the screen
        QCOMPARE(first_launch_size(QSize()), QSize(1280, 720));
    }

    void opensSessionFromCommandLine_data()
    {
        QTest::addColumn<bool>("asUrl");
        QTest::newRow("path") << false;
        QTest::newRow("file-url") << true;
    }

    void opensSessionFromCommandLine()
    {
        QFETCH(bool, asUrl);
        // A session unlike the defaults: ALiBi, 12 heads, symmetric, only the curves view visible.
        Session s;
        s.scenario.method = Method::ALiBi;
        s.scenario.params<AlibiParams>().num_heads = 12;
        s.scenario.params<AlibiParams>().bias = AlibiBias::Symmetric;
        s.visible_views = {QStringLiteral("curves")};
        const QString file = path(QStringLiteral("talk %1.posatlas.json").arg(asUrl ? 1 : 0));
        save_session(s, file);

        MainWindow w(path(QStringLiteral("settings-session.ini")));
        w.show();
        QCOMPARE(w.model()->scenario().method, Method::RoPE); // the default before
        const QString arg = asUrl ? QUrl::fromLocalFile(file).toString() : file;
        QCOMPARE(open_paths_at_startup(w, {arg}), 1);
        QCOMPARE(w.model()->scenario().method, Method::ALiBi);
        QCOMPARE(w.model()->scenario().params<AlibiParams>().num_heads, 12);
        QCOMPARE(w.model()->scenario().params<AlibiParams>().bias, AlibiBias::Symmetric);
        QVERIFY(w.dock(ViewKind::Curves)->isVisible());
        QVERIFY(!w.dock(ViewKind::Heatmap)->isVisible());
    }

    void opensModelConfigFromCommandLine()
    {
        // tests/data/configs/llama_tiny.json: RoPE, head_dim 256 / 4 = 64, linear scaling factor 2.
        MainWindow w(path(QStringLiteral("settings-config.ini")));
        w.show();
        QCOMPARE(open_paths_at_startup(w, {QStringLiteral(POSATLAS_TEST_DATA "/configs/llama_tiny.json")}),
                 1);
        QCOMPARE(w.model()->scenario().method, Method::RoPE);
        QCOMPARE(w.model()->scenario().params<RopeParams>().head_dim, 64);
        QCOMPARE(w.model()->scenario().params<RopeParams>().rope_type, RopeType::Linear);
        QCOMPARE(w.model()->scenario().params<RopeParams>().factor, 2.0);
        // One undo step, as File > Open.
        QCOMPARE(w.model()->undoStack()->count(), 1);
    }

    void missingFileIsReportedAndNothingChanges()
    {
        MainWindow w(path(QStringLiteral("settings-missing.ini")));
        w.show();
        const Scenario before = w.model()->scenario();
        QCOMPARE(open_paths_at_startup(w, {path(QStringLiteral("no-such.posatlas.json"))}), 0);
        QVERIFY2(w.statusMessage().contains(QStringLiteral("no-such.posatlas.json")),
                 qPrintable(w.statusMessage()));
        QCOMPARE(w.model()->scenario().method, before.method);
        QCOMPARE(w.model()->undoStack()->count(), 0);
    }
};

QTEST_MAIN(StartupTest)
#include "test_startup.moc"
