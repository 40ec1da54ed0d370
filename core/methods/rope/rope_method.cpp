// SPDX-License-Identifier: GPL-3.0-or-later
// Rotary position embedding (Su et al. 2021, RoFormer eq. 34) and its context-extension scalings
// (rope_scaling.h: PI, NTK-aware, dynamic NTK, YaRN, Llama 3, LongRoPE, after Hugging Face
// modeling_rope_utils): the logit c R(i) q_i . R(j) k_j / sqrt(d), c the attention module's extra
// softmax multiplier (RopeFrequencies::softmax_scale: DeepSeek's mscale^2, else 1).
#include "analysis/rope_compare.h"
#include "compute/block_means.h"
#include "compute/gemm.h"
#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_curves.h"
#include "methods/rope/rope_scaling.h"
#include "methods/rope/yarn_fields.h"
#include "scenario/validation.h"

#include <cmath>
#include <complex>
#include <iterator>

namespace posatlas {
namespace {

// Components of RoPE pair i: (2i, 2i + 1) interleaved, (i, i + rotary_dim / 2) half (rope.h).
std::pair<int, int> rope_pair(int i, int rotary_dim, RopePairing pairing)
{
    return pairing == RopePairing::Interleaved ? std::pair{2 * i, 2 * i + 1}
                                               : std::pair{i, i + rotary_dim / 2};
}

// Block means of the rotated content R(p) x_p over each block of b (rows of the result).
//   Position-independent x: per pair, the complex pair z times the Dirichlet sum of e^{i p theta}
//   over the block (block_means.h), so O(d) per block whatever its size.
//   Random x: the rotations are advanced by the angle-addition recurrence from an exact cos/sin at
//   every kResync-th position, so a block costs one multiply-add per component and position on top
//   of generating the content; the recurrence's rounding grows by about 2^-53 per step (< 1e-13 here).
Eigen::MatrixXd rope_block_means(const MatrixJob& c, const RopeFrequencies& f, bool key,
                                 const std::vector<std::int64_t>& b)
{
    const int d = c.s.params<RopeParams>().head_dim;
    const int pairs = f.pairs();
    const double af = f.attention_factor;
    const auto n = static_cast<std::int64_t>(b.size()) - 1;
    const RopePairing pairing = c.s.params<RopeParams>().pairing;
    Eigen::MatrixXd m(n, d);
    if (content_is_position_independent(c.s.content)) {
        Eigen::VectorXd x(d);
        content_vector_into(c.s.content, key, d, 0, x.data());
#pragma omp parallel for schedule(static) if (n * pairs > 4096)
        for (std::int64_t t = 0; t < n; ++t) {
            const std::int64_t a = b[static_cast<std::size_t>(t)],
                               len = b[static_cast<std::size_t>(t) + 1] - a;
            for (int j = f.rotary_dim; j < d; ++j)
                m(t, j) = x[j];
            for (int i = 0; i < pairs; ++i) {
                const auto [j1, j2] = rope_pair(i, f.rotary_dim, pairing);
                const std::complex<double> z =
                    std::complex<double>(x[j1], x[j2]) *
                    dirichlet_sum(f.inv_freq[static_cast<std::size_t>(i)], a, len) *
                    (af / static_cast<double>(len));
                m(t, j1) = z.real();
                m(t, j2) = z.imag();
            }
        }
        return m;
    }
    constexpr std::int64_t kResync = 256;
    std::vector<double> step_c(static_cast<std::size_t>(pairs)), step_s(step_c.size());
    for (std::size_t i = 0; i < step_c.size(); ++i) {
        step_c[i] = std::cos(f.inv_freq[i]);
        step_s[i] = std::sin(f.inv_freq[i]);
    }
    const auto add_rotated = [&](std::int64_t begin, std::int64_t end, double* acc) {
        std::vector<double> x(static_cast<std::size_t>(d)), cs(step_c.size()), sn(step_c.size());
        for (std::int64_t p = begin; p < end; ++p) {
            content_vector_into(c.s.content, key, d, p, x.data());
            const bool exact = (p - begin) % kResync == 0;
            for (int i = 0; i < pairs; ++i) {
                const auto u = static_cast<std::size_t>(i);
                if (exact) {
                    const double angle = static_cast<double>(p) * f.inv_freq[u];
                    cs[u] = std::cos(angle);
                    sn[u] = std::sin(angle);
                } else {
                    const double next = cs[u] * step_c[u] - sn[u] * step_s[u];
                    sn[u] = sn[u] * step_c[u] + cs[u] * step_s[u];
                    cs[u] = next;
                }
                const auto [j1, j2] = rope_pair(i, f.rotary_dim, pairing);
                const double x1 = x[static_cast<std::size_t>(j1)], x2 = x[static_cast<std::size_t>(j2)];
                acc[j1] += x1 * cs[u] - x2 * sn[u];
                acc[j2] += x1 * sn[u] + x2 * cs[u];
            }
            for (int j = f.rotary_dim; j < d; ++j)
                acc[j] += x[static_cast<std::size_t>(j)];
        }
    };
    const Eigen::MatrixXd cum =
        cumulative_at(b, d, add_rotated, c.cancel, c.progress, key ? 0.45 : 0.0, key ? 0.9 : 0.45);
    for (std::int64_t t = 0; t < n; ++t) {
        const double inv_len =
            1.0 / static_cast<double>(b[static_cast<std::size_t>(t) + 1] - b[static_cast<std::size_t>(t)]);
        for (int j = 0; j < d; ++j)
            m(t, j) = (cum(t + 1, j) - cum(t, j)) * inv_len * (j < f.rotary_dim ? af : 1.0);
    }
    return m;
}

void rope_block_logits(MatrixJob& c)
{
    const RopeFrequencies f = compute_rope_frequencies(c.s.params<RopeParams>());
    const Eigen::MatrixXd q = rope_block_means(c, f, false, c.rb);
    const Eigen::MatrixXd k = rope_block_means(c, f, true, c.cb);
    check_cancel(c.cancel);
    // The rotated means carry a; the attention module's softmax multiplier (DeepSeek) scales the product.
    final_product(c, q, k,
                  f.softmax_scale / std::sqrt(static_cast<double>(c.s.params<RopeParams>().head_dim)));
    report_progress(c.progress, 1.0);
}

void rope_logits(MatrixJob& c)
{
    const RopeFrequencies f = compute_rope_frequencies(c.s.params<RopeParams>());
    const int d = c.s.params<RopeParams>().head_dim;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    if (content_is_position_independent(c.s.content)) {
        const Eigen::VectorXd q = content_query(c.s.content, d, 0);
        const Eigen::VectorXd k = content_key(c.s.content, d, 0);
        const RopePairCoefficients coef = rope_pair_coefficients(f, q, k, c.s.params<RopeParams>().pairing);
        auto by_offset = [&](std::int64_t delta) {
            return rope_relative_score(f, coef, static_cast<double>(delta)) * inv_sqrt_d;
        };
        if (fill_by_offset(c, c.out.values, by_offset)) {
            c.out.used_toeplitz = true;
            return;
        }
        // Nearly as many distinct offsets as cells (a sparse sample of a long sequence): a cos/sin per
        // pair and cell would cost d/2 sincos per cell; rotating each sampled query and key once and
        // multiplying (below) costs d/2 sincos per row and column.
    }
    // Rotate every sampled query and key once, then one matrix product. When the keys sit at the
    // queries' positions (the whole matrix, or a square window) each angle's cos and sin serve both.
    // Rotated below (with a); the softmax multiplier scales the final product.
    Eigen::MatrixXd q = job_queries(c, d), k = job_keys(c, d);
    const RopePairing pairing = c.s.params<RopeParams>().pairing;
    const auto rotate_rows = [&](Eigen::MatrixXd& m, Eigen::MatrixXd* same_positions,
                                 const std::vector<std::int64_t>& pos, double from, double to) {
        const auto n = static_cast<std::int64_t>(pos.size());
        constexpr std::int64_t kChunk = 1024;
        for (std::int64_t r0 = 0; r0 < n; r0 += kChunk) {
            check_cancel(c.cancel);
            const std::int64_t r1 = std::min(n, r0 + kChunk);
#pragma omp parallel for schedule(static)
            for (std::int64_t r = r0; r < r1; ++r)
                rope_rotate_row(f, m, same_positions, r,
                                static_cast<double>(pos[static_cast<std::size_t>(r)]), pairing);
            report_progress(c.progress,
                            from + (to - from) * static_cast<double>(r1) / static_cast<double>(n));
        }
    };
    if (c.rows == c.cols) {
        rotate_rows(q, &k, c.rows, 0.0, 0.5);
    } else {
        rotate_rows(q, nullptr, c.rows, 0.0, 0.25);
        rotate_rows(k, nullptr, c.cols, 0.25, 0.5);
    }
    check_cancel(c.cancel);
    final_product(c, q, k, inv_sqrt_d * f.softmax_scale);
    report_progress(c.progress, 1.0);
}
void rope_matrix(MatrixJob& c)
{
    if (c.block_means())
        rope_block_logits(c);
    else
        rope_logits(c);
}

constexpr unsigned bit(RopeType t)
{
    return 1u << static_cast<unsigned>(t);
}
// The panel shows a scaling parameter only for the rope types that read it.
std::function<bool(const Scenario&)> for_types(unsigned types)
{
    return [types](const Scenario& s) { return (types & bit(s.params<RopeParams>().rope_type)) != 0; };
}

// "What am I looking at?" (explanation.h).
ExplanationText rope_explanation(const Scenario& s, MatrixKind k)
{
    ExplanationText t;
    if (k == MatrixKind::Weights)
        t = weights_explanation();
    else {
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "RoPE rotates the query by i·θ and the key by j·θ in every pair of "
                                "dimensions, so their product depends on the angle (i − j)·θ only."));
        if (explained_zero_content(s))
            t.add(QT_TRANSLATE_NOOP("Explanation",
                                    "With zero content every logit is 0: RoPE turns the content, it "
                                    "adds nothing of its own."));
        else if (explained_constant_content(s))
            t.add(QT_TRANSLATE_NOOP(
                "Explanation",
                "With the same vector at every position the matrix is constant along each "
                "diagonal: the score depends on i − j only. It is largest on the diagonal; away "
                "from it the fast pairs make fine stripes and the slow pairs a broad decay."));
        else
            t.add(QT_TRANSLATE_NOOP(
                "Explanation",
                "With different vectors at each position the content changes every cell, so the "
                "diagonals are no longer constant: the relative pattern lies under the content's "
                "noise."));
    }
    if (s.params<RopeParams>().rope_type != RopeType::Default)
        t.note(QT_TRANSLATE_NOOP("Explanation",
                                 "The scaling (%1) changes the frequencies θ′ (see the Spectrum view): "
                                 "the pattern stretches where θ′ < θ."),
               {ExplanationArg::choice("rope_type")});
    return t;
}

ExplanationText rope_curves_explanation(const Scenario&)
{
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "Both lines are relative to r = 0: RoFormer's upper bound on the logit and the mean of "
        "cos(r·θ) over the pairs. Both fall with distance, with ripples from the slow pairs; the "
        "vertical lines mark the trained and target context, and a dashed line shows the unscaled θ "
        "when a scaling is set."));
}

// The rotation itself: which dimensions turn together and how fast (RoFormer).
std::vector<Field> rope_shape_fields()
{
    using P = RopeParams;
    return {
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 2,
                    .hi = 8192,
                    .even = true,
                    .log_scale = true,
                    .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "head_dim: rotary pairs = rotary_dim / 2, one frequency each (even).")}),
        make_field("rope_theta", FieldType::Real, &P::rope_theta,
                   {.lo = 1,
                    .hi = 1e12,
                    .lo_open = true,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ (rope_theta)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "rope_theta: pair i turns by θ_i = base^(-2i/d) per position. Larger "
                                     "bases make the slowest pairs slower (longer contexts).")}),
        make_field(
            "partial_rotary_factor", FieldType::Real, &P::partial_rotary_factor,
            {.lo = 0,
             .hi = 1,
             .lo_open = true,
             .decimals = 2,
             .step = 0.05,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Partial rotary factor"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Fraction of head_dim that is rotated (GPT-NeoX 0.25, "
                                                       "Phi-2 0.4); the rest passes through.")}),
        make_field(
            "frequency_fraction", FieldType::Real, &P::frequency_fraction,
            {.lo = 0,
             .hi = 1,
             .lo_open = true,
             .decimals = 2,
             .step = 0.05,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Kept frequencies p (p-RoPE)"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "p-RoPE (Barbero et al. 2024): the fraction of the frequencies kept, the "
                              "highest ones; the lowest pairs do not rotate. Gemma 4's proportional RoPE "
                              "is p = 0.25. 1: plain RoPE.")}),
        make_field("pairing", FieldType::Choice, &P::pairing,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Pairing"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Which dimensions rotate together: (2i, 2i+1) as in RoFormer/Meta "
                                     "Llama, or (i, i + d/2) as in GPT-NeoX/Hugging Face."),
                    .choices = {{"interleaved", QT_TRANSLATE_NOOP("ParamSpec", "Interleaved (2i, 2i+1)")},
                                {"half", QT_TRANSLATE_NOOP("ParamSpec", "Half (i, i + d/2)")}}}),
    };
}

// The scaling and the context lengths every scaling reads (rope_scaling.h).
std::vector<Field> rope_scaling_fields()
{
    using P = RopeParams;
    constexpr unsigned kScaled = bit(RopeType::Linear) | bit(RopeType::Ntk) | bit(RopeType::Dynamic) |
                                 bit(RopeType::Yarn) | bit(RopeType::Llama3) | bit(RopeType::LongRope);
    return {
        make_field("rope_type", FieldType::Choice, &P::rope_type,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Scaling (rope_type)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec",
                        "rope_scaling.rope_type: how the frequencies are changed to reach a longer context."),
                    // In the order of RopeType.
                    .choices = {{"default", QT_TRANSLATE_NOOP("ParamSpec", "default")},
                                {"linear", QT_TRANSLATE_NOOP("ParamSpec", "linear (PI)")},
                                {"ntk", QT_TRANSLATE_NOOP("ParamSpec", "ntk")},
                                {"dynamic", QT_TRANSLATE_NOOP("ParamSpec", "dynamic NTK")},
                                {"yarn", QT_TRANSLATE_NOOP("ParamSpec", "yarn")},
                                {"llama3", QT_TRANSLATE_NOOP("ParamSpec", "llama3")},
                                {"longrope", QT_TRANSLATE_NOOP("ParamSpec", "longrope")}},
                    // Legacy ids of published config.json files (parse_rope_type).
                    .choice_aliases = {{"su", "longrope"}, {"mrope", "default"}, {"ntk-aware", "ntk"}},
                    .companion = [](Scenario& s) -> std::string {
                        RopeParams& p = s.params<RopeParams>();
                        if (p.rope_type == RopeType::Default || p.factor != 1.0)
                            return "";
                        p.factor = kDefaultScalingFactor;
                        return "factor";
                    }}),
        make_field("factor", FieldType::Real, &P::factor,
                   {.lo = 1,
                    .hi = 1e6,
                    .log_scale = true,
                    .decimals = 2,
                    .step = 0.25,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Scaling factor s"),
                    .unit = "×",
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "rope_scaling.factor: target context / trained context."),
                    .shown = for_types(kScaled)}),
        make_field("max_position_embeddings", FieldType::Int, &P::max_position_embeddings,
                   {.lo = 1,
                    .hi = 1e9,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Model context"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "max_position_embeddings: the model's context (trained, or "
                                                 "extended when original_max_position_embeddings is set).")}),
        make_field(
            "original_max_position_embeddings", FieldType::Int, &P::original_max_position_embeddings,
            {.lo = 0,
             .hi = 1e9,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Original context"),
             .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "original_max_position_embeddings: the trained "
                                                       "context before scaling (0: same as max positions)."),
             .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "same as max"),
             // Linear / NTK read only the factor; the trained length they are shown against is
             // still the user's to set (a config may not say it: trained_length_ambiguous).
             .shown = for_types(bit(RopeType::Linear) | bit(RopeType::Ntk) | bit(RopeType::Yarn) |
                                bit(RopeType::Llama3) | bit(RopeType::LongRope))}),
        make_field("rope_seq_len", FieldType::Int, &P::seq_len,
                   {.lo = 0,
                    .hi = 1e9,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Current length"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "The sequence length seen at inference: dynamic NTK and LongRoPE change "
                                     "the frequencies once it exceeds the trained context (0: none)."),
                    .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "none"),
                    .aliases = {"seq_len"},
                    .follows_seq_len = true,
                    .shown = for_types(bit(RopeType::Dynamic) | bit(RopeType::LongRope))}),
    };
}

// YaRN's ramp and attention temperature, with DeepSeek's and gpt-oss's variants (and LongRoPE's attention
// factor).
std::vector<Field> yarn_fields()
{
    using P = RopeParams;
    std::vector<Field> fields = yarn_ramp_fields<P>(for_types(bit(RopeType::Yarn)));
    for (Field& f : std::vector<Field>{
             make_field(
                 "mscale_all_dim", FieldType::OptionalReal, &P::mscale_all_dim,
                 {.lo = 0,
                 .hi = 1e3,
                 .decimals = 3,
                 .step = 0.1,
                 .label = QT_TRANSLATE_NOOP("ParamSpec", "mscale_all_dim"),
                 .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "YaRN (DeepSeek): denominator coefficient of the "
                                                           "attention temperature (unset: not used)."),
                 .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "unset"),
                 .shown = for_types(bit(RopeType::Yarn))}),
             make_field("attention_factor", FieldType::OptionalReal, &P::attention_factor,
                        {.lo = 0,
                        .hi = 1e3,
                        .lo_open = true,
                        .decimals = 3,
                        .step = 0.05,
                        .label = QT_TRANSLATE_NOOP("ParamSpec", "Attention factor"),
                        .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                     "Explicit multiplier of cos/sin (logits scale by its "
                                                     "square). Unset: derived from the factor."),
                        .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "unset"),
                        .shown = for_types(bit(RopeType::Yarn) | bit(RopeType::LongRope))}),
             make_field(
                 "softmax_mscale", FieldType::Bool, &P::softmax_mscale,
                 {.label = QT_TRANSLATE_NOOP("ParamSpec", "Softmax scale × mscale² (DeepSeek)"),
                 .tooltip = QT_TRANSLATE_NOOP(
                     "ParamSpec", "DeepSeek-V2/V3 attention: the softmax scale 1/√d is also multiplied by "
                                  "(0.1·mscale_all_dim·ln s + 1)², beside the attention factor on cos and "
                                  "sin (DeepseekV3Attention in transformers). Needs mscale_all_dim."),
                 .shown = for_types(bit(RopeType::Yarn))}),
             make_field(
                 "truncate", FieldType::Bool, &P::truncate,
                 {.label = QT_TRANSLATE_NOOP("ParamSpec", "Truncate correction range"),
                 .tooltip = QT_TRANSLATE_NOOP(
                     "ParamSpec", "YaRN: round the correction range to whole pairs (gpt-oss sets false)."),
                 .shown = for_types(bit(RopeType::Yarn))}),
         })
        fields.push_back(std::move(f));
    return fields;
}

// Llama 3's two wavelength bounds and LongRoPE's per-pair divisors.
std::vector<Field> llama3_and_longrope_fields()
{
    using P = RopeParams;
    return {
        make_field(
            "low_freq_factor", FieldType::Real, &P::low_freq_factor,
            {.lo = 0,
             .hi = 1e6,
             .lo_open = true,
             .log_scale = true,
             .decimals = 2,
             .step = 0.5,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Low-frequency factor"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Llama 3: wavelengths longer than original context / "
                                                       "low_freq_factor are divided by the factor."),
             .shown = for_types(bit(RopeType::Llama3))}),
        make_field("high_freq_factor", FieldType::Real, &P::high_freq_factor,
                   {.lo = 0,
                    .hi = 1e6,
                    .lo_open = true,
                    .log_scale = true,
                    .decimals = 2,
                    .step = 0.5,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "High-frequency factor"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Llama 3: wavelengths shorter than original context / high_freq_factor "
                                     "are kept; between the two they are blended."),
                    .shown = for_types(bit(RopeType::Llama3))}),
        make_field("short_factor", FieldType::RealList, &P::short_factor,
                   {.lo = 0,
                    .hi = 1e6,
                    .lo_open = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Short factors"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "LongRoPE: one divisor per rotary pair within the original context."),
                    .panel = false,
                    .shown = for_types(bit(RopeType::LongRope)),
                    .read_only_summary = true}),
        make_field("long_factor", FieldType::RealList, &P::long_factor,
                   {.lo = 0,
                    .hi = 1e6,
                    .lo_open = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Long factors"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "LongRoPE: one divisor per rotary pair beyond the original context."),
                    .panel = false,
                    .shown = for_types(bit(RopeType::LongRope)),
                    .read_only_summary = true}),
    };
}

// Rules across fields: an even rotary_dim, the ordered β and frequency factors, DeepSeek's softmax scale
// with its mscale_all_dim, one LongRoPE factor per pair.
void rope_check(const Scenario& s)
{
    const RopeParams& p = s.params<RopeParams>();
    const int rd = p.rotary_dim();
    if (p.frequency_fraction < 1.0) {
        if (p.rope_type != RopeType::Default && p.rope_type != RopeType::Linear)
            throw ParameterError("frequency_fraction",
                                 "1 unless rope_type is default or linear (p-RoPE keeps the unscaled or "
                                 "linearly scaled frequencies)",
                                 format_number(p.frequency_fraction) + " with rope_type " +
                                     std::string(rope_type_id(p.rope_type)));
        if (rd < 2)
            throw ParameterError("frequency_fraction",
                                 "at least 2 / frequency_dim = 2 / " + std::to_string(p.frequency_dim()) +
                                     " so that one pair keeps its frequency",
                                 format_number(p.frequency_fraction));
    }
    if (rd < 2 || rd % 2 != 0)
        throw ParameterError("partial_rotary_factor",
                             "such that int(head_dim * partial_rotary_factor) is even and >= 2",
                             format_number(p.partial_rotary_factor) + ", rotary_dim " + std::to_string(rd));
    require_real("beta_fast", p.beta_fast, p.beta_slow, 1e6, false);
    // Equal factors are Llama 4's (configuration_llama4.py's rope_scaling: both 1): no blended band.
    require_real("high_freq_factor", p.high_freq_factor, p.low_freq_factor, 1e6, true);
    if (p.rope_type == RopeType::Yarn && p.softmax_mscale && !(p.mscale_all_dim && *p.mscale_all_dim != 0.0))
        throw ParameterError("softmax_mscale",
                             "used with mscale_all_dim set and non-zero: DeepSeek's attention multiplies the "
                             "softmax scale by get_mscale(factor, mscale_all_dim)^2 (set mscale_all_dim, or "
                             "turn softmax_mscale off)",
                             p.mscale_all_dim ? "mscale_all_dim 0" : "mscale_all_dim unset");
    if (p.rope_type == RopeType::LongRope) {
        const auto pairs = static_cast<std::size_t>(rd / 2);
        for (const auto* list : {&p.short_factor, &p.long_factor})
            if (list->size() != pairs)
                throw ParameterError(list == &p.short_factor ? "short_factor" : "long_factor",
                                     "a list of rotary_dim / 2 = " + std::to_string(pairs) + " numbers",
                                     std::to_string(list->size()) + " numbers");
    }
}

// Llama-2-7B's 512 positions (θ 10000, d 128).
Scenario llama_2_7b()
{
    Scenario s = gallery_preset("llama-2-7b");
    s.seq_len = 512;
    return s;
}

// Gemma 4's full-attention layers (Gemma4TextConfig's defaults,
// tests/data/configs/gemma4_text_defaults.json): global_head_dim 512, rope_theta 1e6, proportional RoPE with
// partial_rotary_factor 0.25, i.e. p-RoPE.
Scenario gemma_4_full_attention()
{
    Scenario s = gallery_defaults(Method::RoPE);
    RopeParams& p = s.params<RopeParams>();
    p.head_dim = 512;
    p.rope_theta = 1e6;
    p.frequency_fraction = 0.25;
    p.max_position_embeddings = 131072;
    s.seq_len = 512;
    return s;
}

// θ and d of the scenario, the numbers of a RoPE caption's "(θ %1, d %2)".
std::vector<std::string> theta_and_head_dim(const GalleryFigureSpec&, const Scenario& s)
{
    const RopeParams& p = s.params<RopeParams>();
    return {prose_number(p.rope_theta), prose_number(p.head_dim)};
}

// The classic figures on Llama-2-7B (RoFormer's long-term decay, the rotation), then the context-extension
// scalings on the models that ship them.
std::vector<GalleryFigureSpec> rope_gallery()
{
    const auto preset = [](const char* id) { return [id] { return gallery_preset(id); }; };
    return {
        {.stem = "rope-logits",
         .caption =
             QT_TRANSLATE_NOOP("Gallery", "RoPE logits of Llama-2-7B (θ %1, d %2) for all-ones content: the "
                                          "positional pattern, Toeplitz in i − j"),
         .caption_numbers = theta_and_head_dim,
         .scenario = llama_2_7b,
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512},
        {.stem = "rope-long-term-decay",
         .caption =
             QT_TRANSLATE_NOOP("Gallery", "RoFormer long-term decay (Su et al., sec. 3.4.3): (1/(d/2)) Σ|Sⱼ| "
                                          "against relative distance, θ %1, d %2"),
         .caption_numbers = theta_and_head_dim,
         .view = GalleryView::Curves,
         .scenario = llama_2_7b,
         .max_distance = 256,
         .log_x = false},
        {.stem = "rope-decay-to-a-million",
         .caption =
             QT_TRANSLATE_NOOP("Gallery", "The same bound and mean cos(rθᵢ) out to r = %1 on a log axis"),
         .caption_numbers =
             [](const GalleryFigureSpec& f, const Scenario&) {
                 return std::vector<std::string>{prose_number(static_cast<double>(f.max_distance))};
             },
         .view = GalleryView::Curves,
         .scenario = llama_2_7b,
         .max_distance = 1'000'000,
         .log_x = true},
        {.stem = "rope-rotation",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "RoPE rotation of q at m = %1 and k at n = %2, large for pairs %3, %4, %5 and %6, "
                        "and every pair's hand"),
         .caption_numbers =
             [](const GalleryFigureSpec& f, const Scenario& s) {
                 std::vector<std::string> numbers{prose_number(f.query_position.value()),
                                                  prose_number(f.key_position.value())};
                 const int pairs = compute_rope_frequencies(s.params<RopeParams>()).pairs();
                 for (const int pair : rope_default_shown_pairs(pairs))
                     numbers.push_back(prose_number(pair));
                 return numbers;
             },
         .view = GalleryView::Rotation,
         .scenario = llama_2_7b,
         .query_position = 12,
         .key_position = 4},
        {.stem = "prope-spectrum",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "p-RoPE as Gemma 4's full-attention layers use it (proportional RoPE: d %1, θ %2, "
                        "p %3): the %4 highest frequencies of the head turn, its %5 lowest pairs do not"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const RopeParams& p = s.params<RopeParams>();
                 const int turning = p.rotary_dim() / 2;
                 return std::vector<std::string>{prose_number(p.head_dim), prose_number(p.rope_theta),
                                                 prose_number(p.frequency_fraction), prose_number(turning),
                                                 prose_number(p.head_dim / 2 - turning)};
             },
         .view = GalleryView::Spectrum,
         .scenario = gemma_4_full_attention},
        {.stem = "yarn-spectrum",
         .caption =
             QT_TRANSLATE_NOOP("Gallery", "YaRN on Yarn-Llama-2-7b-64k (factor %1, original %2, β %3/%4): "
                                          "wavelengths against the original context and the ramp per pair"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const RopeParams& p = s.params<RopeParams>();
                 return std::vector<std::string>{prose_number(p.factor),
                                                 prose_number(static_cast<double>(p.trained_length())),
                                                 prose_number(p.beta_fast), prose_number(p.beta_slow)};
             },
         .view = GalleryView::Spectrum,
         .scenario = preset("yarn-llama-2-7b-64k"),
         .section = GallerySection::ContextExtension},
        {.stem = "llama3-bands",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Llama 3.1 8B: high-frequency pairs kept, low-frequency pairs divided by "
                        "%1, a smooth band between (low %2, high %3, original %4)"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const RopeParams& p = s.params<RopeParams>();
                 return std::vector<std::string>{prose_number(p.factor), prose_number(p.low_freq_factor),
                                                 prose_number(p.high_freq_factor),
                                                 prose_number(static_cast<double>(p.trained_length()))};
             },
         .view = GalleryView::Spectrum,
         .scenario = preset("llama-3.1-8b"),
         .section = GallerySection::ContextExtension},
        {.stem = "longrope-spectrum",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Phi-3-mini-128k LongRoPE: per-pair long factors and the attention factor"),
         .view = GalleryView::Spectrum,
         .scenario = preset("phi-3-mini-128k"),
         .section = GallerySection::ContextExtension},
    };
}

} // namespace

MethodDescriptor describe_rope()
{
    using P = RopeParams;
    MethodDescriptor d;
    d.method = Method::RoPE;
    d.section = "rope";
    d.name = QT_TRANSLATE_NOOP("Method", "RoPE (Su et al. 2021)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "RoPE");
    d.noun = "RoPE";
    d.reference = "Su et al. 2021, RoFormer; Hugging Face modeling_rope_utils; llama.cpp ggml rope";
    // In the panel's order.
    for (const auto group :
         {rope_shape_fields, rope_scaling_fields, yarn_fields, llama3_and_longrope_fields}) {
        std::vector<Field> fields = group();
        d.fields.insert(d.fields.end(), std::make_move_iterator(fields.begin()),
                        std::make_move_iterator(fields.end()));
    }
    d.kinds = {
        logits_kind(rope_matrix, always_block_means),
    };
    d.quantities = {"rope-frequencies", "rope-pairs",  "rope-decay",
                    "rope-score",       "rope-angles", "attention-entropy"};
    d.check = rope_check;
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.context_length = [](const Scenario& s) { return rope_default_target_length(s.params<P>()); };
    d.caption_fields = {{"rope_theta", QT_TRANSLATE_NOOP("Caption", "θ %1")},
                        {"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"rope_type", QT_TRANSLATE_NOOP("Caption", "%1")},
                        {"factor", QT_TRANSLATE_NOOP("Caption", "× %1")}};
    d.explain = rope_explanation;
    d.explain_curves = rope_curves_explanation;
    d.gallery = rope_gallery();
    d.curve_families = {rope_decay_family()};
    d.rotary = [](const Scenario& s) { return std::optional<RopeParams>(s.params<P>()); };
    return d;
}

} // namespace posatlas
