// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's status line as its controllers see it: a transient message in the status bar, an
// error (shown there for ten seconds and remembered), or a remembered message only (a notice above the
// views says it already). MainWindow::statusMessage() reads the last remembered one.
#pragma once

#include <QObject>
#include <QString>

class QStatusBar;

namespace posatlas::ui {

class WindowStatus : public QObject
{
    Q_OBJECT
public:
    // `bar` may be null (a controller tested on its own): then only the remembered message is kept.
    explicit WindowStatus(QStatusBar* bar, QObject* parent = nullptr);

    // Shown for ten seconds and remembered.
    void showError(const QString& message);
    // Shown for `ms` milliseconds; not remembered.
    void showMessage(const QString& message, int ms);
    // Remembered only.
    void remember(const QString& message);
    void forget() { m_last.clear(); }
    QString lastMessage() const { return m_last; }
    // The transient text shown last (also without a status bar).
    QString shownMessage() const { return m_shown; }

private:
    QStatusBar* m_bar;
    QString m_last;
    QString m_shown;
};

} // namespace posatlas::ui
