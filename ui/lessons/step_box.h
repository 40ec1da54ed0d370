// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson's step chooser: a combo box whose closed face wraps the step's title onto more lines, as
// tall as they need, instead of cutting it ("1 / 4 · Attention sees a bag of wor" in a 1280-px window).
// The list it opens is the usual one.
#pragma once

#include <QComboBox>
#include <QStringList>

namespace posatlas::ui {

class StepBox : public QComboBox
{
    Q_OBJECT
public:
    explicit StepBox(QWidget* parent = nullptr);

    // The lines the closed box shows at its current width: the current text whole, broken between words.
    QStringList shownLines() const;
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
    // After the width or the text changed (also while the box's signals are blocked).
    void updateHeight();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QRect fieldRect() const; // where the text goes
    QStringList linesFor(int width) const;
    int heightFor(int lines) const;
};

} // namespace posatlas::ui
