// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's lessons (lesson.h, lesson_panel.h): the Lesson dock's content, Help > Course,
// File > Open Lesson…, the start page of the first launch, and the lesson's steps as presentation-mode
// steps (presentation.h: a StepSource).
//
// A step is applied as a session (SessionActions::applySession: one undo step, the views' settings, the
// view in front). Opening a lesson remembers the scenario and views on screen; closing it puts them
// back, so a lecturer's own setup survives a lesson. The window creates and places the dock and the
// panel; the controller owns the course, the open lesson and its step.
#pragma once

#include "lessons/lesson.h"
#include "model/session.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace posatlas::ui {

class AnimationDialog;
class LessonPanel;
class Presentation;
class SessionActions;
class Settings;
class ViewController;
class WindowStatus;

class LessonController : public QObject
{
    Q_OBJECT
public:
    // What the lessons need from the window.
    struct Parts {
        QMainWindow* window = nullptr; // sizes the dock (resizeDocks), parents the file dialog
        QDockWidget* dock = nullptr;   // the Lesson dock, holding `panel`
        LessonPanel* panel = nullptr;
        Settings* settings = nullptr; // the start page shown once
        SessionActions* sessions = nullptr;
        Presentation* presentation = nullptr; // the lesson's steps while presenting (none: no steps there)
        ViewController* views = nullptr;      // the docks a step brings to the front
        WindowStatus* status = nullptr;
        std::function<void(ViewKind)> focusView; // a step's own view, outside presentation mode
    };
    explicit LessonController(const Parts& parts, QObject* parent = nullptr);

    // Opens a lesson (a file, or a course resource) at its first step: false, with a message naming the
    // file, the line and what is wrong, when it cannot be read (the state stays as it was).
    bool openLesson(const QString& path);
    void openLessonDialog();
    // Help > Course: the Lesson dock with the course page.
    void showCourse();
    // The course page, once (Settings::courseStartPageShown), then never again.
    bool showStartPageOnce();
    // Applies step `index` of the open lesson (one undo step) and brings its view to the front.
    bool goToLessonStep(int index);
    // Leaves the lesson: the scenario and views shown before it come back.
    void closeLesson();
    const Lesson* currentLesson() const;
    // The open step's animation ("animate" in its block): played in the lesson panel (false: the step
    // has none), or the export dialog filled in with it (nullptr: none). The dialog deletes itself.
    bool playStepAnimation();
    AnimationDialog* exportStepAnimation();
    int currentLessonStep() const { return m_lessonStep; }

private:
    void loadCourse();
    void showLessonDock(); // shown at 30 % of the window's width the first time
    bool presenting() const;
    const LessonStep* animatedStep() const; // the open step when it has an animation

    QMainWindow* m_window;
    QDockWidget* m_lessonDock;
    LessonPanel* m_lessonPanel;
    Settings* m_settings;
    SessionActions* m_sessions;
    Presentation* m_presentation;
    ViewController* m_views;
    WindowStatus* m_status;
    std::function<void(ViewKind)> m_focusView;
    std::vector<Lesson> m_course;   // the built-in lessons in the interface's language
    std::optional<Lesson> m_lesson; // the open lesson
    int m_lessonStep = -1;
    std::optional<Session> m_beforeLesson; // what the window showed before the lesson
    QString m_lessonDir;
};

} // namespace posatlas::ui
