// SPDX-License-Identifier: GPL-3.0-or-later
// The lessons' controller on the controllers' parts without a MainWindow (lesson_controller.h): a
// lesson opens at its first step, each step is one undo step that brings its view to the front,
// closing puts back what was on screen before, a lesson that does not read changes nothing, and the
// start page shows once.
#include "controller_parts.h"
#include "lessons/lesson_panel.h"
#include "window/lesson_controller.h"

#include <QFile>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

const char* const kLesson = R"(# A lesson

## First step

RoPE with a small base.

```posatlas
{"scenario": {"method": "rope", "seq_len": 64, "rope": {"rope_theta": 500}},
 "views": {"current": "curves"}}
```

## Second step

ALiBi.

```posatlas
{"scenario": {"method": "alibi", "seq_len": 48}, "views": {"current": "heatmap"}}
```
)";

// The lessons' controller on `parts`, its dock on the right; `focused` records the views it focuses.
struct Lessons {
    explicit Lessons(test::ControllerParts& parts)
    {
        panel = new LessonPanel;
        dock = new QDockWidget(QStringLiteral("Lesson"), &parts.window);
        dock->setWidget(panel);
        parts.window.addDockWidget(Qt::RightDockWidgetArea, dock);
        dock->hide();
        LessonController::Parts p;
        p.window = &parts.window;
        p.dock = dock;
        p.panel = panel;
        p.settings = parts.settings.get();
        p.sessions = parts.sessions;
        p.views = parts.viewController;
        p.status = parts.status;
        p.focusView = [this](ViewKind kind) { focused.push_back(kind); };
        controller = std::make_unique<LessonController>(p);
    }
    LessonPanel* panel;
    QDockWidget* dock;
    std::vector<ViewKind> focused;
    std::unique_ptr<LessonController> controller;
};

QString writeLesson(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return path;
}

} // namespace

class LessonControllerTest : public QObject
{
    Q_OBJECT

private slots:
    void stepsAndClose()
    {
        test::ControllerParts parts;
        Lessons lessons(parts);
        LessonController& c = *lessons.controller;
        Scenario mine = parts.model->scenario();
        mine.seq_len = 200;
        QVERIFY(parts.model->setScenario(mine, QStringLiteral("mine")));
        const int steps = parts.model->undoStack()->count();

        const QString path = writeLesson(parts.m_dir.filePath(QStringLiteral("a.md")), kLesson);
        QVERIFY(c.openLesson(path));
        QVERIFY(c.currentLesson());
        QCOMPARE(c.currentLesson()->steps.size(), std::size_t{2});
        QCOMPARE(c.currentLessonStep(), 0);
        QCOMPARE(parts.model->scenario().params<RopeParams>().rope_theta, 500.0);
        QCOMPARE(parts.model->scenario().seq_len, std::int64_t{64});
        QCOMPARE(parts.model->undoStack()->count(), steps + 1);
        QVERIFY(!lessons.dock->isHidden());
        QVERIFY(!lessons.focused.empty());
        QCOMPARE(lessons.focused.back(), ViewKind::Curves);

        QVERIFY(c.goToLessonStep(1));
        QCOMPARE(c.currentLessonStep(), 1);
        QCOMPARE(parts.model->scenario().method, Method::ALiBi);
        QCOMPARE(lessons.focused.back(), ViewKind::Heatmap);
        QVERIFY(!c.goToLessonStep(2)); // no third step
        QCOMPARE(c.currentLessonStep(), 1);

        c.closeLesson();
        QVERIFY(!c.currentLesson());
        QCOMPARE(c.currentLessonStep(), -1);
        QVERIFY(parts.model->scenario() == mine);
    }

    void unreadableLessonChangesNothing()
    {
        test::ControllerParts parts;
        Lessons lessons(parts);
        const Scenario before = parts.model->scenario();
        const QString path =
            writeLesson(parts.m_dir.filePath(QStringLiteral("broken.md")), "# L\n\n## S\n\nno block\n");
        QVERIFY(!lessons.controller->openLesson(path));
        QVERIFY(!lessons.controller->currentLesson());
        QVERIFY(parts.model->scenario() == before);
        QVERIFY(parts.status->lastMessage().contains(QStringLiteral("broken.md")));
    }

    void startPageOnce()
    {
        test::ControllerParts parts;
        Lessons lessons(parts);
        QVERIFY(!parts.settings->courseStartPageShown());
        QVERIFY(lessons.controller->showStartPageOnce());
        QVERIFY(parts.settings->courseStartPageShown());
        QVERIFY(!lessons.dock->isHidden());
        QVERIFY(!lessons.controller->showStartPageOnce());
    }
};

QTEST_MAIN(LessonControllerTest)
#include "test_lesson_controller.moc"
