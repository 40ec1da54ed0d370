// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions on the controllers' parts without a MainWindow (session_actions.h): a session saved and
// opened again restores the view state through the view controller, the docks it names are the ones
// shown, a saved or opened file heads the recent files, and a session's unknown keys become a notice.
#include "controller_parts.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;

class SessionControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void sessionRoundTrip()
    {
        test::ControllerParts parts;
        Scenario s = parts.model->scenario();
        s.seq_len = 96;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("96")));
        parts.viewController->followScenario();
        ViewSettings v = parts.viewController->settings();
        v.row0 = 10;
        v.col0 = 20;
        v.rows = v.cols = 32;
        v.subtract_mean = true;
        parts.viewController->setSettings(v);
        parts.dock(ViewKind::Spectrum)->hide();
        const Session saved = parts.sessions->currentSession();
        QCOMPARE(saved.scenario.seq_len, std::int64_t{96});
        QVERIFY(!saved.visible_views.contains(QStringLiteral("spectrum")));

        const QString path = parts.m_dir.filePath(QStringLiteral("a.posatlas.json"));
        QSignalSpy recent(parts.sessions, &SessionActions::recentFilesChanged);
        QVERIFY(parts.sessions->saveSession(path));
        QCOMPARE(recent.count(), 1);
        QCOMPARE(parts.settings->recentFiles().value(0), path);

        // Another "window": its own parts, the session opened there.
        test::ControllerParts other;
        QVERIFY(other.sessions->openSession(path));
        QCOMPARE(other.model->scenario().seq_len, std::int64_t{96});
        const ViewSettings& restored = other.viewController->settings();
        QCOMPARE(restored.row0, std::int64_t{10});
        QCOMPARE(restored.col0, std::int64_t{20});
        QCOMPARE(restored.rows, std::int64_t{32});
        QVERIFY(restored.subtract_mean);
        QVERIFY(other.dock(ViewKind::Spectrum)->isHidden());
        QVERIFY(!other.dock(ViewKind::Heatmap)->isHidden());
        QVERIFY(other.status->shownMessage().contains(QStringLiteral("a.posatlas.json")));
        QVERIFY(other.notices->isEmpty());
    }

    // A typo in a session: its value is the default, and a notice names the key and the likely one.
    void unknownKeysBecomeANotice()
    {
        test::ControllerParts parts;
        const QString path = parts.m_dir.filePath(QStringLiteral("typo.posatlas.json"));
        QVERIFY(parts.sessions->saveSession(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        QVERIFY(bytes.contains("\"seq_len\""));
        bytes.replace("\"seq_len\"", "\"seq_lenn\"");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        QVERIFY(parts.sessions->openSession(path));
        QVERIFY(!parts.notices->isEmpty());
        QVERIFY(parts.status->lastMessage().contains(QStringLiteral("seq_lenn")));
        QVERIFY(parts.status->lastMessage().contains(QStringLiteral("seq_len?")));

        // A clean session clears it.
        const QString clean = parts.m_dir.filePath(QStringLiteral("clean.posatlas.json"));
        QVERIFY(parts.sessions->saveSession(clean));
        QVERIFY(parts.sessions->openSession(clean));
        QVERIFY(parts.notices->isEmpty());
    }

    // A file that is no session changes nothing and says why.
    void unreadableSessionChangesNothing()
    {
        test::ControllerParts parts;
        const Scenario before = parts.model->scenario();
        const QString path = parts.m_dir.filePath(QStringLiteral("bad.posatlas.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"posatlas-session\", \"version\": ");
        f.close();
        QSignalSpy recent(parts.sessions, &SessionActions::recentFilesChanged);
        QVERIFY(!parts.sessions->openSession(path));
        QCOMPARE(recent.count(), 0);
        QVERIFY(parts.model->scenario() == before);
        QVERIFY(parts.status->lastMessage().startsWith(SessionActions::tr("Cannot open the session")));
    }
};

QTEST_MAIN(SessionControllerTest)
#include "test_session_controller.moc"
