// SPDX-License-Identifier: GPL-3.0-or-later
// CurveChartView: the curves chart on screen, with the mouse and keyboard crosshair (curve_chart.h).
#include "views/curve_chart.h"

#include "views/figure_style.h"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QMouseEvent>

namespace posatlas::ui {

CurveChartView::CurveChartView(CurveChart* chart, QWidget* parent) : QChartView(chart, parent), m_chart(chart)
{
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(
        tr("Hover, or Left / Right with the keyboard (Shift: larger steps, Home / End): the exact values "
           "at that distance"));
    setRubberBand(QChartView::NoRubberBand);
    setFrameShape(QFrame::NoFrame);
    // QChartView takes the chart's minimum as its own only when it is resized: after presentation
    // mode's large text the view kept the large text's minimum (a curves column 326 px tall at least, the
    // token layout under it cut), and a view held at its minimum is never resized again. The chart lays
    // itself out again when its fonts, title or axes change: then the view follows.
    connect(chart, &QChart::plotAreaChanged, this, &CurveChartView::fitMinimum, Qt::QueuedConnection);
}

void CurveChartView::fitMinimum()
{
    const QSize least = m_chart->minimumSize().toSize();
    if (least != minimumSize())
        setMinimumSize(least);
}

void CurveChartView::setDark(bool dark)
{
    setBackgroundBrush(figure_colors(dark).background);
}

void CurveChartView::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF chartPos = m_chart->mapFromScene(mapToScene(event->position().toPoint()));
    const QString readout = m_chart->showCrosshair(chartPos);
    if (!readout.isEmpty())
        emit hovered(readout);
    QChartView::mouseMoveEvent(event);
}

void CurveChartView::keyPressEvent(QKeyEvent* event)
{
    const QRectF area = m_chart->plotArea();
    if (area.width() <= 1) {
        QChartView::keyPressEvent(event);
        return;
    }
    const double pixel = 1.0 / area.width();
    const double step = event->modifiers() & Qt::ShiftModifier ? 0.1 : pixel;
    const double start = m_keyFraction < 0 ? 0.5 : m_keyFraction;
    switch (event->key()) {
    case Qt::Key_Left: m_keyFraction = start - (m_keyFraction < 0 ? 0 : step); break;
    case Qt::Key_Right: m_keyFraction = start + (m_keyFraction < 0 ? 0 : step); break;
    case Qt::Key_Home: m_keyFraction = 0.0; break;
    case Qt::Key_End: m_keyFraction = 1.0; break;
    case Qt::Key_Escape:
        m_keyFraction = -1.0;
        m_chart->hideCrosshair();
        return;
    default: QChartView::keyPressEvent(event); return;
    }
    m_keyFraction = std::clamp(m_keyFraction, 0.0, 1.0);
    showKeyboardCrosshair();
}

void CurveChartView::showKeyboardCrosshair()
{
    const QRectF area = m_chart->plotArea();
    // Inside the plot area by half a pixel at both ends, where showCrosshair accepts the point.
    const double x = area.left() + 0.5 + m_keyFraction * std::max(0.0, area.width() - 1.0);
    const QString readout = m_chart->showCrosshair(QPointF(x, area.center().y()));
    if (!readout.isEmpty())
        emit hovered(readout);
}

void CurveChartView::focusOutEvent(QFocusEvent* event)
{
    if (m_keyFraction >= 0) {
        m_keyFraction = -1.0;
        m_chart->hideCrosshair();
    }
    QChartView::focusOutEvent(event);
}

void CurveChartView::leaveEvent(QEvent* event)
{
    m_chart->hideCrosshair();
    QChartView::leaveEvent(event);
}

} // namespace posatlas::ui
