// SPDX-License-Identifier: GPL-3.0-or-later
// The main window from the keyboard: View > Go to View and Help > Keyboard and Mouse.
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

#include <functional>

namespace posatlas::ui {

void MainWindow::focusView(ViewKind kind)
{
    QDockWidget* d = dock(kind);
    if (m_presentation && m_presentation->isActive())
        m_presentation->showView(kind); // one figure at a time while presenting
    d->show();
    d->raise();
    QWidget* target = kind == ViewKind::Heatmap    ? static_cast<QWidget*>(m_heatmap)
                      : kind == ViewKind::Curves   ? static_cast<QWidget*>(m_curves->chartView())
                      : kind == ViewKind::Rotation ? static_cast<QWidget*>(m_rotationControls)
                                                   : static_cast<QWidget*>(m_spectrum);
    // A view built of charts takes the focus in its first chart.
    if (target->focusPolicy() == Qt::NoFocus)
        if (auto* chart = target->findChild<CurveChartView*>())
            target = chart;
    target->setFocus(Qt::ShortcutFocusReason);
}

QString MainWindow::keyboardHelpHtml() const
{
    // Shortcuts come from the menus themselves, so the list cannot drift from what the keys do.
    QString rows;
    const std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu,
                                                                       const QString& path) {
        for (const QAction* a : menu->actions()) {
            const QString name = path + QStringLiteral(" › ") + QString(a->text()).remove(QLatin1Char('&'));
            if (a->menu()) {
                walk(a->menu(), name);
                continue;
            }
            if (a->shortcut().isEmpty())
                continue;
            rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             name.toHtmlEscaped());
        }
    };
    for (const QAction* a : menuBar()->actions())
        if (a->menu())
            walk(a->menu(), QString(a->text()).remove(QLatin1Char('&')));
    const std::pair<QString, QString> gestures[] = {
        {tr("Heatmap: wheel, or + / −"), tr("zoom about the cursor (keys: about the centre)")},
        {tr("Heatmap: drag, or arrow keys"), tr("pan (Shift + arrows: a whole window)")},
        {tr("Heatmap: double-click, or 0 / Home"), tr("show the whole matrix again")},
        {tr("Heatmap: hover"), tr("the value of the cell under the cursor, in the status bar")},
        {tr("Curves: hover, or Left / Right"),
         tr("crosshair with the exact values at that distance "
            "(Shift: larger steps; Home / End: the ends; Esc hides it)")},
        {tr("Rotation: slider, spin box, Play"), tr("query position m; the key position n has its own box")},
        {tr("Parameters: drag a slider"), tr("one undo step per drag; Ctrl+Z works from any box")},
        {tr("Window: drop a config.json or a session"), tr("opens it, as File › Open")},
        {tr("Tab / Shift+Tab"), tr("move the focus between controls and views")},
    };
    QString gestureRows;
    for (const auto& [what, effect] : gestures)
        gestureRows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                           .arg(what.toHtmlEscaped(), effect.toHtmlEscaped());
    return QStringLiteral(
               "<h3>%1</h3><table cellpadding=3>%2</table><h3>%3</h3><table cellpadding=3>%4</table>")
        .arg(tr("Mouse and view keys"), gestureRows, tr("Shortcuts"), rows);
}

void MainWindow::showKeyboardHelp()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard and Mouse"));
    box.setTextFormat(Qt::RichText);
    box.setText(keyboardHelpHtml());
    box.exec();
}

} // namespace posatlas::ui
