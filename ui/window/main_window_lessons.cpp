// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's lessons (lesson.h, lesson_panel.h): the Lesson dock, Help > Course, File > Open
// Lesson…, the start page of the first launch, and the lesson's steps as presentation-mode steps.
//
// A step is applied as a session (SessionActions::applySession: one undo step, the views' settings, the
// view in front). Opening a lesson remembers the scenario and views on screen; closing it puts them
// back, so a lecturer's own setup survives a lesson.
#include "lessons/lesson_document.h"
#include "lessons/lesson_panel.h"
#include "model/settings.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"
#include "window/session_actions.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

namespace posatlas::ui {

namespace {

class LessonSteps : public StepSource
{
public:
    explicit LessonSteps(MainWindow* window) : m_window(window) {}
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
    MainWindow* m_window;
};

} // namespace

void MainWindow::createLessonDock()
{
    m_lessonPanel = new LessonPanel(this);
    m_lessonDock = new QDockWidget(tr("Lesson"), this);
    m_lessonDock->setObjectName(QStringLiteral("LessonDock"));
    m_lessonDock->setWidget(m_lessonPanel);
    m_lessonDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                              QDockWidget::DockWidgetFloatable);
    // A column of its own right of the figures, full height: the text beside the figures it talks
    // about. (splitDockWidget would make it a tab: the curves share their area with the spectrum.)
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock, Qt::Horizontal);
    m_lessonDock->hide();
    connect(m_lessonPanel, &LessonPanel::lessonChosen, this, [this](int index) {
        if (index >= 0 && index < static_cast<int>(m_course.size()))
            openLesson(m_course[static_cast<std::size_t>(index)].source); // the lesson the page listed
    });
    connect(m_lessonPanel, &LessonPanel::openFileRequested, this, &MainWindow::openLessonDialog);
    connect(m_lessonPanel, &LessonPanel::stepRequested, this, &MainWindow::goToLessonStep);
    connect(m_lessonPanel, &LessonPanel::restoreRequested, this, [this] { goToLessonStep(m_lessonStep); });
    // Back to the list leaves the lesson: the figures return to what was on screen before it, as Close does
    // (the list with the last step's scenario still showing looked like a step without its text).
    connect(m_lessonPanel, &LessonPanel::courseRequested, this, [this] {
        if (m_lesson)
            closeLesson(); // shows the course page
        else
            showCourse();
    });
    connect(m_lessonPanel, &LessonPanel::closeRequested, this, &MainWindow::closeLesson);
    // Presenting a lesson: its text takes a quarter of the screen beside the figure, which keeps at
    // least half beside the parameter panel (the window is full screen once the event loop has run;
    // leaving restores the docks as they were).
    connect(m_presentation, &Presentation::activeChanged, this, [this](bool active) {
        if (active && m_lessonDock->isVisible() && !m_lessonDock->isFloating())
            QTimer::singleShot(0, this, [this] {
                if (m_presentation->isActive())
                    resizeDocks({m_lessonDock}, {width() / 4}, Qt::Horizontal);
            });
    });
}

void MainWindow::loadCourse()
{
    if (!m_course.empty())
        return;
    for (const QString& path : course_lessons(course_language(currentLanguage()))) {
        try {
            m_course.push_back(load_lesson(path, typeset_checker()));
        } catch (const LessonError& e) {
            // A shipped lesson that does not read is a bug the tests catch; the course still opens.
            showError(QString::fromUtf8(e.what()));
            Lesson broken;
            broken.source = path;
            broken.title = QFileInfo(path).completeBaseName();
            broken.summary = QString::fromUtf8(e.what());
            m_course.push_back(std::move(broken));
        }
    }
    m_lessonPanel->setCourse(m_course);
}

void MainWindow::showLessonDock()
{
    if (m_lessonDock->isVisible())
        return;
    m_lessonDock->show();
    m_lessonDock->raise();
    if (!m_lessonDock->isFloating())
        resizeDocks({m_lessonDock}, {std::max(360, width() * 3 / 10)}, Qt::Horizontal);
}

void MainWindow::showCourse()
{
    loadCourse();
    m_lessonPanel->showCoursePage();
    showLessonDock();
}

bool MainWindow::showStartPageOnce()
{
    if (m_settings->courseStartPageShown())
        return false;
    m_settings->setCourseStartPageShown(true);
    showCourse();
    return true;
}

void MainWindow::openLessonDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a lesson"), m_lessonDir,
                                                      tr("Lessons (*.md);;All files (*)"));
    if (!path.isEmpty())
        openLesson(path);
}

bool MainWindow::openLesson(const QString& path)
{
    Lesson lesson;
    try {
        lesson = load_lesson(path, typeset_checker());
    } catch (const LessonError& e) {
        m_sessions->reportError(tr("Cannot open the lesson"), QString::fromUtf8(e.what()));
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
    m_presentation->setStepSource(std::make_unique<LessonSteps>(this));
    goToLessonStep(0);
    statusBar()->showMessage(tr("Lesson: %1").arg(m_lesson->title), 5000);
    return true;
}

bool MainWindow::goToLessonStep(int index)
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
    if (!m_presentation->isActive())
        for (const ViewKind k : {ViewKind::Heatmap, ViewKind::Curves})
            if (dock(k)->isVisible())
                dock(k)->raise();
    if (const auto kind = parse_view_kind(step.session.current_view)) {
        if (m_presentation->isActive())
            m_presentation->showView(*kind);
        else
            focusView(*kind);
    }
    showLessonDock();
    if (m_presentation->isActive())
        m_presentation->syncStep(index);
    return true;
}

void MainWindow::closeLesson()
{
    if (!m_lesson)
        return;
    m_lesson.reset();
    m_lessonStep = -1;
    m_lessonPanel->showLesson(nullptr, -1);
    m_presentation->setStepSource(nullptr);
    if (m_beforeLesson)
        m_sessions->applySession(*m_beforeLesson, tr("Close Lesson"));
    m_beforeLesson.reset();
    showCourse();
}

const Lesson* MainWindow::currentLesson() const
{
    return m_lesson ? &*m_lesson : nullptr;
}

} // namespace posatlas::ui
