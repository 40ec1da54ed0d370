// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/alibi/alibi.h"

#include "scenario/validation.h"

#include <bit>
#include <cmath>

namespace posatlas {

namespace {

// get_slopes_power_of_2(n) = [start * start^i for i in 0..n-1], start = 2^(-2^-(log2 n - 3)) =
// 2^(-8/n). We evaluate the closed form 2^(-8 h / n), h = 1..n: exact for the powers of two it
// usually is (n <= 8, or h a multiple of n/8), correctly rounded otherwise, whereas the reference's
// start * start^i accumulates up to ~n/2 ulp of rounding error (e.g. 1.1e-15 relative at n = 16).
std::vector<double> power_of_two_slopes(int n)
{
    std::vector<double> slopes(static_cast<std::size_t>(n));
    for (int h = 1; h <= n; ++h)
        slopes[static_cast<std::size_t>(h - 1)] = std::exp2(-8.0 * h / n);
    return slopes;
}

int closest_power_of_two(int n)
{
    return static_cast<int>(std::bit_floor(static_cast<unsigned>(n)));
}

} // namespace

std::vector<double> alibi_slopes(int num_heads)
{
    require_int("num_heads", num_heads, 1, 1024);
    const int c = closest_power_of_two(num_heads);
    std::vector<double> slopes = power_of_two_slopes(c);
    if (c != num_heads) {
        const std::vector<double> doubled = power_of_two_slopes(2 * c);
        for (int k = 0; k < num_heads - c; ++k)
            slopes.push_back(doubled[static_cast<std::size_t>(2 * k)]);
    }
    return slopes;
}

std::vector<double> alibi_scaled_slopes(const AlibiParams& params)
{
    validate(params);
    std::vector<double> slopes = alibi_slopes(params.num_heads);
    for (std::size_t h = 0; h < params.slopes.size() && h < slopes.size(); ++h)
        slopes[h] = params.slopes[h];
    const double a = static_cast<double>(params.target_length) / static_cast<double>(params.trained_length);
    switch (params.scaling) {
    case AlibiScaling::None: break;
    case AlibiScaling::Interpolate:
        for (double& m : slopes)
            m /= a;
        break;
    case AlibiScaling::Ntk: {
        // keezen/ntk_alibi: only the first closest-power-of-two heads, exponent (h-1)/(H-1) with H =
        // num_heads (the reference code's scale = a^(1/(num_heads-1))).
        const int c = closest_power_of_two(params.num_heads);
        const int big_h = params.num_heads;
        for (int h = 1; h <= c && big_h > 1; ++h)
            slopes[static_cast<std::size_t>(h - 1)] /= std::pow(a, static_cast<double>(h - 1) / (big_h - 1));
        break;
    }
    }
    for (double& m : slopes)
        m *= params.slope_scale;
    return slopes;
}

double alibi_bias(double slope, std::int64_t i, std::int64_t j, AlibiBias mode)
{
    const double distance = static_cast<double>(i - j);
    return mode == AlibiBias::Causal ? -slope * distance : -slope * std::abs(distance);
}

} // namespace posatlas
