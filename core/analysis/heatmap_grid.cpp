// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/heatmap_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas {

namespace {

void panel_size(int count, int columns, double width, double height, const PanelChrome& c, double aspect,
                bool keep_aspect, double& w, double& h)
{
    const int rows = (count + columns - 1) / columns;
    w = (width + c.gap) / columns - c.gap - c.tick_width;
    h = (height + c.gap) / rows - c.gap - c.tick_height - c.caption_height;
    if (keep_aspect && aspect > 0.0) {
        w = std::min(w, h * aspect);
        h = w / aspect;
    }
}

} // namespace

bool heatmap_keeps_aspect(double aspect)
{
    return aspect > 1.0 / 3.0 && aspect < 3.0;
}

HeatmapGrid heatmap_grid_with_columns(int count, int columns, double width, double height,
                                      const PanelChrome& chrome, double aspect, bool keep_aspect)
{
    HeatmapGrid g;
    count = std::max(count, 1);
    g.columns = std::clamp(columns, 1, count);
    g.rows = (count + g.columns - 1) / g.columns;
    panel_size(count, g.columns, width, height, chrome, aspect, keep_aspect, g.panel_width, g.panel_height);
    return g;
}

HeatmapGrid heatmap_grid(int count, double width, double height, const PanelChrome& chrome, double aspect,
                         bool keep_aspect)
{
    HeatmapGrid g;
    count = std::max(count, 1);
    double best = -std::numeric_limits<double>::infinity();
    for (int c = 1; c <= count; ++c) {
        const HeatmapGrid at =
            heatmap_grid_with_columns(count, c, width, height, chrome, aspect, keep_aspect);
        if (std::min(at.panel_width, at.panel_height) > best) {
            best = std::min(at.panel_width, at.panel_height);
            g = at;
        }
    }
    return g;
}

PanelPixels panel_pixel_budget(const HeatmapGrid& grid, std::int64_t min_pixels)
{
    const auto whole = [&](double v) {
        return std::max<std::int64_t>(min_pixels, std::isfinite(v) ? std::llround(std::ceil(v - 1e-6)) : 0);
    };
    return {whole(grid.panel_width), whole(grid.panel_height)};
}

} // namespace posatlas
