// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of rope_spectrum (core/spectrum.h). Frequencies follow HF transformers modeling_rope_utils.py;
// the spectrum's own quantities are the closed forms stated in spectrum.h, re-derived here.
#include "spectrum.h"
#include "types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

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
