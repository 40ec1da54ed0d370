// SPDX-License-Identifier: GPL-3.0-or-later
// cos and sin of the exact product r * theta of two doubles. The rounded product r * theta is off by up
// to |r theta| 2^-53 (1e-8 rad at r = 1e8, theta = 1), which would dominate any angle-based sum at long
// range. The product is formed exactly as hi + lo (lo = fma(r, theta, -hi) recovers its rounding
// error) and cos/sin take the first-order correction in lo, so the result is within ~1e-16 of the cos
// and sin of the exact angle at any r up to 1e8 (lo^2 / 2 <= 1e-17 there).
#pragma once

#include <cmath>

namespace posatlas {

struct CosSin {
    double c;
    double s;
};

inline CosSin exact_cos_sin(double r, double theta)
{
    const double hi = r * theta;
    const double lo = std::fma(r, theta, -hi);
    const double c = std::cos(hi);
    const double s = std::sin(hi);
    return {c - s * lo, s + c * lo};
}

} // namespace posatlas
