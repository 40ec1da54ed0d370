// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp's YaRN as a per-pair table (core/analysis/rope_compare.h yarn_llamacpp_pairs), against
// llama.cpp's formulas re-derived here from its sources (llama.cpp commit
// c392e5094deaf2d1a7c18683214f007fad3fe42b):
//   ggml/src/ggml.c   ggml_rope_yarn_corr_dim(n_dims, n_ctx_orig, n_rot, base)
//                       = n_dims * log(n_ctx_orig / (n_rot * 2 pi)) / (2 log(base));
//                     ggml_rope_yarn_corr_dims: dims[0] = max(0, floor(corr_dim(beta_fast))),
//                       dims[1] = min(n_dims - 1, ceil(corr_dim(beta_slow)));
//   ggml/src/ggml-cpu rope_yarn_ramp(low, high, i0) = 1 - min(1, max(0, (i0 / 2 - low) / max(0.001, high -
//   low)));
//                     rope_yarn: theta_interp = freq_scale * theta_extrap, ramp_mix = ramp * ext_factor,
//                       theta = theta_interp (1 - ramp_mix) + theta_extrap ramp_mix,
//                       mscale = attn_factor * (1 + 0.1 log(1 / freq_scale)) when ext_factor != 0;
//                     the cache steps theta_extrap = base^(-2 i / n_dims) by theta *= theta_scale in float.
// With freq_scale = 1 / factor, ext_factor = 1 (llama.cpp's YaRN default), n_ctx_orig the trained length.
#include "analysis/rope_compare.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include "rope_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

using namespace posatlas;
using posatlas::test::expect_rel;
using posatlas::test::llama2_yarn_64k;

namespace {

constexpr double kPi = std::numbers::pi;

// The frequency llama.cpp gives pair i (its angle at position 1), in double.
struct LlamaCppYarn {
    double low = 0.0, high = 0.0;
    std::vector<double> theta; // per pair
    double mscale = 1.0;
};

LlamaCppYarn llamacpp_reference(int n_dims, int n_ctx_orig, double base, double factor, double beta_fast,
                                double beta_slow, double attn_factor)
{
    auto corr_dim = [&](double n_rot) {
        return n_dims * std::log(n_ctx_orig / (n_rot * 2 * kPi)) / (2 * std::log(base));
    };
    LlamaCppYarn y;
    y.low = std::max(0.0, std::floor(corr_dim(beta_fast)));
    y.high = std::min(static_cast<double>(n_dims - 1), std::ceil(corr_dim(beta_slow)));
    const double freq_scale = 1.0 / factor;
    const double ext_factor = 1.0;
    for (int i0 = 0; i0 < n_dims; i0 += 2) {
        const double theta_extrap = std::pow(base, -static_cast<double>(i0) / n_dims);
        const double ramp =
            1.0 - std::min(1.0, std::max(0.0, (i0 / 2 - y.low) / std::max(0.001, y.high - y.low)));
        const double ramp_mix = ramp * ext_factor;
        const double theta_interp = freq_scale * theta_extrap;
        y.theta.push_back(theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix);
    }
    y.mscale = attn_factor * (1.0 + 0.1 * std::log(1.0 / freq_scale));
    return y;
}

// The same in float32 as ggml-cpu's cache computes it (theta *= theta_scale per pair).
std::vector<float> llamacpp_float_theta(int n_dims, float base, float factor, float low, float high)
{
    const float theta_scale = std::pow(base, -2.0f / static_cast<float>(n_dims));
    const float freq_scale = 1.0f / factor;
    float theta_extrap = 1.0f; // position 1
    std::vector<float> out;
    for (int i0 = 0; i0 < n_dims; i0 += 2) {
        const float y = (static_cast<float>(i0 / 2) - low) / std::max(0.001f, high - low);
        const float ramp_mix = 1.0f - std::min(1.0f, std::max(0.0f, y));
        const float theta_interp = freq_scale * theta_extrap;
        out.push_back(theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix);
        theta_extrap *= theta_scale;
    }
    return out;
}

void expect_matches_llamacpp(const RopeParams& p, std::int64_t trained, std::int64_t target)
{
    const RopePairsTable t = yarn_llamacpp_pairs(p, trained, target);
    const LlamaCppYarn ref =
        llamacpp_reference(p.rotary_dim(), static_cast<int>(p.trained_length()), p.rope_theta, p.factor,
                           p.beta_fast, p.beta_slow, p.attention_factor.value_or(1.0));
    ASSERT_EQ(t.rows.size(), ref.theta.size());
    EXPECT_EQ(*t.frequencies.yarn_low, ref.low);
    EXPECT_EQ(*t.frequencies.yarn_high, ref.high);
    // Tolerance 1e-12 relative: the same formulas in double, only libm's pow / log rounding differs.
    expect_rel(t.frequencies.attention_factor, ref.mscale);
    const std::vector<float> f32 =
        llamacpp_float_theta(p.rotary_dim(), static_cast<float>(p.rope_theta), static_cast<float>(p.factor),
                             static_cast<float>(ref.low), static_cast<float>(ref.high));
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        const RopePairRow& r = t.rows[i];
        SCOPED_TRACE("pair " + std::to_string(i));
        expect_rel(r.scaled_theta, ref.theta[i]);
        // ggml's float32 cache: theta_scale^i carries theta_scale's rounding i times plus one rounding
        // per step, <= 2 * 64 * 6e-8 = 7.7e-6 for 64 pairs; 2e-5 relative covers it.
        expect_rel(r.scaled_theta, f32[i], 2e-5);
        // The row's other columns from that frequency, by RopePairRow's definitions.
        expect_rel(r.ratio, ref.theta[i] / r.theta);
        expect_rel(r.scaled_wavelength, 2 * kPi / ref.theta[i]);
        const auto target_len = static_cast<double>(t.target_length); // target 0: the default length
        expect_rel(r.target_max_angle, (target_len - 1) * ref.theta[i]);
        expect_rel(r.target_rotations, target_len * ref.theta[i] / (2 * kPi));
        // Our ramp is llama.cpp's complement (1 interpolates).
        const double ramp = (r.theta - ref.theta[i]) / (r.theta - r.theta / p.factor);
        EXPECT_NEAR(r.ramp, ramp, 1e-9); // absolute, of a value in [0, 1]; cancellation near theta
    }
}

} // namespace

TEST(YarnLlamaCppPairs, MatchLlamaCppFormulasOnYarnLlama2)
{
    // NousResearch/Yarn-Llama-2-7b-64k: factor 16 from 4096, beta 32 / 1: dims [20, 46].
    expect_matches_llamacpp(llama2_yarn_64k(), 4096, 65536);
}

TEST(YarnLlamaCppPairs, MatchLlamaCppFormulasWhereHfDiffers)
{
    // truncate false: HF keeps the fractional correction range, llama.cpp floors / ceils it anyway.
    RopeParams p = llama2_yarn_64k();
    p.truncate = false;
    expect_matches_llamacpp(p, 4096, 65536);
    const RopePairsTable hf = rope_pairs(p, 4096, 65536);
    const RopePairsTable cpp = yarn_llamacpp_pairs(p, 4096, 65536);
    EXPECT_GT(std::abs(hf.rows[30].scaled_theta / cpp.rows[30].scaled_theta - 1.0), 1e-3);

    // Qwen2.5-7B + YaRN x4 (theta 1e6, original 32768, head_dim 128), attention factor given.
    RopeParams q;
    q.head_dim = 128;
    q.rope_theta = 1e6;
    q.rope_type = RopeType::Yarn;
    q.factor = 4.0;
    q.max_position_embeddings = 32768;
    q.original_max_position_embeddings = 32768;
    q.attention_factor = 1.25;
    expect_matches_llamacpp(q, 0, 0);
    EXPECT_EQ(yarn_llamacpp_pairs(q).target_length, 131072); // max(32768, 4 * 32768), as rope_pairs

    // An empty correction range: with beta_fast 9000, beta_slow 8000 both dims fall below 0 (corr_dim =
    // 128 ln(32768 / (beta 2 pi)) / (2 ln 1e6) = -2.53, -1.98), so low = 0 and high = ceil(-1.98) = -1, and
    // llama.cpp divides by max(0.001, high - low) = 0.001: pair 0 kept, every other pair interpolated.
    // (HF divides by high - low = -1 and keeps every pair.)
    q.beta_fast = 9000.0;
    q.beta_slow = 8000.0;
    q.attention_factor.reset();
    expect_matches_llamacpp(q, 32768, 65536);
    const RopePairsTable empty_range = yarn_llamacpp_pairs(q, 32768, 65536);
    EXPECT_EQ(*empty_range.frequencies.yarn_high, -1.0);
    EXPECT_EQ(empty_range.rows[0].regime, PairRegime::Kept);
    EXPECT_EQ(empty_range.rows[1].regime, PairRegime::Interpolated);
    for (const RopePairRow& r : rope_pairs(q, 32768, 65536).rows)
        EXPECT_EQ(r.regime, PairRegime::Kept) << "HF pair " << r.index;
}

TEST(YarnLlamaCppPairs, AgreesWithHfTableWhereTheFormulasAgree)
{
    // With truncate (HF's default) the ramps coincide (rope_scaling.h): the two tables agree row by row
    // (1e-14 relative: the same formulas, summed in a different order) except the attention factor.
    const RopeParams p = llama2_yarn_64k();
    const RopePairsTable hf = rope_pairs(p, 4096, 65536);
    const RopePairsTable cpp = yarn_llamacpp_pairs(p, 4096, 65536);
    ASSERT_EQ(hf.rows.size(), cpp.rows.size());
    for (std::size_t i = 0; i < hf.rows.size(); ++i) {
        EXPECT_EQ(cpp.rows[i].theta, hf.rows[i].theta);
        expect_rel(cpp.rows[i].scaled_theta, hf.rows[i].scaled_theta, 1e-14);
        EXPECT_EQ(cpp.rows[i].regime, hf.rows[i].regime);
        EXPECT_EQ(cpp.rows[i].unseen_rotation, hf.rows[i].unseen_rotation);
    }
    ASSERT_EQ(cpp.boundaries.size(), hf.boundaries.size());
    for (std::size_t k = 0; k < hf.boundaries.size(); ++k)
        EXPECT_EQ(cpp.boundaries[k].first_pair, hf.boundaries[k].first_pair);
}

TEST(YarnLlamaCppPairs, LengthsAreCheckedAsInRopePairs)
{
    const RopeParams p = llama2_yarn_64k();
    EXPECT_THROW(yarn_llamacpp_pairs(p, -1, 10), ParameterError);
    EXPECT_THROW(yarn_llamacpp_pairs(p, 10, kMaxSeqLen + 1), ParameterError);
    EXPECT_THROW(rope_pairs_from_frequencies(compute_yarn_llamacpp(p), 0, 10), ParameterError);
    RopeFrequencies short_regime = compute_yarn_llamacpp(p);
    short_regime.regime.pop_back();
    EXPECT_THROW(rope_pairs_from_frequencies(short_regime, 10, 10), std::invalid_argument);
}
