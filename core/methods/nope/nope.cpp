// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/nope/nope.h"

#include "compute/matrix_job.h"
#include "methods/common_fields.h"

#include <algorithm>
#include <cmath>

namespace posatlas {
namespace {

void nope_logits(MatrixJob& job)
{
    const NopeParams& p = job.s.params<NopeParams>();
    // The scenario's causal switch is NoPE's mask (nope.h). No bias: one constant run, so block means count
    // cells in closed form instead of walking every offset (and sorting the (R + 1)(C + 1) block corners by
    // offset).
    const OffsetRuns one_run;
    additive_bias_matrix(
        job, [](std::int64_t) { return 0.0; }, job.s.causal, p.head_dim, &one_run);
}

// "What am I looking at?" (explanation.h).
ExplanationText nope_explanation(const Scenario& s, MatrixKind k)
{
    const bool causal = s.causal; // the scenario's one switch is NoPE's mask
    const bool same_everywhere = explained_constant_content(s) || explained_zero_content(s);
    if (k == MatrixKind::Weights) {
        ExplanationText t = weights_explanation();
        if (!causal && !same_everywhere)
            t.add(QT_TRANSLATE_NOOP(
                "Explanation",
                "No position enters: swap two words and their rows and columns swap, nothing else."));
        return t;
    }
    ExplanationText t;
    t.add(QT_TRANSLATE_NOOP("Explanation", "No position enters: the logit is q_i · k_j / √d."));
    t.add(same_everywhere
              ? QT_TRANSLATE_NOOP("Explanation",
                                  "With the same vector everywhere every cell has the same value.")
              : QT_TRANSLATE_NOOP("Explanation", "The pattern comes from the content only: swap two words "
                                                 "and their rows and columns swap, nothing else."));
    if (causal)
        t.add(QT_TRANSLATE_NOOP(
            "Explanation",
            "Its causal mask hides the keys after the query: the only order a NoPE model sees."));
    return t;
}

ExplanationText nope_curves_explanation(const Scenario& s)
{
    ExplanationText t = logit_curve_explanation();
    if (explained_constant_content(s) || explained_zero_content(s))
        t.add(QT_TRANSLATE_NOOP("Explanation", "With constant content this line is flat."));
    return t;
}

} // namespace

MethodDescriptor describe_nope()
{
    using P = NopeParams;
    MethodDescriptor d;
    d.method = kNoPE;
    d.section = "nope";
    d.name = QT_TRANSLATE_NOOP("Method", "NoPE (no positional encoding)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "NoPE");
    d.noun = "no positional encoding";
    d.reference =
        "Kazemnejad et al. 2023, The Impact of Positional Encoding on Length Generalization in Transformers";
    d.fields = {
        head_dim_field(
            &P::head_dim,
            QT_TRANSLATE_NOOP("ParamSpec",
                              "Dimension of queries and keys: the logit is q_i·k_j/√d, nothing else.")),
    };
    // Without position, the logit of constant content is one number: exact block means always.
    d.kinds = {logits_kind(nope_logits, always_block_means)};
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    // q . k / sqrt(d) at every distance (additive_bias_matrix's content term with a zero bias).
    d.distance_logits = [](const Scenario& s, std::int64_t, Precision) -> MethodDescriptor::DistanceLogitsFn {
        const int dim = s.params<P>().head_dim;
        const double v = content_query(s.content, dim, 0).dot(content_key(s.content, dim, 0)) *
                         (1.0 / std::sqrt(static_cast<double>(dim)));
        return [v](std::int64_t first, std::int64_t last, double* out) {
            std::fill(out, out + (last - first), v);
        };
    };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}};
    d.logits_follow_causal = true; // the scenario's causal switch masks its logits too
    d.explain = nope_explanation;
    d.explain_curves = nope_curves_explanation;
    return d;
}

} // namespace posatlas
