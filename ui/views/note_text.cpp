// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/note_text.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>
#include <QResizeEvent>
#include <QTextLayout>

#include <algorithm>

namespace posatlas::ui {

namespace {

// The note's lines wrapped at `width` (word wrap, else anywhere: Chinese has no spaces).
void layout_lines(QTextLayout& layout, int width)
{
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine())
        line.setLineWidth(std::max(1, width));
    layout.endLayout();
}

} // namespace

NoteText::NoteText(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // never widens its view
}

void NoteText::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateToolTip();
    updateGeometry();
    update();
}

int NoteText::lineCount(int width) const
{
    if (m_text.isEmpty())
        return 0;
    QTextLayout layout(m_text, font());
    layout_lines(layout, width);
    return layout.lineCount();
}

int NoteText::heightForWidth(int width) const
{
    return lineCount(width) * QFontMetrics(font()).lineSpacing();
}

QSize NoteText::sizeHint() const
{
    const int width = this->width() > 0 ? this->width() : 30 * QFontMetrics(font()).averageCharWidth();
    return {QFontMetrics(font()).averageCharWidth() * 8, heightForWidth(width)};
}

QSize NoteText::minimumSizeHint() const
{
    const int lines = std::min(kMinimumLines, lineCount(std::max(1, width())));
    return {0, lines * QFontMetrics(font()).lineSpacing()};
}

void NoteText::paintEvent(QPaintEvent*)
{
    if (m_text.isEmpty())
        return;
    QPainter painter(this);
    painter.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics metrics(font());
    QTextLayout layout(m_text, font());
    layout_lines(layout, width());
    // As many whole lines as fit (at least one); the last one shown ends in "…" when lines remain.
    const int fit = std::clamp(height() / metrics.lineSpacing(), 1, std::max(1, layout.lineCount()));
    for (int i = 0; i < fit && i < layout.lineCount(); ++i) {
        const QTextLine line = layout.lineAt(i);
        const QPointF at(0, i * metrics.lineSpacing());
        if (i == fit - 1 && fit < layout.lineCount()) {
            const QString rest = m_text.mid(line.textStart());
            painter.drawText(QPointF(at.x(), at.y() + metrics.ascent()),
                             metrics.elidedText(rest.simplified(), Qt::ElideRight, width()));
        } else {
            line.draw(&painter, at);
        }
    }
}

void NoteText::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->oldSize().width() != width())
        updateGeometry(); // its lines, so its hints, follow the width
    updateToolTip();
}

void NoteText::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange) {
        updateGeometry();
        updateToolTip();
    }
    QWidget::changeEvent(event);
}

void NoteText::updateToolTip()
{
    // The whole note where part of it is cut; none where it shows whole.
    setToolTip(cut() ? m_text : QString());
}

} // namespace posatlas::ui
