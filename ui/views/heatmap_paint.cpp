// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapView: painting (panels, axes, colour bar) on the layout of heatmap_layout.cpp, used by
// renderFigure() for export and by paintEvent() on screen.
#include "views/heatmap_view.h"

#include "views/figure_style.h"
#include "views/heatmap_layout.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace posatlas::ui {

namespace {

// Integer positions at "nice" steps inside [lo, hi) (positions are whole numbers; a step below 1
// would repeat labels).
std::vector<double> position_ticks(double lo, double hi, int max_ticks)
{
    std::vector<double> out;
    for (double t : nice_ticks(std::ceil(lo), std::max(std::ceil(lo), std::floor(hi - 1e-9)), max_ticks))
        if (t == std::floor(t) && t >= lo && t < hi)
            out.push_back(t);
    return out;
}

// The word at each whole position of [lo, hi) that has one, when there are few enough positions to
// label each; empty otherwise (then the axis shows position numbers).
std::vector<std::pair<std::int64_t, QString>> token_ticks(const QStringList& tokens, double lo, double hi,
                                                          double pixels, double min_pixels_per_cell)
{
    std::vector<std::pair<std::int64_t, QString>> out;
    if (tokens.isEmpty() || hi <= lo || pixels / (hi - lo) < min_pixels_per_cell)
        return out;
    for (auto t = static_cast<std::int64_t>(std::ceil(lo)); static_cast<double>(t) < hi; ++t)
        if (t >= 0 && t < tokens.size())
            out.emplace_back(t, tokens[static_cast<qsizetype>(t)]);
    return out;
}

} // namespace

// ----------------------------------------------------------------- painting

void HeatmapView::paintFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    const Fonts fonts{scaled_font(font(), options.font_scale, 1.2, true),
                      scaled_font(font(), options.font_scale), scaled_font(font(), options.font_scale, 0.9)};
    painter.save();
    painter.fillRect(target, colors.background);
    QRectF area =
        paint_caption(painter, target.adjusted(4, 0, -4, -4), options.caption, fonts.tick, colors.muted);
    if (m_data.panels.isEmpty()) {
        painter.setPen(colors.muted);
        painter.setFont(fonts.label);
        painter.drawText(area, Qt::AlignCenter, tr("No data"));
        painter.restore();
        return;
    }
    const Layout L = computeLayout(area, fonts, painter.device());
    if (!L.title.isEmpty())
        paint_title(painter, L.title, m_data.title, fonts.title, colors.text);
    if (!L.note.isEmpty()) {
        painter.setFont(fonts.tick);
        painter.setPen(colors.muted);
        const QFontMetricsF fk(fonts.tick, painter.device());
        // On screen (not in exports) the note also says where the remedy is.
        const QString text = painter.device() == this && m_tinySpread && !m_subtractMean
                                 ? tr("%1 · View > Subtract Mean shows the structure").arg(m_note)
                                 : m_note;
        painter.drawText(L.note, Qt::AlignHCenter | Qt::AlignVCenter,
                         fk.elidedText(text, Qt::ElideRight, L.note.width()));
    }
    for (qsizetype i = 0; i < L.panels.size(); ++i)
        paintPanel(painter, static_cast<int>(i), L.panels[i], fonts, options);

    // Axis titles.
    const HeatmapPanel& first = m_data.panels.front();
    painter.setFont(fonts.label);
    painter.setPen(colors.text);
    const QFontMetricsF fl(fonts.label, painter.device());
    if (!L.xTitle.isEmpty())
        painter.drawText(
            L.xTitle, Qt::AlignCenter,
            fl.elidedText(matrixLabel(first.matrix.col_label), Qt::ElideRight, L.xTitle.width()));
    if (!L.yTitle.isEmpty()) {
        painter.save();
        painter.translate(L.yTitle.center());
        painter.rotate(-90);
        const QRectF rotated(-L.yTitle.height() / 2, -L.yTitle.width() / 2, L.yTitle.height(),
                             L.yTitle.width());
        painter.drawText(rotated, Qt::AlignCenter,
                         fl.elidedText(matrixLabel(first.matrix.row_label), Qt::ElideRight, rotated.width()));
        painter.restore();
    }
    paintColorbar(painter, L, fonts, options);
    painter.restore();
}

QString HeatmapView::panelRangeText(int index) const
{
    if (!usesPanelScales() || index < 0 || index >= m_data.panels.size() ||
        m_data.panels[index].matrix.values.size() == 0)
        return {};
    // Whole numbers from 100 up (−179, not −1.8e2): short enough for a narrow panel, still exact enough.
    auto compact = [](double v) { return format_number(std::abs(v) >= 100.0 ? std::round(v) : v, 2); };
    return QStringLiteral("%1…%2").arg(compact(scaleMatrix(index).min - panelShift(index)),
                                       compact(scaleMatrix(index).max - panelShift(index)));
}

QString HeatmapView::withPanelRange(int index, const QString& text) const
{
    const QString range = panelRangeText(index);
    if (range.isEmpty())
        return text;
    const qsizetype dots = range.indexOf(QChar(0x2026));
    // In brackets: a range after a slope ("m₆=0.0078 −0.5…0") read as one number.
    return tr("%1 (%2…%3)").arg(text, range.left(dots), range.mid(dots + 1));
}

void HeatmapView::paintPanel(QPainter& painter, int index, const PanelGeometry& g, const Fonts& fonts,
                             const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    const QRectF heat = g.heat;
    if (heat.width() < 1 || heat.height() < 1 || m_view.rows <= 0 || m_view.cols <= 0)
        return;
    const Extent& re = m_rowExtent[index];
    const Extent& ce = m_colExtent[index];
    auto map_x = [&](double p) { return heat.left() + (p - m_view.col0) / m_view.cols * heat.width(); };
    auto map_y = [&](double p) { return heat.top() + (p - m_view.row0) / m_view.rows * heat.height(); };

    painter.save();
    painter.setClipRect(heat, Qt::IntersectClip);
    // Cells without a value: neutral grey with diagonal hatching, drawn as vector lines so that they
    // keep their spacing in any export resolution.
    painter.fillRect(heat, m_hasNan ? nan_fill_color(options.dark) : colors.background);
    if (m_hasNan) {
        // At least a pixel and at most ~2000 lines: a degenerate font must not make this loop endless.
        const double spacing = std::max({QFontMetricsF(fonts.tick, painter.device()).height() * 0.45, 1.0,
                                         (heat.width() + heat.height()) / 2000.0});
        painter.setPen(QPen(nan_hatch_color(options.dark), std::max(1.0, spacing * 0.18)));
        for (double d = -heat.height(); d < heat.width(); d += spacing)
            painter.drawLine(QPointF(heat.left() + d, heat.bottom()),
                             QPointF(heat.left() + d + heat.height(), heat.top()));
    }
    const QImage& image = m_images[index];
    const QRectF full(QPointF(map_x(ce.lo), map_y(re.lo)), QPointF(map_x(ce.hi()), map_y(re.hi())));
    const QImage& whole = m_wholeImages[index];
    const Extent& wre = m_wholeRowExtent[index];
    const Extent& wce = m_wholeColExtent[index];
    if (!whole.isNull() && wre.count > 0 && wce.count > 0) {
        // The whole matrix, in the same colours, wherever the window's cells do not reach: a pan or a
        // zoom out shows the picture at once, coarser, until the new window arrives. (Not under the
        // window: its masked cells must show the hatch, not the whole matrix's block means.)
        const QRectF wfull(QPointF(map_x(wce.lo), map_y(wre.lo)), QPointF(map_x(wce.hi()), map_y(wre.hi())));
        const QRectF visible = wfull.intersected(heat);
        if (visible.isValid()) {
            painter.save();
            painter.setRenderHint(QPainter::Antialiasing, false); // no seam along the window's edge
            if (re.count > 0 && ce.count > 0) {
                QPainterPath outside;
                outside.addRect(heat);
                QPainterPath window;
                window.addRect(full);
                painter.setClipPath(outside.subtracted(window), Qt::IntersectClip);
            }
            const double sx = whole.width() / wfull.width(), sy = whole.height() / wfull.height();
            const QRectF source((visible.left() - wfull.left()) * sx, (visible.top() - wfull.top()) * sy,
                                visible.width() * sx, visible.height() * sy);
            painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
            painter.drawImage(visible, whole, source);
            painter.restore();
        }
    }
    if (re.count > 0 && ce.count > 0) {
        const QRectF visible = full.intersected(heat);
        if (visible.isValid()) {
            // Only the visible part of the image, at its native resolution, scaled without smoothing:
            // cells stay crisp and deep zooms do not scale a huge image.
            const double sx = image.width() / full.width(), sy = image.height() / full.height();
            const QRectF source((visible.left() - full.left()) * sx, (visible.top() - full.top()) * sy,
                                visible.width() * sx, visible.height() * sy);
            painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
            painter.drawImage(visible, image, source);
        }
    }
    painter.restore();
    paintLinkedRow(painter, index, heat, options);

    painter.save();
    painter.setPen(QPen(colors.axis, 1.0 * colors.line_scale));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(heat);

    const QFontMetricsF fk(fonts.tick, painter.device());
    const double tick_len = fk.height() * 0.3;
    painter.setFont(fonts.tick);
    // A sentence's words label the axes when every visible position gets a cell wide (tall) enough for
    // some text; elided to the cell. Otherwise, and for positions without a word, position numbers.
    const auto col_words = token_ticks(colTokens(index), m_view.col0, m_view.col0 + m_view.cols, heat.width(),
                                       fk.height() * 1.2);
    const auto row_words = token_ticks(rowTokens(index), m_view.row0, m_view.row0 + m_view.rows,
                                       heat.height(), fk.height() * 0.9);
    if (g.xTicks && !col_words.empty()) {
        const double cell = heat.width() / m_view.cols;
        for (const auto& [t, word] : col_words) {
            const double x = map_x(static_cast<double>(t) + 0.5);
            painter.setPen(QPen(colors.axis, 1.0));
            painter.drawLine(QPointF(x, heat.bottom()), QPointF(x, heat.bottom() + tick_len));
            painter.setPen(colors.text);
            const QString s = fk.elidedText(word, Qt::ElideRight, cell - 2);
            painter.drawText(QRectF(x - cell / 2, heat.bottom() + tick_len, cell, fk.height()),
                             Qt::AlignCenter, s);
        }
    } else if (g.xTicks) {
        const double label_w = fk.horizontalAdvance(format_number(std::floor(m_view.col0 + m_view.cols)));
        const int max_ticks = std::max(2, static_cast<int>(heat.width() / (label_w * 1.8 + fk.height())));
        for (double t : position_ticks(m_view.col0, m_view.col0 + m_view.cols, max_ticks)) {
            const double x = map_x(t + 0.5);
            if (x < heat.left() - 0.5 || x > heat.right() + 0.5)
                continue;
            painter.setPen(QPen(colors.axis, 1.0 * colors.line_scale));
            painter.drawLine(QPointF(x, heat.bottom()), QPointF(x, heat.bottom() + tick_len));
            painter.setPen(colors.muted);
            const QString s = format_number(t);
            const double w = fk.horizontalAdvance(s);
            painter.drawText(QRectF(x - w / 2 - 2, heat.bottom() + tick_len, w + 4, fk.height()),
                             Qt::AlignCenter, s);
        }
    }
    if (g.yTicks && !row_words.empty()) {
        const double max_w = fk.height() * kMaxTokenLabelLines;
        for (const auto& [t, word] : row_words) {
            const double y = map_y(static_cast<double>(t) + 0.5);
            painter.setPen(QPen(colors.axis, 1.0));
            painter.drawLine(QPointF(heat.left() - tick_len, y), QPointF(heat.left(), y));
            painter.setPen(colors.text);
            const QString s = fk.elidedText(word, Qt::ElideRight, max_w);
            const double w = fk.horizontalAdvance(s) + 4;
            painter.drawText(QRectF(heat.left() - tick_len - w - 2, y - fk.height() / 2, w, fk.height()),
                             Qt::AlignRight | Qt::AlignVCenter, s);
        }
    } else if (g.yTicks) {
        const int max_ticks = std::max(2, static_cast<int>(heat.height() / (fk.height() * 2.2)));
        for (double t : position_ticks(m_view.row0, m_view.row0 + m_view.rows, max_ticks)) {
            const double y = map_y(t + 0.5);
            if (y < heat.top() - 0.5 || y > heat.bottom() + 0.5)
                continue;
            painter.setPen(QPen(colors.axis, 1.0 * colors.line_scale));
            painter.drawLine(QPointF(heat.left() - tick_len, y), QPointF(heat.left(), y));
            painter.setPen(colors.muted);
            const QString s = format_number(t);
            const double w = fk.horizontalAdvance(s) + 4;
            painter.drawText(QRectF(heat.left() - tick_len - w - 2, y - fk.height() / 2, w, fk.height()),
                             Qt::AlignRight | Qt::AlignVCenter, s);
        }
    }
    painter.setPen(colors.text);
    for (const CaptionLine& line : captionLines(index, g, fonts, painter.device())) {
        painter.setFont(line.font);
        painter.drawText(line.rect, Qt::AlignHCenter | Qt::AlignTop, line.text);
    }
    painter.restore();
}

QList<HeatmapView::CaptionLine> HeatmapView::captionLines(int index, const PanelGeometry& g,
                                                          const Fonts& fonts, QPaintDevice* device) const
{
    QList<CaptionLine> out;
    const QString& name = m_data.panels[index].label;
    const QString range = panelRangeText(index);
    if ((name.isEmpty() && range.isEmpty()) || g.label.height() <= 0 || g.label.width() <= 0)
        return out;
    // Narrow small multiples: shrink a caption line (down to `min_scale` of the label font) before eliding
    // it, so a slope such as "m₁₃=0.0055" stays readable instead of becoming "m₁₃=0.00…". computeLayout
    // chose the grid so that this suffices.
    const auto at_scale = [&](double scale) {
        QFont font = fonts.label;
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * scale);
        else
            font.setPixelSize(std::max(1, static_cast<int>(font.pixelSize() * scale)));
        return font;
    };
    const auto line = [&](const QString& text, const QRectF& rect, double start, double min_scale) {
        QFont font = at_scale(start);
        const double full = QFontMetricsF(font, device).horizontalAdvance(text);
        if (full > rect.width() && full > 0) {
            // Text width is not exactly proportional to the point size (hinting): shrink in small steps
            // until it fits, so that a caption a hair too wide is not elided at almost its full size.
            for (double scale = start * std::min(1.0, rect.width() / full);; scale -= 0.03) {
                scale = std::max(min_scale, scale);
                font = at_scale(scale);
                if (scale <= min_scale || QFontMetricsF(font, device).horizontalAdvance(text) <= rect.width())
                    break;
            }
        }
        const QFontMetricsF fm(font, device);
        out.append({fm.elidedText(text, Qt::ElideRight, rect.width()), font, rect});
    };
    if (!range.isEmpty() && g.twoLineCaption) {
        // Two lines (computeLayout made room for them at captionScale): the panel's name, then the range
        // of its colours.
        const double h = QFontMetricsF(at_scale(g.captionScale), device).height();
        line(name, QRectF(g.label.left(), g.label.top(), g.label.width(), h), g.captionScale,
             kMinTwoLineScale);
        if (g.rangeSplit) { // its ends on two lines, the ellipsis leading the second: "−5.6", "…−0.022"
            const qsizetype dots = range.indexOf(QChar(0x2026));
            line(range.left(dots), QRectF(g.label.left(), g.label.top() + h, g.label.width(), h),
                 g.captionScale, kMinTwoLineScale);
            line(range.mid(dots), QRectF(g.label.left(), g.label.top() + 2 * h, g.label.width(), h),
                 g.captionScale, kMinTwoLineScale);
            return out;
        }
        line(range, QRectF(g.label.left(), g.label.top() + h, g.label.width(), h), g.captionScale,
             kMinTwoLineScale);
        return out;
    }
    // With one colour scale per panel, each caption says what its colours span. A caption of several
    // parts ("RoPE · logits", the methods side by side) that does not fit even at 70 % keeps its first
    // part and the range rather than losing the range to the ellipsis (the figure's title names the
    // kind; the readout has the whole caption).
    const QFontMetricsF fl(fonts.label, device);
    QString label = withPanelRange(index, name);
    if (const qsizetype dot = name.indexOf(QStringLiteral(" · "));
        dot > 0 && fl.horizontalAdvance(label) * 0.7 > g.label.width())
        label = withPanelRange(index, name.left(dot));
    line(label, g.label, 1.0, 0.7);
    return out;
}

QList<QStringList> HeatmapView::screenCaptions() const
{
    const Fonts fonts{scaled_font(font(), 1.0, 1.2, true), scaled_font(font(), 1.0),
                      scaled_font(font(), 1.0, 0.9)};
    auto* device = const_cast<HeatmapView*>(this);
    const Layout L = computeLayout(QRectF(rect()).adjusted(4, 0, -4, -4), fonts, device);
    QList<QStringList> out;
    for (qsizetype i = 0; i < L.panels.size(); ++i) {
        QStringList lines;
        for (const CaptionLine& l : captionLines(static_cast<int>(i), L.panels[i], fonts, device))
            lines << l.text;
        out << lines;
    }
    return out;
}

void HeatmapView::paintColorbar(QPainter& painter, const Layout& L, const Fonts& fonts,
                                const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    const QRectF bar = L.colorbar;
    if (bar.height() < 10)
        return;
    const QVector<QRgb> table = colormap_table(m_colormap);
    QImage strip(1, kColormapSize, QImage::Format_RGB32);
    for (int i = 0; i < kColormapSize; ++i)
        strip.setPixel(0, kColormapSize - 1 - i, table[i]); // high values on top
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(bar, strip);
    painter.setPen(QPen(colors.axis, 1.0 * colors.line_scale));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);

    const QFontMetricsF fk(fonts.tick, painter.device());
    const double tick_len = fk.height() * 0.3;
    bool integer = true;
    double data_min = std::numeric_limits<double>::infinity(), data_max = -data_min;
    for (qsizetype i = 0; i < m_data.panels.size(); ++i) {
        const MatrixResult& m = scaleMatrix(static_cast<int>(i));
        integer = integer && m.is_integer;
        data_min = std::min(data_min, m.min);
        data_max = std::max(data_max, m.max);
    }
    const double lo = m_range.lo, hi = m_range.hi;
    painter.setFont(fonts.tick);
    double label_right = bar.right();
    if (usesPanelScales()) {
        // Every panel spans the whole strip with its own values (in its caption): no shared ticks.
        painter.setPen(colors.muted);
        painter.drawText(QRectF(L.colorbarArea.left(), bar.top() - fk.height() * 1.25, L.colorbarArea.width(),
                                fk.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("panel max"));
        painter.drawText(QRectF(L.colorbarArea.left(), bar.bottom() + fk.height() * 0.25,
                                L.colorbarArea.width(), fk.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("panel min"));
        data_max = std::numeric_limits<double>::quiet_NaN(); // no shared extremes below
    } else if (hi > lo) {
        const int max_ticks = std::max(2, static_cast<int>(bar.height() / (fk.height() * 1.8)));
        for (double t : nice_ticks(lo, hi, max_ticks)) {
            if (integer && t != std::floor(t))
                continue;
            // Half-differences: hi - lo is infinite for a +-1e300 range.
            const double y = bar.bottom() - (t * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5) * bar.height();
            painter.setPen(QPen(colors.axis, 1.0 * colors.line_scale));
            painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + tick_len, y));
            painter.setPen(colors.muted);
            const QString s = format_number(t);
            const double w = fk.horizontalAdvance(s);
            const QRectF box(bar.right() + tick_len + 2, y - fk.height() / 2, w + 2, fk.height());
            painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, s);
            label_right = std::max(label_right, box.right());
        }
    }
    // Data extremes above and below the strip (for the diverging map they differ from its ends).
    painter.setPen(colors.muted);
    if (std::isfinite(data_max)) {
        painter.drawText(QRectF(L.colorbarArea.left(), bar.top() - fk.height() * 1.25, L.colorbarArea.width(),
                                fk.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("max %1").arg(format_number(data_max)));
        painter.drawText(QRectF(L.colorbarArea.left(), bar.bottom() + fk.height() * 0.25,
                                L.colorbarArea.width(), fk.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("min %1").arg(format_number(data_min)));
    }
    // Rotated beside the ticks: the value's name, then (muted, at the right edge) which scale the
    // colours use, the whole matrix's or the visible window's.
    const QString value_label = matrixLabel(m_data.panels.front().matrix.value_label);
    const double scale_w = fk.height() * 1.3;
    const auto rotated_text = [&](double x, double w, const QFont& font, const QColor& color,
                                  const QString& text) {
        const QFontMetricsF fm(font, painter.device());
        painter.save();
        painter.setFont(font);
        painter.setPen(color);
        painter.translate(x + w / 2, bar.center().y());
        painter.rotate(-90);
        const QRectF rotated(-bar.height() / 2, -w / 2, bar.height(), w);
        painter.drawText(rotated, Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, rotated.width()));
        painter.restore();
    };
    if (!value_label.isEmpty()) {
        const QFontMetricsF fl(fonts.label, painter.device());
        const double x =
            std::max(label_right + fl.height() * 0.2, L.colorbarArea.right() - scale_w - fl.height());
        rotated_text(x, fl.height(), fonts.label, colors.text, value_label);
        label_right = x + fl.height();
    }
    const double x = std::max(label_right + fk.height() * 0.15, L.colorbarArea.right() - fk.height());
    rotated_text(x, fk.height(), fonts.tick, colors.muted, scaleLabel());
    painter.restore();
}

void HeatmapView::renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    paintFigure(painter, target, options);
    painter.restore();
}

QList<QRectF> HeatmapView::heatmapRects(const QRectF& target, const RenderOptions& options) const
{
    // Mirrors paintFigure's geometry (with the default paint device's font metrics, as a QImage has).
    const Fonts fonts{scaled_font(font(), options.font_scale, 1.2, true),
                      scaled_font(font(), options.font_scale), scaled_font(font(), options.font_scale, 0.9)};
    QRectF area = target.adjusted(4, 0, -4, -4);
    if (!options.caption.isEmpty())
        area.setBottom(area.bottom() - QFontMetricsF(fonts.tick).height() * 1.3);
    QList<QRectF> rects;
    for (const PanelGeometry& g : computeLayout(area, fonts, nullptr).panels)
        rects.append(g.heat);
    return rects;
}

} // namespace posatlas::ui
