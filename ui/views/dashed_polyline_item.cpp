// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/dashed_polyline_item.h"

#include <QPainter>

#include <algorithm>

namespace posatlas::ui {

DashedPolylineItem::DashedPolylineItem(QGraphicsItem* parent) : QGraphicsItem(parent) {}

void DashedPolylineItem::setPolyline(const QPolygonF& points, const QRectF& clip)
{
    prepareGeometryChange();
    m_points = points;
    m_clip = clip;
    m_lengths.assign(static_cast<std::size_t>(points.size()), 0.0);
    for (qsizetype i = 1; i < points.size(); ++i)
        m_lengths[static_cast<std::size_t>(i)] =
            m_lengths[static_cast<std::size_t>(i - 1)] + QLineF(points[i - 1], points[i]).length();
    update();
}

void DashedPolylineItem::setPen(const QPen& pen)
{
    m_pen = pen;
    update();
}

QRectF DashedPolylineItem::boundingRect() const
{
    return m_clip;
}

void DashedPolylineItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_points.size() < 2)
        return;
    painter->save();
    painter->setClipRect(m_clip);
    // The dash offset is in pen widths (QPen::setDashOffset); a path's dashes run on along its length.
    const double unit = std::max(1.0, m_pen.widthF());
    QPen pen = m_pen;
    for (qsizetype i = 1; i < m_points.size(); ++i) {
        pen.setDashOffset(m_lengths[static_cast<std::size_t>(i - 1)] / unit);
        painter->setPen(pen);
        painter->drawLine(m_points[i - 1], m_points[i]);
    }
    painter->restore();
}

} // namespace posatlas::ui
