// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_figures.h"

#include "views/figure_style.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace posatlas::ui {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The free functions below translate in this context; lupdate reads ExplorerFigures::tr("...") literally.
struct ExplorerFigures {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::ExplorerFigures)
};

std::vector<double> pair_axis(std::size_t n)
{
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = static_cast<double>(i);
    return x;
}

QString len(std::int64_t n)
{
    return format_number(static_cast<double>(n));
}

// Wavelengths in band labels: "6.28", "1956", "256k", "2.56M" (tokens).
QString tokens(double v)
{
    if (v < 100.0)
        return format_number(v, 3);
    if (v < 1e5)
        return QString::number(std::llround(v));
    if (v < 1e6)
        return QStringLiteral("%1k").arg(format_number(v / 1e3, 3));
    return QStringLiteral("%1M").arg(format_number(v / 1e6, 3));
}

// Trained and target context as vertical lines (distance / length axes).
void context_lines(PlotSpec& s, std::int64_t trained, std::int64_t target, bool vertical, bool dark)
{
    const QColor c = figure_colors(dark).muted;
    s.lines << PlotLine{static_cast<double>(trained), vertical, c,
                        ExplorerFigures::tr("trained L = %1").arg(len(trained)), true};
    if (target != trained)
        s.lines << PlotLine{static_cast<double>(target), vertical, c,
                            ExplorerFigures::tr("target %1").arg(len(target)), true};
}

QString errors_note(const ExplorerTables& t)
{
    QStringList e;
    for (const VariantResult& r : t.variants)
        if (!r.error.isEmpty())
            e << ExplorerFigures::tr("%1: %2").arg(r.variant.label, r.error);
    return e.join(QStringLiteral(" · "));
}

} // namespace

QString explorer_view_name(ExplorerView view)
{
    switch (view) {
    case ExplorerView::PerPair: return ExplorerFigures::tr("Per-pair scaling");
    case ExplorerView::Wavelength: return ExplorerFigures::tr("Wavelength vs context");
    case ExplorerView::Coverage: return ExplorerFigures::tr("Angle coverage");
    case ExplorerView::Dynamic: return ExplorerFigures::tr("Dynamic NTK");
    case ExplorerView::Temperature: return ExplorerFigures::tr("Temperature & entropy");
    case ExplorerView::Scores: return ExplorerFigures::tr("Relative scores");
    case ExplorerView::Table: return ExplorerFigures::tr("Table");
    }
    return {};
}

QString explorer_explanation(ExplorerView view)
{
    const QString source = ExplorerFigures::tr(
        "Every number comes from PosAtlas' core, which follows Hugging Face transformers "
        "<tt>modeling_rope_utils.py</tt> (<tt>_compute_*_parameters</tt>) for the same configuration.");
    switch (view) {
    case ExplorerView::PerPair:
        return ExplorerFigures::tr(
                   "<b>θ′ᵢ/θᵢ per rotary pair.</b> 1 means the pair is <i>kept</i> (extrapolated as "
                   "trained); "
                   "1/s means it is <i>interpolated</i> (PI divides every pair by s); anything between is "
                   "<i>blended</i> (YaRN's and Llama 3's ramps, NTK's larger base). The shaded regimes "
                   "belong "
                   "to the variant chosen above the plot; the strips below show every variant's regimes. "
                   "Boundaries are labelled <i>last/first pair</i> with their original wavelengths. ") +
               source;
    case ExplorerView::Wavelength:
        return ExplorerFigures::tr(
                   "<b>Wavelength λᵢ = 2π/θ′ᵢ against the context.</b> Pairs whose wavelength is below the "
                   "trained "
                   "context L have turned many times in training; pairs above it never completed a turn. "
                   "YaRN states its thresholds on r = L/λ (right axis): pairs with r &gt; β_fast are kept, "
                   "pairs "
                   "with r &lt; β_slow are interpolated. Llama 3 keeps λ &lt; L/high_freq_factor and "
                   "interpolates "
                   "λ &gt; L/low_freq_factor. <b>HF vs llama.cpp YaRN:</b> llama.cpp always floors/ceils the "
                   "correction range (HF only with <tt>truncate</tt>), divides the ramp by max(0.001, high − "
                   "low) instead of adding 0.001 only when low = high, ignores mscale/mscale_all_dim in the "
                   "kernel (DeepSeek's mscale lives in its graph) and computes in float32; for ordinary "
                   "configs the frequencies agree and the 'YaRN (llama.cpp)' curve lies on top of YaRN. ") +
               source;
    case ExplorerView::Coverage:
        return ExplorerFigures::tr(
                   "<b>Rotation angles seen in training vs used at the target length.</b> Grey: the range "
                   "[0, L·θᵢ] pair i covered in training. Lines: the largest angle (T − 1)·θ′ᵢ at the target "
                   "length T. A pair whose training angle stayed below 2π has only seen part of the circle; "
                   "if the target reaches beyond L·θᵢ it meets <b>never-seen rotations</b> (red points and "
                   "strip cells). Interpolating methods pull those pairs back inside the trained range. "
                   "Relative "
                   "to pre-training at L: long-context fine-tuning (e.g. Llama 3.1's at 128k) is not "
                   "modelled. ") +
               source;
    case ExplorerView::Dynamic:
        return ExplorerFigures::tr(
                   "<b>Dynamic NTK</b> (HF <tt>_compute_dynamic_ntk_parameters</tt>) recomputes the base for "
                   "the current sequence length N: base′ = base · (s·N/M − (s − 1))^(d/(d−2)), with M = "
                   "max_position_embeddings (HF uses M, not the original length): the model's own value, as "
                   "<tt>posatlas compute rope-frequencies --rope-type dynamic</tt> reads it (core "
                   "<tt>dynamic_ntk_params</tt>). Up to M it equals unscaled "
                   "RoPE, so a model whose M is already the extended length (DeepSeek-V3: 163840) is "
                   "unchanged "
                   "up to M; set a Dynamic variant's M to the trained length to extend from there. Drag the "
                   "slider to watch the base and the frequencies move; LongRoPE switches from "
                   "its short to its long factors once N exceeds the original length. Other methods do not "
                   "depend on N. ") +
               source;
    case ExplorerView::Temperature:
        return ExplorerFigures::tr(
                   "<b>Attention temperature.</b> YaRN multiplies q and k by √(1/t) = 0.1 ln s + 1 (logits "
                   "by "
                   "1/t); DeepSeek uses the ratio get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) on cos "
                   "and "
                   "sin, and its attention multiplies the softmax scale by get_mscale(s, mscale_all_dim)², "
                   "so its "
                   "logits get get_mscale(s, mscale)² in all (1.874 for DeepSeek-V3 at s = 40); LongRoPE "
                   "uses √(1 + ln s / ln L). llama.cpp applies attn_factor·(1 + 0.1 ln s) in its kernel. The "
                   "figure plots what the logits are multiplied by (the square of the factor on q and k). "
                   "<b>Entropy</b> (core <tt>attention_entropy</tt>): the entropy, in nats, of the last "
                   "query's softmax attention over all N keys, exact at each plotted length (every key, no "
                   "sampling), averaged over seeded trials; solid with the variant's temperature, dashed "
                   "without. <i>Repeated token</i> (the default): q = k = v at every position, so each logit "
                   "is (Σᵢ ρᵢ cos(r θ′ᵢ) + pass-through)/√d with ρᵢ the energy of pair i in v, a function of "
                   "the distance r alone. The softmax then sees nothing but positions, and the curves show "
                   "how each frequency set spreads attention: PI stretches every pair and spreads attention "
                   "already over short contexts; NTK-aware and Llama 3 keep the fast pairs, stay close to "
                   "unscaled RoPE there and part ways at long range. It is the extreme case of queries and "
                   "keys sharing a component. <i>Random q, k</i>: R(j)k is again random, so the curve does "
                   "not depend on the frequencies at all, only on N, d and the logit multiplier; methods "
                   "then differ only through their temperature. Uniform attention gives ln N. ") +
               ExplorerFigures::tr("<b>Length-dependent scale</b> (the combo above the plots): Qwen's log-n "
                                   "(<tt>use_logn_attn</tt>) multiplies the query at position p by log_L(p + "
                                   "1) once p + 1 > L, "
                                   "which at p + 1 = sL equals LongRoPE's 1 + ln s / ln L; Llama 4 "
                                   "multiplies the query on its "
                                   "NoPE layers by ln(⌊(p + 1)/floor_scale⌋ + 1)·attn_scale + 1. Both grow "
                                   "with the position, "
                                   "not with a scaling factor. In the entropy plot the thin curves with dots "
                                   "apply them on top "
                                   "of each temperature (Llama 4's on a NoPE layer). ") +
               source;
    case ExplorerView::Scores:
        return ExplorerFigures::tr(
                   "<b>Effect on relative scores.</b> Top: RoFormer's long-term-decay bound (Su et al. 2021, "
                   "§3.4.3) of each variant's frequencies. Bottom: the positional score for all-ones queries "
                   "and keys, c (2a² Σ cos(r θ′ᵢ) + pass-through)/√d, including the temperature a and "
                   "DeepSeek's "
                   "softmax multiplier c. Stretching "
                   "frequencies moves the decay to longer distances. ") +
               source;
    case ExplorerView::Table:
        return ExplorerFigures::tr(
                   "<b>Per-pair numbers</b> for every variant at the target length: original θ and "
                   "wavelength, "
                   "scaled θ′, the ratio θ′/θ and the regime. Export CSV writes every variant's whole table "
                   "(with the scaled wavelengths and the largest angles) one after another, as posatlas "
                   "compute rope-pairs writes it. ") +
               source;
    }
    return source;
}

QColor variant_color(int slot, bool dark)
{
    return slot < 0 ? figure_colors(dark).muted : explorer_variant_color(slot, dark);
}

QColor regime_color(PairRegime regime, bool dark)
{
    switch (regime) {
    case PairRegime::Kept: return dark ? QColor(0x2e, 0x4a, 0x3a) : QColor(0xdc, 0xf0, 0xe2);
    case PairRegime::Blended: return dark ? QColor(0x55, 0x4c, 0x26) : QColor(0xf7, 0xec, 0xc4);
    case PairRegime::Interpolated: return dark ? QColor(0x2c, 0x3b, 0x57) : QColor(0xd6, 0xe2, 0xf5);
    }
    return {};
}

PlotSpec per_pair_spec(const ExplorerTables& t, int regime_variant, bool dark)
{
    PlotSpec s;
    s.title = ExplorerFigures::tr("Per-pair scaling θ′/θ · %1 · L %2 → %3")
                  .arg(t.model_name, len(t.trained), len(t.target));
    s.x_label = ExplorerFigures::tr("pair index i");
    s.y_label = ExplorerFigures::tr("θ′ᵢ / θᵢ");
    s.log_y = true;
    std::vector<double> factors;
    for (const VariantResult& r : t.variants) {
        if (!r.error.isEmpty())
            continue;
        PlotSeries ser{
            r.variant.label, pair_axis(r.table.rows.size()), {}, variant_color(r.variant.slot, dark)};
        for (const RopePairRow& row : r.table.rows)
            ser.y.push_back(row.ratio);
        ser.points = ser.x.size() <= 96;
        ser.dashed = r.variant.kind == VariantKind::YarnLlamaCpp; // lies on top of YaRN: keep both visible
        ser.width = 1.8;
        s.series << ser;
        PlotStrip strip{r.variant.label, {}};
        for (const RopePairRow& row : r.table.rows)
            strip.cells.push_back(regime_color(row.regime, dark));
        s.strips << strip;
        const double f = r.table.frequencies.factor_used;
        if (f > 1.0 &&
            std::none_of(factors.begin(), factors.end(), [f](double g) { return std::abs(g - f) < 1e-9; }))
            factors.push_back(f);
    }
    s.lines << PlotLine{1.0, false, figure_colors(dark).muted, ExplorerFigures::tr("kept: θ′/θ = 1"), true};
    for (double f : factors)
        s.lines << PlotLine{1.0 / f, false, figure_colors(dark).muted,
                            ExplorerFigures::tr("interpolated: 1/s = 1/%1").arg(format_number(f)), true};
    const int rv = std::clamp(regime_variant, 0, std::max(0, static_cast<int>(t.variants.size()) - 1));
    if (rv < static_cast<int>(t.variants.size()) &&
        t.variants[static_cast<std::size_t>(rv)].error.isEmpty()) {
        const VariantResult& r = t.variants[static_cast<std::size_t>(rv)];
        for (const RegimeBoundary& b : r.table.boundaries) {
            QColor c = regime_color(b.regime, dark);
            c.setAlpha(170);
            const QString range = b.first_pair == b.last_pair
                                      ? ExplorerFigures::tr("pair %1").arg(b.first_pair)
                                      : ExplorerFigures::tr("pairs %1–%2").arg(b.first_pair).arg(b.last_pair);
            s.bands << PlotBand{b.first_pair - 0.5, b.last_pair + 0.5, c,
                                ExplorerFigures::tr("%1 · %2\nλ %3–%4")
                                    .arg(regime_name(b.regime), range, tokens(b.wavelength_first),
                                         tokens(b.wavelength_last))};
        }
        const QStringList labels = boundary_labels(r.table);
        for (std::size_t i = 1; i < r.table.boundaries.size(); ++i)
            s.lines << PlotLine{r.table.boundaries[i].first_pair - 0.5, true,
                                variant_color(r.variant.slot, dark), labels[static_cast<int>(i - 1)], false};
        s.note =
            ExplorerFigures::tr("Shaded regimes and boundary labels: %1 · strips: regimes of every variant")
                .arg(r.variant.label);
    }
    for (PairRegime g : {PairRegime::Kept, PairRegime::Blended, PairRegime::Interpolated})
        s.extra_legend << PlotLegendItem{regime_name(g), regime_color(g, dark), true, false};
    const QString err = errors_note(t);
    if (!err.isEmpty())
        s.note = err;
    s.y_max = 1.6;
    return s;
}

PlotSpec wavelength_spec(const ExplorerTables& t, bool dark)
{
    PlotSpec s;
    s.title = ExplorerFigures::tr("Wavelength λ = 2π/θ′ against context · %1").arg(t.model_name);
    s.x_label = ExplorerFigures::tr("pair index i");
    s.y_label = ExplorerFigures::tr("wavelength (tokens)");
    s.log_y = true;
    s.right_reciprocal = static_cast<double>(t.trained);
    s.right_label = ExplorerFigures::tr("YaRN r = L / λ (L = %1)").arg(len(t.trained));
    const FigureColors fc = figure_colors(dark);
    PlotSeries orig{ExplorerFigures::tr("unscaled"), pair_axis(t.unscaled.rows.size()), {}, fc.muted, true};
    for (const RopePairRow& row : t.unscaled.rows)
        orig.y.push_back(row.wavelength);
    s.series << orig;
    for (const VariantResult& r : t.variants) {
        if (!r.error.isEmpty())
            continue;
        PlotSeries ser{
            r.variant.label, pair_axis(r.table.rows.size()), {}, variant_color(r.variant.slot, dark)};
        for (const RopePairRow& row : r.table.rows)
            ser.y.push_back(row.scaled_wavelength);
        ser.dashed = r.variant.kind == VariantKind::YarnLlamaCpp;
        s.series << ser;
        const RopeFrequencies& f = r.table.frequencies;
        if (f.llama3_low_freq_wavelen && f.llama3_high_freq_wavelen) {
            const QColor c = variant_color(r.variant.slot, dark);
            s.lines << PlotLine{*f.llama3_high_freq_wavelen, false, c,
                                ExplorerFigures::tr("Llama 3 high-freq λ = L/%1 = %2")
                                    .arg(format_number(r.variant.params.high_freq_factor),
                                         format_number(*f.llama3_high_freq_wavelen)),
                                true};
            s.lines << PlotLine{*f.llama3_low_freq_wavelen, false, c,
                                ExplorerFigures::tr("Llama 3 low-freq λ = L/%1 = %2")
                                    .arg(format_number(r.variant.params.low_freq_factor),
                                         format_number(*f.llama3_low_freq_wavelen)),
                                true};
        }
    }
    context_lines(s, t.trained, t.target, false, dark);
    const QColor red(0xd6, 0x27, 0x28);
    if (t.yarn.beta > 0.0)
        s.lines << PlotLine{t.yarn.context / t.yarn.beta, false, red,
                            ExplorerFigures::tr("YaRN r = β_fast = %1 (λ = %2): pairs below are kept")
                                .arg(format_number(t.yarn.beta), format_number(t.yarn.context / t.yarn.beta)),
                            true};
    if (t.yarn.alpha > 0.0)
        s.lines << PlotLine{
            t.yarn.context / t.yarn.alpha, false, red,
            ExplorerFigures::tr("YaRN r = β_slow = %1 (λ = %2): pairs above are interpolated")
                .arg(format_number(t.yarn.alpha), format_number(t.yarn.context / t.yarn.alpha)),
            true};
    s.note = t.yarn_from_variant
                 ? ExplorerFigures::tr("YaRN thresholds of the first YaRN variant")
                 : ExplorerFigures::tr("YaRN thresholds at the paper's defaults β_fast 32, β_slow 1");
    const QString err = errors_note(t);
    if (!err.isEmpty())
        s.note = err;
    return s;
}

PlotSpec coverage_spec(const ExplorerTables& t, bool dark)
{
    PlotSpec s;
    s.title = ExplorerFigures::tr("Angle coverage: trained [0, L·θᵢ] vs target (T−1)·θ′ᵢ · L %1, T %2")
                  .arg(len(t.trained), len(t.target));
    s.x_label = ExplorerFigures::tr("pair index i");
    s.y_label = ExplorerFigures::tr("rotation angle (rad)");
    s.log_y = true;
    const FigureColors fc = figure_colors(dark);
    QColor grey = fc.muted;
    grey.setAlpha(70);
    PlotFill fill{
        ExplorerFigures::tr("trained range [0, L·θᵢ]"), pair_axis(t.unscaled.rows.size()), {}, {}, grey};
    PlotSeries unscaled{ExplorerFigures::tr("unscaled at target"), fill.x, {}, fc.muted, true};
    for (const RopePairRow& row : t.unscaled.rows) {
        fill.lo.push_back(0.0);
        fill.hi.push_back(static_cast<double>(t.trained) * row.theta);
        unscaled.y.push_back(row.target_max_angle);
    }
    s.fills << fill;
    s.series << unscaled;
    const QColor red(0xd6, 0x27, 0x28);
    QStringList counts;
    bool first_unseen = true;
    for (const VariantResult& r : t.variants) {
        if (!r.error.isEmpty())
            continue;
        PlotSeries ser{r.variant.label, fill.x, {}, variant_color(r.variant.slot, dark)};
        PlotSeries unseen{first_unseen ? ExplorerFigures::tr("never-seen rotation") : QString(),
                          {},
                          {},
                          red,
                          false,
                          false,
                          true,
                          2.4};
        PlotStrip strip{r.variant.label, {}};
        int n = 0;
        for (const RopePairRow& row : r.table.rows) {
            ser.y.push_back(row.target_max_angle);
            strip.cells.push_back(
                row.unseen_rotation ? red : (dark ? QColor(0x3c, 0x40, 0x43) : QColor(0xe8, 0xea, 0xed)));
            if (row.unseen_rotation) {
                unseen.x.push_back(row.index);
                unseen.y.push_back(row.target_max_angle);
                ++n;
            }
        }
        ser.dashed = r.variant.kind == VariantKind::YarnLlamaCpp;
        s.series << ser;
        if (!unseen.x.empty()) {
            s.series << unseen;
            first_unseen = false;
        }
        s.strips << strip;
        counts << ExplorerFigures::tr("%1: %n never-seen", nullptr, n).arg(r.variant.label);
    }
    s.lines << PlotLine{kTwoPi, false, fc.text, ExplorerFigures::tr("one full turn 2π"), true};
    s.note = counts.join(QStringLiteral(" · "));
    return s;
}

PlotSpec dynamic_spec(const DynamicResult& d, bool dark)
{
    PlotSpec s;
    s.title = ExplorerFigures::tr("Frequencies at the current length N = %1 (trained L = %2)")
                  .arg(len(d.current), len(d.trained));
    s.x_label = ExplorerFigures::tr("pair index i");
    s.y_label = ExplorerFigures::tr("θ′ᵢ / θᵢ at N");
    s.log_y = true;
    for (const DynamicEntry& e : d.entries) {
        if (!e.error.isEmpty())
            continue;
        const RopeFrequencies& f = e.frequencies;
        PlotSeries ser{
            e.variant.label, pair_axis(f.inv_freq.size()), {}, variant_color(e.variant.slot, dark)};
        for (std::size_t i = 0; i < f.inv_freq.size(); ++i)
            ser.y.push_back(f.inv_freq[i] / f.inv_freq_original[i]);
        ser.dashed = e.variant.slot < 0;
        ser.width = e.variant.kind == VariantKind::Dynamic ? 2.6 : 1.5;
        s.series << ser;
    }
    s.lines << PlotLine{1.0, false, figure_colors(dark).muted, ExplorerFigures::tr("unscaled"), true};
    s.y_max = 1.6;
    s.note = dynamic_base_text(d);
    return s;
}

QString dynamic_base_text(const DynamicResult& d)
{
    QStringList parts;
    for (const DynamicEntry& e : d.entries)
        if (e.error.isEmpty() && e.variant.kind == VariantKind::Dynamic)
            parts << ExplorerFigures::tr("%1: base %2 → %3 (M = %4)")
                         .arg(e.variant.label, format_number(e.variant.params.rope_theta, 6),
                              format_number(e.frequencies.base_used, 6))
                         .arg(e.variant.params.max_position_embeddings);
    return parts.join(QStringLiteral(" · "));
}

PlotSpec temperature_spec(const ExplorerTables& t, const QueryScale& scale, bool dark)
{
    PlotSpec s;
    s.title = ExplorerFigures::tr("Attention temperature against the scaling factor s");
    s.x_label = ExplorerFigures::tr("scaling factor s");
    s.y_label = ExplorerFigures::tr("multiplier of the logits q·k/√d");
    s.log_x = true;
    const FigureColors fc = figure_colors(dark);
    s.series << PlotSeries{ExplorerFigures::tr("YaRN 1/t = (0.1 ln s + 1)²"), t.s, t.yarn_logit, fc.text,
                           false};
    s.series << PlotSeries{ExplorerFigures::tr("LongRoPE 1 + ln s / ln %1").arg(len(t.trained)), t.s,
                           t.longrope_logit, fc.muted, true};
    if (!t.deepseek_logit.empty()) {
        const QString ms = format_number(*t.deepseek_mscale), all = format_number(*t.deepseek_mscale_all_dim);
        const QString name =
            t.deepseek_softmax
                ? ExplorerFigures::tr(
                      "DeepSeek (mscale %1, mscale_all_dim %2): ratio² × softmax get_mscale(s, %2)²")
                      .arg(ms, all)
                : ExplorerFigures::tr("DeepSeek ratio² (mscale %1 / mscale_all_dim %2)").arg(ms, all);
        s.series << PlotSeries{name, t.s, t.deepseek_logit, QColor(0x8c, 0x56, 0x4b), false};
    }
    if (scale.kind != QueryScaleKind::None && t.trained > 0) {
        // The query at the last position p of a context of s L tokens: p + 1 = s L.
        std::vector<double> y;
        for (double sv : t.s) {
            const auto p = std::max<std::int64_t>(0, std::llround(sv * static_cast<double>(t.trained)) - 1);
            y.push_back(query_scale_at(scale, p));
        }
        const QColor color(0x7f, 0x7f, 0x7f); // tab10 grey
        if (scale.kind == QueryScaleKind::LogN)
            s.series << PlotSeries{
                ExplorerFigures::tr("Qwen log-n: query × log_%1(p + 1) at p + 1 = s·%1").arg(len(t.trained)),
                t.s,
                y,
                color,
                false,
                false,
                true,
                2.5};
        else
            s.series << PlotSeries{
                ExplorerFigures::tr(
                    "Llama 4 NoPE layers: query × (ln(⌊(p + 1)/%1⌋ + 1)·%2 + 1) at p + 1 = s·%3")
                    .arg(format_number(scale.floor_scale), format_number(scale.attn_scale), len(t.trained)),
                t.s,
                y,
                color,
                false,
                true,
                false,
                2.0};
    }
    for (const VariantResult& r : t.variants) {
        if (!r.error.isEmpty())
            continue;
        // Named points: the legend carries each variant's numbers (several may sit on the same spot).
        const QString name = ExplorerFigures::tr("%1: s %2 → logits × %3")
                                 .arg(r.variant.label, format_number(r.temperature.factor),
                                      format_number(r.temperature.logit_multiplier, 5));
        s.series << PlotSeries{name,
                               {r.temperature.factor},
                               {r.temperature.logit_multiplier},
                               variant_color(r.variant.slot, dark),
                               false,
                               false,
                               true,
                               3.5};
    }
    s.note =
        ExplorerFigures::tr("Points: each variant's factor s and what its logits are multiplied by in all");
    return s;
}

PlotSpec entropy_spec(const EntropyResult& e, std::int64_t trained, std::int64_t target, bool dark)
{
    PlotSpec s;
    const bool repeated = e.content == EntropyContent::RepeatedToken;
    s.title = repeated ? ExplorerFigures::tr("Attention entropy against context (repeated token, q = k)")
                       : ExplorerFigures::tr("Attention entropy against context (random q, k)");
    s.x_label = ExplorerFigures::tr("context length N");
    s.y_label = ExplorerFigures::tr("entropy (nats)");
    s.log_x = true;
    const FigureColors fc = figure_colors(dark);
    std::vector<double> x(e.lengths.begin(), e.lengths.end()), lnN;
    for (double n : x)
        lnN.push_back(std::log(n));
    if (!x.empty())
        s.series << PlotSeries{ExplorerFigures::tr("ln N (uniform attention)"),
                               x,
                               lnN,
                               fc.grid.darker(130),
                               true,
                               true,
                               false,
                               1.2};
    bool tempered = false;
    for (const EntropyResult::Curve& c : e.curves) {
        const QColor color = c.slot == EntropyResult::kNopeSlot ? QColor(0x8c, 0x56, 0x4b)
                                                                : variant_color(c.slot, dark); // tab10 brown
        const bool scaled = std::abs(c.logit_multiplier - 1.0) > 1e-12;
        const QString name =
            scaled
                ? ExplorerFigures::tr("%1 · logits × %2").arg(c.label, format_number(c.logit_multiplier, 4))
                : c.label;
        s.series << PlotSeries{name, x, c.with_temperature, color, false, true, true, 2.0};
        if (!c.with_query_scale.empty()) {
            const QString with = e.query_scale.kind == QueryScaleKind::LogN
                                     ? ExplorerFigures::tr("%1 + Qwen log-n").arg(c.label)
                                     : ExplorerFigures::tr("%1 × Llama 4 temperature").arg(c.label);
            s.series << PlotSeries{with, x, c.with_query_scale, color, false, true, true, 1.0};
        }
        if (scaled) {
            tempered = true;
            s.series << PlotSeries{QString(), x, c.without_temperature, color, true, true, false, 1.3};
        }
    }
    if (tempered)
        s.extra_legend << PlotLegendItem{ExplorerFigures::tr("dashed: without temperature"), fc.muted, false,
                                         true};
    context_lines(s, trained, target, true, dark);
    s.note =
        repeated
            ? ExplorerFigures::tr("Last query, all N keys, exact; mean of %1 random tokens v, q = k = v.")
                  .arg(e.trials)
            : ExplorerFigures::tr("Last query, all N keys, exact; mean of %1 draws. Every frequency set: "
                                  "the same distribution.")
                  .arg(e.trials);
    if (e.query_scale.kind == QueryScaleKind::Llama4 && repeated)
        s.note +=
            QStringLiteral(" ") +
            ExplorerFigures::tr("NoPE layer with a repeated token: all its logits are equal, so its entropy "
                                "is ln N with or without the temperature; choose random q, k to see it act.");
    return s;
}

PlotSpec decay_spec(const ExplorerTables& t, bool dark)
{
    PlotSpec s;
    s.title = ExplorerFigures::tr("RoFormer long-term decay bound against distance");
    s.x_label = ExplorerFigures::tr("relative distance r (tokens)");
    s.y_label = ExplorerFigures::tr("(1/(d/2)) Σ |S_j|");
    s.log_x = true;
    for (const VariantResult& r : t.variants)
        if (r.error.isEmpty())
            s.series << PlotSeries{
                r.variant.label, t.distances, r.decay_bound, variant_color(r.variant.slot, dark),
                false,           true,        false,         1.5};
    context_lines(s, t.trained, t.target, true, dark);
    return s;
}

PlotSpec score_spec(const ExplorerTables& t, bool dark)
{
    PlotSpec s;
    s.title =
        ExplorerFigures::tr("Positional score against distance (all-ones q, k; head_dim %1)").arg(t.head_dim);
    s.x_label = ExplorerFigures::tr("relative distance r (tokens)");
    s.y_label = ExplorerFigures::tr("score / √d");
    s.log_x = true;
    for (const VariantResult& r : t.variants)
        if (r.error.isEmpty())
            s.series << PlotSeries{r.variant.label, t.distances, r.score, variant_color(r.variant.slot, dark),
                                   false,           true,        false,   1.3};
    context_lines(s, t.trained, t.target, true, dark);
    return s;
}

} // namespace posatlas::ui
