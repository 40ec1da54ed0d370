// SPDX-License-Identifier: GPL-3.0-or-later
// Autosave and crash recovery of the main window, and failed opens that must leave the work alone.
// A "crash" is a window destroyed without a close event: its autosave stays on disk, as after kill -9.
// An autosave is deleted only when the user restores or discards it; when autosave is off, the notice
// at the top of the window says why (the system's reason, or the other instance's process) until
// it is resolved.
#include "explorer/explorer_window.h"
#include "gui_support.h"
#include "model/autosave.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "widgets/notice_area.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <csignal>
#include <cstring>
#include <sys/resource.h>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

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

    // A main window on the settings file `name`.ini that saves its work 20 ms after a change; the tests go
    // on while its views compute.
    std::unique_ptr<MainWindow> autosavingWindow(const QString& name)
    {
        auto w = showMainWindow(m_dir, name,
                                {.size = {1000, 700}, .computeHiddenViews = false, .waitForJobs = false});
        w->autosave()->setDelay(20);
        return w;
    }

    static void write(const QString& path, const QByteArray& bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    static QByteArray read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    // A 4 x 4 table of queries or keys (one row per position, as a learned table).
    static void writeTable(const QString& path)
    {
        write(path, "0,0.25,0.5,0.75\n0.25,0.5,0.75,1\n0.5,0.75,1,1.25\n0.75,1,1.25,1.5\n");
    }
    // A session whose queries and keys were on a drive that is not mounted any more.
    static Session sessionWithFiles(const QString& queries, const QString& keys)
    {
        Session s;
        s.scenario.seq_len = 4;
        s.scenario.params<RopeParams>().head_dim = 4;
        s.scenario.params<RopeParams>().rope_theta = 123456.0;
        s.scenario.content.queries.path = queries.toStdString();
        s.scenario.content.keys.path = keys.toStdString();
        return s;
    }
    static QString autosaveNotice(const MainWindow& w)
    {
        return w.notices()->text(QStringLiteral("autosave"));
    }

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    void init()
    {
        m_state = std::make_unique<QTemporaryDir>();
        QVERIFY(m_state->isValid());
        qputenv("POSATLAS_STATE_DIR", m_state->path().toLocal8Bit());
    }

    void cleanup() { qunsetenv("POSATLAS_STATE_DIR"); }

    void changesAreAutosavedAfterADelay()
    {
        auto w = autosavingWindow(QStringLiteral("delay"));
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
            auto w = autosavingWindow(name);
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
            auto w = autosavingWindow(QStringLiteral("clean"));
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

    void aDamagedAutosaveIsKeptAsideAndNamed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("bakTaken"); // an older .bak is there already
        const QByteArray whole = session_to_json(Session{});
        QTest::newRow("truncated") << whole.left(whole.size() / 2) << false;
        QTest::newRow("truncated, .bak taken") << whole.left(whole.size() / 3) << true;
        QTest::newRow("invalid value")
            << QByteArray(
                   "{\"format\": \"posatlas-session\", \"version\": 1, \"scenario\": {\"seq_len\": -5}}")
            << false;
    }

    void aDamagedAutosaveIsKeptAsideAndNamed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, bakTaken);
        write(autosaveFile(), bytes);
        const QString bak = autosaveFile() + QStringLiteral(".bak");
        if (bakTaken)
            write(bak, "older");
        const QString expected = bakTaken ? autosaveFile() + QStringLiteral(".2.bak") : bak;
        auto w = std::make_unique<MainWindow>(settings(QStringLiteral("damaged")));
        bool asked = false;
        w->setRecoveryPrompt([&asked](const QString&, std::function<void(bool)>) { asked = true; });
        QVERIFY(!w->offerRecovery());
        QVERIFY(!asked);
        QVERIFY(!QFile::exists(autosaveFile()));
        QCOMPARE(read(expected), bytes); // the user's bytes, whole, beside it
        if (bakTaken)
            QCOMPARE(read(bak), QByteArray("older"));
        const QString notice = w->notices()->text(QStringLiteral("recovery"));
        QVERIFY2(notice.contains(QDir::toNativeSeparators(expected)), qPrintable(notice));
        QVERIFY2(!notice.contains(QStringLiteral("discarded")), qPrintable(notice));
    }

    void aMissingFileIsNamedAndTheAutosaveKept()
    {
        const QString queries = QStringLiteral("/nonexistent-drive/run1/q.csv");
        const QByteArray bytes =
            session_to_json(sessionWithFiles(queries, QStringLiteral("/nonexistent-drive/run1/k.csv")));
        write(autosaveFile(), bytes);
        auto w = std::make_unique<MainWindow>(settings(QStringLiteral("missing")));
        QString asked;
        w->setRecoveryPrompt([&asked](const QString& text, std::function<void(bool)>) { asked = text; });
        w->show();
        QTRY_VERIFY(!asked.isEmpty()); // offered, not thrown away
        QVERIFY2(asked.contains(QDir::toNativeSeparators(queries)), qPrintable(asked));
        QVERIFY2(asked.contains(QStringLiteral("scenario.content.queries")), qPrintable(asked));
        QVERIFY(QFile::exists(autosaveFile()));
        QVERIFY(w->model()->setValue(param("seq_len"), 77)); // work while the offer waits
        QVERIFY(w->autosave()->saveNow());
        QVERIFY(w->close()); // no answer: kept for the next start, unchanged
        QCOMPARE(read(autosaveFile()), bytes);
    }

    void aMissingFileIsRestoredLocatedOrDiscarded_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::newRow("restore without it") << QStringLiteral("restore");
        QTest::newRow("locate it") << QStringLiteral("locate");
        QTest::newRow("discard") << QStringLiteral("discard");
    }

    void aMissingFileIsRestoredLocatedOrDiscarded()
    {
        QFETCH(QString, answer);
        const QString queries = QStringLiteral("/nonexistent-drive/run1/q.csv");
        const QString keys = m_dir.filePath(QStringLiteral("k.csv")); // still there
        writeTable(keys);
        const QByteArray bytes = session_to_json(sessionWithFiles(queries, keys));
        write(autosaveFile(), bytes);
        const QString found = m_dir.filePath(QStringLiteral("q-found.csv"));
        writeTable(found);
        auto w = std::make_unique<MainWindow>(settings(QStringLiteral("missing-") + answer));
        bool asked = false;
        w->setRecoveryPrompt([&](const QString&, std::function<void(bool)> reply) {
            asked = true;
            if (answer == QLatin1String("locate"))
                w->replaceRecoveryFile(queries, found);
            reply(answer != QLatin1String("discard"));
        });
        w->show();
        QTRY_VERIFY(asked);
        const Scenario& s = w->model()->scenario();
        const QString bak = autosaveFile() + QStringLiteral(".bak");
        if (answer == QLatin1String("discard")) {
            QVERIFY(!QFile::exists(autosaveFile())); // the explicit Discard, only
            QVERIFY(!QFile::exists(bak));
            return;
        }
        QCOMPARE(s.params<RopeParams>().rope_theta, 123456.0); // the rest is restored
        if (answer == QLatin1String("locate")) {
            QCOMPARE(QString::fromStdString(s.content.queries.path), found);
            QCOMPARE(QString::fromStdString(s.content.keys.path), keys);
            QVERIFY(!QFile::exists(bak));
            return;
        }
        QVERIFY(!s.content.from_files()); // the default content in their place
        QCOMPARE(read(bak), bytes);       // and the autosave as it was, for when the drive is back
        const QString notice = w->notices()->text(QStringLiteral("recovery"));
        QVERIFY2(notice.contains(QDir::toNativeSeparators(queries)), qPrintable(notice));
        QVERIFY2(notice.contains(QDir::toNativeSeparators(bak)), qPrintable(notice));
    }

    void aSecondInstanceDoesNotTouchTheFirstOnesAutosave()
    {
        auto first = autosavingWindow(QStringLiteral("first"));
        auto second = autosavingWindow(QStringLiteral("second"));
        QVERIFY(first->autosave()->active());
        QVERIFY(!second->autosave()->active());
        QCOMPARE(second->autosave()->problem(), Autosave::Problem::OtherInstance);
        const QString notice = autosaveNotice(*second);
        QVERIFY2(notice.contains(QStringLiteral("Autosave is off")), qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("process %1").arg(QCoreApplication::applicationPid())),
                 qPrintable(notice));
        QVERIFY(second->model()->setValue(param("seq_len"), 77));
        QTest::qWait(100);
        QVERIFY(!QFile::exists(autosaveFile()));
        // Not a status-bar line that times out: the notice stays while the cause lasts.
        QTest::qWait(10500);
        QVERIFY(second->notices()->bar(QStringLiteral("autosave"))->isVisible());
        // The first closes: Retry takes over, and the notice goes.
        QVERIFY(first->close());
        first.reset();
        QPushButton* retry = second->notices()->button(QStringLiteral("autosave"), QStringLiteral("Retry"));
        QVERIFY(retry);
        retry->click();
        QVERIFY(second->autosave()->active());
        QVERIFY(autosaveNotice(*second).isEmpty());
        QTRY_VERIFY(QFile::exists(autosaveFile())); // the seq_len typed meanwhile is protected now
    }

    void aLockHeldByAnotherProcessNamesIt()
    {
        // A live process that is not this one holds the lock (its lock file names it, as Qt writes it).
        QProcess other;
        other.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(other.waitForStarted());
        write(QDir(m_state->path()).filePath(QStringLiteral("autosave.lock")),
              QByteArray::number(other.processId()) + "\nsleep\n" + QSysInfo::machineHostName().toUtf8() +
                  "\n");
        auto w = autosavingWindow(QStringLiteral("other-process"));
        QVERIFY(!w->autosave()->active());
        const QString notice = autosaveNotice(*w);
        QVERIFY2(notice.contains(QStringLiteral("process %1").arg(other.processId())), qPrintable(notice));
        other.kill();
        QVERIFY(other.waitForFinished());
        w->retryAutosave();
        QVERIFY2(w->autosave()->active(), qPrintable(autosaveNotice(*w)));
        QVERIFY(autosaveNotice(*w).isEmpty());
    }

    void anUnwritableStateFolderNamesTheRealCause_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("reason");
        // As root, permissions do not stop a write: the file size limit does (EFBIG, as ENOSPC would).
        QTest::newRow("writes fail") << QStringLiteral("fsize")
                                     << QString::fromLocal8Bit(std::strerror(EFBIG));
        QTest::newRow("folder under a file")
            << QStringLiteral("file") << QString::fromLocal8Bit(std::strerror(ENOTDIR));
    }

    void anUnwritableStateFolderNamesTheRealCause()
    {
        QFETCH(QString, how);
        QFETCH(QString, reason);
        std::unique_ptr<MainWindow> w;
        if (how == QLatin1String("fsize")) {
            std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead of killing us
            rlimit before{};
            QCOMPARE(getrlimit(RLIMIT_FSIZE, &before), 0);
            rlimit none = before;
            none.rlim_cur = 0;
            QCOMPARE(setrlimit(RLIMIT_FSIZE, &none), 0);
            w = autosavingWindow(QStringLiteral("full"));
            QCOMPARE(setrlimit(RLIMIT_FSIZE, &before), 0);
        } else {
            const QString file = m_state->filePath(QStringLiteral("a-file"));
            write(file, "x");
            qputenv("POSATLAS_STATE_DIR", QDir(file).filePath(QStringLiteral("state")).toLocal8Bit());
            w = autosavingWindow(QStringLiteral("under-a-file"));
        }
        QVERIFY(!w->autosave()->active());
        QCOMPARE(w->autosave()->problem(), Autosave::Problem::CannotWrite);
        const QString notice = autosaveNotice(*w);
        QVERIFY2(notice.contains(reason), qPrintable(notice));
        QVERIFY2(!notice.contains(QStringLiteral("another PosAtlas")), qPrintable(notice));
        QVERIFY(w->notices()->button(QStringLiteral("autosave"), QStringLiteral("Retry")));
        if (how == QLatin1String("fsize")) { // the limit is gone: Retry works and the notice goes
            w->retryAutosave();
            QVERIFY(w->autosave()->active());
            QVERIFY(autosaveNotice(*w).isEmpty());
        }
    }

    // Keys that no reader knows are most often typos whose value silently became the default.
    void aSessionWithAnUnknownKeyNamesTheNearestOne()
    {
        const QString path = m_dir.filePath(QStringLiteral("typo.posatlas.json"));
        write(path, R"({"format": "posatlas-session", "version": 1,
                        "scenario": {"method": "rope", "rope": {"rope_thta": 500}},
                        "views": {"settings": {"log_X": true}}})");
        SessionReadReport report;
        const Session s = load_session(path, &report);
        QCOMPARE(s.scenario.params<RopeParams>().rope_theta, RopeParams{}.rope_theta);
        QCOMPARE(report.unknown_keys.size(), std::size_t{2});
        QCOMPARE(unknown_key_message(report.unknown_keys[0]),
                 std::string("unknown key scenario.rope.rope_thta (did you mean rope_theta?)"));
        QCOMPARE(unknown_key_message(report.unknown_keys[1]),
                 std::string("unknown key views.settings.log_X (did you mean log_x?)"));
        auto w = autosavingWindow(QStringLiteral("typo"));
        QVERIFY(w->openFile(path)); // opened, with a notice that stays until closed
        const QString notice = w->notices()->text(QStringLiteral("session"));
        QVERIFY2(notice.contains(QStringLiteral("scenario.rope.rope_thta")) &&
                     notice.contains(QStringLiteral("rope_theta?")),
                 qPrintable(notice));
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
        auto w = autosavingWindow(QStringLiteral("fail"));
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
        QVERIFY2(autosaveNotice(*w).contains(QStringLiteral("not protected")),
                 qPrintable(autosaveNotice(*w)));
        QVERIFY(QDir(autosaveFile()).removeRecursively());
        QVERIFY(w->autosave()->saveNow()); // works again once the obstacle is gone
        QVERIFY(QFile::exists(autosaveFile()));
        QVERIFY(autosaveNotice(*w).isEmpty());
    }

    void aSymlinkAtTheAutosaveNameIsReplacedNotFollowed()
    {
        // The autosave is the program's own file: a symlink planted at its name must not carry the
        // session into another file.
        auto w = autosavingWindow(QStringLiteral("planted"));
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
        auto w = autosavingWindow(QStringLiteral("badopen"));
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
