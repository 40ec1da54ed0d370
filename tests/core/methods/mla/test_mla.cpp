// SPDX-License-Identifier: GPL-3.0-or-later
// MLA's decoupled RoPE against an independent double-precision transcription of Hugging Face transformers'
// DeepSeek-V3 (models/deepseek_v3/modeling_deepseek_v3.py and modeling_rope_utils.py): yarn_get_mscale,
// _compute_yarn_parameters (find_correction_dim, find_correction_range, linear_ramp_factor, get_mscale) as
// DeepseekV3RotaryEmbedding uses it, apply_rotary_pos_emb_interleave (view(d/2, 2).transpose(4, 3) then
// rotate_half) and apply_rotary_pos_emb, cat(q_pass, q_rot) and DeepseekV3Attention.scaling. The loops below
// follow those functions step by step, the tensors written out as index arithmetic, and share no code with
// core's RoPE (rope.h, rope_scaling.h). Tolerances: 1e-12 relative (double against double, different order
// of operations) unless stated.
#include "compute/attention_logits.h"
#include "methods/mla/mla.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

using namespace posatlas;

namespace {

// ------------------------------------------------------------------ the reference, written from HF
// modeling_deepseek_v3.py yarn_get_mscale(scale, mscale).
double hf_yarn_get_mscale(double scale, double mscale)
{
    return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0;
}

struct HfRotary {
    std::vector<double> inv_freq; // dim / 2
    double attention_scaling = 1.0;
};

// modeling_rope_utils._compute_yarn_parameters (truncate true) with the config's mscale and mscale_all_dim.
HfRotary hf_yarn(int dim, double base, double factor, double original, double beta_fast, double beta_slow,
                 double mscale, double mscale_all_dim)
{
    const auto find_correction_dim = [&](double num_rotations) {
        return (dim * std::log(original / (num_rotations * 2.0 * std::numbers::pi))) / (2.0 * std::log(base));
    };
    double low = std::floor(find_correction_dim(beta_fast));
    double high = std::ceil(find_correction_dim(beta_slow));
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(dim - 1));
    if (low == high)
        high += 0.001; // linear_ramp_factor
    HfRotary out;
    for (int i = 0; i < dim / 2; ++i) {
        const double pos_freq = std::pow(base, static_cast<double>(2 * i) / dim);
        const double extrapolation = 1.0 / pos_freq, interpolation = 1.0 / (factor * pos_freq);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double extrapolation_factor = 1.0 - ramp;
        out.inv_freq.push_back(interpolation * (1.0 - extrapolation_factor) +
                               extrapolation * extrapolation_factor);
    }
    out.attention_scaling = hf_yarn_get_mscale(factor, mscale) / hf_yarn_get_mscale(factor, mscale_all_dim);
    return out;
}

// _compute_default_rope_parameters.
HfRotary hf_default(int dim, double base)
{
    HfRotary out;
    for (int i = 0; i < dim / 2; ++i)
        out.inv_freq.push_back(1.0 / std::pow(base, static_cast<double>(2 * i) / dim));
    return out;
}

// DeepseekV3RotaryEmbedding.forward (emb = cat(freqs, freqs), cos and sin times attention_scaling), then
// apply_rotary_pos_emb_interleave (interleave true) or apply_rotary_pos_emb on one vector x of dim d.
std::vector<double> hf_rotate(const HfRotary& r, std::vector<double> x, double position, bool interleave)
{
    const std::size_t d = x.size(), half = d / 2;
    if (interleave) { // view(d/2, 2).transpose(4, 3).reshape(d): evens first, then odds
        std::vector<double> y(d);
        for (std::size_t i = 0; i < half; ++i) {
            y[i] = x[2 * i];
            y[half + i] = x[2 * i + 1];
        }
        x = y;
    }
    std::vector<double> out(d);
    for (std::size_t j = 0; j < d; ++j) {
        const double angle = position * r.inv_freq[j % half];
        const double cos = std::cos(angle) * r.attention_scaling, sin = std::sin(angle) * r.attention_scaling;
        const double rotated_half = j < half ? -x[j + half] : x[j - half]; // rotate_half: cat(-x2, x1)
        out[j] = x[j] * cos + rotated_half * sin;
    }
    return out;
}

// DeepseekV3Attention: query_states = cat(q_pass, q_rot), key_states = cat(k_pass, k_rot), logits =
// query · key * scaling.
double hf_logit(const MlaParams& p, const HfRotary& r, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                double m, double n)
{
    const int nope = p.qk_nope_head_dim, rope = p.qk_rope_head_dim;
    const std::vector<double> q_rot =
        hf_rotate(r, std::vector<double>(q.data() + nope, q.data() + nope + rope), m, p.rope_interleave);
    const std::vector<double> k_rot =
        hf_rotate(r, std::vector<double>(k.data() + nope, k.data() + nope + rope), n, p.rope_interleave);
    double dot = 0.0;
    for (int j = 0; j < nope; ++j)
        dot += q[j] * k[j];
    for (int j = 0; j < rope; ++j)
        dot += q_rot[static_cast<std::size_t>(j)] * k_rot[static_cast<std::size_t>(j)];
    double scaling = std::pow(static_cast<double>(nope + rope), -0.5);
    if (p.rope_type == MlaRopeType::Yarn && p.mscale_all_dim && *p.mscale_all_dim != 0.0) {
        const double mscale = hf_yarn_get_mscale(p.factor, *p.mscale_all_dim);
        scaling = scaling * mscale * mscale;
    }
    return dot * scaling;
}

HfRotary hf_rotary(const MlaParams& p)
{
    if (p.rope_type == MlaRopeType::Default)
        return hf_default(p.qk_rope_head_dim, p.rope_theta);
    return hf_yarn(p.qk_rope_head_dim, p.rope_theta, p.factor,
                   static_cast<double>(p.original_max_position_embeddings), p.beta_fast, p.beta_slow,
                   p.mscale.value_or(0.0), p.mscale_all_dim.value_or(0.0));
}

Scenario mla_scenario(const MlaParams& p, ContentKind content, std::int64_t seq_len)
{
    Scenario s;
    s.method = kMLA;
    s.params<MlaParams>() = p;
    s.content.kind = content;
    s.content.seed = 7;
    s.seq_len = seq_len;
    validate(s);
    return s;
}

// Every cell of a window of compute_matrix against hf_logit on the same content vectors.
void expect_matrix_matches_reference(const MlaParams& p, ContentKind content, std::int64_t row0,
                                     std::int64_t col0, double tolerance)
{
    const Scenario s = mla_scenario(p, content, 300000);
    MatrixWindow w;
    w.row0 = row0;
    w.col0 = col0;
    w.rows = 6;
    w.cols = 7;
    w.sample = SampleMode::Point;
    const MatrixResult m = compute_matrix(s, MatrixKind::Logits, w);
    const HfRotary r = hf_rotary(p);
    const int dim = p.qk_nope_head_dim + p.qk_rope_head_dim;
    for (std::int64_t i = 0; i < w.rows; ++i) {
        for (std::int64_t j = 0; j < w.cols; ++j) {
            const std::int64_t qi = row0 + i, kj = col0 + j;
            const double want =
                hf_logit(p, r, content_query(s.content, dim, qi), content_key(s.content, dim, kj),
                         static_cast<double>(qi), static_cast<double>(kj));
            EXPECT_NEAR(m.values(i, j), want, tolerance * std::max(1.0, std::abs(want)))
                << "query " << qi << ", key " << kj;
        }
    }
}

} // namespace

// DeepSeek-V3's config: mscale = yarn_get_mscale(40, 1) = 0.1 ln 40 + 1, softmax scale = 192^-0.5 mscale².
TEST(Mla, DeepSeekV3SoftmaxScaleIsTheAttentionsScaling)
{
    const MlaParams v3; // the defaults are DeepSeek-V3's published config
    const double mscale = 0.1 * 1.0 * std::log(40.0) + 1.0;
    EXPECT_NEAR(mscale, 1.3688879454, 1e-10); // 0.1 ln 40 + 1, by hand
    EXPECT_NEAR(mla_mscale_squared(v3), mscale * mscale, 1e-15);
    EXPECT_NEAR(mla_softmax_scale(v3), mscale * mscale / std::sqrt(192.0), 1e-16);
    EXPECT_NEAR(mla_softmax_scale(v3), 0.1352338, 1e-7); // 0.07216878 * 1.8738542
    // The attention factor on cos and sin: get_mscale(40, 1) / get_mscale(40, 1) = 1.
    EXPECT_EQ(mla_frequencies(v3).attention_factor, 1.0);
}

// HF's "if mscale_all_dim:": unset and 0 leave the plain 1/sqrt(qk_head_dim); no scaling leaves it too.
TEST(Mla, SoftmaxScaleWithoutMscaleAllDimIsPlain)
{
    MlaParams p;
    p.mscale_all_dim.reset();
    EXPECT_EQ(mla_softmax_scale(p), 1.0 / std::sqrt(192.0));
    p.mscale_all_dim = 0.0;
    EXPECT_EQ(mla_softmax_scale(p), 1.0 / std::sqrt(192.0));
    MlaParams plain;
    plain.rope_type = MlaRopeType::Default;
    EXPECT_EQ(mla_softmax_scale(plain), 1.0 / std::sqrt(192.0));
}

// DeepseekV3RotaryEmbedding's inv_freq (_compute_yarn_parameters) from core's compute_rope_frequencies.
TEST(Mla, YarnFrequenciesMatchTheReference)
{
    const MlaParams v3;
    const RopeFrequencies f = mla_frequencies(v3);
    const HfRotary r = hf_rotary(v3);
    ASSERT_EQ(f.inv_freq.size(), r.inv_freq.size());
    ASSERT_EQ(f.inv_freq.size(), 32u);
    for (std::size_t i = 0; i < r.inv_freq.size(); ++i)
        EXPECT_NEAR(f.inv_freq[i], r.inv_freq[i], 1e-14 * r.inv_freq[i]) << "pair " << i;
    // The fastest pair is kept (β_fast 32 over 4096 positions), the slowest divided by 40.
    EXPECT_EQ(f.inv_freq.front(), 1.0);
    EXPECT_NEAR(f.inv_freq.back(), std::pow(10000.0, -62.0 / 64.0) / 40.0, 1e-14 * f.inv_freq.back());
}

// Random content, near the start and far out (positions around 2·10⁵, beyond the trained 4096).
TEST(Mla, LogitsMatchTheReferenceWithRandomContent)
{
    const MlaParams v3;
    expect_matrix_matches_reference(v3, ContentKind::Random, 0, 0, 1e-12);
    expect_matrix_matches_reference(v3, ContentKind::Random, 200000, 199990, 1e-10);
}

// The constant-content path (a logit per offset) against the same reference.
TEST(Mla, LogitsMatchTheReferenceWithConstantContent)
{
    const MlaParams v3;
    expect_matrix_matches_reference(v3, ContentKind::Ones, 10, 3, 1e-12);
    expect_matrix_matches_reference(v3, ContentKind::Fixed, 5000, 20, 1e-11);
}

// rope_interleave false: apply_rotary_pos_emb's rotate_half pairs; DeepSeek-V2-Lite's sizes without scaling.
TEST(Mla, HalfPairingAndNoScalingMatchTheReference)
{
    MlaParams p;
    p.rope_interleave = false;
    expect_matrix_matches_reference(p, ContentKind::Random, 30, 12, 1e-12);
    MlaParams plain;
    plain.rope_type = MlaRopeType::Default;
    plain.qk_nope_head_dim = 96;
    plain.qk_rope_head_dim = 32;
    plain.rope_theta = 50000.0;
    expect_matrix_matches_reference(plain, ContentKind::Random, 100, 40, 1e-12);
}

// The pairing matters: the same content gives other logits with the other pairing (random content).
TEST(Mla, InterleavedAndHalfPairingsDiffer)
{
    MlaParams half;
    half.rope_interleave = false;
    const MlaParams interleaved;
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(192, -1.0, 2.0);
    const Eigen::VectorXd k = Eigen::VectorXd::LinSpaced(192, 3.0, -0.5);
    const double a = mla_logit_parts(interleaved, mla_frequencies(interleaved), q, k, 17.0, 3.0).rope;
    const double b = mla_logit_parts(half, mla_frequencies(half), q, k, 17.0, 3.0).rope;
    EXPECT_GT(std::abs(a - b), 1e-3 * std::abs(a));
}

// The parts of one logit: the position-free part does not move with positions, the rotary part depends on
// m − n only, and they add up to the matrix cell's value.
TEST(Mla, LogitPartsSplitTheLogit)
{
    const MlaParams v3;
    const RopeFrequencies f = mla_frequencies(v3);
    const Scenario s = mla_scenario(v3, ContentKind::Random, 64);
    const Eigen::VectorXd q = content_query(s.content, 192, 3), k = content_key(s.content, 192, 9);
    const MlaLogitParts a = mla_logit_parts(v3, f, q, k, 40.0, 25.0);
    const MlaLogitParts b = mla_logit_parts(v3, f, q, k, 1040.0, 1025.0);
    EXPECT_EQ(a.nope, b.nope);
    EXPECT_NEAR(a.rope, b.rope, 1e-12 * std::abs(a.rope));
    const HfRotary r = hf_rotary(v3);
    EXPECT_NEAR(a.logit(), hf_logit(v3, r, q, k, 40.0, 25.0), 1e-12 * std::abs(a.logit()));
}

// All-ones content at distance 0: N = 128 c, R = 64 a² c with a = 1, so the share is 64 / 192 = 1/3; it stays
// in [0, 1] and the rotary part shrinks with distance (RoPE's long-term decay), so the share does too.
TEST(Mla, RotaryShareOfAllOnesContent)
{
    const MlaParams v3;
    const RopeFrequencies f = mla_frequencies(v3);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(192);
    EXPECT_NEAR(mla_rotary_share(mla_logit_parts(v3, f, ones, ones, 0.0, 0.0)), 1.0 / 3.0, 1e-15);
    for (double r : {1.0, 10.0, 100.0, 1000.0, 100000.0}) {
        const double share = mla_rotary_share(mla_logit_parts(v3, f, ones, ones, r, 0.0));
        EXPECT_GE(share, 0.0);
        EXPECT_LT(share, 1.0 / 3.0) << "distance " << r;
    }
    EXPECT_EQ(mla_rotary_share(MlaLogitParts{}), 0.0);
    EXPECT_EQ(mla_rotary_share(MlaLogitParts{0.0, -2.0}), 1.0);
}

// The curves view's family: one series, the share at every sampled distance.
TEST(Mla, RotaryShareFamilyIsTheShareAtEachDistance)
{
    const Scenario s = mla_scenario(MlaParams{}, ContentKind::Ones, 256);
    const CurveFamily* family = curve_family_for(s);
    ASSERT_NE(family, nullptr);
    const std::vector<double> dist = {0, 1, 2, 5, 100, 4000};
    const FamilyCurves curves = family->build({s, 4000, dist, {}, {}});
    ASSERT_EQ(curves.series.size(), 1u);
    const FamilySeries& share = curves.series.front();
    ASSERT_EQ(share.y.size(), dist.size());
    const MlaParams& p = s.params<MlaParams>();
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(192);
    for (std::size_t b = 0; b < dist.size(); ++b) {
        const double want =
            mla_rotary_share(mla_logit_parts(p, mla_frequencies(p), ones, ones, dist[b], 0.0));
        EXPECT_NEAR(share.y[b], want, 1e-15);
        EXPECT_NEAR(share.value_at(dist[b]), want, 1e-15);
    }
    EXPECT_NEAR(share.y.front(), 1.0 / 3.0, 1e-15);
}

// Bad values name their key: odd rotary dimensions, β fast below β slow.
TEST(Mla, BadParametersNameTheirKey)
{
    Scenario s;
    s.method = kMLA;
    s.params<MlaParams>().qk_rope_head_dim = 63;
    try {
        validate(s);
        FAIL() << "an odd qk_rope_head_dim was accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "qk_rope_head_dim");
    }
    s.params<MlaParams>() = MlaParams{};
    s.params<MlaParams>().beta_fast = 0.5;
    try {
        validate(s);
        FAIL() << "beta_fast below beta_slow was accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "beta_fast");
    }
}
