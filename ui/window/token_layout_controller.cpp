// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/token_layout_controller.h"

#include "jobs/job_tracker.h"
#include "jobs/token_layout_job.h"
#include "model/scenario_model.h"
#include "views/token_layout_view.h"

#include <QDockWidget>

namespace posatlas::ui {

TokenLayoutController::TokenLayoutController(ScenarioModel* model, JobTracker* jobs, TokenLayoutView* view,
                                             QDockWidget* dock, QObject* parent)
    : QObject(parent), m_model(model), m_jobs(jobs), m_view(view), m_dock(dock)
{
    connect(m_model, &ScenarioModel::scenarioChanged, this, &TokenLayoutController::scenarioChanged);
    // Shown by hand (View > Panels) for another method, it says what it is for.
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            request();
    });
    scenarioChanged();
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
        [this](TokenLayoutData&& data) { m_view->setData(data); });
}

} // namespace posatlas::ui
