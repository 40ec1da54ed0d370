// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/explanations.h"

#include "jobs/view_jobs.h"
#include "methods/alibi/alibi.h"
#include "methods/cope/cope_method.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "methods/xpos/xpos.h"
#include "model/scenario_model.h"
#include "scenario/content.h"
#include "widgets/content_file_picker.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

struct Explanations {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::Explanations)
};

// Numbers as the figures print them: decimal point, no group separator, few digits.
QString num(double v, int digits = 4)
{
    return QString::number(v, 'g', digits);
}

// A count of positions to 3 significant digits, written out ("54400", not "5.44e+04").
QString roundedCount(double v)
{
    if (!(v >= 1000.0))
        return QString::number(v, 'f', v < 10.0 ? 2 : 0);
    const double unit = std::pow(10.0, std::floor(std::log10(v)) - 2.0);
    return QString::number(std::round(v / unit) * unit, 'f', 0);
}

bool constantContent(const Scenario& s)
{
    return content_is_position_independent(s.content) && s.content.kind != ContentKind::Zero;
}
bool zeroContent(const Scenario& s)
{
    return !s.content.from_files() && s.content.tokens.empty() && s.content.kind == ContentKind::Zero;
}

// Kinds whose values can lie on both sides of 0. The heatmap picks the diverging map only when the
// matrix's values straddle 0 (MatrixData::is_signed), else the sequential one; ALiBi's bias (≤ 0, 0 on
// the diagonal), weights, gates, contextual positions and T5's bucket index never do.
bool canStraddleZero(Method m, MatrixKind k)
{
    if (k == MatrixKind::Logits || k == MatrixKind::Encoding)
        return true;
    if (k == MatrixKind::Bias)
        return m != Method::ALiBi;
    // Shaw's clipped j − i and DeBERTa's bucketed i − j are signed; T5's bucket is an index from 0.
    return k == MatrixKind::Buckets && (m == Method::Shaw || m == Method::DeBERTa);
}

// ---------------------------------------------------------------- heatmap

QString heatmapAxes(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Encoding)
        return Explanations::tr(
            "Rows are positions (0 at the top), columns are the dimensions of each position's vector: "
            "row p is the vector added to the token at position p.");
    QString axes = Explanations::tr(
        "Rows are queries i (position 0 at the top), columns are keys j (position 0 at the left): "
        "each cell is one number for the pair (i, j), and the diagonal is i = j.");
    const bool perHead = per_head_count(s) > 1 && (k == MatrixKind::Bias || k == MatrixKind::Logits) &&
                         (s.method == Method::ALiBi || s.method == Method::T5);
    if (perHead)
        axes +=
            QLatin1Char(' ') +
            Explanations::tr("Each small panel is one head, with its own colour scale unless you share one.");
    return axes;
}

QString heatmapColours(Method m, MatrixKind k)
{
    QString c =
        canStraddleZero(m, k)
            ? Explanations::tr(
                  "When the values lie on both sides of 0 the colours are diverging: blue is negative, "
                  "white is 0, red is positive, on a scale symmetric about 0; when they have one sign, "
                  "dark purple is the smallest value and yellow the largest.")
            : Explanations::tr(
                  "With the default colour map, dark purple is the smallest value and yellow the largest.");
    c += QLatin1Char(' ') +
         Explanations::tr(
             "The colour bar shows the scale's ends and the data's minimum and maximum. \"scale: whole "
             "matrix\" "
             "keeps a cell's colour while you zoom; Fit Colours to View rescales to the visible window.");
    c += QLatin1Char(' ') +
         Explanations::tr(
             "Hatched grey cells have no value (a masked key, or a position without an embedding).");
    return c;
}

QString ropeLogits(const Scenario& s)
{
    QString t = Explanations::tr(
        "RoPE rotates the query by i·θ and the key by j·θ in every pair of dimensions, so their "
        "product depends on the angle (i − j)·θ only.");
    if (zeroContent(s))
        return t + QLatin1Char(' ') +
               Explanations::tr(
                   "With zero content every logit is 0: RoPE turns the content, it adds nothing of its own.");
    if (constantContent(s))
        return t + QLatin1Char(' ') +
               Explanations::tr("With the same vector at every position the matrix is constant along each "
                                "diagonal: the score "
                                "depends on i − j only. It is largest on the diagonal; away from it the fast "
                                "pairs make fine "
                                "stripes and the slow pairs a broad decay.");
    return t + QLatin1Char(' ') +
           Explanations::tr("With different vectors at each position the content changes every cell, so the "
                            "diagonals are no "
                            "longer constant: the relative pattern lies under the content's noise.");
}

QString alibiBias(const Scenario& s)
{
    const AlibiParams& p = s.params<AlibiParams>();
    const QString h = QString::number(p.num_heads);
    QString t = p.bias == AlibiBias::Causal
                    ? Explanations::tr("The bias is −m·(i − j): 0 on the diagonal and falling in a straight "
                                       "line with the distance "
                                       "to the key; keys after the query are masked.")
                    : Explanations::tr("The bias is −m·|i − j|: 0 on the diagonal and falling in a straight "
                                       "line with the distance "
                                       "on both sides.");
    t += QLatin1Char(' ') +
         Explanations::tr(
             "Each head has its own fixed slope m; for %1 heads (a power of two) the reference slopes "
             "are m = 2^(−8h/%1), h = 1 … %1: the first head is the steepest and looks only nearby, "
             "the last one sees far back.")
             .arg(h);
    if (p.scaling != AlibiScaling::None || p.slope_scale != 1.0)
        t += QLatin1Char(' ') +
             Explanations::tr("The slopes are rescaled here (slope scale or ALiBi scaling), so the ramps are "
                              "flatter or steeper than the reference's.");
    return t;
}

QString t5Explanation(const Scenario& s, MatrixKind k)
{
    // transformers T5Attention._relative_position_bucket: bidirectional halves the buckets per
    // direction; the first half of each direction's buckets are exact distances.
    const T5Params& p = s.params<T5Params>();
    const int n = p.bidirectional ? p.num_buckets / 2 : p.num_buckets;
    const int exact = n / 2;
    const QString buckets =
        Explanations::tr("Near the diagonal each distance below %1 has its own bucket; further out distances "
                         "share logarithmically wider buckets, and from %2 on all share the last one.")
            .arg(exact)
            .arg(p.max_distance);
    if (k == MatrixKind::Buckets)
        return Explanations::tr(
                   "Each cell is the bucket index of the relative position j − i: 0 on the diagonal.") +
               QLatin1Char(' ') + buckets +
               (p.bidirectional ? QLatin1Char(' ') +
                                      Explanations::tr(
                                          "Keys after the query use the upper half of the buckets (from %1).")
                                          .arg(n)
                                : QString());
    QString t =
        Explanations::tr(
            "Each cell is the learned bias of the bucket of j − i, one table row per head (a seeded stand-in "
            "table here): constant along each diagonal.") +
        QLatin1Char(' ') + buckets;
    if (k == MatrixKind::Logits)
        t = Explanations::tr("The logit is the content term q_i · k_j / √d plus the bucket bias (T5 itself "
                             "does not divide by √d; "
                             "here it does, so that the methods compare).") +
            QLatin1Char(' ') + t;
    return t;
}

QString absoluteExplanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Encoding) {
        if (s.method == Method::Learned)
            return Explanations::
                tr("Each row is a trained vector looked up by its position (a seeded random stand-in unless "
                   "you "
                   "load a table): nothing smooth is built in, and the %1 trained rows end abruptly: later "
                   "positions have no embedding.")
                    .arg(s.params<LearnedParams>().trained_length);
        return s.params<SinusoidalParams>().layout == SinusoidalLayout::Interleaved
                   ? Explanations::tr(
                         "Columns 2k and 2k + 1 are sin and cos of the position at frequency 1/base^(2k/d): "
                         "the left "
                         "columns change fast (thin stripes), the right ones slowly (broad bands).")
                   : Explanations::tr("The first half of the columns are sines, the second half cosines of "
                                      "the position, each half "
                                      "from fast (thin stripes, left) to slow (broad bands, right).");
    }
    QString t = Explanations::tr(
        "The logit is (q_i + p_i) · (k_j + p_j) / √d: the position vectors are added to the content before "
        "the product, so the score mixes content, position and their cross terms.");
    if (zeroContent(s))
        t += QLatin1Char(' ') +
             (s.method == Method::Sinusoidal
                  ? Explanations::tr(
                        "With zero content only p_i · p_j remains: a sum of cos((i − j)·ω), the same "
                        "along each diagonal.")
                  : Explanations::tr("With zero content only p_i · p_j remains: how alike the two positions' "
                                     "vectors are."));
    else if (constantContent(s))
        t += QLatin1Char(' ') +
             Explanations::tr(
                 "The cross terms depend on i and j themselves, not only on i − j: the diagonals are "
                 "not constant.");
    return t;
}

QString nopeExplanation(const Scenario& s)
{
    QString t = Explanations::tr("No position enters: the logit is q_i · k_j / √d.");
    if (constantContent(s) || zeroContent(s))
        t += QLatin1Char(' ') +
             Explanations::tr("With the same vector everywhere every cell has the same value.");
    else
        t += QLatin1Char(' ') +
             Explanations::tr(
                 "The pattern comes from the content only: swap two words and their rows and columns "
                 "swap, nothing else.");
    if (s.causal)
        t += QLatin1Char(' ') +
             Explanations::tr(
                 "Its causal mask hides the keys after the query: the only order a NoPE model sees.");
    return t;
}

QString copeExplanation(const Scenario& s, MatrixKind k)
{
    const CopeParams& p = s.params<CopeParams>();
    if (k == kCopeGates)
        return Explanations::tr(
            "Each cell is the gate sigmoid(q_i · k_j / √d), between 0 and 1: how much key j counts when "
            "query i counts positions. With the same vector everywhere all gates are equal.");
    if (k == kCopePositions)
        return Explanations::
            tr("Each cell is the contextual position p_ij: the sum of the gates from key j up to the query "
               "i, so "
               "position is counted in gates, not in tokens. It grows away from the diagonal and stops at %1 "
               "(npos_max − 1); keys after the query are masked.")
                .arg(p.npos_max - 1);
    return Explanations::tr(
        "The logit is q_i · k_j / √d plus a position term read between the embeddings at floor(p_ij) and "
        "ceil(p_ij), where p_ij is the contextual position (the sum of the gates from j to i).");
}

QString methodKindPart(const Scenario& s, MatrixKind k)
{
    const Method m = s.method;
    if (k == MatrixKind::Weights) {
        QString t = Explanations::tr(
            "Each row is the softmax of that row of logits: the weights lie between 0 and 1 and add up "
            "to 1 per row. Bright cells are the keys this query mostly reads.");
        if (m == kNoPE && !s.causal && !constantContent(s) && !zeroContent(s))
            t += QLatin1Char(' ') +
                 Explanations::tr(
                     "No position enters: swap two words and their rows and columns swap, nothing else.");
        return t;
    }
    if (m == Method::RoPE)
        return ropeLogits(s);
    if (m == Method::ALiBi)
        return k == MatrixKind::Bias
                   ? alibiBias(s)
                   : Explanations::tr("The logit is q_i · k_j / √d plus the bias −m·(i − j).") +
                         QLatin1Char(' ') +
                         (constantContent(s)
                              ? Explanations::tr(
                                    "With constant content the first term is the same everywhere, so "
                                    "only the bias's straight ramp shows.")
                              : Explanations::tr(
                                    "The content adds its own pattern on top of the bias's ramp."));
    if (m == Method::T5)
        return t5Explanation(s, k);
    if (m == Method::Sinusoidal || m == Method::Learned)
        return absoluteExplanation(s, k);
    if (m == Method::Shaw) {
        const int clip = s.params<ShawParams>().max_relative_position;
        if (k == MatrixKind::Buckets)
            return Explanations::tr("Each cell is the clipped relative index clip(j − i, −%1, %1): it "
                                    "changes near the diagonal and "
                                    "is flat more than %1 positions away from it.")
                .arg(clip);
        return Explanations::tr("The logit is q_i · (k_j + a_(j − i)) / √d with a learned vector a per "
                                "relative index, clipped to "
                                "±%1: beyond %1 positions from the diagonal every key looks alike.")
            .arg(clip);
    }
    if (m == Method::DeBERTa) {
        const DebertaParams& p = s.params<DebertaParams>();
        if (k == MatrixKind::Buckets)
            return p.position_buckets > 0
                       ? Explanations::tr("Each cell is the bucketed relative position of i − j: exact up to "
                                          "±%1, logarithmically "
                                          "coarser beyond, up to max_relative_positions = %2.")
                             .arg(p.position_buckets / 2)
                             .arg(p.max_relative_positions)
                       : Explanations::tr("Each cell is the relative position i − j, clipped to ±%1.")
                             .arg(p.max_relative_positions);
        return Explanations::tr(
            "The logit adds to q_i · k_j the content-to-position and position-to-content terms, which read a "
            "relative-position embedding at the bucketed distance i − j (a seeded stand-in table here).");
    }
    if (m == Method::TransformerXL)
        return Explanations::tr(
            "The logit is the sum of four terms (Dai et al. 2019, eq. 3): content × content, content × "
            "position, "
            "a global content bias and a global position bias; the position terms use a sinusoid of i − j. "
            "Switch terms off in the panel to see each one alone.");
    if (m == Method::CoPE)
        return copeExplanation(s, k);
    if (m == kNoPE)
        return nopeExplanation(s);
    if (m == kXPos) {
        QString t = Explanations::tr(
            "xPos is RoPE with a decay: each pair is also scaled by ζ^((i − j)/γ) with ζ < 1, so the "
            "scores fade with the distance to earlier keys, fastest for the fast pairs.");
        if (constantContent(s))
            t += QLatin1Char(' ') +
                 Explanations::tr(
                     "With the same vector at every position the matrix is constant along each diagonal.");
        return t;
    }
    return Explanations::tr("Each cell is the attention logit of query i and key j for this method.");
}

// ---------------------------------------------------------------- curves

QString curvesPart(const Scenario& s)
{
    const QString x = Explanations::tr(
        "The x axis is the distance r between query and key, in positions (logarithmic unless you "
        "switch it off).");
    if (s.method == Method::RoPE)
        return x + QLatin1Char(' ') +
               Explanations::tr("Both lines are relative to r = 0: RoFormer's upper bound on the logit and "
                                "the mean of cos(r·θ) over "
                                "the pairs. Both fall with distance, with ripples from the slow pairs; the "
                                "vertical lines mark the "
                                "trained and target context, and a dashed line shows the unscaled θ when a "
                                "scaling is set.");
    if (s.method == Method::ALiBi)
        return x + QLatin1Char(' ') +
               Explanations::tr("One line per head: exp(−m·r), the factor by which the bias multiplies a "
                                "key's softmax weight at "
                                "distance r. Steep heads forget within a few tokens; the flattest head still "
                                "sees far back.");
    if (s.method == Method::T5)
        return x + QLatin1Char(' ') +
               Explanations::tr("The y axis is the bucket index of a key r positions after (and before) the "
                                "query: a staircase with "
                                "one step per distance near 0, then logarithmically wider steps, flat from "
                                "max distance %1 on.")
                   .arg(s.params<T5Params>().max_distance);
    if (s.method == Method::DeBERTa)
        return x + QLatin1Char(' ') +
               Explanations::tr("The y axis is the bucketed relative position: equal to r near 0, then "
                                "logarithmic. The solid line "
                                "is the embedding row attention reads (clamped), the dashed one the bucket "
                                "before clamping.");
    QString t =
        x + QLatin1Char(' ') +
        Explanations::tr("The y axis is the logit of the last query against a key r positions before it. A "
                         "flat line means "
                         "the method sees no distance here; a falling one, a preference for near keys.");
    if (s.method == kNoPE && (constantContent(s) || zeroContent(s)))
        t += QLatin1Char(' ') + Explanations::tr("With constant content this line is flat.");
    return t;
}

// ---------------------------------------------------------------- rotation and spectrum

QString rotationPart(const Scenario& s)
{
    if (s.method != Method::RoPE)
        return Explanations::tr(
            "This view shows RoPE's rotations only: choose RoPE (or a RoPE preset) to see them.");
    return Explanations::tr(
        "Each circle is one pair of dimensions: the query is turned by m·θ, the key by n·θ, and the arc is "
        "the angle (m − n)·θ, which is all the logit sees. Move m and n together and the arcs stay the same. "
        "The clock face shows every pair at once: the outer hands (fast pairs) spin quickly, the inner ones "
        "(slow pairs) hardly move.");
}

QString scalingNote(const RopeParams& p)
{
    switch (p.rope_type) {
    case RopeType::Default: return Explanations::tr("No scaling: θ′ = θ, the ratio is 1 for every pair.");
    case RopeType::Linear:
        return Explanations::tr("Linear scaling (position interpolation) divides every frequency by the "
                                "factor %1: the ratio is "
                                "1/%1 for every pair.")
            .arg(num(p.factor));
    case RopeType::Ntk:
    case RopeType::Dynamic:
        return Explanations::
            tr("NTK-aware scaling raises the base: the fast pairs stay almost unchanged, the slowest pair is "
               "divided by the factor %1 (dynamic NTK only once the sequence is longer than the model's "
               "context).")
                .arg(num(p.factor));
    case RopeType::Yarn:
        return Explanations::
            tr("YaRN keeps the pairs that turn more than beta_fast = %1 times within the trained context "
               "(ratio 1), "
               "interpolates those that turn fewer than beta_slow = %2 times (ratio 1/%3) and blends the "
               "pairs "
               "between along the ramp (dashed: 0 kept, 1 interpolated). It also scales the logits by its "
               "attention factor.")
                .arg(num(p.beta_fast), num(p.beta_slow), num(p.factor));
    case RopeType::Llama3:
        return Explanations::tr("Llama 3 keeps the pairs with wavelengths below %1 positions, divides those "
                                "above %2 by the factor %3 "
                                "and blends the pairs between smoothly.")
            .arg(num(static_cast<double>(p.trained_length()) / p.high_freq_factor),
                 num(static_cast<double>(p.trained_length()) / p.low_freq_factor), num(p.factor));
    case RopeType::LongRope:
        return Explanations::tr("LongRoPE gives every pair its own factor (short_factor, or long_factor once "
                                "the sequence is longer "
                                "than the trained context): the ratio is 1 over that factor.");
    }
    return {};
}

QString spectrumPart(const Scenario& s)
{
    if (s.method != Method::RoPE)
        return Explanations::tr(
            "The frequency spectrum is about RoPE only: choose RoPE (or a RoPE preset) to see it.");
    const RopeParams& p = s.params<RopeParams>();
    const int d = std::max(2, p.rotary_dim());
    // Wavelength 2π/θ_i with θ_i = base^(−2i/d) (Su et al. 2021): pair 0 is 2π, the last pair
    // 2π·base^((d−2)/d).
    const double last = 2.0 * 3.14159265358979323846 * std::pow(p.rope_theta, static_cast<double>(d - 2) / d);
    return Explanations::tr("Top: the wavelength 2π/θ of every pair, in positions, on a logarithmic axis: "
                            "pair 0 turns once every "
                            "6.28 positions, the last pair once every %1 (dashed: before scaling). Pairs "
                            "above the trained context "
                            "line never completed a turn in training.")
               .arg(roundedCount(last)) +
           QLatin1Char(' ') +
           Explanations::tr("Bottom: the ratio θ′/θ of each pair after scaling (1 = unchanged).") +
           QLatin1Char(' ') + scalingNote(p);
}

// ---------------------------------------------------------------- notes

QStringList notes(ViewKind view, const Scenario& s, MatrixKind k)
{
    QStringList n;
    if (view != ViewKind::Heatmap && view != ViewKind::Curves)
        return n;
    if (s.content.from_files())
        n << Explanations::tr("Queries and keys are your own, from %1: position p is row p of each file.")
                 .arg(content_files_text(s.content));
    else if (!s.content.tokens.empty())
        n << Explanations::tr("The sequence is your sentence: position p is the p-th word, and the same word "
                              "always gets the same "
                              "vectors.");
    else if (s.content.kind == ContentKind::Random && k != MatrixKind::Encoding && k != MatrixKind::Buckets)
        n << Explanations::tr("Random content: every position has its own vectors, so the picture is noisy; "
                              "what stays when you "
                              "change the seed is the positional part.");
    if (view == ViewKind::Heatmap && s.causal && k == MatrixKind::Weights)
        n << Explanations::tr("Causal is on: keys after the query get weight 0 (the upper-right triangle).");
    if (view == ViewKind::Heatmap && s.method == Method::RoPE &&
        s.params<RopeParams>().rope_type != RopeType::Default && k != MatrixKind::Buckets)
        n << Explanations::tr("The scaling (%1) changes the frequencies θ′ (see the Spectrum view): the "
                              "pattern stretches where "
                              "θ′ < θ.")
                 .arg(rope_scaling_name(s.params<RopeParams>().rope_type));
    return n;
}

// One paragraph. Sentences are joined with a space, which Chinese does not put after its full stop.
QString para(QString text)
{
    text.replace(QStringLiteral("\u3002 "), QStringLiteral("\u3002"));
    return QStringLiteral("<p>") + text.toHtmlEscaped() + QStringLiteral("</p>");
}

} // namespace

QString explanation(ViewKind view, const Scenario& s, std::optional<MatrixKind> kind)
{
    ViewSettings v;
    v.matrix_kind = kind;
    const MatrixKind k = effective_matrix_kind(s, v);
    QString html;
    switch (view) {
    case ViewKind::Heatmap:
        // What to look for before the colour scale's details, which are the same for every method.
        html = para(heatmapAxes(s, k) + QLatin1Char(' ') + methodKindPart(s, k));
        break;
    case ViewKind::Curves: html = para(curvesPart(s)); break;
    case ViewKind::Rotation: html = para(rotationPart(s)); break;
    case ViewKind::Spectrum: html = para(spectrumPart(s)); break;
    }
    for (const QString& n : notes(view, s, k))
        html += para(n);
    if (view == ViewKind::Heatmap)
        html += para(heatmapColours(s.method, k));
    return html;
}

} // namespace posatlas::ui
