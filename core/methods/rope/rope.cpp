// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/rope/rope.h"

#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace posatlas {

namespace {

// Component indices of pair i in the chosen layout.
struct PairIndex {
    Eigen::Index first;
    Eigen::Index second;
};
PairIndex pair_index(int i, int rotary_dim, RopePairing pairing)
{
    if (pairing == RopePairing::Interleaved)
        return {2 * i, 2 * i + 1};
    return {i, i + rotary_dim / 2};
}

// apply(j1, j2, a cos(position_i theta_i), a sin(position_i theta_i)) for every rotary pair i, a the
// attention factor and position_i = position(i): the one definition of R(position) behind rope_rotate,
// rope_rotate_row and rope_rotate_row_per_pair.
template <typename Position, typename Apply>
void for_each_pair_rotation(const RopeFrequencies& f, Position&& position, RopePairing pairing, Apply&& apply)
{
    const double a = f.attention_factor;
    for (int i = 0; i < f.pairs(); ++i) {
        const auto [j1, j2] = pair_index(i, f.rotary_dim, pairing);
        const double angle = position(i) * f.inv_freq[static_cast<std::size_t>(i)];
        apply(j1, j2, std::cos(angle) * a, std::sin(angle) * a);
    }
}
template <typename Apply>
void for_each_rotation(const RopeFrequencies& f, double position, RopePairing pairing, Apply&& apply)
{
    for_each_pair_rotation(
        f, [position](int) { return position; }, pairing, apply);
}

void require_fits(const RopeFrequencies& f, Eigen::Index size, const char* what)
{
    if (f.rotary_dim < 2 || f.inv_freq.size() != static_cast<std::size_t>(f.rotary_dim / 2))
        throw ParameterError("rotary_dim", "even, >= 2 and matching the frequency table",
                             std::to_string(f.rotary_dim));
    if (size < f.rotary_dim)
        throw ParameterError("head_dim",
                             std::string(">= rotary_dim = ") + std::to_string(f.rotary_dim) + " (size of " +
                                 what + ")",
                             std::to_string(size));
}

} // namespace

Eigen::VectorXd rope_rotate(const RopeFrequencies& f, const Eigen::Ref<const Eigen::VectorXd>& x,
                            double position, RopePairing pairing)
{
    require_fits(f, x.size(), "x");
    Eigen::VectorXd out = x;
    for_each_rotation(f, position, pairing, [&](Eigen::Index j1, Eigen::Index j2, double c, double s) {
        out[j1] = x[j1] * c - x[j2] * s;
        out[j2] = x[j1] * s + x[j2] * c;
    });
    return out;
}

void rope_rotate_row(const RopeFrequencies& f, Eigen::MatrixXd& m, Eigen::MatrixXd* also, Eigen::Index r,
                     double position, RopePairing pairing)
{
    const auto rotate = [r](Eigen::MatrixXd& x, Eigen::Index j1, Eigen::Index j2, double c, double s) {
        const double x1 = x(r, j1), x2 = x(r, j2);
        x(r, j1) = x1 * c - x2 * s;
        x(r, j2) = x1 * s + x2 * c;
    };
    for_each_rotation(f, position, pairing, [&](Eigen::Index j1, Eigen::Index j2, double c, double s) {
        rotate(m, j1, j2, c, s);
        if (also)
            rotate(*also, j1, j2, c, s);
    });
}

void rope_rotate_row_per_pair(const RopeFrequencies& f, Eigen::MatrixXd& m, Eigen::Index r,
                              const double* positions, RopePairing pairing)
{
    for_each_pair_rotation(
        f, [positions](int i) { return positions[i]; }, pairing,
        [&](Eigen::Index j1, Eigen::Index j2, double c, double s) {
            const double x1 = m(r, j1), x2 = m(r, j2);
            m(r, j1) = x1 * c - x2 * s;
            m(r, j2) = x1 * s + x2 * c;
        });
}

double rope_score(const RopeFrequencies& f, const Eigen::Ref<const Eigen::VectorXd>& q,
                  const Eigen::Ref<const Eigen::VectorXd>& k, double m, double n, RopePairing pairing)
{
    require_fits(f, q.size(), "q");
    if (k.size() != q.size())
        throw ParameterError("head_dim", "the same for q and k (" + std::to_string(q.size()) + ")",
                             std::to_string(k.size()));
    return rope_rotate(f, q, m, pairing).dot(rope_rotate(f, k, n, pairing)) * f.softmax_scale;
}

RopePairCoefficients rope_pair_coefficients(const RopeFrequencies& f,
                                            const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& k, RopePairing pairing)
{
    require_fits(f, q.size(), "q");
    if (k.size() != q.size())
        throw ParameterError("head_dim", "the same for q and k (" + std::to_string(q.size()) + ")",
                             std::to_string(k.size()));
    RopePairCoefficients c;
    const auto pairs = static_cast<std::size_t>(f.pairs());
    c.cos_coef.resize(pairs);
    c.sin_coef.resize(pairs);
    const double a2 = f.logit_multiplier(); // a^2 c
    for (std::size_t i = 0; i < pairs; ++i) {
        const auto [j1, j2] = pair_index(static_cast<int>(i), f.rotary_dim, pairing);
        c.cos_coef[i] = a2 * (q[j1] * k[j1] + q[j2] * k[j2]);
        c.sin_coef[i] = a2 * (q[j1] * k[j2] - q[j2] * k[j1]);
    }
    for (Eigen::Index j = f.rotary_dim; j < q.size(); ++j)
        c.passthrough += q[j] * k[j];
    c.passthrough *= f.softmax_scale;
    return c;
}

double rope_relative_score(const RopeFrequencies& f, const RopePairCoefficients& c, double delta)
{
    if (c.cos_coef.size() != f.inv_freq.size() || c.sin_coef.size() != f.inv_freq.size())
        throw ParameterError("rotary_dim", "the same for the coefficients and the frequency table",
                             std::to_string(c.cos_coef.size() * 2));
    double sum = c.passthrough;
    for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
        const double angle = delta * f.inv_freq[i];
        sum += c.cos_coef[i] * std::cos(angle) + c.sin_coef[i] * std::sin(angle);
    }
    return sum;
}

double rope_relative_score(const RopeFrequencies& f, const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& k, double delta, RopePairing pairing)
{
    return rope_relative_score(f, rope_pair_coefficients(f, q, k, pairing), delta);
}

std::vector<int> rope_default_shown_pairs(int pairs)
{
    std::vector<int> shown = {0, pairs / 4, pairs / 2, std::max(pairs - 1, 0)};
    std::sort(shown.begin(), shown.end());
    shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
    return shown;
}

std::vector<double> rope_angles(const RopeFrequencies& f, double position)
{
    if (!std::isfinite(position))
        throw ParameterError("position", "finite", format_number(position));
    constexpr double kTwoPi = 2.0 * std::numbers::pi;
    std::vector<double> angles(f.inv_freq.size());
    for (std::size_t i = 0; i < angles.size(); ++i) {
        double a = std::fmod(position * f.inv_freq[i], kTwoPi); // exact remainder of the double product
        if (a < 0.0)
            a += kTwoPi;
        if (a >= kTwoPi) // a tiny negative remainder plus 2 pi can round up to 2 pi
            a = 0.0;
        angles[i] = a;
    }
    return angles;
}

Eigen::VectorXi pairing_permutation(int rotary_dim)
{
    require_even_int("rotary_dim", rotary_dim, 2, 1 << 20);
    const int half = rotary_dim / 2;
    Eigen::VectorXi perm(rotary_dim);
    for (int j = 0; j < rotary_dim; ++j)
        perm[j] = j < half ? 2 * j : 2 * (j - half) + 1;
    return perm;
}

} // namespace posatlas
