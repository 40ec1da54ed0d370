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
#include <QMainWindow>
#include <QMessageBox>
#include <QResizeEvent>
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
    if (watched == m_view && event->type() == QEvent::Resize && m_growing &&
        m_view->height() >= m_view->minimumHeight()) {
        m_growing = false;
        QTimer::singleShot(0, this, [this] {
            if (!m_growing && !presenting())
                m_view->setMinimumHeight(TokenLayoutView::kMinimumHeight);
        });
    }
    if (watched == m_view && (event->type() == QEvent::FontChange ||
                              (event->type() == QEvent::Resize &&
                               static_cast<QResizeEvent*>(event)->oldSize().width() != m_view->width())))
        fitDockSoon();
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
    // The main window has no central widget, so its bottom dock area takes all the height the docks
    // beside the figures do not strictly need (presented on 1080 lines, two thirds of the screen, mostly
    // empty, over a heatmap at its minimum); resizeDocks cannot make it shorter, a maximum height can.
    // The view's maximum is what its cells need at the body text's size: taller would only enlarge them.
    const int frame = m_dock->height() - m_view->height();
    const int needed = m_view->heightForCells(m_view->width()); // at least the view's own minimum
    // Offered at most kMaxWindowShare of the window: the figures above keep the rest.
    const int share = static_cast<int>(window->height() * kMaxWindowShare);
    const int offered = std::clamp(share - frame, TokenLayoutView::kMinimumHeight, needed);
    // Under larger text than the application's (presentation mode) exactly that height.
    if (presenting()) {
        m_growing = false;
        m_view->setFixedHeight(offered);
        return;
    }
    // Otherwise between its own minimum and what it needs, made taller when its cells lack room and never
    // shorter: the user's height within those bounds stays, as does the layout restored on leaving
    // presentation mode.
    // (resizeDocks did not always grow a bottom dock; a minimum does. It is lowered again once the view
    // has that height, which the layout then keeps.)
    m_view->setMaximumHeight(needed);
    m_growing = m_view->height() < offered;
    m_view->setMinimumHeight(m_growing ? offered : TokenLayoutView::kMinimumHeight);
}

} // namespace posatlas::ui
