// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/figure_numbers.h"

#include "io/number_text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

std::vector<double> nice_ticks(double lo, double hi, int max_ticks)
{
    std::vector<double> ticks;
    if (!std::isfinite(lo) || !std::isfinite(hi) || max_ticks < 1)
        return ticks;
    max_ticks = std::min(max_ticks, kMaxTicks);
    if (hi < lo)
        std::swap(lo, hi);
    // Half-spans: hi - lo overflows to infinity for ranges like +-1e300.
    const double half_span = hi * 0.5 - lo * 0.5;
    const double magnitude_of_values = std::max(std::abs(lo), std::abs(hi));
    // A step below ~1e-12 of the values cannot be added to them (1 + 5e-17 == 1): the old loop
    // `t += step` never ended there. Such a range has one honest tick, its midpoint.
    if (!(half_span > magnitude_of_values * 1e-12)) {
        ticks.push_back(lo * 0.5 + hi * 0.5);
        return ticks;
    }
    const double raw = 2.0 * (half_span / std::max(1, max_ticks - 1));
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        step = m * magnitude;
        if (step >= raw)
            break;
    }
    if (!(step > 0.0) || !std::isfinite(step)) { // raw underflowed or overflowed
        ticks.push_back(lo * 0.5 + hi * 0.5);
        return ticks;
    }
    // Ticks by index (k * step), never by accumulation, and never more than kMaxTicks of them.
    const double k0 = std::ceil(lo / step - 1e-9);
    const double k1 = std::floor(hi / step + 1e-9);
    if (!std::isfinite(k0) || !std::isfinite(k1))
        return ticks;
    for (int i = 0; i < kMaxTicks && k0 + i <= k1; ++i) {
        const double k = k0 + i;
        // Snap values like 0.30000000000000004 and -0 to what a reader expects.
        const double t = k == 0.0 ? 0.0 : k * step;
        if (!std::isfinite(t) || (!ticks.empty() && t <= ticks.back()))
            continue;
        ticks.push_back(t);
    }
    if (ticks.empty()) // one requested tick and no multiple of the step inside: show the midpoint
        ticks.push_back(lo * 0.5 + hi * 0.5);
    return ticks;
}

void widen_degenerate_range(double& lo, double& hi)
{
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return;
    if (hi < lo)
        std::swap(lo, hi);
    const double big = std::numeric_limits<double>::max() / 4;
    lo = std::clamp(lo, -big, big);
    hi = std::clamp(hi, -big, big);
    const double scale = std::max(std::abs(lo), std::abs(hi));
    // 1e-290: spans of subnormal size are below what an axis can place ticks in either.
    if (hi - lo <= scale * 1e-9 || hi - lo < 1e-290) {
        const double mid = lo * 0.5 + hi * 0.5;
        const double half = std::max(0.5, 0.05 * std::abs(mid));
        lo = mid - half;
        hi = mid + half;
    }
}

// The GUI's one display text: core's display_number (io/number_text.h), converted.
QString format_number(double value, int significant)
{
    return QString::fromStdString(display_number(value, significant));
}

} // namespace posatlas::ui
