// SPDX-License-Identifier: GPL-3.0-or-later
// DeBERTa v2/v3 disentangled attention (He et al. 2021; Hugging Face DebertaV2 DisentangledSelfAttention,
// make_log_bucket_position, build_relative_position).
#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/deberta/deberta.h"
#include "methods/deberta/deberta_curves.h"
#include "methods/table_files.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

namespace posatlas {
namespace {

void deberta_logits(MatrixJob& c)
{
    const DebertaModel m = make_deberta_model(c.s.params<DebertaParams>());
    const int d = c.s.params<DebertaParams>().head_dim;
    const Eigen::MatrixXd q = job_queries(c, d), k = job_keys(c, d);
    // c2p reads the bucket of i - j, p2c that of j - i: the logit of an offset is constant wherever both
    // are, so block means add their runs (log buckets: a few hundred), not 2N - 1 offsets (0.4 s at 10^6).
    const DebertaRelative relative(c.s.params<DebertaParams>());
    if (!content_is_position_independent(c.s.content)) {
        // Position-dependent content: no block means (block_means_with_constant_content), every cell, as
        // Hugging Face computes it: c2c one product, c2p Q (K^r)^T and p2c K (Q^r)^T one product each,
        // which the cells read at their rows, instead of three d-wide dot products per cell.
        const DebertaParams& p = c.s.params<DebertaParams>();
        std::vector<GatheredTerm> terms;
        if (p.c2p)
            terms.push_back({m.pos_key, false, [&](std::int64_t delta) { return relative.c2p_row(delta); }});
        if (p.p2c)
            terms.push_back({m.pos_query, true, [&](std::int64_t delta) { return relative.p2c_row(delta); }});
        const int scale_factor = 1 + (p.c2p ? 1 : 0) + (p.p2c ? 1 : 0);
        content_plus_gathered(c, q, k, 1.0 / std::sqrt(static_cast<double>(d) * scale_factor), terms);
        return;
    }
    const OffsetRuns runs = bucket_runs(c, {[&](std::int64_t delta) { return relative(delta, 0); },
                                            [&](std::int64_t delta) { return relative(0, delta); }});
    relative_fill(
        c,
        [&](std::int64_t r, std::int64_t col) {
            return deberta_logit_terms(m, q.row(r).transpose(), k.row(col).transpose(),
                                       c.rows[static_cast<std::size_t>(r)],
                                       c.cols[static_cast<std::size_t>(col)])
                .total;
        },
        [&](std::int64_t delta) {
            return deberta_logit_terms(m, q.row(0).transpose(), k.row(0).transpose(), delta, 0).total;
        },
        &runs);
}

void deberta_buckets(MatrixJob& c)
{
    const DebertaRelative relative(c.s.params<DebertaParams>()); // validated once, not per offset
    c.out.is_integer = true;
    fill_by_offset(
        c, c.out.values, [&](std::int64_t delta) { return static_cast<double>(relative(delta, 0)); }, true);
    c.out.used_toeplitz = true;
}

// "What am I looking at?" (explanation.h).
ExplanationText deberta_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    const DebertaParams& p = s.params<DebertaParams>();
    if (k == MatrixKind::Buckets && p.position_buckets > 0)
        return ExplanationText().add(
            QT_TRANSLATE_NOOP("Explanation",
                              "Each cell is the bucketed relative position of i − j: exact up to ±%1, "
                              "logarithmically coarser beyond, up to max_relative_positions = %2."),
            {p.position_buckets / 2, p.max_relative_positions});
    if (k == MatrixKind::Buckets)
        return ExplanationText().add(
            QT_TRANSLATE_NOOP("Explanation", "Each cell is the relative position i − j, clipped to ±%1."),
            {p.max_relative_positions});
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "The logit adds to q_i · k_j the content-to-position and position-to-content terms, which "
        "read a relative-position embedding at the bucketed distance i − j (a seeded stand-in table "
        "here)."));
}

ExplanationText deberta_curves_explanation(const Scenario&)
{
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "The y axis is the bucketed relative position: equal to r near 0, then logarithmic. The "
        "solid line is the embedding row attention reads (clamped), the dashed one the bucket "
        "before clamping."));
}

// DeBERTa-v3's log buckets, and its logits for one fixed content vector.
Scenario deberta_v3_base()
{
    Scenario s = gallery_preset("deberta-v3-base");
    s.seq_len = 256;
    s.content.kind = ContentKind::Fixed;
    return s;
}

std::vector<GalleryFigureSpec> deberta_gallery()
{
    return {
        {.stem = "deberta-buckets",
         .caption =
             QT_TRANSLATE_NOOP("Gallery", "DeBERTa-v3 log-bucketed relative positions (%1 buckets, span %2)"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const auto& p = s.params<DebertaParams>();
                 return std::vector<std::string>{prose_number(p.position_buckets),
                                                 prose_number(p.max_relative_positions)};
             },
         .view = GalleryView::Curves,
         .scenario = deberta_v3_base},
        {.stem = "deberta-logits",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "DeBERTa-v3 disentangled attention logits (c2c + c2p + p2c) for one fixed "
                        "content vector: the position terms vary with the log bucket of i − j"),
         .scenario = deberta_v3_base,
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512},
    };
}

} // namespace

MethodDescriptor describe_deberta()
{
    using P = DebertaParams;
    MethodDescriptor d;
    d.method = Method::DeBERTa;
    d.section = "deberta";
    d.name = QT_TRANSLATE_NOOP("Method", "DeBERTa disentangled attention");
    d.short_name = QT_TRANSLATE_NOOP("Method", "DeBERTa");
    d.noun = "DeBERTa disentangled relative positions";
    d.reference = "He et al. 2021, DeBERTa; Hugging Face modeling_deberta_v2";
    d.fields = {
        head_dim_field(
            &P::head_dim,
            QT_TRANSLATE_NOOP("ParamSpec", "Dimension of content and relative position projections.")),
        make_field(
            "position_buckets", FieldType::Int, &P::position_buckets,
            {.lo = -1,
             .hi = 65536,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Position buckets"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "position_buckets: log buckets beyond ±buckets/2 (0 "
                                                       "or -1: plain clipped relative positions)."),
             .unset_label = QT_TRANSLATE_NOOP("ParamSpec", "none")}),
        make_field("max_relative_positions", FieldType::Int, &P::max_relative_positions,
                   {.lo = 2,
                    .hi = 1e9,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Max relative positions"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "max_relative_positions: the span the log buckets reach.")}),
        make_field("c2p", FieldType::Bool, &P::c2p,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Content → position (c2p)"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "Include the content-to-position term of pos_att_type.")}),
        make_field("p2c", FieldType::Bool, &P::p2c,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Position → content (p2c)"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "Include the position-to-content term of pos_att_type.")}),
        seed_field(
            &P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Projection seed"),
            QT_TRANSLATE_NOOP("ParamSpec", "Seed of the stand-in relative embeddings and projections.")),
        initializer_range_field(&P::stddev),
    };
    auto rel = table_fields(
        "rel_embeddings", &P::rel_embeddings, &P::rel_embeddings_tensor,
        QT_TRANSLATE_NOOP("ParamSpec", "relative embeddings table"),
        QT_TRANSLATE_NOOP(
            "ParamSpec",
            "DeBERTa's rel_embeddings from a file: 2 att_span x e (e = hidden_size in a checkpoint; "
            "without a tensor name a checkpoint's deberta.encoder.rel_embeddings.weight). Overrides the "
            "seeded table; LayerNorm is not applied."),
        [](const Scenario& s) { return deberta_rel_shape(s.params<P>()); },
        [](Scenario& s, std::int64_t rows, std::int64_t) {
            // The rows are 2 att_span: att_span is position_buckets when
            // buckets are on, else max_relative_positions.
            P& p = s.params<P>();
            if (rows % 2 != 0 || rows < 4)
                return;
            if (p.position_buckets > 0)
                p.position_buckets = static_cast<int>(std::min<std::int64_t>(rows / 2, 65536));
            else
                p.max_relative_positions = static_cast<int>(rows / 2);
        });
    // A model's checkpoint: its deberta.encoder.rel_embeddings.weight, when it has one.
    rel.first.adopt_checkpoint = [](Scenario& s,
                                    const std::string& checkpoint) -> std::optional<std::string> {
        if (!deberta_use_checkpoint_rel_embeddings(s.params<P>(), checkpoint))
            return std::nullopt;
        return "relative embeddings " + s.params<P>().rel_embeddings_tensor + " read from " +
               std::filesystem::path(checkpoint).filename().string();
    };
    add_table_fields(d.fields, std::move(rel));
    const auto proj_shape = [](const Scenario& s) { return deberta_proj_shape(s.params<P>()); };
    const auto proj_adopt = [](Scenario& s, std::int64_t rows, std::int64_t) {
        s.params<P>().head_dim = static_cast<int>(std::clamp<std::int64_t>(rows, 1, 4096));
    };
    add_table_fields(
        d.fields,
        table_fields(
            "pos_key_proj", &P::pos_key_proj, &P::pos_key_proj_tensor,
            QT_TRANSLATE_NOOP("ParamSpec", "W_k table (relative keys)"),
            QT_TRANSLATE_NOOP(
                "ParamSpec",
                "One head's slice of the key projection applied to the relative embeddings (pos_key_proj, or "
                "key_proj with share_att_key): head_dim x e. Overrides the seeded W_k."),
            proj_shape, proj_adopt));
    add_table_fields(
        d.fields, table_fields("pos_query_proj", &P::pos_query_proj, &P::pos_query_proj_tensor,
                               QT_TRANSLATE_NOOP("ParamSpec", "W_q table (relative queries)"),
                               QT_TRANSLATE_NOOP("ParamSpec",
                                                 "One head's slice of the query projection applied to the "
                                                 "relative embeddings (pos_query_proj, or query_proj with "
                                                 "share_att_key): head_dim x e. Overrides the seeded W_q."),
                               proj_shape, proj_adopt));
    show_seed_while_a_table_is_seeded(d.fields);
    d.kinds = {
        logits_kind(deberta_logits, block_means_with_constant_content),
        {MatrixKind::Buckets, QT_TRANSLATE_NOOP("MatrixKind", "buckets"),
         QT_TRANSLATE_NOOP("MatrixLabel", "bucket"), deberta_buckets, nullptr},
    };
    d.quantities = {"deberta-buckets"};
    // make_log_bucket_position: mid = buckets / 2 >= 1 and log((max_position - 1) / mid) > 0.
    d.check = [](const Scenario& s) {
        const P& p = s.params<P>();
        if (p.position_buckets > 0) {
            require_int("position_buckets", p.position_buckets, 2, 65536);
            if (p.max_relative_positions - 1 <= p.position_buckets / 2)
                throw ParameterError("max_relative_positions",
                                     "> position_buckets / 2 + 1 = " +
                                         std::to_string(p.position_buckets / 2 + 1),
                                     std::to_string(p.max_relative_positions));
        }
        check_method_tables(descriptor(Method::DeBERTa), s);
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.context_length = [](const Scenario& s) {
        return static_cast<std::int64_t>(s.params<P>().max_relative_positions);
    };
    d.caption_fields = {{"position_buckets", QT_TRANSLATE_NOOP("Caption", "%1 buckets")},
                        {"max_relative_positions", QT_TRANSLATE_NOOP("Caption", "span %1")}};
    d.explain = deberta_explanation;
    d.explain_curves = deberta_curves_explanation;
    d.gallery = deberta_gallery();
    d.curve_families = {deberta_bucket_family()};
    return d;
}

} // namespace posatlas
