// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/curve_chart.h"

#include "views/dashed_polyline_item.h"
#include "views/figure_style.h"

#include "jobs/curve_drawing.h"

#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QSet>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

// ----------------------------------------------------------------- CurveChart

namespace {

// Axis lines in device-independent pixels (times the theme's line_scale): they do not grow with the text.
constexpr double kAxisLineWidth = 1.0;

// Points of one series as drawn (curve_drawing.h): steps and gaps resolved.
QList<QPointF> series_points(const CurveSeries& s, bool log_x, bool log_y)
{
    std::vector<double> x, y;
    drawn_polyline(s, log_x, log_y, x, y);
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(x.size()));
    for (std::size_t k = 0; k < x.size(); ++k)
        pts.append(QPointF(x[k], y[k]));
    return pts;
}

// The points the job decimated for the plot (CurveSeries::drawn_x / drawn_y).
QList<QPointF> drawn_points(const CurveSeries& s)
{
    QList<QPointF> pts;
    const std::size_t n = std::min(s.drawn_x.size(), s.drawn_y.size());
    pts.reserve(static_cast<qsizetype>(n));
    for (std::size_t k = 0; k < n; ++k)
        pts.append(QPointF(s.drawn_x[k], s.drawn_y[k]));
    return pts;
}

double axis_min(const QAbstractAxis* a)
{
    if (auto* v = qobject_cast<const QValueAxis*>(a))
        return v->min();
    if (auto* l = qobject_cast<const QLogValueAxis*>(a))
        return l->min();
    return 0.0;
}
double axis_max(const QAbstractAxis* a)
{
    if (auto* v = qobject_cast<const QValueAxis*>(a))
        return v->max();
    if (auto* l = qobject_cast<const QLogValueAxis*>(a))
        return l->max();
    return 1.0;
}
bool axis_is_log(const QAbstractAxis* a)
{
    return qobject_cast<const QLogValueAxis*>(a) != nullptr;
}

// Fraction of the axis span at which `v` lies (log or linear).
double axis_fraction(const QAbstractAxis* a, double v)
{
    const double lo = axis_min(a), hi = axis_max(a);
    if (axis_is_log(a)) {
        if (v <= 0 || lo <= 0 || hi <= lo)
            return std::numeric_limits<double>::quiet_NaN();
        return (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    }
    return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}
double axis_value(const QAbstractAxis* a, double fraction)
{
    const double lo = axis_min(a), hi = axis_max(a);
    if (axis_is_log(a))
        return std::exp(std::log(lo) + fraction * (std::log(hi) - std::log(lo)));
    return lo + fraction * (hi - lo);
}

// y of a series at x: linear interpolation between samples, or the held value of a step series.
double series_value_at(const CurveSeries& s, double x)
{
    const std::size_t n = std::min(s.x.size(), s.y.size());
    if (n == 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (x < s.x.front() || x > s.x[n - 1])
        return std::numeric_limits<double>::quiet_NaN();
    const auto it = std::upper_bound(s.x.begin(), s.x.begin() + static_cast<std::ptrdiff_t>(n), x);
    const std::size_t k = static_cast<std::size_t>(it - s.x.begin()); // first sample with x_k > x
    if (k == 0)
        return s.y[0];
    if (k >= n || s.step)
        return s.y[k - 1];
    const double x0 = s.x[k - 1], x1 = s.x[k];
    const double t = x1 > x0 ? (x - x0) / (x1 - x0) : 0.0;
    return s.y[k - 1] + t * (s.y[k] - s.y[k - 1]);
}

bool same_structure(const CurveData& a, const CurveData& b)
{
    if (a.series.size() != b.series.size() || a.log_x != b.log_x || a.log_y != b.log_y ||
        a.markers.size() != b.markers.size())
        return false;
    for (qsizetype i = 0; i < a.series.size(); ++i) {
        const CurveSeries &s = a.series[i], &t = b.series[i];
        if (s.name != t.name || s.step != t.step || s.dashed != t.dashed || s.color != t.color ||
            s.color_index != t.color_index)
            return false;
    }
    return true;
}

} // namespace

CurveChart::CurveChart(QGraphicsItem* parent) : QChart(parent)
{
    setAnimationOptions(QChart::NoAnimation);
    setBackgroundRoundness(0);
    setMargins(QMargins(4, 2, 10, 0));
    // The chart's own layout adds a frame of empty space around the background: none, the view's
    // title, note and neighbouring chart already separate things.
    if (QGraphicsLayout* l = layout())
        l->setContentsMargins(0, 0, 0, 0);
    legend()->setAlignment(Qt::AlignBottom);
    legend()->setShowToolTips(true);

    m_crossLine = new QGraphicsLineItem(this);
    m_crossBox = new QGraphicsRectItem(this);
    m_crossText = new QGraphicsSimpleTextItem(m_crossBox);
    for (QGraphicsItem* item :
         {static_cast<QGraphicsItem*>(m_crossLine), static_cast<QGraphicsItem*>(m_crossBox)}) {
        item->setZValue(100);
        item->hide();
    }
    connect(this, &QChart::plotAreaChanged, this, [this] {
        if (drawnFitsPlot() != m_showsDrawn)
            updateSeriesData();
        updateDashed();
        updateOverlays();
        updateAxisTitles();
        updateLogXBase();
    });
    applyStyle();
}

void CurveChart::setCurveData(const CurveData& data)
{
    const bool structural = !same_structure(m_data, data) || m_series.isEmpty() || !m_axisX;
    m_data = data;
    if (!m_logXOverridden)
        m_logX = data.log_x;
    if (structural) {
        rebuild();
        return;
    }
    updateTitle();
    updateAxisTitles();
    for (qsizetype i = 0; i < m_markerItems.size(); ++i)
        m_markerItems[i].label->setText(m_data.markers[i].label);
    // The axes first, over emptied series: every range change lays out every series' points again
    // (Qt Charts' LineChartItem::updateGeometry), and with the old points still in place the x and the y
    // range each cost a pass over 2400 points per envelope series before the new points' own pass.
    for (QAbstractSeries* series : m_series)
        static_cast<QLineSeries*>(series)->clear();
    updateRanges();
    updateSeriesData();
    updateOverlays();
}

void CurveChart::setLogX(bool log)
{
    m_logXOverridden = true;
    if (log == m_logX && m_axisX)
        return;
    m_logX = log;
    rebuild();
}

void CurveChart::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    applyStyle();
    updateOverlays();
}

void CurveChart::setShowTitle(bool show)
{
    m_showTitle = show;
    updateTitle();
}

void CurveChart::rebuild()
{
    removeAllSeries(); // deletes them
    m_series.clear();
    qDeleteAll(m_dashed);
    m_dashed.clear();
    m_dashedPoints.clear();
    for (QAbstractAxis* a : axes()) {
        // Hidden first: Qt Charts hides only the removed axis' own item and deletes its grid, labels and
        // title (items of the chart) later, from the event loop. Without one running (the screenshots
        // command, a test) every rebuild left its axes drawn over the new ones: doubled tick labels,
        // stacked titles, a small stale chart in the corner.
        a->hide();
        removeAxis(a);
        delete a;
    }
    m_axisX = m_axisY = nullptr;
    for (const MarkerItems& m : m_markerItems) {
        delete m.line;
        delete m.box; // owns the label
    }
    m_markerItems.clear();

    // Distances are integers: "%.10g" writes 10^6 as 1000000 beside 100000 ("%g" gave 1e+06 there).
    if (m_logX) {
        auto* ax = new QLogValueAxis;
        ax->setBase(10.0);
        ax->setLabelFormat(QStringLiteral("%.10g"));
        ax->setMinorTickCount(-1); // Qt: -1 shows the 8 minor ticks of a decade
        m_axisX = ax;
    } else {
        auto* ax = new QValueAxis;
        ax->setLabelFormat(QStringLiteral("%.10g"));
        m_axisX = ax;
    }
    if (m_data.log_y) {
        auto* ay = new QLogValueAxis;
        ay->setBase(10.0);
        ay->setLabelFormat(QStringLiteral("%g"));
        ay->setMinorTickCount(-1);
        m_axisY = ay;
    } else {
        auto* ay = new QValueAxis;
        ay->setLabelFormat(QStringLiteral("%g"));
        m_axisY = ay;
    }
    updateAxisTitles();
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);

    for (const CurveSeries& s : m_data.series) {
        auto* series = new QLineSeries;
        series->setName(s.name);
        addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        m_series.append(series);
        // Dashed curves are stroked by an item of their own (dashed_polyline_item.h); their series, empty,
        // gives the legend entry.
        DashedPolylineItem* dashed = s.dashed ? new DashedPolylineItem(this) : nullptr;
        if (dashed)
            dashed->setZValue(45); // above the solid series, below the markers (50) and the crosshair
        m_dashed.append(dashed);
        m_dashedPoints.append(QList<QPointF>());
    }
    for (const CurveMarker& marker : m_data.markers) {
        MarkerItems items;
        items.line = new QGraphicsLineItem(this);
        items.box = new QGraphicsRectItem(this);
        items.label = new QGraphicsSimpleTextItem(marker.label, items.box);
        items.line->setZValue(50);
        items.box->setZValue(51);
        m_markerItems.append(items);
    }
    updateTitle();
    updateSeriesData();
    updateRanges();
    applyStyle();
    updateOverlays();
}

QRectF CurveChart::plotPixels() const
{
    // The chart fills its view's viewport from (0, 0): chart coordinates are the viewport's pixels.
    double dpr = 1.0;
    if (const QGraphicsScene* sc = scene(); sc && !sc->views().isEmpty())
        dpr = sc->views().constFirst()->devicePixelRatioF();
    const QRectF area = plotArea();
    return QRectF(area.left() * dpr, area.top() * dpr, area.width() * dpr, area.height() * dpr);
}

bool CurveChart::drawnFitsPlot() const
{
    if (!m_data.drawn || m_data.drawn_columns.log != m_logX)
        return false;
    // Half a device pixel: the job's columns are the plot's own (the main window recomputes the curves
    // whenever the plot area moves by more).
    const QRectF px = plotPixels();
    return std::abs(px.left() - m_data.drawn_columns.left) <= 0.5 &&
           std::abs(px.width() - m_data.drawn_columns.width) <= 0.5;
}

void CurveChart::updateSeriesData()
{
    // The job's points decimated to this plot's pixel columns when they are for it; else every point (a
    // resized plot until the curves for its new size arrive, a figure rendered at another size).
    m_showsDrawn = drawnFitsPlot();
    for (qsizetype i = 0; i < m_series.size() && i < m_data.series.size(); ++i) {
        QList<QPointF> points = m_showsDrawn ? drawn_points(m_data.series[i])
                                             : series_points(m_data.series[i], m_logX, m_data.log_y);
        if (m_dashed[i]) {
            m_dashedPoints[i] = std::move(points);
        } else {
            // A curve of one point has no line to draw: its point is shown instead (a sweep's learned
            // table defined at the trained length only).
            auto* line = static_cast<QLineSeries*>(m_series[i]);
            line->setPointsVisible(points.size() == 1);
            line->replace(points);
        }
    }
    updateDashed();
}

void CurveChart::updateDashed()
{
    if (!m_axisX || !m_axisY)
        return;
    // Where Qt Charts puts a series' point: the axes' fractions of the plot area.
    const QRectF area = plotArea();
    for (qsizetype i = 0; i < m_dashed.size(); ++i) {
        if (!m_dashed[i])
            continue;
        QPolygonF line;
        line.reserve(m_dashedPoints[i].size());
        for (const QPointF& p : m_dashedPoints[i]) {
            const double fx = axis_fraction(m_axisX, p.x()), fy = axis_fraction(m_axisY, p.y());
            if (std::isfinite(fx) && std::isfinite(fy))
                line.append(QPointF(area.left() + fx * area.width(), area.bottom() - fy * area.height()));
        }
        m_dashed[i]->setPolyline(line, area);
    }
}

QList<QPointF> CurveChart::drawnPoints(qsizetype series) const
{
    if (series < 0 || series >= m_series.size())
        return {};
    return m_dashed[series] ? m_dashedPoints[series] : static_cast<QLineSeries*>(m_series[series])->points();
}

namespace {

// A value axis's range with nice dynamic ticks. The axis lays its ticks out on every change, so the
// previous data's tick interval must not meet the new range: an interval of 0.2 left over from a
// range of 1 laid over a range of 10^9 makes Qt Charts create 5 x 10^9 tick items on the GUI thread
// (a freeze). Fixed ticks (a handful) while the range changes, then the new interval.
void set_value_axis(QValueAxis* axis, double lo, double hi, int target)
{
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(lo, hi);
    const auto ticks = nice_ticks(lo, hi, target);
    const double step = ticks.size() >= 2 ? ticks[1] - ticks[0] : 0.0;
    if (step > 0 && (hi - lo) / step <= 4.0 * target) {
        axis->setTickAnchor(ticks.front());
        axis->setTickInterval(step);
        axis->setTickType(QValueAxis::TicksDynamic);
    }
}

} // namespace

void CurveChart::updateRanges()
{
    if (!m_axisX || !m_axisY)
        return;
    const CurveRanges r = curve_ranges(m_data, m_logX);
    const double xlo = r.xlo, xhi = r.xhi, ylo = r.ylo, yhi = r.yhi;
    if (auto* ax = qobject_cast<QValueAxis*>(m_axisX)) {
        set_value_axis(ax, xlo, xhi, 7);
    } else if (auto* lx = qobject_cast<QLogValueAxis*>(m_axisX)) {
        lx->setRange(xlo, xhi);
        updateLogXBase();
    }
    if (auto* ay = qobject_cast<QValueAxis*>(m_axisY)) {
        const double pad = 0.05 * (yhi - ylo);
        set_value_axis(ay, ylo - pad, yhi + pad, 6);
    } else if (auto* ly = qobject_cast<QLogValueAxis*>(m_axisY)) {
        // Whole decades at both ends, so the log axis always has labelled ticks.
        const double lo = std::pow(10.0, std::floor(std::log10(ylo)));
        double hi = std::pow(10.0, std::ceil(std::log10(yhi)));
        if (!(hi > lo)) // yhi = 10 * (1 + 1e-16): log10 rounds it to a whole decade
            hi = lo * 10;
        // Eight minor ticks per decade over more than four decades (the spectrum's wavelengths, 1 to
        // 10^8, in a docked chart) drew the axis as a thick dashed line: decade ticks alone there.
        const double decades = std::round(std::log10(hi) - std::log10(lo)); // whole decades by construction
        ly->setMinorTickCount(decades > 4 ? 0 : -1);
        ly->setRange(lo, hi);
    }
    updateDashed(); // the axes moved: so do the dashed curves
    legend()->setVisible(m_data.series.size() > 1);
    updateLegendSide();
}

void CurveChart::applyStyle()
{
    const FigureColors c = figure_colors(m_style.dark);
    setTheme(m_style.dark ? QChart::ChartThemeDark : QChart::ChartThemeLight); // resets fonts and pens
    setBackgroundBrush(c.background);
    setBackgroundPen(Qt::NoPen);
    setPlotAreaBackgroundVisible(false);
    setTitleBrush(c.text);
    legend()->setFont(scaled_font(m_style.font, m_style.font_scale));
    updateTitle();
    updateLegendSide();
    legend()->setLabelColor(c.text);
    for (QAbstractAxis* a : axes()) {
        a->setLabelsFont(scaled_font(m_style.font, m_style.font_scale, 0.95));
        a->setLabelsColor(c.muted);
        a->setTitleFont(scaled_font(m_style.font, m_style.font_scale));
        a->setTitleBrush(c.text);
        // An absolute width: setTheme() resets nothing when the theme stays the same, so a width
        // derived from the current pen grew by line_scale on every restyle (each font or palette change
        // while presenting) into a bar over the tick labels that outlived the presentation.
        QPen axisPen = a->linePen();
        axisPen.setColor(c.axis);
        axisPen.setWidthF(kAxisLineWidth * c.line_scale);
        a->setLinePen(axisPen);
        a->setGridLineColor(c.grid);
        // Log axes: decade lines only; the eight minor lines per decade turn the plot into a grid.
        a->setMinorGridLineVisible(false);
    }
    updateAxisTitles(); // in the new font
    for (qsizetype i = 0; i < m_series.size() && i < m_data.series.size(); ++i) {
        const CurveSeries& s = m_data.series[i];
        QPen pen(s.color.isValid()
                     ? s.color
                     : series_color(s.color_index >= 0 ? s.color_index : static_cast<int>(i), m_style.dark));
        pen.setWidthF(2.0 * std::max(1.0, m_style.font_scale * 0.8) * c.line_scale);
        pen.setCapStyle(Qt::FlatCap);
        pen.setStyle(s.dashed ? Qt::DashLine : Qt::SolidLine);
        static_cast<QLineSeries*>(m_series[i])->setPen(pen);
        // The point of a one-point curve (updateSeriesData), four line widths across.
        static_cast<QLineSeries*>(m_series[i])->setMarkerSize(4 * pen.widthF());
        if (m_dashed[i])
            m_dashed[i]->setPen(pen);
    }
    // Legend keys from the series' colours, set here: Qt Charts gives a key either the theme's border or
    // the series' pen depending on the order of its updates, so a chart that had restyled (presenting)
    // drew other keys than a fresh one.
    // Series of one name (a band's lower and upper edge) share one legend entry: the first.
    QSet<QString> named;
    for (QLegendMarker* marker : legend()->markers()) {
        const auto* line = qobject_cast<const QLineSeries*>(marker->series());
        if (!line)
            continue;
        marker->setVisible(!named.contains(line->name()));
        named.insert(line->name());
        const QColor color = line->pen().color();
        marker->setBrush(color);
        marker->setPen(QPen(color.darker(150), 1.0));
    }
    const QFont marker_font = scaled_font(m_style.font, m_style.font_scale, 0.9);
    for (const MarkerItems& m : m_markerItems) {
        QPen pen(c.muted, 1.5, Qt::DashDotLine);
        m.line->setPen(pen);
        m.label->setFont(marker_font);
        m.label->setBrush(c.text);
        m.box->setBrush(c.overlay);
        m.box->setPen(Qt::NoPen);
    }
    m_crossLine->setPen(QPen(c.muted, 1.0, Qt::DotLine));
    m_crossBox->setBrush(c.overlay);
    m_crossBox->setPen(QPen(c.grid, 1.0));
    m_crossText->setFont(scaled_font(m_style.font, m_style.font_scale, 0.95));
    m_crossText->setBrush(c.text);
}

void CurveChart::updateOverlays()
{
    if (!m_axisX || !m_axisY)
        return;
    const QRectF area = plotArea();
    const double pad = 3.0;
    int vertical_rank = 0, horizontal_rank = 0;
    for (qsizetype i = 0; i < m_markerItems.size() && i < m_data.markers.size(); ++i) {
        const CurveMarker& marker = m_data.markers[i];
        const MarkerItems& items = m_markerItems[i];
        const QAbstractAxis* axis = marker.vertical ? m_axisX : m_axisY;
        const double f = axis_fraction(axis, marker.value);
        const bool visible = std::isfinite(f) && f >= -1e-9 && f <= 1 + 1e-9 && area.isValid();
        items.line->setVisible(visible);
        items.box->setVisible(visible && !marker.label.isEmpty());
        if (!visible)
            continue;
        const QRectF text = items.label->boundingRect();
        QRectF box(0, 0, text.width() + 2 * pad, text.height() + pad);
        if (marker.vertical) {
            const double x = area.left() + f * area.width();
            items.line->setLine(x, area.top(), x, area.bottom());
            // Stagger labels of neighbouring markers vertically so they never overlap, and keep them
            // inside the plot area.
            double left = x + pad;
            if (left + box.width() > area.right())
                left = x - pad - box.width();
            box.moveTo(left, area.top() + pad + (vertical_rank % 3) * (box.height() + pad));
            ++vertical_rank;
        } else {
            const double y = area.bottom() - f * area.height();
            items.line->setLine(area.left(), y, area.right(), y);
            const double left =
                horizontal_rank % 2 == 0 ? area.left() + pad : area.right() - pad - box.width();
            double top = y - box.height() - 1;
            if (top < area.top())
                top = y + 1;
            box.moveTo(left, top);
            ++horizontal_rank;
        }
        items.box->setRect(QRectF(QPointF(0, 0), box.size()));
        items.box->setPos(box.topLeft());
        items.label->setPos(pad, pad / 2);
    }
}

QString CurveChart::readoutAt(double x) const
{
    QStringList parts;
    const QString xname = m_data.x_label.isEmpty() ? QStringLiteral("x") : m_data.x_label;
    // Curves that core can evaluate anywhere are read at the integer distance under the cursor.
    const bool exact = std::any_of(m_data.series.begin(), m_data.series.end(),
                                   [](const CurveSeries& s) { return bool(s.value_at); });
    if (exact)
        x = std::round(x);
    parts << QStringLiteral("%1 = %2").arg(xname, format_number(x));
    for (const CurveSeries& s : m_data.series) {
        double y = std::numeric_limits<double>::quiet_NaN();
        if (s.value_at) {
            try {
                y = s.value_at(x);
            } catch (const std::exception&) { // outside the curve's domain: no readout for it
            }
        } else {
            y = series_value_at(s, x);
        }
        if (std::isfinite(y))
            parts << QStringLiteral("%1: %2").arg(s.name.isEmpty() ? m_data.y_label : s.name,
                                                  format_number(y));
    }
    return parts.join(QLatin1Char('\n'));
}

QString CurveChart::showCrosshair(const QPointF& chartPos)
{
    const QRectF area = plotArea();
    if (!area.contains(chartPos) || !m_axisX) {
        hideCrosshair();
        return {};
    }
    const double x = axis_value(m_axisX, (chartPos.x() - area.left()) / area.width());
    const QString text = readoutAt(x);
    m_crossLine->setLine(chartPos.x(), area.top(), chartPos.x(), area.bottom());
    m_crossText->setText(text);
    const QRectF tb = m_crossText->boundingRect();
    const double pad = 5.0;
    QRectF box(0, 0, tb.width() + 2 * pad, tb.height() + 2 * pad);
    // Beside the crosshair, in the plot area when it fits there, else anywhere in the chart (which the
    // view shows whole): a readout wider than the plot's side (large presentation text, many series)
    // flips or moves inward instead of being cut at the view's edge.
    const QRectF bounds(QPointF(0, 0), size());
    double left = chartPos.x() + 12;
    if (left + box.width() > area.right())
        left = chartPos.x() - 12 - box.width();
    if (left < bounds.left() || left + box.width() > bounds.right())
        left = readout_offset(box.width(), chartPos.x(), chartPos.x(), bounds.left(), bounds.right(), 12);
    double top = std::clamp(chartPos.y() - box.height() / 2, area.top(),
                            std::max(area.top(), area.bottom() - box.height()));
    top = std::clamp(top, bounds.top(), std::max(bounds.top(), bounds.bottom() - box.height()));
    m_crossBox->setRect(QRectF(QPointF(0, 0), box.size()));
    m_crossBox->setPos(left, top);
    m_crossText->setPos(pad, pad);
    m_crossLine->show();
    m_crossBox->show();
    return text.split(QLatin1Char('\n')).join(QStringLiteral(" · "));
}

QRectF CurveChart::crosshairBox() const
{
    return m_crossBox->isVisible() ? m_crossBox->mapRectToParent(m_crossBox->rect()) : QRectF();
}

void CurveChart::hideCrosshair()
{
    m_crossLine->hide();
    m_crossBox->hide();
}

// ----------------------------------------------------------------- export

void render_curve_chart(const CurveData& data, bool log_x, QPainter& painter, const QRectF& target,
                        const ChartStyle& style, bool show_title)
{
    if (target.width() < 2 || target.height() < 2)
        return;
    QGraphicsScene scene;
    auto* chart = new CurveChart; // owned by the scene from addItem on
    chart->setChartStyle(style);
    chart->setShowTitle(show_title);
    chart->setLogX(log_x);
    // Every point: the job decimated for the screen's pixel columns, not for this target's resolution.
    CurveData whole = data;
    whole.drawn = false;
    chart->setCurveData(whole);
    scene.addItem(chart);
    const QRectF local(QPointF(0, 0), target.size());
    chart->setGeometry(local);
    // Lay out now (the layout would otherwise wait for an event loop turn): plot area, axes and the
    // marker overlays must be in place before the scene is painted.
    if (QGraphicsLayout* layout = chart->layout())
        layout->activate();
    scene.setSceneRect(local);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    scene.render(&painter, target, local, Qt::IgnoreAspectRatio);
    painter.restore();
}

} // namespace posatlas::ui
