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
    return kind == kCopePositions ? CopeQuantity::Positions
           : kind == kCopeGates   ? CopeQuantity::Gates
                                  : CopeQuantity::Logits;
}

// q . k_j for the keys at positions a .. b - 1 of a scenario's content, as CopeRowStream asks for them.
CopeRowStream::KeyDotsFn key_dots_between(const ContentParams& content, int d)
{
    return [&content, d](std::int64_t a, std::int64_t b, const Eigen::VectorXd& q, double* out) {
        content_key_dots(content, d, a, b, q.data(), out);
    };
}

// Row r of a window (query c.rows[r]): its positions need only the keys between j and the query, streamed
// from the query down (CopeRowStream) in pieces that grow from 256 keys, and only until the positions are
// clamped at npos_max - 1 (usually within a few hundred keys: gates average about 1/2). Every column
// below that point is evaluated from its own key alone (clamped_value): from `key_dots` (q . k_j of
// every column, when the caller computed them for many rows at once) or from the keys of each run of
// consecutive columns. A row of 2^14 sampled columns of a 10^7-position sequence then costs ~2^14 keys,
// not 10^7 (streaming all of them: 1.3 s). With `limit` > 0, a row whose positions are not clamped
// after `limit` keys is refused (ParameterError seq_len): its columns would need every key between.
void cope_row_into(MatrixJob& c, std::size_t r, const Eigen::MatrixXd& pos_emb,
                   const Eigen::VectorXd* key_dots, std::int64_t limit)
{
    const std::int64_t i = c.rows[r];
    const auto row = static_cast<Eigen::Index>(r);
    const CopeParams& p = c.s.params<CopeParams>();
    const int d = p.head_dim;
    const Eigen::VectorXd q = content_query(c.s.content, d, i);
    CopeRowStream stream(q, i, key_dots_between(c.s.content, d), pos_emb, p.gate_scale, quantity_of(c.kind));
    auto& out = c.out.values;
    const auto ncols = static_cast<std::int64_t>(c.cols.size());
    const auto j_at = [&](std::int64_t col) { return c.cols[static_cast<std::size_t>(col)]; };
    std::int64_t col = ncols - 1; // columns ascend: the walk goes from the query down
    for (; col >= 0 && j_at(col) > i; --col)
        out(row, col) = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> piece;
    for (std::int64_t step = 256; col >= 0 && !stream.clamped(); step = std::min(2 * step, kCopeRowChunk)) {
        if (limit > 0 && stream.given() >= limit)
            throw ParameterError(
                "seq_len",
                "a window of at most " + std::to_string(kMaxCopeSpan) +
                    " positions for CoPE, unless each query's positions reach npos_max - 1 = " +
                    std::to_string(p.npos_max - 1) + " within " + std::to_string(limit) +
                    " keys (its positions are sums over the keys between)",
                std::to_string(c.cols.back() - c.cols.front() + 1));
        const std::int64_t top = i - stream.given(); // the next key the stream gives
        const std::int64_t n = std::min(step, top - j_at(0) + 1);
        piece.resize(static_cast<std::size_t>(n));
        stream.next(n, piece.data(), c.cancel); // keys top, top - 1, ..., top - n + 1
        for (; col >= 0 && j_at(col) > top - n; --col)
            out(row, col) = piece[static_cast<std::size_t>(top - j_at(col))];
        if (c.rows.size() == 1) // a long unclamped row (npos_max near N) streams for a while
            report_progress(c.progress,
                            0.95 * static_cast<double>(ncols - 1 - col) / static_cast<double>(ncols));
    }
    std::vector<double> dots;
    for (std::int64_t runs = 0; col >= 0; ++runs) {
        if (runs % 1024 == 0)
            check_cancel(c.cancel);
        if (key_dots) {
            out(row, col) = stream.clamped_value((*key_dots)[col]);
            --col;
            continue;
        }
        std::int64_t first = col; // the run of consecutive keys that ends at column col
        while (first > 0 && j_at(first - 1) == j_at(first) - 1)
            --first;
        const std::int64_t a = j_at(first), b = j_at(col) + 1;
        dots.resize(static_cast<std::size_t>(b - a));
        content_key_dots(c.s.content, d, a, b, q.data(), dots.data());
        for (std::int64_t t = first; t <= col; ++t)
            out(row, t) = stream.clamped_value(dots[static_cast<std::size_t>(j_at(t) - a)]);
        col = first - 1;
    }
}

// One query row (a curve, a readout, point samples of one): no limit on the keys streamed.
void cope_row(MatrixJob& c)
{
    c.out.is_signed = c.kind == MatrixKind::Logits;
    cope_row_into(c, 0, cope_position_embeddings(c.s.params<CopeParams>()), nullptr, 0);
    report_progress(c.progress, 1.0);
}

// Point samples of a window wider than kMaxCopeSpan (a heatmap of 10^6 or 10^7 positions with generated
// content): each sampled query's row as cope_row_into makes it, the sampled columns' keys generated once
// and multiplied by every query (one product); exact values at the sampled cells, as the square block
// gives them within its span. A row whose positions are not clamped within kMaxCopeSpan keys is refused.
void cope_clamped_rows(MatrixJob& c)
{
    const CopeParams& p = c.s.params<CopeParams>();
    const int d = p.head_dim;
    const Eigen::MatrixXd pos_emb = cope_position_embeddings(p); // once per job: seeded normals
    const Eigen::MatrixXd dots =
        content_queries(c.s.content, d, c.rows) * content_keys(c.s.content, d, c.cols).transpose();
    c.out.is_signed = c.kind == MatrixKind::Logits;
    for (std::size_t r = 0; r < c.rows.size(); ++r) {
        check_cancel(c.cancel);
        const Eigen::VectorXd row_dots = dots.row(static_cast<Eigen::Index>(r)).transpose();
        cope_row_into(c, r, pos_emb, &row_dots, kMaxCopeSpan);
        report_progress(c.progress, static_cast<double>(r + 1) / static_cast<double>(c.rows.size()));
    }
}

// CoPE's constant-content closed form for a scenario's content and tables.
CopeConstantContent cope_constant_of(const Scenario& s)
{
    const CopeParams& p = s.params<CopeParams>();
    return cope_constant_content(content_query(s.content, p.head_dim, 0),
                                 content_key(s.content, p.head_dim, 0), cope_position_embeddings(p),
                                 p.gate_scale);
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
        // Linear runs between changes of floor(p): O(npos_max + blocks) whatever N, instead of a walk
        // over every offset that sorts (R + 1)(C + 1) block corners.
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
    if (span > kMaxCopeSpan) {
        cope_clamped_rows(c);
        return;
    }
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

// "What am I looking at?" (explanation.h).
ExplanationText cope_explanation(const Scenario& s, MatrixKind k)
{
    if (k == MatrixKind::Weights)
        return weights_explanation();
    if (k == kCopeGates)
        return ExplanationText().add(QT_TRANSLATE_NOOP(
            "Explanation",
            "Each cell is the gate sigmoid(q_i · k_j / √d), between 0 and 1: how much key j counts "
            "when query i counts positions. With the same vector everywhere all gates are equal."));
    if (k == kCopePositions)
        return ExplanationText().add(
            QT_TRANSLATE_NOOP(
                "Explanation",
                "Each cell is the contextual position p_ij: the sum of the gates from key j up to the "
                "query i, so position is counted in gates, not in tokens. It grows away from the "
                "diagonal and stops at %1 (npos_max − 1); keys after the query are masked."),
            {s.params<CopeParams>().npos_max - 1});
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "The logit is q_i · k_j / √d plus a position term read between the embeddings at floor(p_ij) "
        "and ceil(p_ij), where p_ij is the contextual position (the sum of the gates from j to i)."));
}

// Contextual positions over random content (Golovneva et al. 2024).
std::vector<GalleryFigureSpec> cope_gallery()
{
    return {{.stem = "cope-positions",
             .caption = QT_TRANSLATE_NOOP(
                 "Gallery", "CoPE contextual positions p_ij = Σ_{t=j..i} σ(qᵢ·k_t), seeded random "
                            "content (Golovneva et al. 2024)"),
             .scenario =
                 [] {
                     Scenario s = gallery_defaults(Method::CoPE);
                     s.seq_len = 96;
                     s.content.kind = ContentKind::Random;
                     return s;
                 },
             .matrix_kind = kCopePositions,
             .pixels = 512}};
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
        head_dim_field(&P::head_dim,
                       QT_TRANSLATE_NOOP("ParamSpec", "Dimension of queries, keys and position embeddings.")),
        make_field(
            "npos_max", FieldType::Int, &P::npos_max,
            {.lo = 1,
             .hi = 1e6,
             .log_scale = true,
             .label = QT_TRANSLATE_NOOP("ParamSpec", "Max positions"),
             .tooltip = QT_TRANSLATE_NOOP(
                 "ParamSpec",
                 "npos_max: number of position embeddings; contextual positions beyond it are clamped.")}),
        make_field("gate_scale", FieldType::Real, &P::gate_scale,
                   {.lo = -100,
                    .hi = 100,
                    .decimals = 2,
                    .step = 0.1,
                    .label = QT_TRANSLATE_NOOP("ParamSpec", "Gate scale"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "ParamSpec", "Multiplies q·k inside the gate sigmoid (1 = the paper): larger values "
                                     "make gates closer to 0/1, so positions count tokens more sharply.")}),
        seed_field(&P::seed, QT_TRANSLATE_NOOP("ParamSpec", "Embedding seed"),
                   QT_TRANSLATE_NOOP("ParamSpec", "Seed of the position embeddings.")),
        initializer_range_field(&P::stddev),
    };
    add_table_fields(
        d.fields, table_fields(
                      "pos_emb", &P::pos_emb, &P::pos_emb_tensor,
                      QT_TRANSLATE_NOOP("ParamSpec", "position embeddings table"),
                      QT_TRANSLATE_NOOP("ParamSpec",
                                        "CoPE's position embeddings e[0..npos_max-1] from a file: npos_max x "
                                        "head_dim, row r = e[r] (the reference stores pos_emb as 1 x "
                                        "head_dim x npos_max: transpose it). Overrides the seeded table."),
                      [](const Scenario& s) { return cope_pos_emb_shape(s.params<P>()); },
                      [](Scenario& s, std::int64_t rows, std::int64_t cols) {
                          s.params<P>().npos_max =
                              static_cast<int>(std::clamp<std::int64_t>(rows, 1, 1'000'000));
                          s.params<P>().head_dim = static_cast<int>(std::clamp<std::int64_t>(cols, 1, 4096));
                      }));
    show_seed_while_a_table_is_seeded(d.fields);
    d.check = [](const Scenario& s) { check_method_tables(descriptor(Method::CoPE), s); };
    // Sigmoid gates of running sums: nonlinear in the content, so exact block means only where every
    // quantity is a function of i - j (position-independent content, cope_constant).
    d.kinds = {
        {kCopePositions, QT_TRANSLATE_NOOP("MatrixKind", "contextual positions"),
         QT_TRANSLATE_NOOP("MatrixLabel", "contextual position p_ij"), cope_matrix,
         block_means_with_constant_content, /*one_signed=*/true}, // sums of gates
        logits_kind(cope_matrix, block_means_with_constant_content),
        {kCopeGates, QT_TRANSLATE_NOOP("MatrixKind", "gates"),
         QT_TRANSLATE_NOOP("MatrixLabel", "gate sigmoid(q_i . k_j)"), cope_matrix,
         block_means_with_constant_content, /*one_signed=*/true}, // in (0, 1)
    };
    d.content_dim = [](const Scenario& s) { return s.params<P>().head_dim; };
    d.distance_logits = [](const Scenario& s, std::int64_t, Precision) -> MethodDescriptor::DistanceLogitsFn {
        return [f = cope_constant_of(s)](std::int64_t first, std::int64_t last, double* out) {
            for (std::int64_t delta = first; delta < last; ++delta)
                out[delta - first] = f.at(CopeQuantity::Logits, delta);
        };
    };
    d.streamed_distance_logits = [](const Scenario& scenario,
                                    std::int64_t query) -> MethodDescriptor::DistanceLogitsFn {
        // The row's keys as compute_matrix reads them (files resolved once), streamed from the query down.
        auto s = std::make_shared<Scenario>(scenario);
        if (s->content.from_files())
            resolve_content_files(s->content);
        auto stream = std::make_shared<std::optional<CopeRowStream>>();
        auto scratch = std::make_shared<std::vector<double>>();
        const auto start = [s, query, stream] {
            const CopeParams& cp = s->params<P>();
            // key_dots_between refers to s->content, which the evaluator keeps alive through `s`.
            stream->emplace(content_query(s->content, cp.head_dim, query), query,
                            key_dots_between(s->content, cp.head_dim), cope_position_embeddings(cp),
                            cp.gate_scale, CopeQuantity::Logits);
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
    d.caption_fields = {{"head_dim", QT_TRANSLATE_NOOP("Caption", "d %1")},
                        {"npos_max", QT_TRANSLATE_NOOP("Caption", "npos %1")}};
    d.explain = cope_explanation;
    d.gallery = cope_gallery();
    return d;
}

} // namespace posatlas
