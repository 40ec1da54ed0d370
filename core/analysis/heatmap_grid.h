// SPDX-License-Identifier: GPL-3.0-or-later
// How a heatmap's panels share the view (part of the job/view contract, ui/jobs/view_data.h). One
// function decides the grid of small multiples and each panel's size in pixels, for the job (which
// computes each panel's matrix at that many pixels: one cell per pixel on screen) and for the painter
// (which lays the panels out on that grid). Qt-free.
#pragma once

#include <cstdint>

namespace posatlas {

// What each panel needs besides its heatmap, in the units of the area: the gap between neighbouring
// panels, and (panels that label their own axes, captions) the tick labels' width left of it, their
// height under it and the caption band above it. The view measures it (ViewSettings::panel_chrome);
// all zero, the panels are at most these few pixels larger than the painter's.
struct PanelChrome {
    double gap = 0.0, tick_width = 0.0, tick_height = 0.0, caption_height = 0.0;
};

struct HeatmapGrid {
    int columns = 1, rows = 1;
    double panel_width = 0.0, panel_height = 0.0; // one heatmap, in the area's units
};

// The grid of `count` panels in an area of `width` x `height` (the view's heatmap area: what the title,
// the colour bar and the axis titles leave): the column count that gives the largest heatmaps (largest
// min(width, height); the fewest columns on a tie), and each heatmap's size. With keep_aspect a heatmap
// is as wide as `aspect` (columns / rows of the window) times its height, as large as fits its share.
HeatmapGrid heatmap_grid(int count, double width, double height, const PanelChrome& chrome = {},
                         double aspect = 1.0, bool keep_aspect = true);
// The same grid at a given number of columns (the painter's choice when captions need fewer).
HeatmapGrid heatmap_grid_with_columns(int count, int columns, double width, double height,
                                      const PanelChrome& chrome = {}, double aspect = 1.0,
                                      bool keep_aspect = true);
// A heatmap keeps the window's aspect when it is not extreme (N x N logits look square); positions x
// dimensions of an encoding fill their share instead.
bool heatmap_keeps_aspect(double aspect);
// The panel's size (heatmap_grid's) in whole pixels, at least `min_pixels`: the job's per-panel pixel
// budget for its matrices.
struct PanelPixels {
    std::int64_t width = 0, height = 0;
};
PanelPixels panel_pixel_budget(const HeatmapGrid& grid, std::int64_t min_pixels = 8);

} // namespace posatlas
