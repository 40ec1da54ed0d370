// SPDX-License-Identifier: GPL-3.0-or-later
// Contextual position encoding (Golovneva et al. 2024, CoPE; facebookresearch's reference code in the
// paper's appendix): positions are running sums of gates sigmoid(q_i . k_j), interpolated embeddings.
#include "methods/cope/cope_method.h"

#include "compute/matrix_job.h"
#include "methods/common_fields.h"
#include "methods/cope/cope.h"
#include "methods/table_files.h"
#include "scenario/content.h"
#include "scenario/content_file.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>

namespace posatlas {
namespace {

// Largest square CoPE block (its positions need every key between j and i).
constexpr std::int64_t kMaxCopeSpan = 4096;

CopeQuantity quantity_of(MatrixKind kind)
{
    return kind == kCopePositions ? CopeQuantity::Positions : kind == kCopeGates ? CopeQuantity::Gates : CopeQuantity::Logits;
}

// q . k_j for the keys at positions a .. b - 1 of a scenario's content, as CopeRowStream asks for them.
CopeRowStream::KeyDotsFn key_dots_between(const ContentParams& content, int d)
{
    return [&content, d](std::int64_t a, std::int64_t b, const Eigen::VectorXd& q, double* out) {
        content_key_dots(content, d, a, b, q.data(), out);
    };
}

// One query row (a curve of logits against distance): its positions need only the keys between j and the
// query itself, so the row costs O(N d) at any length, with no square block, and the keys are generated
// and used one chunk at a time (cope_streamed_row): memory is the row, not N x d keys.
void cope_row(MatrixJob& c)
{
    const std::int64_t i = c.rows.front();
    const std::int64_t lo = std::min(c.cols.front(), i);
    const CopeParams& p = c.s.params<CopeParams>();
    const Eigen::VectorXd q = content_query(c.s.content, p.head_dim, i);
    const std::vector<double> row = cope_streamed_row(q, lo, i, key_dots_between(c.s.content, p.head_dim),
                                                      cope_position_embeddings(p), p.gate_scale,
                                                      quantity_of(c.kind), c.cancel,
                                                      [&](double f) { report_progress(c.progress, 0.95 * f); });
    c.out.is_signed = c.kind == MatrixKind::Logits;
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t col = 0; col < c.cols.size(); ++col) {
        const std::int64_t j = c.cols[col];
        c.out.values(0, static_cast<Eigen::Index>(col)) = j > i ? kNaN : row[static_cast<std::size_t>(j - lo)];
    }
    report_progress(c.progress, 1.0);
}

// CoPE's constant-content closed form for a scenario's content and tables.
CopeConstantContent cope_constant_of(const Scenario& s)
{
    const CopeParams& p = s.params<CopeParams>();
    return cope_constant_content(content_query(s.content, p.head_dim, 0), content_key(s.content, p.head_dim, 0),
                                 cope_position_embeddings(p), p.gate_scale);
}

// Position-independent content: a function of i - j (cope_constant_content), so a Toeplitz fill of any
// window (10^6 positions too) or exact block means by the trapezoid identity, masked above the diagonal.
void cope_constant(MatrixJob& c)
{
    const CopeConstantContent f = cope_constant_of(c.s);
    const CopeQuantity what = quantity_of(c.kind);
    c.out.is_signed = c.kind == MatrixKind::Logits;
    const auto by_offset = [&](std::int64_t delta) {
        return delta < 0 ? std::numeric_limits<double>::quiet_NaN() : f.at(what, delta);
    };
    if (c.block_means()) {
        // Linear runs between changes of floor(p): O(npos_max + blocks) whatever N (the walk over
        // every offset sorted (R + 1)(C + 1) block corners: 37 ms for 4096 positions at 900 px).
        OffsetRuns runs;
        runs.changes = f.floor_changes(c.rb.back() - 1 - c.cb.front());
        runs.changes.insert(runs.changes.begin(), 0);
        runs.slope = [&](std::int64_t a) { return a < 0 ? 0.0 : f.slope(what, a); };
        block_means_from_offsets(c, by_offset, true, &runs);
        return;
    }
    fill_by_offset(c, c.out.values, by_offset, true);
    c.out.used_toeplitz = true;
    report_progress(c.progress, 1.0);
}

void cope_matrix(MatrixJob& c)
{
    if (content_is_position_independent(c.s.content)) {
        cope_constant(c);
        return;
    }
    if (c.rows.size() == 1) {
        cope_row(c);
        return;
    }
    // CoPE positions need every key between j and i: compute the square causal block covering the
    // window, then pick the sampled cells.
    const std::int64_t lo = std::min(c.rows.front(), c.cols.front());
    const std::int64_t hi = std::max(c.rows.back(), c.cols.back());
    const std::int64_t span = hi - lo + 1;
    if (span > kMaxCopeSpan)
        throw ParameterError("seq_len", "a window of at most " + std::to_string(kMaxCopeSpan)
                                            + " positions for CoPE (its positions are sums over the window)",
                             std::to_string(span));
    // Every key of the window, the sampled queries only (cope_causal_rows: rows x span, not span^2).
    std::vector<std::int64_t> keys(static_cast<std::size_t>(span));
    for (std::int64_t p = 0; p < span; ++p)
        keys[static_cast<std::size_t>(p)] = lo + p;
    std::vector<std::int64_t> offsets(c.rows.size());
    for (std::size_t r = 0; r < c.rows.size(); ++r)
        offsets[r] = c.rows[r] - lo;
    const CopeParams& p = c.s.params<CopeParams>();
    const Eigen::MatrixXd q = content_queries(c.s.content, p.head_dim, c.rows);
    const Eigen::MatrixXd k = content_keys(c.s.content, p.head_dim, keys);
    check_cancel(c.cancel);
    const CopeQuantity what = quantity_of(c.kind);
    std::vector<std::int64_t> columns(c.cols.size());
    for (std::size_t col = 0; col < c.cols.size(); ++col)
        columns[col] = c.cols[col] - lo;
    // The sampled cells only (NaN where the key comes after the query).
    c.out.values = cope_causal_rows(q, k, cope_position_embeddings(p), p.gate_scale, offsets, what, &columns);
    c.out.is_signed = c.kind == MatrixKind::Logits;
    report_progress(c.progress, 1.0);
}

} // namespace

MethodDescriptor describe_cope()
{
    using P = CopeParams;
    MethodDescriptor d;
    d.method = Method::CoPE;
    d.section = "cope";
    d.name = QT_TRANSLATE_NOOP("Method", "CoPE (Golovneva et al. 2024)");
    d.short_name = QT_TRANSLATE_NOOP("Method", "CoPE");
    d.noun = "CoPE";
    d.reference = "Golovneva et al. 2024, Contextual Position Encoding";
    d.fields = {
        head_dim_field(&P::head_dim, QT_TRANSLATE_NOOP("ParamSpec", "Dimension of queries, keys and position embeddings.")),
        make_field("npos_max", FieldType::Int, &P::npos_max,
                   {.lo = 1, .hi = 1e6, .log_scale = true,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Max positions"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "npos_max: number of position embeddings; contextual positions beyond it are clamped.")}),
        make_field("gate_scale", FieldType::Real, &P::gate_scale,
                   {.lo = -100, .hi = 100, .decimals = 2, .step = 0.1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Gate scale"),
                    .tooltip = QT_TRANSLATE_NOOP("ParamSpec", "Multiplies q·k inside the gate sigmoid (1 = the paper): larger values make gates closer to 0/1, so positions count tokens more sharply.")}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Embedding seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the position embeddings.")),
        initializer_range_field(&P::stddev),
    };
    add_table_fields(d.fields, table_fields("pos_emb", &P::pos_emb, &P::pos_emb_tensor,
                                            QT_TRANSLATE_NOOP("ParamSpec", "position embeddings table"),
                                            QT_TRANSLATE_NOOP("ParamSpec", "CoPE's position embeddings e[0..npos_max-1] from a file: npos_max x head_dim, row r = e[r] (the reference stores pos_emb as 1 x head_dim x npos_max: transpose it). Overrides the seeded table."),
                                            [](const Scenario& s) { return cope_pos_emb_shape(s.params<P>()); },
                                            [](Scenario& s, std::int64_t rows, std::int64_t cols) {
                                                s.params<P>().npos_max = static_cast<int>(std::clamp<std::int64_t>(rows, 1, 1'000'000));
                                                s.params<P>().head_dim = static_cast<int>(std::clamp<std::int64_t>(cols, 1, 4096));
                                            }));
    show_seed_while_a_table_is_seeded(d.fields);
    d.check = [](const Scenario& s) { check_method_tables(descriptor(Method::CoPE), s); };
    // Sigmoid gates of running sums: nonlinear in the content, so exact block means only where every
    // quantity is a function of i - j (position-independent content, cope_constant).
    d.kinds = {
        {kCopePositions, QT_TRANSLATE_NOOP("MatrixKind", "contextual positions"), QT_TRANSLATE_NOOP("MatrixLabel", "contextual position p_ij"), cope_matrix,
         block_means_with_constant_content},
        logits_kind(cope_matrix, block_means_with_constant_content),
        {kCopeGates, QT_TRANSLATE_NOOP("MatrixKind", "gates"), QT_TRANSLATE_NOOP("MatrixLabel", "gate sigmoid(q_i . k_j)"), cope_matrix,
         block_means_with_constant_content},
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.distance_logits = [](const Scenario& s, std::int64_t) -> MethodDescriptor::DistanceLogitsFn {
        return [f = cope_constant_of(s)](std::int64_t first, std::int64_t last, double* out) {
            for (std::int64_t delta = first; delta < last; ++delta)
                out[delta - first] = f.at(CopeQuantity::Logits, delta);
        };
    };
    d.streamed_distance_logits = [](const Scenario& scenario, std::int64_t query) -> MethodDescriptor::DistanceLogitsFn {
        // The row's keys as compute_matrix reads them (files resolved once), streamed from the query down.
        auto s = std::make_shared<Scenario>(scenario);
        if (s->content.from_files())
            resolve_content_files(s->content);
        auto stream = std::make_shared<std::optional<CopeRowStream>>();
        auto scratch = std::make_shared<std::vector<double>>();
        const auto start = [s, query, stream] {
            const CopeParams& cp = s->params<P>();
            // key_dots_between refers to s->content, which the evaluator keeps alive through `s`.
            stream->emplace(content_query(s->content, cp.head_dim, query), query, key_dots_between(s->content, cp.head_dim),
                            cope_position_embeddings(cp), cp.gate_scale, CopeQuantity::Logits);
        };
        return [start, stream, scratch](std::int64_t first, std::int64_t last, double* out) {
            if (!stream->has_value() || (*stream)->given() > first)
                start(); // the first call, or a range behind the stream: from the query again
            if (const std::int64_t skip = first - (*stream)->given(); skip > 0) {
                scratch->resize(static_cast<std::size_t>(skip));
                (*stream)->next(skip, scratch->data());
            }
            (*stream)->next(last - first, out);
        };
    };
    d.context_length = [](const Scenario& s) { return static_cast<std::int64_t>(s.params<P>().npos_max); };
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")}, {"npos_max", QT_TRANSLATE_NOOP("Caption", "npos %1")}};
    return d;
}

} // namespace posatlas
