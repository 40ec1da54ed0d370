// SPDX-License-Identifier: GPL-3.0-or-later
// Autosave and crash recovery of the main window, and failed opens that must leave the work alone.
// A "crash" is a window destroyed without a close event: its autosave stays on disk, as after kill -9.
#include "explorer/explorer_window.h"
#include "model/autosave.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;

class AutosaveTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_state; // a fresh state folder per test
    QTemporaryDir m_dir;

    QString settings(const QString& name) const { return m_dir.filePath(name + QStringLiteral(".ini")); }
    QString autosaveFile() const
    {
        return QDir(m_state->path()).filePath(QLatin1String(Autosave::kFileName));
    }

    std::unique_ptr<MainWindow> makeWindow(const QString& name)
    {
        auto w = std::make_unique<MainWindow>(settings(name));
        w->autosave()->setDelay(20);
        w->resize(1000, 700);
        w->show();
        return w;
    }

    static void write(const QString& path, const QByteArray& bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QApplication::setOrganizationName(QStringLiteral("PosAtlasTest"));
        QApplication::setApplicationName(QStringLiteral("ui_autosave_tests"));
    }

    void init()
    {
        m_state = std::make_unique<QTemporaryDir>();
        QVERIFY(m_state->isValid());
        qputenv("POSATLAS_STATE_DIR", m_state->path().toLocal8Bit());
    }

    void cleanup() { qunsetenv("POSATLAS_STATE_DIR"); }

    void changesAreAutosavedAfterADelay()
    {
        auto w = makeWindow(QStringLiteral("delay"));
        QVERIFY(w->autosave()->active());
        QVERIFY(!QFile::exists(autosaveFile())); // an unchanged start is nothing to recover
        QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 500000.0));
        QTRY_VERIFY(QFile::exists(autosaveFile()));
        QFile f(autosaveFile());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Session s = session_from_json(f.readAll()); // the session format, readable as a session
        QCOMPARE(s.scenario.params<RopeParams>().rope_theta, 500000.0);
        QVERIFY(!s.current_view.isEmpty());
        // An unchanged snapshot is not written again.
        const int writes = w->autosave()->writeCount();
        QVERIFY(w->autosave()->saveNow());
        QCOMPARE(w->autosave()->writeCount(), writes);
    }

    void crashIsOfferedAndRestored_data()
    {
        QTest::addColumn<bool>("restore");
        QTest::newRow("restore") << true;
        QTest::newRow("discard") << false;
    }

    void crashIsOfferedAndRestored()
    {
        QFETCH(bool, restore);
        const QString name = QStringLiteral("crash-") + QLatin1String(QTest::currentDataTag());
        {
            auto w = makeWindow(name);
            QVERIFY(w->model()->setMethod(Method::ALiBi));
            QVERIFY(w->model()->setValue(param(Method::ALiBi, "num_heads"), 12));
            ExplorerWindow* explorer = w->openExplorer();
            explorer->model()->setTargetLength(50000);
            QTRY_VERIFY(QFile::exists(autosaveFile()));
            QVERIFY(w->autosave()->saveNow());
            // No close event: the crash.
        }
        QVERIFY(QFile::exists(autosaveFile()));

        auto w = std::make_unique<MainWindow>(settings(name));
        QString asked;
        w->setRecoveryPrompt([&asked, restore](const QString& text, std::function<void(bool)> answer) {
            asked = text;
            answer(restore);
        });
        w->show();
        QTRY_VERIFY(!asked.isEmpty()); // offered from the event loop, once
        QVERIFY2(asked.contains(QStringLiteral("ALiBi")), qPrintable(asked));
        QVERIFY(!w->offerRecovery());
        if (restore) {
            QCOMPARE(w->model()->scenario().method, Method::ALiBi);
            QCOMPARE(w->model()->scenario().params<AlibiParams>().num_heads, 12);
            QVERIFY(w->findChild<ExplorerWindow*>());
            QCOMPARE(w->findChild<ExplorerWindow*>()->model()->targetLength(), std::int64_t{50000});
            QVERIFY(QFile::exists(autosaveFile())); // still there until the next change rewrites it
        } else {
            QVERIFY((w->model()->scenario() == Scenario{}));
            QVERIFY(!QFile::exists(autosaveFile()));
        }
        w->close();
        QVERIFY(!QFile::exists(autosaveFile()));
    }

    void cleanCloseLeavesNothingToRecover()
    {
        {
            auto w = makeWindow(QStringLiteral("clean"));
            QVERIFY(w->model()->setValue(param("seq_len"), 300));
            QTRY_VERIFY(QFile::exists(autosaveFile()));
            QVERIFY(w->close());
            QVERIFY(!QFile::exists(autosaveFile()));
        }
        auto w = std::make_unique<MainWindow>(settings(QStringLiteral("clean")));
        bool asked = false;
        w->setRecoveryPrompt([&asked](const QString&, std::function<void(bool)>) { asked = true; });
        QVERIFY(!w->autosave()->recoverable());
        QVERIFY(!w->offerRecovery());
        QTest::qWait(50);
        QVERIFY(!asked);
        QCOMPARE(w->model()->scenario().seq_len, std::int64_t{300}); // from the settings, not a recovery
    }

    void aDamagedAutosaveIsDiscardedWithoutAsking()
    {
        write(autosaveFile(),
              "{\"format\": \"posatlas-session\", \"version\": 1, \"scenario\": {\"seq_len\": -5}}");
        auto w = std::make_unique<MainWindow>(settings(QStringLiteral("damaged")));
        bool asked = false;
        w->setRecoveryPrompt([&asked](const QString&, std::function<void(bool)>) { asked = true; });
        QVERIFY(!w->offerRecovery());
        QVERIFY(!asked);
        QVERIFY(!QFile::exists(autosaveFile()));
        QVERIFY(w->statusMessage().contains(QStringLiteral("discarded")));
    }

    void aSecondInstanceDoesNotTouchTheFirstOnesAutosave()
    {
        auto first = makeWindow(QStringLiteral("first"));
        auto second = makeWindow(QStringLiteral("second"));
        QVERIFY(first->autosave()->active());
        QVERIFY(!second->autosave()->active());
        QVERIFY(second->statusMessage().contains(QStringLiteral("Autosave is off")));
        QVERIFY(second->model()->setValue(param("seq_len"), 77));
        QTest::qWait(100);
        QVERIFY(!QFile::exists(autosaveFile()));
    }

    void aLockLeftByAKilledProcessIsStale()
    {
        // What kill -9 leaves behind: a lock naming a process that no longer runs.
        write(QDir(m_state->path()).filePath(QStringLiteral("autosave.lock")),
              QByteArray("2147483600\n") + QCoreApplication::applicationName().toUtf8() + "\n" +
                  QSysInfo::machineHostName().toUtf8() + "\n");
        write(autosaveFile(), session_to_json(Session{}));
        auto w = std::make_unique<MainWindow>(settings(QStringLiteral("stale")));
        QVERIFY2(w->autosave()->active(), qPrintable(w->statusMessage()));
        QVERIFY(w->autosave()->recoverable());
    }

    void aFailedWriteIsReported()
    {
        auto w = makeWindow(QStringLiteral("fail"));
        QVERIFY(w->model()->setValue(param("seq_len"), 100));
        QVERIFY(w->autosave()->saveNow());
        const QByteArray before = [this] {
            QFile f(autosaveFile());
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!before.isEmpty());
        // A directory where the file should go: QSaveFile cannot replace it, whatever the user's
        // privileges.
        QSignalSpy failed(w->autosave(), &Autosave::saveFailed);
        QVERIFY(QFile::remove(autosaveFile()));
        QVERIFY(QDir().mkpath(autosaveFile()));
        QVERIFY(w->model()->setValue(param("seq_len"), 200));
        QVERIFY(!w->autosave()->saveNow());
        QVERIFY(!w->autosave()->saveNow());
        QCOMPARE(failed.count(), 1); // once per problem, not on every attempt
        QVERIFY(w->statusMessage().contains(QStringLiteral("Autosave")));
        QVERIFY(QDir(autosaveFile()).removeRecursively());
        QVERIFY(w->autosave()->saveNow()); // works again once the obstacle is gone
        QVERIFY(QFile::exists(autosaveFile()));
    }

    void aSymlinkAtTheAutosaveNameIsReplacedNotFollowed()
    {
        // The autosave is the program's own file: a symlink planted at its name must not carry the
        // session into another file.
        auto w = makeWindow(QStringLiteral("planted"));
        QVERIFY(w->model()->setValue(param("seq_len"), 100));
        QVERIFY(w->autosave()->saveNow());
        const QString outside = m_dir.filePath(QStringLiteral("victim.txt"));
        write(outside, "precious\n");
        QVERIFY(QFile::remove(autosaveFile()));
        QVERIFY(QFile::link(outside, autosaveFile()));
        QVERIFY(w->model()->setValue(param("seq_len"), 200));
        QVERIFY(w->autosave()->saveNow());
        QFile victim(outside);
        QVERIFY(victim.open(QIODevice::ReadOnly));
        QCOMPARE(victim.readAll(), QByteArray("precious\n"));
        QVERIFY(!QFileInfo(autosaveFile()).isSymLink());
        QFile f(autosaveFile());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(session_from_json(f.readAll()).scenario.seq_len, 200);
    }

    // ------------------------------------------------------------ failed opens

    void aFailedOpenLeavesTheWorkUntouched_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("session: not JSON") << QStringLiteral("a.posatlas.json") << QByteArray("{ nope");
        QTest::newRow("session: newer version")
            << QStringLiteral("b.posatlas.json")
            << QByteArray(R"({"format": "posatlas-session", "version": 99})");
        QTest::newRow("session: bad parameter")
            << QStringLiteral("c.posatlas.json")
            << QByteArray(
                   R"({"format": "posatlas-session", "version": 1, "scenario": {"rope": {"rope_theta": -1}}})");
        QTest::newRow("config: not JSON") << QStringLiteral("config.json") << QByteArray("][");
        QTest::newRow("config: bad value")
            << QStringLiteral("config2.json")
            << QByteArray(
                   R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": -5})");
        QTest::newRow("missing file") << QStringLiteral("missing.json") << QByteArray();
    }

    void aFailedOpenLeavesTheWorkUntouched()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        const QString path = m_dir.filePath(name);
        if (!content.isEmpty())
            write(path, content);
        auto w = makeWindow(QStringLiteral("badopen"));
        QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 123456.0));
        QVERIFY(w->model()->setValue(param("seq_len"), 640));
        const Scenario before = w->model()->scenario();
        const int count = w->model()->undoStack()->count();
        const int index = w->model()->undoStack()->index();
        QVERIFY(!w->openFile(path));
        QVERIFY((w->model()->scenario() == before));
        QCOMPARE(w->model()->undoStack()->count(), count);
        QCOMPARE(w->model()->undoStack()->index(), index);
        QVERIFY(!w->statusMessage().isEmpty());
        w->model()->undoStack()->undo(); // the history still works
        QCOMPARE(w->model()->scenario().seq_len, Scenario{}.seq_len);
    }
};

QTEST_MAIN(AutosaveTest)
#include "test_autosave.moc"
