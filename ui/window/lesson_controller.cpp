// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/lesson_controller.h"

#include "export/animation_dialog.h"
#include "export/animation_preview.h"
#include "lessons/lesson_document.h"
#include "lessons/lesson_panel.h"
#include "model/settings.h"
#include "window/language.h"
#include "window/presentation.h"
#include "window/session_actions.h"
#include "window/view_controller.h"
#include "window/window_status.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QTextBrowser>
#include <QTimer>
#include <algorithm>

namespace posatlas::ui {

namespace {

class LessonSteps : public StepSource
{
public:
    explicit LessonSteps(LessonController* lessons) : m_window(lessons) {}
    int count() const override
    {
        const Lesson* l = m_window->currentLesson();
        return l ? static_cast<int>(l->steps.size()) : 0;
    }
    QString title(int index) const override
    {
        const Lesson* l = m_window->currentLesson();
        return l && index >= 0 && index < count() ? l->steps[static_cast<std::size_t>(index)].title
                                                  : QString();
    }
    bool show(int index) override { return m_window->goToLessonStep(index); }
    bool showsOwnLabel() const override { return true; } // the lesson panel's step list
    std::optional<int> current() const override
    {
        const int step = m_window->currentLessonStep();
        return step >= 0 ? std::optional<int>(step) : std::nullopt;
    }

private:
    LessonController* m_window;
};

} // namespace

LessonController::LessonController(const Parts& parts, QObject* parent)
    : QObject(parent), m_window(parts.window), m_lessonDock(parts.dock), m_lessonPanel(parts.panel),
      m_settings(parts.settings), m_sessions(parts.sessions), m_presentation(parts.presentation),
      m_views(parts.views), m_status(parts.status), m_focusView(parts.focusView)
{
    connect(m_lessonPanel, &LessonPanel::lessonChosen, this, [this](int index) {
        if (index >= 0 && index < static_cast<int>(m_course.size()))
            openLesson(m_course[static_cast<std::size_t>(index)].source); // the lesson the page listed
    });
    connect(m_lessonPanel, &LessonPanel::openFileRequested, this, &LessonController::openLessonDialog);
    connect(m_lessonPanel, &LessonPanel::stepRequested, this, &LessonController::goToLessonStep);
    connect(m_lessonPanel, &LessonPanel::restoreRequested, this, [this] { goToLessonStep(m_lessonStep); });
    // Back to the list leaves the lesson: the figures return to what was on screen before it, as Close does
    // (the list with the last step's scenario still showing looked like a step without its text).
    connect(m_lessonPanel, &LessonPanel::courseRequested, this, [this] {
        if (m_lesson)
            closeLesson(); // shows the course page
        else
            showCourse();
    });
    connect(m_lessonPanel, &LessonPanel::closeRequested, this, &LessonController::closeLesson);
    connect(m_lessonPanel, &LessonPanel::playAnimationRequested, this, &LessonController::playStepAnimation);
    connect(m_lessonPanel, &LessonPanel::exportAnimationRequested, this, [this] { exportStepAnimation(); });
    // Presenting a lesson: its text takes a quarter of the screen beside the figure, which keeps at
    // least half beside the parameter panel (the window is full screen once the event loop has run;
    // leaving restores the docks as they were).
    if (m_presentation)
        connect(m_presentation, &Presentation::activeChanged, this, [this](bool active) {
            if (active && m_lessonDock->isVisible() && !m_lessonDock->isFloating())
                QTimer::singleShot(0, this, [this] {
                    if (m_presentation->isActive())
                        m_window->resizeDocks({m_lessonDock}, {m_window->width() / 4}, Qt::Horizontal);
                });
        });
}

bool LessonController::presenting() const
{
    return m_presentation && m_presentation->isActive();
}

void LessonController::loadCourse()
{
    if (!m_course.empty())
        return;
    for (const QString& path : course_lessons(course_language(currentLanguage()))) {
        try {
            m_course.push_back(load_lesson(path, typeset_checker()));
        } catch (const LessonError& e) {
            // A shipped lesson that does not read is a bug the tests catch; the course still opens.
            m_status->showError(QString::fromUtf8(e.what()));
            Lesson broken;
            broken.source = path;
            broken.title = QFileInfo(path).completeBaseName();
            broken.summary = QString::fromUtf8(e.what());
            m_course.push_back(std::move(broken));
        }
    }
    m_lessonPanel->setCourse(m_course);
}

void LessonController::showLessonDock()
{
    if (m_lessonDock->isVisible())
        return;
    m_lessonDock->show();
    m_lessonDock->raise();
    if (!m_lessonDock->isFloating())
        m_window->resizeDocks({m_lessonDock}, {std::max(360, m_window->width() * 3 / 10)}, Qt::Horizontal);
}

void LessonController::showCourse()
{
    loadCourse();
    m_lessonPanel->showCoursePage();
    showLessonDock();
}

bool LessonController::showStartPageOnce()
{
    if (m_settings->courseStartPageShown())
        return false;
    m_settings->setCourseStartPageShown(true);
    showCourse();
    return true;
}

void LessonController::openLessonDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        m_window, QCoreApplication::translate("posatlas::ui::MainWindow", "Open a lesson"), m_lessonDir,
        QCoreApplication::translate("posatlas::ui::MainWindow", "Lessons (*.md);;All files (*)"));
    if (!path.isEmpty())
        openLesson(path);
}

bool LessonController::openLesson(const QString& path)
{
    Lesson lesson;
    try {
        lesson = load_lesson(path, typeset_checker());
    } catch (const LessonError& e) {
        m_sessions->reportError(
            QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot open the lesson"),
            QString::fromUtf8(e.what()));
        return false;
    }
    if (!path.startsWith(QLatin1Char(':')))
        m_lessonDir = QFileInfo(path).absolutePath();
    if (!m_lesson)
        m_beforeLesson = m_sessions->currentSession();
    m_lesson = std::move(lesson);
    m_lessonStep = -1;
    m_lessonPanel->showLesson(&*m_lesson, 0);
    showLessonDock();
    if (m_presentation)
        m_presentation->setStepSource(std::make_unique<LessonSteps>(this));
    goToLessonStep(0);
    m_status->showMessage(
        QCoreApplication::translate("posatlas::ui::MainWindow", "Lesson: %1").arg(m_lesson->title), 5000);
    return true;
}

bool LessonController::goToLessonStep(int index)
{
    if (!m_lesson || index < 0 || index >= static_cast<int>(m_lesson->steps.size()))
        return false;
    const LessonStep& step = m_lesson->steps[static_cast<std::size_t>(index)];
    if (!m_sessions->applySession(step.session, m_lesson->title))
        return false;
    m_lessonStep = index;
    m_lessonPanel->setStep(index);
    // A step decides every figure on screen, whatever the step before left in front: each tab group shows
    // its view that every method has (heatmap; curves), then the step's own view comes to the front of
    // its group. Otherwise a step on ALiBi after a RoPE step kept "the spectrum applies to RoPE" beside it.
    if (!presenting())
        for (const ViewKind k : {ViewKind::Heatmap, ViewKind::Curves})
            if (m_views->dock(k)->isVisible())
                m_views->dock(k)->raise();
    if (const auto kind = parse_view_kind(step.session.current_view)) {
        if (presenting())
            m_presentation->showView(*kind);
        else if (m_focusView)
            m_focusView(*kind);
    }
    showLessonDock();
    if (presenting())
        m_presentation->syncStep(index);
    return true;
}

void LessonController::closeLesson()
{
    if (!m_lesson)
        return;
    m_lesson.reset();
    m_lessonStep = -1;
    m_lessonPanel->showLesson(nullptr, -1);
    if (m_presentation)
        m_presentation->setStepSource(nullptr);
    if (m_beforeLesson)
        m_sessions->applySession(*m_beforeLesson,
                                 QCoreApplication::translate("posatlas::ui::MainWindow", "Close Lesson"));
    m_beforeLesson.reset();
    showCourse();
}

const Lesson* LessonController::currentLesson() const
{
    return m_lesson ? &*m_lesson : nullptr;
}

const LessonStep* LessonController::animatedStep() const
{
    if (!m_lesson || m_lessonStep < 0 || m_lessonStep >= static_cast<int>(m_lesson->steps.size()))
        return nullptr;
    const LessonStep& step = m_lesson->steps[static_cast<std::size_t>(m_lessonStep)];
    return step.animation ? &step : nullptr;
}

bool LessonController::playStepAnimation()
{
    const LessonStep* step = animatedStep();
    if (!step)
        return false;
    AnimationPreview* preview = m_lessonPanel->animationPreview();
    preview->setMaxFrames(step->animation->sweep.frames); // the whole animation, small, in a loop
    // As wide as the panel's text (a wider frame would widen the dock), at most the default width.
    preview->setFrameWidth(
        std::clamp(m_lessonPanel->textBrowser()->width() - 16, 120, AnimationPreview::kDefaultWidth));
    preview->show();
    preview->play(lesson_animation_request(*step, m_sessions->currentView()));
    return true;
}

AnimationDialog* LessonController::exportStepAnimation()
{
    const LessonStep* step = animatedStep();
    if (!step)
        return nullptr;
    return m_sessions->exportAnimationDialog(lesson_animation_request(*step, m_sessions->currentView()));
}

} // namespace posatlas::ui
