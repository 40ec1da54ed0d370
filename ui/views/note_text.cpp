// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/note_text.h"

#include "views/figure_style.h"

#include <QEvent>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPainter>
#include <QResizeEvent>

#include <algorithm>

namespace posatlas::ui {

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

QStringList NoteText::lines(int width) const
{
    // The figures' own wrapping (figure_style.h): at its " · " separators first, never inside a number,
    // Chinese between characters with closing punctuation kept on its line; as the exported figure has it.
    if (m_text.isEmpty())
        return {};
    return caption_lines(m_text, QFontMetricsF(font()), std::max(1, width));
}

int NoteText::heightForWidth(int width) const
{
    return static_cast<int>(lines(width).size()) * QFontMetrics(font()).lineSpacing();
}

QSize NoteText::sizeHint() const
{
    const int width = this->width() > 0 ? this->width() : 30 * QFontMetrics(font()).averageCharWidth();
    return {QFontMetrics(font()).averageCharWidth() * 8, heightForWidth(width)};
}

QSize NoteText::minimumSizeHint() const
{
    const auto kept = std::min<qsizetype>(kMinimumLines, lines(width()).size());
    return {0, static_cast<int>(kept) * QFontMetrics(font()).lineSpacing()};
}

void NoteText::paintEvent(QPaintEvent*)
{
    if (m_text.isEmpty())
        return;
    QPainter painter(this);
    painter.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics metrics(font());
    const QStringList all = lines(width());
    // As many whole lines as fit (at least one); the last one shown ends in "…" when lines remain.
    const auto fit =
        std::clamp<qsizetype>(height() / metrics.lineSpacing(), 1, std::max<qsizetype>(1, all.size()));
    for (qsizetype i = 0; i < fit && i < all.size(); ++i) {
        const QString text = i == fit - 1 && fit < all.size()
                                 ? metrics.elidedText(all[i] + QStringLiteral("…"), Qt::ElideRight, width())
                                 : all[i];
        painter.drawText(QPointF(0, static_cast<double>(i * metrics.lineSpacing() + metrics.ascent())), text);
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
