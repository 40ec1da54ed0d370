// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapView: figure layout and painting (layout computation, panels, axes, colour bar), used by
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

// How small a two-line caption (name, then range) may shrink before it is elided: its lines are short,
// and the panels that need it are narrow ones under large (presentation) text.
constexpr double kMinTwoLineScale = 0.55;

// Widest a word label on the row axis may be (longer words are elided), in tick-font line heights.
constexpr double kMaxTokenLabelLines = 8.0;

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

// ----------------------------------------------------------------- layout

HeatmapView::Layout HeatmapView::computeLayout(const QRectF& target, const Fonts& fonts,
                                               QPaintDevice* device) const
{
    Layout L;
    const QFontMetricsF ft(fonts.title, device), fl(fonts.label, device), fk(fonts.tick, device);
    const double pad = fl.height() * 0.4;
    QRectF r = target.adjusted(pad, pad, -pad, -pad);
    if (!m_data.title.isEmpty()) {
        const auto lines = static_cast<double>(title_lines(m_data.title, ft, r.width()).size());
        L.title = QRectF(r.left(), r.top(), r.width(), ft.height() * lines);
        r.setTop(r.top() + ft.height() * (lines + 0.3));
    }
    if (!m_note.isEmpty()) {
        L.note = QRectF(r.left(), r.top(), r.width(), fk.height());
        r.setTop(r.top() + fk.height() * 1.4);
    }
    const qsizetype n = m_data.panels.size();
    if (n == 0 || r.width() < 20 || r.height() < 20)
        return L;

    // Colour bar on the right: strip, tick labels, rotated value label; "max"/"min" lines above/below.
    double tick_w = 0;
    for (double t : nice_ticks(m_range.lo, m_range.hi, 8))
        tick_w = std::max(tick_w, fk.horizontalAdvance(format_number(t)));
    tick_w = std::max({tick_w, fk.horizontalAdvance(format_number(m_range.lo)),
                       fk.horizontalAdvance(format_number(m_range.hi))});
    const double bar_w = fl.height() * 0.9;
    const QString value_label = matrixLabel(m_data.panels.front().matrix.value_label);
    // Strip, ticks, the value's name and, beside it, which scale the colours use (both rotated).
    double cb_w = bar_w + fk.height() * 0.5 + tick_w + (value_label.isEmpty() ? 0 : fl.height() * 1.4) +
                  fk.height() * 1.3;
    double data_min = std::numeric_limits<double>::infinity(), data_max = -data_min;
    for (qsizetype i = 0; i < n; ++i) {
        const MatrixResult& m = scaleMatrix(static_cast<int>(i));
        data_min = std::min(data_min, m.min);
        data_max = std::max(data_max, m.max);
    }
    cb_w = std::max({cb_w, fk.horizontalAdvance(tr("max %1").arg(format_number(data_max))),
                     fk.horizontalAdvance(tr("min %1").arg(format_number(data_min)))});
    L.colorbarArea = QRectF(r.right() - cb_w, r.top(), cb_w, r.height());
    r.setRight(r.right() - cb_w - pad * 3);

    // Axis titles, shared by all panels.
    L.yTitle = QRectF(r.left(), r.top(), fl.height(), r.height());
    r.setLeft(r.left() + fl.height() * 1.25);
    L.xTitle = QRectF(r.left(), r.bottom() - fl.height(), r.width(), fl.height());
    r.setBottom(r.bottom() - fl.height() * 1.25);

    // Tick label space: the widest position label on the left, one text line below.
    const double tick_len = fk.height() * 0.3;
    double max_pos = 0;
    for (qsizetype i = 0; i < n; ++i)
        max_pos = std::max({max_pos, std::abs(m_rowExtent[i].hi()), std::abs(m_colExtent[i].hi())});
    double label_w = fk.horizontalAdvance(format_number(std::floor(max_pos)));
    for (qsizetype i = 0; i < n; ++i)
        for (const QString& t : rowTokens(static_cast<int>(i))) // words label the rows when they fit
            label_w = std::max(label_w, std::min(fk.horizontalAdvance(t), fk.height() * kMaxTokenLabelLines));
    const double ytick_w = label_w + tick_len + fk.height() * 0.3;
    const double xtick_h = fk.height() + tick_len + fk.height() * 0.15;
    // Panels of different sentences (a sentence beside its permutation) label their own axes.
    bool shared = m_data.panels.front().row_tokens.isEmpty();
    for (qsizetype i = 1; i < n; ++i)
        shared = shared && m_rowExtent[i].lo == m_rowExtent[0].lo &&
                 m_rowExtent[i].hi() == m_rowExtent[0].hi() && m_colExtent[i].lo == m_colExtent[0].lo &&
                 m_colExtent[i].hi() == m_colExtent[0].hi();
    bool any_label = false;
    for (const HeatmapPanel& p : m_data.panels)
        any_label = any_label || !p.label.isEmpty();
    double label_h = any_label ? fl.height() * 1.15 : 0.0;
    const double gap = n > 1 ? fl.height() * 0.9 : 0.0;

    // Heatmaps keep the aspect of the window in positions when it is not extreme (N x N logits look
    // square); positions x dimensions of an encoding fill the space instead.
    const double aspect = m_view.rows > 0 ? m_view.cols / m_view.rows : 1.0;
    const bool keep_aspect = aspect > 1.0 / 3.0 && aspect < 3.0;

    // Grid: the column count that gives the largest heatmaps.
    const double avail_w = r.width() - (shared ? ytick_w : 0.0);
    const double avail_h = r.height() - (shared ? xtick_h : 0.0);
    auto heat_size = [&](int c, double caption_h) {
        const int rows = static_cast<int>((n + c - 1) / c);
        const double w = (avail_w + gap) / c - gap - (shared ? 0.0 : ytick_w);
        const double h = (avail_h + gap) / rows - gap - (shared ? 0.0 : xtick_h) - caption_h;
        if (keep_aspect) {
            const double fw = std::min(w, h * aspect);
            return QSizeF(fw, fw / aspect);
        }
        return QSizeF(w, h);
    };
    // A caption may take its panel's whole share of the row (the heatmap's width, its tick labels and
    // most of the gap), centred over the heatmap: captions never meet their neighbours.
    const auto caption_width = [&](double heat_w) { return heat_w + (shared ? 0.0 : ytick_w) + gap * 0.7; };
    // The font scale (at most 1) at which every caption with its panel's range fits `width`: on one
    // line ("m₆=0.0078 (−1.9…0)") or on two (name, then range).
    double need_one = 0, need_two = 0;
    if (any_label && usesPanelScales())
        for (qsizetype i = 0; i < n; ++i) {
            const QString& name = m_data.panels[i].label;
            const int index = static_cast<int>(i);
            need_one = std::max(need_one, fl.horizontalAdvance(withPanelRange(index, name)));
            need_two =
                std::max({need_two, fl.horizontalAdvance(name), fl.horizontalAdvance(panelRangeText(index))});
        }
    const auto caption_scale = [&](double width, bool two_lines) {
        const double need = two_lines ? need_two : need_one;
        return need > 0 ? std::min(1.0, width / need) : 1.0;
    };
    // The caption band for two lines at `scale` of the label font.
    const auto two_lines_height = [&](double scale) { return fl.height() * (2.0 * scale + 0.2); };
    int grid_cols = 1;
    double best = -1;
    for (int c = 1; c <= n; ++c) {
        const QSizeF s = heat_size(c, label_h);
        if (std::min(s.width(), s.height()) > best) {
            best = std::min(s.width(), s.height());
            grid_cols = c;
        }
    }
    bool two_lines = false;
    double caption_font = 1.0;
    if (any_label && usesPanelScales() &&
        caption_scale(caption_width(heat_size(grid_cols, label_h).width()), false) < 0.7) {
        // One line does not fit even at 70 % (paintPanel shrinks it that far): the name, then the range
        // below it, in a band as tall as the two lines at the size they need. The figure has priority,
        // but a caption that loses its slope or its range to the ellipsis says nothing (narrow panels,
        // large presentation text): the largest heatmaps whose captions fit at kMinTwoLineScale or
        // more, at fewer columns if need be.
        int fit_cols = 0;
        double fit_best = -1, fit_scale = kMinTwoLineScale;
        for (int c = 1; c <= n; ++c) {
            // The largest scale at which the captions fit the panels that a band for that scale
            // leaves (a taller band, narrower panels: one crossing, found by bisection).
            const auto fits = [&](double scale) {
                return caption_scale(caption_width(heat_size(c, two_lines_height(scale)).width()), true) >=
                       scale;
            };
            double scale = 1.0;
            if (!fits(1.0)) {
                double lo = kMinTwoLineScale, hi = 1.0;
                for (int round = 0; round < 12; ++round)
                    (fits(0.5 * (lo + hi)) ? lo : hi) = 0.5 * (lo + hi);
                scale = fits(lo) ? lo : 0.0;
            }
            const QSizeF s = heat_size(c, two_lines_height(scale));
            if (scale >= kMinTwoLineScale && std::min(s.width(), s.height()) > fit_best) {
                fit_best = std::min(s.width(), s.height());
                fit_cols = c;
                fit_scale = scale;
            }
        }
        two_lines = true;
        caption_font = fit_scale; // none fit: the smallest size, elided where still too wide
        label_h = two_lines_height(caption_font);
        if (fit_cols > 0) {
            grid_cols = fit_cols;
        } else {
            best = -1;
            for (int c = 1; c <= n; ++c) {
                const QSizeF s = heat_size(c, label_h);
                if (std::min(s.width(), s.height()) > best) {
                    best = std::min(s.width(), s.height());
                    grid_cols = c;
                }
            }
        }
    }
    const int grid_rows = static_cast<int>((n + grid_cols - 1) / grid_cols);
    const QSizeF hs = heat_size(grid_cols, label_h);
    if (hs.width() < 4 || hs.height() < 4)
        return L;
    // Panels at a fixed pitch; the block (tick labels included) is centred in the free space so that
    // the axis titles and the colour bar stay next to the heatmaps instead of at the far edges.
    const double pitch_x = hs.width() + gap + (shared ? 0.0 : ytick_w);
    const double pitch_y = label_h + hs.height() + gap + (shared ? 0.0 : xtick_h);
    const double block_w = grid_cols * pitch_x - gap + (shared ? ytick_w : 0.0);
    const double block_h = grid_rows * pitch_y - gap + (shared ? xtick_h : 0.0);
    const double shift_x = std::max(0.0, (r.width() - block_w) / 2);
    const double shift_y = std::max(0.0, (r.height() - block_h) / 2);
    const double x0 = r.left() + shift_x + ytick_w, y0 = r.top() + shift_y;
    for (qsizetype i = 0; i < n; ++i) {
        const int gc = static_cast<int>(i % grid_cols), gr = static_cast<int>(i / grid_cols);
        PanelGeometry g;
        const double left = x0 + gc * pitch_x, top = y0 + gr * pitch_y;
        const double caption_w = caption_width(hs.width());
        g.label = QRectF(left + (hs.width() - caption_w) / 2, top, caption_w, label_h);
        g.heat = QRectF(left, top + label_h, hs.width(), hs.height());
        g.twoLineCaption = two_lines;
        g.captionScale = caption_font;
        g.yTicks = !shared || gc == 0;
        // In a shared grid the x labels go under the lowest panel of each column.
        g.xTicks = !shared || gr == grid_rows - 1 || i + grid_cols >= n;
        L.panels.append(g);
    }
    QRectF heat_union;
    for (const PanelGeometry& g : L.panels)
        heat_union = heat_union.united(g.heat);
    const double text_h = fk.height() * 1.3;
    L.colorbarArea.moveLeft(std::min(L.colorbarArea.left(), heat_union.right() + pad * 4));
    L.colorbar = QRectF(L.colorbarArea.left(), heat_union.top() + text_h, bar_w,
                        std::max(10.0, heat_union.height() - 2 * text_h));
    // The axis titles centre on the heatmaps and sit right beside their tick labels.
    L.xTitle = QRectF(heat_union.left(), heat_union.bottom() + xtick_h + fl.height() * 0.1,
                      heat_union.width(), fl.height());
    L.yTitle = QRectF(heat_union.left() - ytick_w - fl.height() * 1.2, heat_union.top(), fl.height(),
                      heat_union.height());
    return L;
}

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
