// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/rope/rope_scaling.h"

#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace posatlas {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// theta_i = base^(-2i/d), written as HF writes it: 1 / base^(2i/d).
std::vector<double> default_inv_freq(double base, int rotary_dim)
{
    std::vector<double> inv(static_cast<std::size_t>(rotary_dim / 2));
    for (std::size_t i = 0; i < inv.size(); ++i)
        inv[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / rotary_dim);
    return inv;
}

// HF _compute_yarn_parameters.get_mscale
double get_mscale(double scale, double mscale = 1.0)
{
    if (scale <= 1.0)
        return 1.0;
    return 0.1 * mscale * std::log(scale) + 1.0;
}

// HF find_correction_dim: the (fractional) pair index whose wavelength fits `rotations` times into
// `length` tokens.
double find_correction_dim(double rotations, int dim, double base, double length)
{
    return (dim * std::log(length / (rotations * kTwoPi))) / (2.0 * std::log(base));
}

void require_ntk_dim(const RopeParams& p)
{
    // The NTK exponent d / (d - 2) is undefined for a single rotary pair.
    // Blamed on head_dim when the whole head rotates (the factor is then not what was changed).
    if (p.rotary_dim() < 4 && p.partial_rotary_factor >= 1.0)
        throw ParameterError("head_dim", "at least 4 for rope_type ntk / dynamic (exponent d / (d - 2))",
                             std::to_string(p.head_dim));
    if (p.rotary_dim() < 4)
        throw ParameterError(
            "partial_rotary_factor",
            "such that rotary_dim = int(head_dim * partial_rotary_factor) >= 4 for rope_type "
            "ntk / dynamic (exponent d / (d - 2))",
            format_number(p.partial_rotary_factor) + ", rotary_dim " + std::to_string(p.rotary_dim()) +
                " of head_dim " + std::to_string(p.head_dim));
}

void classify(RopeFrequencies& f)
{
    const std::size_t n = f.inv_freq.size();
    f.wavelength.resize(n);
    f.regime.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        f.wavelength[i] = kTwoPi / f.inv_freq[i];
        const double ratio = f.inv_freq[i] / f.inv_freq_original[i];
        if (std::abs(ratio - 1.0) <= kPairRegimeTolerance)
            f.regime[i] = PairRegime::Kept;
        else if (std::abs(ratio * f.factor_used - 1.0) <= kPairRegimeTolerance)
            f.regime[i] = PairRegime::Interpolated;
        else
            f.regime[i] = PairRegime::Blended;
    }
}

RopeFrequencies start(const RopeParams& p)
{
    RopeFrequencies f;
    f.rope_type = p.rope_type;
    f.rotary_dim = p.rotary_dim();
    f.base_used = p.rope_theta;
    f.factor_used = 1.0;
    if (p.frequency_fraction >= 1.0) {
        f.inv_freq_original = default_inv_freq(p.rope_theta, f.rotary_dim);
    } else {
        // p-RoPE: the highest frequencies of the whole frequency_dim, the lowest removed
        // (_compute_proportional_rope_parameters: inv_freq_rotated over head_dim, zeros after).
        f.inv_freq_original = default_inv_freq(p.rope_theta, p.frequency_dim());
        f.inv_freq_original.resize(static_cast<std::size_t>(f.rotary_dim / 2));
    }
    return f;
}

// Shared YaRN interpolation: inv_freq_i = (1 - ramp_i) theta_i + ramp_i theta_i / s, written as HF
// writes it (interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor).
void apply_yarn_ramp(RopeFrequencies& f)
{
    const std::size_t n = f.inv_freq_original.size();
    f.inv_freq.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double extrapolation = f.inv_freq_original[i];
        const double interpolation = 1.0 / (f.factor_used * std::pow(f.base_used, 2.0 * i / f.rotary_dim));
        const double extrapolation_factor = 1.0 - f.ramp[i];
        f.inv_freq[i] = interpolation * (1.0 - extrapolation_factor) + extrapolation * extrapolation_factor;
    }
}

} // namespace

std::string_view pair_regime_id(PairRegime r)
{
    switch (r) {
    case PairRegime::Kept: return "kept";
    case PairRegime::Interpolated: return "interpolated";
    case PairRegime::Blended: return "blended";
    }
    return "blended";
}

RopeFrequencies compute_rope_frequencies(const RopeParams& p)
{
    validate(p);
    RopeFrequencies f = start(p);
    const int d = f.rotary_dim;
    const double s = p.factor;
    const auto trained = static_cast<double>(p.trained_length());

    switch (p.rope_type) {
    case RopeType::Default: f.inv_freq = f.inv_freq_original; break;

    case RopeType::Linear:
        f.factor_used = s;
        f.inv_freq = f.inv_freq_original;
        for (double& v : f.inv_freq)
            v /= s;
        break;

    case RopeType::Ntk:
        require_ntk_dim(p);
        f.factor_used = s;
        f.base_used = p.rope_theta * std::pow(s, static_cast<double>(d) / (d - 2));
        f.inv_freq = default_inv_freq(f.base_used, d);
        break;

    case RopeType::Dynamic: {
        require_ntk_dim(p);
        f.factor_used = s;
        const auto max_pos = static_cast<double>(p.max_position_embeddings);
        const double len = std::max(static_cast<double>(p.seq_len), max_pos);
        f.base_used =
            p.rope_theta * std::pow((s * len / max_pos) - (s - 1.0), static_cast<double>(d) / (d - 2));
        f.inv_freq = default_inv_freq(f.base_used, d);
        break;
    }

    case RopeType::Yarn: {
        f.factor_used = s;
        if (p.attention_factor) {
            f.attention_factor = *p.attention_factor;
        } else if (p.mscale && p.mscale_all_dim && *p.mscale != 0.0 && *p.mscale_all_dim != 0.0) {
            // Python truthiness: "if mscale and mscale_all_dim" skips zeros.
            f.attention_factor = get_mscale(s, *p.mscale) / get_mscale(s, *p.mscale_all_dim);
        } else {
            f.attention_factor = get_mscale(s);
        }
        // DeepseekV3Attention.__init__: self.scaling *= yarn_get_mscale(factor, mscale_all_dim)^2
        // (validate(p) has checked that mscale_all_dim is set and non-zero).
        if (p.softmax_mscale && p.mscale_all_dim && *p.mscale_all_dim != 0.0) {
            const double m = get_mscale(s, *p.mscale_all_dim);
            f.softmax_scale = m * m;
        }
        double low = find_correction_dim(p.beta_fast, d, p.rope_theta, trained);
        double high = find_correction_dim(p.beta_slow, d, p.rope_theta, trained);
        if (p.truncate) {
            low = std::floor(low);
            high = std::ceil(high);
        }
        low = std::max(low, 0.0);
        high = std::min(high, static_cast<double>(d - 1));
        f.yarn_low = low;
        f.yarn_high = high;
        const double ramp_high = low == high ? high + 0.001 : high; // HF: prevent singularity
        f.ramp.resize(f.inv_freq_original.size());
        for (std::size_t i = 0; i < f.ramp.size(); ++i)
            f.ramp[i] = std::clamp((static_cast<double>(i) - low) / (ramp_high - low), 0.0, 1.0);
        apply_yarn_ramp(f);
        break;
    }

    case RopeType::Llama3: {
        f.factor_used = s;
        const double low_wl = trained / p.low_freq_factor;
        const double high_wl = trained / p.high_freq_factor;
        f.llama3_low_freq_wavelen = low_wl;
        f.llama3_high_freq_wavelen = high_wl;
        f.inv_freq.resize(f.inv_freq_original.size());
        for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
            const double theta = f.inv_freq_original[i];
            const double wl = kTwoPi / theta;
            if (wl < high_wl) {
                f.inv_freq[i] = theta;
            } else if (wl > low_wl) {
                f.inv_freq[i] = theta / s;
            } else {
                // Equal factors (Llama 4 Scout's config: both 1) leave no band between the two wavelengths;
                // a wavelength exactly on it keeps its frequency, the value _compute_llama3_parameters gives
                // it before the medium band's 0 / 0 replaces it.
                const double smooth =
                    p.high_freq_factor > p.low_freq_factor
                        ? (trained / wl - p.low_freq_factor) / (p.high_freq_factor - p.low_freq_factor)
                        : 1.0;
                f.inv_freq[i] = (1.0 - smooth) * theta / s + smooth * theta;
            }
        }
        break;
    }

    case RopeType::LongRope: {
        const double factor = p.original_max_position_embeddings > 0
                                  ? static_cast<double>(p.max_position_embeddings) / trained
                                  : s;
        f.factor_used = factor;
        if (p.attention_factor)
            f.attention_factor = *p.attention_factor;
        else
            f.attention_factor = factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(factor) / std::log(trained));
        const bool use_long = p.seq_len > 0 && static_cast<double>(p.seq_len) > trained;
        const std::vector<double>& ext = use_long ? p.long_factor : p.short_factor;
        f.inv_freq.resize(f.inv_freq_original.size());
        for (std::size_t i = 0; i < f.inv_freq.size(); ++i)
            f.inv_freq[i] = 1.0 / (ext[i] * std::pow(p.rope_theta, static_cast<double>(2 * i) / d));
        break;
    }
    }

    classify(f);
    return f;
}

RopeFrequencies compute_yarn_llamacpp(const RopeParams& p)
{
    validate(p);
    RopeFrequencies f = start(p);
    f.rope_type = RopeType::Yarn;
    const int d = f.rotary_dim;
    const double s = p.factor;
    f.factor_used = s;
    const auto n_ctx_orig = static_cast<double>(p.trained_length());

    // ggml_rope_yarn_corr_dims: floor / ceil always.
    const double low =
        std::max(0.0, std::floor(find_correction_dim(p.beta_fast, d, p.rope_theta, n_ctx_orig)));
    const double high = std::min(static_cast<double>(d - 1),
                                 std::ceil(find_correction_dim(p.beta_slow, d, p.rope_theta, n_ctx_orig)));
    f.yarn_low = low;
    f.yarn_high = high;

    // rope_yarn_ramp returns 1 - clamp(y) = the extrapolation mix; our ramp is its complement.
    f.ramp.resize(f.inv_freq_original.size());
    for (std::size_t i = 0; i < f.ramp.size(); ++i) {
        const double y = (static_cast<double>(i) - low) / std::max(0.001, high - low);
        f.ramp[i] = std::min(1.0, std::max(0.0, y));
    }
    apply_yarn_ramp(f);

    // rope_yarn: mscale *= 1 + 0.1 ln(1 / freq_scale) when ext_factor != 0 (ext_factor = 1 here).
    const double attn_factor = p.attention_factor.value_or(1.0);
    f.attention_factor = attn_factor * (1.0 + 0.1 * std::log(s));

    classify(f);
    return f;
}

} // namespace posatlas
