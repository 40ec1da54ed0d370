// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/rope_compare.h"

#include "methods/rope/rope.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace posatlas {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Distances per chunk between two cancel polls (as in decay.cpp).
constexpr std::size_t kChunk = 4096;

// HF _compute_yarn_parameters.get_mscale
double get_mscale(double s, double m = 1.0)
{
    return s <= 1.0 ? 1.0 : 0.1 * m * std::log(s) + 1.0;
}

// The factor the temperature formulas use: LongRoPE's rule replaces `factor` by max / original.
double temperature_factor(const RopeParams& p)
{
    if (p.rope_type == RopeType::LongRope && p.original_max_position_embeddings > 0)
        return static_cast<double>(p.max_position_embeddings) /
               static_cast<double>(p.original_max_position_embeddings);
    return p.factor;
}

} // namespace

std::int64_t rope_default_target_length(const RopeParams& p)
{
    validate(p);
    std::int64_t target = p.max_position_embeddings;
    if (p.rope_type != RopeType::Default) {
        const double scaled = std::round(static_cast<double>(p.trained_length()) * p.factor);
        const auto scaled_len = static_cast<std::int64_t>(std::min(scaled, static_cast<double>(kMaxSeqLen)));
        if (p.original_max_position_embeddings <= 0)
            target = scaled_len;
        else if (p.max_position_embeddings > p.original_max_position_embeddings)
            target = p.max_position_embeddings;
        else
            target = std::max(p.max_position_embeddings, scaled_len);
    }
    // Never short of the trained context: a default-type config whose original length exceeds
    // max_position_embeddings still shows its whole trained context.
    target = std::max(target, p.trained_length());
    return std::clamp<std::int64_t>(target, 1, kMaxSeqLen);
}

bool trained_length_ambiguous(const RopeParams& p)
{
    return (p.rope_type == RopeType::Linear || p.rope_type == RopeType::Ntk) && p.factor != 1.0 &&
           p.original_max_position_embeddings <= 0;
}

std::int64_t rope_extension_target_length(const RopeParams& p, double factor)
{
    validate(p);
    require_real("factor", factor, 1.0, 1e6, true);
    if (p.rope_type != RopeType::Default)
        return rope_default_target_length(p);
    const auto trained = static_cast<double>(p.trained_length());
    const double extended = std::min(std::round(trained * factor), static_cast<double>(kMaxSeqLen));
    return std::clamp<std::int64_t>(std::max(static_cast<std::int64_t>(extended), p.trained_length()), 1,
                                    kMaxSeqLen);
}

double extension_factor(std::int64_t trained_length, std::int64_t target_length)
{
    require_int("trained_length", trained_length, 1, kMaxSeqLen);
    require_int("target_length", target_length, 1, kMaxSeqLen);
    const double s = static_cast<double>(target_length) / static_cast<double>(trained_length);
    return std::clamp(s, 1.0, 1e6);
}

std::vector<RegimeBoundary> regime_boundaries(const RopeFrequencies& f)
{
    std::vector<RegimeBoundary> out;
    const std::size_t n = f.regime.size();
    std::size_t start = 0;
    for (std::size_t i = 1; i <= n; ++i) {
        if (i < n && f.regime[i] == f.regime[start])
            continue;
        RegimeBoundary b;
        b.first_pair = static_cast<int>(start);
        b.last_pair = static_cast<int>(i - 1);
        b.regime = f.regime[start];
        b.wavelength_first = kTwoPi / f.inv_freq_original[start];
        b.wavelength_last = kTwoPi / f.inv_freq_original[i - 1];
        out.push_back(b);
        start = i;
    }
    return out;
}

namespace {

// Lengths of a table: 0 takes the defaults of rope_pairs, then both must lie in [1, kMaxSeqLen].
std::pair<std::int64_t, std::int64_t> table_lengths(const RopeParams& p, std::int64_t trained_length,
                                                    std::int64_t target_length)
{
    validate(p);
    if (trained_length == 0)
        trained_length = p.trained_length();
    if (target_length == 0)
        target_length = rope_default_target_length(p);
    require_int("trained_length", trained_length, 1, kMaxSeqLen);
    require_int("target_length", target_length, 1, kMaxSeqLen);
    return {trained_length, target_length};
}

} // namespace

RopePairsTable rope_pairs_from_frequencies(RopeFrequencies f, std::int64_t trained_length,
                                           std::int64_t target_length)
{
    require_int("trained_length", trained_length, 1, kMaxSeqLen);
    require_int("target_length", target_length, 1, kMaxSeqLen);
    const std::size_t n = f.inv_freq.size();
    if (f.inv_freq_original.size() != n || f.regime.size() != n || (!f.ramp.empty() && f.ramp.size() != n))
        throw std::invalid_argument(
            "rope_pairs_from_frequencies: inv_freq_original, inv_freq, regime and ramp "
            "must have one entry per pair");

    RopePairsTable t;
    t.frequencies = std::move(f);
    t.trained_length = trained_length;
    t.target_length = target_length;
    const RopeFrequencies& fr = t.frequencies;
    const auto trained = static_cast<double>(trained_length);
    const auto target = static_cast<double>(target_length);
    t.rows.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        RopePairRow& r = t.rows[i];
        r.index = static_cast<int>(i);
        r.theta = fr.inv_freq_original[i];
        r.wavelength = kTwoPi / r.theta;
        r.scaled_theta = fr.inv_freq[i];
        r.scaled_wavelength = kTwoPi / r.scaled_theta;
        r.ratio = r.scaled_theta / r.theta;
        r.regime = fr.regime[i];
        r.trained_max_angle = (trained - 1.0) * r.theta;
        r.target_max_angle = (target - 1.0) * r.scaled_theta;
        r.trained_rotations = trained * r.theta / kTwoPi;
        r.target_rotations = target * r.scaled_theta / kTwoPi;
        r.ramp = fr.ramp.empty() ? kNaN : fr.ramp[i];
        // One position step of slack beyond (L - 1) theta: see RopePairRow::unseen_rotation.
        r.unseen_rotation = r.trained_max_angle < kTwoPi && r.target_max_angle >= trained * r.theta;
    }
    t.boundaries = regime_boundaries(fr);
    return t;
}

RopePairsTable rope_pairs(const RopeParams& p, std::int64_t trained_length, std::int64_t target_length)
{
    const auto [trained, target] = table_lengths(p, trained_length, target_length);
    RopeParams q = p;
    // Dynamic NTK and LongRoPE choose their frequencies by the current length; the others ignore it, and
    // p as given is what was validated (validation.h: a validated scenario's parameters are not checked
    // again), so it stays as it is for them.
    if (q.seq_len == 0 && (p.rope_type == RopeType::Dynamic || p.rope_type == RopeType::LongRope))
        q.seq_len = target;
    return rope_pairs_from_frequencies(compute_rope_frequencies(q), trained, target);
}

RopePairsTable yarn_llamacpp_pairs(const RopeParams& p, std::int64_t trained_length,
                                   std::int64_t target_length)
{
    const auto [trained, target] = table_lengths(p, trained_length, target_length);
    return rope_pairs_from_frequencies(compute_yarn_llamacpp(p), trained, target);
}

YarnThresholds yarn_thresholds(const RopeParams& p)
{
    validate(p);
    YarnThresholds y;
    y.alpha = p.beta_slow;
    y.beta = p.beta_fast;
    y.context = static_cast<double>(p.trained_length());
    const int d = p.rotary_dim();
    const auto pairs = static_cast<std::size_t>(d / 2);
    y.r.resize(pairs);
    y.gamma.resize(pairs);
    for (std::size_t i = 0; i < pairs; ++i) {
        const double theta = 1.0 / std::pow(p.rope_theta, static_cast<double>(2 * i) / d);
        y.r[i] = y.context * theta / kTwoPi; // L / lambda_i
        // YaRN eq. (18). beta == alpha is allowed by validate (beta_fast >= beta_slow): a step then.
        if (y.r[i] < y.alpha)
            y.gamma[i] = 0.0;
        else if (y.r[i] > y.beta)
            y.gamma[i] = 1.0;
        else
            y.gamma[i] = y.beta > y.alpha ? (y.r[i] - y.alpha) / (y.beta - y.alpha) : 1.0;
    }
    return y;
}

TemperatureInfo attention_temperature(const RopeParams& p)
{
    validate(p);
    TemperatureInfo t;
    const double s = temperature_factor(p);
    t.factor = s;
    t.yarn_sqrt_inv_t = get_mscale(s);
    t.deepseek_mscale_ratio = (p.mscale && p.mscale_all_dim && *p.mscale != 0.0 && *p.mscale_all_dim != 0.0)
                                  ? get_mscale(s, *p.mscale) / get_mscale(s, *p.mscale_all_dim)
                                  : kNaN;
    const auto trained = static_cast<double>(p.trained_length());
    // ln L is 0 for L = 1; the formula is then undefined, and 1 (no scaling) is the only sensible value.
    t.longrope_factor = (s <= 1.0 || trained <= 1.0) ? 1.0 : std::sqrt(1.0 + std::log(s) / std::log(trained));
    t.llamacpp_yarn = p.attention_factor.value_or(1.0) * (1.0 + 0.1 * std::log(s));
    t.deepseek_softmax =
        (p.rope_type == RopeType::Yarn && p.softmax_mscale && p.mscale_all_dim && *p.mscale_all_dim != 0.0)
            ? get_mscale(s, *p.mscale_all_dim) * get_mscale(s, *p.mscale_all_dim)
            : kNaN;
    const RopeFrequencies f = compute_rope_frequencies(p);
    t.used = f.attention_factor;
    t.softmax_scale = f.softmax_scale;
    t.logit_multiplier = f.logit_multiplier();
    return t;
}

std::vector<RopePairsTable> compare_scalings(const std::vector<ScalingVariant>& variants,
                                             std::int64_t trained_length, std::int64_t target_length)
{
    std::vector<RopePairsTable> out;
    out.reserve(variants.size());
    for (const ScalingVariant& v : variants)
        out.push_back(rope_pairs(v.params, trained_length, target_length));
    return out;
}

std::vector<ScalingVariant> standard_variants(const RopeParams& model, double factor,
                                              std::int64_t target_length)
{
    validate(model);
    require_real("factor", factor, 1.0, 1e6, true);
    require_int("target_length", target_length, 1, kMaxSeqLen);
    const std::int64_t trained = model.trained_length();

    // Base configuration only: every scaling-specific field back to its default.
    RopeParams base;
    base.head_dim = model.head_dim;
    base.rope_theta = model.rope_theta;
    base.partial_rotary_factor = model.partial_rotary_factor;
    base.pairing = model.pairing;
    base.factor = factor;
    base.max_position_embeddings = target_length;
    base.original_max_position_embeddings = trained;

    std::vector<ScalingVariant> out;
    out.reserve(8); // `add` hands out references into `out`: no reallocation while they are used
    auto add = [&](const char* label, RopeType type) -> RopeParams& {
        RopeParams p = base;
        p.rope_type = type;
        out.push_back({label, p});
        return out.back().params;
    };
    RopeParams& unscaled = add("Default (unscaled)", RopeType::Default);
    unscaled.factor = 1.0;
    unscaled.max_position_embeddings = trained;
    unscaled.original_max_position_embeddings = 0;
    // p-RoPE (frequency_fraction) goes with no scaling and linear only (rope_check): those two keep the
    // model's kept frequencies, the others are shown on the whole head.
    unscaled.frequency_fraction = model.frequency_fraction;
    add("PI (linear)", RopeType::Linear).frequency_fraction = model.frequency_fraction;
    add("NTK-aware", RopeType::Ntk);
    out.push_back({"Dynamic NTK", dynamic_ntk_params(model, factor)});
    out.back().params.seq_len = target_length;
    RopeParams& yarn = add("YaRN", RopeType::Yarn);
    yarn.beta_fast = 32.0;
    yarn.beta_slow = 1.0;
    yarn.truncate = true;
    RopeParams& llama3 = add("Llama 3", RopeType::Llama3);
    llama3.low_freq_factor = 1.0;
    llama3.high_freq_factor = 4.0;
    if (model.rope_type == RopeType::LongRope && !model.short_factor.empty() && !model.long_factor.empty()) {
        RopeParams p = model;
        p.seq_len = target_length;
        out.push_back({"LongRoPE", p});
    }
    for (const ScalingVariant& v : out)
        validate(v.params); // e.g. ntk / dynamic need rotary_dim >= 4: fail here, not in a later view
    return out;
}

RopeParams dynamic_ntk_params(const RopeParams& model, double factor)
{
    validate(model);
    require_real("factor", factor, 1.0, 1e6, true);
    RopeParams p;
    p.head_dim = model.head_dim;
    p.rope_theta = model.rope_theta;
    p.partial_rotary_factor = model.partial_rotary_factor;
    p.pairing = model.pairing;
    p.rope_type = RopeType::Dynamic;
    p.factor = factor;
    p.max_position_embeddings = model.max_position_embeddings;
    p.original_max_position_embeddings = model.original_max_position_embeddings; // not read by dynamic
    validate(p);
    return p;
}

std::vector<double> rope_score_vs_distance(const RopeFrequencies& f,
                                           const Eigen::Ref<const Eigen::VectorXd>& q,
                                           const Eigen::Ref<const Eigen::VectorXd>& k, RopePairing pairing,
                                           const std::vector<double>& distances, const CancelFn& cancel,
                                           const ProgressFn& progress)
{
    require_int("head_dim", q.size(), std::max(f.rotary_dim, 1), 8192);
    require_int("head_dim", k.size(), q.size(), q.size());
    const auto limit = static_cast<double>(kMaxDistance);
    for (double r : distances)
        require_real("distance", r, -limit, limit, true);

    const RopePairCoefficients c = rope_pair_coefficients(f, q, k, pairing);
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(q.size()));
    const std::size_t n = distances.size();
    std::vector<double> out(n);
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
        check_cancel(cancel);
        const auto end = static_cast<std::ptrdiff_t>(std::min(n, begin + kChunk));
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(begin); i < end; ++i) {
            const auto u = static_cast<std::size_t>(i);
            out[u] = rope_relative_score(f, c, distances[u]) * inv_sqrt_d;
        }
        report_progress(progress, static_cast<double>(end) / static_cast<double>(n));
    }
    check_cancel(cancel);
    return out;
}

std::vector<double> rope_score_vs_distance(const RopeFrequencies& f, int head_dim,
                                           const std::vector<double>& distances, const CancelFn& cancel,
                                           const ProgressFn& progress)
{
    require_int("head_dim", head_dim, std::max(f.rotary_dim, 1), 8192);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(head_dim);
    // All-ones content: the pairing does not matter (both components of every pair are 1).
    return rope_score_vs_distance(f, ones, ones, RopePairing::Half, distances, cancel, progress);
}

} // namespace posatlas
