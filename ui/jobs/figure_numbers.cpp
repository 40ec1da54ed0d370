// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/figure_numbers.h"

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

QString format_number(double value, int significant)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    QString s;
    const double mag = std::abs(value);
    if (value == std::floor(value) && mag < 1e7) {
        s = QString::number(static_cast<qint64>(value));
    } else {
        // Scientific for very small or large values; 'g' also switches to it when the digits do not
        // reach the decimal point (12000 at 2 digits is "1.2e+04").
        s = mag != 0.0 && (mag < 1e-3 || mag >= 1e5)
                ? QString::number(value, 'e', std::max(0, significant - 1))
                : QString::number(value, 'g', significant);
        // Compact exponent for labels in narrow panels: 1.2e4, 1.15e-4 (not 1.2e+04, 1.15e-04).
        if (const auto e = s.indexOf(QLatin1Char('e')); e >= 0)
            s = s.left(e) + QLatin1Char('e') + QString::number(s.mid(e + 1).toInt());
    }
    // A typographic minus reads better on slides than a hyphen.
    if (s.startsWith(QLatin1Char('-')))
        s.replace(0, 1, QChar(0x2212));
    return s;
}

} // namespace posatlas::ui
