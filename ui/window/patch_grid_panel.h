// SPDX-License-Identifier: GPL-3.0-or-later
// The patch-grid dock: for a method of image patches (2D RoPE, RoPE-Mixed, Swin), one query patch
// against every patch of the grid, as the patch-grid figure (views/patch_grid_view.h: an H x W image
// with a colour bar, its title naming the method, grid, query and kind). The user picks the query by
// clicking a patch or with the arrow keys; the query's (row, column), and the patch and value under the
// mouse, are written above the figure. Export… writes the figure (PNG, SVG, PDF) or its numbers (CSV,
// JSON) through export/patch_grid_export.h, as `posatlas export --view patch-grid` does.
//
// The numbers are core's (analysis/patch_grid.h: one row of compute_matrix), computed on the
// JobTracker in a slot of the panel's own, so the newest request wins and a superseded one is
// cancelled. The widget only paints what the job returned.
#pragma once

#include "analysis/patch_grid.h"
#include "export/export_dialog.h"
#include "views/patch_grid_view.h"

#include <QWidget>

#include <cstdint>
#include <optional>

class QLabel;
class QPushButton;

namespace posatlas::ui {

class JobTracker;
class ScenarioModel;

class PatchGridPanel : public QWidget
{
    Q_OBJECT
public:
    PatchGridPanel(ScenarioModel* model, JobTracker* jobs, int slot, QWidget* parent = nullptr);

    // Whether the scenario's method lays its positions on a patch grid (the dock is shown then).
    bool applies() const;
    std::int64_t query() const { return m_query; }
    // Clamped to the scenario's patches; requests the new row.
    void setQuery(std::int64_t patch);
    // The row shown (empty until the first result arrives, and for a method without a grid).
    const std::optional<PatchGridRow>& shown() const;
    PatchGridView* canvas() const { return m_canvas; }
    QString queryText() const;
    QString hoverText() const;
    // Requests the row for the current scenario and query (nothing when the method has no grid).
    void refresh();
    // Writes the grid of the current scenario and query: the figure or, for .csv and .json, its numbers
    // (export_patch_grid). Throws ExportError; a method without a grid is an ExportError too.
    void exportTo(const QString& path, const FigureExportOptions& options) const;
    // The Export… button: the export dialog for this figure, then exportTo; errors in a message box.
    void exportDialog();
    QPushButton* exportButton() const { return m_export; }

signals:
    void queryChanged(std::int64_t patch);

protected:
    void changeEvent(QEvent* e) override; // language changes
    void showEvent(QShowEvent* e) override;

private:
    void onScenarioChanged();
    void onHovered(std::optional<std::int64_t> patch);
    void updateTexts();

    ScenarioModel* m_model;
    JobTracker* m_jobs;
    int m_slot;
    std::int64_t m_query = 0;
    std::optional<std::int64_t> m_hover;
    QLabel* m_title;
    PatchGridView* m_canvas;
    QLabel* m_queryLabel;
    QLabel* m_hoverLabel;
    QPushButton* m_export;
    std::optional<FigureExportRequest> m_lastRequest; // the dialog's last choices (this run)
};

} // namespace posatlas::ui
