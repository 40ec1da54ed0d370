// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/rotation_view.h"

#include "views/colormap.h"
#include "views/figure_style.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QScopedValueRollback>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace posatlas::ui {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr int kSliderSteps = 10000;

// Roles of the three angles, shared by every circle and the legend.
QColor query_color(bool dark)
{
    return series_color(0, dark);
}
QColor key_color(bool dark)
{
    return series_color(1, dark);
}
QColor relative_color(bool dark)
{
    return series_color(2, dark);
}

// Screen point at angle a (radians, counter-clockwise from 3 o'clock, y pointing down on screen).
QPointF on_circle(const QPointF& c, double r, double a)
{
    return {c.x() + r * std::cos(a), c.y() - r * std::sin(a)};
}

void draw_arrow(QPainter& painter, const QPointF& from, const QPointF& to, const QColor& color, double width)
{
    painter.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
    const QPointF d = to - from;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1e-6)
        return;
    const QPointF u = d / len, n(-u.y(), u.x());
    const double head = std::min(len * 0.35, width * 4.5);
    painter.drawLine(from, to - u * head * 0.6);
    QPainterPath tip;
    tip.moveTo(to);
    tip.lineTo(to - u * head + n * head * 0.45);
    tip.lineTo(to - u * head - n * head * 0.45);
    tip.closeSubpath();
    painter.fillPath(tip, color);
}

// Arc of radius r around c from angle a0 sweeping `span` radians (positive: counter-clockwise).
void draw_arc(QPainter& painter, const QPointF& c, double r, double a0, double span, const QPen& pen)
{
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    const QRectF box(c.x() - r, c.y() - r, 2 * r, 2 * r);
    painter.drawArc(box, static_cast<int>(std::lround(a0 * 180.0 / kPi * 16)),
                    static_cast<int>(std::lround(span * 180.0 / kPi * 16)));
}

QColor pair_color(int pair, int pairs, bool dark)
{
    // Pair index along viridis, leaving out the end that would vanish into the background: its dark
    // violet on dark backgrounds (more of it), its pale yellow on light ones.
    const QVector<QRgb> table = colormap_table(Colormap::Viridis);
    const double t = pairs > 1 ? static_cast<double>(pair) / (pairs - 1) : 0.0;
    const double first = dark ? 100.0 : 30.0, last = dark ? 255.0 : 225.0;
    return QColor::fromRgb(
        table[std::clamp(static_cast<int>(first + t * (last - first)), 0, kColormapSize - 1)]);
}

} // namespace

// ----------------------------------------------------------------- RotationView

RotationView::RotationView(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(200, 160);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void RotationView::setData(const RotationData& data)
{
    m_data = data;
    update();
}

void RotationView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    RenderOptions options;
    options.dark = palette_is_dark(palette());
    paintFigure(painter, rect(), options);
}

void RotationView::renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    paintFigure(painter, target, options);
}

void RotationView::paintFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    m_lastCaptions.clear();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(target, colors.background);
    const QFont label_font = scaled_font(font(), options.font_scale);
    const QFontMetricsF fl(label_font, painter.device());
    const double pad = fl.height() * 0.4;
    QRectF area = target.adjusted(pad, pad, -pad, -pad);
    if (m_data.theta.empty()) {
        // A method without rotations: its title is the explanation, centred and wrapped, not clipped.
        painter.setPen(colors.text);
        painter.setFont(scaled_font(font(), options.font_scale, 1.2, true));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_data.title);
        painter.restore();
        return;
    }
    area = paint_title(painter, area, m_data.title, scaled_font(font(), options.font_scale, 1.2, true),
                       colors.text);
    area = paint_caption(painter, area, options.caption, scaled_font(font(), options.font_scale, 0.9),
                         colors.muted);
    // Legend line: the positions and what each colour means.
    const QRectF legend(area.left(), area.top(), area.width(), fl.height() * 1.2);
    paintLegend(painter, legend, options);
    area.setTop(legend.bottom() + pad);

    std::vector<int> shown;
    for (int p : m_data.shown_pairs)
        if (p >= 0 && static_cast<std::size_t>(p) < m_data.theta.size() &&
            static_cast<std::size_t>(p) < m_data.angle_q.size() &&
            static_cast<std::size_t>(p) < m_data.angle_k.size() &&
            static_cast<std::size_t>(p) < m_data.angle_rel.size())
            shown.push_back(p);

    // Clock face on the left (or on top in a tall area), the chosen pairs in a grid beside it.
    QRectF clock = area, pairs;
    if (!shown.empty()) {
        // Many pairs need a larger face for a ring each: up to 56 % of the width at 32 pairs or more.
        const std::size_t pairCount = m_data.theta.size();
        const double share = pairCount >= 32 ? 0.56 : pairCount >= 16 ? 0.48 : 0.42;
        if (area.width() >= area.height() * 1.2) {
            const double w = std::min(area.height() * 1.05, area.width() * share);
            clock = QRectF(area.left(), area.top(), w, area.height());
            pairs = area.adjusted(w + pad * 2, 0, 0, 0);
        } else {
            const double h = std::min(area.width() * 1.05, area.height() * (share + 0.08));
            clock = QRectF(area.left(), area.top(), area.width(), h);
            pairs = area.adjusted(0, h + pad * 2, 0, 0);
        }
    }
    paintClock(painter, clock, options);
    if (!shown.empty()) {
        // The column count that gives the largest circles (each cell also holds two label lines).
        const int n = static_cast<int>(shown.size());
        const double text_h = fl.height() * 2.3;
        int best = 1;
        double best_d = -1;
        for (int c = 1; c <= n; ++c) {
            const int r = (n + c - 1) / c;
            const double d = std::min(pairs.width() / c, pairs.height() / r - text_h);
            if (d > best_d) {
                best_d = d;
                best = c;
            }
        }
        const int rows = (n + best - 1) / best;
        const double cw = pairs.width() / best, ch = pairs.height() / rows;
        // Every cell keeps room for the most caption lines any of them takes: circles of one size.
        const QFontMetricsF fc(scaled_font(font(), options.font_scale, 0.95), painter.device());
        qsizetype lines = 2;
        for (int p : shown) {
            const auto [first, second] = pairCaption(p, fc, cw);
            lines = std::max(lines, first.size() + second.size());
        }
        for (int k = 0; k < n; ++k)
            paintPair(painter, QRectF(pairs.left() + (k % best) * cw, pairs.top() + (k / best) * ch, cw, ch),
                      shown[static_cast<std::size_t>(k)], static_cast<int>(lines), options);
    }
    painter.restore();
}

void RotationView::paintLegend(QPainter& painter, const QRectF& rect, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    const QFont f = scaled_font(font(), options.font_scale, 0.95);
    const QFontMetricsF fm(f, painter.device());
    struct Item {
        QColor color;
        QString text;
    };
    const Item items[] = {
        {query_color(options.dark), tr("query m = %1").arg(format_number(m_data.query_position))},
        {key_color(options.dark), tr("key n = %1").arg(format_number(m_data.key_position))},
        {relative_color(options.dark), tr("relative (m − n) θᵢ, m − n = %1")
                                           .arg(format_number(m_data.query_position - m_data.key_position))},
    };
    const double swatch = fm.height() * 1.2, gap = fm.height() * 0.9;
    double total = 0;
    for (const Item& it : items)
        total += swatch + fm.height() * 0.3 + fm.horizontalAdvance(it.text) + gap;
    total -= gap;
    // Shrink the legend's font rather than clip it in a narrow dock.
    const double scale = total > rect.width() ? rect.width() / total : 1.0;
    painter.save();
    painter.translate(rect.left() + std::max(0.0, (rect.width() - total * scale) / 2), rect.center().y());
    painter.scale(scale, scale);
    painter.setFont(f);
    double x = 0;
    for (const Item& it : items) {
        painter.setPen(QPen(it.color, fm.height() * 0.22, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(x, 0), QPointF(x + swatch, 0));
        x += swatch + fm.height() * 0.3;
        painter.setPen(colors.text);
        const double w = fm.horizontalAdvance(it.text);
        painter.drawText(QRectF(x, -fm.height() / 2, w + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                         it.text);
        x += w + gap;
    }
    painter.restore();
}

std::pair<QStringList, QStringList> RotationView::pairCaption(int pair, const QFontMetricsF& fm,
                                                              double width) const
{
    // Pair, theta and its wavelength (the period of the pair in positions, computed by core), broken at
    // " · " rather than elided: a lecturer reads the numbers.
    const auto i = static_cast<std::size_t>(pair);
    const QString l1 = tr("pair %1 · θ = %2").arg(pair).arg(format_number(m_data.theta[i], 3));
    const QString l2 = i < m_data.wavelength.size()
                           ? tr("wavelength %1").arg(format_number(m_data.wavelength[i], 3))
                           : QString();
    return {caption_lines(l1, fm, width), caption_lines(l2, fm, width)};
}

void RotationView::paintPair(QPainter& painter, const QRectF& cell, int pair, int lines,
                             const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    const auto i = static_cast<std::size_t>(pair);
    const QFont f = scaled_font(font(), options.font_scale, 0.95);
    const QFontMetricsF fm(f, painter.device());
    const auto [first, second] = pairCaption(pair, fm, cell.width());
    m_lastCaptions << first << second;
    const double text_h =
        fm.height() * (static_cast<double>(std::max<qsizetype>(lines, first.size() + second.size())) + 0.3);
    const double d = std::min(cell.width(), cell.height() - text_h) * 0.86;
    if (d < 8)
        return;
    const double R = d / 2;
    const QPointF c(cell.center().x(), cell.top() + (cell.height() - text_h) / 2);
    const double line = std::max(1.5, R * 0.025);

    painter.save();
    painter.setPen(QPen(colors.grid, 1.0));
    painter.drawLine(QPointF(c.x() - R, c.y()), QPointF(c.x() + R, c.y()));
    painter.drawLine(QPointF(c.x(), c.y() - R), QPointF(c.x(), c.y() + R));
    painter.setPen(QPen(colors.axis, 1.2 * colors.line_scale));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(c, R, R);

    const double aq = m_data.angle_q[i], ak = m_data.angle_k[i], ar = m_data.angle_rel[i];
    // Absolute angles swept counter-clockwise from 0; the relative angle the short way round from the
    // key to the query, which is where it ends (angle_rel = angle_q - angle_k mod 2 pi).
    QPen qpen(query_color(options.dark), line * 0.8);
    qpen.setCapStyle(Qt::FlatCap);
    QPen kpen(key_color(options.dark), line * 0.8);
    kpen.setCapStyle(Qt::FlatCap);
    draw_arc(painter, c, R * 0.28, 0.0, aq, qpen);
    draw_arc(painter, c, R * 0.40, 0.0, ak, kpen);
    const double rel = ar > kPi ? ar - 2 * kPi : ar;
    QPen rpen(relative_color(options.dark), line * 1.6);
    rpen.setCapStyle(Qt::FlatCap);
    draw_arc(painter, c, R * 0.62, ak, rel, rpen);

    draw_arrow(painter, c, on_circle(c, R, ak), key_color(options.dark), line);
    draw_arrow(painter, c, on_circle(c, R, aq), query_color(options.dark), line);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colors.axis);
    painter.drawEllipse(c, line, line);

    painter.setFont(f);
    double top = c.y() + R + fm.height() * 0.3;
    painter.setPen(colors.text);
    for (const QString& text : first) {
        painter.drawText(QRectF(cell.left(), top, cell.width(), fm.height()),
                         Qt::AlignHCenter | Qt::AlignVCenter, text);
        top += fm.height();
    }
    painter.setPen(colors.muted);
    for (const QString& text : second) {
        painter.drawText(QRectF(cell.left(), top, cell.width(), fm.height()),
                         Qt::AlignHCenter | Qt::AlignVCenter, text);
        top += fm.height();
    }
    painter.restore();
}

ClockLayout clock_layout(const QRectF& cell, std::size_t n, double text_h)
{
    ClockLayout out;
    const double d = std::min(cell.width(), cell.height() - text_h) * 0.96;
    if (d < 8 || n == 0)
        return out;
    const double R = d / 2;
    out.outer = R;
    out.centre = QPointF(cell.center().x(), cell.top() + (cell.height() - text_h) / 2);
    // A small hub: the slowest pair's ring still has room for its dot, and the other rings share all
    // the rest of the radius evenly (pair 0, the fastest, outermost: on a clock the fastest hand is the
    // longest).
    const double inner = R * 0.07;
    out.radius.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        out.radius[i] = n > 1 ? R - (R - inner) * static_cast<double>(i) / static_cast<double>(n - 1) : R;
    const double spacing = n > 1 ? (R - inner) / static_cast<double>(n - 1) : R;
    // Dots never touch their neighbours' (diameter below the spacing), and stay visible.
    out.dot = std::clamp(std::min(R * 0.035, spacing * 0.42), 1.0, std::max(1.0, R * 0.035));
    // Numbered rings: the first, the quarters and the last.
    const int last = static_cast<int>(n) - 1;
    for (int q = 0; q <= 4 && last > 0; ++q) {
        const int p = static_cast<int>(std::lround(static_cast<double>(last) * q / 4.0));
        if (out.labelled.empty() || out.labelled.back() != p)
            out.labelled.push_back(p);
    }
    if (last == 0)
        out.labelled.push_back(0);
    return out;
}

void RotationView::paintClock(QPainter& painter, const QRectF& cell, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    const QFont f = scaled_font(font(), options.font_scale, 0.95);
    const QFontMetricsF fm(f, painter.device());
    const std::size_t n = std::min(m_data.theta.size(), m_data.angle_q.size());
    const QString l1 = tr("all %1 pairs at m = %2").arg(n).arg(format_number(m_data.query_position));
    const QString l2 = tr("outer: pair 0 (fast) · inner: pair %1 (slow)").arg(n > 0 ? n - 1 : 0);
    const QStringList first = caption_lines(l1, fm, cell.width()),
                      second = caption_lines(l2, fm, cell.width());
    m_lastCaptions << first << second;
    const double text_h = fm.height() * (static_cast<double>(first.size() + second.size()) + 0.3);
    m_lastClock = clock_layout(cell, n, text_h);
    const ClockLayout& L = m_lastClock;
    if (L.radius.empty())
        return;
    const double R = L.outer;
    const QPointF c = L.centre;
    auto ring = [&](std::size_t i) { return L.radius[i]; };
    const double dot = L.dot;

    painter.save();
    painter.setPen(QPen(colors.axis, 1.2 * colors.line_scale));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(c, R * 1.04, R * 1.04);
    painter.setPen(QPen(colors.grid, 1.0));
    for (int h = 0; h < 12; ++h) { // clock-face ticks every 30 degrees
        const double a = h * kPi / 6;
        painter.drawLine(on_circle(c, R * 1.04, a), on_circle(c, R * (h % 3 == 0 ? 0.92 : 0.97), a));
    }
    // Faint guide rings at the numbered pairs.
    for (int p : L.labelled)
        painter.drawEllipse(c, ring(static_cast<std::size_t>(p)), ring(static_cast<std::size_t>(p)));

    // Hands: thin enough that the many slow pairs, which point almost the same way, do not fill a
    // wedge; every tip is a dot on its own ring.
    const double spacing = n > 1 ? ring(0) - ring(1) : R;
    const double handWidth = std::clamp(spacing * 0.35, 0.6, std::max(0.6, dot * 0.45));
    for (std::size_t k = n; k-- > 0;) { // slow, inner hands first: fast ones stay on top
        const QColor col = pair_color(static_cast<int>(k), static_cast<int>(n), options.dark);
        QColor hand = col;
        hand.setAlphaF(n > 16 ? 0.35 : 0.55);
        const QPointF tip = on_circle(c, ring(k), m_data.angle_q[k]);
        painter.setPen(QPen(hand, handWidth, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(c, tip);
        painter.setPen(Qt::NoPen);
        painter.setBrush(col);
        painter.drawEllipse(tip, dot, dot);
    }
    // Ring numbers on a ruler straight down from the centre (6 o'clock), on a halo of the background.
    {
        painter.setFont(scaled_font(font(), options.font_scale, 0.75));
        const QFontMetricsF fr(painter.font(), painter.device());
        for (int p : L.labelled) {
            const QString s = QString::number(p);
            const double w = fr.horizontalAdvance(s) + 4;
            const QPointF at = on_circle(c, ring(static_cast<std::size_t>(p)), -kPi / 2);
            const QRectF box(at.x() - w / 2, at.y() - fr.height() / 2, w, fr.height());
            QColor halo = colors.background;
            halo.setAlphaF(0.8);
            painter.setPen(Qt::NoPen);
            painter.setBrush(halo);
            painter.drawRoundedRect(box, 3, 3);
            painter.setPen(colors.muted);
            painter.drawText(box, Qt::AlignCenter, s);
        }
    }
    // The pairs drawn large on the right are ringed and numbered here too.
    painter.setFont(scaled_font(font(), options.font_scale, 0.8));
    const QFontMetricsF fs(painter.font(), painter.device());
    for (int p : m_data.shown_pairs) {
        if (p < 0 || static_cast<std::size_t>(p) >= n)
            continue;
        const auto k = static_cast<std::size_t>(p);
        const QPointF tip = on_circle(c, ring(k), m_data.angle_q[k]);
        painter.setPen(QPen(colors.text, 1.2 * colors.line_scale));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(tip, dot * 2.0, dot * 2.0);
        const QString s = QString::number(p);
        const QPointF at = on_circle(c, ring(k) + dot * 2.0 + fs.height() * 0.6, m_data.angle_q[k]);
        const double w = fs.horizontalAdvance(s);
        painter.setPen(colors.text);
        painter.drawText(QRectF(at.x() - w / 2 - 1, at.y() - fs.height() / 2, w + 2, fs.height()),
                         Qt::AlignCenter, s);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(colors.axis);
    painter.drawEllipse(c, 2.5, 2.5);

    painter.setFont(f);
    double top = c.y() + R * 1.04 + fm.height() * 0.3;
    painter.setPen(colors.text);
    for (const QString& text : first) {
        painter.drawText(QRectF(cell.left(), top, cell.width(), fm.height()),
                         Qt::AlignHCenter | Qt::AlignVCenter, text);
        top += fm.height();
    }
    painter.setPen(colors.muted);
    for (const QString& text : second) {
        painter.drawText(QRectF(cell.left(), top, cell.width(), fm.height()),
                         Qt::AlignHCenter | Qt::AlignVCenter, text);
        top += fm.height();
    }
    painter.restore();
}

// ----------------------------------------------------------------- RotationControls

RotationControls::RotationControls(QWidget* parent)
    : QWidget(parent), m_play(new QToolButton(this)), m_slider(new QSlider(Qt::Horizontal, this)),
      m_spin(new QDoubleSpinBox(this)), m_speed(new QDoubleSpinBox(this)), m_key(new QDoubleSpinBox(this))
{
    m_spin->setObjectName(QStringLiteral("queryPosition"));
    m_key->setObjectName(QStringLiteral("keyPosition"));
    m_key->setDecimals(2);
    m_key->setRange(0.0, 1e9);
    m_key->setKeyboardTracking(false);
    m_key->setToolTip(tr("Key position n: the key vector is rotated by n θᵢ; the arcs show (m − n) θᵢ"));
    m_play->setAutoRaise(true);
    m_play->setToolTip(tr("Play / pause: advance the query position m"));
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tr("Query position m"));
    m_spin->setDecimals(2);
    m_spin->setKeyboardTracking(false);
    m_spin->setToolTip(tr("Query position m"));
    m_speed->setRange(0.01, 1e6);
    m_speed->setDecimals(2);
    m_speed->setValue(1.0);
    m_speed->setSuffix(tr(" pos/s"));
    m_speed->setToolTip(tr("Animation speed in positions per second"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_play);
    layout->addWidget(new QLabel(tr("m"), this));
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    layout->addWidget(new QLabel(tr("n"), this));
    layout->addWidget(m_key);
    layout->addWidget(m_speed);
    setRange(0.0, 100.0);

    m_timer.setInterval(33); // ~30 frames per second
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &RotationControls::advance);
    connect(m_play, &QToolButton::clicked, this, &RotationControls::togglePlay);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (m_updating)
            return;
        setPositionInternal(m_min + (m_max - m_min) * v / kSliderSteps, true);
    });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_updating)
            setPositionInternal(v, true);
    });
    connect(m_key, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (!m_updating)
            emit keyPositionChanged(v);
    });
    updatePlayButton();
}

void RotationControls::setKeyPosition(double n)
{
    const QScopedValueRollback<bool> guard(m_updating, true);
    m_key->setValue(n);
}

double RotationControls::keyPosition() const
{
    return m_key->value();
}

void RotationControls::setRange(double min, double max)
{
    if (!(max > min))
        max = min + 1.0;
    m_min = min;
    m_max = max;
    {
        const QScopedValueRollback<bool> guard(m_updating, true);
        m_spin->setRange(min, max);
    }
    setPositionInternal(std::clamp(m_position, min, max), false);
}

void RotationControls::setPosition(double m)
{
    setPositionInternal(m, false);
}

void RotationControls::setSpeed(double positions_per_second)
{
    m_speed->setValue(positions_per_second);
}

double RotationControls::speed() const
{
    return m_speed->value();
}

int RotationControls::sliderValue(double m) const
{
    return static_cast<int>(std::lround((m - m_min) / (m_max - m_min) * kSliderSteps));
}

void RotationControls::setPositionInternal(double m, bool notify)
{
    m = std::clamp(m, m_min, m_max);
    const bool changed = m != m_position;
    m_position = m;
    {
        const QScopedValueRollback<bool> guard(m_updating, true);
        m_slider->setValue(sliderValue(m));
        m_spin->setValue(m);
    }
    if (notify && changed)
        emit positionChanged(m);
}

void RotationControls::play()
{
    if (m_timer.isActive())
        return;
    m_clock.start();
    m_timer.start();
    updatePlayButton();
    emit playingChanged(true);
}

void RotationControls::pause()
{
    if (!m_timer.isActive())
        return;
    m_timer.stop();
    updatePlayButton();
    emit playingChanged(false);
}

void RotationControls::togglePlay()
{
    if (isPlaying())
        pause();
    else
        play();
}

void RotationControls::advance()
{
    // Advance by elapsed time, not by tick count, so the speed holds when frames are dropped.
    const double seconds = m_clock.restart() / 1000.0;
    double m = m_position + m_speed->value() * seconds;
    if (m > m_max)
        m = m_min + std::fmod(m - m_min, m_max - m_min);
    setPositionInternal(m, true);
}

namespace {

// Play / pause drawn in the palette's button text colour. The style's standard media icons are fixed
// dark greys: on the dark theme they stood at ~1.2:1 against the background (WCAG AA asks 3:1 of a
// control's graphics).
QIcon media_icon(bool playing, const QColor& color)
{
    QIcon icon;
    for (int size : {16, 24, 32, 48}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        const double u = size / 16.0;
        if (playing) {
            p.drawRect(QRectF(4 * u, 3 * u, 3 * u, 10 * u));
            p.drawRect(QRectF(9 * u, 3 * u, 3 * u, 10 * u));
        } else {
            const QPointF tri[] = {{4.5 * u, 2.5 * u}, {13 * u, 8 * u}, {4.5 * u, 13.5 * u}};
            p.drawPolygon(tri, 3);
        }
        p.end();
        icon.addPixmap(pm);
    }
    return icon;
}

} // namespace

void RotationControls::updatePlayButton()
{
    const bool playing = isPlaying();
    // This widget's palette: on a theme change it is updated before the button's own.
    m_play->setIcon(media_icon(playing, palette().color(QPalette::ButtonText)));
    m_play->setText(playing ? tr("Pause") : tr("Play"));
}

void RotationControls::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange ||
        event->type() == QEvent::StyleChange)
        updatePlayButton();
    QWidget::changeEvent(event);
}

} // namespace posatlas::ui
