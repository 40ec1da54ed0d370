// SPDX-License-Identifier: GPL-3.0-or-later
// One painting routine per figure feeds the screen and every export (PNG through a QImage, SVG
// through QSvgGenerator, PDF through QPdfWriter): see HOUSE_STYLE (LabPlot's exportPaint).
#pragma once

#include <QRectF>
#include <QString>

class QPainter;

namespace posatlas::ui {

struct RenderOptions {
    bool dark = false;       // dark theme colours (background, text, grid)
    double font_scale = 1.0; // 1.0 = screen default; larger for projectors / slides
    QString caption;         // optional line under the figure (method and parameters); empty = none
};

class Figure
{
public:
    virtual ~Figure() = default;
    // Paints the whole figure (title, axes, legend, colour bar, ...) into `target`, in vector form
    // wherever the painter supports it. Must not depend on the widget's on-screen size.
    virtual void renderFigure(QPainter& painter, const QRectF& target,
                              const RenderOptions& options) const = 0;
    virtual QString figureTitle() const = 0;
};

} // namespace posatlas::ui
