// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the context-extension explorer's per-pair tables (core/analysis/rope_compare.h).
//
// Reference values: a double-precision Python re-implementation of Hugging Face transformers
// src/transformers/modeling_rope_utils.py (_compute_llama3_parameters, _compute_yarn_parameters with
// find_correction_range, get_mscale, _compute_longrope_parameters; v5 main line and v4.4x commit
// ef46806472a64b0013ed413781e3afed82bfa047 agree on these formulas), and the YaRN paper's eq. (17)-(18)
// and (22)-(23) (Peng et al. 2023, arXiv:2309.00071), run with python3 while writing these tests; or a
// closed form re-derived in the test.
#include "analysis/rope_compare.h"
#include "methods/rope/rope.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include "rope_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

using namespace posatlas;
using posatlas::test::expect_rel;
using posatlas::test::llama2_yarn_64k;
using posatlas::test::llama31_8b;

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct Run {
    int first, last;
    PairRegime regime;
};

void expect_runs(const RopePairsTable& t, const std::vector<Run>& want)
{
    ASSERT_EQ(t.boundaries.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(t.boundaries[k].first_pair, want[k].first) << "run " << k;
        EXPECT_EQ(t.boundaries[k].last_pair, want[k].last) << "run " << k;
        EXPECT_EQ(t.boundaries[k].regime, want[k].regime) << "run " << k;
        for (int i = want[k].first; i <= want[k].last; ++i)
            EXPECT_EQ(t.rows[static_cast<std::size_t>(i)].regime, want[k].regime) << "pair " << i;
    }
}

} // namespace

TEST(RopeCompare, Llama31RegimeRuns)
{
    const RopePairsTable t = rope_pairs(llama31_8b());
    EXPECT_EQ(t.trained_length, 8192);
    EXPECT_EQ(t.target_length, 131072); // max(131072, round(8192 * 8))
    ASSERT_EQ(t.rows.size(), 64u);
    // python _compute_llama3_parameters: kept while lambda < 8192 / 4 = 2048, interpolated while
    // lambda > 8192 / 1, blended in between.
    expect_runs(
        t, {{0, 28, PairRegime::Kept}, {29, 34, PairRegime::Blended}, {35, 63, PairRegime::Interpolated}});
    // Labelling wavelengths: 2 pi 500000^(2i/128) (python), original wavelengths.
    expect_rel(t.boundaries[0].wavelength_first, kTwoPi);
    expect_rel(t.boundaries[0].wavelength_last, 1956.4972655452177);
    expect_rel(t.boundaries[1].wavelength_first, 2401.7381221887576);
    expect_rel(t.boundaries[1].wavelength_last, 6695.109481084312);
    expect_rel(t.boundaries[2].wavelength_first, 8218.718194051036);
    EXPECT_LT(t.boundaries[0].wavelength_last, *t.frequencies.llama3_high_freq_wavelen);
    EXPECT_GT(t.boundaries[2].wavelength_first, *t.frequencies.llama3_low_freq_wavelen);
    for (const RopePairRow& r : t.rows) {
        EXPECT_TRUE(std::isnan(r.ramp)); // not yarn
        const double theta = std::pow(500000.0, -2.0 * r.index / 128.0);
        expect_rel(r.theta, theta);
        expect_rel(r.wavelength, kTwoPi / theta);
        expect_rel(r.ratio, r.scaled_theta / r.theta, 1e-15);
        expect_rel(r.scaled_wavelength, kTwoPi / r.scaled_theta);
        expect_rel(r.trained_max_angle, 8191.0 * theta);
        expect_rel(r.target_max_angle, 131071.0 * r.scaled_theta);
        if (r.regime == PairRegime::Interpolated)
            expect_rel(r.ratio, 1.0 / 8.0);
    }
}

TEST(RopeCompare, Llama31UnseenRotations)
{
    // python: flag = (8192 - 1) theta < 2 pi and (target - 1) theta' >= 8192 theta.
    // At 131072 = 16 x 8192 with factor 8 the interpolated pairs 35..63 (lambda > 8191) reach
    // 131071 / 8 = 16383.9 positions' worth of angle: unseen. At 65536 = 8 x 8192 none is.
    const RopePairsTable t = rope_pairs(llama31_8b(), 8192, 131072);
    for (const RopePairRow& r : t.rows)
        EXPECT_EQ(r.unseen_rotation, r.index >= 35) << "pair " << r.index;
    for (const RopePairRow& r : rope_pairs(llama31_8b(), 8192, 65536).rows)
        EXPECT_FALSE(r.unseen_rotation) << "pair " << r.index;
}

TEST(RopeCompare, YarnLlama2RegimeRunsAndThresholds)
{
    const RopeParams p = llama2_yarn_64k();
    const RopePairsTable t = rope_pairs(p);
    EXPECT_EQ(t.trained_length, 4096);
    EXPECT_EQ(t.target_length, 65536);
    // HF find_correction_range(32, 1, 128, 10000, 4096, truncate) = (floor(20.94), ceil(45.03)) = (20, 46);
    // ramp_i = clamp((i - 20) / 26, 0, 1): ramp 0 at i <= 20 (kept), 1 at i >= 46 (interpolated).
    ASSERT_TRUE(t.frequencies.yarn_low && t.frequencies.yarn_high);
    EXPECT_EQ(*t.frequencies.yarn_low, 20.0);
    EXPECT_EQ(*t.frequencies.yarn_high, 46.0);
    expect_runs(
        t, {{0, 20, PairRegime::Kept}, {21, 45, PairRegime::Blended}, {46, 63, PairRegime::Interpolated}});
    for (const RopePairRow& r : t.rows) {
        const double want_ramp = std::clamp((r.index - 20.0) / 26.0, 0.0, 1.0);
        EXPECT_NEAR(r.ramp, want_ramp, 1e-15) << "pair " << r.index;
        // python: PI at exactly 16 x 4096 leaves no pair beyond its trained angles (65535 / 16 < 4096).
        EXPECT_FALSE(r.unseen_rotation) << "pair " << r.index;
    }
    // At 32 x 4096 the interpolated pairs 46..63 (lambda > 4095) are pushed past their trained range
    // (python).
    for (const RopePairRow& r : rope_pairs(p, 4096, 131072).rows)
        EXPECT_EQ(r.unseen_rotation, r.index >= 46) << "pair " << r.index;

    // YaRN eq. (17)-(18): r_i = 4096 / (2 pi 10000^(2i/128)) (python). HF's truncated range puts the
    // boundaries exactly where the paper's thresholds do: r > beta = 32 kept, r < alpha = 1 interpolated.
    const YarnThresholds y = yarn_thresholds(p);
    EXPECT_EQ(y.alpha, 1.0);
    EXPECT_EQ(y.beta, 32.0);
    EXPECT_EQ(y.context, 4096.0);
    ASSERT_EQ(y.r.size(), 64u);
    expect_rel(y.r[20], 36.65895489900176);
    expect_rel(y.r[21], 31.745347074201216);
    expect_rel(y.r[45], 1.0038760186703812);
    expect_rel(y.r[46], 0.8693208172452929);
    EXPECT_GT(y.r[20], y.beta);
    EXPECT_LT(y.r[21], y.beta);
    EXPECT_GT(y.r[45], y.alpha);
    EXPECT_LT(y.r[46], y.alpha);
    EXPECT_EQ(y.gamma[20], 1.0); // paper: gamma 1 keeps
    EXPECT_EQ(y.gamma[46], 0.0); // paper: gamma 0 interpolates
    expect_rel(y.gamma[21], (31.745347074201216 - 1.0) / 31.0);
}

TEST(RopeCompare, PiAllInterpolatedDefaultAllKept)
{
    RopeParams p;
    p.head_dim = 128;
    p.max_position_embeddings = 2048;
    const RopePairsTable def = rope_pairs(p, 2048, 8192);
    expect_runs(def, {{0, 63, PairRegime::Kept}});
    // Unscaled at 4x: pairs with lambda > 2047 are flagged (python: 23 pairs, 41..63).
    for (const RopePairRow& r : def.rows)
        EXPECT_EQ(r.unseen_rotation, r.index >= 41) << "pair " << r.index;
    EXPECT_EQ(rope_default_target_length(p), 2048); // default type: max_position_embeddings

    p.rope_type = RopeType::Linear;
    p.factor = 4.0;
    EXPECT_EQ(rope_default_target_length(p), 8192); // round(2048 * 4), no original length
    const RopePairsTable pi = rope_pairs(p);
    EXPECT_EQ(pi.target_length, 8192);
    expect_runs(pi, {{0, 63, PairRegime::Interpolated}});
    for (const RopePairRow& r : pi.rows)
        EXPECT_FALSE(r.unseen_rotation) << "pair " << r.index; // (8192 - 1) / 4 < 2048
    // One position more and position 8192 / 4 = 2048 was never seen by the slow pairs (python: 23 pairs).
    int flagged = 0;
    for (const RopePairRow& r : rope_pairs(p, 2048, 8193).rows)
        flagged += r.unseen_rotation ? 1 : 0;
    EXPECT_EQ(flagged, 23);
}

TEST(RopeCompare, DefaultTargetLengthRule)
{
    RopeParams p = llama31_8b();
    // An original length below max_position_embeddings: the config's own context is the target, even
    // below original * factor (Gemma 3: 32768 x 8 = 262144, but the released context is 131072).
    p.max_position_embeddings = 8192 * 4;
    EXPECT_EQ(rope_default_target_length(p), 32768);
    // Original = max (Qwen2.5's YaRN block: 32768 with factor 4): the factor rule, 8192 * 8.
    p.max_position_embeddings = 8192;
    EXPECT_EQ(rope_default_target_length(p), 65536);
    p.factor = 1e6; // 8192e6 clamps to kMaxSeqLen
    EXPECT_EQ(rope_default_target_length(p), kMaxSeqLen);

    // Never below the trained length: a default-type config with original 4096 > max 2048 trained on
    // 4096 positions (the views once disagreed here: 2048 on Curves, 4096 on Spectrum).
    RopeParams d;
    d.max_position_embeddings = 2048;
    d.original_max_position_embeddings = 4096;
    EXPECT_EQ(rope_default_target_length(d), 4096);
    EXPECT_EQ(rope_pairs(d).target_length, 4096);
}

TEST(RopeCompare, ExtensionTargetLength)
{
    // Scaled models: the views' target. Unscaled: round(L * factor), the extension explored.
    EXPECT_EQ(rope_extension_target_length(llama31_8b(), 3.0), 131072);
    RopeParams p;
    p.max_position_embeddings = 2048;
    EXPECT_EQ(rope_extension_target_length(p, 4.0), 8192);
    EXPECT_EQ(rope_extension_target_length(p, 1.5), 3072);
    EXPECT_EQ(rope_extension_target_length(p, 1e6), kMaxSeqLen); // 2048e6 clamps
    EXPECT_THROW(rope_extension_target_length(p, 0.5), ParameterError);
}

TEST(RopeCompare, ArgumentChecks)
{
    const RopeParams p = llama31_8b();
    EXPECT_THROW(rope_pairs(p, -1, 10), ParameterError);
    EXPECT_THROW(rope_pairs(p, 10, kMaxSeqLen + 1), ParameterError);
    try {
        rope_pairs(p, 8192, -5);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "target_length");
    }
    RopeParams bad = p;
    bad.head_dim = 3;
    EXPECT_THROW(rope_pairs(bad), ParameterError);
    EXPECT_THROW(standard_variants(p, 0.5, 1000), ParameterError);
    const RopeFrequencies f = compute_rope_frequencies(p);
    EXPECT_THROW(rope_score_vs_distance(f, 64, {1.0}), ParameterError); // head_dim < rotary_dim
    EXPECT_THROW(rope_score_vs_distance(f, 128, {std::nan("")}), ParameterError);
}

TEST(RopeCompare, AttentionTemperatures)
{
    // YaRN s = 16: sqrt(1/t) = 0.1 ln 16 + 1 (YaRN eq. (22)-(23); HF get_mscale).
    const TemperatureInfo y = attention_temperature(llama2_yarn_64k());
    EXPECT_EQ(y.factor, 16.0);
    expect_rel(y.yarn_sqrt_inv_t, 0.1 * std::log(16.0) + 1.0);
    expect_rel(y.yarn_sqrt_inv_t, 1.2772588722239782); // python
    expect_rel(y.used, 1.2772588722239782);
    expect_rel(y.llamacpp_yarn, 1.2772588722239782);  // llama.cpp rope_yarn: 1 * (1 + 0.1 ln 16)
    EXPECT_TRUE(std::isnan(y.deepseek_mscale_ratio)); // no mscale / mscale_all_dim

    // DeepSeek-V2-Lite: mscale = mscale_all_dim = 0.707, factor 40 -> ratio exactly 1, and HF uses it.
    RopeParams ds = llama2_yarn_64k();
    ds.head_dim = 64;
    ds.factor = 40.0;
    ds.max_position_embeddings = 163840;
    ds.mscale = 0.707;
    ds.mscale_all_dim = 0.707;
    const TemperatureInfo d = attention_temperature(ds);
    EXPECT_EQ(d.deepseek_mscale_ratio, 1.0);
    EXPECT_EQ(d.used, 1.0);
    // python (0.1*1*ln 40 + 1) / (0.1*0.8*ln 40 + 1)
    ds.mscale = 1.0;
    ds.mscale_all_dim = 0.8;
    expect_rel(attention_temperature(ds).deepseek_mscale_ratio, 1.0569662567531275);

    // Phi-3 (LongRoPE): max 131072 / original 4096 = 32, sqrt(1 + ln 32 / ln 4096)
    // (python 1.1902380714238083).
    RopeParams phi;
    phi.head_dim = 96;
    phi.rope_type = RopeType::LongRope;
    phi.max_position_embeddings = 131072;
    phi.original_max_position_embeddings = 4096;
    phi.short_factor.assign(48, 1.0);
    phi.long_factor.assign(48, 2.0);
    const TemperatureInfo l = attention_temperature(phi);
    EXPECT_EQ(l.factor, 32.0);
    expect_rel(l.longrope_factor, 1.1902380714238083);
    expect_rel(l.used, 1.1902380714238083);

    // Unscaled: every temperature is 1.
    const TemperatureInfo none = attention_temperature(RopeParams{});
    EXPECT_EQ(none.yarn_sqrt_inv_t, 1.0);
    EXPECT_EQ(none.longrope_factor, 1.0);
    EXPECT_EQ(none.used, 1.0);
}

TEST(RopeCompare, StandardVariantsOfLlama31)
{
    const std::vector<ScalingVariant> v = standard_variants(llama31_8b(), 8.0, 131072);
    const std::vector<std::string> labels = {"Default (unscaled)", "PI (linear)", "NTK-aware",
                                             "Dynamic NTK",        "YaRN",        "Llama 3"};
    ASSERT_EQ(v.size(), labels.size()); // no LongRoPE: the model has no factor lists
    for (std::size_t i = 0; i < v.size(); ++i) {
        EXPECT_EQ(v[i].label, labels[i]);
        EXPECT_EQ(v[i].params.head_dim, 128);
        EXPECT_EQ(v[i].params.rope_theta, 500000.0);
        EXPECT_EQ(v[i].params.trained_length(), 8192);
    }
    const std::vector<RopePairsTable> t = compare_scalings(v, 8192, 131072);
    ASSERT_EQ(t.size(), v.size());
    expect_runs(t[0], {{0, 63, PairRegime::Kept}});
    expect_runs(t[1], {{0, 63, PairRegime::Interpolated}});
    // NTK-aware: base' = 500000 * 8^(128/126) (python 4134231.132028111); ratio_i = 8^(-2i/126), so pair 0
    // keeps theta = 1 and the last pair (i = 63) is divided by exactly 8, by design of the exponent.
    expect_rel(t[2].frequencies.base_used, 4134231.132028111);
    expect_runs(t[2],
                {{0, 0, PairRegime::Kept}, {1, 62, PairRegime::Blended}, {63, 63, PairRegime::Interpolated}});
    // Dynamic NTK reads the model's own max_position_embeddings 131072, as HF
    // _compute_dynamic_ntk_parameters does (config.max_position_embeddings, not the original 8192): at
    // seq_len 131072 = M the base is unchanged.
    EXPECT_EQ(v[3].params.max_position_embeddings, 131072);
    EXPECT_EQ(t[3].frequencies.base_used, 500000.0);
    expect_runs(t[3], {{0, 63, PairRegime::Kept}});
    // YaRN on Llama 3.1's base: python find_correction_range(32, 1, 128, 500000, 8192) = (18, 35).
    EXPECT_EQ(*t[4].frequencies.yarn_low, 18.0);
    EXPECT_EQ(*t[4].frequencies.yarn_high, 35.0);
    expect_runs(
        t[4], {{0, 18, PairRegime::Kept}, {19, 34, PairRegime::Blended}, {35, 63, PairRegime::Interpolated}});
    expect_rel(t[4].frequencies.attention_factor, 0.1 * std::log(8.0) + 1.0);
    // The Llama 3 variant is the model's own scaling.
    expect_runs(
        t[5], {{0, 28, PairRegime::Kept}, {29, 34, PairRegime::Blended}, {35, 63, PairRegime::Interpolated}});

    // A LongRoPE model adds its own configuration, evaluated at the target length (long factors).
    RopeParams phi;
    phi.head_dim = 96;
    phi.rope_type = RopeType::LongRope;
    phi.max_position_embeddings = 131072;
    phi.original_max_position_embeddings = 4096;
    phi.short_factor.assign(48, 1.0);
    phi.long_factor.assign(48, 2.0);
    const std::vector<ScalingVariant> pv = standard_variants(phi, 32.0, 131072);
    ASSERT_EQ(pv.size(), 7u);
    EXPECT_EQ(pv.back().label, "LongRoPE");
    const RopePairsTable lt = rope_pairs(pv.back().params, 4096, 131072);
    for (const RopePairRow& r : lt.rows)
        expect_rel(r.ratio, 0.5); // theta / long_factor 2
}

// The explorer's dynamic NTK (its probe and its variants) and `compute rope-frequencies --rope-type dynamic`
// on a config are one definition: the model's config with rope_type dynamic. HF
// _compute_dynamic_ntk_parameters: base' = base * (s * N / M - (s - 1))^(d / (d - 2)) for N > M, M =
// config.max_position_embeddings (v4.4x and v5), else base. Reference recomputed from that formula here;
// tolerance 1e-12 relative.
TEST(RopeCompare, DynamicNtkOfDeepSeekV3ReadsItsOwnMaxPositions)
{
    const RopeParams v3 = test::deepseek_v3(); // max 163840, yarn factor 40 from 4096
    RopeParams d = dynamic_ntk_params(v3, 40.0);
    EXPECT_EQ(d.rope_type, RopeType::Dynamic);
    EXPECT_EQ(d.max_position_embeddings, 163840);
    EXPECT_EQ(d.trained_length(), 4096); // kept for the views, not read by dynamic NTK

    // What the command line computes: the imported config with --rope-type dynamic (rope_type replaced).
    RopeParams cli = v3;
    cli.rope_type = RopeType::Dynamic;
    for (std::int64_t n : {std::int64_t{4096}, std::int64_t{163840}, std::int64_t{327680}}) {
        d.seq_len = n;
        cli.seq_len = n;
        const double want =
            n <= 163840 ? 10000.0
                        : 10000.0 * std::pow(40.0 * static_cast<double>(n) / 163840.0 - 39.0, 64.0 / 62.0);
        expect_rel(compute_rope_frequencies(d).base_used, want);
        EXPECT_EQ(compute_rope_frequencies(d).inv_freq, compute_rope_frequencies(cli).inv_freq) << n;
    }
    // At N = 163840 = M: rope_theta unchanged (the explorer used to take M = 4096 and show 1.98e7).
    d.seq_len = 163840;
    EXPECT_EQ(compute_rope_frequencies(d).base_used, 10000.0);
    // The standard Dynamic NTK variant is the same configuration.
    const std::vector<ScalingVariant> sv = standard_variants(v3, 40.0, 163840);
    EXPECT_EQ(sv[3].label, "Dynamic NTK");
    RopeParams from_variants = sv[3].params;
    from_variants.seq_len = 0;
    d.seq_len = 0;
    EXPECT_EQ(from_variants, d);
}

TEST(RopeCompare, ScoreVsDistance)
{
    RopeParams p;
    p.head_dim = 128;
    const RopeFrequencies f = compute_rope_frequencies(p);
    // python: sum_i 2 cos(r 10000^(-2i/128)) / sqrt(128); r = 0 gives 128 / sqrt(128).
    const std::vector<double> s = rope_score_vs_distance(f, 128, {0.0, 100.0, 1000.0, 5000.0});
    expect_rel(s[0], std::sqrt(128.0));
    expect_rel(s[1], 5.399370985072042, 1e-11);
    expect_rel(s[2], 1.7991851448398055, 1e-11);
    expect_rel(s[3], -0.07869668387310949, 1e-9); // near a zero: relative error of the cos sum is larger

    // Partial rotary: head_dim 64, rotary_dim 32; the 32 pass-through ones add 32 (python 6.856733563621749).
    RopeParams partial;
    partial.head_dim = 64;
    partial.partial_rotary_factor = 0.5;
    const std::vector<double> ps = rope_score_vs_distance(compute_rope_frequencies(partial), 64, {7.0});
    expect_rel(ps[0], 6.856733563621749, 1e-11);

    // YaRN includes a^2 (python, HF frequencies of Yarn-Llama-2-7b-64k): 7.558282220226092 at r = 300.
    const RopeFrequencies yf = compute_rope_frequencies(llama2_yarn_64k());
    expect_rel(rope_score_vs_distance(yf, 128, {300.0})[0], 7.558282220226092, 1e-11);

    // Cancel is honoured.
    EXPECT_THROW(rope_score_vs_distance(f, 128, std::vector<double>(10000, 1.0), [] { return true; }),
                 Cancelled);
    // Explicit q, k: the overload agrees with the full rotation (R(37) q) . (R(0) k) / sqrt(d) of rope.h's
    // rope_score within rounding (1e-12 absolute on values of order 10).
    Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(128, -1.0, 1.0);
    Eigen::VectorXd k = Eigen::VectorXd::LinSpaced(128, 2.0, -0.5);
    const std::vector<double> e = rope_score_vs_distance(f, q, k, RopePairing::Interleaved, {37.0});
    EXPECT_NEAR(e[0], rope_score(f, q, k, 37.0, 0.0, RopePairing::Interleaved) / std::sqrt(128.0), 1e-12);
}
