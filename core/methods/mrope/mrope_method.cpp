// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE's descriptor and logits kernel (mrope.h): each sampled query and key is rotated pair by pair by
// its token's (t, h, w) ids, then one matrix product, as the RoPE method's kernel does for one id.
#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/common_fields.h"
#include "methods/mrope/mrope.h"
#include "methods/rope/rope.h"
#include "scenario/validation.h"

#include <cmath>

namespace posatlas {
namespace {

using P = MropeParams;

void mrope_logits(MatrixJob& c)
{
    const P& p = c.s.params<P>();
    const RopeFrequencies f = mrope_frequencies(p);
    const MropePositions positions(p);
    const std::vector<int> axes = mrope_pair_axes(p);
    Eigen::MatrixXd q = job_queries(c, p.head_dim), k = job_keys(c, p.head_dim);
    const auto rotate_rows = [&](Eigen::MatrixXd& m, const std::vector<std::int64_t>& pos, double from,
                                 double to) {
        const auto n = static_cast<std::int64_t>(pos.size());
        constexpr std::int64_t kChunk = 1024;
        for (std::int64_t r0 = 0; r0 < n; r0 += kChunk) {
            check_cancel(c.cancel);
            const std::int64_t r1 = std::min(n, r0 + kChunk);
#pragma omp parallel for schedule(static)
            for (std::int64_t r = r0; r < r1; ++r) {
                const MropePosition at = positions.at(pos[static_cast<std::size_t>(r)]);
                std::vector<double> ids(axes.size());
                for (std::size_t i = 0; i < axes.size(); ++i)
                    ids[i] = static_cast<double>(at.id(axes[i]));
                rope_rotate_row_per_pair(f, m, r, ids.data(), RopePairing::Half);
            }
            report_progress(c.progress,
                            from + (to - from) * static_cast<double>(r1) / static_cast<double>(n));
        }
    };
    rotate_rows(q, c.rows, 0.0, 0.25);
    rotate_rows(k, c.cols, 0.25, 0.5);
    check_cancel(c.cancel);
    final_product(c, q, k, 1.0 / std::sqrt(static_cast<double>(p.head_dim)));
    report_progress(c.progress, 1.0);
}

bool chunked(MropeVariant v)
{
    return v != MropeVariant::Qwen3VL;
}

// The layout parses, and mrope_section is empty (the variant's split) or three whole numbers, which the
// chunked variants need to fill head_dim / 2 (the reference splits cos and sin by the doubled list).
void mrope_check(const Scenario& s)
{
    const P& p = s.params<P>();
    parse_mrope_layout(p);
    const auto& sec = p.mrope_section;
    if (sec.empty())
        return; // the variant's own split (mrope_sections)
    const bool whole = std::all_of(sec.begin(), sec.end(), [](double v) { return v == std::floor(v); });
    if (sec.size() != 3 || !whole)
        throw ParameterError("mrope_section", "three whole numbers [t, h, w] of rotary pairs, or empty",
                             std::to_string(sec.size()) + (whole ? " numbers" : " numbers, not all whole"));
    const double sum = sec[0] + sec[1] + sec[2];
    if (chunked(p.variant) && sum != p.head_dim / 2)
        throw ParameterError("mrope_section",
                             "three numbers summing to head_dim / 2 = " + std::to_string(p.head_dim / 2) +
                                 " (chunked sections, " + std::string(mrope_variant_id(p.variant)) + ")",
                             "a sum of " + format_number(sum));
}

bool is_variant(const Scenario& s, MropeVariant v)
{
    return s.params<P>().variant == v;
}

ExplanationText mrope_explanation(const Scenario& s, MatrixKind k)
{
    ExplanationText t = k == MatrixKind::Weights ? weights_explanation() : ExplanationText();
    if (k == MatrixKind::Weights)
        return t;
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "M-RoPE gives every token three ids (time, row, column) and rotates each pair of "
                            "dimensions by one of them: text tokens have three equal ids, image patches "
                            "their place in the grid."));
    t.add(is_variant(s, MropeVariant::Qwen3VL)
              ? QT_TRANSLATE_NOOP("Explanation",
                                  "Qwen3-VL interleaves the axes over the pairs (t, h, w, t, h, "
                                  "w, …), so every axis has fast and slow pairs.")
              : QT_TRANSLATE_NOOP("Explanation", "Qwen2-VL gives the first pairs (the fastest) to time, the "
                                                 "next to rows and the slowest to columns."));
    t.add(QT_TRANSLATE_NOOP("Explanation",
                            "Inside an image the pattern follows the 2D distance between patches; text after "
                            "an image starts after the image's largest id, not after its token count."));
    return t;
}

std::vector<Field> mrope_fields()
{
    return {
        make_field(
            "token_layout", FieldType::Text, &P::layout,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Token layout"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "The sequence as items text:N, image:T×H×W, video:T×H×W (grid_thw in patches "
                              "before the spatial merge; a video may end in @seconds), e.g. "
                              "text:5,image:1x4x6,text:3. Tokens after it are text."),
             .path = false,
             // The layout's tokens are the sequence: choosing a layout sets the length to them.
             .companion = [](Scenario& s) -> std::string {
                 const MropePositions positions(s.params<P>());
                 if (s.seq_len == positions.layout_tokens())
                     return "";
                 s.seq_len = positions.layout_tokens();
                 return "seq_len";
             }}),
        make_field(
            "variant", FieldType::Choice, &P::variant,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Variant"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "Qwen2-VL: chunked sections, frame index as time. Qwen2.5-VL: chunked, "
                              "time ids in seconds × tokens_per_second. Qwen3-VL: interleaved "
                              "sections, each video frame its own grid."),
             .choices = {{"qwen2-vl", QT_TRANSLATE_NOOP("ParamSpec", "Qwen2-VL (chunked)")},
                         {"qwen2.5-vl", QT_TRANSLATE_NOOP("ParamSpec", "Qwen2.5-VL (chunked, time-aligned)")},
                         {"qwen3-vl", QT_TRANSLATE_NOOP("ParamSpec", "Qwen3-VL (interleaved)")}}}),
        make_field("mrope_section", FieldType::RealList, &P::mrope_section,
                   {.lo = 0,
                    .hi = 4096,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Sections (t, h, w)"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "mrope_section: rotary pairs given to time, rows and columns "
                                     "(Qwen2-VL 16,24,24; Qwen3-VL 24,20,20). Empty: the variant's split for "
                                     "this head dimension."),
                    .panel = false,
                    // The sections in effect, the variant's own split when the list is empty.
                    .displayed_values =
                        [](const Scenario& s) {
                            const std::vector<int> v = mrope_sections(s.params<P>());
                            return DisplayedValues{{v.begin(), v.end()}, {}};
                        },
                    .read_only_summary = true}),
        make_field("spatial_merge_size", FieldType::Int, &P::spatial_merge_size,
                   {.lo = 1,
                    .hi = 64,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Spatial merge"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "patches"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "vision_config.spatial_merge_size: m × m patches become one token, so "
                                     "an H × W grid has (H/m)·(W/m) tokens.")}),
        make_field("tokens_per_second", FieldType::Int, &P::tokens_per_second,
                   {.lo = 0,
                    .hi = 1000,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Tokens per second"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Qwen2.5-VL vision_config.tokens_per_second: time ids per second of "
                                     "video."),
                    .shown = [](const Scenario& s) { return is_variant(s, MropeVariant::Qwen25VL); }}),
        make_field("second_per_grid_t", FieldType::Real, &P::second_per_grid_t,
                   {.lo = 0,
                    .hi = 1e4,
                    .decimals = 2,
                    .step = 0.5,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Seconds per frame grid"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "s"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Qwen2.5-VL second_per_grid_ts of a video (temporal_patch_size / fps); "
                                     "transformers truncates it to a whole number before the product."),
                    .shown = [](const Scenario& s) { return is_variant(s, MropeVariant::Qwen25VL); }}),
        make_field(
            "rope_theta", FieldType::Real, &P::rope_theta,
            {.lo = 1,
             .hi = 1e12,
             .lo_open = true,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Base θ (rope_theta)"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "rope_theta: pair i turns by θ_i = base^(-2i/d) per id (Qwen2-VL 10⁶).")}),
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 2,
                    .hi = 8192,
                    .even = true,
                    .log_scale = true,
                    .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "head_dim: head_dim / 2 rotary pairs, shared out by mrope_section.")}),
    };
}

// Qwen2-VL-7B's sections and θ on text, a 16 × 16-patch image (64 tokens) and text.
Scenario mrope_gallery_scenario()
{
    Scenario s = gallery_defaults(kMRoPE);
    s.params<P>().layout = "text:16,image:1x16x16,text:16";
    s.seq_len = 96;
    return s;
}

// The token layout's figures: text, a small image and text, few enough tokens to read every id.
Scenario mrope_layout_gallery_scenario(MropeVariant variant)
{
    Scenario s = gallery_defaults(kMRoPE);
    s.params<P>().layout = "text:5,image:1x4x6,text:3";
    s.params<P>().variant = variant;
    if (variant == MropeVariant::Qwen3VL)
        s.params<P>().rope_theta = 5e6;
    s.seq_len = 16;
    return s;
}

// The caption numbers of an item of the layout: a text's tokens; an image's (or video's) patch grid and
// merged grid, h, w, h / merge, w / merge.
std::vector<std::string> mrope_item_numbers(const P& p, const MropeItem& item)
{
    if (item.kind == MropeTokenKind::Text)
        return {prose_number(static_cast<double>(item.count))};
    std::vector<std::string> out;
    for (const std::int64_t n :
         {item.h, item.w, item.h / p.spatial_merge_size, item.w / p.spatial_merge_size})
        out.push_back(prose_number(static_cast<double>(n)));
    return out;
}

// The sections "16/24/24", θ and d of a caption's "(sections %1, θ %2, d %3)".
std::vector<std::string> mrope_head_numbers(const P& p)
{
    std::string sections;
    for (const int n : mrope_sections(p))
        sections += (sections.empty() ? "" : "/") + prose_number(n);
    return {sections, prose_number(p.rope_theta), prose_number(p.head_dim)};
}

// The head's numbers, then every item's of the layout, in order.
std::vector<std::string> mrope_caption_numbers(const Scenario& s)
{
    const P& p = s.params<P>();
    std::vector<std::string> out = mrope_head_numbers(p);
    for (const MropeItem& item : parse_mrope_layout(p))
        for (std::string& n : mrope_item_numbers(p, item))
            out.push_back(std::move(n));
    return out;
}

} // namespace

MethodDescriptor describe_mrope()
{
    MethodDescriptor d;
    d.method = kMRoPE;
    d.section = "mrope";
    d.name = QT_TRANSLATE_NOOP("Method", "M-RoPE (Wang et al. 2024, multimodal)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "M-RoPE");
    d.noun = "multimodal rotary position embedding";
    d.reference =
        "Wang et al. 2024, Qwen2-VL (M-RoPE); Hugging Face transformers Qwen2VLModel.get_rope_index, "
        "apply_multimodal_rotary_pos_emb, Qwen2.5-VL and Qwen3-VL (apply_interleaved_mrope)";
    d.fields = mrope_fields();
    // Positions jump at every image: no closed-form block means, point sampling of exact cells.
    d.kinds = {logits_kind(mrope_logits, nullptr)};
    d.quantities = {"mrope-positions"};
    // The curves view's row at any N from weighted sinusoid sums over the keys' ids (mrope_curve.cpp).
    d.distance_logits = mrope_distance_logits;
    d.check = mrope_check;
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.caption_fields = {{"variant", QT_TRANSLATE_NOOP("Caption", "%1")},
                        {"rope_theta", QT_TRANSLATE_NOOP("Caption", "θ %1")},
                        {"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}};
    d.explain = mrope_explanation;
    d.gallery = {
        {.stem = "mrope-logits",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "M-RoPE logits (Qwen2-VL sections %1, θ %2, d %3) for %4 text tokens, a "
                        "%5 × %6-patch image merged to %7 × %8 tokens and %9 text tokens: rows and columns "
                        "turn only the slow pairs, so the image block is nearly flat"),
         .caption_numbers = [](const GalleryFigureSpec&,
                               const Scenario& s) { return mrope_caption_numbers(s); },
         .scenario = mrope_gallery_scenario,
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512},
        {.stem = "mrope-interleaved-logits",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Qwen3-VL's interleaved M-RoPE (sections %1, θ %2, d %3) on the same "
                        "layout: rows and columns get fast pairs too, and the image block shows the "
                        "patches' 2D distances"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 return mrope_head_numbers(s.params<P>()); // the layout is the figure before's
             },
         .scenario =
             [] {
                 Scenario s = mrope_gallery_scenario();
                 s.params<P>().variant = MropeVariant::Qwen3VL;
                 s.params<P>().rope_theta = 5e6;
                 return s;
             },
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512},
        {.stem = "mrope-token-layout",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Qwen2-VL's position ids (t, h, w) of each token for text, an image of %1 × %2 "
                        "patches merged to %3 × %4 tokens and text: the image's tokens share t and count "
                        "rows and columns, the text after it resumes past the largest id; the head's %5 "
                        "pairs in three chunks t, h, w"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 // The image's grid and merged grid, then the head's pairs.
                 const P& p = s.params<P>();
                 std::vector<std::string> numbers;
                 for (const MropeItem& item : parse_mrope_layout(p))
                     if (item.kind != MropeTokenKind::Text && numbers.empty())
                         numbers = mrope_item_numbers(p, item);
                 numbers.push_back(prose_number(p.head_dim / 2));
                 return numbers;
             },
         .view = GalleryView::TokenLayout,
         .scenario = [] { return mrope_layout_gallery_scenario(MropeVariant::Qwen2VL); }},
        {.stem = "mrope-interleaved-token-layout",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Qwen3-VL on the same tokens: the same ids, but the head's pairs interleave "
                        "the axes t h w t h w …, so rows and columns turn fast pairs too"),
         .view = GalleryView::TokenLayout,
         .scenario = [] { return mrope_layout_gallery_scenario(MropeVariant::Qwen3VL); }}};
    return d;
}

} // namespace posatlas
