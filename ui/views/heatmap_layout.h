// SPDX-License-Identifier: GPL-3.0-or-later
// Private to heatmap_view.cpp and heatmap_paint.cpp: the fonts one figure is laid out and painted
// with (title, axis labels, tick labels), shared by the layout, the painting and the screen geometry
// used for interaction.
#pragma once

#include "views/heatmap_view.h"

#include <QFont>

namespace posatlas::ui {

struct HeatmapView::Fonts {
    QFont title, label, tick;
};

} // namespace posatlas::ui
