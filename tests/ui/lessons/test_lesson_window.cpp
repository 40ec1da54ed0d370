// SPDX-License-Identifier: GPL-3.0-or-later
// Lessons in the main window (window/main_window_lessons.cpp, lessons/lesson_panel.h): every step of the
// course rendered offscreen with its figure in both languages; steps applied, restored and undone; the
// figures each step puts in front; closing returns to the scenario before the lesson; a bad file changes
// nothing; presentation mode steps through the lesson; the course page shown once.
#include "gui_support.h"
#include "lesson_fixtures.h"
#include "lessons/lesson.h"
#include "lessons/lesson_document.h"
#include "lessons/lesson_panel.h"
#include "model/scenario_model.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/note_text.h"
#include "views/token_layout_view.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"
#include "window/token_layout_controller.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFontMetrics>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class LessonWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void everyStepRendersInBothLanguages();
    void stepsApplyRestoreAndClose();
    void eachStepChoosesTheFiguresInFront();
    void badLessonFileKeepsState();
    void presentationStepsThroughLesson();
    void tokenLayoutLeavesTheFiguresTheRest();
    void startPageOnce();
};

void LessonWindowTest::everyStepRendersInBothLanguages()
{
    QTemporaryDir dir;
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(installLanguage(lang));
        const auto window = showMainWindow(dir, QStringLiteral("settings-") + lang, {.size = {1600, 1000}});
        MainWindow& w = *window;
        for (const QString& path : course_lessons(lang)) {
            QVERIFY2(w.openLesson(path), qPrintable(w.statusMessage()));
            const Lesson* lesson = w.currentLesson();
            QVERIFY(lesson);
            for (int s = 0; s < static_cast<int>(lesson->steps.size()); ++s) {
                const QString where = QStringLiteral("%1 step %2").arg(path).arg(s + 1);
                QVERIFY2(w.goToLessonStep(s), qPrintable(where));
                QVERIFY2(waitIdle(w.jobs()), qPrintable(where));
                const LessonStep& step = lesson->steps[static_cast<std::size_t>(s)];
                QVERIFY2(w.model()->scenario() == step.session.scenario, qPrintable(where));
                // Every formula of the step's text and prompts became an image in the panel.
                const int expected =
                    formulaCount(step.text) + formulaCount(step.tryThis) + formulaCount(step.question);
                QCOMPARE(lesson_formula_count(w.lessonPanel()->textBrowser()->document()), expected);
                // The panel and the figure are painted: the panel's text is not empty, the heatmap has ink.
                QVERIFY2(w.lessonPanel()->textBrowser()->document()->toPlainText().contains(step.title),
                         qPrintable(where));
                const QImage heatmap = renderToImage(*w.heatmapView(), {400, 300});
                QVERIFY2(!heatmap.isNull(), qPrintable(where));
                if (step.question.size()) {
                    w.lessonPanel()->answerButton()->click();
                    QVERIFY(w.lessonPanel()->answerShown());
                    QCOMPARE(lesson_formula_count(w.lessonPanel()->textBrowser()->document()),
                             expected + formulaCount(step.answer));
                }
            }
        }
    }
    installLanguage(QStringLiteral("en"));
}

void LessonWindowTest::stepsApplyRestoreAndClose()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("good.md")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kGood);
    file.close();
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    w.show();
    QVERIFY(w.model()->setValue(param("seq_len"), 100));
    const Scenario before = w.model()->scenario();
    QVERIFY(w.openLesson(file.fileName()));
    QVERIFY(w.lessonDock()->isVisible());
    QCOMPARE(w.currentLessonStep(), 0);
    const Scenario step0 = w.currentLesson()->steps[0].session.scenario;
    QCOMPARE(w.model()->scenario(), step0);
    // The live controls work inside a lesson; "Restore this step" and coming back put the step back.
    QVERIFY(w.model()->setValue(param("seq_len"), 80));
    QVERIFY(w.model()->scenario() != step0);
    w.lessonPanel()->restoreButton()->click();
    QCOMPARE(w.model()->scenario(), step0);
    QVERIFY(w.model()->setValue(param("seq_len"), 80));
    w.lessonPanel()->nextButton()->click();
    QCOMPARE(w.currentLessonStep(), 1);
    QCOMPARE(w.model()->scenario().method, Method::ALiBi);
    QCOMPARE(w.lessonPanel()->stepBox()->currentIndex(), 1);
    QVERIFY(!w.lessonPanel()->nextButton()->isEnabled());
    w.lessonPanel()->previousButton()->click();
    QCOMPARE(w.model()->scenario(), step0);
    // Each step is one undo step.
    w.model()->undoStack()->undo();
    QCOMPARE(w.model()->scenario().method, Method::ALiBi);
    // Closing returns to what was on screen before the lesson, and the course page shows.
    w.closeLesson();
    QVERIFY(!w.currentLesson());
    QCOMPARE(w.model()->scenario(), before);
    QVERIFY(w.lessonPanel()->isCoursePageShown());
}

// A step on ALiBi after a RoPE step that showed the spectrum: the spectrum's group shows the curves again
// (the spectrum only says "applies to RoPE" there). Back to the list leaves the lesson.
void LessonWindowTest::eachStepChoosesTheFiguresInFront()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("docks.md")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("# Docks\n\n## RoPE spectrum\n\ntext\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}, "
               "\"views\": "
               "{\"current\": \"spectrum\"}}\n```\n\n## ALiBi heatmap\n\ntext\n\n```posatlas\n{\"scenario\": "
               "{\"method\": \"alibi\"}, \"views\": {\"current\": \"heatmap\"}}\n```\n");
    file.close();
    const auto window =
        showMainWindow(dir, QStringLiteral("settings"),
                       {.size = {1600, 1000}, .computeHiddenViews = false, .waitForJobs = false});
    MainWindow& w = *window;
    const Scenario before = w.model()->scenario();
    QVERIFY(w.openLesson(file.fileName()));
    QTest::qWait(50);
    const auto inFront = [&](ViewKind k) {
        return w.dock(k)->isVisible() && !w.dock(k)->widget()->visibleRegion().isEmpty();
    };
    QVERIFY(inFront(ViewKind::Spectrum));
    QVERIFY(inFront(ViewKind::Heatmap));
    QVERIFY(w.goToLessonStep(1));
    QTest::qWait(50);
    QVERIFY(inFront(ViewKind::Heatmap));
    QVERIFY(inFront(ViewKind::Curves));
    QVERIFY(!inFront(ViewKind::Spectrum));
    // The list button: the lesson closes and the figures return to the scenario before it.
    w.lessonPanel()->findChild<QToolButton*>(QStringLiteral("lessonCourseButton"))->click();
    QVERIFY(!w.currentLesson());
    QCOMPARE(w.model()->scenario(), before);
    QVERIFY(w.lessonPanel()->isCoursePageShown());
}

void LessonWindowTest::tokenLayoutLeavesTheFiguresTheRest()
{
    // Lesson 14's M-RoPE steps on a laptop's 1280 x 720: every token of the layout in the dock at the
    // bottom (step 2's 96 showed 32: "enlarge the view"), the dock no taller than its cells need and at
    // most its share of the window (TokenLayoutController::kMaxWindowShare), the figures above it getting
    // the rest, the window no taller than it was, and the curves' note not over the chart. Run again
    // under a Chinese locale (ui_lesson_window_tests_zh_locale), whose fonts have taller lines: there the
    // figures keep their lines first and the view says how many of step 2's tokens fit.
    QTemporaryDir dir;
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(installLanguage(lang));
        const auto window = showMainWindow(dir, QStringLiteral("tokens-") + lang, {.size = {1280, 720}});
        MainWindow& w = *window;
        const QString lesson = course_lessons(lang).filter(QStringLiteral("14-")).value(0);
        QVERIFY(w.openLesson(lesson));
        for (const int step : {0, 1}) {
            const QString where = QStringLiteral("%1 step %2").arg(lang).arg(step + 1);
            QVERIFY2(w.goToLessonStep(step), qPrintable(where));
            QVERIFY2(waitIdle(w.jobs()), qPrintable(where));
            const TokenLayoutView* view = w.tokenLayoutView();
            const QDockWidget* figure = w.dock(ViewKind::Heatmap);
            QVERIFY2(!view->data().ids_t.empty(), qPrintable(where));
            // What is wrong with the layout, or nothing: checked until the dock's fit has been laid out
            // (it follows the token layout's job, after a turn of the event loop).
            const auto wrong = [&]() -> QString {
                const int needed = view->heightForCells(view->width());
                const std::size_t cells = view->cellRects(QRectF(view->rect()), RenderOptions{}).size();
                const int dock = w.tokenLayoutDock()->height();
                // Every cell, or as many as fit above the line that says so while the figures keep
                // their lines of text (TokenLayoutController::kFigureLines): under a Chinese desktop's
                // taller lines 1280 x 720 has no room for both.
                const int floor = TokenLayoutController::kFigureLines * QFontMetrics(w.font()).lineSpacing();
                if (cells != view->data().ids_t.size() &&
                    (view->countLine(QRectF(view->rect()), RenderOptions{}).isEmpty() ||
                     w.height() - dock - w.menuWidget()->height() - w.statusBar()->height() < floor - 10 ||
                     w.height() - dock - w.menuWidget()->height() - w.statusBar()->height() > floor + 20))
                    return QStringLiteral("%1 of %2 cells, figures %3 for %4")
                        .arg(cells)
                        .arg(view->data().ids_t.size())
                        .arg(w.height() - dock - w.menuWidget()->height() - w.statusBar()->height())
                        .arg(floor);
                if (view->height() > needed)
                    return QStringLiteral("view %1 > needed %2").arg(view->height()).arg(needed);
                if (dock > w.height() * TokenLayoutController::kMaxWindowShare + 20)
                    return QStringLiteral("dock %1 of %2").arg(dock).arg(w.height());
                // The window keeps the size it was given: the docks' minimums fit in it.
                if (w.size() != QSize(1280, 720))
                    return QStringLiteral("window %1 x %2").arg(w.width()).arg(w.height());
                // The curves' note, wrapped in a narrow column, stays below the chart inside the view,
                // with at least its minimum lines.
                const CurveView* curves = w.curveView();
                const NoteText* note = curves->note();
                if (curves->isVisible() && note->isVisible() &&
                    (note->geometry().top() <= curves->chartView()->geometry().bottom() ||
                     note->geometry().bottom() >= curves->height() ||
                     note->height() < note->minimumSizeHint().height()))
                    return QStringLiteral("note %1 px at %2 under a chart to %3 in a view %4 high")
                        .arg(note->height())
                        .arg(note->y())
                        .arg(curves->chartView()->geometry().bottom())
                        .arg(curves->height());
                // No gap between them: at most the menu bar, the status bar and the separators.
                if (figure->height() + dock < w.height() - 100)
                    return QStringLiteral("figure %1 + dock %2 of %3")
                        .arg(figure->height())
                        .arg(dock)
                        .arg(w.height());
                return {};
            };
            QTRY_COMPARE_WITH_TIMEOUT(wrong(), QString(), 10000);
        }
        w.closeLesson();
    }
    QVERIFY(installLanguage(QStringLiteral("en")));
}

void LessonWindowTest::badLessonFileKeepsState()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.md"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("# Broken\n\n## Step\n\n```posatlas\n{\"scenario\": {\"rope\": {\"rope_theta\": -1}}}\n```\n");
    file.close();
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    const Scenario before = w.model()->scenario();
    QVERIFY(!w.openLesson(path));
    QVERIFY2(w.statusMessage().contains(QStringLiteral("broken.md:5:")), qPrintable(w.statusMessage()));
    QVERIFY2(w.statusMessage().contains(QStringLiteral("rope_theta")), qPrintable(w.statusMessage()));
    QCOMPARE(w.model()->scenario(), before);
    QVERIFY(!w.currentLesson());
    // A missing file and a binary file are messages too.
    QVERIFY(!w.openLesson(dir.filePath(QStringLiteral("missing.md"))));
    QVERIFY(w.statusMessage().contains(QStringLiteral("missing.md")));
    QFile binary(dir.filePath(QStringLiteral("bin.md")));
    QVERIFY(binary.open(QIODevice::WriteOnly));
    binary.write(QByteArray("\xff\xfe\x00\x01# x", 7));
    binary.close();
    QVERIFY(!w.openLesson(binary.fileName()));
    QCOMPARE(w.model()->scenario(), before);
}

void LessonWindowTest::presentationStepsThroughLesson()
{
    QTemporaryDir dir;
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    w.show();
    const QString path = course_lessons(QStringLiteral("en")).value(0);
    QVERIFY(w.openLesson(path));
    w.presentation()->enter();
    QTRY_VERIFY(w.isFullScreen());
    QCOMPARE(w.presentation()->stepSource()->count(), static_cast<int>(w.currentLesson()->steps.size()));
    QCOMPARE(w.presentation()->currentStep(), 0);
    QVERIFY(w.lessonDock()->isVisible()); // the lesson text stays beside the figure
    QTest::keyClick(&w, Qt::Key_PageDown);
    QCOMPARE(w.currentLessonStep(), 1);
    QCOMPARE(w.lessonPanel()->step(), 1);
    QVERIFY(w.presentation()->stepLabel().contains(w.currentLesson()->steps[1].title));
    w.lessonPanel()->previousButton()->click(); // the panel's buttons move the overlay too
    QCOMPARE(w.presentation()->currentStep(), 0);
    w.presentation()->leave();
}

void LessonWindowTest::startPageOnce()
{
    QTemporaryDir dir;
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    QVERIFY(!w.lessonDock()->isVisibleTo(&w)); // a settings file of its own: no start page by itself
    QVERIFY(w.showStartPageOnce());
    QVERIFY(w.lessonDock()->isVisibleTo(&w));
    QVERIFY(w.lessonPanel()->isCoursePageShown());
    QVERIFY(w.lessonPanel()->courseCount() >= 11);
    // The course page typesets its summaries' formulas (no raw $…$ left) and links every lesson.
    const QTextDocument* course = w.lessonPanel()->courseText()->document();
    QVERIFY(lesson_formula_count(course) > 0);
    QVERIFY2(!course->toPlainText().contains(QLatin1Char('$')), qPrintable(course->toPlainText().left(400)));
    QVERIFY(course->toHtml().contains(QStringLiteral("lesson:11")));
    QVERIFY(!w.showStartPageOnce());
    // Choosing a lesson on the course page (its link) opens it.
    emit w.lessonPanel()->courseText()->anchorClicked(QUrl(QStringLiteral("lesson:1")));
    QVERIFY(w.currentLesson());
    QCOMPARE(w.currentLesson()->source, course_lessons(course_language(currentLanguage())).value(1));
}

QTEST_MAIN(LessonWindowTest)
#include "test_lesson_window.moc"
