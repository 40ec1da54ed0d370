// SPDX-License-Identifier: GPL-3.0-or-later
// Transformer-XL / XLNet relative attention (Dai et al. 2019, eq. 3: terms (a)-(d)).
#include "compute/exact_angle.h"
#include "compute/gemm.h"
#include "compute/matrix_job.h"
#include "compute/sinusoid_sums.h"
#include "methods/common_fields.h"
#include "methods/table_files.h"
#include "methods/transformer_xl/transformer_xl.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <vector>

namespace posatlas {
namespace {

// Every cell of eq. (3) as one matrix product. Terms (b) and (d) are g_i . W_{k,R} R_{i-j} with
// g_i = [b] q_i + [d] v; splitting W_{k,R} = [W_s | W_c] over R's sine and cosine halves and expanding
// sin((i - j) w) and cos((i - j) w) by the angle-difference formulas gives
//   g_i . W_{k,R} R_{i-j} = A_i . B_j,  B_j = [cos(j w) | sin(j w)],
//   A_i = [alpha * sin(i w) + beta * cos(i w) | beta * sin(i w) - alpha * cos(i w)],
//   alpha = W_s^T g_i, beta = W_c^T g_i,
// and terms (a) and (c) are ([a] q_i + [c] u) . k_j. So logits = [Q' | A] [K | B]^T / sqrt(d): O((rows +
// cols) e) sines and one GEMM of width d + e, instead of a sinusoid and a d x e product per cell (which
// made a 4096-position heatmap with random content take 0.5 s and a 10^6-position point sample 0.8 s).
// Exact up to rounding: each angle is formed exactly (above), where the per-cell path rounds (i - j) w.
void txl_factored_logits(MatrixJob& c, const TxlModel& m)
{
    const TransformerXLParams& p = c.s.params<TransformerXLParams>();
    const int d = p.head_dim;
    const auto e = static_cast<int>(m.w_k_r.cols());
    const int half = e / 2;
    const auto nr = static_cast<Eigen::Index>(c.rows.size());
    const auto nc = static_cast<Eigen::Index>(c.cols.size());
    const Eigen::MatrixXd q = job_queries(c, d), k = job_keys(c, d);
    check_cancel(c.cancel);
    std::vector<double> w(static_cast<std::size_t>(half));
    for (int t = 0; t < half; ++t)
        w[static_cast<std::size_t>(t)] = 1.0 / std::pow(p.base, (2.0 * t) / e); // as txl_relative_sinusoid
    Eigen::MatrixXd left(nr, d + e), right(nc, d + e);
    // Q' and K.
    left.leftCols(d) = Eigen::MatrixXd::Zero(nr, d);
    if (p.term_a)
        left.leftCols(d) = q;
    if (p.term_c)
        left.leftCols(d).rowwise() += m.u.transpose();
    right.leftCols(d) = k;
    // g_i, then alpha and beta for every row at once.
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(nr, d);
    if (p.term_b)
        g = q;
    if (p.term_d)
        g.rowwise() += m.v.transpose();
    const Eigen::MatrixXd alpha = g * m.w_k_r.leftCols(half); // nr x half
    const Eigen::MatrixXd beta = g * m.w_k_r.rightCols(half); // nr x half
#pragma omp parallel for schedule(static) if (nr * half > 16384)
    for (Eigen::Index r = 0; r < nr; ++r) {
        const auto pos = static_cast<double>(c.rows[static_cast<std::size_t>(r)]);
        for (int t = 0; t < half; ++t) {
            // Each angle exactly (compute/exact_angle.h), as the decay curves form theirs.
            const CosSin z = exact_cos_sin(pos, w[static_cast<std::size_t>(t)]);
            const double a = alpha(r, t), b = beta(r, t);
            left(r, d + t) = a * z.s + b * z.c;
            left(r, d + half + t) = b * z.s - a * z.c;
        }
    }
#pragma omp parallel for schedule(static) if (nc * half > 16384)
    for (Eigen::Index col = 0; col < nc; ++col) {
        const auto pos = static_cast<double>(c.cols[static_cast<std::size_t>(col)]);
        for (int t = 0; t < half; ++t) {
            const CosSin z = exact_cos_sin(pos, w[static_cast<std::size_t>(t)]);
            right(col, d + t) = z.c;
            right(col, d + half + t) = z.s;
        }
    }
    report_progress(c.progress, 0.3);
    check_cancel(c.cancel);
    final_product(c, left, right, 1.0 / std::sqrt(static_cast<double>(d)));
    report_progress(c.progress, 1.0);
}

// Position-independent content: the logit depends on i - j only. With g = [b] q + [d] v and
// alpha = W_s^T g, beta = W_c^T g (W_{k,R} = [W_s | W_c] over R's halves), every offset's logit is
//   ([a] q + [c] u) . k + sum_t alpha_t sin(delta w_t) + beta_t cos(delta w_t),
// one weighted sinusoid sum per offset (sinusoid_sums: a rotation per term), instead of a sinusoid and
// a d x e product per offset (the 10^6-distance curve: 1.4 s). Then the Toeplitz fill reads the table
// (block means: txl_block_logits).
struct TxlOffsetSums {
    std::shared_ptr<const SinusoidSum> sum; // the sinusoids' frequencies and weights (alpha, beta)
    double content = 0.0;                   // ([a] q + [c] u) . k
    double inv_sqrt_d = 1.0;

    // The logits of the offsets first .. first + count - 1 into out, on the calling thread.
    void logits(std::int64_t first, std::int64_t count, double* out) const
    {
        sum->range(first, count, out);
        for (std::int64_t t = 0; t < count; ++t)
            out[t] = (out[t] + content) * inv_sqrt_d;
    }
};

TxlOffsetSums txl_offset_sums(const Scenario& s, const TxlModel& m, Precision precision = Precision::Double)
{
    const TransformerXLParams& p = s.params<TransformerXLParams>();
    const int d = p.head_dim;
    const auto e = static_cast<int>(m.w_k_r.cols());
    const int half = e / 2;
    const Eigen::VectorXd q = content_query(s.content, d, 0), k = content_key(s.content, d, 0);
    Eigen::VectorXd g = Eigen::VectorXd::Zero(d), h = Eigen::VectorXd::Zero(d);
    if (p.term_b)
        g += q;
    if (p.term_d)
        g += m.v;
    if (p.term_a)
        h += q;
    if (p.term_c)
        h += m.u;
    const Eigen::VectorXd alpha = m.w_k_r.leftCols(half).transpose() * g,
                          beta = m.w_k_r.rightCols(half).transpose() * g;
    std::vector<double> w(static_cast<std::size_t>(half));
    for (int t = 0; t < half; ++t)
        w[static_cast<std::size_t>(t)] = 1.0 / std::pow(p.base, (2.0 * t) / e); // as txl_relative_sinusoid
    TxlOffsetSums o;
    o.sum = std::make_shared<const SinusoidSum>(
        std::move(w), std::vector<double>(alpha.data(), alpha.data() + half),
        std::vector<double>(beta.data(), beta.data() + half), precision);
    o.content = h.dot(k);
    o.inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    return o;
}

void txl_offset_logits(MatrixJob& c, const TxlModel& m)
{
    const TxlOffsetSums sums = txl_offset_sums(c.s, m);
    const std::int64_t lo = c.rows.front() - c.cols.back(), hi = c.rows.back() - c.cols.front();
    check_cancel(c.cancel);
    // In parallel over pieces of kSinusoidRun offsets (each restarts from exact angles anyway).
    std::vector<double> table(static_cast<std::size_t>(hi - lo + 1));
    const auto count = static_cast<std::int64_t>(table.size());
#pragma omp parallel for schedule(static) if (count > kSinusoidRun)
    for (std::int64_t a = 0; a < count; a += kSinusoidRun)
        sums.logits(lo + a, std::min(kSinusoidRun, count - a), table.data() + a);
    report_progress(c.progress, 0.3);
    const auto by_offset = [&](std::int64_t delta) { return table[static_cast<std::size_t>(delta - lo)]; };
    fill_by_offset(c, c.out.values, by_offset, true);
    c.out.used_toeplitz = true;
}

// Exact block means for any content. The logits are bilinear, left_i . right_j with left_i = [Q'_i | A_i]
// and right_j = [k_j | cos(j w) | sin(j w)] (txl_factored_logits), so the mean over a block I x J is
// (mean_I left) . (mean_J right). The keys' and queries' means come from the cumulative content sums;
// the sinusoids' means in closed form (dirichlet_sum); A_i = [alpha_i sin(i w) + beta_i cos(i w) |
// beta_i sin(i w) - alpha_i cos(i w)] has constant alpha, beta with position-independent content
// (closed form again) and otherwise is summed over the block's positions (O(N d e), the content's own
// cost order).
void txl_block_logits(MatrixJob& c, const TxlModel& m)
{
    const TransformerXLParams& p = c.s.params<TransformerXLParams>();
    const int d = p.head_dim;
    const auto e = static_cast<int>(m.w_k_r.cols());
    const int half = e / 2;
    const auto R = static_cast<Eigen::Index>(c.rb.size()) - 1, C = static_cast<Eigen::Index>(c.cb.size()) - 1;
    std::vector<double> w(static_cast<std::size_t>(half));
    for (int t = 0; t < half; ++t)
        w[static_cast<std::size_t>(t)] = 1.0 / std::pow(p.base, (2.0 * t) / e); // as txl_relative_sinusoid
    std::vector<std::int64_t> vr, vc;
    const Eigen::MatrixXd qbar = content_block_means(c, false, d, c.rb, 0, c.s.seq_len, vr, 0.0, 0.3);
    const Eigen::MatrixXd kbar = content_block_means(c, true, d, c.cb, 0, c.s.seq_len, vc, 0.3, 0.5);
    Eigen::MatrixXd left = Eigen::MatrixXd::Zero(R, d + e), right(C, d + e);
    if (p.term_a)
        left.leftCols(d) = qbar;
    if (p.term_c)
        left.leftCols(d).rowwise() += m.u.transpose();
    right.leftCols(d) = kbar;
    const Eigen::MatrixXd ws = m.w_k_r.leftCols(half), wc = m.w_k_r.rightCols(half);
    // Mean sine and cosine of (block start + n) w over a block of len positions.
    const auto mean_sc = [&](std::int64_t a, std::int64_t len, int t) {
        return dirichlet_sum(w[static_cast<std::size_t>(t)], a, len) / static_cast<double>(len);
    };
    for (Eigen::Index col = 0; col < C; ++col) {
        const std::int64_t a = c.cb[static_cast<std::size_t>(col)],
                           len = c.cb[static_cast<std::size_t>(col) + 1] - a;
        for (int t = 0; t < half; ++t) {
            const std::complex<double> z = mean_sc(a, len, t);
            right(col, d + t) = z.real();
            right(col, d + half + t) = z.imag();
        }
    }
    if (content_is_position_independent(c.s.content)) {
        Eigen::VectorXd g = Eigen::VectorXd::Zero(d);
        if (p.term_b)
            g += content_query(c.s.content, d, 0);
        if (p.term_d)
            g += m.v;
        const Eigen::VectorXd alpha = ws.transpose() * g, beta = wc.transpose() * g;
        for (Eigen::Index r = 0; r < R; ++r) {
            const std::int64_t a = c.rb[static_cast<std::size_t>(r)],
                               len = c.rb[static_cast<std::size_t>(r) + 1] - a;
            for (int t = 0; t < half; ++t) {
                const std::complex<double> z = mean_sc(a, len, t); // (mean cos, mean sin)
                left(r, d + t) = alpha[t] * z.imag() + beta[t] * z.real();
                left(r, d + half + t) = beta[t] * z.imag() - alpha[t] * z.real();
            }
        }
    } else {
        constexpr Eigen::Index kBlocksPerPoll = 16;
        for (Eigen::Index r0 = 0; r0 < R; r0 += kBlocksPerPoll) {
            check_cancel(c.cancel);
            const Eigen::Index r1 = std::min(R, r0 + kBlocksPerPoll);
#pragma omp parallel for schedule(dynamic, 1)
            for (Eigen::Index r = r0; r < r1; ++r) {
                const std::int64_t a = c.rb[static_cast<std::size_t>(r)],
                                   b = c.rb[static_cast<std::size_t>(r) + 1];
                Eigen::VectorXd q(d), g(d), sum_a = Eigen::VectorXd::Zero(half),
                                            sum_b = Eigen::VectorXd::Zero(half);
                for (std::int64_t i = a; i < b; ++i) {
                    content_vector_into(c.s.content, false, d, i, q.data());
                    g.setZero();
                    if (p.term_b)
                        g += q;
                    if (p.term_d)
                        g += m.v;
                    const Eigen::VectorXd alpha = ws.transpose() * g, beta = wc.transpose() * g;
                    for (int t = 0; t < half; ++t) {
                        const CosSin z =
                            exact_cos_sin(static_cast<double>(i), w[static_cast<std::size_t>(t)]);
                        sum_a[t] += alpha[t] * z.s + beta[t] * z.c;
                        sum_b[t] += beta[t] * z.s - alpha[t] * z.c;
                    }
                }
                const double len = static_cast<double>(b - a);
                left.block(r, d, 1, half) = (sum_a / len).transpose();
                left.block(r, d + half, 1, half) = (sum_b / len).transpose();
            }
            report_progress(c.progress, 0.5 + 0.4 * static_cast<double>(r1) / static_cast<double>(R));
        }
    }
    check_cancel(c.cancel);
    final_product(c, left, right, 1.0 / std::sqrt(static_cast<double>(d)));
    report_progress(c.progress, 1.0);
}

void txl_logits(MatrixJob& c)
{
    const TxlModel m = make_txl_model(c.s.params<TransformerXLParams>());
    if (c.block_means()) {
        txl_block_logits(c, m);
        return;
    }
    // Generated or file content: one product of factors; position-independent content: a function of i - j.
    if (content_is_position_independent(c.s.content))
        txl_offset_logits(c, m);
    else
        txl_factored_logits(c, m);
}

Field term(std::string key, bool TransformerXLParams::*member, const char* label, const char* tooltip)
{
    return make_field(std::move(key), FieldType::Bool, member, {.label = label, .tooltip = tooltip});
}

// "What am I looking at?" (explanation.h).
ExplanationText txl_explanation(const Scenario&, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "The logit is the sum of four terms (Dai et al. 2019, eq. 3): content × content, content × "
        "position, a global content bias and a global position bias; the position terms use a "
        "sinusoid of i − j. Switch terms off in the panel to see each one alone."));
}

// The four terms together over random content.
std::vector<GalleryFigureSpec> transformer_xl_gallery()
{
    return {
        {.stem = "transformer-xl-logits",
         .caption = QT_TRANSLATE_NOOP(
             "Gallery", "Transformer-XL relative attention, terms (a)+(b)+(c)+(d), seeded random content"),
         .scenario =
             [] {
                 Scenario s = gallery_defaults(Method::TransformerXL);
                 s.seq_len = 128;
                 s.content.kind = ContentKind::Random;
                 return s;
             },
         .matrix_kind = MatrixKind::Logits,
         .pixels = 512}};
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
    d.reference =
        "Dai et al. 2019, Transformer-XL, eq. 3; kimiyoung/transformer-xl RelPartialLearnableMultiHeadAttn";
    d.fields = {
        make_field("head_dim", FieldType::Int, &P::head_dim,
                   {.lo = 2,
                    .hi = 4096,
                    .even = true,
                    .log_scale = true,
                    .step = 2,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Dimension of the sinusoid R_{i-j} (even).")}),
        make_field("base", FieldType::Real, &P::base,
                   {.lo = 1,
                    .hi = 1e12,
                    .lo_open = true,
                    .log_scale = true,
                    .decimals = 1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Base"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Base of the relative sinusoid R_{i-j}.")}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Projection seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of W_{k,R} and the biases u, v.")),
        initializer_range_field(&P::stddev),
        term("term_a", &P::term_a, QT_TRANSLATE_NOOP("ParamSpec", "(a) content × content"),
             QT_TRANSLATE_NOOP("ParamSpec", "Term (a) of Dai et al. eq. 3: q_i·W_{k,E} x_j.")),
        term("term_b", &P::term_b, QT_TRANSLATE_NOOP("ParamSpec", "(b) content × position"),
             QT_TRANSLATE_NOOP("ParamSpec",
                               "Term (b): q_i·W_{k,R} R_{i-j}, the content-dependent positional bias.")),
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
    add_table_fields(
        d.fields,
        table_fields(
            "r_net", &P::r_net, &P::r_net_tensor, QT_TRANSLATE_NOOP("ParamSpec", "W_{k,R} table"),
            QT_TRANSLATE_NOOP(
                "ParamSpec",
                "The projection of the relative sinusoid (r_net in the original code) from a file: head_dim "
                "x e, e even; R_{i-j} then has e dimensions. Overrides the seeded W_{k,R}."),
            [](const Scenario& s) { return txl_r_net_shape(s.params<P>()); },
            [](Scenario& s, std::int64_t rows, std::int64_t) {
                if (rows % 2 == 0)
                    s.params<P>().head_dim = static_cast<int>(std::clamp<std::int64_t>(rows, 2, 4096));
            }));
    add_table_fields(
        d.fields,
        table_fields(
            "r_w_bias", &P::r_w_bias, &P::r_w_bias_tensor, QT_TRANSLATE_NOOP("ParamSpec", "u table"),
            QT_TRANSLATE_NOOP(
                "ParamSpec",
                "The global content bias u (r_w_bias) from a file: head_dim values. Overrides the seeded u."),
            bias_shape, bias_adopt));
    add_table_fields(
        d.fields,
        table_fields("r_r_bias", &P::r_r_bias, &P::r_r_bias_tensor, QT_TRANSLATE_NOOP("ParamSpec", "v table"),
                     QT_TRANSLATE_NOOP("ParamSpec", "The global position bias v (r_r_bias) from a file: "
                                                    "head_dim values. Overrides the seeded v."),
                     bias_shape, bias_adopt));
    show_seed_while_a_table_is_seeded(d.fields);
    d.check = [](const Scenario& s) { check_txl_tables(s.params<P>()); };
    d.kinds = {
        logits_kind(txl_logits, always_block_means),
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    // One weighted sinusoid sum per offset (txl_offset_sums), on the calling thread.
    d.distance_logits = [](const Scenario& s, std::int64_t,
                           Precision precision) -> MethodDescriptor::DistanceLogitsFn {
        return [sums = txl_offset_sums(s, make_txl_model(s.params<P>()), precision)](
                   std::int64_t first, std::int64_t last, double* out) {
            sums.logits(first, last - first, out);
        };
    };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"base", QT_TRANSLATE_NOOP("Caption", "base %1")}};
    d.explain = txl_explanation;
    d.gallery = transformer_xl_gallery();
    return d;
}

} // namespace posatlas
