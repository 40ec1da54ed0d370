// SPDX-License-Identifier: GPL-3.0-or-later
// HeatmapView: the figure's layout (title, colour bar, axis titles, tick labels and the panels' grid,
// heatmap_grid's), used by painting, export and the screen geometry of interaction.
#include "views/heatmap_layout.h"

#include "jobs/heatmap_grid.h"
#include "views/figure_style.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

// ----------------------------------------------------------------- layout

double HeatmapView::colorbarWidth(const Fonts& fonts, QPaintDevice* device) const
{
    // Strip, tick labels, rotated value label; "max"/"min" lines above/below.
    const QFontMetricsF fl(fonts.label, device), fk(fonts.tick, device);
    double tick_w = 0;
    for (double t : nice_ticks(m_range.lo, m_range.hi, 8))
        tick_w = std::max(tick_w, fk.horizontalAdvance(format_number(t)));
    tick_w = std::max({tick_w, fk.horizontalAdvance(format_number(m_range.lo)),
                       fk.horizontalAdvance(format_number(m_range.hi))});
    const double bar_w = fl.height() * 0.9;
    const QString value_label = matrixLabel(m_data.panels.front().matrix.value_label);
    // Strip, ticks, the value's name and, beside it, which scale the colours use (both rotated).
    const double cb_w = bar_w + fk.height() * 0.5 + tick_w + (value_label.isEmpty() ? 0 : fl.height() * 1.4) +
                        fk.height() * 1.3;
    double data_min = std::numeric_limits<double>::infinity(), data_max = -data_min;
    for (qsizetype i = 0; i < m_data.panels.size(); ++i) {
        const MatrixResult& m = scaleMatrix(static_cast<int>(i));
        data_min = std::min(data_min, m.min);
        data_max = std::max(data_max, m.max);
    }
    return std::max({cb_w, fk.horizontalAdvance(tr("max %1").arg(format_number(data_max))),
                     fk.horizontalAdvance(tr("min %1").arg(format_number(data_min)))});
}

HeatmapView::TickSpace HeatmapView::tickSpace(const Fonts& fonts, QPaintDevice* device) const
{
    // The widest position label on the left, one text line below.
    const QFontMetricsF fk(fonts.tick, device);
    const qsizetype n = m_data.panels.size();
    const double tick_len = fk.height() * 0.3;
    double max_pos = 0;
    for (qsizetype i = 0; i < n; ++i)
        max_pos = std::max({max_pos, std::abs(m_rowExtent[i].hi()), std::abs(m_colExtent[i].hi())});
    double label_w = fk.horizontalAdvance(format_number(std::floor(max_pos)));
    for (qsizetype i = 0; i < n; ++i)
        for (const QString& t : rowTokens(static_cast<int>(i))) // words label the rows when they fit
            label_w = std::max(label_w, std::min(fk.horizontalAdvance(t), fk.height() * kMaxTokenLabelLines));
    TickSpace t;
    t.width = label_w + tick_len + fk.height() * 0.3;
    t.height = fk.height() + tick_len + fk.height() * 0.15;
    // Panels of different sentences (a sentence beside its permutation) label their own axes.
    t.shared = m_data.panels.front().row_tokens.isEmpty();
    for (qsizetype i = 1; i < n; ++i)
        t.shared = t.shared && m_rowExtent[i].lo == m_rowExtent[0].lo &&
                   m_rowExtent[i].hi() == m_rowExtent[0].hi() && m_colExtent[i].lo == m_colExtent[0].lo &&
                   m_colExtent[i].hi() == m_colExtent[0].hi();
    return t;
}

HeatmapView::GridPlan HeatmapView::planGrid(const QSizeF& avail, PanelChrome chrome, const Fonts& fonts,
                                            QPaintDevice* device) const
{
    // The grid is heatmap_grid's (the one the job computed the panels' pixels for): the column count that
    // gives the largest heatmaps, unless the captions need two lines (below).
    const QFontMetricsF fl(fonts.label, device);
    const qsizetype n = m_data.panels.size();
    const double aspect = m_view.rows > 0 ? m_view.cols / m_view.rows : 1.0;
    const bool keep_aspect = heatmap_keeps_aspect(aspect);
    const auto grid_for = [&](double caption_h) {
        PanelChrome c = chrome;
        c.caption_height = caption_h;
        return heatmap_grid(static_cast<int>(n), avail.width(), avail.height(), c, aspect, keep_aspect);
    };
    const auto grid_at = [&](int columns, double caption_h) {
        PanelChrome c = chrome;
        c.caption_height = caption_h;
        return heatmap_grid_with_columns(static_cast<int>(n), columns, avail.width(), avail.height(), c,
                                         aspect, keep_aspect);
    };
    bool any_label = false;
    for (const HeatmapPanel& p : m_data.panels)
        any_label = any_label || !p.label.isEmpty();
    GridPlan plan;
    plan.label_h = any_label ? fl.height() * 1.15 : 0.0;
    plan.grid = grid_for(plan.label_h);
    if (!any_label || !usesPanelScales())
        return plan;
    // A caption may take its panel's whole share of the row (the heatmap's width, its tick labels and
    // most of the gap), centred over the heatmap: captions never meet their neighbours.
    const auto caption_width = [&](double heat_w) { return heat_w + chrome.tick_width + chrome.gap * 0.7; };
    // The font scale (at most 1) at which every caption with its panel's range fits `width`: on one
    // line ("m₆=0.0078 (−1.9…0)") or on two (name, then range).
    double need_one = 0, need_two = 0;
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
    if (caption_scale(caption_width(plan.grid.panel_width), false) >= 0.7)
        return plan;
    // One line does not fit even at 70 % (paintPanel shrinks it that far): the name, then the range
    // below it, in a band as tall as the two lines at the size they need. The figure has priority,
    // but a caption that loses its slope or its range to the ellipsis says nothing (narrow panels,
    // large presentation text): the largest heatmaps whose captions fit at kMinTwoLineScale or
    // more, at fewer columns if need be.
    const auto two_lines_height = [&](double scale) { return fl.height() * (2.0 * scale + 0.2); };
    int fit_cols = 0;
    double fit_best = -1, fit_scale = kMinTwoLineScale;
    for (int c = 1; c <= n; ++c) {
        // The largest scale at which the captions fit the panels that a band for that scale
        // leaves (a taller band, narrower panels: one crossing, found by bisection).
        const auto fits = [&](double scale) {
            return caption_scale(caption_width(grid_at(c, two_lines_height(scale)).panel_width), true) >=
                   scale;
        };
        double scale = 1.0;
        if (!fits(1.0)) {
            double lo = kMinTwoLineScale, hi = 1.0;
            for (int round = 0; round < 12; ++round)
                (fits(0.5 * (lo + hi)) ? lo : hi) = 0.5 * (lo + hi);
            scale = fits(lo) ? lo : 0.0;
        }
        const HeatmapGrid g = grid_at(c, two_lines_height(scale));
        if (scale >= kMinTwoLineScale && std::min(g.panel_width, g.panel_height) > fit_best) {
            fit_best = std::min(g.panel_width, g.panel_height);
            fit_cols = c;
            fit_scale = scale;
        }
    }
    plan.two_lines = true;
    if (fit_cols == 0) {
        // Two lines fit no column count (a long range, "−5.6…−0.022", at presentation sizes): the range
        // on two lines of its own, its ends, at the largest scale the widest line allows.
        double need_three = 0;
        for (qsizetype i = 0; i < n; ++i) {
            const QString range = panelRangeText(static_cast<int>(i));
            const qsizetype dots = range.indexOf(QChar(0x2026));
            need_three =
                std::max({need_three, fl.horizontalAdvance(m_data.panels[i].label),
                          fl.horizontalAdvance(range.left(dots)), fl.horizontalAdvance(range.mid(dots))});
        }
        const auto three_lines_height = [&](double scale) { return fl.height() * (3.0 * scale + 0.2); };
        double best = -1;
        for (int c = 1; c <= n; ++c) {
            for (double scale = 1.0; scale >= kMinTwoLineScale - 1e-9; scale -= 0.05) {
                const HeatmapGrid g = grid_at(c, three_lines_height(scale));
                if (need_three * scale > caption_width(g.panel_width))
                    continue;
                if (std::min(g.panel_width, g.panel_height) > best) {
                    best = std::min(g.panel_width, g.panel_height);
                    fit_cols = c;
                    fit_scale = scale;
                }
                break;
            }
        }
        if (fit_cols > 0) {
            plan.range_split = true;
            plan.caption_font = fit_scale;
            plan.label_h = three_lines_height(fit_scale);
            plan.grid = grid_at(fit_cols, plan.label_h);
            return plan;
        }
    }
    plan.caption_font = fit_scale; // none fit: the smallest size, elided where still too wide
    plan.label_h = two_lines_height(plan.caption_font);
    plan.grid = fit_cols > 0 ? grid_at(fit_cols, plan.label_h) : grid_for(plan.label_h);
    return plan;
}

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

    const double cb_w = colorbarWidth(fonts, device);
    L.colorbarArea = QRectF(r.right() - cb_w, r.top(), cb_w, r.height());
    r.setRight(r.right() - cb_w - pad * 3);
    // Axis titles, shared by all panels.
    L.yTitle = QRectF(r.left(), r.top(), fl.height(), r.height());
    r.setLeft(r.left() + fl.height() * 1.25);
    L.xTitle = QRectF(r.left(), r.bottom() - fl.height(), r.width(), fl.height());
    r.setBottom(r.bottom() - fl.height() * 1.25);

    const TickSpace ticks = tickSpace(fonts, device);
    // The panels' area: a shared grid has one row of tick labels on the left and one below.
    L.panelArea = QSizeF(r.width() - (ticks.shared ? ticks.width : 0.0),
                         r.height() - (ticks.shared ? ticks.height : 0.0));
    PanelChrome chrome;
    chrome.gap = n > 1 ? fl.height() * 0.9 : 0.0;
    if (!ticks.shared) {
        chrome.tick_width = ticks.width;
        chrome.tick_height = ticks.height;
    }
    const GridPlan plan = planGrid(L.panelArea, chrome, fonts, device);
    L.chrome = chrome;
    L.chrome.caption_height = plan.label_h;
    placePanels(L, r, plan, chrome, ticks, fk.height() * 1.3, pad, fl.height(), fl.height() * 0.9);
    return L;
}

void HeatmapView::placePanels(Layout& L, const QRectF& r, const GridPlan& plan, const PanelChrome& chrome,
                              const TickSpace& ticks, double text_h, double pad, double label_line,
                              double bar_w) const
{
    const qsizetype n = m_data.panels.size();
    const int grid_cols = plan.grid.columns, grid_rows = plan.grid.rows;
    const QSizeF hs(plan.grid.panel_width, plan.grid.panel_height);
    if (hs.width() < 4 || hs.height() < 4)
        return;
    const double gap = chrome.gap, label_h = plan.label_h;
    const double ytick_w = ticks.width, xtick_h = ticks.height;
    const bool shared = ticks.shared;
    // Panels at a fixed pitch; the block (tick labels included) is centred in the free space so that
    // the axis titles and the colour bar stay next to the heatmaps instead of at the far edges.
    const double pitch_x = hs.width() + gap + (shared ? 0.0 : ytick_w);
    const double pitch_y = label_h + hs.height() + gap + (shared ? 0.0 : xtick_h);
    const double block_w = grid_cols * pitch_x - gap + (shared ? ytick_w : 0.0);
    const double block_h = grid_rows * pitch_y - gap + (shared ? xtick_h : 0.0);
    const double shift_x = std::max(0.0, (r.width() - block_w) / 2);
    const double shift_y = std::max(0.0, (r.height() - block_h) / 2);
    const double x0 = r.left() + shift_x + ytick_w, y0 = r.top() + shift_y;
    // A caption may take its panel's whole share of the row, centred over the heatmap.
    const double caption_w = hs.width() + chrome.tick_width + gap * 0.7;
    for (qsizetype i = 0; i < n; ++i) {
        const int gc = static_cast<int>(i % grid_cols), gr = static_cast<int>(i / grid_cols);
        PanelGeometry g;
        const double left = x0 + gc * pitch_x, top = y0 + gr * pitch_y;
        g.label = QRectF(left + (hs.width() - caption_w) / 2, top, caption_w, label_h);
        g.heat = QRectF(left, top + label_h, hs.width(), hs.height());
        g.twoLineCaption = plan.two_lines;
        g.rangeSplit = plan.range_split;
        g.captionScale = plan.caption_font;
        g.yTicks = !shared || gc == 0;
        // In a shared grid the x labels go under the lowest panel of each column.
        g.xTicks = !shared || gr == grid_rows - 1 || i + grid_cols >= n;
        L.panels.append(g);
    }
    QRectF heat_union;
    for (const PanelGeometry& g : L.panels)
        heat_union = heat_union.united(g.heat);
    L.colorbarArea.moveLeft(std::min(L.colorbarArea.left(), heat_union.right() + pad * 4));
    L.colorbar = QRectF(L.colorbarArea.left(), heat_union.top() + text_h, bar_w,
                        std::max(10.0, heat_union.height() - 2 * text_h));
    // The axis titles centre on the heatmaps and sit right beside their tick labels.
    L.xTitle = QRectF(heat_union.left(), heat_union.bottom() + xtick_h + label_line * 0.1, heat_union.width(),
                      label_line);
    L.yTitle = QRectF(heat_union.left() - ytick_w - label_line * 1.2, heat_union.top(), label_line,
                      heat_union.height());
}

} // namespace posatlas::ui
