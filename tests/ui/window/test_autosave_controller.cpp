// SPDX-License-Identifier: GPL-3.0-or-later
// The autosave controller on the controllers' parts without a MainWindow (autosave_controller.h): a
// snapshot is the session on screen, a run that ended without a clean close is offered and restored or
// discarded, and a folder that cannot be used says so in a notice until Retry succeeds.
#include "controller_parts.h"
#include "model/autosave.h"
#include "window/autosave_controller.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <memory>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

std::unique_ptr<AutosaveController> makeAutosave(test::ControllerParts& parts)
{
    return std::make_unique<AutosaveController>(parts.sessions, parts.viewController, parts.notices,
                                                parts.status, AutosaveController::ExplorerAccess{},
                                                &parts.window);
}

// A run that autosaved `seqLen` and ended without a clean close (no finish()).
void crashedRun(const QString& stateDir, std::int64_t seqLen)
{
    test::ControllerParts parts;
    auto autosave = makeAutosave(parts);
    autosave->start(stateDir);
    QVERIFY(autosave->autosave()->active());
    Scenario s = parts.model->scenario();
    s.seq_len = seqLen;
    QVERIFY(parts.model->setScenario(s, QStringLiteral("edit")));
    QVERIFY(autosave->autosave()->saveNow());
}

} // namespace

class AutosaveControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void snapshotIsTheSessionOnScreen()
    {
        test::ControllerParts parts;
        auto autosave = makeAutosave(parts);
        Scenario s = parts.model->scenario();
        s.seq_len = 123;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("123")));
        parts.dock(ViewKind::Rotation)->hide();
        const Session session = session_from_json(autosave->snapshot());
        QCOMPARE(session.scenario.seq_len, std::int64_t{123});
        QVERIFY(!session.visible_views.contains(QStringLiteral("rotation")));
        QCOMPARE(session.current_view, view_kind_id(parts.sessions->currentView()));
        QVERIFY(!session.explorer); // no explorer open
    }

    void crashIsOfferedAndRestored()
    {
        QTemporaryDir state;
        crashedRun(state.path(), 111);
        test::ControllerParts parts;
        auto autosave = makeAutosave(parts);
        QString asked;
        autosave->setRecoveryPrompt([&asked](const QString& text, std::function<void(bool)> answer) {
            asked = text;
            answer(true);
        });
        autosave->start(state.path());
        QVERIFY(autosave->autosave()->recoverable());
        QVERIFY(autosave->offerRecovery());
        QVERIFY(!asked.isEmpty());
        QCOMPARE(parts.model->scenario().seq_len, std::int64_t{111});
        QVERIFY(!autosave->autosave()->recoverable());
        QVERIFY(!autosave->offerRecovery()); // once
        QCOMPARE(parts.status->shownMessage(),
                 QCoreApplication::translate("posatlas::ui::MainWindow", "Restored the autosaved work"));
        autosave->autosave()->finish();
    }

    void crashIsDiscarded()
    {
        QTemporaryDir state;
        crashedRun(state.path(), 112);
        test::ControllerParts parts;
        auto autosave = makeAutosave(parts);
        autosave->setRecoveryPrompt([](const QString&, std::function<void(bool)> answer) { answer(false); });
        autosave->start(state.path());
        const Scenario before = parts.model->scenario();
        QVERIFY(autosave->offerRecovery());
        QVERIFY(parts.model->scenario() == before);
        QVERIFY(!autosave->autosave()->recoverable());
        QVERIFY(!QFile::exists(QDir(state.path()).filePath(QLatin1String(Autosave::kFileName))));
        autosave->autosave()->finish();
    }

    // A folder that is a file: autosave is off, a notice and the status say so; Retry once it is a
    // folder turns it on and the notice goes.
    void unusableFolderNoticeAndRetry()
    {
        QTemporaryDir base;
        const QString path = base.filePath(QStringLiteral("state"));
        {
            QFile blocker(path);
            QVERIFY(blocker.open(QIODevice::WriteOnly));
        }
        test::ControllerParts parts;
        auto autosave = makeAutosave(parts);
        autosave->start(path);
        QVERIFY(!autosave->autosave()->active());
        QVERIFY(!parts.notices->isEmpty());
        QVERIFY(parts.status->lastMessage().startsWith(
            QCoreApplication::translate("posatlas::ui::MainWindow", "Autosave is off: %1.")
                .section(QLatin1Char('%'), 0, 0)));
        QVERIFY(QFile::remove(path));
        QVERIFY(QDir().mkpath(path));
        autosave->retry();
        QVERIFY(autosave->autosave()->active());
        QVERIFY(parts.notices->isEmpty());
        autosave->autosave()->finish();
    }

    void noFolderNoAutosave()
    {
        test::ControllerParts parts;
        auto autosave = makeAutosave(parts);
        autosave->start(QString());
        QVERIFY(!autosave->autosave()->active());
        QVERIFY(!autosave->offerRecovery());
        QVERIFY(parts.notices->isEmpty());
    }
};

QTEST_MAIN(AutosaveControllerTest)
#include "test_autosave_controller.moc"
