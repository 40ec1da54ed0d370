// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of compute_rope_frequencies / compute_yarn_llamacpp (core/methods/rope/rope_scaling.h).
//
// Reference values: a double-precision Python re-implementation of Hugging Face transformers
// src/transformers/modeling_rope_utils.py (_compute_*_parameters; v5 main line and v4.4x commit
// ef46806472a64b0013ed413781e3afed82bfa047 agree on these formulas) and of llama.cpp
// ggml_rope_yarn_corr_dims / rope_yarn (commit c392e5094deaf2d1a7c18683214f007fad3fe42b), run by hand
// with python3 while writing these tests; or the closed-form formula, re-derived in the test.
#include "methods/rope/rope_scaling.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include "rope_fixtures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

using namespace posatlas;

using posatlas::test::expect_rel;
using posatlas::test::llama2_yarn_64k;
using posatlas::test::llama31_8b;

TEST(RopeScaling, DefaultInvFreq)
{
    RopeParams p; // head_dim 128, rope_theta 10000
    const RopeFrequencies f = compute_rope_frequencies(p);
    ASSERT_EQ(f.rotary_dim, 128);
    ASSERT_EQ(f.inv_freq.size(), 64u);
    // RoFormer eq. (15): theta_i = 10000^(-2i/d); theta_0 = 1 exactly.
    EXPECT_EQ(f.inv_freq[0], 1.0);
    expect_rel(f.inv_freq[63], 0.00011547819846894582); // python: 10000 ** (-126 / 128)
    expect_rel(f.inv_freq[63], std::pow(10000.0, -126.0 / 128.0));
    EXPECT_EQ(f.attention_factor, 1.0);
    EXPECT_EQ(f.base_used, 10000.0);
    for (std::size_t i = 0; i < 64; ++i) {
        EXPECT_EQ(f.regime[i], PairRegime::Kept);
        expect_rel(f.wavelength[i], 2.0 * std::numbers::pi / f.inv_freq[i]);
    }
    EXPECT_TRUE(f.ramp.empty());
    EXPECT_FALSE(f.yarn_low.has_value());
}

TEST(RopeScaling, LinearIsDefaultOverFactor)
{
    RopeParams p;
    p.rope_type = RopeType::Linear;
    p.factor = 4.0;
    const RopeFrequencies f = compute_rope_frequencies(p);
    // HF _compute_linear_scaling_rope_parameters: inv_freq /= factor.
    for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
        expect_rel(f.inv_freq[i], f.inv_freq_original[i] / 4.0, 1e-15);
        EXPECT_EQ(f.regime[i], PairRegime::Interpolated);
    }
    EXPECT_EQ(f.attention_factor, 1.0);
}

TEST(RopeScaling, StaticNtkBase)
{
    RopeParams p;
    p.rope_type = RopeType::Ntk;
    p.factor = 4.0;
    const RopeFrequencies f = compute_rope_frequencies(p);
    // bloc97's NTK-aware formula: base' = base * alpha^(d/(d-2)); python: 10000 * 4 ** (128/126).
    expect_rel(f.base_used, 40889.94243248622);
    expect_rel(f.inv_freq[10], std::pow(40889.94243248622, -20.0 / 128.0));
    EXPECT_EQ(f.inv_freq[0], 1.0); // theta_0 = base'^0
    EXPECT_EQ(f.regime[0], PairRegime::Kept);
    EXPECT_EQ(f.regime[10], PairRegime::Blended);
    // The last pair: (base'/base)^(-126/128) = 4^(-1), so NTK interpolates it exactly like linear scaling.
    EXPECT_EQ(f.regime[63], PairRegime::Interpolated);
}

TEST(RopeScaling, NtkOnATooSmallHeadNamesWhatMakesItSmall)
{
    // The exponent d / (d - 2) needs rotary_dim >= 4. When the whole head rotates, the head size is the
    // parameter at fault; when a fraction rotates, the fraction (with the head size in the message).
    for (RopeType type : {RopeType::Ntk, RopeType::Dynamic}) {
        RopeParams p;
        p.rope_type = type;
        p.head_dim = 2;
        try {
            compute_rope_frequencies(p);
            ADD_FAILURE() << "expected ParameterError";
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "head_dim");
            EXPECT_EQ(e.got(), "2");
        }
        p.head_dim = 8;
        p.partial_rotary_factor = 0.25;
        try {
            compute_rope_frequencies(p);
            ADD_FAILURE() << "expected ParameterError";
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "partial_rotary_factor");
            EXPECT_EQ(e.got(), "0.25, rotary_dim 2 of head_dim 8");
        }
    }
}

TEST(RopeScaling, DynamicNtk)
{
    RopeParams p;
    p.rope_type = RopeType::Dynamic;
    p.factor = 2.0;
    p.max_position_embeddings = 4096;
    // HF _compute_dynamic_ntk_parameters: seq_len <= max_position_embeddings -> default frequencies.
    for (std::int64_t len : {std::int64_t{0}, std::int64_t{100}, std::int64_t{4096}}) {
        p.seq_len = len;
        const RopeFrequencies f = compute_rope_frequencies(p);
        expect_rel(f.base_used, 10000.0, 1e-15);
        for (std::size_t i = 0; i < f.inv_freq.size(); ++i)
            expect_rel(f.inv_freq[i], f.inv_freq_original[i], 1e-14);
    }
    // Above: base * ((factor * seq_len / max) - (factor - 1))^(d/(d-2)); python: 10000 * 3 ** (128/126).
    p.seq_len = 8192;
    const RopeFrequencies f = compute_rope_frequencies(p);
    expect_rel(f.base_used, 30527.7367488067);
    expect_rel(f.inv_freq[32], 1.0 / std::pow(30527.7367488067, 64.0 / 128.0));
}

TEST(RopeScaling, YarnFactorOneIsDefault)
{
    RopeParams p = llama2_yarn_64k();
    p.factor = 1.0;
    const RopeFrequencies f = compute_rope_frequencies(p);
    // get_mscale(1) = 1 and inv_freq_interpolation == inv_freq_extrapolation.
    EXPECT_EQ(f.attention_factor, 1.0);
    for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
        expect_rel(f.inv_freq[i], f.inv_freq_original[i], 1e-15);
        EXPECT_EQ(f.regime[i], PairRegime::Kept);
    }
}

TEST(RopeScaling, YarnLlama2_64k)
{
    const RopeFrequencies f = compute_rope_frequencies(llama2_yarn_64k());
    // YaRN paper eq. (22) / HF get_mscale: 0.1 ln(16) + 1 (python: 1.2772588722239782).
    expect_rel(f.attention_factor, 0.1 * std::log(16.0) + 1.0);
    expect_rel(f.attention_factor, 1.2772588722239782);
    // find_correction_range(32, 1, 128, 10000, 4096): floor(20.944...) = 20, ceil(45.026...) = 46.
    ASSERT_TRUE(f.yarn_low && f.yarn_high);
    EXPECT_EQ(*f.yarn_low, 20.0);
    EXPECT_EQ(*f.yarn_high, 46.0);
    ASSERT_EQ(f.ramp.size(), 64u);
    // Ramp endpoints: 0 up to pair 20, 1/26 at 21, 25/26 at 45, 1 from 46 (python linear_ramp_factor).
    EXPECT_EQ(f.ramp[0], 0.0);
    EXPECT_EQ(f.ramp[20], 0.0);
    expect_rel(f.ramp[21], 0.038461538461538464);
    expect_rel(f.ramp[45], 0.9615384615384616);
    EXPECT_EQ(f.ramp[46], 1.0);
    EXPECT_EQ(f.ramp[63], 1.0);
    // inv_freq (python, double): pair 30 is blended, pair 63 fully interpolated.
    EXPECT_EQ(f.inv_freq[0], 1.0);
    expect_rel(f.inv_freq[30], 0.00852684377296741);
    expect_rel(f.inv_freq[63], 7.217387404309114e-06);
    EXPECT_EQ(f.regime[20], PairRegime::Kept);
    EXPECT_EQ(f.regime[21], PairRegime::Blended);
    EXPECT_EQ(f.regime[45], PairRegime::Blended);
    EXPECT_EQ(f.regime[46], PairRegime::Interpolated);
}

TEST(RopeScaling, YarnNoTruncateKeepsFractionalRange)
{
    RopeParams p = llama2_yarn_64k();
    p.truncate = false; // HF: find_correction_range skips floor/ceil (gpt-oss style)
    const RopeFrequencies f = compute_rope_frequencies(p);
    expect_rel(*f.yarn_low, 20.94448162063605, 1e-13);  // python find_correction_dim(32, ...)
    expect_rel(*f.yarn_high, 45.02688127375455, 1e-13); // python find_correction_dim(1, ...)
    expect_rel(f.inv_freq[30], 0.008634272965535735, 1e-12);
}

TEST(RopeScaling, YarnDeepSeekV2LiteEqualMscales)
{
    // deepseek-ai/DeepSeek-V2-Lite config.json: qk_rope_head_dim 64, rope_theta 10000, max 163840,
    // rope_scaling {type: yarn, factor 40, original_max_position_embeddings 4096, beta_fast 32,
    // beta_slow 1, mscale 0.707, mscale_all_dim 0.707}.
    RopeParams p;
    p.head_dim = 64;
    p.rope_theta = 10000.0;
    p.rope_type = RopeType::Yarn;
    p.factor = 40.0;
    p.max_position_embeddings = 163840;
    p.original_max_position_embeddings = 4096;
    p.mscale = 0.707;
    p.mscale_all_dim = 0.707;
    const RopeFrequencies f = compute_rope_frequencies(p);
    // get_mscale(40, 0.707) / get_mscale(40, 0.707) = 1 exactly.
    EXPECT_EQ(f.attention_factor, 1.0);
    EXPECT_EQ(*f.yarn_low, 10.0);  // python
    EXPECT_EQ(*f.yarn_high, 23.0); // python
    expect_rel(f.inv_freq[10], 0.056234132519034905);
    expect_rel(f.inv_freq[20], 0.0007905694150420945);

    // Unequal mscales: ratio of get_mscale (python: (0.1*1*ln40+1)/(0.1*0.8*ln40+1)).
    p.mscale = 1.0;
    p.mscale_all_dim = 0.8;
    expect_rel(compute_rope_frequencies(p).attention_factor, 1.0569662567531275);
    // Only mscale set: HF's "if mscale and mscale_all_dim" is false -> plain get_mscale(factor).
    p.mscale_all_dim.reset();
    expect_rel(compute_rope_frequencies(p).attention_factor, 0.1 * std::log(40.0) + 1.0);
    // An explicit attention_factor wins over everything.
    p.attention_factor = 0.5;
    EXPECT_EQ(compute_rope_frequencies(p).attention_factor, 0.5);
}

// DeepSeek's attention multiplies its softmax scale by yarn_get_mscale(factor, mscale_all_dim)^2, beside the
// rotary attention factor (transformers models/deepseek_v3/modeling_deepseek_v3.py
// DeepseekV3Attention.__init__: "if mscale_all_dim: mscale = yarn_get_mscale(scaling_factor,
// mscale_all_dim); self.scaling = self.scaling * mscale * mscale", yarn_get_mscale(s, m) = 0.1 m ln s + 1
// for s > 1). Reference recomputed here from that formula; tolerance 1e-14 relative (one log, one square).
TEST(RopeScaling, DeepSeekSoftmaxScaleIsMscaleAllDimSquared)
{
    const auto yarn_get_mscale = [](double s, double m) {
        return s <= 1.0 ? 1.0 : 0.1 * m * std::log(s) + 1.0;
    };
    RopeParams p = test::deepseek_v3(); // factor 40, mscale 1.0, mscale_all_dim 1.0
    const RopeFrequencies f = compute_rope_frequencies(p);
    EXPECT_EQ(f.attention_factor, 1.0); // _compute_yarn_parameters: get_mscale(40, 1) / get_mscale(40, 1)
    const double v3 = yarn_get_mscale(40.0, 1.0) * yarn_get_mscale(40.0, 1.0);
    expect_rel(f.softmax_scale, v3, 1e-14);
    expect_rel(f.logit_multiplier(), v3, 1e-14);
    EXPECT_NEAR(f.logit_multiplier(), 1.8739, 5e-5); // the value the issue quotes, to its 4 decimals

    // DeepSeek-V2-Lite: mscale = mscale_all_dim = 0.707.
    p.mscale = 0.707;
    p.mscale_all_dim = 0.707;
    const double lite = yarn_get_mscale(40.0, 0.707) * yarn_get_mscale(40.0, 0.707);
    expect_rel(compute_rope_frequencies(p).logit_multiplier(), lite, 1e-14);

    // Unequal mscales: the rotary factor squared times the softmax square is get_mscale(s, mscale)^2.
    p.mscale = 1.0;
    p.mscale_all_dim = 0.8;
    expect_rel(compute_rope_frequencies(p).logit_multiplier(),
               yarn_get_mscale(40.0, 1.0) * yarn_get_mscale(40.0, 1.0), 1e-14);

    // Off (every other model): no extra multiplier.
    p.softmax_mscale = false;
    EXPECT_EQ(compute_rope_frequencies(p).softmax_scale, 1.0);

    // On without mscale_all_dim: refused, naming the parameter.
    p.softmax_mscale = true;
    p.mscale_all_dim.reset();
    try {
        compute_rope_frequencies(p);
        FAIL() << "softmax_mscale without mscale_all_dim accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "softmax_mscale");
        EXPECT_NE(std::string(e.allowed()).find("mscale_all_dim"), std::string::npos);
    }
}

TEST(RopeScaling, Llama31Bands)
{
    const RopeFrequencies f = compute_rope_frequencies(llama31_8b());
    EXPECT_EQ(*f.llama3_low_freq_wavelen, 8192.0);  // 8192 / low_freq_factor 1
    EXPECT_EQ(*f.llama3_high_freq_wavelen, 2048.0); // 8192 / high_freq_factor 4
    EXPECT_EQ(f.attention_factor, 1.0);
    // python re-implementation of _compute_llama3_parameters: pairs 0..28 kept, 29..34 blended,
    // 35..63 divided by 8.
    for (std::size_t i = 0; i < 64; ++i) {
        const PairRegime want = i < 29   ? PairRegime::Kept
                                : i < 35 ? PairRegime::Blended
                                         : PairRegime::Interpolated;
        EXPECT_EQ(f.regime[i], want) << "pair " << i;
    }
    // Blended values (python, double).
    const double blended[] = {0.002166570763503359,  0.0013718935677611381,  0.0008567514129196321,
                              0.0005248461609929547, 0.00031269375038406517, 0.00017850781276799638};
    for (int j = 0; j < 6; ++j)
        expect_rel(f.inv_freq[static_cast<std::size_t>(29 + j)], blended[j]);
    EXPECT_EQ(f.inv_freq[0], 1.0);
    expect_rel(f.inv_freq[63], 3.068925988914511e-07);
}

// Llama 4 Scout's rope_scaling (llama3, factor 16, low_freq_factor = high_freq_factor = 1, original 8192):
// transformers _compute_llama3_parameters keeps every wavelength below 8192 and divides every one above by
// 16; the band between is empty. Tolerance: exact (a copy or one division per pair).
TEST(RopeScaling, Llama3EqualFactorsHaveNoBlendedBand)
{
    RopeParams p;
    p.head_dim = 128;
    p.rope_theta = 500000.0;
    p.rope_type = RopeType::Llama3;
    p.factor = 16.0;
    p.low_freq_factor = 1.0;
    p.high_freq_factor = 1.0;
    p.max_position_embeddings = 10485760;
    p.original_max_position_embeddings = 8192;
    EXPECT_NO_THROW(validate(p));
    const RopeFrequencies f = compute_rope_frequencies(p);
    int kept = 0;
    int divided = 0;
    for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
        const double wl = 2.0 * std::numbers::pi / f.inv_freq_original[i];
        ASSERT_TRUE(std::isfinite(f.inv_freq[i])) << "pair " << i;
        if (wl < 8192.0) {
            EXPECT_EQ(f.inv_freq[i], f.inv_freq_original[i]) << "pair " << i;
            ++kept;
        } else {
            EXPECT_EQ(f.inv_freq[i], f.inv_freq_original[i] / 16.0) << "pair " << i;
            ++divided;
        }
    }
    EXPECT_GT(kept, 0);
    EXPECT_GT(divided, 0);
    // A high factor below the low one is still refused, by name.
    p.high_freq_factor = 0.5;
    try {
        validate(p);
        FAIL() << "high_freq_factor below low_freq_factor accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "high_freq_factor");
    }
}

TEST(RopeScaling, LongRopeShortLongAndAttention)
{
    // Phi-3-mini-128k-like: head_dim 96, max 131072, original 4096, per-pair factors (48 values).
    RopeParams p;
    p.head_dim = 96;
    p.rope_theta = 10000.0;
    p.rope_type = RopeType::LongRope;
    p.max_position_embeddings = 131072;
    p.original_max_position_embeddings = 4096;
    for (int i = 0; i < 48; ++i) {
        p.short_factor.push_back(1.0 + 0.01 * i);
        p.long_factor.push_back(1.0 + 0.5 * i);
    }
    p.long_factor[10] = 32.0; // == max / original: this pair is exactly interpolated

    auto check = [&](std::int64_t seq_len, const std::vector<double>& ext) {
        p.seq_len = seq_len;
        const RopeFrequencies f = compute_rope_frequencies(p);
        for (std::size_t i = 0; i < 48; ++i) // HF: 1 / (ext_factors * base ** (arange(0, d, 2) / d))
            expect_rel(f.inv_freq[i], 1.0 / (ext[i] * std::pow(10000.0, 2.0 * i / 96.0)));
        // factor = 131072 / 4096 = 32; sqrt(1 + ln 32 / ln 4096) (python: 1.1902380714238083).
        expect_rel(f.attention_factor, 1.1902380714238083);
        EXPECT_EQ(f.factor_used, 32.0);
        return f;
    };
    check(0, p.short_factor);    // no length: short
    check(4096, p.short_factor); // seq_len == original: short (strict >)
    const RopeFrequencies lf = check(4097, p.long_factor);
    EXPECT_EQ(lf.regime[0], PairRegime::Kept);
    EXPECT_EQ(lf.regime[1], PairRegime::Blended);
    EXPECT_EQ(lf.regime[10], PairRegime::Interpolated);

    p.attention_factor = 1.25;
    EXPECT_EQ(compute_rope_frequencies(p).attention_factor, 1.25);
}

TEST(RopeScaling, PartialRotaryNeoX)
{
    // EleutherAI Pythia-6.9B (GPT-NeoX): hidden 4096 / 32 heads = head_dim 128, rotary_pct 0.25 ->
    // rotary_dim 32 (HF: int(head_dim * partial_rotary_factor)), theta_i = 10000^(-2i/32).
    RopeParams p;
    p.head_dim = 128;
    p.partial_rotary_factor = 0.25;
    const RopeFrequencies f = compute_rope_frequencies(p);
    EXPECT_EQ(f.rotary_dim, 32);
    ASSERT_EQ(f.inv_freq.size(), 16u);
    expect_rel(f.inv_freq[15], std::pow(10000.0, -30.0 / 32.0));
}

TEST(RopeScaling, PairRegimeIds)
{
    EXPECT_EQ(pair_regime_id(PairRegime::Kept), "kept");
    EXPECT_EQ(pair_regime_id(PairRegime::Interpolated), "interpolated");
    EXPECT_EQ(pair_regime_id(PairRegime::Blended), "blended");
}

TEST(RopeScaling, LlamaCppYarnDiffersOnlyWhereDocumented)
{
    RopeParams p = llama2_yarn_64k();
    // With truncate (HF default) both agree on the frequencies and the mscale (python: both
    // 0.00852684377296741).
    const RopeFrequencies hf = compute_rope_frequencies(p);
    const RopeFrequencies cpp = compute_yarn_llamacpp(p);
    EXPECT_EQ(*cpp.yarn_low, 20.0);
    EXPECT_EQ(*cpp.yarn_high, 46.0);
    for (std::size_t i = 0; i < 64; ++i)
        expect_rel(cpp.inv_freq[i], hf.inv_freq[i], 1e-14);
    expect_rel(cpp.attention_factor, 1.2772588722239782);

    // truncate = false: HF keeps the fractional range, llama.cpp still floors/ceils.
    p.truncate = false;
    expect_rel(compute_yarn_llamacpp(p).inv_freq[30], 0.00852684377296741);
    expect_rel(compute_rope_frequencies(p).inv_freq[30], 0.008634272965535735);

    // DeepSeek mscale: HF ratio 1, llama.cpp's kernel 1 + 0.1 ln 40 (mscale handled in its graph).
    p = llama2_yarn_64k();
    p.factor = 40.0;
    p.mscale = 0.707;
    p.mscale_all_dim = 0.707;
    EXPECT_EQ(compute_rope_frequencies(p).attention_factor, 1.0);
    expect_rel(compute_yarn_llamacpp(p).attention_factor, 1.0 + 0.1 * std::log(40.0));
}

struct BadCase {
    const char* name;
    void (*mutate)(RopeParams&);
    const char* key;
};

class RopeScalingBadParams : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(RopeScalingBadParams, ThrowsNamingTheKey)
{
    RopeParams p;
    GetParam().mutate(p);
    try {
        compute_rope_frequencies(p);
        FAIL() << "no ParameterError for " << GetParam().name;
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), GetParam().key);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Table, RopeScalingBadParams,
    ::testing::Values(BadCase{"base 0.5", [](RopeParams& p) { p.rope_theta = 0.5; }, "rope_theta"},
                      BadCase{"odd head_dim", [](RopeParams& p) { p.head_dim = 127; }, "head_dim"},
                      BadCase{"factor 0.5", [](RopeParams& p) { p.factor = 0.5; }, "factor"},
                      BadCase{"longrope without factors",
                              [](RopeParams& p) { p.rope_type = RopeType::LongRope; }, "short_factor"},
                      BadCase{"ntk with one pair",
                              [](RopeParams& p) {
                                  p.head_dim = 2;
                                  p.rope_type = RopeType::Ntk;
                              },
                              "head_dim"}),
    [](const ::testing::TestParamInfo<BadCase>& info) {
        std::string n = info.param.name;
        for (char& c : n)
            if (!std::isalnum(static_cast<unsigned char>(c)))
                c = '_';
        return n;
    });
