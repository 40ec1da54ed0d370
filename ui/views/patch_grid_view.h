// SPDX-License-Identifier: GPL-3.0-or-later
// The patch grid as a figure: one query patch against every patch of the image grid (2D RoPE, RoPE-Mixed,
// Swin), an H x W image with the query framed, a colour bar with its numbers, the title (method, grid,
// query patch, kind) and, under it, the caption and the note. Paints PatchGridData (jobs/patch_grid_data.h)
// and nothing else, through one renderFigure() that feeds the screen, PNG, SVG, PDF and the gallery.
//
// On screen it is the patch-grid dock's canvas: a click on a patch and the arrow keys ask for a new query
// (patchClicked, stepped), the mouse reports the patch under it (hovered).
#pragma once

#include "jobs/patch_grid_data.h"
#include "views/colormap.h"
#include "views/figure.h"

#include <QImage>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace posatlas::ui {

class PatchGridView : public QWidget, public Figure
{
    Q_OBJECT
public:
    explicit PatchGridView(QWidget* parent = nullptr);

    void setData(PatchGridData data);
    const PatchGridData& data() const { return m_data; }
    const std::optional<PatchGridRow>& row() const { return m_data.row; }
    // The H x W image, one pixel per patch, coloured from row().values (empty without a row).
    const QImage& image() const { return m_image; }

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_data.title; }

    // On screen (the widget's rect, the screen's options): where patch (row, column) is painted (empty
    // without a row), the patch under a point, everything painted of the grid and the colour bar with its
    // numbers, and where those numbers are written.
    QRectF cellRect(std::int64_t row, std::int64_t column) const;
    std::optional<std::int64_t> patchAt(QPointF point) const;
    QRectF contentRect() const;
    std::vector<QRectF> colourBarLabelRects() const;
    // The same in any target, laid out as renderFigure lays it out there (for the export tests).
    QRectF contentRect(const QRectF& target, const RenderOptions& options) const;
    std::vector<QRectF> colourBarLabelRects(const QRectF& target, const RenderOptions& options) const;
    QRectF gridRect(const QRectF& target, const RenderOptions& options) const;

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
        QFont font;                 // the numbers' font
        // What gave way to the grid in a small frame (a docked canvas at 250 % text): 0 nothing, 1 the row
        // and column numbers, 2 also the note, 3 also the title, 4 also the caption.
        int dropped = 0;
    };
    RenderOptions screenOptions() const;
    // The area under the title and above the caption and the note, without what `dropped` leaves out.
    QRectF plotArea(const QRectF& target, const RenderOptions& options, int dropped) const;
    // The first layout, dropping less and less telling parts, whose content fits `target` with patches of
    // at least a few pixels (else the last one tried).
    Layout layout(const QRectF& target, const RenderOptions& options) const;
    Layout layoutDropping(const QRectF& target, const RenderOptions& options, int dropped) const;
    QRectF contentOf(const Layout& l) const;
    std::vector<std::pair<double, double>> barTicks(const Layout& l, const ColorRange& range) const;
    QRectF tickTextRect(const Layout& l, double anchor, const QString& text) const;
    // The row numbers left of the grid and the column numbers above it: the first, the last and evenly
    // spaced ones between, as many as fit without touching.
    std::vector<std::pair<QRectF, QString>> axisLabels(const Layout& l) const;
    QRectF cellRect(const Layout& l, std::int64_t row, std::int64_t column) const;

    PatchGridData m_data;
    QImage m_image;
};

} // namespace posatlas::ui
