// SPDX-License-Identifier: GPL-3.0-or-later
// A collapsible "What am I looking at?" panel under a view: a flat tool button with an arrow (▸ /
// ▾) that shows or hides a short explanation (rich text, word-wrapped). Collapsed by default. Expanded, it
// takes its text's height up to a cap and scrolls beyond, so the view above keeps the space. It follows
// the window's font and palette (it sets neither).
#pragma once

#include <QWidget>

class QLabel;
class QScrollArea;
class QToolButton;

namespace posatlas::ui {

class ExplanationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExplanationPanel(QWidget* parent = nullptr);

    void setText(const QString& html);
    QString text() const;
    bool isExpanded() const;
    void setExpanded(bool on);
    QToolButton* toggleButton() const { return m_button; }
    QLabel* label() const { return m_label; }
    // Most lines of text shown before the text scrolls.
    static constexpr int kMaxLines = 9;

signals:
    void expandedChanged(bool expanded);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateTextHeight();

    QToolButton* m_button;
    QScrollArea* m_scroll;
    QLabel* m_label;
};

} // namespace posatlas::ui
