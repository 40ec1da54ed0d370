// SPDX-License-Identifier: GPL-3.0-or-later
// Imports on the controllers' parts without a MainWindow (import_controller.h): a config.json or a
// preset is one undo step with a report and a status message, a failed import changes nothing and
// names the file, and openFile sends sessions to the session actions.
#include "controller_parts.h"
#include "window/import_controller.h"
#include "window/language.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace

class ImportControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void configIsOneUndoStepWithAReport()
    {
        test::ControllerParts parts;
        ImportController import(parts.model, parts.settings.get(), parts.sessions, parts.status,
                                &parts.window);
        const QString path = parts.m_dir.filePath(QStringLiteral("config.json"));
        write(path, R"({"model_type": "llama", "rope_theta": 321000.0, "hidden_size": 2048,
                        "num_attention_heads": 16, "max_position_embeddings": 4096,
                        "tie_word_embeddings": false})");
        QSignalSpy shown(&import, &ImportController::reportShown);
        QSignalSpy recent(&import, &ImportController::recentFilesChanged);
        const int steps = parts.model->undoStack()->count();
        QVERIFY(import.openConfig(path));
        QCOMPARE(parts.model->undoStack()->count(), steps + 1);
        QCOMPARE(parts.model->scenario().method, Method::RoPE);
        QCOMPARE(parts.model->scenario().params<RopeParams>().rope_theta, 321000.0);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(recent.count(), 1);
        QCOMPARE(parts.settings->recentFiles().value(0), path);
        QVERIFY(import.reportText().contains(QStringLiteral("rope_theta")));
        QCOMPARE(import.reportWidget()->toPlainText(), import.reportText());
        QVERIFY(parts.status->shownMessage().contains(QStringLiteral("config.json")));
    }

    // The report lists the layers with the lines `posatlas inspect` prints (core layer_lines): Mistral's
    // sliding window on every layer (MistralAttention).
    void reportListsTheLayers()
    {
        test::ControllerParts parts;
        ImportController import(parts.model, parts.settings.get(), parts.sessions, parts.status,
                                &parts.window);
        const QString path = parts.m_dir.filePath(QStringLiteral("config.json"));
        write(path, R"({"model_type": "mistral", "num_hidden_layers": 4, "sliding_window": 4096})");
        QVERIFY(import.openConfig(path));
        QVERIFY2(import.reportText().contains(QStringLiteral("Layers (4)")), qPrintable(import.reportText()));
        QVERIFY2(import.reportText().contains(QStringLiteral("layers 0-3: sliding 4096, RoPE θ=10000")),
                 qPrintable(import.reportText()));
    }

    void failedImportChangesNothing()
    {
        test::ControllerParts parts;
        ImportController import(parts.model, parts.settings.get(), parts.sessions, parts.status,
                                &parts.window);
        const Scenario before = parts.model->scenario();
        const QString path = parts.m_dir.filePath(QStringLiteral("broken.json"));
        write(path, "{\"model_type\": ");
        QSignalSpy shown(&import, &ImportController::reportShown);
        const int steps = parts.model->undoStack()->count();
        QVERIFY(!import.openConfig(path));
        QVERIFY(!import.loadPreset(QStringLiteral("no-such-preset")));
        QVERIFY(parts.model->scenario() == before);
        QCOMPARE(parts.model->undoStack()->count(), steps);
        QCOMPARE(shown.count(), 0);
        QVERIFY(parts.status->lastMessage().contains(QStringLiteral("no-such-preset")));
        QVERIFY(!import.useWeights(path, QStringLiteral("wpe.weight")));
        QVERIFY(parts.status->lastMessage().contains(QStringLiteral("broken.json")));
        QVERIFY(parts.settings->recentFiles().isEmpty());
    }

    void presetIsOneUndoStep()
    {
        test::ControllerParts parts;
        ImportController import(parts.model, parts.settings.get(), parts.sessions, parts.status,
                                &parts.window);
        const int steps = parts.model->undoStack()->count();
        QVERIFY(import.loadPreset(QStringLiteral("llama-3.1-8b")));
        QCOMPARE(parts.model->undoStack()->count(), steps + 1);
        QCOMPARE(parts.model->scenario().params<RopeParams>().rope_theta, 500000.0);
        QVERIFY(parts.status->shownMessage().contains(QStringLiteral("Llama")));
    }

    // The controllers' texts were the main window's: in Chinese they are still found under its context.
    void messagesAreTranslated()
    {
        test::ControllerParts parts;
        ImportController import(parts.model, parts.settings.get(), parts.sessions, parts.status,
                                &parts.window);
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        QVERIFY(!import.loadPreset(QStringLiteral("no-such-preset")));
        QVERIFY(installLanguage(QStringLiteral("en")));
        QVERIFY2(parts.status->lastMessage().startsWith(QString::fromUtf8("无法加载预设 no-such-preset")),
                 qPrintable(parts.status->lastMessage()));
    }

    // openFile tells a session from a config by its name or content.
    void openFileSendsSessionsToTheSessionActions()
    {
        test::ControllerParts parts;
        ImportController import(parts.model, parts.settings.get(), parts.sessions, parts.status,
                                &parts.window);
        Scenario s = parts.model->scenario();
        s.seq_len = 77;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("77")));
        const QString path = parts.m_dir.filePath(QStringLiteral("renamed.json")); // a session by content
        QVERIFY(parts.sessions->saveSession(path));
        s.seq_len = 55;
        QVERIFY(parts.model->setScenario(s, QStringLiteral("55")));
        QSignalSpy shown(&import, &ImportController::reportShown);
        QVERIFY(import.openFile(path));
        QCOMPARE(parts.model->scenario().seq_len, std::int64_t{77});
        QCOMPARE(shown.count(), 0); // no config report for a session
    }
};

QTEST_MAIN(ImportControllerTest)
#include "test_import_controller.moc"
