// SPDX-License-Identifier: GPL-3.0-or-later
// Learned absolute position table (BERT, GPT-2: wpe / position_embeddings of max_position_embeddings
// rows), a seeded N(0, initializer_range) stand-in or the user's own table (.csv, .npy).
#include "io/number_text.h"
#include "methods/absolute/absolute_kernels.h"
#include "methods/common_fields.h"
#include "methods/learned/learned.h"
#include "scenario/validation.h"

#include <algorithm>
#include <filesystem>

namespace posatlas {

namespace {

// "What am I looking at?" (explanation.h).
ExplanationText learned_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    if (k == MatrixKind::Encoding)
        return ExplanationText().add(
            QT_TRANSLATE_NOOP(
                "Explanation",
                "Each row is a trained vector looked up by its position (a seeded random stand-in "
                "unless you load a table): nothing smooth is built in, and the %1 trained rows end "
                "abruptly: later positions have no embedding."),
            {s.params<LearnedParams>().trained_length});
    return absolute_logits_explanation(
        s, QT_TRANSLATE_NOOP(
               "Explanation",
               "With zero content only p_i · p_j remains: how alike the two positions' vectors are."));
}

// BERT-base's table, past its 512 rows.
std::vector<GalleryFigureSpec> learned_gallery()
{
    return {{.stem = "learned-table",
             .caption = QT_TRANSLATE_NOOP(
                 "Gallery", "BERT-base learned absolute table (seeded N(0, %1) stand-in for the "
                            "trained one): positions from %2 on have no embedding (hatched), "
                            "never zero"),
             .caption_numbers =
                 [](const GalleryFigureSpec&, const Scenario& s) {
                     const auto& p = s.params<LearnedParams>();
                     return std::vector<std::string>{prose_number(p.stddev),
                                                     prose_number(static_cast<double>(p.trained_length))};
                 },
             .scenario =
                 [] {
                     Scenario s = gallery_preset("bert-base");
                     s.seq_len = 640;
                     return s;
                 },
             .matrix_kind = MatrixKind::Encoding,
             .pixels = 512}};
}

} // namespace

MethodDescriptor describe_learned()
{
    using P = LearnedParams;
    MethodDescriptor d;
    d.method = Method::Learned;
    d.section = "learned";
    d.name = QT_TRANSLATE_NOOP("Method", "Learned absolute (BERT, GPT-2)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "Learned");
    d.noun = "learned absolute positions";
    d.reference = "Devlin et al. 2019 (BERT); Radford et al. 2019 (GPT-2); Hugging Face BertEmbeddings";
    d.fields = {
        make_field("hidden_size", FieldType::Int, &P::dim,
                   {.lo = 1,
                    .hi = 65536,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Hidden size"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Width of the learned position table."),
                    .option_aliases = {"dim"},
                    .aliases = {"dim"}}),
        make_field(
            "max_position_embeddings", FieldType::Int, &P::trained_length,
            {.lo = 1,
             .hi = static_cast<double>(kMaxSeqLen),
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Trained length"),
             .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Rows of the learned table (max_position_embeddings): "
                                                       "positions beyond it have no embedding."),
             .aliases = {"trained_length"}}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Table seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the N(0, σ) stand-in for a trained table.")),
        initializer_range_field(&P::stddev),
        make_field(
            "table_path", FieldType::Text, &P::table_path,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Table file"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec",
                 "A trained position table (.csv or .npy, one row per position, or a .safetensors "
                 "checkpoint or its model.safetensors.index.json); overrides the seed."),
             .option = "table",
             .option_aliases = {"weights"},
             .panel = false,
             // Any float matrix is a table (rows = positions, its width its own): taken as it is.
             .adopt_tensor =
                 [](Scenario& s, const std::string& file, const std::string& tensor) {
                     s.params<P>().table_path = file;
                     s.params<P>().table_tensor = tensor;
                 },
             // A model's checkpoint: the known position tensor (GPT-2's wpe, BERT's, OPT's),
             // found by the reader.
             .adopt_checkpoint = [](Scenario& s,
                                    const std::string& checkpoint) -> std::optional<std::string> {
                 s.params<P>().table_path = checkpoint;
                 s.params<P>().table_tensor.clear();
                 return "position table read from " + std::filesystem::path(checkpoint).filename().string();
             },
             .tensor_key = "table_tensor",
             .use_as = QT_TRANSLATE_NOOP("TableAdoption", "Learned position table (positions × dimensions)"),
             .use_as_button = QT_TRANSLATE_NOOP("TableAdoption", "Use as Learned Table"),
             .use_as_hint = QT_TRANSLATE_NOOP(
                 "TableAdoption",
                 "The learned method will show %1 instead of its seeded stand-in (one undo step).")}),
        make_field("table_tensor", FieldType::Text, &P::table_tensor,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Checkpoint tensor"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "The tensor of a .safetensors table file (e.g. wpe.weight); empty: the "
                                     "position table of a known architecture (GPT-2, BERT, OPT)."),
                    .option = "tensor",
                    .panel = false,
                    .path = false}),
    };
    d.kinds = {
        {MatrixKind::Encoding, QT_TRANSLATE_NOOP("MatrixKind", "encoding"),
         QT_TRANSLATE_NOOP("MatrixLabel", "encoding"), absolute_matrix, always_block_means},
        logits_kind(absolute_matrix, always_block_means),
    };
    d.quantities = {"learned"};
    d.check = [](const Scenario& s) {
        const P& p = s.params<P>();
        if (p.table_path.empty())
            require_matrix_fits("max_position_embeddings", p.trained_length, p.dim);
        // A tensor name only picks a tensor of a checkpoint file; alone it would be silently ignored.
        if (p.table_path.empty() && !p.table_tensor.empty())
            throw ParameterError("table_tensor", "empty unless table_path names a .safetensors checkpoint",
                                 "'" + quote_input(p.table_tensor) + "'");
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().dim; };
    // A user's table sets its own width.
    d.encoding_dim = [](const Scenario& s) {
        const P& p = s.params<P>();
        return p.table_path.empty() ? static_cast<std::int64_t>(p.dim)
                                    : static_cast<std::int64_t>(learned_shape(p).dim);
    };
    d.context_length = [](const Scenario& s) { return s.params<P>().trained_length; };
    d.caption_fields = {{"hidden_size", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"max_position_embeddings", QT_TRANSLATE_NOOP("Caption", "trained %1")}};
    // A user's table: its name, not the stand-in's dimension and length it overrides. A checkpoint's
    // tensor is a trained table: which tensor.
    d.table_caption = [](const Scenario& s) -> std::optional<MethodDescriptor::TableCaption> {
        const P& p = s.params<P>();
        if (p.table_path.empty())
            return std::nullopt;
        using What = MethodDescriptor::TableCaption::What;
        const auto ends_with = [&](std::string_view tail) {
            return p.table_path.size() >= tail.size() &&
                   p.table_path.compare(p.table_path.size() - tail.size(), tail.size(), tail) == 0;
        };
        const What what = !p.table_tensor.empty()                           ? What::TrainedTensor
                          : ends_with(".safetensors") || ends_with(".json") ? What::TrainedTable
                                                                            : What::Table;
        return MethodDescriptor::TableCaption{what, p.table_tensor, p.table_path, true};
    };
    d.explain = learned_explanation;
    d.gallery = learned_gallery();
    // A table shorter than the sequence (GPT-2: 1024 rows) has no embedding past its last row: its logit
    // curve is that row's (the table is loaded for its length, as the kernels read it).
    d.last_query = [](const Scenario& s) {
        return std::min(s.seq_len, learned_shape(s.params<P>()).trained_length) - 1;
    };
    return d;
}

} // namespace posatlas
