// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi (Press et al. 2022; ofirpress/attention_with_linear_biases get_slopes): a per-head linear
// penalty -m_h (i - j) on the logit; length scaling by interpolation or NTK-ALiBi (alibi.h).
#include "compute/block_means.h"
#include "compute/matrix_job.h"
#include "io/number_text.h"
#include "methods/alibi/alibi.h"
#include "methods/alibi/alibi_curves.h"
#include "methods/common_fields.h"
#include "scenario/content_file.h"
#include "scenario/validation.h"

namespace posatlas {
namespace {

void alibi_matrix(MatrixJob& c)
{
    const AlibiParams& p = c.s.params<AlibiParams>();
    const double slope = alibi_scaled_slopes(p)[static_cast<std::size_t>(c.s.head)];
    // i - j = delta; a masked (future) cell still gets its formula value here, the kernel masks it.
    // Linear on each side of delta = 0 (-m delta; symmetric: -m |delta|): block means add the two runs in
    // closed form instead of every offset.
    OffsetRuns runs;
    runs.changes = {0};
    runs.slope = [&](std::int64_t start) {
        return start < 0 && p.bias != AlibiBias::Causal ? slope : -slope;
    };
    additive_bias_matrix(
        c, [&](std::int64_t delta) { return alibi_bias(slope, delta, 0, p.bias); },
        p.bias == AlibiBias::Causal, content_width(c.s.content, 64), c.block_means() ? &runs : nullptr);
}

// "What am I looking at?" (explanation.h). The reference slopes are Press et al. 2022's get_slopes.
ExplanationText alibi_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    ExplanationText t;
    if (k == MatrixKind::Logits) {
        t.add(QT_TRANSLATE_NOOP("Explanation", "The logit is q_i · k_j / √d plus the bias −m·(i − j)."));
        t.add(explained_constant_content(s)
                  ? QT_TRANSLATE_NOOP("Explanation",
                                      "With constant content the first term is the same everywhere, "
                                      "so only the bias's straight ramp shows.")
                  : QT_TRANSLATE_NOOP("Explanation",
                                      "The content adds its own pattern on top of the bias's ramp."));
        return t;
    }
    const AlibiParams& p = s.params<AlibiParams>();
    t.add(p.bias == AlibiBias::Causal
              ? QT_TRANSLATE_NOOP("Explanation",
                                  "The bias is −m·(i − j): 0 on the diagonal and falling in a straight "
                                  "line with the distance to the key; keys after the query are masked.")
              : QT_TRANSLATE_NOOP("Explanation",
                                  "The bias is −m·|i − j|: 0 on the diagonal and falling in a straight "
                                  "line with the distance on both sides."));
    t.add(QT_TRANSLATE_NOOP(
              "Explanation",
              "Each head has its own fixed slope m; for %1 heads (a power of two) the reference slopes "
              "are m = 2^(−8h/%1), h = 1 … %1: the first head is the steepest and looks only nearby, "
              "the last one sees far back."),
          {p.num_heads});
    if (p.scaling != AlibiScaling::None || p.slope_scale != 1.0)
        t.add(QT_TRANSLATE_NOOP("Explanation",
                                "The slopes are rescaled here (slope scale or ALiBi scaling), so the "
                                "ramps are flatter or steeper than the reference's."));
    return t;
}

ExplanationText alibi_curves_explanation(const Scenario&)
{
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "One line per head: exp(−m·r), the factor by which the bias multiplies a key's softmax "
        "weight at distance r. Steep heads forget within a few tokens; the flattest head still sees "
        "far back."));
}

// Eight heads' biases and the weight factor they give (Press et al. 2022).
std::vector<GalleryFigureSpec> alibi_gallery()
{
    const auto eight_heads = [] {
        Scenario s = gallery_defaults(Method::ALiBi);
        s.params<AlibiParams>().num_heads = 8;
        s.seq_len = 64;
        return s;
    };
    return {
        {.stem = "alibi-bias-per-head",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "ALiBi bias −m(i − j) for %1 heads, slopes 1/%2 … 1/%3 (Press et al. 2022)"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const std::vector<double> m = alibi_scaled_slopes(s.params<AlibiParams>());
                 return std::vector<std::string>{prose_number(static_cast<double>(m.size())),
                                                 prose_number(1.0 / m.front()), prose_number(1.0 / m.back())};
             },
         .scenario = eight_heads,
         .matrix_kind = MatrixKind::Bias,
         .pixels = 900},
        {.stem = "alibi-decay",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "ALiBi's exp(−m r) per head: the attention weight factor at distance r"),
         .view = GalleryView::Curves,
         .scenario = eight_heads,
         .max_distance = 256,
         .log_x = false},
    };
}

} // namespace

MethodDescriptor describe_alibi()
{
    using P = AlibiParams;
    MethodDescriptor d;
    d.method = Method::ALiBi;
    d.section = "alibi";
    d.name = QT_TRANSLATE_NOOP("Method", "ALiBi (Press et al. 2022)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "ALiBi");
    d.noun = "ALiBi";
    d.reference = "Press, Smith, Lewis 2022, Train Short, Test Long; ofirpress/attention_with_linear_biases";
    const auto lengths = [](const Scenario& s) { return s.params<P>().scaling != AlibiScaling::None; };
    Field heads =
        make_field("num_heads", FieldType::Int, &P::num_heads,
                   {.lo = 1,
                    .hi = 1024,
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Heads"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Number of heads: slopes form the geometric sequence 2^(-8h/n).")});
    // A new head count keeps the per-head slopes consistent with it: an element that held the paper's
    // slope for the old count (a placeholder before a chosen one, see Field::list_defaults) takes the
    // paper's slope for the new count, a chosen slope stays as it is, the slopes of heads that are gone
    // are dropped (the panel's sliders never meet a list longer than the heads), and the list is
    // trimmed to its shortest form again. Readers set num_heads before slopes (registry order), so a
    // session or command line that lists more slopes than heads is still refused by check below.
    heads.set = [set = heads.set](Scenario& s, const nlohmann::json& v) {
        P& p = s.params<P>();
        const int old_heads = p.num_heads;
        set(s, v);
        const auto valid = [](int n) { return n >= 1 && n <= 1024; };
        if (p.slopes.empty() || !valid(p.num_heads))
            return;
        if (p.slopes.size() > static_cast<std::size_t>(p.num_heads))
            p.slopes.resize(static_cast<std::size_t>(p.num_heads));
        const std::vector<double> now = alibi_slopes(p.num_heads);
        if (valid(old_heads)) {
            const std::vector<double> before = alibi_slopes(old_heads);
            for (std::size_t h = 0; h < p.slopes.size() && h < before.size(); ++h)
                if (p.slopes[h] == before[h])
                    p.slopes[h] = now[h];
        }
        while (!p.slopes.empty() && p.slopes.back() == now[p.slopes.size() - 1])
            p.slopes.pop_back();
    };
    d.fields = {
        std::move(heads),
        make_field("slope_scale", FieldType::Real, &P::slope_scale,
                   {.lo = 1e-3,
                    .hi = 1e3,
                    .log_scale = true,
                    .decimals = 3,
                    .step = 0.1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Slope scale"),
                    .unit = "×",
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec",
                        "Multiplies every slope (1 = the paper). Larger slopes make attention more local.")}),
        make_field("bias", FieldType::Choice, &P::bias,
                   {.label = QT_TRANSLATE_NOOP("ParamSpec", "Bias"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec",
                        "Causal: -m(i - j) for keys before the query. Symmetric: -m|i - j| for encoders."),
                    .choices = {{"causal", QT_TRANSLATE_NOOP("ParamSpec", "Causal")},
                                {"symmetric", QT_TRANSLATE_NOOP("ParamSpec", "Symmetric")}},
                    .option = "alibi-bias"}),
        make_field(
            "scaling", FieldType::Choice, &P::scaling,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Length scaling"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "How slopes change to reach a longer context: "
                                                       "interpolate (m·L_train/L_target) or NTK-ALiBi."),
             .choices = {{"none", QT_TRANSLATE_NOOP("ParamSpec", "None")},
                         {"interpolate", QT_TRANSLATE_NOOP("ParamSpec", "Interpolate")},
                         {"ntk", QT_TRANSLATE_NOOP("ParamSpec", "NTK-ALiBi")}},
             .option = "alibi-scaling"}),
        make_field("trained_length", FieldType::Int, &P::trained_length,
                   {.lo = 1,
                    .hi = static_cast<double>(kMaxSeqLen),
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Trained length"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Context the slopes were trained for (used by the scaling modes)."),
                    .shown = lengths}),
        make_field("target_length", FieldType::Int, &P::target_length,
                   {.lo = 1,
                    .hi = static_cast<double>(kMaxSeqLen),
                    .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Target length"),
                    .unit = QT_TRANSLATE_NOOP("ParamSpec", "positions"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Context to reach (used by the scaling modes, >= trained length)."),
                    .shown = lengths}),
        make_field(
            "slopes", FieldType::RealList, &P::slopes,
            {.lo = 1e-6,
             .hi = 16,
             .log_scale = true,
             .decimals = 6,
             .step = 0.01,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Head slopes"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec",
                 "Each head's slope m (before the length scaling and the slope scale). A larger slope makes "
                 "the head look less far back. Unset heads keep the paper's 2^(-8h/n)."),
             .list_defaults = [](const Scenario& s) { return alibi_slopes(s.params<P>().num_heads); },
             .displayed_values = alibi_displayed_slopes}),
    };
    d.kinds = {
        {MatrixKind::Bias, QT_TRANSLATE_NOOP("MatrixKind", "bias"), QT_TRANSLATE_NOOP("MatrixLabel", "bias"),
         alibi_matrix, always_block_means, /*one_signed=*/true}, // <= 0
        logits_kind(alibi_matrix, always_block_means),
    };
    d.quantities = {"alibi-slopes"};
    d.check = [](const Scenario& s) {
        const P& p = s.params<P>();
        if (p.slopes.size() > static_cast<std::size_t>(p.num_heads))
            throw ParameterError(
                "slopes", "at most num_heads = " + std::to_string(p.num_heads) + " values, one per head",
                std::to_string(p.slopes.size()) + " values");
        if (p.scaling != AlibiScaling::None)
            require_int("target_length", p.target_length, p.trained_length, kMaxSeqLen);
    };
    d.content_dim = [](const Scenario& s) { return content_width(s.content, 64); }; // a file sets its own d
    d.heads = [](const Scenario& s) { return s.params<P>().num_heads; };
    d.context_length = [](const Scenario& s) {
        return std::max(s.params<P>().trained_length, s.params<P>().target_length);
    };
    d.caption_fields = {{"num_heads", QT_TRANSLATE_NOOP("Caption", "%1 heads")},
                        {"slope_scale", QT_TRANSLATE_NOOP("Caption", "slopes × %1")},
                        {"scaling", QT_TRANSLATE_NOOP("Caption", "%1")},
                        {"slopes", QT_TRANSLATE_NOOP("Caption", "slopes %1")}};
    d.head_symbol = "m";
    d.head_values = [](const Scenario& s) { return alibi_scaled_slopes(s.params<P>()); };
    d.explain = alibi_explanation;
    d.explain_curves = alibi_curves_explanation;
    d.gallery = alibi_gallery();
    d.curve_families = {alibi_decay_family()};
    return d;
}

} // namespace posatlas
