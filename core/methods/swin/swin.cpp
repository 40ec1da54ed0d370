// SPDX-License-Identifier: GPL-3.0-or-later
// Swin's relative position bias table, its bias and logits kernels and its descriptor (swin.h).
#include "methods/swin/swin.h"

#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/table_files.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <cmath>
#include <limits>

namespace posatlas {
namespace {

using P = SwinParams;

// The stand-in's stream; no stream of scenario/rng.h's list uses it.
constexpr std::uint64_t kBiasStream = 45;

} // namespace

Eigen::MatrixXd swin_seeded_table(const P& p)
{
    const std::int64_t side = 2 * static_cast<std::int64_t>(p.window_size) - 1, rows = side * side;
    Eigen::MatrixXd t(rows, p.num_heads);
    for (std::int64_t r = 0; r < rows; ++r)
        for (int h = 0; h < p.num_heads; ++h) {
            // trunc_normal_(std, a = -2, b = 2): a draw outside [-2, 2] is drawn again (the next attempt
            // of the same entry, 2^40 indices further on).
            const auto index = static_cast<std::uint64_t>(r * p.num_heads + h);
            double v = 0.0;
            for (std::uint64_t attempt = 0;; ++attempt) {
                v = rng::normal(p.seed, kBiasStream, index + (attempt << 40)) * p.stddev;
                if (std::abs(v) <= 2.0)
                    break;
            }
            t(r, h) = v;
        }
    return t;
}

Eigen::MatrixXd swin_bias_table(const Scenario& s)
{
    Eigen::MatrixXd table = method_table(descriptor(kSwin), s, "bias_table");
    return table.size() ? table : swin_seeded_table(s.params<P>());
}

namespace {

// Bias alone, or the logit q·k/√d plus the bias; NaN between patches of different windows.
void swin_matrix(MatrixJob& c, bool logits)
{
    const P& p = c.s.params<P>();
    const Eigen::MatrixXd table = swin_bias_table(c.s);
    const Eigen::MatrixXd content = logits ? content_term(c, p.head_dim) : Eigen::MatrixXd();
    const std::int64_t m = p.window_size, area = m * m;
    const int head = c.s.head;
    fill_each_cell(c, [&](std::int64_t r, std::int64_t col) {
        const std::int64_t i = c.rows[static_cast<std::size_t>(r)], j = c.cols[static_cast<std::size_t>(col)];
        if (i / area != j / area)
            return std::numeric_limits<double>::quiet_NaN(); // another window: not attended
        const std::int64_t li = i % area, lj = j % area;
        const double bias = table(swin_relative_index(li / m, li % m, lj / m, lj % m, m), head);
        return logits ? content(r, col) + bias : bias;
    });
}

void swin_check(const Scenario& s)
{
    check_method_tables(descriptor(kSwin), s);
}

ExplanationText swin_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Each position is a patch; every M × M patches form a window, numbered row by "
                            "row, and a patch attends only to the patches of its own window (the empty cells "
                            "are other windows)."));
    t.add(k == MatrixKind::Bias
              ? QT_TRANSLATE_NOOP("Explanation", "Each cell is the learned bias of the two patches' vertical "
                                                 "and horizontal offset: one number per offset and head, the "
                                                 "same in every window.")
              : QT_TRANSLATE_NOOP("Explanation", "Each cell is q_i · k_j / √d plus the learned bias of the "
                                                 "two patches' vertical and horizontal offset."));
    if (s.params<P>().bias_table.empty())
        t.add(QT_TRANSLATE_NOOP("Explanation", "Without a trained table the bias is the seeded random start "
                                               "(σ 0.02), small beside the content term: load a trained "
                                               "table to see what a model learned."));
    return t;
}

TableShape bias_shape(const Scenario& s)
{
    const P& p = s.params<P>();
    const std::int64_t side = 2 * static_cast<std::int64_t>(p.window_size) - 1;
    return {side * side, p.num_heads, false,
            "(2 window_size - 1)² x num_heads: relative_position_bias_table"};
}

// A (2M - 1)² x H table fixes the window and the heads.
void adopt_bias_shape(Scenario& s, std::int64_t rows, std::int64_t cols)
{
    P& p = s.params<P>();
    const auto side = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(rows))));
    if (side * side == rows && side % 2 == 1 && side <= 2 * 64 - 1)
        p.window_size = static_cast<int>((side + 1) / 2);
    if (cols >= 1 && cols <= 64)
        p.num_heads = static_cast<int>(cols);
}

std::vector<Field> swin_fields()
{
    std::vector<Field> fields = {
        make_field("window_size", FieldType::Int, &P::window_size,
                   {.lo = 1,
                    .hi = 64,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Window"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "patches"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "window_size M: attention inside M × M patches (Swin-T: 7). Choosing it "
                                     "sets the sequence to one window, M² patches."),
                    .companion = [](Scenario& s) -> std::string {
                        const std::int64_t m = s.params<P>().window_size;
                        if (s.seq_len == m * m)
                            return "";
                        s.seq_len = m * m;
                        return "seq_len";
                    }}),
        make_field("num_heads", FieldType::Int, &P::num_heads,
                   {.lo = 1,
                    .hi = 64,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Heads"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "Heads: one column of the bias table each (Swin-T's first "
                                                 "stage: 3).")}),
        head_dim_field(&P::head_dim,
                       QT_TRANSLATE_NOOP("ParamSpec", "Dimension of queries and keys of the content term "
                                                      "q_i·k_j/√d (Swin-T: 32).")),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Bias seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the stand-in bias table.")),
        initializer_range_field(&P::stddev),
    };
    add_table_fields(
        fields, table_fields("bias_table", &P::bias_table, &P::bias_table_tensor,
                             QT_TRANSLATE_NOOP("ParamSpec", "Bias table"),
                             QT_TRANSLATE_NOOP("ParamSpec",
                                               "A trained relative_position_bias_table from a file: (2M − "
                                               "1)² × heads; overrides the seeded start (File > Open "
                                               "Weights… takes the window and the heads from its shape)."),
                             bias_shape, adopt_bias_shape));
    show_seed_while_a_table_is_seeded(fields);
    return fields;
}

} // namespace

MethodDescriptor describe_swin()
{
    MethodDescriptor d;
    d.method = kSwin;
    d.section = "swin";
    d.name = QT_TRANSLATE_NOOP("Method", "Swin relative position bias (Liu et al. 2021)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "Swin bias");
    d.noun = "Swin relative position bias";
    d.reference = "Liu et al. 2021, Swin Transformer; Hugging Face transformers SwinSelfAttention "
                  "(relative_position_index, relative_position_bias_table)";
    d.fields = swin_fields();
    d.kinds = {
        {MatrixKind::Bias, QT_TRANSLATE_NOOP("MatrixKind", "bias"), QT_TRANSLATE_NOOP("MatrixLabel", "bias"),
         [](MatrixJob& c) { swin_matrix(c, false); }, nullptr},
        logits_kind([](MatrixJob& c) { swin_matrix(c, true); }, nullptr),
    };
    d.check = swin_check;
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.heads = [](const Scenario& s) { return s.params<P>().num_heads; };
    d.caption_fields = {{"window_size", QT_TRANSLATE_NOOP("Caption", "window %1")}};
    d.table_caption = [](const Scenario& s) -> std::optional<MethodDescriptor::TableCaption> {
        const P& p = s.params<P>();
        if (p.bias_table.empty())
            return std::nullopt;
        using What = MethodDescriptor::TableCaption::What;
        return MethodDescriptor::TableCaption{p.bias_table_tensor.empty() ? What::TrainedTable
                                                                          : What::TrainedTensor,
                                              p.bias_table_tensor, p.bias_table, false};
    };
    d.explain = swin_explanation;
    d.gallery = {{.stem = "swin-patch-grid",
                  .caption = QT_TRANSLATE_NOOP(
                      "Gallery", "Swin's relative position bias (swin-tiny, %1 × %1 window, seeded table, "
                                 "std %2, head %3) of the centre patch (row %4, column %5) against the "
                                 "window's patches: one learned value per 2D offset"),
                  .caption_numbers =
                      [](const GalleryFigureSpec& f, const Scenario& s) {
                          const SwinParams& p = s.params<SwinParams>();
                          std::vector<std::string> numbers{prose_number(p.window_size),
                                                           prose_number(p.stddev), prose_number(s.head)};
                          for (std::string& n : query_patch_row_column(f, s))
                              numbers.push_back(std::move(n));
                          return numbers;
                      },
                  .view = GalleryView::PatchGrid,
                  .scenario =
                      [] {
                          Scenario s = gallery_defaults(kSwin);
                          s.seq_len = 7 * 7;
                          return s;
                      },
                  .matrix_kind = MatrixKind::Bias,
                  .query_patch = 3 * 7 + 3}};
    return d;
}

} // namespace posatlas
