// SPDX-License-Identifier: GPL-3.0-or-later
// Methods side by side: View > Compare Methods…, the one-click Sinusoidal / RoPE / ALiBi
// comparison and Stop Comparing. The comparison is a view setting (ViewSettings::compare): the jobs
// compute it off the GUI thread like every other setting, sessions save it.
#include "window/main_window.h"

#include "window/compare_dialog.h"
#include "window/view_controller.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QSignalBlocker>
#include <QStatusBar>

namespace posatlas::ui {

void MainWindow::createCompareActions(QMenu* view)
{
    view->addSeparator();
    QAction* pick = view->addAction(tr("Compare Met&hods…"), this, [this] {
        CompareDialog dialog(this);
        dialog.setMethods(m_views->settings().compare.empty() ? classic_comparison()
                                                              : m_views->settings().compare);
        dialog.setPerPanelScales(m_views->settings().per_panel_scales);
        if (dialog.exec() == QDialog::Accepted)
            setComparedMethods(dialog.methods(), dialog.perPanelScales());
    });
    pick->setObjectName(QStringLiteral("compareMethodsAction"));
    pick->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    pick->setStatusTip(
        tr("Show 2 to 4 methods side by side: one heatmap panel per method, their curves overlaid"));
    QAction* classic = view->addAction(tr("Compare: Sinusoidal, RoPE, &ALiBi"), this,
                                       [this] { setComparedMethods(classic_comparison()); });
    classic->setObjectName(QStringLiteral("compareClassicAction"));
    classic->setStatusTip(tr("The three common encodings side by side, each with its own parameters"));
    m_stopComparing = view->addAction(tr("Stop Compa&ring"), this, [this] { setComparedMethods({}); });
    m_stopComparing->setObjectName(QStringLiteral("stopComparingAction"));
    m_stopComparing->setStatusTip(tr("Back to the current method alone"));
    m_stopComparing->setEnabled(false);
}

bool MainWindow::setComparedMethods(const std::vector<Method>& list, std::optional<bool> perPanelScales,
                                    QString* error)
{
    if (const std::string problem = compare_list_problem(list); !problem.empty()) {
        const QString message = tr("Compare methods: %1").arg(QString::fromStdString(problem));
        if (error)
            *error = message;
        else
            showError(message);
        return false;
    }
    ViewSettings v = m_views->settings();
    v.compare = list;
    if (perPanelScales)
        v.per_panel_scales = *perPanelScales;
    v.row0 = v.col0 = v.rows = v.cols = 0; // the zoom belongs to the previous picture
    if (auto* action = findChild<QAction*>(QStringLiteral("perPanelScalesAction"))) {
        const QSignalBlocker block(action); // its toggled handler would recompute with the old list
        action->setChecked(v.per_panel_scales);
    }
    // Rotation and spectrum titles say whether they show only the current method: every view.
    setViewSettings(v);
    return true;
}

void MainWindow::updateWindowTitle()
{
    QString caption = scenario_caption(m_model->scenario());
    if (const QString run = trainedRunCaption(); !run.isEmpty()) // the trained run's own names first
        caption = tr("%1 — %2").arg(run, caption);
    const std::vector<Method>& compared = m_views->settings().compare;
    // The application's name last: platforms that append the display name see it already there and do
    // not add it a second time ("PosAtlas — … — PosAtlas").
    setWindowTitle(compared.empty() ? tr("%1 — %2").arg(caption, QStringLiteral("PosAtlas"))
                                    : tr("Comparing: %1 — %2 — %3")
                                          .arg(compare_names(compared), caption, QStringLiteral("PosAtlas")));
    if (m_stopComparing)
        m_stopComparing->setEnabled(!compared.empty());
}

} // namespace posatlas::ui
