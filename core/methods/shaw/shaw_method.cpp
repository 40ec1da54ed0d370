// SPDX-License-Identifier: GPL-3.0-or-later
// Relative position representations (Shaw, Uszkoreit, Vaswani 2018, eq. 4-5; tensor2tensor
// _generate_relative_positions_matrix): logit q_i . (k_j + a^K_{clip(j - i, -k, k)}) / sqrt(d).
#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/shaw/shaw.h"
#include "methods/table_files.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posatlas {
namespace {

// Position-independent content: one logit per clipped relative position (2k + 1 of them), whatever
// the number of cells; by_offset(delta) reads it (a curve's 10^6 distances read this table instead of
// a d-wide dot product each).
struct ShawConstant {
    int clip = 0;
    std::vector<double> by_index; // relative position j - i = idx at idx + clip

    double by_offset(std::int64_t delta) const
    {
        return by_index[static_cast<std::size_t>(shaw_relative_index(delta, 0, clip) + clip)];
    }
};

ShawConstant shaw_constant(const Scenario& s, const ShawTables& t)
{
    const int d = s.params<ShawParams>().head_dim;
    ShawConstant c;
    c.clip = s.params<ShawParams>().max_relative_position;
    const Eigen::VectorXd q = content_query(s.content, d, 0), k = content_key(s.content, d, 0);
    c.by_index.resize(static_cast<std::size_t>(2 * c.clip + 1));
    for (int idx = -c.clip; idx <= c.clip; ++idx)
        c.by_index[static_cast<std::size_t>(idx + c.clip)] = shaw_logit(t, q, k, -idx, 0);
    return c;
}

void shaw_logits(MatrixJob& c)
{
    const ShawTables t = make_shaw_tables(c.s.params<ShawParams>());
    const int d = c.s.params<ShawParams>().head_dim;
    const int clip = c.s.params<ShawParams>().max_relative_position;
    const OffsetRuns runs =
        bucket_runs(c, {[clip](std::int64_t delta) { return shaw_relative_index(delta, 0, clip); }});
    if (content_is_position_independent(c.s.content)) {
        // No rows x d and cols x d content matrices of one repeated vector (16 calls of 2^16 keys each
        // for a 10^6-distance curve).
        const ShawConstant table = shaw_constant(c.s, t);
        const auto lookup = [&](std::int64_t delta) { return table.by_offset(delta); };
        relative_fill(
            c,
            [&](std::int64_t r, std::int64_t col) {
                return lookup(c.rows[static_cast<std::size_t>(r)] - c.cols[static_cast<std::size_t>(col)]);
            },
            lookup, &runs);
        return;
    }
    const Eigen::MatrixXd q = job_queries(c, d), k = job_keys(c, d);
    // Position-dependent content: no block means (block_means_with_constant_content), every cell. q_i . k_j
    // as one product, q_i . a^K_t for every sampled query and table row t as another; each cell then adds
    // the entry of its clipped relative position, instead of a d-wide dot product per cell.
    content_plus_gathered(c, q, k, 1.0 / std::sqrt(static_cast<double>(d)),
                          {{t.a_key, false, [clip](std::int64_t delta) {
                                // i - j = delta: the relative position j - i = -delta, clipped, + k
                                return shaw_relative_index(delta, 0, clip) + clip;
                            }}});
}

void shaw_indices(MatrixJob& c)
{
    const int k = c.s.params<ShawParams>().max_relative_position;
    c.out.is_integer = true;
    fill_by_offset(
        c, c.out.values,
        [&](std::int64_t delta) { return static_cast<double>(shaw_relative_index(delta, 0, k)); }, true);
    c.out.used_toeplitz = true;
}

// A table of 2k + 1 rows and d columns sets the clip distance and the head dimension.
void adopt_shape(Scenario& s, std::int64_t rows, std::int64_t cols)
{
    if (rows % 2 == 1 && rows >= 3)
        s.params<ShawParams>().max_relative_position =
            static_cast<int>(std::min<std::int64_t>((rows - 1) / 2, 1'000'000));
    s.params<ShawParams>().head_dim = static_cast<int>(std::clamp<std::int64_t>(cols, 1, 4096));
}

// "What am I looking at?" (explanation.h).
ExplanationText shaw_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    const int clip = s.params<ShawParams>().max_relative_position;
    if (k == MatrixKind::Buckets)
        return ExplanationText().add(
            QT_TRANSLATE_NOOP("Explanation",
                              "Each cell is the clipped relative index clip(j − i, −%1, %1): it changes "
                              "near the diagonal and is flat more than %1 positions away from it."),
            {clip});
    return ExplanationText().add(
        QT_TRANSLATE_NOOP(
            "Explanation",
            "The logit is q_i · (k_j + a_(j − i)) / √d with a learned vector a per relative index, "
            "clipped to ±%1: beyond %1 positions from the diagonal every key looks alike."),
        {clip});
}

// The clipped relative index, the paper's k = 16.
std::vector<GalleryFigureSpec> shaw_gallery()
{
    return {{.stem = "shaw-clipped-index",
             .caption = QT_TRANSLATE_NOOP("Gallery", "Shaw et al. 2018: relative index clip(j − i, −%1, %1)"),
             .caption_numbers =
                 [](const GalleryFigureSpec&, const Scenario& s) {
                     return std::vector<std::string>{
                         prose_number(s.params<ShawParams>().max_relative_position)};
                 },
             .scenario =
                 [] {
                     Scenario s = gallery_defaults(Method::Shaw);
                     s.seq_len = 64;
                     s.content.kind = ContentKind::Fixed;
                     return s;
                 },
             .matrix_kind = MatrixKind::Buckets,
             .pixels = 512}};
}

} // namespace

MethodDescriptor describe_shaw()
{
    using P = ShawParams;
    MethodDescriptor d;
    d.method = Method::Shaw;
    d.section = "shaw";
    d.name = QT_TRANSLATE_NOOP("Method", "Relative (Shaw et al. 2018)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "Shaw");
    d.noun = "Shaw relative positions";
    d.reference =
        "Shaw, Uszkoreit, Vaswani 2018, Self-Attention with Relative Position Representations, eq. 4";
    d.fields = {
        head_dim_field(
            &P::head_dim,
            QT_TRANSLATE_NOOP("ParamSpec", "Dimension of queries, keys and the relative embeddings a^K.")),
        make_field(
            "max_relative_position", FieldType::Int, &P::max_relative_position,
            {.lo = 1,
             .hi = 1e6,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Clip distance k"),
             .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec",
                 "Relative distances are clipped to [-k, k]: beyond k every distance looks the same.")}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Table seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the relative embedding tables.")),
        initializer_range_field(&P::stddev),
    };
    const auto shape = [](const Scenario& s) { return shaw_table_shape(s.params<P>()); };
    add_table_fields(
        d.fields,
        table_fields(
            "key_table", &P::key_table, &P::key_table_tensor, QT_TRANSLATE_NOOP("ParamSpec", "a^K table"),
            QT_TRANSLATE_NOOP("ParamSpec",
                              "The relative key embeddings w^K_{-k..k} from a file: (2k + 1) x head_dim, row "
                              "r + k for relative position r; overrides the seeded a^K."),
            shape, adopt_shape));
    add_table_fields(
        d.fields,
        table_fields("value_table", &P::value_table, &P::value_table_tensor,
                     QT_TRANSLATE_NOOP("ParamSpec", "a^V table"),
                     QT_TRANSLATE_NOOP("ParamSpec", "The relative value embeddings w^V_{-k..k} from a file: "
                                                    "(2k + 1) x head_dim; overrides the seeded a^V."),
                     shape, adopt_shape));
    show_seed_while_a_table_is_seeded(d.fields);
    d.check = [](const Scenario& s) { check_method_tables(descriptor(Method::Shaw), s); };
    d.kinds = {
        logits_kind(shaw_logits, block_means_with_constant_content),
        {MatrixKind::Buckets, QT_TRANSLATE_NOOP("MatrixKind", "buckets"),
         QT_TRANSLATE_NOOP("MatrixLabel", "clipped relative index j - i"), shaw_indices, nullptr},
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.distance_logits = [](const Scenario& s, std::int64_t, Precision) -> MethodDescriptor::DistanceLogitsFn {
        return [table = shaw_constant(s, make_shaw_tables(s.params<P>()))](std::int64_t first,
                                                                           std::int64_t last, double* out) {
            for (std::int64_t delta = first; delta < last; ++delta)
                out[delta - first] = table.by_offset(delta);
        };
    };
    d.context_length = [](const Scenario& s) {
        return static_cast<std::int64_t>(s.params<P>().max_relative_position);
    };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"max_relative_position", QT_TRANSLATE_NOOP("Caption", "k %1")}};
    d.explain = shaw_explanation;
    d.gallery = shaw_gallery();
    return d;
}

} // namespace posatlas
