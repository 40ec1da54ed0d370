// SPDX-License-Identifier: GPL-3.0-or-later
// A dashed curve of the Curves chart, stroked segment by segment with the dash pattern carried from each
// segment to the next (QPen::setDashOffset): the pattern a path of the whole polyline gets, at the cost of
// its segments. Qt Charts strokes a dashed QLineSeries as one QPainterPath, and Qt 6.4's raster engine
// fills the dashes of a zig-zag envelope's path in time that grows faster than the path (seconds for the
// dense envelope of RoPE's unscaled bound at large N); its solid series it draws line by line.
#pragma once

#include <QGraphicsItem>
#include <QPen>
#include <QPolygonF>

#include <vector>

namespace posatlas::ui {

class DashedPolylineItem : public QGraphicsItem
{
public:
    explicit DashedPolylineItem(QGraphicsItem* parent = nullptr);

    // The polyline in the parent's coordinates, painted inside `clip` (the plot area).
    void setPolyline(const QPolygonF& points, const QRectF& clip);
    void setPen(const QPen& pen);
    const QPolygonF& polyline() const { return m_points; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPolygonF m_points;
    std::vector<double> m_lengths; // length of the polyline up to each point (pixels)
    QRectF m_clip;
    QPen m_pen;
};

} // namespace posatlas::ui
