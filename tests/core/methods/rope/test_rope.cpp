// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the RoPE rotation and scores (core/methods/rope/rope.h).
// References: RoFormer (Su et al. 2021, arXiv:2104.09864) eq. (13)-(16): the 2x2 rotation
// [[cos, -sin], [sin, cos]] per pair and the relative-position property (R_m q)^T (R_n k) = q^T R_{n-m} k;
// HF transformers apply_rotary_pos_emb / rotate_half for the half layout and the attention_scaling of
// cos and sin; Meta llama model.py apply_rotary_emb for the interleaved layout.
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/rng.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace posatlas;

namespace {

Eigen::VectorXd seeded(std::uint64_t seed, int n, std::uint64_t stream)
{
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i)
        v[i] = rng::normal(seed, stream, static_cast<std::uint64_t>(i));
    return v;
}

// Frequency tables the properties are checked on: plain, YaRN (attention factor != 1), partial rotary.
std::vector<std::pair<RopeFrequencies, int>> tables()
{
    std::vector<std::pair<RopeFrequencies, int>> out;
    RopeParams p;
    p.head_dim = 64;
    out.emplace_back(compute_rope_frequencies(p), 64);
    p.rope_type = RopeType::Yarn;
    p.factor = 8.0;
    p.original_max_position_embeddings = 2048;
    out.emplace_back(compute_rope_frequencies(p), 64);
    RopeParams partial;
    partial.head_dim = 40;
    partial.partial_rotary_factor = 0.5; // rotary_dim 20, 20 pass-through dims
    out.emplace_back(compute_rope_frequencies(partial), 40);
    return out;
}

RopeFrequencies single_pair_theta_one(int head_dim)
{
    RopeParams p;
    p.head_dim = head_dim;
    return compute_rope_frequencies(p); // theta_0 = 1
}

} // namespace

TEST(RopeRotation, QuarterTurnOfOnePair)
{
    // RoFormer eq. (13): (1, 0) rotated by pi/2 is (0, 1).
    const RopeFrequencies f = single_pair_theta_one(2);
    Eigen::VectorXd x(2);
    x << 1.0, 0.0;
    const Eigen::VectorXd y = rope_rotate(f, x, std::numbers::pi / 2, RopePairing::Interleaved);
    EXPECT_NEAR(y[0], 0.0, 1e-15); // tolerance: one rounding of cos(pi/2)
    EXPECT_NEAR(y[1], 1.0, 1e-15);
}

TEST(RopeRotation, LayoutsPickDifferentPartners)
{
    // head_dim 4: pairs (0,1),(2,3) interleaved; (0,2),(1,3) half (rotate_half). theta_0 = 1.
    const RopeFrequencies f = single_pair_theta_one(4);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(4);
    x[0] = 1.0;
    const double p = 0.7;
    const Eigen::VectorXd inter = rope_rotate(f, x, p, RopePairing::Interleaved);
    const Eigen::VectorXd half = rope_rotate(f, x, p, RopePairing::Half);
    EXPECT_NEAR(inter[0], std::cos(p), 1e-15);
    EXPECT_NEAR(inter[1], std::sin(p), 1e-15);
    EXPECT_EQ(inter[2], 0.0);
    EXPECT_NEAR(half[0], std::cos(p), 1e-15);
    EXPECT_EQ(half[1], 0.0);
    EXPECT_NEAR(half[2], std::sin(p), 1e-15); // HF: x2' = x2 cos + x1 sin
}

TEST(RopeRotation, ScoreDependsOnlyOnDistance)
{
    // RoFormer eq. (16); tolerance 1e-9 relative to |q||k| (angles up to ~2e4 rad, double rounding ~1e-12).
    for (const auto& [f, dim] : tables()) {
        for (std::uint64_t trial = 0; trial < 200; ++trial) {
            const Eigen::VectorXd q = seeded(trial, dim, rng::kQueryContent);
            const Eigen::VectorXd k = seeded(trial, dim, rng::kKeyContent);
            const double m = std::floor(10000.0 * rng::uniform(trial, 100, 0));
            const double n = std::floor(10000.0 * rng::uniform(trial, 100, 1));
            const double shift = std::floor(10000.0 * rng::uniform(trial, 100, 2));
            const double tol = 1e-9 * q.norm() * k.norm();
            for (RopePairing pairing : {RopePairing::Interleaved, RopePairing::Half}) {
                const double a = rope_score(f, q, k, m, n, pairing);
                EXPECT_NEAR(rope_score(f, q, k, m + shift, n + shift, pairing), a, tol);
                EXPECT_NEAR(rope_relative_score(f, q, k, m - n, pairing), a, tol);
            }
        }
    }
}

TEST(RopeRotation, NormScaledByAttentionFactor)
{
    // A rotation preserves each pair's norm; HF multiplies cos and sin by attention_scaling, so the
    // rotated part's squared norm scales by a^2 and the pass-through part is unchanged. Tolerance 1e-12 rel.
    for (const auto& [f, dim] : tables()) {
        const Eigen::VectorXd x = seeded(7, dim, rng::kFixedContent);
        const double a2 = f.attention_factor * f.attention_factor;
        const double rot2 = x.head(f.rotary_dim).squaredNorm();
        const double pass2 = x.tail(dim - f.rotary_dim).squaredNorm();
        for (double pos : {0.0, 1.0, 1234.0, 1e6}) {
            for (RopePairing pairing : {RopePairing::Interleaved, RopePairing::Half}) {
                const Eigen::VectorXd y = rope_rotate(f, x, pos, pairing);
                EXPECT_NEAR(y.head(f.rotary_dim).squaredNorm(), a2 * rot2, 1e-12 * a2 * rot2);
                EXPECT_EQ(y.tail(dim - f.rotary_dim), x.tail(dim - f.rotary_dim));
                EXPECT_NEAR(y.squaredNorm(), a2 * rot2 + pass2, 1e-12 * (a2 * rot2 + pass2));
            }
        }
    }
}

TEST(RopeRotation, PairingsAgreeAfterPermutation)
{
    // Interleaved on (q, k) equals half on the permuted (q, k): the same pairs, stored elsewhere.
    for (const auto& [f, dim] : tables()) {
        const Eigen::VectorXi perm = pairing_permutation(f.rotary_dim);
        ASSERT_EQ(perm.size(), f.rotary_dim);
        for (std::uint64_t trial = 0; trial < 20; ++trial) {
            const Eigen::VectorXd q = seeded(trial, dim, rng::kQueryContent);
            const Eigen::VectorXd k = seeded(trial, dim, rng::kKeyContent);
            Eigen::VectorXd qh = q;
            Eigen::VectorXd kh = k;
            for (int j = 0; j < f.rotary_dim; ++j) {
                qh[j] = q[perm[j]];
                kh[j] = k[perm[j]];
            }
            const double m = 17.0 + 31.0 * static_cast<double>(trial);
            const double n = 5.0 * static_cast<double>(trial);
            const double tol = 1e-12 * q.norm() * k.norm();
            EXPECT_NEAR(rope_score(f, q, k, m, n, RopePairing::Interleaved),
                        rope_score(f, qh, kh, m, n, RopePairing::Half), tol);
        }
    }
    // The permutation itself: half index j <- interleaved 2j (first halves), 2(j - d/2) + 1 (second).
    const Eigen::VectorXi p6 = pairing_permutation(6);
    const int want[] = {0, 2, 4, 1, 3, 5};
    for (int j = 0; j < 6; ++j)
        EXPECT_EQ(p6[j], want[j]);
}

TEST(RopeRotation, PairCoefficientsMatchScore)
{
    const auto all = tables();
    const auto& [f, dim] = all[2]; // partial rotary: exercises the pass-through term
    const Eigen::VectorXd q = seeded(3, dim, rng::kQueryContent);
    const Eigen::VectorXd k = seeded(3, dim, rng::kKeyContent);
    const RopePairCoefficients c = rope_pair_coefficients(f, q, k, RopePairing::Half);
    for (double delta : {-300.0, -1.0, 0.0, 2.0, 4096.0}) // tolerance 1e-12 relative to |q||k|
        EXPECT_NEAR(rope_relative_score(f, c, delta), rope_score(f, q, k, delta, 0.0, RopePairing::Half),
                    1e-12 * q.norm() * k.norm());
    // delta = 0: q . k (no attention factor here: default frequencies).
    EXPECT_NEAR(rope_relative_score(f, c, 0.0), q.dot(k), 1e-12 * q.norm() * k.norm());
}

TEST(RopeRotation, AnglesReducedInDouble)
{
    const RopeFrequencies f = single_pair_theta_one(128);
    // 1e6 mod 2 pi = 5.925621140093851... (50-digit Decimal in python); the double 2 pi shifts fmod by
    // (1e6 / 2 pi) * 2.4e-16 = 3.9e-11, so tolerance 1e-10.
    EXPECT_NEAR(rope_angles(f, 1e6)[0], 5.92562114009385143, 1e-10);
    // Negative positions land in [0, 2 pi): -1000 mod 2 pi = 5.309649148733836 (Decimal).
    EXPECT_NEAR(rope_angles(f, -1000.0)[0], 5.3096491487338363, 1e-12);
    for (double a : rope_angles(f, 123456.0)) {
        EXPECT_GE(a, 0.0);
        EXPECT_LT(a, 2.0 * std::numbers::pi);
    }
    // The angle of pair i at position 2 is 2 theta_i while 2 theta_i < 2 pi.
    const std::vector<double> a2 = rope_angles(f, 2.0);
    EXPECT_EQ(a2[5], 2.0 * f.inv_freq[5]);
}

TEST(RopeRotation, RejectsShortVectors)
{
    const RopeFrequencies f = single_pair_theta_one(8);
    const Eigen::VectorXd x = Eigen::VectorXd::Ones(6);
    EXPECT_THROW(rope_rotate(f, x, 1.0, RopePairing::Half), ParameterError);
    EXPECT_THROW(pairing_permutation(5), ParameterError);
}
