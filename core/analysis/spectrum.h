// SPDX-License-Identifier: GPL-3.0-or-later
// The frequency spectrum of RoPE before and after a context-extension scaling: per rotary pair, the
// frequency theta_i, its wavelength 2 pi / theta_i, how many full turns it makes over the trained and
// the target context, and how far its angle reaches ("angle coverage"). Frequencies come from
// compute_rope_frequencies (rope_scaling.h, following HF transformers modeling_rope_utils.py).
//
// The spectrum is a column view of the per-pair table of rope_compare.h: every value is the table's
// (RopePairRow), copied, never computed a second time, so the spectrum view and the explorer's table
// (and `posatlas compute rope-pairs`) cannot disagree.
#pragma once

#include "analysis/rope_compare.h"
#include "methods/rope/rope_scaling.h"
#include "scenario/params.h"

#include <cstdint>
#include <vector>

namespace posatlas {

struct FrequencySpectrum {
    std::vector<int> pair;                   // 0 .. rotary_dim/2 - 1
    std::vector<double> theta_original;      // rope_theta^(-2i/d)
    std::vector<double> theta_scaled;        // after the scaling of p.rope_type
    std::vector<double> wavelength_original; // 2 pi / theta_original (tokens)
    std::vector<double> wavelength_scaled;   // 2 pi / theta_scaled
    std::vector<double> rotations_original;  // trained_length * theta_original / (2 pi)
    std::vector<double> rotations_scaled;    // target_length * theta_scaled / (2 pi)
    std::vector<double> ratio;               // theta_scaled / theta_original
    // Angle coverage: the largest angle a pair reaches, (L - 1) * theta, since positions run 0 .. L - 1.
    // A pair whose target_max_angle exceeds its trained_max_angle (and is below 2 pi in training)
    // sees angles at the target length that it never saw in training.
    std::vector<double> trained_max_angle; // (trained_length - 1) * theta_original
    std::vector<double> target_max_angle;  // (target_length - 1) * theta_scaled
    std::vector<PairRegime> regime;        // copied from RopeFrequencies
    double attention_factor = 1.0;
};

// The columns of a per-pair table: pair = index, theta_original = theta, theta_scaled = scaled_theta,
// wavelength_original / _scaled, rotations_original = trained_rotations, rotations_scaled =
// target_rotations, ratio, the max angles and regime of its rows; attention_factor =
// t.frequencies.attention_factor.
FrequencySpectrum frequency_spectrum(const RopePairsTable& t);

// Spectrum of p at the given lengths: frequency_spectrum(rope_pairs(p, trained_length, target_length))
// (validate(p); lengths in [1, kMaxSeqLen], 0 included in the refusal, else ParameterError
// "trained_length" / "target_length"). For dynamic NTK and LongRoPE the frequencies depend on the current
// length: when p.seq_len is 0 it is taken to be target_length (as rope_pairs does).
FrequencySpectrum rope_spectrum(const RopeParams& p, std::int64_t trained_length, std::int64_t target_length);

} // namespace posatlas
