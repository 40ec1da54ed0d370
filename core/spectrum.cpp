// SPDX-License-Identifier: GPL-3.0-or-later
#include "spectrum.h"

#include "validation.h"

#include <numbers>

namespace posatlas {

FrequencySpectrum rope_spectrum(const RopeParams& p, std::int64_t trained_length, std::int64_t target_length)
{
    validate(p);
    require_int("trained_length", trained_length, 1, kMaxSeqLen);
    require_int("target_length", target_length, 1, kMaxSeqLen);

    RopeParams q = p;
    if (q.seq_len == 0)
        q.seq_len = target_length;
    const RopeFrequencies f = compute_rope_frequencies(q);

    constexpr double kTwoPi = 2.0 * std::numbers::pi;
    const std::size_t n = f.inv_freq.size();
    FrequencySpectrum s;
    s.pair.resize(n);
    s.theta_original = f.inv_freq_original;
    s.theta_scaled = f.inv_freq;
    s.wavelength_original.resize(n);
    s.wavelength_scaled = f.wavelength;
    s.rotations_original.resize(n);
    s.rotations_scaled.resize(n);
    s.ratio.resize(n);
    s.trained_max_angle.resize(n);
    s.target_max_angle.resize(n);
    s.regime = f.regime;
    s.attention_factor = f.attention_factor;
    const auto trained = static_cast<double>(trained_length);
    const auto target = static_cast<double>(target_length);
    for (std::size_t i = 0; i < n; ++i) {
        s.pair[i] = static_cast<int>(i);
        s.wavelength_original[i] = kTwoPi / f.inv_freq_original[i];
        s.rotations_original[i] = trained * f.inv_freq_original[i] / kTwoPi;
        s.rotations_scaled[i] = target * f.inv_freq[i] / kTwoPi;
        s.ratio[i] = f.inv_freq[i] / f.inv_freq_original[i];
        s.trained_max_angle[i] = (trained - 1.0) * f.inv_freq_original[i];
        s.target_max_angle[i] = (target - 1.0) * f.inv_freq[i];
    }
    return s;
}

} // namespace posatlas
