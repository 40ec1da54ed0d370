// SPDX-License-Identifier: GPL-3.0-or-later
// Both halves of the figure helpers in one include: the shared figure style (figure_style.h) and the Qt
// Charts curve chart (curve_chart.h). New code includes the one it needs.
#pragma once

#include "curve_chart.h"
#include "figure_style.h"
