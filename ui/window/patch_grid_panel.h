// SPDX-License-Identifier: GPL-3.0-or-later
// The patch-grid dock: for a method of image patches (2D RoPE, RoPE-Mixed, Swin), one query patch
// against every patch of the grid, as an H x W image with a colour bar. The user picks the query by
// clicking a patch or with the arrow keys; the query is framed and its (row, column), and the patch and
// value under the mouse, are written below the image.
//
// The numbers are core's (analysis/patch_grid.h: one row of compute_matrix), computed on the
// JobTracker in a slot of the panel's own, so the newest request wins and a superseded one is
// cancelled. The widget only paints what the job returned.
#pragma once

#include "analysis/patch_grid.h"
#include "views/colormap.h"

#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

class QLabel;

namespace posatlas::ui {

class JobTracker;
class ScenarioModel;
class PatchGridCanvas;

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
    PatchGridCanvas* canvas() const { return m_canvas; }
    QString queryText() const;
    QString hoverText() const;
    // Requests the row for the current scenario and query (nothing when the method has no grid).
    void refresh();

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
    PatchGridCanvas* m_canvas;
    QLabel* m_queryLabel;
    QLabel* m_hoverLabel;
};

// The image, the frame on the query patch and the colour bar; painted from a PatchGridRow only.
class PatchGridCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit PatchGridCanvas(QWidget* parent = nullptr);

    void setRow(std::optional<PatchGridRow> row);
    const std::optional<PatchGridRow>& row() const { return m_row; }
    // The H x W image, one pixel per patch, coloured from row().values (empty without a row).
    const QImage& image() const { return m_image; }
    // Where patch (row, column) is painted, in widget coordinates (empty without a row).
    QRectF cellRect(std::int64_t row, std::int64_t column) const;
    std::optional<std::int64_t> patchAt(QPointF point) const;
    // Everything painted: the grid, the colour bar and its labels (empty without a row). Inside rect()
    // when nothing is clipped.
    QRectF contentRect() const;
    // Where the colour bar's numbers are written (none overlaps another when they are legible).
    std::vector<QRectF> colourBarLabelRects() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void patchClicked(std::int64_t patch);
    void hovered(std::optional<std::int64_t> patch);
    void stepped(int rows, int columns); // arrow keys

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    struct Layout {
        QRectF grid; // the image
        QRectF bar;  // the colour bar
        double cell = 0;
        bool horizontalBar = false; // below the grid rather than beside it
        bool stackedLabels = false; // below, with the ends' numbers on two lines
    };
    Layout layout() const;
    std::vector<std::pair<double, double>> barTicks(const Layout& l, const ColorRange& range) const;
    QRectF tickTextRect(const Layout& l, double anchor, const QString& text) const;

    std::optional<PatchGridRow> m_row;
    QImage m_image;
};

} // namespace posatlas::ui
