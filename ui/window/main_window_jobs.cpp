// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's views computed through the job tracker (job_tracker.h): one slot per view, the
// scenario and view settings copied into the job, hidden views left alone, the result shown only when
// it is the newest of its view.
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "window/main_window.h"
#include "window/view_timings.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <type_traits>
#include <variant>

namespace posatlas::ui {

void MainWindow::connectJobs()
{
    // A slider drag produces a steady trickle of recomputes rather than one per mouse event.
    m_jobs->setDebounceMs(35);
    connect(m_jobs, &JobTracker::jobFailed, this, [this](int kind, const QString& message) {
        showError(tr("%1: %2").arg(dock(static_cast<ViewKind>(kind))->windowTitle(), message));
    });
    connect(m_jobs, &JobTracker::totalProgressChanged, m_progress, &QProgressBar::setValue);
    connect(m_jobs, &JobTracker::progressVisible, m_progress, &QWidget::setVisible);
    // View > Show Timings: measured per view (view_timings.h), shown for the visible ones.
    m_timings = new ViewTimings(m_jobs, this);
    m_timings->watch(ViewKind::Heatmap, m_heatmap);
    m_timings->watch(ViewKind::Curves, m_curves);
    m_timings->watch(ViewKind::Rotation, m_rotation);
    m_timings->watch(ViewKind::Spectrum, m_spectrum);
    m_timingsLabel = new QLabel;
    m_timingsLabel->setObjectName(QStringLiteral("timingsLabel"));
    m_timingsLabel->setTextFormat(Qt::PlainText);
    m_timingsLabel->hide();
    statusBar()->insertPermanentWidget(0, m_timingsLabel);
    connect(m_timings, &ViewTimings::changed, this, &MainWindow::updateTimingsLabel);
    if (m_showTimingsAction)
        m_showTimingsAction->setChecked(m_settings->showTimings()); // calls setShowTimings when on
    ViewSettings v = m_viewSettings;
    v.log_x = m_settings->curveLogX();
    setViewSettings(v, ViewKind::Curves);
}

void MainWindow::setShowTimings(bool on)
{
    m_settings->setShowTimings(on);
    if (m_showTimingsAction && m_showTimingsAction->isChecked() != on)
        m_showTimingsAction->setChecked(on);
    if (!m_timingsLabel)
        return;
    m_timingsLabel->setVisible(on);
    updateTimingsLabel();
}

bool MainWindow::showTimings() const
{
    return m_showTimingsAction && m_showTimingsAction->isChecked();
}

void MainWindow::updateTimingsLabel()
{
    if (!m_timingsLabel || !showTimings())
        return;
    std::vector<ViewKind> visible;
    std::array<QString, kViewKindCount> names;
    for (ViewKind k : kAllViewKinds) {
        names[static_cast<std::size_t>(k)] = dock(k)->windowTitle();
        // Views on screen only (a tabbed-away dock has an empty visible region).
        if (dock(k)->isVisible() && !dock(k)->widget()->visibleRegion().isEmpty())
            visible.push_back(k);
    }
    const QString text = m_timings->text(visible, names);
    m_timingsLabel->setText(text.isEmpty() ? tr("timings: waiting for a view to compute") : text);
}

void MainWindow::setViewSettings(const ViewSettings& settings, std::optional<ViewKind> kind)
{
    // Never a kind the method lacks nor a window outside the matrix: what is kept here is what a
    // session saves and what an export computes.
    m_viewSettings = normalized_view_settings(m_model->scenario(), settings);
    updateWindowTitle();
    updateExplanations(); // the heatmap's text follows its matrix kind
    if (kind)
        requestView(*kind);
    else
        requestAllViews();
}

void MainWindow::setViewEnabled(ViewKind kind, bool enabled)
{
    bool& on = m_viewEnabled[static_cast<std::size_t>(kind)];
    if (on == enabled)
        return;
    on = enabled;
    if (enabled)
        requestView(kind);
    else
        m_jobs->cancel(static_cast<int>(kind)); // nobody looks at it: stop waiting for it
}

void MainWindow::requestView(ViewKind kind)
{
    if (!m_viewEnabled[static_cast<std::size_t>(kind)])
        return;
    m_jobs->submit(
        static_cast<int>(kind),
        [kind, scenario = m_model->scenario(), settings = m_viewSettings](const JobControl& job) {
            return run_view_job(kind, scenario, settings, job.cancel, job.progress);
        },
        [this](ViewResult&& result) { showViewResult(result); });
}

void MainWindow::requestAllViews()
{
    for (ViewKind k : kAllViewKinds)
        requestView(k);
}

void MainWindow::showViewResult(const ViewResult& result)
{
    std::visit(
        [this](const auto& data) {
            using T = std::decay_t<decltype(data)>;
            if constexpr (std::is_same_v<T, HeatmapData>)
                m_heatmap->setData(data);
            else if constexpr (std::is_same_v<T, CurveData>)
                m_curves->setData(data);
            else if constexpr (std::is_same_v<T, RotationData>)
                m_rotation->setData(data);
            else
                m_spectrum->setData(data);
        },
        result);
}

} // namespace posatlas::ui
