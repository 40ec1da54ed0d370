// SPDX-License-Identifier: GPL-3.0-or-later
// Notices across the top of the main window, one bar each: a problem that stays until it is resolved
// (autosave is off, and the system's reason) with the buttons that can resolve it (Retry), or a report
// the user closes (where an unreadable autosave was kept, keys a session file did not know). Unlike a
// status-bar line they do not time out. Each notice has an id; showing an id again replaces it.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace posatlas::ui {

class NoticeArea : public QWidget
{
    Q_OBJECT
public:
    explicit NoticeArea(QWidget* parent = nullptr);

    struct Action {
        QString text; // "&Retry"
        std::function<void()> run;
    };
    // closable: a Close button (a report); without one the notice stays until clear(id).
    void showNotice(const QString& id, const QString& text, std::vector<Action> actions = {},
                    bool closable = false);
    void clear(const QString& id);
    QString text(const QString& id) const; // "" when that notice is not shown
    QStringList ids() const;               // shown, top first
    bool isEmpty() const { return m_bars.empty(); }
    // The bar of notice `id` (null when not shown), and its button labelled `text` (without '&').
    QWidget* bar(const QString& id) const;
    QPushButton* button(const QString& id, const QString& text) const;

signals:
    void changed(); // a notice was shown, replaced or cleared

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Bar {
        QString id;
        QWidget* widget;
        QLabel* label;
    };
    std::vector<Bar> m_bars;
    QVBoxLayout* m_layout;
};

} // namespace posatlas::ui
