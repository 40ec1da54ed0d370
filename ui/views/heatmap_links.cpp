// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapView: a sentence beside its permutation, the rows of the same word linked (HeatmapData::
// linked_rows, computed by core: scenario/permutation.h). Hovering a row outlines it and its linked row
// in the other panel; a click keeps the pair outlined until the next click.
#include "views/figure_style.h"
#include "views/heatmap_view.h"

#include <QPainter>

#include <cmath>

namespace posatlas::ui {

const QStringList& HeatmapView::rowTokens(int panel) const
{
    if (panel >= 0 && panel < m_data.panels.size() && !m_data.panels[panel].row_tokens.isEmpty())
        return m_data.panels[panel].row_tokens;
    return m_data.row_tokens;
}

const QStringList& HeatmapView::colTokens(int panel) const
{
    if (panel >= 0 && panel < m_data.panels.size() && !m_data.panels[panel].col_tokens.isEmpty())
        return m_data.panels[panel].col_tokens;
    return m_data.col_tokens;
}

std::int64_t HeatmapView::linkedRow(int from, std::int64_t position) const
{
    const std::vector<std::int64_t>& p = m_data.linked_rows; // panel 1's row k is panel 0's row p[k]
    const auto n = static_cast<std::int64_t>(p.size());
    if (m_data.panels.size() != 2 || position < 0 || position >= n)
        return -1;
    if (from == 1)
        return p[static_cast<std::size_t>(position)];
    if (from == 0)
        for (std::int64_t k = 0; k < n; ++k)
            if (p[static_cast<std::size_t>(k)] == position)
                return k;
    return -1;
}

void HeatmapView::highlightRow(int panel, std::int64_t position)
{
    QList<QPair<int, std::int64_t>> rows;
    if (const std::int64_t other = linkedRow(panel, position); other >= 0)
        rows = {{panel, position}, {1 - panel, other}};
    if (rows != m_highlight) {
        m_highlight = rows;
        update();
    }
}

std::int64_t HeatmapView::rowAt(const QPointF& pos, int* panel) const
{
    const Layout L = screenLayout();
    const int i = panelAt(pos, L);
    *panel = i;
    if (i < 0 || m_view.rows <= 0)
        return -1;
    const QRectF heat = L.panels[i].heat;
    const double row = m_view.row0 + (pos.y() - heat.top()) / heat.height() * m_view.rows;
    return static_cast<std::int64_t>(std::floor(row));
}

void HeatmapView::hoverLinkedRow(const QPointF& pos)
{
    if (m_data.linked_rows.empty() || m_highlightPinned)
        return;
    int panel = -1;
    const std::int64_t row = rowAt(pos, &panel);
    highlightRow(panel, row);
}

void HeatmapView::paintLinkedRow(QPainter& painter, int index, const QRectF& heat,
                                 const RenderOptions& options) const
{
    for (const auto& [panel, position] : m_highlight) {
        if (panel != index || m_view.rows <= 0)
            continue;
        const double top =
            heat.top() + (static_cast<double>(position) - m_view.row0) / m_view.rows * heat.height();
        const double h = heat.height() / m_view.rows;
        if (top + h < heat.top() || top > heat.bottom())
            continue;
        painter.save();
        painter.setClipRect(heat.adjusted(-2, -2, 2, 2), Qt::IntersectClip);
        // The figure's own text colour, thick: visible on every colour map, light or dark.
        QPen pen(figure_colors(options.dark).text, std::max(2.0, h * 0.08));
        pen.setJoinStyle(Qt::MiterJoin);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(heat.left(), top, heat.width(), h));
        painter.restore();
    }
}

} // namespace posatlas::ui
