// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapView's mouse and keyboard input: wheel zoom, drag pan, the arrow keys, hover and linked rows, the
// context menu (heatmap_view.h).
#include "views/heatmap_view.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

void HeatmapView::wheelEvent(QWheelEvent* event)
{
    const Layout L = screenLayout();
    const QPointF pos = event->position();
    const int i = panelAt(pos, L);
    if (i < 0 || m_home.rows <= 0) {
        event->ignore();
        return;
    }
    const QRectF heat = L.panels[i].heat;
    const double fx = (pos.x() - heat.left()) / heat.width(), fy = (pos.y() - heat.top()) / heat.height();
    // One wheel notch (120) zooms by 20 %; the position under the cursor stays put.
    zoomAbout(fx, fy, std::pow(0.8, event->angleDelta().y() / 120.0));
    event->accept();
}

void HeatmapView::zoomAbout(double fx, double fy, double factor)
{
    const double pc = m_view.col0 + fx * m_view.cols, pr = m_view.row0 + fy * m_view.rows;
    m_view.cols *= factor;
    m_view.rows *= factor;
    m_view.rows = std::clamp(m_view.rows, std::min(kMinSpan, m_home.rows), m_home.rows);
    m_view.cols = std::clamp(m_view.cols, std::min(kMinSpan, m_home.cols), m_home.cols);
    m_view.col0 = pc - fx * m_view.cols;
    m_view.row0 = pr - fy * m_view.rows;
    clampView();
    viewChanged();
}

void HeatmapView::keyPressEvent(QKeyEvent* event)
{
    if (m_home.rows <= 0) {
        QWidget::keyPressEvent(event);
        return;
    }
    const double step = event->modifiers() & Qt::ShiftModifier ? 1.0 : 0.1;
    switch (event->key()) {
    case Qt::Key_Left: m_view.col0 -= step * m_view.cols; break;
    case Qt::Key_Right: m_view.col0 += step * m_view.cols; break;
    case Qt::Key_Up: m_view.row0 -= step * m_view.rows; break;
    case Qt::Key_Down: m_view.row0 += step * m_view.rows; break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAbout(0.5, 0.5, 0.8); return;
    case Qt::Key_Minus: zoomAbout(0.5, 0.5, 1.25); return;
    case Qt::Key_0:
    case Qt::Key_Home: resetViewport(); return;
    default: QWidget::keyPressEvent(event); return;
    }
    clampView();
    viewChanged();
}

void HeatmapView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && panelAt(event->position(), screenLayout()) >= 0) {
        m_dragging = true;
        m_dragStart = event->position();
        m_dragView = m_view;
        setCursor(Qt::ClosedHandCursor);
        m_hoverText.clear();
        update();
    }
    QWidget::mousePressEvent(event);
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging) {
        const Layout L = screenLayout();
        if (!L.panels.isEmpty()) {
            const QRectF heat = L.panels.front().heat;
            const QPointF d = event->position() - m_dragStart;
            m_view.col0 = m_dragView.col0 - d.x() / heat.width() * m_view.cols;
            m_view.row0 = m_dragView.row0 - d.y() / heat.height() * m_view.rows;
            clampView();
            viewChanged();
        }
        return;
    }
    hoverLinkedRow(event->position());
    const QString readout = readoutAt(event->position(), nullptr, &m_hoverCell);
    m_hoverPos = event->position();
    if (readout != m_hoverText || !readout.isEmpty()) {
        m_hoverText = readout;
        update();
        if (!readout.isEmpty())
            emit hovered(readout);
    }
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_dragging) {
        m_dragging = false;
        setCursor(Qt::CrossCursor);
        // A click without a drag on linked rows keeps their highlight (or lets it follow the mouse again).
        if (!m_data.linked_rows.empty() && (event->position() - m_dragStart).manhattanLength() < 4) {
            const bool wasPinned = m_highlightPinned;
            m_highlightPinned = false;
            hoverLinkedRow(event->position());
            m_highlightPinned = !wasPinned && !m_highlight.isEmpty();
        }
    }
    QWidget::mouseReleaseEvent(event);
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        resetViewport();
}

void HeatmapView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(m_fitAction);
    menu.addSeparator();
    menu.addAction(tr("Reset &Zoom"), this, &HeatmapView::resetViewport);
    menu.exec(event->globalPos());
}

void HeatmapView::leaveEvent(QEvent* event)
{
    m_hoverText.clear();
    if (!m_highlightPinned)
        m_highlight.clear();
    update();
    QWidget::leaveEvent(event);
}

} // namespace posatlas::ui
