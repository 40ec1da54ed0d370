// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_plot.h"

#include "io/number_text.h"
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
        if (std::abs(e - std::round(e)) < 1e-9)
            return QStringLiteral("10") + QString::fromStdString(superscript_digits(std::lround(e)));
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

namespace {

// What the stages of paint_plot share: the spec, the style, the fonts, and (once laid out) the plot
// rectangle, its axes and their ticks.
struct PlotFrame {
    PlotFrame(const PlotSpec& s, const RenderOptions& o, const QFont& base)
        : spec(s), options(o), colors(figure_colors(o.dark)), fs(o.font_scale),
          small(scaled_font(base, fs, 0.85)), tiny(scaled_font(base, fs, 0.78)), fm(small), tm(tiny),
          lh(fm.height())
    {
    }
    const PlotSpec& spec;
    const RenderOptions& options;
    const FigureColors colors;
    const double fs;
    const QFont small, tiny;
    const QFontMetricsF fm, tm;
    const double lh; // line height of the small font
    QRectF rect;     // below the title, captions and legend
    QRectF plot;     // the data area
    Axis ax, ay;
    std::vector<double> xt, yt, rt; // x, y and right (reciprocal) ticks
    double ytw = 0.0;               // widest y tick label
    double stripw = 0.0;            // widest strip label
    double strip_h = 0.0;
};

// The legend row(s) above the plot: one item per named series, fill and extra item. Moves rect's top
// below them.
void paint_legend(QPainter& painter, PlotFrame& f)
{
    const PlotSpec& spec = f.spec;
    QVector<PlotLegendItem> legend;
    for (const PlotSeries& s : spec.series)
        if (!s.name.isEmpty())
            legend << PlotLegendItem{s.name, s.color, !s.line, s.dashed};
    for (const PlotFill& fill : spec.fills)
        if (!fill.name.isEmpty())
            legend << PlotLegendItem{fill.name, fill.color, true, false};
    legend += spec.extra_legend;
    painter.setFont(f.small);
    const double fs = f.fs;
    double lx = f.rect.left(), ly = f.rect.top();
    const double sw = 22.0 * fs;
    for (const PlotLegendItem& item : legend) {
        const double w = sw + 4.0 * fs + f.fm.horizontalAdvance(item.name) + 14.0 * fs;
        if (lx + w > f.rect.right() && lx > f.rect.left()) {
            lx = f.rect.left();
            ly += f.lh;
        }
        const double cy = ly + f.lh / 2.0;
        if (item.swatch) {
            painter.fillRect(QRectF(lx + 4.0 * fs, cy - 5.0 * fs, sw - 8.0 * fs, 10.0 * fs), item.color);
        } else {
            painter.setPen(QPen(item.color, 2.0 * fs, item.dashed ? Qt::DashLine : Qt::SolidLine));
            painter.drawLine(QPointF(lx, cy), QPointF(lx + sw, cy));
        }
        painter.setPen(f.colors.text);
        painter.drawText(QPointF(lx + sw + 4.0 * fs, ly + f.fm.ascent()), item.name);
        lx += w;
    }
    if (!legend.isEmpty())
        f.rect.setTop(ly + f.lh + 4.0 * fs);
}

// The data ranges of both axes: every valid point, fill and reference line, padded, then the spec's
// explicit limits; strips of pairs 0 .. n-1 take half a cell each side.
void set_ranges(PlotFrame& f)
{
    const PlotSpec& spec = f.spec;
    Axis& ax = f.ax;
    Axis& ay = f.ay;
    ax = Axis{std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(), spec.log_x};
    ay = Axis{std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(), spec.log_y};
    for (const PlotSeries& s : spec.series)
        for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
            if (ax.valid(s.x[i]) && ay.valid(s.y[i])) {
                extend(ax.lo, ax.hi, s.x[i], ax.log);
                extend(ay.lo, ay.hi, s.y[i], ay.log);
            }
    for (const PlotFill& fill : spec.fills)
        for (std::size_t i = 0; i < fill.x.size(); ++i) {
            extend(ax.lo, ax.hi, fill.x[i], ax.log);
            extend(ay.lo, ay.hi, fill.hi[i], ay.log);
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
}

// The plot rectangle inside rect: margins for the y tick labels, the y label and the strip labels on the
// left, the x ticks, x label and strips below, the reciprocal axis on the right; then the axes' pixels
// and ticks.
void lay_out(PlotFrame& f)
{
    const PlotSpec& spec = f.spec;
    const double fs = f.fs, lh = f.lh;
    const int y_ticks = std::max(3, static_cast<int>(f.rect.height() / (lh * 2.2)));
    f.yt = ticks(f.ay, y_ticks);
    for (double v : f.yt)
        f.ytw = std::max(f.ytw, f.fm.horizontalAdvance(tick_label(v, f.ay.log)));
    for (const PlotStrip& s : spec.strips)
        f.stripw = std::max(f.stripw, f.tm.horizontalAdvance(s.label) + 6.0 * fs);
    const double left = std::max(f.ytw + lh + 10.0 * fs, f.stripw);
    f.strip_h = f.tm.height() + 2.0 * fs;
    const double bottom =
        lh * 2.4 + spec.strips.size() * f.strip_h + (spec.strips.isEmpty() ? 0.0 : 4.0 * fs);
    double right = 10.0 * fs;
    if (spec.right_reciprocal > 0.0 && f.ay.log) {
        const Axis ar{spec.right_reciprocal / f.ay.hi, spec.right_reciprocal / f.ay.lo, true};
        f.rt = ticks(ar, y_ticks);
        double w = 0.0;
        for (double v : f.rt)
            w = std::max(w, f.fm.horizontalAdvance(tick_label(v, true)));
        right = w + lh + 12.0 * fs;
    }
    f.plot = QRectF(f.rect.left() + left, f.rect.top(), std::max(10.0, f.rect.width() - left - right),
                    std::max(10.0, f.rect.height() - bottom));
    f.ax.p0 = f.plot.left();
    f.ax.p1 = f.plot.right();
    f.ay.p0 = f.plot.bottom();
    f.ay.p1 = f.plot.top();
    f.xt = ticks(f.ax, std::max(3, static_cast<int>(f.plot.width() / (f.fm.averageCharWidth() * 9))));
}

// The pixel span [x0, x1] of a band, clipped to the plot.
std::pair<double, double> band_span(const PlotFrame& f, const PlotBand& b)
{
    return {std::clamp(f.ax.map(std::max(b.from, f.ax.lo)), f.plot.left(), f.plot.right()),
            std::clamp(f.ax.map(std::min(b.to, f.ax.hi)), f.plot.left(), f.plot.right())};
}

void paint_bands_and_grid(QPainter& painter, const PlotFrame& f)
{
    for (const PlotBand& b : f.spec.bands) {
        const auto [x0, x1] = band_span(f, b);
        painter.fillRect(QRectF(x0, f.plot.top(), x1 - x0, f.plot.height()), b.color);
    }
    painter.setPen(QPen(f.colors.grid, 1.0));
    for (double v : f.yt)
        painter.drawLine(QPointF(f.plot.left(), f.ay.map(v)), QPointF(f.plot.right(), f.ay.map(v)));
    for (double v : f.xt)
        painter.drawLine(QPointF(f.ax.map(v), f.plot.top()), QPointF(f.ax.map(v), f.plot.bottom()));
}

void paint_fills(QPainter& painter, const PlotFrame& f)
{
    const Axis &ax = f.ax, &ay = f.ay;
    for (const PlotFill& fill : f.spec.fills) {
        QPolygonF poly;
        for (std::size_t i = 0; i < fill.x.size(); ++i)
            if (ax.valid(fill.x[i]) && ay.valid(fill.hi[i]))
                poly << QPointF(ax.map(fill.x[i]), ay.map(fill.hi[i]));
        for (std::size_t i = fill.x.size(); i-- > 0;) {
            const double lo = ay.valid(fill.lo[i]) ? fill.lo[i] : ay.lo;
            if (ax.valid(fill.x[i]))
                poly << QPointF(ax.map(fill.x[i]), ay.map(std::max(lo, ay.log ? ay.lo * 1e-3 : lo)));
        }
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill.color);
        painter.drawPolygon(poly);
    }
    painter.setBrush(Qt::NoBrush);
}

// Each series as a line (broken at invalid points) and / or points.
void paint_series(QPainter& painter, const PlotFrame& f)
{
    const Axis &ax = f.ax, &ay = f.ay;
    for (const PlotSeries& s : f.spec.series) {
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
            QPen pen(s.color, s.width * f.fs, s.dashed ? Qt::DashLine : Qt::SolidLine);
            pen.setCapStyle(Qt::FlatCap);
            painter.setPen(pen);
            painter.drawPath(path);
        }
        if (s.points) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(s.color);
            const double r = std::max(2.0, s.width * 1.3) * f.fs;
            for (std::size_t i = 0; i < n; ++i)
                if (ax.valid(s.x[i]) && ay.valid(s.y[i]))
                    painter.drawEllipse(QPointF(ax.map(s.x[i]), ay.map(s.y[i])), r, r);
            painter.setBrush(Qt::NoBrush);
        }
    }
}

// Band labels at the top of the plot, each in the first of four rows where it overlaps no other label.
void paint_band_labels(QPainter& painter, const PlotFrame& f, QVector<QRectF>& taken)
{
    painter.setFont(f.tiny);
    const double th = f.tm.height();
    for (const PlotBand& b : f.spec.bands) {
        if (b.label.isEmpty())
            continue;
        const auto [x0, x1] = band_span(f, b);
        const QStringList lines = b.label.split(QLatin1Char('\n'));
        double w = 0.0;
        for (const QString& l : lines)
            w = std::max(w, f.tm.horizontalAdvance(l));
        const double h = th * lines.size();
        const double cx =
            std::clamp((x0 + x1) / 2.0 - w / 2.0, f.plot.left() + 2.0, f.plot.right() - w - 2.0);
        QVector<QRectF> cands;
        for (int row = 0; row < 4; ++row)
            cands << QRectF(cx, f.plot.top() + 2.0 * f.fs + row * h, w, h);
        const QRectF r = place(cands, taken);
        painter.setPen(f.colors.text);
        for (int i = 0; i < lines.size(); ++i)
            painter.drawText(QPointF(r.left(), r.top() + i * th + f.tm.ascent()), lines[i]);
    }
}

// Candidate rectangles of a reference line's label (w wide) at pixel p: beside a vertical line, rising
// from the bottom; above or below a horizontal one, from its right end.
QVector<QRectF> line_label_candidates(const PlotFrame& f, const PlotLine& l, double p, double w)
{
    const double fs = f.fs, th = f.tm.height();
    const QRectF& plot = f.plot;
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
    return cands;
}

// Reference lines inside the range, with their labels where they overlap no earlier label.
void paint_reference_lines(QPainter& painter, const PlotFrame& f, QVector<QRectF>& taken)
{
    const double fs = f.fs;
    for (const PlotLine& l : f.spec.lines) {
        painter.setPen(QPen(l.color, 1.3 * fs, l.dashed ? Qt::DashLine : Qt::SolidLine));
        const Axis& a = l.vertical ? f.ax : f.ay;
        if (!a.valid(l.value) || l.value < std::min(a.lo, a.hi) || l.value > std::max(a.lo, a.hi))
            continue;
        const double p = a.map(l.value);
        if (l.vertical)
            painter.drawLine(QPointF(p, f.plot.top()), QPointF(p, f.plot.bottom()));
        else
            painter.drawLine(QPointF(f.plot.left(), p), QPointF(f.plot.right(), p));
        if (l.label.isEmpty())
            continue;
        const double w = f.tm.horizontalAdvance(l.label) + 6.0 * fs;
        const QRectF r = place(line_label_candidates(f, l, p, w), taken);
        painter.fillRect(r, f.colors.overlay);
        painter.setPen(l.color.lightness() > 200 ? f.colors.text : l.color.darker(f.options.dark ? 60 : 115));
        painter.drawText(r.adjusted(3.0 * fs, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, l.label);
    }
}

// The right axis: 1 / y times right_reciprocal (a wavelength beside a frequency), with its label.
void paint_right_axis(QPainter& painter, const PlotFrame& f, const QRectF& target, double margin)
{
    const double fs = f.fs, lh = f.lh;
    for (double v : f.rt) {
        const double y = f.ay.map(f.spec.right_reciprocal / v);
        painter.drawLine(QPointF(f.plot.right(), y), QPointF(f.plot.right() + 4.0 * fs, y));
        painter.drawText(QPointF(f.plot.right() + 6.0 * fs, y + f.fm.ascent() / 2.5), tick_label(v, true));
    }
    painter.save();
    painter.translate(target.right() - margin - lh * 0.3, f.plot.center().y());
    painter.rotate(90);
    painter.drawText(QRectF(-f.plot.height() / 2.0, -lh, f.plot.height(), lh), Qt::AlignCenter,
                     f.spec.right_label);
    painter.restore();
}

// Strips under the x tick labels, cell i centred on x = i, each with its label on the left.
void paint_strips(QPainter& painter, const PlotFrame& f)
{
    const double fs = f.fs;
    double sy = f.plot.bottom() + f.lh + 6.0 * fs;
    painter.setFont(f.tiny);
    for (const PlotStrip& s : f.spec.strips) {
        for (std::size_t i = 0; i < s.cells.size(); ++i) {
            const double x0 = f.ax.map(static_cast<double>(i) - 0.5),
                         x1 = f.ax.map(static_cast<double>(i) + 0.5);
            painter.fillRect(QRectF(x0, sy, x1 - x0 + 0.3, f.strip_h - 2.0 * fs), s.cells[i]);
        }
        painter.setPen(f.colors.text);
        painter.drawText(
            QRectF(f.rect.left(), sy, f.plot.left() - f.rect.left() - 4.0 * fs, f.strip_h - 2.0 * fs),
            Qt::AlignRight | Qt::AlignVCenter, f.tm.elidedText(s.label, Qt::ElideRight, f.stripw));
        sy += f.strip_h;
    }
}

// The frame, the tick labels of both axes, the right axis, the strips and the axis titles.
void paint_axes(QPainter& painter, const PlotFrame& f, const QRectF& target, double margin)
{
    const double fs = f.fs, lh = f.lh;
    painter.setPen(QPen(f.colors.axis, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(f.plot);
    painter.setFont(f.small);
    painter.setPen(f.colors.text);
    for (double v : f.yt) {
        const double y = f.ay.map(v);
        painter.drawText(QRectF(f.plot.left() - f.ytw - 6.0 * fs, y - lh / 2.0, f.ytw, lh),
                         Qt::AlignRight | Qt::AlignVCenter, tick_label(v, f.ay.log));
    }
    for (double v : f.xt) {
        const QString s = tick_label(v, f.ax.log);
        const double w = f.fm.horizontalAdvance(s);
        painter.drawText(QPointF(f.ax.map(v) - w / 2.0, f.plot.bottom() + f.fm.ascent() + 3.0 * fs), s);
    }
    if (!f.rt.empty())
        paint_right_axis(painter, f, target, margin);
    paint_strips(painter, f);
    painter.setFont(f.small);
    painter.setPen(f.colors.text);
    painter.drawText(QRectF(f.plot.left(), f.rect.bottom() - lh, f.plot.width(), lh), Qt::AlignCenter,
                     f.spec.x_label);
    painter.save();
    painter.translate(f.rect.left() + lh * 0.1, f.plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-f.plot.height() / 2.0, 0, f.plot.height(), lh), Qt::AlignCenter, f.spec.y_label);
    painter.restore();
}

} // namespace

void paint_plot(QPainter& painter, const QRectF& target, const PlotSpec& spec, const RenderOptions& options,
                const QFont& base)
{
    PlotFrame f(spec, options, base);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(target, f.colors.background);
    const double margin = 6.0 * f.fs;
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    rect = paint_title(painter, rect, spec.title, scaled_font(base, f.fs, 1.2, true), f.colors.text);
    rect = paint_caption(painter, rect, options.caption, f.small, f.colors.muted);
    f.rect = paint_caption(painter, rect, spec.note, f.small, f.colors.text);
    paint_legend(painter, f);
    set_ranges(f);
    lay_out(f);

    painter.setClipRect(f.plot);
    paint_bands_and_grid(painter, f);
    paint_fills(painter, f);
    paint_series(painter, f);
    QVector<QRectF> taken; // label rectangles placed so far (collision-avoiding placement)
    paint_band_labels(painter, f, taken);
    paint_reference_lines(painter, f, taken);
    painter.setClipping(false);

    paint_axes(painter, f, target, margin);
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
