// SPDX-License-Identifier: GPL-3.0-or-later
// Axial 2D RoPE's pairs, logits kernel and descriptor (rope2d.h): each sampled query and key is rotated
// pair by pair by its patch's row or column, then one matrix product, as M-RoPE's kernel does.
#include "methods/rope2d/rope2d.h"

#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/patch_grid_fields.h"
#include "methods/rope/rope.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>

namespace posatlas {

std::vector<Rope2dPair> rope2d_pairs(const Rope2dParams& p)
{
    const int d = p.head_dim, quarter = d / 4;
    std::vector<Rope2dPair> pairs(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i) {
        Rope2dPair& out = pairs[static_cast<std::size_t>(i)];
        const bool first = i < quarter;
        const int j = first ? i : i - quarter;
        if (p.variant == Rope2dVariant::Pixtral) {
            // freqs_h = θ[::2] for the rows, then freqs_w = θ[1::2] for the columns; θ_k = base^(-2k/d).
            const int k = first ? 2 * j : 2 * j + 1;
            out = {first ? 0 : 1, std::pow(p.rope_theta, -2.0 * k / d), 0.0};
        } else {
            // rope_freq_j = base^(-2j/freq_dim), freq_dim = d/2: columns (x) first, then rows (y), both + 1.
            out = {first ? 1 : 0, std::pow(p.rope_theta, -4.0 * j / d), 1.0};
        }
    }
    return pairs;
}

void rotate_patches(MatrixJob& c, Eigen::MatrixXd& m, const std::vector<std::int64_t>& pos, int grid_width,
                    RopePairing pairing, const std::function<void(PatchCoordinates, double*)>& angles,
                    double from, double to)
{
    // Unit frequencies: each pair's position is its angle (rope_rotate_row_per_pair multiplies the two).
    RopeFrequencies f;
    f.rotary_dim = static_cast<int>(m.cols());
    f.inv_freq_original.assign(static_cast<std::size_t>(f.rotary_dim / 2), 1.0);
    f.inv_freq = f.inv_freq_original;
    const auto n = static_cast<std::int64_t>(pos.size());
    constexpr std::int64_t kChunk = 1024;
    for (std::int64_t r0 = 0; r0 < n; r0 += kChunk) {
        check_cancel(c.cancel);
        const std::int64_t r1 = std::min(n, r0 + kChunk);
#pragma omp parallel for schedule(static)
        for (std::int64_t r = r0; r < r1; ++r) {
            std::vector<double> angle(static_cast<std::size_t>(f.pairs()));
            angles(patch_coordinates(pos[static_cast<std::size_t>(r)], grid_width), angle.data());
            rope_rotate_row_per_pair(f, m, r, angle.data(), pairing);
        }
        report_progress(c.progress, from + (to - from) * static_cast<double>(r1) / static_cast<double>(n));
    }
}

namespace {

using P = Rope2dParams;

void rope2d_logits(MatrixJob& c)
{
    const P& p = c.s.params<P>();
    const std::vector<Rope2dPair> pairs = rope2d_pairs(p);
    const RopePairing pairing =
        p.variant == Rope2dVariant::Pixtral ? RopePairing::Half : RopePairing::Interleaved;
    const auto angles = [&pairs](PatchCoordinates at, double* out) {
        for (std::size_t i = 0; i < pairs.size(); ++i)
            out[i] = (static_cast<double>(pairs[i].axis == 0 ? at.row : at.col) + pairs[i].offset) *
                     pairs[i].theta;
    };
    Eigen::MatrixXd q = job_queries(c, p.head_dim), k = job_keys(c, p.head_dim);
    rotate_patches(c, q, c.rows, p.grid_width, pairing, angles, 0.0, 0.25);
    rotate_patches(c, k, c.cols, p.grid_width, pairing, angles, 0.25, 0.5);
    check_cancel(c.cancel);
    final_product(c, q, k, 1.0 / std::sqrt(static_cast<double>(p.head_dim)));
    report_progress(c.progress, 1.0);
}

// d/4 pairs per axis: the head dimension is a multiple of 4.
void rope2d_check(const Scenario& s)
{
    const int d = s.params<P>().head_dim;
    if (d % 4 != 0)
        throw ParameterError("head_dim", "a multiple of 4 (a quarter of the dimensions per axis)",
                             std::to_string(d));
}

ExplanationText rope2d_explanation(const Scenario& s, MatrixKind k)
{
    ExplanationText t = k == MatrixKind::Weights ? weights_explanation() : ExplanationText();
    if (k == MatrixKind::Weights)
        return t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Each position is a patch of the image grid, numbered row by row; each cell is "
                            "the logit between two patches."));
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Half of the rotary pairs turn by the patch's row, the other half by its column, "
                            "so the logit depends on the vertical and horizontal offsets between the "
                            "patches, not on the distance between their numbers."));
    t.add(s.params<P>().variant == Rope2dVariant::Pixtral
              ? QT_TRANSLATE_NOOP("Explanation",
                                  "Pixtral gives rows the even frequencies and columns the odd "
                                  "ones, so both axes have fast and slow pairs.")
              : QT_TRANSLATE_NOOP("Explanation", "Llama 4 gives columns and rows the same frequencies, in "
                                                 "two halves of the pairs."));
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "The diagonal bands repeat every grid width: the patches directly above and "
                            "below a query are one width away in the numbering."));
    return t;
}

// Choosing the grid's height or width makes the sequence the whole grid (rows × columns patches).
std::vector<Field> rope2d_fields()
{
    std::vector<Field> fields = {
        make_field("variant", FieldType::Choice, &P::variant,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Layout"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Pixtral: pairs (i, i + d/2), rows on the even frequencies θ₀, θ₂, …, "
                                     "columns on the odd ones. Llama 4: adjacent pairs, columns on the first "
                                     "quarter of the dimensions, rows on the second, the same frequencies."),
                    .choices = {{"pixtral", QT_TRANSLATE_NOOP("ParamSpec", "Pixtral")},
                                {"llama4", QT_TRANSLATE_NOOP("ParamSpec", "Llama 4 vision")}}}),
        make_field("rope_theta", FieldType::Real, &P::rope_theta,
                   {.lo = 1,
                    .hi = 1e12,
                    .lo_open = true,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ (rope_theta)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "rope_theta of the vision encoder (Pixtral and Llama 4: 10000).")}),
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 4,
                    .hi = 8192,
                    .even = true,
                    .log_scale = true,
                    .step = 4,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "head_dim, a multiple of 4: a quarter of the dimensions (half of "
                                     "the pairs) turns with the row, a quarter with the column.")}),
    };
    const std::vector<Field> grid = patch_grid_fields<P>(); // after the layout, as the panel lists them
    fields.insert(fields.begin() + 1, grid.begin(), grid.end());
    return fields;
}

} // namespace

MethodDescriptor describe_rope2d()
{
    MethodDescriptor d;
    d.method = kRope2D;
    d.section = "rope2d";
    d.name = QT_TRANSLATE_NOOP("Method", "2D RoPE (axial, image patches)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "2D RoPE");
    d.noun = "axial 2D rotary position embedding";
    d.reference = "Hugging Face transformers PixtralRotaryEmbedding (Pixtral) and "
                  "Llama4VisionRotaryEmbedding (Llama 4 vision)";
    d.fields = rope2d_fields();
    // A function of the 2D offset, not of i - j: point sampling of exact cells.
    d.kinds = {logits_kind(rope2d_logits, nullptr)};
    d.check = rope2d_check;
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.caption_fields = {{"variant", QT_TRANSLATE_NOOP("Caption", "%1")},
                        {"grid_width", QT_TRANSLATE_NOOP("Caption", "%1 columns")},
                        {"rope_theta", QT_TRANSLATE_NOOP("Caption", "θ %1")},
                        {"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}};
    d.explain = rope2d_explanation;
    d.gallery = {{.stem = "rope2d-patch-grid",
                  .caption = QT_TRANSLATE_NOOP(
                      "Gallery", "2D RoPE (Pixtral, θ %1, d %2) on a %3 × %4 patch grid: the centre patch "
                                 "(row %5, column %6) against every patch; rows and columns turn separate "
                                 "pairs, so the logits form a cross"),
                  .caption_numbers =
                      [](const GalleryFigureSpec& f, const Scenario& s) {
                          const Rope2dParams& p = s.params<Rope2dParams>();
                          std::vector<std::string> numbers{
                              prose_number(p.rope_theta), prose_number(p.head_dim),
                              prose_number(p.grid_height), prose_number(p.grid_width)};
                          for (std::string& n : query_patch_row_column(f, s))
                              numbers.push_back(std::move(n));
                          return numbers;
                      },
                  .view = GalleryView::PatchGrid,
                  .scenario =
                      [] {
                          Scenario s = gallery_defaults(kRope2D);
                          s.seq_len = 16 * 16;
                          return s;
                      },
                  .query_patch = 8 * 16 + 8}};
    return d;
}

} // namespace posatlas
