// SPDX-License-Identifier: GPL-3.0-or-later
// ViT's position table, its similarity and logits kernels and its descriptor (vit.h).
#include "methods/vit/vit.h"

#include "compute/gemm.h"
#include "compute/matrix_job.h"
#include "io/input_file.h"
#include "methods/common_fields.h"
#include "methods/table_files.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <cmath>
#include <limits>

namespace posatlas {
namespace {

using P = VitParams;

// The stand-in's stream; no stream of scenario/rng.h's list, nor Swin's (45), uses it.
constexpr std::uint64_t kPositionStream = 46;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* const kTableShapeText = "1 + H·H rows (a CLS row, then H × H patches row by row) x hidden_size: "
                                    "position_embeddings, e.g. [1, 197, 768] for 14 × 14 patches";

TableShape table_shape(const Scenario&)
{
    // Any rows and columns: the table sets the grid and the width itself (vit_position_table checks
    // that its rows are 1 + H²). Without a tensor name, ViT's or CLIP's known tensor.
    return {-1, -1, false, kTableShapeText, "vit"};
}

Eigen::MatrixXd file_table(const Scenario& s)
{
    return method_table(descriptor(kVit), s, "position_table");
}

} // namespace

std::optional<std::int64_t> vit_grid_side_of_rows(std::int64_t rows)
{
    if (rows < 2)
        return std::nullopt;
    const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(rows - 1))));
    return side * side == rows - 1 ? std::optional<std::int64_t>(side) : std::nullopt;
}

Eigen::MatrixXd vit_seeded_table(const P& p)
{
    const std::int64_t rows = 1 + static_cast<std::int64_t>(p.grid_size) * p.grid_size;
    // Row-major: entry (r, c) is draw r * hidden_size + c, so the first attempts of the whole table are one
    // run of consecutive draws (rng::normals, vectorised; drawn one by one they cost ~30 ms for 64 x 64
    // patches of 768 and were most of a patch-grid update).
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> t(rows, p.hidden_size);
    const std::int64_t count = rows * p.hidden_size;
    constexpr std::int64_t kChunk = std::int64_t{1} << 14;
#pragma omp parallel for schedule(static)
    for (std::int64_t first = 0; first < count; first += kChunk) {
        const std::int64_t n = std::min(kChunk, count - first);
        double* out = t.data() + first;
        rng::normals(p.seed, kPositionStream, static_cast<std::uint64_t>(first), n, out);
        for (std::int64_t k = 0; k < n; ++k) {
            // trunc_normal_(std, a = -2, b = 2): a draw outside [-2, 2] is drawn again (the next attempt
            // of the same entry, 2^40 indices further on).
            double v = out[k] * p.stddev;
            for (std::uint64_t attempt = 1; std::abs(v) > 2.0; ++attempt)
                v = rng::normal(p.seed, kPositionStream,
                                static_cast<std::uint64_t>(first + k) + (attempt << 40)) *
                    p.stddev;
            out[k] = v;
        }
    }
    return t;
}

Eigen::MatrixXd vit_position_table(const Scenario& s)
{
    Eigen::MatrixXd table = file_table(s);
    if (!table.size())
        return vit_seeded_table(s.params<P>());
    if (!vit_grid_side_of_rows(table.rows()))
        throw ParameterError("position_table", kTableShapeText,
                             std::to_string(table.rows()) + " x " + std::to_string(table.cols()) + " from " +
                                 quote_input(s.params<P>().position_table, 200) + ": " +
                                 std::to_string(table.rows() - 1) +
                                 " rows after the CLS row are no H × H grid");
    return table;
}

std::int64_t vit_grid_side(const Scenario& s)
{
    const P& p = s.params<P>();
    if (p.position_table.empty())
        return p.grid_size;
    return *vit_grid_side_of_rows(vit_position_table(s).rows());
}

Eigen::MatrixXd vit_unit_patch_rows(const Eigen::MatrixXd& table)
{
    Eigen::MatrixXd unit = table.bottomRows(table.rows() - 1);
    for (Eigen::Index r = 0; r < unit.rows(); ++r) {
        const double norm = unit.row(r).norm();
        if (norm > 0.0)
            unit.row(r) /= norm;
    }
    return unit;
}

double vit_patch_similarity(const Eigen::MatrixXd& table, std::int64_t i, std::int64_t j)
{
    const std::int64_t patches = table.rows() - 1;
    if (i < 0 || j < 0 || i >= patches || j >= patches)
        return kNaN;
    const auto a = table.row(i + 1), b = table.row(j + 1);
    const double na = a.norm(), nb = b.norm();
    return na > 0.0 && nb > 0.0 ? a.dot(b) / (na * nb) : kNaN;
}

namespace {

// Rows of `rows` (patches, CLS left out) at the given positions, zero where a position has no patch, and
// which positions have one.
Eigen::MatrixXd patch_rows(const Eigen::MatrixXd& rows, const std::vector<std::int64_t>& positions,
                           std::vector<bool>& ok)
{
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(positions.size()), rows.cols());
    ok.assign(positions.size(), false);
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const std::int64_t p = positions[k];
        if (p < 0 || p >= rows.rows())
            continue;
        out.row(static_cast<Eigen::Index>(k)) = rows.row(p);
        ok[k] = true;
    }
    return out;
}

void set_patch_labels(MatrixJob& c)
{
    c.out.row_label = QT_TRANSLATE_NOOP("MatrixLabel", "query patch i");
    c.out.col_label = QT_TRANSLATE_NOOP("MatrixLabel", "key patch j");
}

// cos(E_pos[i + 1], E_pos[j + 1]): one product of the unit rows; NaN past the last patch or at a zero row.
void vit_similarity(MatrixJob& c)
{
    set_patch_labels(c);
    const Eigen::MatrixXd unit = vit_unit_patch_rows(vit_position_table(c.s));
    std::vector<bool> row_ok, col_ok;
    const Eigen::MatrixXd a = patch_rows(unit, c.rows, row_ok), b = patch_rows(unit, c.cols, col_ok);
    check_cancel(c.cancel);
    gemm_nt(a, b, 1.0, Precision::Double, c.out.values);
    // A row is valid once: a patch of the grid with a nonzero vector.
    const auto valid = [](const Eigen::MatrixXd& m, const std::vector<bool>& ok) {
        std::vector<bool> v(ok.size());
        for (std::size_t r = 0; r < ok.size(); ++r)
            v[r] = ok[r] && m.row(static_cast<Eigen::Index>(r)).squaredNorm() > 0.0;
        return v;
    };
    const std::vector<bool> row_valid = valid(a, row_ok), col_valid = valid(b, col_ok);
    for (Eigen::Index r = 0; r < a.rows(); ++r)
        for (Eigen::Index col = 0; col < b.rows(); ++col)
            if (!row_valid[static_cast<std::size_t>(r)] || !col_valid[static_cast<std::size_t>(col)])
                c.out.values(r, col) = kNaN;
    report_progress(c.progress, 1.0);
}

// (q_i + p_i) · (k_j + p_j) / √D, p_i = E_pos[i + 1] (HF ViTEmbeddings: the sum before the encoder).
void vit_logits(MatrixJob& c)
{
    set_patch_labels(c);
    const Eigen::MatrixXd table = vit_position_table(c.s);
    const Eigen::MatrixXd patches = table.bottomRows(table.rows() - 1);
    const int d = static_cast<int>(table.cols());
    std::vector<bool> row_ok, col_ok;
    const Eigen::MatrixXd q = job_queries(c, d) + patch_rows(patches, c.rows, row_ok);
    const Eigen::MatrixXd k = job_keys(c, d) + patch_rows(patches, c.cols, col_ok);
    check_cancel(c.cancel);
    gemm_nt(q, k, 1.0 / std::sqrt(static_cast<double>(d)), c.precision, c.out.values);
    for (std::size_t r = 0; r < row_ok.size(); ++r)
        for (std::size_t col = 0; col < col_ok.size(); ++col)
            if (!row_ok[r] || !col_ok[col])
                c.out.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(col)) = kNaN;
    report_progress(c.progress, 1.0);
}

void vit_check(const Scenario& s)
{
    const P& p = s.params<P>();
    if (p.position_table.empty()) {
        require_matrix_fits("grid_size", 1 + static_cast<std::int64_t>(p.grid_size) * p.grid_size,
                            p.hidden_size);
        check_method_tables(descriptor(kVit), s); // a tensor name without a file is refused by name
        return;
    }
    vit_position_table(s);
}

ExplanationText vit_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Each position is an image patch of a %1 × %1 grid, numbered row by row; the CLS "
                            "token's row of the table (row 0) has no place on the grid and is left out."),
          {vit_grid_side(s)});
    if (k == MatrixKind::Logits) {
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "The logit is (q_i + p_i) · (k_j + p_j) / √D: the patch's learned position "
                                "vector is added to its content before the product."));
        if (explained_zero_content(s))
            t.add(QT_TRANSLATE_NOOP("Explanation",
                                    "With zero content only p_i · p_j / √D remains: how alike the two "
                                    "patches' position vectors are, scaled by their lengths."));
    } else {
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "Each cell is the cosine similarity of the two patches' position vectors, as "
                                "in the ViT paper's Fig. 7: 1 on the diagonal; a trained table is most alike "
                                "for patches near each other and in the same row or column. The Patch grid "
                                "dock shows one query patch's row on the image."));
    }
    if (s.params<P>().position_table.empty())
        t.add(QT_TRANSLATE_NOOP("Explanation", "Without a trained table the positions are the seeded random "
                                               "start (σ 0.02), alike for no pair of patches: load a trained "
                                               "table to see what a model learned."));
    return t;
}

// A (1 + H²) x D table fixes the grid, the width and the sequence (its H² patches).
void adopt_table_shape(Scenario& s, std::int64_t rows, std::int64_t cols)
{
    P& p = s.params<P>();
    if (const auto side = vit_grid_side_of_rows(rows); side && *side <= 256) {
        p.grid_size = static_cast<int>(*side);
        s.seq_len = *side * *side;
    }
    if (cols >= 1 && cols <= 16384)
        p.hidden_size = static_cast<int>(cols);
}

std::vector<Field> vit_fields()
{
    const auto seeded = [](const Scenario& s) { return s.params<P>().position_table.empty(); };
    std::vector<Field> fields = {
        make_field("grid_size", FieldType::Int, &P::grid_size,
                   {.lo = 1,
                    .hi = 256,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Grid side"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "patches"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Patches along each side of the image (image_size / patch_size; "
                                     "ViT-B/16 at 224 pixels: 14). Choosing it sets the sequence to its "
                                     "side × side patches; a table file sets it from its 1 + side² rows."),
                    .shown = seeded,
                    .companion = [](Scenario& s) -> std::string {
                        const std::int64_t side = s.params<P>().grid_size;
                        if (s.seq_len == side * side)
                            return "";
                        s.seq_len = side * side;
                        return "seq_len";
                    }}),
        make_field(
            "hidden_size", FieldType::Int, &P::hidden_size,
            {.lo = 1,
             .hi = 16384,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Hidden size"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Width D of the position vectors (ViT-B: 768); a "
                                                       "table file sets it from its columns."),
             .shown = seeded}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Table seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the truncated N(0, σ) stand-in for a trained "
                                                  "table (ViT's trunc_normal_).")),
        initializer_range_field(&P::stddev),
    };
    add_table_fields(
        fields, table_fields("position_table", &P::position_table, &P::position_table_tensor,
                             QT_TRANSLATE_NOOP("ParamSpec", "Position table"),
                             QT_TRANSLATE_NOOP("ParamSpec",
                                               "A trained position_embeddings table from a file: 1 + side² "
                                               "rows (the CLS token's, then the patches row by row) × D; "
                                               "overrides the seeded start and sets the grid and the width."),
                             table_shape, adopt_table_shape));
    show_seed_while_a_table_is_seeded(fields);
    return fields;
}

} // namespace

MethodDescriptor describe_vit()
{
    MethodDescriptor d;
    d.method = kVit;
    d.section = "vit";
    d.name = QT_TRANSLATE_NOOP("Method", "ViT learned patch positions (Dosovitskiy et al. 2021)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "ViT patches");
    d.noun = "ViT learned patch positions";
    d.reference =
        "Dosovitskiy et al. 2021, An Image is Worth 16x16 Words (Fig. 7); Hugging Face transformers "
        "ViTEmbeddings (position_embeddings), CLIPVisionEmbeddings (position_embedding)";
    d.fields = vit_fields();
    d.kinds = {
        {kVitSimilarity, QT_TRANSLATE_NOOP("MatrixKind", "position similarity"),
         QT_TRANSLATE_NOOP("MatrixLabel", "cosine similarity"), vit_similarity, nullptr},
        logits_kind(vit_logits, nullptr),
    };
    d.check = vit_check;
    d.content_dim = [](const Scenario& s) {
        const P& p = s.params<P>();
        return p.position_table.empty() ? p.hidden_size : static_cast<int>(vit_position_table(s).cols());
    };
    d.context_length = [](const Scenario& s) { return vit_grid_side(s) * vit_grid_side(s); };
    // The logit curve of the last patch (a sequence longer than the grid has no position past it).
    d.last_query = [](const Scenario& s) {
        const std::int64_t side = vit_grid_side(s);
        return std::min(s.seq_len, side * side) - 1;
    };
    d.caption_fields = {{"grid_size", QT_TRANSLATE_NOOP("Caption", "%1 × %1 patches")},
                        {"hidden_size", QT_TRANSLATE_NOOP("Caption", "d %1")}};
    d.table_caption = [](const Scenario& s) -> std::optional<MethodDescriptor::TableCaption> {
        const P& p = s.params<P>();
        if (p.position_table.empty())
            return std::nullopt;
        using What = MethodDescriptor::TableCaption::What;
        return MethodDescriptor::TableCaption{p.position_table_tensor.empty() ? What::TrainedTable
                                                                              : What::TrainedTensor,
                                              p.position_table_tensor, p.position_table, true};
    };
    d.explain = vit_explanation;
    return d;
}

} // namespace posatlas
