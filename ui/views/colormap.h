// SPDX-License-Identifier: GPL-3.0-or-later
// Colour maps for heatmaps: 256-entry tables and the value -> entry mapping shared by the heatmap
// view, its colour bar and the tests.
//
// The sequential maps are matplotlib's perceptually uniform tables (van der Walt & Smith's viridis and
// magma, Nuñez et al.'s cividis), copied entry for entry from lib/matplotlib/_cm_listed.py; the
// diverging map is matplotlib's "coolwarm" (Moreland 2009) sampled so that its neutral centre is
// exactly entry 128, the entry that value 0 falls into when the range is symmetric about 0.
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringView>
#include <QVector>

#include <optional>

namespace posatlas::ui {

enum class Colormap { Viridis, Magma, Cividis, Diverging };

inline constexpr int kColormapSize = 256;
// Entry of the diverging table that holds the neutral centre colour (coolwarm at x = 0.5).
inline constexpr int kDivergingCentre = 128;

// The 256 colours of a map, darkest/most negative first. Each channel is matplotlib's float value
// rounded to 8 bits (as matplotlib.colors.to_hex does, so viridis runs from #440154 to #fde725).
QVector<QRgb> colormap_table(Colormap map);

// Stable ids for settings and the command line ("viridis", "magma", "cividis", "diverging") and
// translated display names.
QString colormap_id(Colormap map);
QString colormap_name(Colormap map);
std::optional<Colormap> parse_colormap(QStringView id);
QList<Colormap> all_colormaps();

// The map that suits a matrix: diverging for signed data (logits, biases), viridis otherwise.
Colormap default_colormap(bool is_signed);

// The value interval mapped onto a table. Sequential maps span [min, max]; the diverging map spans
// [-a, a] with a = max(|min|, |max|), so that 0 always lands on the centre entry.
struct ColorRange {
    double lo = 0.0;
    double hi = 1.0;
};
ColorRange color_range(Colormap map, double min, double max);

// Table entry of `value` within `range`: floor((value - lo) / (hi - lo) * 256) clamped to [0, 255]
// (matplotlib's Normalize followed by Colormap.__call__); -1 for NaN. A degenerate range (hi <= lo)
// maps every finite value to the middle entry.
int colormap_index(double value, const ColorRange& range);

// Colour of cells without a value (NaN: causal mask, missing embedding); a neutral grey that the hatch
// pattern is drawn over. `hatch` is the colour of the hatch lines.
QColor nan_fill_color(bool dark);
QColor nan_hatch_color(bool dark);

} // namespace posatlas::ui
