// SPDX-License-Identifier: GPL-3.0-or-later
// Part of the job/view contract (with view_data.h): the grid of a heatmap's panels and each panel's pixel
// budget, one function for the job (core's heatmap_figure) and the painter. It lives in core
// (analysis/heatmap_grid.h), where heatmap_figure plans its panels with it.
#pragma once

#include "analysis/heatmap_grid.h"
