// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_plot.h"

#include "views/figure_style.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

namespace {

// One axis: maps data to pixels, linear or log10.
struct Axis {
    double lo = 0.0, hi = 1.0; // data range (positive for log)
    bool log = false;
    double p0 = 0.0, p1 = 1.0; // pixel positions of lo and hi
    double t(double v) const { return log ? std::log10(v) : v; }
    bool valid(double v) const { return std::isfinite(v) && (!log || v > 0.0); }
    double map(double v) const
    {
        const double a = t(lo), b = t(hi);
        return p0 + (t(v) - a) / (b - a) * (p1 - p0);
    }
};

void extend(double& lo, double& hi, double v, bool log)
{
    if (!std::isfinite(v) || (log && v <= 0.0))
        return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
}

// Final range: padded (linear) or widened to whole or half decades (log); never empty.
void finish_range(double& lo, double& hi, bool log, bool pad)
{
    if (!(lo <= hi)) {
        lo = log ? 1.0 : 0.0;
        hi = log ? 10.0 : 1.0;
    }
    if (log) {
        if (hi / lo < 1.0 + 1e-9) {
            lo /= 2.0;
            hi *= 2.0;
        }
        if (pad) {
            lo = std::pow(10.0, std::floor(std::log10(lo) * 2.0 + 1e-9) / 2.0);
            hi = std::pow(10.0, std::ceil(std::log10(hi) * 2.0 - 1e-9) / 2.0);
        }
        return;
    }
    widen_degenerate_range(lo, hi); // also keeps hi - lo finite for +-1e300 data
    if (pad) {
        const double m = 0.05 * (hi - lo);
        lo -= m;
        hi += m;
    }
}

std::vector<double> ticks(const Axis& a, int max_ticks)
{
    return plot_axis_ticks(a.lo, a.hi, a.log, max_ticks);
}

} // namespace

std::vector<double> plot_axis_ticks(double lo, double hi, bool log, int max_ticks)
{
    // However tall or wide the plot, a dozen labels say all an axis can: more only crowd it.
    max_ticks = std::clamp(max_ticks, 2, kMaxPlotTicks);
    const Axis a{lo, hi, log};
    if (!a.log)
        return nice_ticks(a.lo, a.hi, max_ticks);
    std::vector<double> out;
    const int d0 = static_cast<int>(std::ceil(std::log10(a.lo) - 1e-9));
    const int d1 = static_cast<int>(std::floor(std::log10(a.hi) + 1e-9));
    const int decades = d1 - d0 + 1;
    const int step = std::max(1, (decades + max_ticks - 1) / std::max(1, max_ticks));
    for (int d = d0; d <= d1 && out.size() < static_cast<std::size_t>(kMaxTicks); d += step)
        out.push_back(std::pow(10.0, d));
    if (decades <= 2) { // short log ranges: 2 and 5 as well
        for (int d = d0 - 1; d <= d1; ++d)
            for (double m : {2.0, 5.0}) {
                const double v = m * std::pow(10.0, d);
                if (v >= a.lo && v <= a.hi)
                    out.push_back(v);
            }
        std::sort(out.begin(), out.end());
        // 1, 2 and 5 per decade can still be too many for a short axis: thin evenly.
        while (static_cast<int>(out.size()) > max_ticks) {
            std::vector<double> thinned;
            for (std::size_t i = 0; i < out.size(); i += 2)
                thinned.push_back(out[i]);
            out = std::move(thinned);
        }
    }
    return out;
}

namespace {

// Log-axis decades outside 0.01 .. 10^4 as powers of ten with superscript exponents ("10⁵", "10⁻³");
// everything else as a compact number.
QString tick_label(double v, bool log)
{
    if (log && (v >= 1e4 || v < 1e-2)) {
        const double e = std::log10(v);
        if (std::abs(e - std::round(e)) < 1e-9) {
            static const QString sup[] = {QStringLiteral("⁰"), QStringLiteral("¹"), QStringLiteral("²"),
                                          QStringLiteral("³"), QStringLiteral("⁴"), QStringLiteral("⁵"),
                                          QStringLiteral("⁶"), QStringLiteral("⁷"), QStringLiteral("⁸"),
                                          QStringLiteral("⁹")};
            const long k = std::lround(e);
            QString s = QStringLiteral("10");
            if (k < 0)
                s += QStringLiteral("⁻");
            for (const QChar c : QString::number(std::abs(k)))
                s += sup[c.digitValue()];
            return s;
        }
    }
    return format_number(v, 3);
}

// Places a label rect at the first of `candidates` that does not intersect an earlier label.
QRectF place(const QVector<QRectF>& candidates, QVector<QRectF>& taken)
{
    for (const QRectF& r : candidates)
        if (std::none_of(taken.begin(), taken.end(), [&r](const QRectF& t) { return t.intersects(r); })) {
            taken << r;
            return r;
        }
    taken << candidates.front();
    return candidates.front();
}

} // namespace

int plot_series_count(const PlotSpec& spec)
{
    return static_cast<int>(std::count_if(spec.series.begin(), spec.series.end(),
                                          [](const PlotSeries& s) { return !s.x.empty(); }));
}

void paint_plot(QPainter& painter, const QRectF& target, const PlotSpec& spec, const RenderOptions& options,
                const QFont& base)
{
    const FigureColors colors = figure_colors(options.dark);
    const double fs = options.font_scale;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(target, colors.background);
    const double margin = 6.0 * fs;
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    rect = paint_title(painter, rect, spec.title, scaled_font(base, fs, 1.2, true), colors.text);
    const QFont small = scaled_font(base, fs, 0.85);
    const QFont tiny = scaled_font(base, fs, 0.78);
    rect = paint_caption(painter, rect, options.caption, small, colors.muted);
    rect = paint_caption(painter, rect, spec.note, small, colors.text);
    const QFontMetricsF fm(small), tm(tiny);
    const double lh = fm.height();

    // ---- legend row(s) above the plot
    QVector<PlotLegendItem> legend;
    for (const PlotSeries& s : spec.series)
        if (!s.name.isEmpty())
            legend << PlotLegendItem{s.name, s.color, !s.line, s.dashed};
    for (const PlotFill& f : spec.fills)
        if (!f.name.isEmpty())
            legend << PlotLegendItem{f.name, f.color, true, false};
    legend += spec.extra_legend;
    painter.setFont(small);
    double lx = rect.left(), ly = rect.top();
    const double sw = 22.0 * fs;
    for (const PlotLegendItem& item : legend) {
        const double w = sw + 4.0 * fs + fm.horizontalAdvance(item.name) + 14.0 * fs;
        if (lx + w > rect.right() && lx > rect.left()) {
            lx = rect.left();
            ly += lh;
        }
        const double cy = ly + lh / 2.0;
        if (item.swatch) {
            painter.fillRect(QRectF(lx + 4.0 * fs, cy - 5.0 * fs, sw - 8.0 * fs, 10.0 * fs), item.color);
        } else {
            QPen pen(item.color, 2.0 * fs, item.dashed ? Qt::DashLine : Qt::SolidLine);
            painter.setPen(pen);
            painter.drawLine(QPointF(lx, cy), QPointF(lx + sw, cy));
        }
        painter.setPen(colors.text);
        painter.drawText(QPointF(lx + sw + 4.0 * fs, ly + fm.ascent()), item.name);
        lx += w;
    }
    if (!legend.isEmpty())
        rect.setTop(ly + lh + 4.0 * fs);

    // ---- ranges
    Axis ax{std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(), spec.log_x};
    Axis ay{std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(), spec.log_y};
    for (const PlotSeries& s : spec.series)
        for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
            if (ax.valid(s.x[i]) && ay.valid(s.y[i])) {
                extend(ax.lo, ax.hi, s.x[i], ax.log);
                extend(ay.lo, ay.hi, s.y[i], ay.log);
            }
    for (const PlotFill& f : spec.fills)
        for (std::size_t i = 0; i < f.x.size(); ++i) {
            extend(ax.lo, ax.hi, f.x[i], ax.log);
            extend(ay.lo, ay.hi, f.hi[i], ay.log);
        }
    for (const PlotLine& l : spec.lines)
        extend(l.vertical ? ax.lo : ay.lo, l.vertical ? ax.hi : ay.hi, l.value, l.vertical ? ax.log : ay.log);
    finish_range(ax.lo, ax.hi, ax.log, !spec.x_min && !spec.x_max && !spec.strips.isEmpty() ? false : true);
    finish_range(ay.lo, ay.hi, ay.log, true);
    if (!spec.strips.isEmpty() && !spec.x_min) { // cells of pairs 0 .. n-1 need half a cell each side
        ax.lo = -0.5;
        ax.hi = 0.0;
        for (const PlotStrip& s : spec.strips)
            ax.hi = std::max(ax.hi, static_cast<double>(s.cells.size()) - 0.5);
    }
    if (spec.x_min)
        ax.lo = *spec.x_min;
    if (spec.x_max)
        ax.hi = *spec.x_max;
    if (spec.y_min)
        ay.lo = *spec.y_min;
    if (spec.y_max)
        ay.hi = *spec.y_max;

    // ---- margins: y tick labels, y label, strip labels on the left; x ticks, x label, strips below
    const std::vector<double> yt = ticks(ay, std::max(3, static_cast<int>(rect.height() / (lh * 2.2))));
    double ytw = 0.0;
    for (double v : yt)
        ytw = std::max(ytw, fm.horizontalAdvance(tick_label(v, ay.log)));
    double stripw = 0.0;
    for (const PlotStrip& s : spec.strips)
        stripw = std::max(stripw, tm.horizontalAdvance(s.label) + 6.0 * fs);
    const double left = std::max(ytw + lh + 10.0 * fs, stripw);
    const double strip_h = tm.height() + 2.0 * fs;
    const double bottom = lh * 2.4 + spec.strips.size() * strip_h + (spec.strips.isEmpty() ? 0.0 : 4.0 * fs);
    double right = 10.0 * fs;
    std::vector<double> rt;
    if (spec.right_reciprocal > 0.0 && ay.log) {
        Axis ar{spec.right_reciprocal / ay.hi, spec.right_reciprocal / ay.lo, true};
        rt = ticks(ar, std::max(3, static_cast<int>(rect.height() / (lh * 2.2))));
        double w = 0.0;
        for (double v : rt)
            w = std::max(w, fm.horizontalAdvance(tick_label(v, true)));
        right = w + lh + 12.0 * fs;
    }
    const QRectF plot(rect.left() + left, rect.top(), std::max(10.0, rect.width() - left - right),
                      std::max(10.0, rect.height() - bottom));
    ax.p0 = plot.left();
    ax.p1 = plot.right();
    ay.p0 = plot.bottom();
    ay.p1 = plot.top();

    // ---- bands, grid
    painter.setClipRect(plot);
    for (const PlotBand& b : spec.bands) {
        const double x0 = std::clamp(ax.map(std::max(b.from, ax.lo)), plot.left(), plot.right());
        const double x1 = std::clamp(ax.map(std::min(b.to, ax.hi)), plot.left(), plot.right());
        painter.fillRect(QRectF(x0, plot.top(), x1 - x0, plot.height()), b.color);
    }
    painter.setPen(QPen(colors.grid, 1.0));
    for (double v : yt)
        painter.drawLine(QPointF(plot.left(), ay.map(v)), QPointF(plot.right(), ay.map(v)));
    const std::vector<double> xt =
        ticks(ax, std::max(3, static_cast<int>(plot.width() / (fm.averageCharWidth() * 9))));
    for (double v : xt)
        painter.drawLine(QPointF(ax.map(v), plot.top()), QPointF(ax.map(v), plot.bottom()));

    // ---- fills and series
    for (const PlotFill& f : spec.fills) {
        QPolygonF poly;
        for (std::size_t i = 0; i < f.x.size(); ++i)
            if (ax.valid(f.x[i]) && ay.valid(f.hi[i]))
                poly << QPointF(ax.map(f.x[i]), ay.map(f.hi[i]));
        for (std::size_t i = f.x.size(); i-- > 0;) {
            const double lo = ay.valid(f.lo[i]) ? f.lo[i] : ay.lo;
            if (ax.valid(f.x[i]))
                poly << QPointF(ax.map(f.x[i]), ay.map(std::max(lo, ay.log ? ay.lo * 1e-3 : lo)));
        }
        painter.setPen(Qt::NoPen);
        painter.setBrush(f.color);
        painter.drawPolygon(poly);
    }
    painter.setBrush(Qt::NoBrush);
    for (const PlotSeries& s : spec.series) {
        const std::size_t n = std::min(s.x.size(), s.y.size());
        if (s.line) {
            QPainterPath path;
            bool open = false;
            for (std::size_t i = 0; i < n; ++i) {
                if (!ax.valid(s.x[i]) || !ay.valid(s.y[i])) {
                    open = false;
                    continue;
                }
                const QPointF p(ax.map(s.x[i]), ay.map(s.y[i]));
                open ? path.lineTo(p) : path.moveTo(p);
                open = true;
            }
            QPen pen(s.color, s.width * fs, s.dashed ? Qt::DashLine : Qt::SolidLine);
            pen.setCapStyle(Qt::FlatCap);
            painter.setPen(pen);
            painter.drawPath(path);
        }
        if (s.points) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(s.color);
            const double r = std::max(2.0, s.width * 1.3) * fs;
            for (std::size_t i = 0; i < n; ++i)
                if (ax.valid(s.x[i]) && ay.valid(s.y[i]))
                    painter.drawEllipse(QPointF(ax.map(s.x[i]), ay.map(s.y[i])), r, r);
            painter.setBrush(Qt::NoBrush);
        }
    }

    // ---- reference lines, band labels (collision-avoiding placement)
    QVector<QRectF> taken;
    painter.setFont(tiny);
    const double th = tm.height();
    for (const PlotBand& b : spec.bands) {
        if (b.label.isEmpty())
            continue;
        const double x0 = std::clamp(ax.map(std::max(b.from, ax.lo)), plot.left(), plot.right());
        const double x1 = std::clamp(ax.map(std::min(b.to, ax.hi)), plot.left(), plot.right());
        const QStringList lines = b.label.split(QLatin1Char('\n'));
        double w = 0.0;
        for (const QString& l : lines)
            w = std::max(w, tm.horizontalAdvance(l));
        const double h = th * lines.size();
        const double cx = std::clamp((x0 + x1) / 2.0 - w / 2.0, plot.left() + 2.0, plot.right() - w - 2.0);
        QVector<QRectF> cands;
        for (int row = 0; row < 4; ++row)
            cands << QRectF(cx, plot.top() + 2.0 * fs + row * h, w, h);
        const QRectF r = place(cands, taken);
        painter.setPen(colors.text);
        for (int i = 0; i < lines.size(); ++i)
            painter.drawText(QPointF(r.left(), r.top() + i * th + tm.ascent()), lines[i]);
    }
    for (const PlotLine& l : spec.lines) {
        QPen pen(l.color, 1.3 * fs, l.dashed ? Qt::DashLine : Qt::SolidLine);
        painter.setPen(pen);
        const Axis& a = l.vertical ? ax : ay;
        if (!a.valid(l.value) || l.value < std::min(a.lo, a.hi) || l.value > std::max(a.lo, a.hi))
            continue;
        const double p = a.map(l.value);
        if (l.vertical)
            painter.drawLine(QPointF(p, plot.top()), QPointF(p, plot.bottom()));
        else
            painter.drawLine(QPointF(plot.left(), p), QPointF(plot.right(), p));
        if (l.label.isEmpty())
            continue;
        const double w = tm.horizontalAdvance(l.label) + 6.0 * fs;
        QVector<QRectF> cands;
        if (l.vertical) {
            const double xr = std::min(p + 3.0 * fs, plot.right() - w),
                         xl = std::max(p - w - 3.0 * fs, plot.left());
            for (int row = 0; row < 8; ++row) {
                const double y = plot.bottom() - (row + 1) * (th + 2.0 * fs);
                cands << QRectF(xr, y, w, th + 2.0 * fs) << QRectF(xl, y, w, th + 2.0 * fs);
            }
        } else {
            for (double frac : {1.0, 0.5, 0.0, 0.75, 0.25}) {
                const double x = plot.left() + 4.0 * fs + frac * (plot.width() - w - 8.0 * fs);
                cands << QRectF(x, p - th - 3.0 * fs, w, th + 2.0 * fs)
                      << QRectF(x, p + 1.0 * fs, w, th + 2.0 * fs);
            }
        }
        const QRectF r = place(cands, taken);
        painter.fillRect(r, colors.overlay);
        painter.setPen(l.color.lightness() > 200 ? colors.text : l.color.darker(options.dark ? 60 : 115));
        painter.drawText(r.adjusted(3.0 * fs, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, l.label);
    }
    painter.setClipping(false);

    // ---- axes, ticks, labels
    painter.setPen(QPen(colors.axis, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    painter.setFont(small);
    painter.setPen(colors.text);
    for (double v : yt) {
        const double y = ay.map(v);
        painter.drawText(QRectF(plot.left() - ytw - 6.0 * fs, y - lh / 2.0, ytw, lh),
                         Qt::AlignRight | Qt::AlignVCenter, tick_label(v, ay.log));
    }
    for (double v : xt) {
        const QString s = tick_label(v, ax.log);
        const double w = fm.horizontalAdvance(s);
        painter.drawText(QPointF(ax.map(v) - w / 2.0, plot.bottom() + fm.ascent() + 3.0 * fs), s);
    }
    if (!rt.empty()) {
        for (double v : rt) {
            const double y = ay.map(spec.right_reciprocal / v);
            painter.drawLine(QPointF(plot.right(), y), QPointF(plot.right() + 4.0 * fs, y));
            painter.drawText(QPointF(plot.right() + 6.0 * fs, y + fm.ascent() / 2.5), tick_label(v, true));
        }
        painter.save();
        painter.translate(target.right() - margin - lh * 0.3, plot.center().y());
        painter.rotate(90);
        painter.drawText(QRectF(-plot.height() / 2.0, -lh, plot.height(), lh), Qt::AlignCenter,
                         spec.right_label);
        painter.restore();
    }
    // Strips under the x tick labels, cell i centred on x = i.
    double sy = plot.bottom() + lh + 6.0 * fs;
    painter.setFont(tiny);
    for (const PlotStrip& s : spec.strips) {
        for (std::size_t i = 0; i < s.cells.size(); ++i) {
            const double x0 = ax.map(static_cast<double>(i) - 0.5), x1 = ax.map(static_cast<double>(i) + 0.5);
            painter.fillRect(QRectF(x0, sy, x1 - x0 + 0.3, strip_h - 2.0 * fs), s.cells[i]);
        }
        painter.setPen(colors.text);
        painter.drawText(QRectF(rect.left(), sy, plot.left() - rect.left() - 4.0 * fs, strip_h - 2.0 * fs),
                         Qt::AlignRight | Qt::AlignVCenter, tm.elidedText(s.label, Qt::ElideRight, stripw));
        sy += strip_h;
    }
    painter.setFont(small);
    painter.setPen(colors.text);
    painter.drawText(QRectF(plot.left(), rect.bottom() - lh, plot.width(), lh), Qt::AlignCenter,
                     spec.x_label);
    painter.save();
    painter.translate(rect.left() + lh * 0.1, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2.0, 0, plot.height(), lh), Qt::AlignCenter, spec.y_label);
    painter.restore();
    painter.restore();
}

PlotWidget::PlotWidget(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void PlotWidget::setSpec(const PlotSpec& spec)
{
    m_spec = spec;
    update();
}

void PlotWidget::renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    paint_plot(painter, target, m_spec, options, font());
}

void PlotWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    RenderOptions o;
    o.dark = palette_is_dark(palette());
    paint_plot(painter, rect(), m_spec, o, font());
}

} // namespace posatlas::ui
