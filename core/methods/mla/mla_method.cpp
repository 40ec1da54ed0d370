// SPDX-License-Identifier: GPL-3.0-or-later
// MLA's descriptor and logits kernel (mla.h): the position-free part of every sampled query and key is
// kept, its decoupled RoPE part rotated by the token's position with core's RoPE (rope.h), then one
// matrix product with DeepSeek's softmax scale.
#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/mla/mla.h"
#include "methods/mla/mla_curves.h"
#include "methods/rope/rope.h"
#include "methods/rope/yarn_fields.h"
#include "scenario/validation.h"

#include <cmath>
#include <utility>

namespace posatlas {
namespace {

using P = MlaParams;

int qk_head_dim(const P& p)
{
    return p.qk_nope_head_dim + p.qk_rope_head_dim;
}

// The logit against i − j for position-independent content: (q_nope · k_nope + rotary term) · c.
struct RelativeLogit {
    RopeFrequencies f;
    RopePairCoefficients coef;
    double nope_dot = 0.0;
    double scale = 1.0;

    RelativeLogit(const P& p, const ContentParams& content)
        : f(mla_frequencies(p)), scale(mla_softmax_scale(p))
    {
        const Eigen::VectorXd q = content_query(content, qk_head_dim(p), 0);
        const Eigen::VectorXd k = content_key(content, qk_head_dim(p), 0);
        const Eigen::Index nope = p.qk_nope_head_dim, rope = p.qk_rope_head_dim;
        nope_dot = q.head(nope).dot(k.head(nope));
        coef = rope_pair_coefficients(f, q.tail(rope), k.tail(rope), mla_pairing(p));
    }
    double operator()(std::int64_t delta) const
    {
        return (nope_dot + rope_relative_score(f, coef, static_cast<double>(delta))) * scale;
    }
};

void mla_logits(MatrixJob& c)
{
    const P& p = c.s.params<P>();
    const int dim = qk_head_dim(p), rope = p.qk_rope_head_dim;
    if (content_is_position_independent(c.s.content)) {
        const RelativeLogit by_offset(p, c.s.content);
        if (fill_by_offset(c, c.out.values, by_offset)) {
            c.out.used_toeplitz = true;
            return;
        }
        // Nearly as many distinct offsets as cells: rotating each sampled row once is cheaper (as RoPE's).
    }
    const RopeFrequencies f = mla_frequencies(p);
    const RopePairing pairing = mla_pairing(p);
    Eigen::MatrixXd q = job_queries(c, dim), k = job_keys(c, dim);
    // Rotate the last qk_rope_head_dim columns (cat(q_pass, q_rot)) of every row at its position.
    const auto rotate_rows = [&](Eigen::MatrixXd& m, const std::vector<std::int64_t>& pos, double from,
                                 double to) {
        Eigen::MatrixXd part = m.rightCols(rope);
        const auto n = static_cast<std::int64_t>(pos.size());
        constexpr std::int64_t kChunk = 1024;
        for (std::int64_t r0 = 0; r0 < n; r0 += kChunk) {
            check_cancel(c.cancel);
            const std::int64_t r1 = std::min(n, r0 + kChunk);
#pragma omp parallel for schedule(static)
            for (std::int64_t r = r0; r < r1; ++r)
                rope_rotate_row(f, part, nullptr, r, static_cast<double>(pos[static_cast<std::size_t>(r)]),
                                pairing);
            report_progress(c.progress,
                            from + (to - from) * static_cast<double>(r1) / static_cast<double>(n));
        }
        m.rightCols(rope) = part;
    };
    rotate_rows(q, c.rows, 0.0, 0.25);
    rotate_rows(k, c.cols, 0.25, 0.5);
    check_cancel(c.cancel);
    final_product(c, q, k, mla_softmax_scale(p));
    report_progress(c.progress, 1.0);
}

// β_fast above β_slow, and the rotary part a valid RoPE (the same ranges, checked once more by RoPE's rules).
void mla_check(const Scenario& s)
{
    const P& p = s.params<P>();
    require_real("beta_fast", p.beta_fast, p.beta_slow, 1e6, false);
    validate(mla_rope_params(p));
}

bool is_yarn(const Scenario& s)
{
    return s.params<P>().rope_type == MlaRopeType::Yarn;
}

ExplanationText mla_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Multi-head latent attention splits each head in two: q_nope · k_nope (%1 "
                            "dimensions) carries no position, and only the %2 decoupled RoPE dimensions are "
                            "rotated, so the logit is a content term plus a rotary term of i − j."),
          {s.params<P>().qk_nope_head_dim, s.params<P>().qk_rope_head_dim});
    if (explained_zero_content(s))
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "With zero content every logit is 0: RoPE turns the content, it "
                                "adds nothing of its own."));
    else if (explained_constant_content(s))
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "With the same vector at every position the content term is one number and "
                                "the rotary term depends on i − j only: the diagonals are constant, RoPE's "
                                "pattern on a small head, lifted by the content term."));
    else
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "With different vectors at each position the content changes every cell, so "
                                "the diagonals are no longer constant: the relative pattern lies under the "
                                "content's noise."));
    t.note(QT_TRANSLATE_NOOP("Explanation",
                             "Softmax scale %1: (d_nope + d_rope)^−½ times mscale² for YaRN with "
                             "mscale_all_dim (DeepseekV3Attention)."),
           {ExplanationArg::real(mla_softmax_scale(s.params<P>()))});
    return t;
}

ExplanationText mla_curves_explanation(const Scenario&)
{
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "The line is the rotary share |R| / (|N| + |R|) of one logit at distance r: N is the position-free "
        "q_nope · k_nope, R the rotated part. It is largest where the rotary dimensions line up (r = 0 for "
        "the same vector everywhere) and falls as they turn apart."));
}

std::vector<Field> mla_fields()
{
    std::vector<Field> fields{
        make_field("qk_nope_head_dim", FieldType::Int, &P::qk_nope_head_dim,
                   {.lo = 0,
                    .hi = 4096,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Position-free dimensions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "qk_nope_head_dim: the part of each query and key without position "
                                     "(DeepSeek-V3 128).")}),
        make_field("qk_rope_head_dim", FieldType::Int, &P::qk_rope_head_dim,
                   {.lo = 2,
                    .hi = 4096,
                    .even = true,
                    .log_scale = true,
                    .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Rotary dimensions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "qk_rope_head_dim: the decoupled RoPE part of each query and key, "
                                     "rotated by position (DeepSeek-V3 64).")}),
        make_field("rope_theta", FieldType::Real, &P::rope_theta,
                   {.lo = 1,
                    .hi = 1e12,
                    .lo_open = true,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ (rope_theta)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "rope_theta: pair i turns by θ_i = base^(-2i/d) per position. Larger "
                                     "bases make the slowest pairs slower (longer contexts).")}),
        make_field("rope_interleave", FieldType::Bool, &P::rope_interleave,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Interleaved (rope_interleave)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "rope_interleave: rotate (2i, 2i+1) as DeepSeek's weights are laid out "
                                     "(apply_rotary_pos_emb_interleave); off: (i, i + d/2).")}),
        make_field("rope_type", FieldType::Choice, &P::rope_type,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Scaling (rope_type)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec",
                        "rope_scaling.rope_type: how the frequencies are changed to reach a longer context."),
                    // In the order of MlaRopeType.
                    .choices = {{"default", QT_TRANSLATE_NOOP("ParamSpec", "default")},
                                {"yarn", QT_TRANSLATE_NOOP("ParamSpec", "yarn")}}}),
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
                    .shown = is_yarn}),
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
            {.lo = 1,
             .hi = 1e9,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Original context"),
             .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "rope_scaling.original_max_position_embeddings: "
                                                       "the context YaRN's ramp is measured against."),
             .shown = is_yarn}),
    };
    // YaRN's β fast, β slow and mscale: the same fields as RoPE's.
    for (Field& f : yarn_ramp_fields<P>(is_yarn))
        fields.push_back(std::move(f));
    fields.push_back(make_field(
        "mscale_all_dim", FieldType::OptionalReal, &P::mscale_all_dim,
        {.lo = 0,
         .hi = 1e3,
         .decimals = 3,
         .step = 0.1,
         .label = QT_TRANSLATE_NOOP("ParamSpec", "mscale_all_dim"),
         .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                      "YaRN (DeepSeek): the softmax scale is multiplied by "
                                      "(0.1·mscale_all_dim·ln s + 1)², and cos and sin by "
                                      "get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) (unset or 0: no "
                                      "softmax multiplier)."),
         .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "unset"),
         .shown = is_yarn}));
    return fields;
}

// DeepSeek-V3's attention (the defaults) on 512 positions of all-ones content.
Scenario mla_gallery_scenario()
{
    Scenario s = gallery_defaults(kMLA);
    s.seq_len = 512;
    return s;
}

// The rotary capability (registry.h): the rotation diagram, the spectrum and the explorer draw the rotary
// part, mla_rope_params with DeepSeek's softmax multiplier (softmax_mscale), so that their logit
// multiplier is the model's. Derived on each call (a few fields), returned by value.
std::optional<RopeParams> mla_rotary(const Scenario& s)
{
    const MlaParams& m = s.params<MlaParams>();
    RopeParams rope = mla_rope_params(m);
    rope.softmax_mscale = m.rope_type == MlaRopeType::Yarn && m.mscale_all_dim && *m.mscale_all_dim != 0.0;
    return rope;
}

} // namespace

MethodDescriptor describe_mla()
{
    MethodDescriptor d;
    d.method = kMLA;
    d.section = "mla";
    d.name = QT_TRANSLATE_NOOP("Method", "MLA decoupled RoPE (DeepSeek-V2/V3)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "MLA");
    d.noun = "multi-head latent attention with decoupled RoPE";
    d.reference = "DeepSeek-AI 2024, DeepSeek-V2 (sec. 2.1.3) and DeepSeek-V3; Hugging Face transformers "
                  "DeepseekV3Attention, apply_rotary_pos_emb_interleave, yarn_get_mscale, "
                  "_compute_yarn_parameters";
    d.fields = mla_fields();
    // Point sampling of exact cells (no block means); Toeplitz rows for position-independent content.
    d.kinds = {logits_kind(mla_logits, nullptr)};
    d.check = mla_check;
    d.content_dim = [](const Scenario& s) { return qk_head_dim(s.params<P>()); };
    d.context_length = [](const Scenario& s) { return s.params<P>().max_position_embeddings; };
    d.caption_fields = {{"qk_nope_head_dim", QT_TRANSLATE_NOOP("Caption", "d_nope %1")},
                        {"qk_rope_head_dim", QT_TRANSLATE_NOOP("Caption", "d_rope %1")},
                        {"rope_theta", QT_TRANSLATE_NOOP("Caption", "θ %1")},
                        {"rope_type", QT_TRANSLATE_NOOP("Caption", "%1")},
                        {"factor", QT_TRANSLATE_NOOP("Caption", "× %1")}};
    d.explain = mla_explanation;
    d.explain_curves = mla_curves_explanation;
    d.curve_families = {mla_rotary_share_family()};
    d.rotary = mla_rotary;
    d.gallery = {
        {.stem = "mla-logits",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "MLA logits of DeepSeek-V3 (%1 position-free and %2 rotary dimensions, YaRN × %3, "
                        "softmax scale %4^−½ × (%5)²) for all-ones content: RoPE's pattern on the rotary "
                        "part above the constant content term"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const P& p = s.params<P>();
                 return std::vector<std::string>{prose_number(p.qk_nope_head_dim),
                                                 prose_number(p.qk_rope_head_dim), prose_number(p.factor),
                                                 prose_number(qk_head_dim(p)),
                                                 prose_number(std::sqrt(mla_mscale_squared(p)))};
             },
         .scenario = mla_gallery_scenario,
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512},
        {.stem = "mla-rotary-share",
         .caption =
             QT_TRANSLATE_NOOP("Gallery", "DeepSeek-V3's rotary share |R| / (|N| + |R|) of the logit against "
                                          "distance for all-ones content, out to %1"),
         .caption_numbers =
             [](const GalleryFigureSpec& f, const Scenario&) {
                 return std::vector<std::string>{prose_number(static_cast<double>(f.max_distance))};
             },
         .view = GalleryView::Curves,
         .scenario = mla_gallery_scenario,
         .max_distance = 4096,
         .log_x = true}};
    return d;
}

} // namespace posatlas
