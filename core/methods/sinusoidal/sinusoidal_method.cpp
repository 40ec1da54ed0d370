// SPDX-License-Identifier: GPL-3.0-or-later
// Sinusoidal absolute encoding (Vaswani et al. 2017, sec. 3.5; tensor2tensor get_timing_signal_1d for
// the split layout).
#include "compute/sinusoid_sums.h"
#include "io/number_text.h"
#include "methods/absolute/absolute_kernels.h"
#include "methods/common_fields.h"
#include "methods/sinusoidal/sinusoidal.h"
#include "scenario/content.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace posatlas {

namespace {

// "What am I looking at?" (explanation.h).
ExplanationText sinusoidal_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    if (k == MatrixKind::Encoding)
        return ExplanationText().add(
            s.params<SinusoidalParams>().layout == SinusoidalLayout::Interleaved
                ? QT_TRANSLATE_NOOP(
                      "Explanation",
                      "Columns 2k and 2k + 1 are sin and cos of the position at frequency "
                      "1/base^(2k/d): the left columns change fast (thin stripes), the right ones "
                      "slowly (broad bands).")
                : QT_TRANSLATE_NOOP(
                      "Explanation",
                      "The first half of the columns are sines, the second half cosines of the "
                      "position, each half from fast (thin stripes, left) to slow (broad bands, "
                      "right)."));
    return absolute_logits_explanation(
        s,
        QT_TRANSLATE_NOOP("Explanation", "With zero content only p_i · p_j remains: a sum of cos((i − j)·ω), "
                                         "the same along each diagonal."));
}

// The base Transformer's 256 positions (Vaswani et al. 2017: d_model 512, base 10000).
Scenario base_transformer()
{
    Scenario s = gallery_preset("transformer-base");
    s.seq_len = 256;
    return s;
}

// Its encoding, and the dot products of the encodings alone.
std::vector<GalleryFigureSpec> sinusoidal_gallery()
{
    return {
        {.stem = "sinusoidal-encoding",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Sinusoidal encoding PE[p, i] of the base Transformer (d_model %1, base "
                        "%2), Vaswani et al. 2017, interleaved sin/cos"),
         .caption_numbers =
             [](const GalleryFigureSpec&, const Scenario& s) {
                 const SinusoidalParams& p = s.params<SinusoidalParams>();
                 return std::vector<std::string>{prose_number(p.dim), prose_number(p.base)};
             },
         .scenario = base_transformer,
         .matrix_kind = MatrixKind::Encoding,
         .pixels = 512},
        {.stem = "sinusoidal-dot-product",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "PE[i] · PE[j] / √d of the base Transformer: it depends on i − j only and "
                        "decays away from the diagonal (zero content, position terms only)"),
         .scenario =
             [] {
                 Scenario s = base_transformer();
                 s.content.kind = ContentKind::Zero;
                 return s;
             },
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512},
    };
}

} // namespace

MethodDescriptor describe_sinusoidal()
{
    using P = SinusoidalParams;
    MethodDescriptor d;
    d.method = Method::Sinusoidal;
    d.section = "sinusoidal";
    d.name = QT_TRANSLATE_NOOP("Method", "Sinusoidal (Vaswani et al. 2017)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "Sinusoidal");
    d.noun = "sinusoidal absolute positions";
    d.reference = "Vaswani et al. 2017, Attention Is All You Need, sec. 3.5";
    d.fields = {
        make_field(
            "dim", FieldType::Int, &P::dim,
            {.lo = 2,
             .hi = 65536,
             .even = true,
             .log_scale = true,
             .step = 2,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Model dimension d"),
             .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "d_model: the number of sin/cos channels (even).")}),
        make_field("base", FieldType::Real, &P::base,
                   {.lo = 1,
                    .hi = 1e12,
                    .lo_open = true,
                    .log_scale = true,
                    .decimals = 1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                                 "The 10000 of Vaswani et al.: wavelengths grow "
                                                 "geometrically from 2π to 2π·base across the channels.")}),
        make_field(
            "layout", FieldType::Choice, &P::layout,
            {.label = QT_TRANSLATE_NOOP("ParamSpec", "Layout"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec", "Interleaved sin/cos (the paper) or [sin | cos] halves (tensor2tensor)."),
             .choices = {{"interleaved", QT_TRANSLATE_NOOP("ParamSpec", "Interleaved sin/cos")},
                         {"split", QT_TRANSLATE_NOOP("ParamSpec", "Split halves")}}}),
    };
    d.kinds = {
        {MatrixKind::Encoding, QT_TRANSLATE_NOOP("MatrixKind", "encoding"),
         QT_TRANSLATE_NOOP("MatrixLabel", "encoding"), absolute_matrix, always_block_means},
        logits_kind(absolute_matrix, always_block_means),
    };
    d.quantities = {"sinusoidal"};
    d.content_dim = [](const Scenario& s) { return s.params<P>().dim; };
    d.encoding_dim = [](const Scenario& s) { return static_cast<std::int64_t>(s.params<P>().dim); };
    // One query's row with position-independent content, as sinusoidal_row_logits computes it:
    // (a . x_k + a . p_j) / sqrt(d), a = x_q + p_query, a . p_j one weighted sinusoid sum over the
    // ascending key positions (SinusoidSum::range, on the calling thread; its table built once), read back by
    // distance.
    d.distance_logits = [](const Scenario& s, std::int64_t query,
                           Precision precision) -> MethodDescriptor::DistanceLogitsFn {
        const P& p = s.params<P>();
        const Eigen::VectorXd a = content_query(s.content, p.dim, query) + sinusoidal_row(p, query);
        const double content = a.dot(content_key(s.content, p.dim, 0));
        SinusoidWeights sw = sinusoidal_weights(p, a);
        auto sum = std::make_shared<const SinusoidSum>(std::move(sw.w), std::move(sw.ws), std::move(sw.wc),
                                                       precision);
        return [sum, content, inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(p.dim)),
                query](std::int64_t first, std::int64_t last, double* out) {
            const std::int64_t count = last - first;
            std::vector<double> by_key(
                static_cast<std::size_t>(count)); // keys query - last + 1 .. query - first
            sum->range(query - (last - 1), count, by_key.data());
            for (std::int64_t t = 0; t < count; ++t) // key query - (last - 1) + t is at distance last - 1 - t
                out[last - 1 - t - first] = (content + by_key[static_cast<std::size_t>(t)]) * inv_sqrt_d;
        };
    };
    d.caption_fields = {{"dim", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"base", QT_TRANSLATE_NOOP("Caption", "base %1")},
                        {"layout", QT_TRANSLATE_NOOP("Caption", "%1")}};
    d.explain = sinusoidal_explanation;
    d.gallery = sinusoidal_gallery();
    return d;
}

} // namespace posatlas
