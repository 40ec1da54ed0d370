// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of rope_spectrum (core/analysis/spectrum.h). Frequencies follow HF transformers
// modeling_rope_utils.py; the spectrum's own quantities are the closed forms stated in spectrum.h, re-derived
// here.
#include "analysis/rope_compare.h"
#include "analysis/spectrum.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

using namespace posatlas;

TEST(RopeSpectrum, LinearScalingColumns)
{
    RopeParams p;
    p.head_dim = 128;
    p.rope_type = RopeType::Linear;
    p.factor = 4.0;
    const FrequencySpectrum s = rope_spectrum(p, 4096, 16384);
    ASSERT_EQ(s.pair.size(), 64u);
    const double two_pi = 2.0 * std::numbers::pi;
    for (std::size_t i = 0; i < 64; ++i) {
        EXPECT_EQ(s.pair[i], static_cast<int>(i));
        const double theta = std::pow(10000.0, -2.0 * i / 128.0); // RoFormer eq. (15)
        EXPECT_NEAR(s.theta_original[i], theta, 1e-15 * theta);
        EXPECT_NEAR(s.ratio[i], 0.25, 1e-15); // linear: theta / factor
        EXPECT_NEAR(s.wavelength_scaled[i], 4.0 * s.wavelength_original[i], 1e-12 * s.wavelength_scaled[i]);
        EXPECT_NEAR(s.rotations_original[i], 4096.0 * theta / two_pi, 1e-12 * s.rotations_original[i]);
        // Position interpolation's point: turns over the 4x longer target equal turns over the trained
        // length.
        EXPECT_NEAR(s.rotations_scaled[i], s.rotations_original[i], 1e-12 * s.rotations_original[i]);
        EXPECT_NEAR(s.trained_max_angle[i], 4095.0 * theta, 1e-12 * 4095.0 * theta);
        EXPECT_NEAR(s.target_max_angle[i], 16383.0 * theta / 4.0, 1e-12 * 16383.0 * theta);
        EXPECT_EQ(s.regime[i], PairRegime::Interpolated);
    }
}

TEST(RopeSpectrum, DefaultExtrapolationExceedsTrainedAngles)
{
    // Unscaled RoPE at 4x the trained length: every pair reaches larger angles than in training.
    RopeParams p;
    const FrequencySpectrum s = rope_spectrum(p, 2048, 8192);
    for (std::size_t i = 0; i < s.pair.size(); ++i) {
        EXPECT_GT(s.target_max_angle[i], s.trained_max_angle[i]);
        EXPECT_EQ(s.ratio[i], 1.0);
    }
    // Trained length 1: positions 0 .. 0 reach angle 0.
    EXPECT_EQ(rope_spectrum(p, 1, 1).trained_max_angle[0], 0.0);
}

TEST(RopeSpectrum, DynamicUsesTargetLengthAsCurrentLength)
{
    // HF _compute_dynamic_ntk_parameters with seq_len = target: base' = 10000 * (2*8192/4096 - 1)^(128/126)
    // = 30527.7367488067 (python).
    RopeParams p;
    p.rope_type = RopeType::Dynamic;
    p.factor = 2.0;
    p.max_position_embeddings = 4096;
    const FrequencySpectrum s = rope_spectrum(p, 4096, 8192);
    EXPECT_NEAR(s.theta_scaled[32], 1.0 / std::sqrt(30527.7367488067), 1e-12 * s.theta_scaled[32]);
    const FrequencySpectrum same = rope_spectrum(p, 4096, 4096);
    EXPECT_NEAR(same.ratio[32], 1.0, 1e-14);
}

TEST(RopeSpectrum, BadLengths)
{
    RopeParams p;
    try {
        rope_spectrum(p, 0, 10);
        FAIL();
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "trained_length");
    }
    try {
        rope_spectrum(p, 10, -1);
        FAIL();
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "target_length");
    }
}

// The spectrum is the per-pair table's columns (spectrum.h): for every scaling, including the
// length-dependent ones with seq_len 0 (dynamic NTK, LongRoPE take the target as the current length),
// rope_spectrum equals rope_pairs value for value. Exact comparison: one computation, copied.
TEST(RopeSpectrum, AgreesWithThePairsTable)
{
    std::vector<RopeParams> cases;
    RopeParams p;
    p.head_dim = 64;
    cases.push_back(p); // default
    for (RopeType t :
         {RopeType::Linear, RopeType::Ntk, RopeType::Dynamic, RopeType::Yarn, RopeType::Llama3}) {
        RopeParams q = p;
        q.rope_type = t;
        q.factor = 8.0;
        q.max_position_embeddings = 2048;
        if (t == RopeType::Yarn || t == RopeType::Llama3)
            q.original_max_position_embeddings = 2048;
        cases.push_back(q);
    }
    RopeParams longrope = p;
    longrope.rope_type = RopeType::LongRope;
    longrope.max_position_embeddings = 131072;
    longrope.original_max_position_embeddings = 4096;
    longrope.short_factor.assign(32, 1.0);
    for (int i = 0; i < 32; ++i)
        longrope.long_factor.push_back(1.0 + 0.5 * i);
    cases.push_back(longrope);
    RopeParams dynamic_explicit = cases[3]; // dynamic NTK
    dynamic_explicit.seq_len = 5000;        // an explicit current length wins over the target in both
    cases.push_back(dynamic_explicit);

    for (const RopeParams& c : cases) {
        SCOPED_TRACE(std::string(rope_type_id(c.rope_type)));
        for (auto [trained, target] :
             {std::pair<std::int64_t, std::int64_t>{2048, 16384}, {4096, 4096}, {1, 3}}) {
            const FrequencySpectrum s = rope_spectrum(c, trained, target);
            const RopePairsTable t = rope_pairs(c, trained, target);
            ASSERT_EQ(s.pair.size(), t.rows.size());
            EXPECT_EQ(s.attention_factor, t.frequencies.attention_factor);
            for (std::size_t i = 0; i < t.rows.size(); ++i) {
                const RopePairRow& r = t.rows[i];
                EXPECT_EQ(s.pair[i], r.index);
                EXPECT_EQ(s.theta_original[i], r.theta);
                EXPECT_EQ(s.theta_scaled[i], r.scaled_theta);
                EXPECT_EQ(s.wavelength_original[i], r.wavelength);
                EXPECT_EQ(s.wavelength_scaled[i], r.scaled_wavelength);
                EXPECT_EQ(s.rotations_original[i], r.trained_rotations);
                EXPECT_EQ(s.rotations_scaled[i], r.target_rotations);
                EXPECT_EQ(s.ratio[i], r.ratio);
                EXPECT_EQ(s.trained_max_angle[i], r.trained_max_angle);
                EXPECT_EQ(s.target_max_angle[i], r.target_max_angle);
                EXPECT_EQ(s.regime[i], r.regime);
                // And both are the frequencies core computes for that current length (rope_scaling.h).
                EXPECT_EQ(r.scaled_theta, t.frequencies.inv_freq[i]);
            }
            RopeParams current = c;
            if (current.seq_len == 0)
                current.seq_len = target;
            EXPECT_EQ(t.frequencies.inv_freq, compute_rope_frequencies(current).inv_freq);
        }
    }
}
