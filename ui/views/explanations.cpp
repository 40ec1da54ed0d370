// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/explanations.h"

#include "jobs/view_data.h"
#include "methods/explanation.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "scenario/content.h"
#include "views/figure_style.h"
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

// A count of positions to 3 significant digits, written out ("54400", not "5.44e+04").
QString roundedCount(double v)
{
    if (!(v >= 1000.0))
        return QString::number(v, 'f', v < 10.0 ? 2 : 0);
    const double unit = std::pow(10.0, std::floor(std::log10(v)) - 2.0);
    return QString::number(std::round(v / unit) * unit, 'f', 0);
}

// A method's own sentences (methods/explanation.h), translated, their arguments filled.
QString argText(const Scenario& s, const ExplanationArg& a)
{
    switch (a.type) {
    case ExplanationArg::Type::Integer: return QString::number(a.integer);
    case ExplanationArg::Type::Number: return format_number(a.number, a.digits);
    case ExplanationArg::Type::Choice:
        if (const Field* f = descriptor(s.method).field(a.field))
            return choice_caption(*f, static_cast<int>(f->number(s)));
        return {};
    }
    return {};
}

QString partText(const Scenario& s, const ExplanationPart& part)
{
    QString t = QCoreApplication::translate(kExplanationContext, part.text);
    for (const ExplanationArg& a : part.args)
        t = t.arg(argText(s, a));
    return t;
}

// Parts of one paragraph, joined by a space.
QString joined(const Scenario& s, const std::vector<ExplanationPart>& parts)
{
    QStringList texts;
    for (const ExplanationPart& part : parts)
        texts << partText(s, part);
    return texts.join(QLatin1Char(' '));
}

QStringList noteTexts(const Scenario& s, const ExplanationText& e)
{
    QStringList out;
    for (const ExplanationPart& note : e.notes)
        out << partText(s, note);
    return out;
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
    // The heatmap draws the heads of a per-head method's bias and logits side by side.
    if (per_head_count(s) > 1 && (k == MatrixKind::Bias || k == MatrixKind::Logits))
        axes +=
            QLatin1Char(' ') +
            Explanations::tr("Each small panel is one head, with its own colour scale unless you share one.");
    return axes;
}

QString heatmapColours(const Scenario& s, MatrixKind k)
{
    // The heatmap picks the diverging map only when the matrix's values straddle 0
    // (MatrixData::is_signed), which a one-signed kind's never do.
    const MatrixKindSpec* spec = descriptor(s.method).kind(k);
    QString c =
        !(spec && spec->one_signed)
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

// ---------------------------------------------------------------- curves

QString curvesAxis()
{
    return Explanations::tr("The x axis is the distance r between query and key, in positions (logarithmic "
                            "unless you switch it off).");
}

// ---------------------------------------------------------------- rotation and spectrum

QString rotationPart(const Scenario& s)
{
    if (!rotary_params(s)) // a rotary method's (registry.h)
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
            .arg(format_number(p.factor));
    case RopeType::Ntk:
    case RopeType::Dynamic:
        return Explanations::
            tr("NTK-aware scaling raises the base: the fast pairs stay almost unchanged, the slowest pair is "
               "divided by the factor %1 (dynamic NTK only once the sequence is longer than the model's "
               "context).")
                .arg(format_number(p.factor));
    case RopeType::Yarn:
        return Explanations::
            tr("YaRN keeps the pairs that turn more than beta_fast = %1 times within the trained context "
               "(ratio 1), "
               "interpolates those that turn fewer than beta_slow = %2 times (ratio 1/%3) and blends the "
               "pairs "
               "between along the ramp (dashed: 0 kept, 1 interpolated). It also scales the logits by its "
               "attention factor.")
                .arg(format_number(p.beta_fast), format_number(p.beta_slow), format_number(p.factor));
    case RopeType::Llama3:
        return Explanations::tr("Llama 3 keeps the pairs with wavelengths below %1 positions, divides those "
                                "above %2 by the factor %3 "
                                "and blends the pairs between smoothly.")
            .arg(format_number(static_cast<double>(p.trained_length()) / p.high_freq_factor),
                 format_number(static_cast<double>(p.trained_length()) / p.low_freq_factor),
                 format_number(p.factor));
    case RopeType::LongRope:
        return Explanations::tr("LongRoPE gives every pair its own factor (short_factor, or long_factor once "
                                "the sequence is longer "
                                "than the trained context): the ratio is 1 over that factor.");
    }
    return {};
}

QString spectrumPart(const Scenario& s)
{
    const std::optional<RopeParams> rotary = rotary_params(s); // a rotary method's frequencies (registry.h)
    if (!rotary)
        return Explanations::tr(
            "The frequency spectrum is about RoPE only: choose RoPE (or a RoPE preset) to see it.");
    const RopeParams& p = *rotary;
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
    const MethodDescriptor& d = descriptor(s.method);
    // The method's own sentences (its descriptor's), between the parts every method shares.
    ExplanationText own;
    if (view == ViewKind::Heatmap && d.explain)
        own = d.explain(s, k);
    else if (view == ViewKind::Curves && d.explain_curves)
        own = d.explain_curves(s);
    QString html;
    switch (view) {
    case ViewKind::Heatmap:
        // What to look for before the colour scale's details, which are the same for every method.
        html = para(
            heatmapAxes(s, k) + QLatin1Char(' ') +
            (own.parts.empty()
                 ? Explanations::tr("Each cell is the attention logit of query i and key j for this method.")
                 : joined(s, own.parts)));
        break;
    case ViewKind::Curves: html = para(curvesAxis() + QLatin1Char(' ') + joined(s, own.parts)); break;
    case ViewKind::Rotation: html = para(rotationPart(s)); break;
    case ViewKind::Spectrum: html = para(spectrumPart(s)); break;
    }
    for (const QString& n : notes(view, s, k) + noteTexts(s, own))
        html += para(n);
    if (view == ViewKind::Heatmap)
        html += para(heatmapColours(s, k));
    return html;
}

} // namespace posatlas::ui
