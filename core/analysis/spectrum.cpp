// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/spectrum.h"

#include "scenario/validation.h"

namespace posatlas {

FrequencySpectrum frequency_spectrum(const RopePairsTable& t)
{
    const std::size_t n = t.rows.size();
    FrequencySpectrum s;
    s.pair.resize(n);
    s.theta_original.resize(n);
    s.theta_scaled.resize(n);
    s.wavelength_original.resize(n);
    s.wavelength_scaled.resize(n);
    s.rotations_original.resize(n);
    s.rotations_scaled.resize(n);
    s.ratio.resize(n);
    s.trained_max_angle.resize(n);
    s.target_max_angle.resize(n);
    s.regime.resize(n);
    s.attention_factor = t.frequencies.attention_factor;
    for (std::size_t i = 0; i < n; ++i) {
        const RopePairRow& r = t.rows[i];
        s.pair[i] = r.index;
        s.theta_original[i] = r.theta;
        s.theta_scaled[i] = r.scaled_theta;
        s.wavelength_original[i] = r.wavelength;
        s.wavelength_scaled[i] = r.scaled_wavelength;
        s.rotations_original[i] = r.trained_rotations;
        s.rotations_scaled[i] = r.target_rotations;
        s.ratio[i] = r.ratio;
        s.trained_max_angle[i] = r.trained_max_angle;
        s.target_max_angle[i] = r.target_max_angle;
        s.regime[i] = r.regime;
    }
    return s;
}

FrequencySpectrum rope_spectrum(const RopeParams& p, std::int64_t trained_length, std::int64_t target_length)
{
    validate(p);
    // rope_pairs reads 0 as "the default length"; the spectrum asks for explicit lengths.
    require_int("trained_length", trained_length, 1, kMaxSeqLen);
    require_int("target_length", target_length, 1, kMaxSeqLen);
    return frequency_spectrum(rope_pairs(p, trained_length, target_length));
}

} // namespace posatlas
