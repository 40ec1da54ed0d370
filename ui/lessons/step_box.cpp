// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/step_box.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QTextLayout>

namespace posatlas::ui {

StepBox::StepBox(QWidget* parent) : QComboBox(parent)
{
    connect(this, &QComboBox::currentTextChanged, this, &StepBox::updateHeight);
}

QRect StepBox::fieldRect() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    return style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
}

QStringList StepBox::linesFor(int width) const
{
    const QString text = currentText();
    if (text.isEmpty() || width <= 0)
        return {text};
    QTextLayout layout(text, font());
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    QStringList lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}

QStringList StepBox::shownLines() const
{
    return linesFor(fieldRect().width());
}

int StepBox::heightFor(int lines) const
{
    // The style's height for one line, and a line's spacing for each further one.
    const int one = QComboBox::sizeHint().height();
    return one + std::max(0, lines - 1) * fontMetrics().lineSpacing();
}

QSize StepBox::minimumSizeHint() const
{
    QSize size = QComboBox::minimumSizeHint();
    size.setHeight(std::max(size.height(), heightFor(static_cast<int>(shownLines().size()))));
    return size;
}

QSize StepBox::sizeHint() const
{
    QSize size = QComboBox::sizeHint();
    size.setHeight(std::max(size.height(), heightFor(static_cast<int>(shownLines().size()))));
    return size;
}

void StepBox::resizeEvent(QResizeEvent* event)
{
    QComboBox::resizeEvent(event);
    updateHeight();
}

void StepBox::updateHeight()
{
    // The width and the text decide the lines, the lines the height.
    const int needed = heightFor(static_cast<int>(shownLines().size()));
    if (minimumHeight() != needed) {
        setMinimumHeight(needed);
        updateGeometry();
    }
}

void StepBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    option.currentText.clear(); // drawn below, wrapped
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    const QRect field = fieldRect();
    const QStringList lines = shownLines();
    const int spacing = fontMetrics().lineSpacing();
    int y = field.center().y() - spacing * static_cast<int>(lines.size()) / 2;
    painter.setPen(
        palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::ButtonText));
    for (const QString& line : lines) {
        painter.drawText(QRect(field.left(), y, field.width(), spacing), Qt::AlignLeft | Qt::AlignVCenter,
                         line);
        y += spacing;
    }
}

} // namespace posatlas::ui
