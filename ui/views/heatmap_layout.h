// SPDX-License-Identifier: GPL-3.0-or-later
// Private to heatmap_view.cpp, heatmap_layout.cpp and heatmap_paint.cpp: the fonts one figure is laid
// out and painted with (title, axis labels, tick labels), shared by the layout, the painting and the
// screen geometry used for interaction, and the layout's limits the painting keeps too.
#pragma once

#include "views/heatmap_view.h"

#include <QFont>

namespace posatlas::ui {

// How small a two-line caption (name, then range) may shrink before it is elided: its lines are short,
// and the panels that need it are narrow ones under large (presentation) text.
inline constexpr double kMinTwoLineScale = 0.55;

// Widest a word label on the row axis may be (longer words are elided), in tick-font line heights.
inline constexpr double kMaxTokenLabelLines = 8.0;

struct HeatmapView::Fonts {
    QFont title, label, tick;
};

} // namespace posatlas::ui
