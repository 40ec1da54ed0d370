// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson step's animation in the main window (window/lesson_controller.h, lessons/lesson_panel.h): the
// course's RoPE rotation step and its dynamic-NTK step have one; Play animation plays it in the panel;
// Export this animation… opens File > Export Animation… filled in with the step's sweep, view and
// scenario, in both languages.
#include "export/animation_dialog.h"
#include "export/animation_preview.h"
#include "gui_support.h"
#include "lessons/lesson.h"
#include "lessons/lesson_panel.h"
#include "model/scenario_model.h"
#include "window/language.h"
#include "window/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// The course lesson whose file name starts with `prefix` ("08-"), in `lang`.
QString courseLesson(const QString& lang, const QString& prefix)
{
    for (const QString& path : course_lessons(lang))
        if (path.section(QLatin1Char('/'), -1).startsWith(prefix))
            return path;
    return {};
}

// The first step of the open lesson that has an animation; -1 when none.
int animatedStep(const Lesson& lesson)
{
    for (std::size_t i = 0; i < lesson.steps.size(); ++i)
        if (lesson.steps[i].animation)
            return static_cast<int>(i);
    return -1;
}

} // namespace

class LessonAnimationTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }
    void courseStepsHaveAnimations();
    void exportThisAnimationFillsTheDialog();
    void playAnimationPlaysInThePanel();

private:
    QTemporaryDir m_dir;
};

void LessonAnimationTest::courseStepsHaveAnimations()
{
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        const Lesson rope = load_lesson(courseLesson(lang, QStringLiteral("08-")));
        const int r = animatedStep(rope);
        QCOMPARE(r, 0); // the rotation step: the query position m moves
        QCOMPARE(rope.steps[0].animation->sweep.field, std::string(kQueryPositionField));
        QCOMPARE(rope.steps[0].session.current_view, QStringLiteral("rotation"));
        const Lesson beyond = load_lesson(courseLesson(lang, QStringLiteral("09-")));
        const int b = animatedStep(beyond);
        QVERIFY(b >= 0); // a context-extension step: the current length moves
        QCOMPARE(beyond.steps[static_cast<std::size_t>(b)].animation->sweep.field,
                 std::string("rope_seq_len"));
    }
}

void LessonAnimationTest::exportThisAnimationFillsTheDialog()
{
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(installLanguage(lang));
        const auto window = showMainWindow(m_dir, QStringLiteral("export-") + lang);
        MainWindow& w = *window;
        QVERIFY2(w.openLesson(courseLesson(lang, QStringLiteral("09-"))), qPrintable(w.statusMessage()));
        const int b = animatedStep(*w.currentLesson());
        QVERIFY(w.goToLessonStep(b));
        const LessonStep& step = w.currentLesson()->steps[static_cast<std::size_t>(b)];
        LessonPanel* panel = w.lessonPanel();
        QVERIFY(panel->exportAnimationButton()->isVisible());
        panel->exportAnimationButton()->click(); // one click
        auto* dialog = w.findChild<AnimationDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        const SweepSpec& sweep = step.animation->sweep;
        QCOMPARE(dialog->fieldCombo()->currentData().toString().toStdString(), sweep.field);
        QCOMPARE(dialog->fromEdit()->text().toDouble(), sweep.from);
        QCOMPARE(dialog->toEdit()->text().toDouble(), sweep.to);
        QCOMPARE(dialog->logCheck()->isChecked(), sweep.log);
        QCOMPARE(dialog->framesSpin()->value(), sweep.frames);
        QCOMPARE(dialog->fpsSpin()->value(), step.animation->fps);
        QString error;
        const AnimationRequest r = dialog->request(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(r.view, ViewKind::Spectrum);
        QCOMPARE(r.scenario, step.session.scenario);
        if (lang == QLatin1String("zh_CN"))
            QCOMPARE(dialog->windowTitle(), QStringLiteral("导出动画"));
        dialog->reject();
        QTRY_VERIFY(!w.findChild<AnimationDialog*>()); // deleted on close
        w.closeLesson();
    }
    installLanguage(QStringLiteral("en"));
}

void LessonAnimationTest::playAnimationPlaysInThePanel()
{
    const auto window = showMainWindow(m_dir, QStringLiteral("play"));
    MainWindow& w = *window;
    QVERIFY(w.openLesson(courseLesson(QStringLiteral("en"), QStringLiteral("08-"))));
    QVERIFY(w.goToLessonStep(0));
    LessonPanel* panel = w.lessonPanel();
    AnimationPreview* preview = panel->animationPreview();
    QVERIFY(!preview->isVisible());
    QSignalSpy ready(preview, &AnimationPreview::ready);
    panel->playAnimationButton()->click();
    QVERIFY(preview->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 60000);
    QCOMPARE(preview->frameCount(),
             static_cast<qsizetype>(w.currentLesson()->steps[0].animation->sweep.frames));
    // Another step: the animation stops and goes.
    QVERIFY(w.goToLessonStep(1));
    QVERIFY(!preview->isVisible());
    QVERIFY(!preview->computing());
    w.closeLesson();
}

QTEST_MAIN(LessonAnimationTest)
#include "test_lesson_animation.moc"
