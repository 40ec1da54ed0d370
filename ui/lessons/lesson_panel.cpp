// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_panel.h"

#include "export/animation_preview.h"
#include "lessons/lesson_document.h"
#include "lessons/step_box.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStyle>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace posatlas::ui {

namespace {

QToolButton* toolButton(QWidget* parent, QStyle::StandardPixmap icon, const char* name)
{
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setObjectName(QLatin1String(name));
    b->setAutoRaise(true);
    return b;
}

} // namespace

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent)
{
    m_stack = new QStackedWidget(this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);

    // Course page.
    auto* course = new QWidget(m_stack);
    auto* cl = new QVBoxLayout(course);
    m_courseTitle = new QLabel(course);
    m_courseTitle->setWordWrap(true);
    m_courseHint = new QLabel(course);
    m_courseHint->setWordWrap(true);
    // The lessons as a small document: each title a link, its summary with typeset formulas under it.
    m_courseText = new QTextBrowser(course);
    m_courseText->setObjectName(QStringLiteral("courseText"));
    m_courseText->setOpenLinks(false);
    // Wrapped to the width, never scrolled sideways (at 250 % a scroll bar appeared under the list).
    m_courseText->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_courseText->setLineWrapMode(QTextEdit::WidgetWidth);
    m_openFile = new QPushButton(course);
    m_openFile->setObjectName(QStringLiteral("openLessonFileButton"));
    cl->addWidget(m_courseTitle);
    cl->addWidget(m_courseHint);
    cl->addWidget(m_courseText, 1);
    cl->addWidget(m_openFile, 0, Qt::AlignLeft);
    m_stack->addWidget(course);
    connect(m_courseText, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("lesson"))
            emit lessonChosen(url.path().toInt());
    });
    connect(m_openFile, &QPushButton::clicked, this, &LessonPanel::openFileRequested);

    // Lesson page.
    auto* page = new QWidget(m_stack);
    auto* pl = new QVBoxLayout(page);
    auto* top = new QHBoxLayout;
    m_courseButton = toolButton(page, QStyle::SP_FileDialogListView, "lessonCourseButton");
    m_title = new QLabel(page);
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    m_title->setWordWrap(true);
    m_closeButton = toolButton(page, QStyle::SP_DialogCloseButton, "lessonCloseButton");
    top->addWidget(m_courseButton);
    top->addWidget(m_title, 1);
    top->addWidget(m_closeButton);
    auto* nav = new QHBoxLayout;
    m_previous = toolButton(page, QStyle::SP_ArrowBack, "lessonPreviousButton");
    m_next = toolButton(page, QStyle::SP_ArrowForward, "lessonNextButton");
    m_steps = new StepBox(page);
    m_steps->setObjectName(QStringLiteral("lessonStepBox"));
    m_steps->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_steps->setMinimumContentsLength(12);
    nav->addWidget(m_previous);
    nav->addWidget(m_steps, 1);
    nav->addWidget(m_next);
    m_text = new QTextBrowser(page);
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setOpenExternalLinks(true);
    auto* buttons = new QHBoxLayout;
    m_answerButton = new QPushButton(page);
    m_answerButton->setObjectName(QStringLiteral("lessonAnswerButton"));
    m_restoreButton = new QPushButton(page);
    m_restoreButton->setObjectName(QStringLiteral("lessonRestoreButton"));
    buttons->addWidget(m_answerButton);
    buttons->addStretch(1);
    buttons->addWidget(m_restoreButton);
    // A step's animation: played under the text, exported with one click.
    m_preview = new AnimationPreview(page);
    m_preview->setObjectName(QStringLiteral("lessonAnimationPreview"));
    m_preview->hide();
    m_playButton = new QPushButton(page);
    m_playButton->setObjectName(QStringLiteral("lessonPlayAnimationButton"));
    m_exportAnimationButton = new QPushButton(page);
    m_exportAnimationButton->setObjectName(QStringLiteral("lessonExportAnimationButton"));
    auto* animationRow = new QHBoxLayout;
    animationRow->addWidget(m_playButton);
    animationRow->addStretch(1);
    animationRow->addWidget(m_exportAnimationButton);
    pl->addLayout(top);
    pl->addLayout(nav);
    pl->addWidget(m_text, 1);
    pl->addWidget(m_preview, 0, Qt::AlignHCenter);
    pl->addLayout(animationRow);
    pl->addLayout(buttons);
    m_stack->addWidget(page);

    connect(m_previous, &QToolButton::clicked, this, [this] {
        if (m_lesson && m_step > 0)
            emit stepRequested(m_step - 1);
    });
    connect(m_next, &QToolButton::clicked, this, [this] {
        if (m_lesson && m_step + 1 < static_cast<int>(m_lesson->steps.size()))
            emit stepRequested(m_step + 1);
    });
    connect(m_steps, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        if (index != m_step)
            emit stepRequested(index);
    });
    connect(m_answerButton, &QPushButton::clicked, this, [this] { setAnswerShown(!m_answerShown); });
    connect(m_restoreButton, &QPushButton::clicked, this, &LessonPanel::restoreRequested);
    connect(m_playButton, &QPushButton::clicked, this, &LessonPanel::playAnimationRequested);
    connect(m_exportAnimationButton, &QPushButton::clicked, this, &LessonPanel::exportAnimationRequested);
    connect(m_courseButton, &QToolButton::clicked, this, &LessonPanel::courseRequested);
    connect(m_closeButton, &QToolButton::clicked, this, &LessonPanel::closeRequested);
    retranslate();
}

void LessonPanel::retranslate()
{
    m_courseTitle->setText(
        QStringLiteral("<b>%1</b>").arg(tr("Course: positional encoding in transformers")));
    m_courseHint->setText(
        tr("Choose a lesson. Each step sets up the figures; every control stays live, so move "
           "them and watch. PgDn / PgUp walk through the steps in presentation mode (F5)."));
    m_openFile->setText(tr("Open a lesson file…"));
    m_courseButton->setToolTip(tr("Back to the course"));
    m_closeButton->setToolTip(tr("Close the lesson (the figures go back to what they showed before it)"));
    m_previous->setToolTip(tr("Previous step (PgUp in presentation mode)"));
    m_next->setToolTip(tr("Next step (PgDn in presentation mode)"));
    m_playButton->setText(tr("Play animation"));
    m_playButton->setToolTip(tr("Play the step's animation here: the figure as one value moves"));
    m_exportAnimationButton->setText(tr("Export this animation…"));
    m_exportAnimationButton->setToolTip(
        tr("Write the step's animation as MP4, GIF or animated PNG (File > Export Animation…, filled in)"));
    m_restoreButton->setText(tr("Restore this step"));
    m_restoreButton->setToolTip(tr("Put the step's scenario back after moving the controls"));
}

void LessonPanel::setCourse(const std::vector<Lesson>& lessons)
{
    m_courseEntries.clear();
    for (const Lesson& l : lessons)
        m_courseEntries.push_back({l.title, l.summary});
    renderCourse();
}

void LessonPanel::renderCourse()
{
    QString md;
    for (std::size_t i = 0; i < m_courseEntries.size(); ++i) {
        QString title = m_courseEntries[i].first;
        title.replace(QLatin1Char('['), QStringLiteral("\\["))
            .replace(QLatin1Char(']'), QStringLiteral("\\]"));
        md += QStringLiteral("#### [%1](lesson:%2)\n\n%3\n\n")
                  .arg(tr("%1. %2").arg(i + 1).arg(title))
                  .arg(i)
                  .arg(m_courseEntries[i].second);
    }
    const QFont f = font();
    LessonTextStyle style;
    style.pointSize = f.pointSizeF() > 0 ? f.pointSizeF() : 10.0;
    style.color = palette().color(QPalette::Text);
    style.devicePixelRatio = std::max<qreal>(2.0, devicePixelRatioF());
    style.maxDisplayWidth = std::max(120, m_courseText->viewport()->width() - 24);
    set_lesson_markdown(m_courseText->document(), md, style);
}

int LessonPanel::courseCount() const
{
    return static_cast<int>(m_courseEntries.size());
}

void LessonPanel::showCoursePage()
{
    m_stack->setCurrentIndex(0);
    // The list starts at lesson 1 (a re-rendered document could leave the view scrolled down the list).
    m_courseText->verticalScrollBar()->setValue(0);
}

bool LessonPanel::isCoursePageShown() const
{
    return m_stack->currentIndex() == 0;
}

void LessonPanel::showLesson(const Lesson* lesson, int step)
{
    m_lesson = lesson;
    m_step = -1;
    {
        const QSignalBlocker block(m_steps);
        m_steps->clear();
        if (lesson)
            for (std::size_t i = 0; i < lesson->steps.size(); ++i)
                m_steps->addItem(
                    tr("%1 / %2 · %3").arg(i + 1).arg(lesson->steps.size()).arg(lesson->steps[i].title));
    }
    m_steps->updateHeight();
    m_title->setText(lesson ? QStringLiteral("<b>%1</b>").arg(lesson->title.toHtmlEscaped()) : QString());
    m_stack->setCurrentIndex(1);
    setStep(step);
}

void LessonPanel::setStep(int step)
{
    if (!m_lesson || step < 0 || step >= static_cast<int>(m_lesson->steps.size()))
        return;
    const bool changed = step != m_step;
    m_step = step;
    if (changed) {
        m_answerShown = false;
        m_preview->stop(); // another step: its animation is not this one
        m_preview->hide();
    }
    {
        const QSignalBlocker block(m_steps);
        m_steps->setCurrentIndex(step);
    }
    m_steps->updateHeight();
    m_previous->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < static_cast<int>(m_lesson->steps.size()));
    render();
    if (changed)
        m_text->verticalScrollBar()->setValue(0);
}

void LessonPanel::setAnswerShown(bool shown)
{
    m_answerShown = shown;
    render();
}

void LessonPanel::render()
{
    if (!m_lesson || m_step < 0 || m_rendering)
        return;
    m_rendering = true; // setting the document's font must not re-enter through changeEvent
    const LessonStep& s = m_lesson->steps[static_cast<std::size_t>(m_step)];
    QString md = QStringLiteral("## ") + s.title + QStringLiteral("\n\n") + s.text;
    if (!s.tryThis.isEmpty())
        md += QStringLiteral("\n\n---\n\n**") + tr("Try this:") + QStringLiteral("** ") + s.tryThis;
    if (!s.question.isEmpty()) {
        md += QStringLiteral("\n\n**") + tr("Question:") + QStringLiteral("** ") + s.question;
        if (m_answerShown)
            md += QStringLiteral("\n\n**") + tr("Answer:") + QStringLiteral("** ") + s.answer;
    }
    LessonTextStyle style;
    const QFont f = font();
    style.pointSize = (f.pointSizeF() > 0 ? f.pointSizeF() : 10.0) * 1.15;
    style.color = palette().color(QPalette::Text);
    style.devicePixelRatio = std::max<qreal>(2.0, devicePixelRatioF());
    style.maxDisplayWidth =
        std::max(120.0, m_text->viewport()->width() - 2 * m_text->document()->documentMargin() - 8);
    m_renderedWidth = m_text->viewport()->width();
    const int scroll = m_text->verticalScrollBar()->value();
    set_lesson_markdown(m_text->document(), md, style);
    m_text->verticalScrollBar()->setValue(scroll);
    m_answerButton->setVisible(!s.question.isEmpty());
    m_playButton->setVisible(s.animation.has_value());
    m_exportAnimationButton->setVisible(s.animation.has_value());
    m_answerButton->setText(m_answerShown ? tr("Hide the answer") : tr("Show the answer"));
    m_rendering = false;
}

void LessonPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Displayed formulas fit the text's width: typeset again when it changed noticeably.
    if (std::abs(m_text->viewport()->width() - m_renderedWidth) > 16)
        render();
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::PaletteChange:
        render(); // formulas follow the font scale and the theme
        renderCourse();
        break;
    case QEvent::LanguageChange:
        retranslate();
        render();
        renderCourse();
        break;
    default: break;
    }
}

} // namespace posatlas::ui
