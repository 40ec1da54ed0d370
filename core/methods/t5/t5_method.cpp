// SPDX-License-Identifier: GPL-3.0-or-later
// T5 relative position buckets (Raffel et al. 2020; Hugging Face T5Attention._relative_position_bucket):
// a learned scalar per bucket and head added to the logit.
#include "compute/block_means.h"
#include "compute/matrix_job.h"
#include "io/input_file.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/t5/t5_buckets.h"
#include "methods/t5/t5_curves.h"
#include "scenario/content_file.h"
#include "scenario/validation.h"

#include <algorithm>
#include <filesystem>

namespace posatlas {
namespace {

void t5_bias_matrix(MatrixJob& c)
{
    const T5Params& p = c.s.params<T5Params>();
    const Eigen::MatrixXd table = t5_bias_table(p);
    const T5Bucketer bucket(p); // validated once, not per offset
    // T5 itself does not scale q.k by 1/sqrt(d); the content term uses the same 64-dimensional head and
    // 1/sqrt(d) as the other methods so that panels compare. The Bias kind is T5's bias alone, exactly.
    // delta = i - j: T5's relative_position is key - query = -delta (t5_bias).
    // The bias is constant between bucket changes (at most num_buckets runs), found once by bisection:
    // block means add each run in closed form, not each of the 2N - 1 offsets, and a point sample reads
    // a cell's bias from its run (a binary search) instead of evaluating the bucket's logarithms.
    const bool means = c.block_means();
    const std::int64_t lo = means ? c.rb.front() - c.cb.back() + 1 : c.rows.front() - c.cols.back();
    const std::int64_t hi = means ? c.rb.back() - 1 - c.cb.front() : c.rows.back() - c.cols.front();
    OffsetRuns changes;
    changes.changes =
        monotone_change_points([&](std::int64_t delta) { return std::int64_t{bucket(-delta)}; }, lo, hi);
    // run_bias[k]: the bias on [changes[k - 1], changes[k]) (run 0 starts at lo).
    std::vector<double> run_bias(changes.changes.size() + 1);
    run_bias[0] = table(bucket(-lo), c.s.head);
    for (std::size_t k = 0; k < changes.changes.size(); ++k)
        run_bias[k + 1] = table(bucket(-changes.changes[k]), c.s.head);
    const auto by_offset = [&](std::int64_t delta) {
        const auto k =
            std::upper_bound(changes.changes.begin(), changes.changes.end(), delta) - changes.changes.begin();
        return run_bias[static_cast<std::size_t>(k)];
    };
    additive_bias_matrix(c, by_offset, !p.bidirectional, content_width(c.s.content, 64),
                         means ? &changes : nullptr);
}

void t5_buckets(MatrixJob& c)
{
    const T5Bucketer bucket(c.s.params<T5Params>()); // validated once, not per offset
    c.out.is_integer = true;
    c.out.is_signed = false;
    // delta = i - j: T5's relative_position is j - i.
    fill_by_offset(
        c, c.out.values, [&](std::int64_t delta) { return static_cast<double>(bucket(-delta)); }, true);
    c.out.used_toeplitz = true;
}

// The stand-in's seed and spread have no row in the panel while a trained table replaces the stand-in.
Field seeded_only(Field f)
{
    f.shown = [](const Scenario& s) { return s.params<T5Params>().bias_path.empty(); };
    return f;
}

// "What am I looking at?" (explanation.h). Buckets as in transformers T5Attention._relative_position_bucket:
// bidirectional halves the buckets per direction; the first half of each direction's buckets are exact
// distances.
ExplanationText t5_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    const T5Params& p = s.params<T5Params>();
    const int n = p.bidirectional ? p.num_buckets / 2 : p.num_buckets;
    const char* buckets = QT_TRANSLATE_NOOP(
        "Explanation", "Near the diagonal each distance below %1 has its own bucket; further "
                       "out distances share logarithmically wider buckets, and from %2 on all "
                       "share the last one.");
    const std::vector<ExplanationArg> bucket_args{n / 2, p.max_distance};
    ExplanationText t;
    if (k == MatrixKind::Buckets) {
        t.add(QT_TRANSLATE_NOOP(
            "Explanation",
            "Each cell is the bucket index of the relative position j − i: 0 on the diagonal."));
        t.add(buckets, bucket_args);
        if (p.bidirectional)
            t.add(QT_TRANSLATE_NOOP("Explanation",
                                    "Keys after the query use the upper half of the buckets (from %1)."),
                  {n});
        return t;
    }
    if (k == MatrixKind::Logits)
        t.add(QT_TRANSLATE_NOOP(
            "Explanation",
            "The logit is the content term q_i · k_j / √d plus the bucket bias (T5 itself does "
            "not divide by √d; here it does, so that the methods compare)."));
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Each cell is the learned bias of the bucket of j − i, one table row per "
                            "head (a seeded stand-in table here): constant along each diagonal."));
    t.add(buckets, bucket_args);
    return t;
}

ExplanationText t5_curves_explanation(const Scenario& s)
{
    return ExplanationText().add(
        QT_TRANSLATE_NOOP(
            "Explanation",
            "The y axis is the bucket index of a key r positions after (and before) the query: a "
            "staircase with one step per distance near 0, then logarithmically wider steps, flat from "
            "max distance %1 on."),
        {s.params<T5Params>().max_distance});
}

// T5-base's bias per head and its bucket mapping.
Scenario t5_base()
{
    Scenario s = gallery_preset("t5-base");
    s.seq_len = 256;
    return s;
}

// The bucket layout a T5 caption quotes: buckets, then the maximum distance.
std::vector<std::string> t5_bucket_numbers(const GalleryFigureSpec&, const Scenario& s)
{
    const T5Params& p = s.params<T5Params>();
    return {prose_number(p.num_buckets), prose_number(p.max_distance)};
}

std::vector<GalleryFigureSpec> t5_gallery()
{
    return {
        {.stem = "t5-bias-per-head",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery",
             "T5-base relative attention bias per head (seeded table, %1 buckets, max distance %2)"),
         .caption_numbers = t5_bucket_numbers,
         .scenario = t5_base,
         .matrix_kind = MatrixKind::Bias,
         .pixels = 900},
        {.stem = "t5-buckets",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "T5 bucket of relative position (key − query), %1 buckets, max distance "
                        "%2, as in Hugging Face T5Attention._relative_position_bucket"),
         .caption_numbers = t5_bucket_numbers,
         .view = GalleryView::Curves,
         .scenario = t5_base},
    };
}

} // namespace

namespace {

using P = T5Params;

// The bucket layout, the heads, the stand-in table's seed and spread, and a trained table.
std::vector<Field> t5_fields()
{
    return {
        make_field("relative_attention_num_buckets", FieldType::Int, &P::num_buckets,
                   {.lo = 2,
                    .hi = 4096,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Buckets"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "relative_attention_num_buckets: half exact small distances, half "
                                     "log-spaced up to the max distance (even when bidirectional)."),
                    .option = "num-buckets",
                    .option_aliases = {"relative-attention-num-buckets"},
                    .aliases = {"num_buckets"}}),
        make_field("relative_attention_max_distance", FieldType::Int, &P::max_distance,
                   {.lo = 2,
                    .hi = 1e9,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Max distance"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec",
                        "relative_attention_max_distance: every distance beyond it shares the last bucket."),
                    .option = "max-distance",
                    .option_aliases = {"relative-attention-max-distance"},
                    .aliases = {"max_distance"}}),
        make_field(
            "bidirectional", FieldType::Bool, &P::bidirectional,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Bidirectional (encoder)"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec",
                 "Encoder: separate buckets for keys before and after the query. Decoder: causal, one side."),
             .negations = {"causal"}}),
        make_field(
            "num_heads", FieldType::Int, &P::num_heads,
            {.lo = 1,
             .hi = 1024,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Heads"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "Heads of the per-head bias table (one learned scalar per bucket and head).")}),
        seeded_only(seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Bias seed"),
                               QT_TRANSLATE_NOOP("ParamSpec", "Seed of the stand-in bias table."))),
        seeded_only(initializer_range_field(&P::stddev)),
        make_field(
            "bias_weights", FieldType::Text, &P::bias_path,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Trained bias table"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "A trained relative_attention_bias (buckets x heads): a .safetensors "
                              "checkpoint or its model.safetensors.index.json, or a .csv / .npy "
                              "table; overrides the seed and sets the bucket and head counts."),
             .option = "weights",
             .option_aliases = {"bias-table"},
             .panel = false,
             // A trained table brings its bucket count, head count and (a checkpoint's tensor) its
             // direction.
             .adopt_tensor =
                 [](Scenario& s, const std::string& file, const std::string& tensor) {
                     t5_use_trained_bias(s.params<P>(), file, tensor);
                 },
             .adopt_checkpoint = [](Scenario& s,
                                    const std::string& checkpoint) -> std::optional<std::string> {
                 if (!t5_use_checkpoint_bias(s.params<P>(), checkpoint))
                     return std::nullopt; // the seeded stand-in stays
                 return "T5 bias table " + s.params<P>().bias_tensor + " read from " +
                        std::filesystem::path(checkpoint).filename().string();
             },
             .tensor_key = "bias_tensor",
             .use_as = QT_TRANSLATE_NOOP("TableAdoption", "T5 bias table (buckets × heads)"),
             .use_as_button = QT_TRANSLATE_NOOP("TableAdoption", "Use as T5 Bias Table"),
             .use_as_hint = QT_TRANSLATE_NOOP(
                 "TableAdoption", "The T5 method will show %1 instead of its seeded stand-in; its bucket "
                                  "and head counts follow the table (one undo step).")}),
        make_field("bias_tensor", FieldType::Text, &P::bias_tensor,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Checkpoint tensor"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "The tensor of a .safetensors checkpoint; empty: the encoder's layer-0 "
                                     "relative_attention_bias, else the decoder's."),
                    .option = "tensor",
                    .panel = false,
                    .path = false}),
    };
}

// HF T5Attention._relative_position_bucket halves num_buckets when bidirectional and needs
// max_exact = num_buckets / 2 >= 1 and max_distance > max_exact for its log branch.
void t5_check(const Scenario& s)
{
    const P& p = s.params<P>();
    if (p.bidirectional)
        require_even_int("relative_attention_num_buckets", p.num_buckets, 4, 4096);
    const int half = p.bidirectional ? p.num_buckets / 2 : p.num_buckets;
    require_int("relative_attention_max_distance", p.max_distance, half / 2 + 1, 1'000'000'000);
    if (p.bias_path.empty()) {
        // A tensor name only picks a tensor of a checkpoint; alone it would be silently ignored.
        if (!p.bias_tensor.empty())
            throw ParameterError("bias_tensor", "empty unless bias_weights names a .safetensors checkpoint",
                                 "'" + quote_input(p.bias_tensor) + "'");
        return;
    }
    // A trained table fixes the bucket and head counts it was trained with, and a checkpoint's tensor
    // whether its buckets are bidirectional (encoder) or causal (decoder): anything else would index
    // it with buckets it never learned.
    T5TrainedBias t;
    try {
        t = t5_trained_bias(p.bias_path, p.bias_tensor);
    } catch (const InputFileError& e) {
        throw ParameterError(
            "bias_weights",
            "a T5 bias table: a .safetensors checkpoint with a relative_attention_bias, or a "
            ".csv / .npy of buckets x heads",
            e.what());
    }
    const std::string what = t.tensor.empty() ? std::string("the trained table") : "the trained " + t.tensor;
    if (t.table.rows() != p.num_buckets)
        throw ParameterError("relative_attention_num_buckets",
                             std::to_string(t.table.rows()) + ", the rows of " + what,
                             std::to_string(p.num_buckets));
    if (t.table.cols() != p.num_heads)
        throw ParameterError("num_heads", std::to_string(t.table.cols()) + ", the columns of " + what,
                             std::to_string(p.num_heads));
    if (!t.tensor.empty() && p.bidirectional == t.decoder)
        throw ParameterError("bidirectional",
                             t.decoder
                                 ? "off: " + what + " is the decoder's, trained on causal buckets"
                                 : "on: " + what + " is the encoder's, trained on bidirectional buckets",
                             p.bidirectional ? "on" : "off");
}

// A trained bias table: which stack's (the full tensor name would not fit a title) and the file.
std::optional<MethodDescriptor::TableCaption> t5_table_caption(const Scenario& s)
{
    const P& p = s.params<P>();
    if (p.bias_path.empty())
        return std::nullopt;
    using What = MethodDescriptor::TableCaption::What;
    const std::string& t = p.bias_tensor;
    const auto names = [&](const std::string& stack) {
        return t.starts_with(stack + ".") || t.find("." + stack + ".") != std::string::npos;
    };
    const What what = t.empty()          ? What::TrainedTable
                      : names("decoder") ? What::DecoderBias
                      : names("encoder") ? What::EncoderBias
                                         : What::TrainedTensor;
    return MethodDescriptor::TableCaption{what, t, p.bias_path, false};
}

} // namespace

MethodDescriptor describe_t5()
{
    MethodDescriptor d;
    d.method = Method::T5;
    d.section = "t5";
    d.name = QT_TRANSLATE_NOOP("Method", "T5 relative buckets");
    d.short_name = QT_TRANSLATE_NOOP("Method", "T5");
    d.noun = "T5 relative position buckets";
    d.reference = "Raffel et al. 2020 (T5); Hugging Face T5Attention._relative_position_bucket";
    d.fields = t5_fields();
    d.kinds = {
        {MatrixKind::Bias, QT_TRANSLATE_NOOP("MatrixKind", "bias"), QT_TRANSLATE_NOOP("MatrixLabel", "bias"),
         t5_bias_matrix, always_block_means},
        logits_kind(t5_bias_matrix, always_block_means),
        {MatrixKind::Buckets, QT_TRANSLATE_NOOP("MatrixKind", "buckets"),
         QT_TRANSLATE_NOOP("MatrixLabel", "bucket"), t5_buckets, nullptr,
         /*one_signed=*/true}, // an index from 0
    };
    d.quantities = {"t5-buckets"};
    d.check = t5_check;
    d.content_dim = [](const Scenario& s) { return content_width(s.content, 64); }; // a file sets its own d
    d.heads = [](const Scenario& s) { return s.params<P>().num_heads; };
    d.context_length = [](const Scenario& s) {
        return static_cast<std::int64_t>(s.params<P>().max_distance);
    };
    d.caption_fields = {{"relative_attention_num_buckets", QT_TRANSLATE_NOOP("Caption", "%1 buckets")},
                        {"relative_attention_max_distance", QT_TRANSLATE_NOOP("Caption", "max %1")},
                        {"bidirectional", QT_TRANSLATE_NOOP("Caption", "bidirectional")}};
    d.table_caption = t5_table_caption;
    d.explain = t5_explanation;
    d.explain_curves = t5_curves_explanation;
    d.gallery = t5_gallery();
    d.curve_families = {t5_trained_bias_family(), t5_bucket_family()};
    return d;
}

} // namespace posatlas
