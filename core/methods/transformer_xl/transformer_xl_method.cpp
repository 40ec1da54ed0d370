// SPDX-License-Identifier: GPL-3.0-or-later
// Transformer-XL / XLNet relative attention (Dai et al. 2019, eq. 3: terms (a)-(d)).
#include "compute/matrix_job.h"
#include "methods/common_fields.h"
#include "methods/table_files.h"
#include "methods/transformer_xl/transformer_xl.h"

#include <algorithm>
#include <cmath>

namespace posatlas {
namespace {

void txl_logits(MatrixJob& c)
{
    const TransformerXLParams& p = c.s.params<TransformerXLParams>();
    const TxlModel m = make_txl_model(p);
    const int d = p.head_dim;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    const Eigen::MatrixXd q = job_queries(c, d), k = job_keys(c, d);
    relative_fill(
        c,
        [&](std::int64_t r, std::int64_t col) {
            return txl_logit_terms(m, q.row(r).transpose(), k.row(col).transpose(),
                                   c.rows[static_cast<std::size_t>(r)], c.cols[static_cast<std::size_t>(col)])
                       .total(p)
                   * inv_sqrt_d;
        },
        [&](std::int64_t delta) {
            return txl_logit_terms(m, q.row(0).transpose(), k.row(0).transpose(), delta, 0).total(p) * inv_sqrt_d;
        });
}

Field term(std::string key, bool TransformerXLParams::*member, const char* label, const char* tooltip)
{
    return make_field(std::move(key), FieldType::Bool, member, {.label = label, .tooltip = tooltip});
}


} // namespace

MethodDescriptor describe_transformer_xl()
{
    using P = TransformerXLParams;
    MethodDescriptor d;
    d.method = Method::TransformerXL;
    d.section = "transformer_xl";
    d.name = QT_TRANSLATE_NOOP("Method", "Transformer-XL / XLNet");
    d.short_name = QT_TRANSLATE_NOOP("Method", "Transformer-XL");
    d.noun = "Transformer-XL relative positions";
    d.reference = "Dai et al. 2019, Transformer-XL, eq. 3; kimiyoung/transformer-xl RelPartialLearnableMultiHeadAttn";
    d.fields = {
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 2, .hi = 4096, .even = true, .log_scale = true, .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Dimension of the sinusoid R_{i-j} (even).")}),
        make_field("base", FieldType::Real, &P::base,
                   {.lo = 1, .hi = 1e12, .lo_open = true, .log_scale = true, .decimals = 1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Base of the relative sinusoid R_{i-j}.")}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Projection seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of W_{k,R} and the biases u, v.")),
        initializer_range_field(&P::stddev),
        term("term_a", &P::term_a, QT_TRANSLATE_NOOP("ParamSpec", "(a) content × content"),
             QT_TRANSLATE_NOOP("ParamSpec", "Term (a) of Dai et al. eq. 3: q_i·W_{k,E} x_j.")),
        term("term_b", &P::term_b, QT_TRANSLATE_NOOP("ParamSpec", "(b) content × position"),
             QT_TRANSLATE_NOOP("ParamSpec", "Term (b): q_i·W_{k,R} R_{i-j}, the content-dependent positional bias.")),
        term("term_c", &P::term_c, QT_TRANSLATE_NOOP("ParamSpec", "(c) global content bias"),
             QT_TRANSLATE_NOOP("ParamSpec", "Term (c): u·W_{k,E} x_j.")),
        term("term_d", &P::term_d, QT_TRANSLATE_NOOP("ParamSpec", "(d) global position bias"),
             QT_TRANSLATE_NOOP("ParamSpec", "Term (d): v·W_{k,R} R_{i-j}, a pure function of the distance.")),
    };
    const auto bias_shape = [](const Scenario& s) { return txl_bias_shape(s.params<P>()); };
    const auto bias_adopt = [](Scenario& s, std::int64_t rows, std::int64_t cols) {
        const std::int64_t n = rows == 1 ? cols : rows; // 1 x d or d x 1
        if (n % 2 == 0)
            s.params<P>().head_dim = static_cast<int>(std::clamp<std::int64_t>(n, 2, 4096));
    };
    add_table_fields(d.fields, table_fields("r_net", &P::r_net, &P::r_net_tensor,
                                            QT_TRANSLATE_NOOP("ParamSpec", "W_{k,R} table"),
                                            QT_TRANSLATE_NOOP("ParamSpec", "The projection of the relative sinusoid (r_net in the original code) from a file: head_dim x e, e even; R_{i-j} then has e dimensions. Overrides the seeded W_{k,R}."),
                                            [](const Scenario& s) { return txl_r_net_shape(s.params<P>()); },
                                            [](Scenario& s, std::int64_t rows, std::int64_t) {
                                                if (rows % 2 == 0)
                                                    s.params<P>().head_dim = static_cast<int>(std::clamp<std::int64_t>(rows, 2, 4096));
                                            }));
    add_table_fields(d.fields, table_fields("r_w_bias", &P::r_w_bias, &P::r_w_bias_tensor,
                                            QT_TRANSLATE_NOOP("ParamSpec", "u table"),
                                            QT_TRANSLATE_NOOP("ParamSpec", "The global content bias u (r_w_bias) from a file: head_dim values. Overrides the seeded u."),
                                            bias_shape, bias_adopt));
    add_table_fields(d.fields, table_fields("r_r_bias", &P::r_r_bias, &P::r_r_bias_tensor,
                                            QT_TRANSLATE_NOOP("ParamSpec", "v table"),
                                            QT_TRANSLATE_NOOP("ParamSpec", "The global position bias v (r_r_bias) from a file: head_dim values. Overrides the seeded v."),
                                            bias_shape, bias_adopt));
    show_seed_while_a_table_is_seeded(d.fields);
    d.check = [](const Scenario& s) { check_txl_tables(s.params<P>()); };
    d.kinds = {
        logits_kind(txl_logits, block_means_with_constant_content),
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}, {"base", QT_TRANSLATE_NOOP("Caption", "base %1")}};
    return d;
}

} // namespace posatlas
