// SPDX-License-Identifier: GPL-3.0-or-later
// A figure's note under its chart: wrapped at the width it gets, as tall as its lines when the view has
// the room, and shorter when it has not: then its last visible line ends in "…" and the tooltip holds
// the whole note. Its minimum is two lines, so that a view that must be short keeps its chart whole
// rather than drawing the note over it (docks and the main window's layout honour minimums, never a
// height for a width).
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

namespace posatlas::ui {

class NoteText : public QWidget
{
    Q_OBJECT
public:
    // Lines kept when the view is short (fewer if the note has fewer).
    static constexpr int kMinimumLines = 2;

    explicit NoteText(QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const { return m_text; }
    // The height of all its lines at `width`.
    int heightForWidth(int width) const override;
    bool hasHeightForWidth() const override { return false; } // its sizeHint says it (see above)
    // All its lines at its present width.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Whether the note shows only part of its lines (the rest in its tooltip).
    bool cut() const { return heightForWidth(width()) > height(); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Its lines wrapped at `width` (caption_lines).
    QStringList lines(int width) const;
    void updateToolTip();

    QString m_text;
};

} // namespace posatlas::ui
