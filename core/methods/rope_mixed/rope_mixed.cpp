// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE-Mixed's frequencies, logits kernel and descriptor (rope_mixed.h). The rotation of a patch's query or
// key is the 2D RoPE's (rope2d.h rotate_patches) with the angles x · θx + y · θy of the head shown.
#include "methods/rope_mixed/rope_mixed.h"

#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/patch_grid_fields.h"
#include "methods/rope2d/rope2d.h"
#include "methods/table_files.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <cmath>
#include <numbers>

namespace posatlas {
namespace {

using P = RopeMixedParams;

// The stream of the heads' random angles; no stream of scenario/rng.h's list uses it.
constexpr std::uint64_t kAngleStream = 65;

} // namespace

double rope_mixed_seeded_angle(const P& p, int head)
{
    // torch.rand(1) * 2 * torch.pi, from PosAtlas's uniform draw in (0, 1).
    return rng::uniform(p.seed, kAngleStream, static_cast<std::uint64_t>(head)) * 2.0 * std::numbers::pi;
}

Eigen::MatrixXd rope_mixed_seeded_frequencies(const P& p)
{
    const int d = p.head_dim, quarter = d / 4, half = d / 2;
    Eigen::MatrixXd f(2, static_cast<Eigen::Index>(p.num_heads) * half);
    for (int h = 0; h < p.num_heads; ++h) {
        const double a = rope_mixed_seeded_angle(p, h);
        for (int j = 0; j < quarter; ++j) {
            const double mag = 1.0 / std::pow(p.rope_theta, 4.0 * j / d); // arange(0, dim, 4) / dim
            const Eigen::Index first = static_cast<Eigen::Index>(h) * half + j, second = first + quarter;
            f(0, first) = mag * std::cos(a);
            f(1, first) = mag * std::sin(a);
            f(0, second) = mag * std::cos(std::numbers::pi / 2 + a);
            f(1, second) = mag * std::sin(std::numbers::pi / 2 + a);
        }
    }
    return f;
}

Eigen::MatrixXd rope_mixed_frequencies(const Scenario& s)
{
    Eigen::MatrixXd table = method_table(descriptor(kRopeMixed), s, "freqs_table");
    return table.size() ? table : rope_mixed_seeded_frequencies(s.params<P>());
}

namespace {

void rope_mixed_logits(MatrixJob& c)
{
    const P& p = c.s.params<P>();
    const Eigen::MatrixXd f = rope_mixed_frequencies(c.s);
    const Eigen::Index half = p.head_dim / 2, first = static_cast<Eigen::Index>(c.s.head) * half;
    const Eigen::VectorXd fx = f.row(0).segment(first, half).transpose(),
                          fy = f.row(1).segment(first, half).transpose();
    // compute_mixed_cis: t_x · θx + t_y · θy, x the column and y the row.
    const auto angles = [&](PatchCoordinates at, double* out) {
        for (Eigen::Index i = 0; i < half; ++i)
            out[i] = static_cast<double>(at.col) * fx[i] + static_cast<double>(at.row) * fy[i];
    };
    Eigen::MatrixXd q = job_queries(c, p.head_dim), k = job_keys(c, p.head_dim);
    rotate_patches(c, q, c.rows, p.grid_width, RopePairing::Interleaved, angles, 0.0, 0.25);
    rotate_patches(c, k, c.cols, p.grid_width, RopePairing::Interleaved, angles, 0.25, 0.5);
    check_cancel(c.cancel);
    final_product(c, q, k, 1.0 / std::sqrt(static_cast<double>(p.head_dim)));
    report_progress(c.progress, 1.0);
}

void rope_mixed_check(const Scenario& s)
{
    const int d = s.params<P>().head_dim;
    if (d % 4 != 0)
        throw ParameterError("head_dim",
                             "a multiple of 4 (init_random_2d_freqs: d/4 magnitudes, two directions)",
                             std::to_string(d));
    check_method_tables(descriptor(kRopeMixed), s);
}

ExplanationText rope_mixed_explanation(const Scenario&, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Each position is a patch of the image grid, numbered row by row; each cell is "
                            "the logit between two patches for the head shown."));
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Every rotary pair turns by x·θx + y·θy: along its own direction in the image, "
                            "so a head can prefer diagonal neighbours, which axial 2D RoPE cannot."));
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Without a trained table the directions are the paper's random start: one angle "
                            "per head, half of the pairs along it and half at a right angle."));
    return t;
}

TableShape freqs_shape(const Scenario& s)
{
    const P& p = s.params<P>();
    return {2, static_cast<std::int64_t>(p.num_heads) * (p.head_dim / 2), false,
            "2 x (num_heads · head_dim/2): freqs[:, layer, :], θx then θy"};
}

std::vector<Field> rope_mixed_fields()
{
    std::vector<Field> fields = {
        make_field("num_heads", FieldType::Int, &P::num_heads,
                   {.lo = 1,
                    .hi = 64,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Heads"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Heads, each with its own frequencies (the random start: one direction "
                                     "per head).")}),
        make_field("rope_theta", FieldType::Real, &P::rope_theta,
                   {.lo = 1,
                    .hi = 1e12,
                    .lo_open = true,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ (rope_theta)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "The start's magnitudes θ^(-4j/d) (RoPE-Mixed: 10). Unused with a "
                                     "trained table.")}),
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 4,
                    .hi = 8192,
                    .even = true,
                    .log_scale = true,
                    .step = 4,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "head_dim, a multiple of 4: head_dim / 2 rotary pairs.")}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Direction seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the heads' random directions (the start).")),
    };
    add_table_fields(
        fields, table_fields("freqs_table", &P::freqs_table, &P::freqs_table_tensor,
                             QT_TRANSLATE_NOOP("ParamSpec", "Frequency table"),
                             QT_TRANSLATE_NOOP("ParamSpec",
                                               "Trained frequencies of one layer from a file: 2 × (heads · "
                                               "head_dim/2), row 0 θx and row 1 θy, head after head "
                                               "(freqs[:, layer, :] of a RoPE-Mixed checkpoint); overrides "
                                               "the seeded start."),
                             freqs_shape));
    show_seed_while_a_table_is_seeded(fields);
    const std::vector<Field> grid = patch_grid_fields<P>(); // first, as the panel lists them
    fields.insert(fields.begin(), grid.begin(), grid.end());
    return fields;
}

} // namespace

MethodDescriptor describe_rope_mixed()
{
    MethodDescriptor d;
    d.method = kRopeMixed;
    d.section = "rope_mixed";
    d.name = QT_TRANSLATE_NOOP("Method", "RoPE-Mixed (Heo et al. 2024, image patches)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "RoPE-Mixed");
    d.noun = "RoPE-Mixed learned 2D rotations";
    d.reference = "Heo et al. 2024, Rotary Position Embedding for Vision Transformer; naver-ai/rope-vit "
                  "init_random_2d_freqs, compute_mixed_cis, apply_rotary_emb";
    d.fields = rope_mixed_fields();
    // A function of the 2D offset, not of i - j: point sampling of exact cells.
    d.kinds = {logits_kind(rope_mixed_logits, nullptr)};
    d.check = rope_mixed_check;
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.heads = [](const Scenario& s) { return s.params<P>().num_heads; };
    d.caption_fields = {{"grid_width", QT_TRANSLATE_NOOP("Caption", "%1 columns")},
                        {"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}};
    d.table_caption = [](const Scenario& s) -> std::optional<MethodDescriptor::TableCaption> {
        const P& p = s.params<P>();
        if (p.freqs_table.empty())
            return std::nullopt;
        using What = MethodDescriptor::TableCaption::What;
        return MethodDescriptor::TableCaption{p.freqs_table_tensor.empty() ? What::TrainedTable
                                                                           : What::TrainedTensor,
                                              p.freqs_table_tensor, p.freqs_table, false};
    };
    d.explain = rope_mixed_explanation;
    d.gallery = {{.stem = "rope-mixed-patch-grid",
                  .caption = QT_TRANSLATE_NOOP(
                      "Gallery", "RoPE-Mixed (Heo et al. 2024, %1 × %2 patches, d %3, seeded directions, "
                                 "head %4) against the centre patch (row %5, column %6): mixed directions "
                                 "turn on diagonals too, not only along rows and columns"),
                  .caption_numbers =
                      [](const GalleryFigureSpec& f, const Scenario& s) {
                          const RopeMixedParams& p = s.params<RopeMixedParams>();
                          std::vector<std::string> numbers{prose_number(p.grid_height),
                                                           prose_number(p.grid_width),
                                                           prose_number(p.head_dim), prose_number(s.head)};
                          for (std::string& n : query_patch_row_column(f, s))
                              numbers.push_back(std::move(n));
                          return numbers;
                      },
                  .view = GalleryView::PatchGrid,
                  .scenario =
                      [] {
                          Scenario s = gallery_defaults(kRopeMixed);
                          s.seq_len = 14 * 14;
                          return s;
                      },
                  .query_patch = 7 * 14 + 7}};
    return d;
}

} // namespace posatlas
