// SPDX-License-Identifier: GPL-3.0-or-later
// Part of the job/view contract: the GUI's one number policy and tick placement, shared by the jobs'
// titles and notes (view_jobs.cpp) and the views' axes and readouts (figure_style.h includes it), so that
// neither includes the other's headers for it.
#pragma once

#include <QString>

#include <vector>

namespace posatlas::ui {

// ----------------------------------------------------------------- ticks, numbers
// Hard cap on the ticks or labels of any one axis or colour bar, whatever a caller asks for.
inline constexpr int kMaxTicks = 64;
// "Nice" tick values (1, 2, 2.5, 5 x 10^k steps) inside [lo, hi], at most about max_ticks of them and never
// more than kMaxTicks; strictly increasing and finite. Terminates for every input: a range that is empty or
// narrower than the resolution of its values (1 +- 1e-16) gives the one midpoint, non-finite bounds give
// none, and ranges wider than a double can span (+-1e300) or made of subnormals work as any other.
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);
// Makes [lo, hi] a range an axis can divide: an empty or nearly empty range (span <= 1e-9 of its magnitude,
// e.g. a ratio that is 1 +- 1e-16 everywhere) becomes mid +- max(0.5, 5 % of |mid|); bounds beyond
// +-DBL_MAX / 4 are clamped so that hi - lo stays finite. Non-finite bounds are left alone.
void widen_degenerate_range(double& lo, double& hi);
// Compact number for ticks and readouts: integers as integers, else `significant` digits, exponent
// notation for very small or large magnitudes, "NaN" for NaN.
QString format_number(double value, int significant = 4);

} // namespace posatlas::ui
