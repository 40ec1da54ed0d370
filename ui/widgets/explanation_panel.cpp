// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/explanation_panel.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

ExplanationPanel::ExplanationPanel(QWidget* parent)
    : QWidget(parent), m_button(new QToolButton(this)), m_scroll(new QScrollArea(this)), m_label(new QLabel)
{
    setObjectName(QStringLiteral("explanationPanel"));
    m_button->setObjectName(QStringLiteral("explanationToggle"));
    m_button->setAutoRaise(true); // flat
    m_button->setCheckable(true);
    m_button->setToolButtonStyle(Qt::ToolButtonTextOnly);

    m_label->setObjectName(QStringLiteral("explanationText"));
    m_label->setTextFormat(Qt::RichText);
    m_label->setWordWrap(true);
    m_label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setContentsMargins(6, 0, 6, 4);

    m_scroll->setWidget(m_label);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_scroll->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_button, 0, Qt::AlignLeft);
    layout->addWidget(m_scroll);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    connect(m_button, &QToolButton::toggled, this, [this](bool on) {
        retranslate(); // the arrow
        m_scroll->setVisible(on);
        updateTextHeight();
        emit expandedChanged(on);
    });
    retranslate();
}

void ExplanationPanel::retranslate()
{
    // The arrow is a character, so that it grows with the font (a tool button's arrow type keeps the
    // style's small size at the presentation's font scale).
    const QString arrow = m_button->isChecked() ? QStringLiteral("\u25BE ") : QStringLiteral("\u25B8 ");
    m_button->setText(arrow + tr("What am I looking at?"));
    m_button->setToolTip(
        tr("Show or hide a short explanation of this view: its axes, its colours and what to look for"));
}

void ExplanationPanel::setText(const QString& html)
{
    if (html == m_label->text())
        return;
    m_label->setText(html);
    updateTextHeight();
}

QString ExplanationPanel::text() const
{
    return m_label->text();
}

bool ExplanationPanel::isExpanded() const
{
    return m_button->isChecked();
}

void ExplanationPanel::setExpanded(bool on)
{
    m_button->setChecked(on);
}

void ExplanationPanel::updateTextHeight()
{
    if (!m_scroll->isVisibleTo(this))
        return;
    // The text's height at the width it has (the scroll bar's width kept free, should it be needed),
    // capped at kMaxLines lines of the current font.
    const int width = std::max(50, this->width() - m_scroll->verticalScrollBar()->sizeHint().width());
    const int textHeight = m_label->heightForWidth(width);
    const int cap = fontMetrics().lineSpacing() * kMaxLines;
    m_scroll->setFixedHeight(std::min(std::max(textHeight, fontMetrics().lineSpacing()), cap));
}

void ExplanationPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateTextHeight();
}

void ExplanationPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        updateTextHeight();
}

} // namespace posatlas::ui
