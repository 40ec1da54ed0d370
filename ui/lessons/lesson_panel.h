// SPDX-License-Identifier: GPL-3.0-or-later
// The Lesson dock's widget: the course page (the built-in lessons, their summaries, and a button for a
// teacher's own lesson file) and the lesson page (title, step navigation, the step's text with typeset
// formulas, "try this", a question whose answer is revealed on demand, a button that puts the step's
// scenario back after the controls were moved, and for a step with an animation: play it here, export it). It
// shows lessons; the main window applies the steps.
#pragma once

#include "lessons/lesson.h"
#include "lessons/step_box.h"

#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QToolButton;

namespace posatlas::ui {

class AnimationPreview;

class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // The course page lists these lessons (their titles and summaries).
    void setCourse(const std::vector<Lesson>& lessons);
    void showCoursePage();
    bool isCoursePageShown() const;

    // The lesson page shows `lesson` (kept by the caller, alive while shown) at `step`.
    void showLesson(const Lesson* lesson, int step);
    void setStep(int step);
    int step() const { return m_step; }
    const Lesson* lesson() const { return m_lesson; }
    bool answerShown() const { return m_answerShown; }
    void setAnswerShown(bool shown);

    QTextBrowser* textBrowser() const { return m_text; }
    QTextBrowser* courseText() const { return m_courseText; }
    int courseCount() const;
    QPushButton* answerButton() const { return m_answerButton; }
    QPushButton* restoreButton() const { return m_restoreButton; }
    // Shown for a step with an animation ("animate" in its block): play it in the panel, export it.
    QPushButton* playAnimationButton() const { return m_playButton; }
    QPushButton* exportAnimationButton() const { return m_exportAnimationButton; }
    // Where the step's animation plays (hidden until played; the controller feeds it).
    AnimationPreview* animationPreview() const { return m_preview; }
    QToolButton* nextButton() const { return m_next; }
    QToolButton* previousButton() const { return m_previous; }
    QComboBox* stepBox() const { return m_steps; }

signals:
    void lessonChosen(int index);    // on the course page
    void openFileRequested();        // "Open a lesson file…"
    void stepRequested(int step);    // previous / next / the step list
    void restoreRequested();         // "Restore this step"
    void playAnimationRequested();   // "Play animation" (the step's animation)
    void exportAnimationRequested(); // "Export this animation…"
    void courseRequested();          // back to the course page
    void closeRequested();           // leave the lesson (the scenario before it comes back)

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();
    void renderCourse();
    void retranslate();

    QStackedWidget* m_stack;
    QTextBrowser* m_courseText;
    std::vector<std::pair<QString, QString>> m_courseEntries; // title, summary
    QLabel* m_courseTitle;
    QLabel* m_courseHint;
    QPushButton* m_openFile;
    QLabel* m_title;
    QToolButton* m_previous;
    QToolButton* m_next;
    StepBox* m_steps;
    QToolButton* m_courseButton;
    QToolButton* m_closeButton;
    QTextBrowser* m_text;
    QPushButton* m_answerButton;
    QPushButton* m_restoreButton;
    QPushButton* m_playButton;
    QPushButton* m_exportAnimationButton;
    AnimationPreview* m_preview;
    const Lesson* m_lesson = nullptr;
    int m_step = -1;
    bool m_answerShown = false;
    bool m_rendering = false;
    int m_renderedWidth = 0; // the text's width the formulas were fitted to
};

} // namespace posatlas::ui
