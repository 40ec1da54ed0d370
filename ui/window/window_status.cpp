// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/window_status.h"

#include <QStatusBar>

namespace posatlas::ui {

WindowStatus::WindowStatus(QStatusBar* bar, QObject* parent) : QObject(parent), m_bar(bar) {}

void WindowStatus::showError(const QString& message)
{
    m_last = message;
    showMessage(message, 10000);
}

void WindowStatus::showMessage(const QString& message, int ms)
{
    m_shown = message;
    if (m_bar)
        m_bar->showMessage(message, ms);
}

void WindowStatus::remember(const QString& message)
{
    m_last = message;
}

} // namespace posatlas::ui
