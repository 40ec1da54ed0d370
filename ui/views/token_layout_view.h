// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's token layout: the sequence as text tokens and image patches (an image as its merged grid, a
// video as one grid per frame), each token's three position ids t, h, w written in its cell in the axis'
// colour (stacked, or side by side when the view is short and wide), and under it the head's rotary pairs
// coloured by the axis each follows (Qwen2-VL and Qwen2.5-VL: three chunks; Qwen3-VL: interleaved). Paints
// TokenLayoutData (jobs/token_layout_data.h) and nothing else; the cells shrink with the layout down to a
// legible minimum, and the figure says what does not fit.
#pragma once

#include "jobs/token_layout_data.h"
#include "views/figure.h"

#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

namespace posatlas::ui {

class TokenLayoutView : public QWidget, public Figure
{
    Q_OBJECT
public:
    // Its own minimum height (the dock's controller raises the widget's minimum to what its cells need,
    // within the window's room, and fixes it while presenting).
    static constexpr int kMinimumHeight = 290;

    explicit TokenLayoutView(QWidget* parent = nullptr);

    void setData(const TokenLayoutData& data);
    const TokenLayoutData& data() const { return m_data; }

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_data.title; }

    // The three lines written in token i's cell: its t, h and w ids.
    QStringList cellLines(std::size_t token) const;
    // Where each token's cell is drawn in `target` (the figure laid out as renderFigure lays it out), in
    // token order; fewer than the tokens when the smallest cells do not fit. For the tests.
    std::vector<QRectF> cellRects(const QRectF& target, const RenderOptions& options) const;
    // The pixel size of the ids' font in that layout.
    double cellFontPixels(const QRectF& target, const RenderOptions& options) const;
    // Where that layout writes how many tokens fit, under the last cells; empty when all fit.
    QRectF countLine(const QRectF& target, const RenderOptions& options) const;

    // The height at which every cell fits at the body text's size in this width: what the dock asks for
    // (token_layout_controller.h), so that a projector's large text still shows the whole sequence.
    // (Not QWidget::heightForWidth: the dock asks for this height; its layout does not impose it.)
    int heightForCells(int width) const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Plan;
    // The cells' layout in `area` (what is left under the title, the legend and above the pairs' strip):
    // at the largest id size that fits them all, else as many as fit at the smallest.
    Plan plan(const QRectF& area, const RenderOptions& options) const;
    // Every cell laid out at kIdSizes[size], its ids stacked or side by side, whether or not it fits.
    Plan planAt(const QRectF& area, const RenderOptions& options, std::size_t size, bool side_by_side) const;
    Plan paintFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const;
    int measureHeightForCells(int width) const;
    QString pairsCaption() const;

    TokenLayoutData m_data;
    // heightForCells' last answer, for this data at that width and font.
    struct HeightForCells {
        int width;
        QString font;
        int height;
    };
    mutable std::optional<HeightForCells> m_heightForCells;
};

} // namespace posatlas::ui
