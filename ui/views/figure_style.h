// SPDX-License-Identifier: GPL-3.0-or-later
// The look every figure shares: theme colours, fonts, series colours, tick placement, number labels, and
// title and caption lines. The hand-painted figures (heatmap, rotation diagram, the explorer's plots) and
// the Qt Charts curves (curve_chart.h) all draw with these.
#pragma once

#include "jobs/figure_numbers.h"

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <vector>

class QPainter;
class QPalette;

namespace posatlas::ui {

// ----------------------------------------------------------------- colours, fonts
struct FigureColors {
    QColor background, text, muted, axis, grid, overlay; // overlay: readout box background
    double line_scale = 1.0; // multiplies the width of axis lines and curves (high contrast: thicker)
};
// The light colours become the high-contrast theme while it is on (see set_high_contrast_figures).
FigureColors figure_colors(bool dark);
// The high-contrast light theme of presentation mode (window/presentation.h): white background, black
// text, axes and secondary text (no light grey text), darker series colours and thicker lines. One
// switch for the whole application, like its palette: the views repaint on the palette change that
// comes with it, and exports made meanwhile look like the screen. Dark figures are not affected.
void set_high_contrast_figures(bool on);
bool high_contrast_figures();
// True when the palette's window colour is dark (lightness < 128): the views then switch to dark colours.
bool palette_is_dark(const QPalette& palette);
// `base` with its point size multiplied by scale * relative (pixel-sized fonts are scaled in pixels).
QFont scaled_font(const QFont& base, double scale, double relative = 1.0, bool bold = false);
// Line colours for series without their own colour (matplotlib's tab10, lightened on dark backgrounds):
// indices 10 to 19 a darker shade of 0 to 9.
QColor series_color(int index, bool dark);

// Ticks and numbers (nice_ticks, widen_degenerate_range, format_number): jobs/figure_numbers.h.

// ----------------------------------------------------------------- title and caption lines
// Paints a title line (bold) and returns the remaining rect below it; and a caption line at the bottom,
// returning the rect above it. Both elide rather than clip.
QRectF paint_title(QPainter& painter, const QRectF& rect, const QString& title, const QFont& font,
                   const QColor& color);
// The lines a title takes in `width`: one when it fits; else two, broken after the last " · " (or " • ")
// separator that keeps the first line within the width ("RoPE · θ 10000 · d 128 · N 256" / "注意力分数
// (logit)"), the second elided only if it still does not fit. paint_title draws them.
QStringList title_lines(const QString& title, const QFontMetricsF& fm, double width);
// The lines a caption takes in `width`, never eliding a number away: whole when it fits; else broken at
// its " · " separators into as many lines as needed ("pair 32" / "θ = 5.25e-05"), a piece still too wide
// between its words ("wavelength" / "1.12e+03"), a single word too wide elided as the last resort.
QStringList caption_lines(const QString& caption, const QFontMetricsF& fm, double width);
QRectF paint_caption(QPainter& painter, const QRectF& rect, const QString& caption, const QFont& font,
                     const QColor& color);

// ----------------------------------------------------------------- readout boxes
// Where a readout box of `length` starts along one axis so that it stays clear of the band [lo, hi] (the
// hovered row or column, a crosshair line) by `gap`, inside [min, max]: after the band when it fits
// there, else before it, else on the side with more room, moved inside [min, max] as far as it must be
// (then it may cover the band; a box longer than [min, max] starts at min).
double readout_offset(double length, double lo, double hi, double min, double max, double gap);
// A readout box of `size` beside `anchor` (the hovered cell and the cursor) inside `bounds`: diagonally
// below right, flipped left and / or up where it would leave `bounds`. It covers neither the anchor's
// rows nor its columns when there is room beside the anchor on both axes, and one of them at most when
// there is room on one.
QRectF place_readout_box(const QSizeF& size, const QRectF& anchor, const QRectF& bounds, double gap);

} // namespace posatlas::ui
