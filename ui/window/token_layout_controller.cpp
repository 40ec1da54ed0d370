// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/token_layout_controller.h"

#include "export/export_dialog.h"
#include "export/token_layout_export.h"
#include "jobs/job_tracker.h"
#include "jobs/token_layout_job.h"
#include "model/scenario_model.h"
#include "views/token_layout_view.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFontMetrics>
#include <QMainWindow>
#include <QMessageBox>
#include <QResizeEvent>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

namespace posatlas::ui {

TokenLayoutController::TokenLayoutController(ScenarioModel* model, JobTracker* jobs, TokenLayoutView* view,
                                             QDockWidget* dock, QObject* parent)
    : QObject(parent), m_model(model), m_jobs(jobs), m_view(view), m_dock(dock)
{
    connect(m_model, &ScenarioModel::scenarioChanged, this, &TokenLayoutController::scenarioChanged);
    // Shown by hand (View > Panels) for another method, it says what it is for.
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) {
            request();
            fitDockSoon();
        }
    });
    // The cells' height changes with the view's width and font (presentation mode's large text).
    m_view->installEventFilter(this);
    // Right-click on the figure: its exports, as File > Export Figure / Export Data for the views.
    auto* figure = new QAction(tr("Export Figure…"), m_view);
    figure->setObjectName(QStringLiteral("tokenLayoutExportFigureAction"));
    figure->setStatusTip(tr("Write the token layout as PNG, SVG or PDF"));
    connect(figure, &QAction::triggered, this, [this] { exportDialog(false); });
    auto* numbers = new QAction(tr("Export Data…"), m_view);
    numbers->setObjectName(QStringLiteral("tokenLayoutExportDataAction"));
    numbers->setStatusTip(
        tr("Write each token's kind and (t, h, w) ids as CSV, or with each pair's axis as JSON"));
    connect(numbers, &QAction::triggered, this, [this] { exportDialog(true); });
    m_view->addAction(figure);
    m_view->addAction(numbers);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    scenarioChanged();
}

void TokenLayoutController::exportTo(const QString& path, const FigureExportOptions& options) const
{
    const Scenario s = m_model->scenario();
    try {
        const TokenLayoutFigure figure(s);
        export_token_layout(figure.figure(), figure.data(), path, options, s);
    } catch (const ParameterError& e) {
        throw ExportError(
            tr("cannot compute the token layout: %1").arg(QString::fromUtf8(e.what())).toStdString());
    }
}

void TokenLayoutController::exportDialog(bool numbers)
{
    ExportDialog dialog(ViewKind::Heatmap, scenario_caption(m_model->scenario()), m_dock->window());
    dialog.setSingleFigure(tr("Token layout"), QStringLiteral("posatlas-token-layout"));
    if (m_lastOptions) { // the options of last time; the file named after the format chosen below
        FigureExportRequest last;
        last.options = *m_lastOptions;
        dialog.restoreChoices(last);
    }
    QComboBox* format = dialog.formatCombo();
    format->setCurrentIndex(format->findData(numbers ? QStringLiteral("csv") : QStringLiteral("png")));
    if (const auto request = dialog.execUntilWritten(
            tr("Export failed"), [this](const FigureExportRequest& r) { exportTo(r.path, r.options); })) {
        m_lastOptions = request->options;
        emit exported(request->path);
    }
}

void TokenLayoutController::scenarioChanged()
{
    const bool shown = shows_token_layout(m_model->scenario());
    if (shown != m_shown) {
        m_shown = shown;
        m_dock->setVisible(shown);
        if (!shown)
            m_jobs->cancel(kSlot);
    }
    if (m_dock->isVisible())
        request();
}

void TokenLayoutController::request()
{
    m_jobs->submit(
        kSlot,
        [scenario = m_model->scenario()](const JobControl& job) {
            try {
                return token_layout_job(scenario, job.cancel);
            } catch (const ParameterError& e) {
                // The model validated the layout; should core still refuse it, the figure says why.
                TokenLayoutData d;
                d.title = QString::fromUtf8(e.what());
                return d;
            }
        },
        [this](TokenLayoutData&& data) {
            m_view->setData(data);
            fitDockSoon();
        });
}

bool TokenLayoutController::eventFilter(QObject* watched, QEvent* event)
{
    // The cells' height follows the view's width and font; the share it may take, the window's height.
    const bool resized = event->type() == QEvent::Resize;
    const QSize old = resized ? static_cast<QResizeEvent*>(event)->oldSize() : QSize();
    if ((watched == m_view &&
         (event->type() == QEvent::FontChange || (resized && old.width() != m_view->width()))) ||
        (watched == m_window && resized && old.height() != m_window->height()))
        fitDockSoon();
    // The figures' minimums changed (a note took more lines): fitted now, before the window's layout
    // applies them (event filters see the request first), so that they never add up to a taller window.
    if (watched == m_window && event->type() == QEvent::LayoutRequest)
        fitDock();
    return QObject::eventFilter(watched, event);
}

bool TokenLayoutController::presenting() const
{
    return m_view->font().pointSizeF() > QApplication::font().pointSizeF();
}

void TokenLayoutController::fitDockSoon()
{
    if (m_fitPending)
        return;
    m_fitPending = true;
    // Queued: once the dock layout has settled after the change (a window's resize, new fonts).
    QTimer::singleShot(0, this, [this] {
        m_fitPending = false;
        fitDock();
    });
}

void TokenLayoutController::fitDock()
{
    auto* window = qobject_cast<QMainWindow*>(m_dock->parentWidget());
    if (!window || !m_dock->isVisible() || m_dock->isFloating() || m_view->width() <= 0)
        return;
    if (window != m_window) {
        m_window = window;
        m_window->installEventFilter(this);
    }
    // The main window has no central widget, so its bottom dock area takes all the height the docks
    // beside the figures do not strictly need (presented on 1080 lines, two thirds of the screen, mostly
    // empty, over a heatmap at its minimum); resizeDocks cannot make it shorter, a maximum height can.
    // The view's maximum is what its cells need at the body text's size: taller would only enlarge them.
    const int dockMinimum = m_dock->minimumSizeHint().height();
    const int frame = std::max(0, dockMinimum - m_view->minimumHeight()); // title bar and margins
    const int needed = m_view->heightForCells(m_view->width());           // at least the view's own minimum
    // Offered at most kMaxWindowShare of the window, and no more than the figures' own minimums leave
    // (a wrapped note under a narrow curve): a larger minimum made the window taller than the screen's
    // 720 lines under Chinese fonts.
    const int share = static_cast<int>(window->height() * kMaxWindowShare) - frame;
    const int room = window->height() - (window->minimumSizeHint().height() - dockMinimum) - frame;
    // Under larger text than the application's (presentation mode) exactly that height.
    if (presenting()) {
        const int offered = std::clamp(std::min(share, room), TokenLayoutView::kMinimumHeight, needed);
        m_view->setFixedHeight(offered);
        return;
    }
    // Otherwise at least that (no token hidden while the window has room for them all) and at most what
    // the cells need; the user's height between the two stays. (A minimum lowered once the dock has grown
    // does not hold that height: the window's dock layout recomputes the area's sizes from the docks
    // beside it.)
    // Outside presentation mode the figures above also keep kFigureLines lines of the window's text
    // (their titles, axes and notes; a Chinese desktop's lines are taller): below that a chart's axis
    // labels were elided to "…" and the heatmap shrank to a stamp. The view says how many tokens fit.
    int chrome = kDockSeparator;
    if (const QWidget* menu = window->menuWidget(); menu && menu->isVisible())
        chrome += menu->height();
    if (const QWidget* status = window->findChild<QStatusBar*>(); status && status->isVisible())
        chrome += status->height();
    const int legible =
        window->height() - chrome - kFigureLines * QFontMetrics(window->font()).lineSpacing() - frame;
    const int offered = std::clamp(std::min({share, room, legible}), TokenLayoutView::kMinimumHeight, needed);
    m_view->setMaximumHeight(needed);
    m_view->setMinimumHeight(offered);
}

} // namespace posatlas::ui
