// SPDX-License-Identifier: GPL-3.0-or-later
// p-RoPE (Barbero et al. 2024, "Round and Round We Go! What makes Rotary Positional Encodings useful?",
// arXiv:2410.06205) and Gemma 4's "proportional" RoPE (transformers modeling_rope_utils.py
// _compute_proportional_rope_parameters), RopeParams::frequency_fraction:
//   * the frequencies against a hand computation from the paper's definition (keep the highest fraction p,
//     remove the lowest), 1e-15 relative;
//   * the frequencies against a double re-implementation of _compute_proportional_rope_parameters
//     (rope_angles = int(partial_rotary_factor * head_dim // 2), theta_i = base^(-2i / head_dim), zeros
//     after, all divided by factor), 1e-15 relative;
//   * the logit of given q and k against the reference's rotation of the whole head with the zero-padded
//     table (rotate_half, pairs (i, i + head_dim / 2)), 1e-12 absolute: the same after moving the rotated
//     pairs' components to the front;
//   * what validation refuses, by name.
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace posatlas;

namespace {

// transformers _compute_proportional_rope_parameters, in double: head_dim / 2 frequencies.
std::vector<double> proportional_reference(int head_dim, double base, double partial_rotary_factor,
                                           double factor)
{
    const int rope_angles = static_cast<int>(std::floor(partial_rotary_factor * head_dim / 2.0));
    std::vector<double> inv(static_cast<std::size_t>(head_dim / 2), 0.0);
    for (int i = 0; i < rope_angles; ++i)
        inv[static_cast<std::size_t>(i)] = 1.0 / std::pow(base, static_cast<double>(2 * i) / head_dim);
    for (double& v : inv)
        v /= factor;
    return inv;
}

RopeParams prope(int head_dim, double base, double p)
{
    RopeParams r;
    r.head_dim = head_dim;
    r.rope_theta = base;
    r.frequency_fraction = p;
    return r;
}

} // namespace

TEST(PRope, KeepsTheHighestFrequenciesOfTheWholeHead)
{
    // d = 16, base 10000, p = 0.5: of the 8 frequencies 10000^(-2i/16) the highest 4 are kept, by hand
    // 1, 10000^(-1/8), 10000^(-1/4), 10000^(-3/8).
    const RopeFrequencies f = compute_rope_frequencies(prope(16, 10000.0, 0.5));
    ASSERT_EQ(f.rotary_dim, 8);
    const std::vector<double> hand{1.0, 0.31622776601683794, 0.1, 0.031622776601683794};
    ASSERT_EQ(f.inv_freq.size(), hand.size());
    for (std::size_t i = 0; i < hand.size(); ++i)
        EXPECT_NEAR(f.inv_freq[i], hand[i], 1e-15 * hand[i]) << "pair " << i;
    // p = 1 is plain RoPE; a p that keeps a fractional pair rounds down (floor(0.3 * 16 / 2) = 2 pairs).
    EXPECT_EQ(compute_rope_frequencies(prope(16, 10000.0, 1.0)).inv_freq.size(), 8u);
    EXPECT_EQ(compute_rope_frequencies(prope(16, 10000.0, 0.3)).rotary_dim, 4);
}

TEST(PRope, GemmaFourProportionalMatchesTheTransformersReference)
{
    // Gemma4TextConfig's full-attention layers: global_head_dim 512, partial_rotary_factor 0.25, 1e6;
    // with factor 1 (default) and 8 (linear scaling of the kept frequencies).
    for (const double factor : {1.0, 8.0}) {
        RopeParams p = prope(512, 1e6, 0.25);
        if (factor != 1.0) {
            p.rope_type = RopeType::Linear;
            p.factor = factor;
        }
        const RopeFrequencies f = compute_rope_frequencies(p);
        const std::vector<double> ref = proportional_reference(512, 1e6, 0.25, factor);
        ASSERT_EQ(f.rotary_dim, 128);
        ASSERT_EQ(f.inv_freq.size(), 64u);
        for (std::size_t i = 0; i < ref.size(); ++i) {
            if (i < f.inv_freq.size())
                EXPECT_NEAR(f.inv_freq[i], ref[i], 1e-15 * ref[i]) << "pair " << i << " factor " << factor;
            else
                EXPECT_EQ(ref[i], 0.0) << "pair " << i << " has no frequency in the reference";
        }
    }
}

TEST(PRope, LogitEqualsTheReferenceRotationOfTheWholeHead)
{
    // The reference rotates all head_dim components with the zero-padded table (rotate_half: pair i is
    // (i, i + head_dim / 2)); a zero frequency leaves its pair as it is. Here the kept pairs are
    // (i, i + kept) and the rest pass through: the same logit once the components are moved.
    const int hd = 16;
    const double p = 0.25, base = 10000.0;
    const RopeParams params = prope(hd, base, p);
    const RopeFrequencies f = compute_rope_frequencies(params);
    const int kept = f.rotary_dim / 2; // 2
    const std::vector<double> table = proportional_reference(hd, base, p, 1.0);
    std::mt19937 rng(7);
    std::normal_distribution<double> normal;
    Eigen::VectorXd q(hd), k(hd);
    for (int j = 0; j < hd; ++j) {
        q[j] = normal(rng);
        k[j] = normal(rng);
    }
    const auto reference_rotate = [&](const Eigen::VectorXd& x, double pos) {
        Eigen::VectorXd out = x;
        for (int i = 0; i < hd / 2; ++i) {
            const double a = pos * table[static_cast<std::size_t>(i)];
            out[i] = x[i] * std::cos(a) - x[i + hd / 2] * std::sin(a);
            out[i + hd / 2] = x[i] * std::sin(a) + x[i + hd / 2] * std::cos(a);
        }
        return out;
    };
    // Our layout: reference components i and i + hd/2 of the kept pairs at i and i + kept, the rest after.
    std::vector<int> order;
    for (int i = 0; i < kept; ++i)
        order.push_back(i);
    for (int i = 0; i < kept; ++i)
        order.push_back(i + hd / 2);
    for (int j = 0; j < hd; ++j)
        if (!((j < kept) || (j >= hd / 2 && j < hd / 2 + kept)))
            order.push_back(j);
    Eigen::VectorXd qo(hd), ko(hd);
    for (int j = 0; j < hd; ++j) {
        qo[j] = q[order[static_cast<std::size_t>(j)]];
        ko[j] = k[order[static_cast<std::size_t>(j)]];
    }
    for (const auto& [m, n] : {std::pair{0.0, 0.0}, {5.0, 2.0}, {1000.0, 3.0}, {70000.0, 12345.0}}) {
        const double want = reference_rotate(q, m).dot(reference_rotate(k, n));
        EXPECT_NEAR(rope_score(f, qo, ko, m, n, RopePairing::Half), want, 1e-12) << m << " " << n;
    }
}

TEST(PRope, ValidationNamesTheFraction)
{
    RopeParams p = prope(16, 10000.0, 0.5);
    p.rope_type = RopeType::Yarn;
    p.factor = 4.0;
    try {
        validate(p);
        ADD_FAILURE() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "frequency_fraction");
    }
    // floor(0.1 * 16 / 2) = 0 pairs kept.
    try {
        validate(prope(16, 10000.0, 0.1));
        ADD_FAILURE() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "frequency_fraction");
    }
    EXPECT_NO_THROW(validate(prope(16, 10000.0, 0.125)));
}
