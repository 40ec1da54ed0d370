// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/patch_grid_panel.h"

#include "export/patch_grid_export.h"
#include "jobs/figure_numbers.h"
#include "jobs/job_tracker.h"
#include "jobs/patch_grid_job.h"
#include "model/parameter_message.h"
#include "model/scenario_model.h"
#include "model/session.h"

#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

QString valueLabel(const PatchGridRow& row)
{
    return QCoreApplication::translate("MatrixLabel", row.value_label.c_str());
}

} // namespace

// ---------------------------------------------------------------- panel

PatchGridPanel::PatchGridPanel(ScenarioModel* model, JobTracker* jobs, int slot, QWidget* parent)
    : QWidget(parent), m_model(model), m_jobs(jobs), m_slot(slot), m_title(new QLabel(this)),
      m_canvas(new PatchGridView(this)), m_queryLabel(new QLabel(this)), m_hoverLabel(new QLabel(this)),
      m_export(new QPushButton(this))
{
    setObjectName(QStringLiteral("PatchGridPanel"));
    m_title->setWordWrap(true);
    m_queryLabel->setWordWrap(true);
    m_hoverLabel->setWordWrap(true);
    m_queryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hoverLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_export->setObjectName(QStringLiteral("patchGridExportButton"));
    connect(m_export, &QPushButton::clicked, this, &PatchGridPanel::exportDialog);
    auto* box = new QVBoxLayout(this);
    // The readouts above the figure: the canvas takes the rest, and its grid sits at the top of it. The
    // title label speaks only when there is no figure (a method without a grid); the figure has its own.
    box->addWidget(m_title);
    auto* queryRow = new QHBoxLayout;
    queryRow->addWidget(m_queryLabel, 1);
    queryRow->addWidget(m_export, 0, Qt::AlignTop);
    box->addLayout(queryRow);
    box->addWidget(m_hoverLabel);
    box->addWidget(m_canvas, 1);

    connect(m_model, &ScenarioModel::scenarioChanged, this, &PatchGridPanel::onScenarioChanged);
    connect(m_jobs, &JobTracker::jobFailed, this, [this](int slot, const QString& message) {
        if (slot != m_slot)
            return;
        m_canvas->setData(
            PatchGridData{std::nullopt, patch_grid_title(m_model->scenario(), m_query), {}, {}});
        updateTexts();
        m_hoverLabel->setText(message);
    });
    connect(m_canvas, &PatchGridView::patchClicked, this, &PatchGridPanel::setQuery);
    connect(m_canvas, &PatchGridView::hovered, this, &PatchGridPanel::onHovered);
    connect(m_canvas, &PatchGridView::stepped, this, [this](int rows, int columns) {
        const std::optional<PatchGrid> grid = patch_grid(m_model->scenario());
        if (!grid)
            return;
        const std::int64_t r = m_query / grid->width + rows, c = m_query % grid->width + columns;
        if (r < 0 || c < 0 || c >= grid->width)
            return;
        const std::int64_t next = r * grid->width + c;
        if (next < m_model->scenario().seq_len)
            setQuery(next);
    });
    updateTexts();
}

bool PatchGridPanel::applies() const
{
    return patch_grid(m_model->scenario()).has_value();
}

const std::optional<PatchGridRow>& PatchGridPanel::shown() const
{
    return m_canvas->row();
}

void PatchGridPanel::setQuery(std::int64_t patch)
{
    const std::int64_t clamped =
        std::clamp<std::int64_t>(patch, 0, std::max<std::int64_t>(0, m_model->scenario().seq_len - 1));
    if (clamped == m_query)
        return;
    m_query = clamped;
    updateTexts();
    emit queryChanged(m_query);
    refresh();
}

void PatchGridPanel::refresh()
{
    const Scenario& s = m_model->scenario();
    if (!patch_grid(s)) {
        m_jobs->cancel(m_slot);
        m_canvas->setData({});
        updateTexts();
        return;
    }
    m_jobs->submit(
        m_slot,
        [s, query = m_query](const JobControl& job) {
            return patch_grid_job(s, query, job.cancel, job.progress);
        },
        [this](PatchGridData&& data) {
            m_canvas->setData(std::move(data));
            updateTexts();
        });
}

void PatchGridPanel::onScenarioChanged()
{
    const Scenario& s = m_model->scenario();
    if (m_query >= s.seq_len) {
        m_query = std::max<std::int64_t>(0, s.seq_len - 1);
        emit queryChanged(m_query);
    }
    refresh();
}

void PatchGridPanel::onHovered(std::optional<std::int64_t> patch)
{
    m_hover = patch;
    updateTexts();
}

QString PatchGridPanel::queryText() const
{
    return m_queryLabel->text();
}

QString PatchGridPanel::hoverText() const
{
    return m_hoverLabel->text();
}

void PatchGridPanel::updateTexts()
{
    const std::optional<PatchGridRow>& row = m_canvas->row();
    const std::optional<PatchGrid> grid = patch_grid(m_model->scenario());
    m_export->setText(tr("&Export…"));
    m_export->setToolTip(tr("Export the figure (PNG, SVG, PDF) or its numbers (CSV, JSON)"));
    m_export->setEnabled(grid.has_value());
    m_title->setVisible(!grid);
    if (!grid) {
        m_title->setText(patch_grid_title(m_model->scenario(), m_query));
        m_queryLabel->clear();
        m_hoverLabel->clear();
        return;
    }
    const QString label = row ? valueLabel(*row) : QCoreApplication::translate("MatrixLabel", "logit");
    m_queryLabel->setText(tr("Query patch %1 at row %2, column %3")
                              .arg(m_query)
                              .arg(m_query / grid->width)
                              .arg(m_query % grid->width));
    if (!row || !m_hover) {
        m_hoverLabel->setText(
            tr("Point at a patch to read its value; click it, or use the arrow keys, to make it the query."));
        return;
    }
    const std::int64_t p = *m_hover;
    if (p >= static_cast<std::int64_t>(row->values.size())) {
        m_hoverLabel->setText(
            tr("Point at a patch to read its value; click it, or use the arrow keys, to make it the query."));
        return;
    }
    const double v = row->values[static_cast<std::size_t>(p)];
    const QString value = std::isnan(v) ? tr("no value") : format_number(v);
    m_hoverLabel->setText(tr("Patch %1 at row %2, column %3: %4 %5")
                              .arg(p)
                              .arg(p / row->grid.width)
                              .arg(p % row->grid.width)
                              .arg(label, value));
}

void PatchGridPanel::exportTo(const QString& path, const FigureExportOptions& options) const
{
    try {
        export_patch_grid(m_model->scenario(), m_query, path, options);
    } catch (const ParameterError& e) {
        throw ExportError(parameterErrorText(e, m_model->scenario()).toStdString());
    }
}

void PatchGridPanel::exportDialog()
{
    ExportDialog dialog(ViewKind::Heatmap, scenario_caption(m_model->scenario()), this);
    dialog.setSingleFigure(tr("Patch grid"), QStringLiteral("posatlas-patch-grid"));
    if (m_lastRequest)
        dialog.restoreChoices(*m_lastRequest);
    if (const auto request =
            dialog.execUntilWritten(tr("Cannot export the patch grid"),
                                    [this](const FigureExportRequest& r) { exportTo(r.path, r.options); }))
        m_lastRequest = request;
}

void PatchGridPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        updateTexts();
    QWidget::changeEvent(e);
}

void PatchGridPanel::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (!shown() || shown()->query != m_query)
        refresh();
}

} // namespace posatlas::ui
