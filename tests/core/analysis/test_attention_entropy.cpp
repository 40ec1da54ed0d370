// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of softmax_entropy / attention_entropy (core/analysis/attention_entropy.h).
//
// References: Shannon entropy of a softmax in closed form; an independent recomputation of the documented
// definition from rope.h's rope_score (full rotation of q and every k_j) and rng::normal with the documented
// streams; the lognormal moment identity E[H] ~= ln N - sigma^2 / 2 for iid Gaussian logits (checked while
// writing this test by a pure-Python simulation, N = 4096, d = 128, 8 trials, 3 seeds: deviations from the
// identity of at most 0.02 nats untempered and 0.06 nats at a^2 = 1.63); YaRN's sqrt(1/t) = 0.1 ln s + 1
// (Peng et al. 2023, eq. (22)-(23); HF get_mscale).
#include "analysis/attention_entropy.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "rope_fixtures.h"
#include "scenario/rng.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace posatlas;

namespace {

RopeParams yarn_config(int head_dim = 128)
{
    // Yarn-Llama-2-7b-64k's scaling (factor 16, original 4096, theta 10000): attention factor 0.1 ln 16 + 1.
    RopeParams p;
    p.head_dim = head_dim;
    p.rope_theta = 10000.0;
    p.rope_type = RopeType::Yarn;
    p.factor = 16.0;
    p.max_position_embeddings = 65536;
    p.original_max_position_embeddings = 4096;
    return p;
}

// -sum p ln p written the textbook way, for the independent recomputation.
double direct_entropy(const std::vector<double>& l)
{
    double m = l[0];
    for (double x : l)
        m = std::max(m, x);
    double z = 0.0;
    for (double x : l)
        z += std::exp(x - m);
    double h = 0.0;
    for (double x : l) {
        const double pj = std::exp(x - m) / z;
        if (pj > 0.0)
            h -= pj * std::log(pj);
    }
    return h;
}

// The definition of attention_entropy.h, recomputed with rope_score (rope.h): l_j = (R(N-1) q).(R(j) k_j)
// / sqrt(d), with the attention factor (rope_score scales rotated components by it, not pass-through
// ones) or with it set to 1.
EntropyCurve reference_curve(const RopeParams& p, const std::vector<std::int64_t>& lengths,
                             std::uint64_t seed, int trials,
                             EntropyContent content = EntropyContent::RandomQK, const QueryScale& scale = {})
{
    EntropyCurve c;
    c.length = lengths;
    const int d = p.head_dim;
    for (std::int64_t n : lengths) {
        RopeParams cur = p;
        cur.seq_len = n;
        const RopeFrequencies with_a = compute_rope_frequencies(cur);
        RopeFrequencies without_a = with_a;
        without_a.attention_factor = 1.0;
        without_a.softmax_scale = 1.0; // rope_score multiplies by it (DeepSeek's softmax multiplier)
        double h = 0.0, ht = 0.0, hs = 0.0;
        const double multiplier = query_scale_at(scale, n - 1);
        for (int t = 0; t < trials; ++t) {
            const std::uint64_t tt = static_cast<std::uint64_t>(t) << 32;
            Eigen::VectorXd q(d), k(d);
            for (int c2 = 0; c2 < d; ++c2)
                q[c2] = rng::normal(seed, rng::kEntropyQuery + tt, static_cast<std::uint64_t>(c2));
            std::vector<double> l, lt;
            for (std::int64_t j = 0; j < n; ++j) {
                // Repeated token: every key is the query's vector v (q = k_j = v).
                for (int c2 = 0; c2 < d; ++c2)
                    k[c2] = content == EntropyContent::RepeatedToken
                                ? q[c2]
                                : rng::normal(seed, rng::kEntropyKey + tt,
                                              static_cast<std::uint64_t>(j * d + c2));
                const auto m = static_cast<double>(n - 1);
                const auto pos = static_cast<double>(j);
                l.push_back(rope_score(without_a, q, k, m, pos, p.pairing) / std::sqrt(d));
                lt.push_back(rope_score(with_a, q, k, m, pos, p.pairing) / std::sqrt(d));
            }
            h += direct_entropy(l);
            ht += direct_entropy(lt);
            for (double& x : lt)
                x *= multiplier; // the whole logit of the query at N - 1 (query_scale.h)
            hs += direct_entropy(lt);
        }
        c.entropy.push_back(h / trials);
        c.entropy_with_temperature.push_back(ht / trials);
        c.entropy_with_query_scale.push_back(hs / trials);
    }
    return c;
}

} // namespace

TEST(AttentionEntropy, SoftmaxEntropyClosedForms)
{
    // All-equal logits: uniform softmax, H = ln N exactly (S = N, T = 0).
    for (int n : {1, 2, 7, 1000}) {
        EXPECT_EQ(softmax_entropy(std::vector<double>(static_cast<std::size_t>(n), 3.5)), std::log(n)) << n;
    }
    // {0, ln 3}: p = (1/4, 3/4), H = -(1/4 ln 1/4 + 3/4 ln 3/4) (python 0.5623351446188083); shift-invariant.
    EXPECT_NEAR(softmax_entropy({0.0, std::log(3.0)}), 0.5623351446188083, 1e-15);
    EXPECT_NEAR(softmax_entropy({1000.0, 1000.0 + std::log(3.0)}), 0.5623351446188083, 1e-12);
    // A gap of 1000: exp(-1000) underflows to 0, H = 0 (no NaN from 0 ln 0).
    EXPECT_EQ(softmax_entropy({0.0, -1000.0}), 0.0);
    EXPECT_THROW(softmax_entropy({}), ParameterError);
    EXPECT_THROW(softmax_entropy({0.0, std::nan("")}), ParameterError);
    EXPECT_THROW(softmax_entropy({0.0, INFINITY}), ParameterError);
}

TEST(AttentionEntropy, SingleKeyHasZeroEntropy)
{
    const EntropyCurve c = attention_entropy(yarn_config(), {1}, 7, 3);
    ASSERT_EQ(c.length, std::vector<std::int64_t>{1});
    EXPECT_EQ(c.entropy[0], 0.0);
    EXPECT_EQ(c.entropy_with_temperature[0], 0.0);
}

TEST(AttentionEntropy, MatchesIndependentRecomputation)
{
    // Tolerance 1e-12 nats: the same sums in a different order and via the full rotation of rope_score.
    struct Case {
        const char* name;
        RopeParams p;
    };
    RopeParams partial; // partial rotary, interleaved: pass-through components are not tempered
    partial.head_dim = 16;
    partial.partial_rotary_factor = 0.5;
    partial.pairing = RopePairing::Interleaved;
    partial.rope_type = RopeType::Yarn;
    partial.factor = 8.0;
    partial.max_position_embeddings = 512;
    partial.original_max_position_embeddings = 64;
    RopeParams dynamic; // frequencies depend on the current length N
    dynamic.head_dim = 16;
    dynamic.rope_type = RopeType::Dynamic;
    dynamic.factor = 4.0;
    dynamic.max_position_embeddings = 32;
    RopeParams deepseek = partial; // partial rotary keeps a pass-through part for c to scale as well
    deepseek.mscale = 1.0;
    deepseek.mscale_all_dim = 0.8;
    deepseek.softmax_mscale = true;
    const Case cases[] = {
        {"yarn", yarn_config(16)}, {"partial", partial}, {"dynamic", dynamic}, {"deepseek", deepseek}};
    const std::vector<std::int64_t> lengths = {1, 2, 5, 40, 300};
    for (const Case& c : cases) {
        const EntropyCurve got = attention_entropy(c.p, lengths, 12345, 3);
        const EntropyCurve want = reference_curve(c.p, lengths, 12345, 3);
        for (std::size_t i = 0; i < lengths.size(); ++i) {
            EXPECT_NEAR(got.entropy[i], want.entropy[i], 1e-12) << c.name << " N " << lengths[i];
            EXPECT_NEAR(got.entropy_with_temperature[i], want.entropy_with_temperature[i], 1e-12)
                << c.name << " N " << lengths[i];
        }
    }
}

TEST(AttentionEntropy, TemperatureSharpens)
{
    // d H(softmax(c l)) / dc = -c Var_p(l) < 0: scaling logits by a^2 > 1 lowers the entropy strictly
    // whenever the logits are not all equal (N >= 2).
    const EntropyCurve y = attention_entropy(yarn_config(), {2, 10, 100, 1000}, 1, 4);
    for (std::size_t i = 0; i < y.length.size(); ++i)
        EXPECT_LT(y.entropy_with_temperature[i], y.entropy[i]) << "N " << y.length[i];
    // Attention factor 1 (unscaled RoPE): the two curves are identical (a^2 = 1 multiplies exactly).
    const EntropyCurve d = attention_entropy(RopeParams{}, {2, 10, 100}, 1, 4);
    EXPECT_EQ(d.entropy, d.entropy_with_temperature);
}

// DeepSeek-V3 (factor 40, mscale = mscale_all_dim = 1): the rotary attention factor is 1, and the whole
// temperature is the softmax multiplier yarn_get_mscale(40, 1)^2 of DeepseekV3Attention. The tempered curve
// must therefore equal that of a YaRN configuration whose cos and sin carry its square root, and differ from
// the untempered one. Tolerance 1e-12 nats (the same logits up to rounding of the product).
TEST(AttentionEntropy, DeepSeekTemperatureIsTheSoftmaxMultiplier)
{
    RopeParams v3 = yarn_config(64);
    v3.factor = 40.0;
    v3.max_position_embeddings = 163840;
    v3.mscale = 1.0;
    v3.mscale_all_dim = 1.0;
    v3.softmax_mscale = true;
    RopeParams same = v3;
    same.softmax_mscale = false;
    same.attention_factor = 0.1 * std::log(40.0) + 1.0; // sqrt of the multiplier, on cos and sin
    const std::vector<std::int64_t> lengths = {10, 300, 2000};
    const EntropyCurve a = attention_entropy(v3, lengths, 7, 2);
    const EntropyCurve b = attention_entropy(same, lengths, 7, 2);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        EXPECT_NEAR(a.entropy_with_temperature[i], b.entropy_with_temperature[i], 1e-12) << lengths[i];
        EXPECT_LT(a.entropy_with_temperature[i], a.entropy[i] - 0.05) << lengths[i];
    }
}

TEST(AttentionEntropy, GrowsLikeLogNWithoutPositionalStructure)
{
    // iid N(0, I) keys: E[H] ~= ln N - sigma^2 / 2, sigma^2 = |q|^2 / d ~= 1, and with YaRN's temperature
    // sigma^2 ~= a^4 (a = 0.1 ln 16 + 1, a^4 / 2 = 1.3307, python). Tolerances 0.15 / 0.25 nats cover the
    // spread of |q|^2 over 8 trials (std ~0.044 of sigma^2) and the finite-N bias seen in simulation.
    const std::int64_t n = 4096;
    const EntropyCurve c = attention_entropy(yarn_config(), {n}, 2024, 8);
    const double a = 0.1 * std::log(16.0) + 1.0;
    EXPECT_NEAR(c.entropy[0], std::log(4096.0) - 0.5, 0.15);
    EXPECT_NEAR(c.entropy_with_temperature[0], std::log(4096.0) - std::pow(a, 4) / 2.0, 0.25);
}

TEST(AttentionEntropy, DeterministicAndLengthsShareKeys)
{
    const RopeParams p = yarn_config(32);
    const EntropyCurve a = attention_entropy(p, {5, 700}, 99, 2);
    const EntropyCurve b = attention_entropy(p, {5, 700}, 99, 2);
    EXPECT_EQ(a.entropy, b.entropy);
    EXPECT_EQ(a.entropy_with_temperature, b.entropy_with_temperature);
    const EntropyCurve other = attention_entropy(p, {5, 700}, 100, 2);
    EXPECT_NE(a.entropy[1], other.entropy[1]);
    // A length's value does not depend on which other lengths are asked for.
    EXPECT_EQ(attention_entropy(p, {700}, 99, 2).entropy[0], a.entropy[1]);
#ifdef _OPENMP
    // Fixed blocks merged in order: bitwise the same with one thread.
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const EntropyCurve one = attention_entropy(p, {5, 700}, 99, 2);
    omp_set_num_threads(threads);
    EXPECT_EQ(one.entropy, a.entropy);
    EXPECT_EQ(one.entropy_with_temperature, a.entropy_with_temperature);
#endif
}

TEST(AttentionEntropy, CancelAndProgress)
{
    const RopeParams p = yarn_config(16);
    EXPECT_THROW(attention_entropy(p, {100}, 1, 2, [] { return true; }), Cancelled);
    // Cancel after the first chunk of the 40000-key length (chunks of 16384 keys).
    int polls = 0;
    EXPECT_THROW(attention_entropy(p, {40000}, 1, 1, [&] { return ++polls > 2; }), Cancelled);
    std::vector<double> fractions;
    attention_entropy(p, {10, 40000}, 1, 1, {}, [&](double f) { fractions.push_back(f); });
    ASSERT_FALSE(fractions.empty());
    for (std::size_t i = 1; i < fractions.size(); ++i)
        EXPECT_GT(fractions[i], fractions[i - 1]);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

TEST(AttentionEntropy, ArgumentChecks)
{
    const RopeParams p;
    for (const std::vector<std::int64_t>& bad : {std::vector<std::int64_t>{}, std::vector<std::int64_t>{0},
                                                 std::vector<std::int64_t>{10, 10'000'001}}) {
        try {
            attention_entropy(p, bad, 1);
            FAIL() << "expected ParameterError";
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "lengths");
        }
    }
    try {
        attention_entropy(p, {10}, 1, 0);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "trials");
    }
    RopeParams bad_rope;
    bad_rope.rope_theta = -1.0;
    EXPECT_THROW(attention_entropy(bad_rope, {10}, 1), ParameterError);
}

// The repeated token against the same independent recomputation (q = k_j = v, every key rotated by rope_score
// at its absolute position). Tolerance 1e-10 nats: the kernel forms cos(r theta) of the distance r, the
// reference rotates by the absolute angles (N - 1) theta and j theta; each angle rounds at ~1e-16 relative,
// a few 1e-14 for the angles up to 300 rad here, times logits of order sqrt(d).
TEST(AttentionEntropy, RepeatedTokenMatchesIndependentRecomputation)
{
    RopeParams partial; // partial rotary, interleaved: the pass-through energy is not tempered
    partial.head_dim = 16;
    partial.partial_rotary_factor = 0.5;
    partial.pairing = RopePairing::Interleaved;
    partial.rope_type = RopeType::Yarn;
    partial.factor = 8.0;
    partial.max_position_embeddings = 512;
    partial.original_max_position_embeddings = 64;
    RopeParams dynamic; // frequencies depend on N: one pass per distinct frequency set
    dynamic.head_dim = 16;
    dynamic.rope_type = RopeType::Dynamic;
    dynamic.factor = 4.0;
    dynamic.max_position_embeddings = 32;
    RopeParams deepseek = partial;
    deepseek.mscale = 1.0;
    deepseek.mscale_all_dim = 0.8;
    deepseek.softmax_mscale = true;
    const std::pair<const char*, RopeParams> cases[] = {
        {"yarn", yarn_config(16)}, {"partial", partial}, {"dynamic", dynamic}, {"deepseek", deepseek}};
    // Unsorted, with a repeat: each length is read off at its own prefix.
    const std::vector<std::int64_t> lengths = {300, 1, 2, 40, 5, 40};
    for (const auto& [name, p] : cases) {
        const EntropyCurve got = attention_entropy(p, EntropyContent::RepeatedToken, {}, lengths, 12345, 3);
        const EntropyCurve want = reference_curve(p, lengths, 12345, 3, EntropyContent::RepeatedToken);
        ASSERT_EQ(got.length, lengths);
        for (std::size_t i = 0; i < lengths.size(); ++i) {
            EXPECT_NEAR(got.entropy[i], want.entropy[i], 1e-10) << name << " N " << lengths[i];
            EXPECT_NEAR(got.entropy_with_temperature[i], want.entropy_with_temperature[i], 1e-10)
                << name << " N " << lengths[i];
        }
    }
}

// Known case: with every frequency 0 no key is rotated, all N logits of the repeated token are equal and the
// attention is uniform, H = ln N. The sums are exact (each weight exp(0) = 1, S = N, T = 0), so the
// tolerance is 1e-12 nats, for the rounding of ln alone.
TEST(AttentionEntropy, RepeatedTokenWithoutRotationIsUniform)
{
    const RopeParams p = yarn_config(32);
    const FrequenciesAt frozen = [&p](std::int64_t n) {
        RopeParams cur = p;
        cur.seq_len = n;
        RopeFrequencies f = compute_rope_frequencies(cur);
        std::fill(f.inv_freq.begin(), f.inv_freq.end(), 0.0);
        return f;
    };
    const std::vector<std::int64_t> lengths = {1, 3, 1000, 70000};
    const EntropyCurve c = attention_entropy(p, EntropyContent::RepeatedToken, frozen, lengths, 5, 2);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        EXPECT_NEAR(c.entropy[i], std::log(static_cast<double>(lengths[i])), 1e-12) << lengths[i];
        EXPECT_NEAR(c.entropy_with_temperature[i], std::log(static_cast<double>(lengths[i])), 1e-12)
            << lengths[i];
    }
    // A frequency function of the wrong size is refused.
    const FrequenciesAt short_list = [&frozen](std::int64_t n) {
        RopeFrequencies f = frozen(n);
        f.inv_freq.pop_back();
        return f;
    };
    try {
        attention_entropy(p, EntropyContent::RepeatedToken, short_list, lengths, 5, 2);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "frequencies");
    }
}

// The point of the repeated token: it tells PI, NTK-aware and Llama 3 apart where random q, k cannot. Llama
// 3.1 8B's base (theta 500000, d 128, L 8192) extended to 131072: PI and NTK-aware with s = 16 (HF
// _compute_linear_scaling_parameters, _compute_ntk_parameters... the static NTK base theta s^(d/(d-2))),
// Llama 3 with the model's factor 8 (_compute_llama3_parameters). None has a temperature, so `entropy` is
// what the model computes. Thresholds: every pair of methods differs by more than 0.2 nats at some length for
// the repeated token (a pure-Python prototype of the same definition, 2 tokens, gave 4.62 / 5.45 / 5.05
// / 4.64 at N = 471 for unscaled / PI / NTK / Llama 3, and 10.24 / 10.61 / 10.71 for PI / NTK / Llama 3 at
// 131072), whereas random q, k keep every pair within 0.1 nats at every length (samples of one distribution;
// the spread of 4 trials is a few hundredths). This kernel, 4 tokens, seed 0, at N = 64 / 512 / 4096 / 32768
// / 131072: PI 3.949 5.616 7.411 9.100 10.119, NTK 3.583 5.535 7.506 9.140 10.477, Llama 3 3.300 5.199 7.494
// 9.507 10.651 nats.
TEST(AttentionEntropy, RepeatedTokenSeparatesPiNtkAndLlama3)
{
    RopeParams base = posatlas::test::llama31_8b();
    base.rope_type = RopeType::Default;
    RopeParams pi = base;
    pi.rope_type = RopeType::Linear;
    pi.factor = 16.0;
    pi.max_position_embeddings = 131072;
    RopeParams ntk = pi;
    ntk.rope_type = RopeType::Ntk;
    const RopeParams llama3 = posatlas::test::llama31_8b();
    const std::pair<const char*, RopeParams> methods[] = {{"PI", pi}, {"NTK", ntk}, {"Llama 3", llama3}};
    const std::vector<std::int64_t> lengths = {64, 512, 4096, 32768, 131072};
    std::vector<EntropyCurve> repeated, random;
    for (const auto& [name, p] : methods) {
        repeated.push_back(attention_entropy(p, EntropyContent::RepeatedToken, {}, lengths, 0, 4));
        random.push_back(attention_entropy(p, EntropyContent::RandomQK, {}, {64, 512, 4096}, 0, 4));
    }
    for (std::size_t a = 0; a < 3; ++a) {
        for (std::size_t b = a + 1; b < 3; ++b) {
            double widest = 0.0;
            for (std::size_t i = 0; i < lengths.size(); ++i)
                widest = std::max(widest, std::abs(repeated[a].entropy[i] - repeated[b].entropy[i]));
            EXPECT_GT(widest, 0.2) << methods[a].first << " vs " << methods[b].first;
            for (std::size_t i = 0; i < random[a].entropy.size(); ++i)
                EXPECT_LT(std::abs(random[a].entropy[i] - random[b].entropy[i]), 0.1)
                    << methods[a].first << " vs " << methods[b].first << " N " << random[a].length[i];
        }
    }
}

// The repeated token's sums run in a fixed order: bitwise the same whatever the other lengths asked for (a
// length is a prefix of one pass) and, with OpenMP, with one thread.
TEST(AttentionEntropy, RepeatedTokenDeterministic)
{
    const RopeParams p = yarn_config(32);
    const std::vector<std::int64_t> lengths = {70, 20000, 100000};
    const EntropyCurve a = attention_entropy(p, EntropyContent::RepeatedToken, {}, lengths, 3, 2);
    EXPECT_EQ(attention_entropy(p, EntropyContent::RepeatedToken, {}, {20000}, 3, 2).entropy[0],
              a.entropy[1]);
#ifdef _OPENMP
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const EntropyCurve one = attention_entropy(p, EntropyContent::RepeatedToken, {}, lengths, 3, 2);
    omp_set_num_threads(threads);
    EXPECT_EQ(one.entropy, a.entropy);
    EXPECT_EQ(one.entropy_with_temperature, a.entropy_with_temperature);
#endif
}

TEST(AttentionEntropy, RepeatedTokenCancelAndProgress)
{
    const RopeParams p = yarn_config(16);
    EXPECT_THROW(attention_entropy(p, EntropyContent::RepeatedToken, {}, {100}, 1, 2, [] { return true; }),
                 Cancelled);
    int polls = 0; // past the first chunks of the 40000 distances
    EXPECT_THROW(attention_entropy(p, EntropyContent::RepeatedToken, {}, {10, 40000}, 1, 1,
                                   [&] { return ++polls > 3; }),
                 Cancelled);
    std::vector<double> fractions;
    attention_entropy(p, EntropyContent::RepeatedToken, {}, {10, 40000}, 1, 1, {},
                      [&](double f) { fractions.push_back(f); });
    ASSERT_GE(fractions.size(), 3u);
    for (std::size_t i = 1; i < fractions.size(); ++i)
        EXPECT_GT(fractions[i], fractions[i - 1]);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

// Length-dependent query scales (query_scale.h): Qwen's log-n and Llama 4's temperature multiply every logit
// of the last query by m(N - 1) on top of the temperature. Reference: the independent recomputation above
// with the documented multiplier (1e-10 nats, as the other recomputations). Both contents, lengths on both
// sides of the trained length 64 and of floor_scale 48, unsorted with a repeat.
TEST(AttentionEntropy, QueryScaleMatchesIndependentRecomputation)
{
    QueryScale logn;
    logn.kind = QueryScaleKind::LogN;
    logn.trained_length = 64;
    QueryScale llama4;
    llama4.kind = QueryScaleKind::Llama4;
    llama4.floor_scale = 48.0;
    llama4.attn_scale = 0.5;
    RopeParams yarn = yarn_config(16);
    yarn.original_max_position_embeddings = 64; // a temperature and a query scale together
    yarn.max_position_embeddings = 1024;
    const std::vector<std::int64_t> lengths = {300, 1, 64, 65, 200, 48, 200};
    for (const EntropyContent content : {EntropyContent::RandomQK, EntropyContent::RepeatedToken})
        for (const QueryScale& scale : {logn, llama4}) {
            const EntropyCurve got = attention_entropy(yarn, content, {}, lengths, 99, 2, scale);
            const EntropyCurve want = reference_curve(yarn, lengths, 99, 2, content, scale);
            const EntropyCurve plain = attention_entropy(yarn, content, {}, lengths, 99, 2);
            ASSERT_EQ(got.entropy_with_query_scale.size(), lengths.size());
            EXPECT_TRUE(plain.entropy_with_query_scale.empty());
            for (std::size_t i = 0; i < lengths.size(); ++i) {
                const std::string where = std::string(query_scale_id(scale.kind)) + " N " +
                                          std::to_string(lengths[i]) +
                                          (content == EntropyContent::RandomQK ? " random" : " repeated");
                EXPECT_NEAR(got.entropy_with_query_scale[i], want.entropy_with_query_scale[i], 1e-10)
                    << where;
                // The other two curves are those without a scale, bit for bit.
                EXPECT_EQ(got.entropy[i], plain.entropy[i]) << where;
                EXPECT_EQ(got.entropy_with_temperature[i], plain.entropy_with_temperature[i]) << where;
            }
            // N = 64 is the last length at multiplier 1 for log-n (position 63 = L - 1): the curves agree.
            if (scale.kind == QueryScaleKind::LogN) {
                EXPECT_EQ(got.entropy_with_query_scale[2], got.entropy_with_temperature[2]);
                EXPECT_NE(got.entropy_with_query_scale[3], got.entropy_with_temperature[3]);
            }
        }
}

TEST(AttentionEntropy, QueryScaleIsValidated)
{
    QueryScale s;
    s.kind = QueryScaleKind::LogN;
    s.trained_length = 1;
    try {
        attention_entropy(RopeParams{}, EntropyContent::RandomQK, {}, {8}, 1, 1, s);
        FAIL() << "trained_length 1 accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("trained_length"), std::string::npos) << e.what();
    }
    s.kind = QueryScaleKind::Llama4;
    s.floor_scale = 0.0;
    EXPECT_THROW(attention_entropy(RopeParams{}, EntropyContent::RandomQK, {}, {8}, 1, 1, s), ParameterError);
    s.floor_scale = 8192.0;
    s.attn_scale = -0.1;
    EXPECT_THROW(attention_entropy(RopeParams{}, EntropyContent::RandomQK, {}, {8}, 1, 1, s), ParameterError);
}
