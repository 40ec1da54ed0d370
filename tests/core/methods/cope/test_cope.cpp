// SPDX-License-Identifier: GPL-3.0-or-later
// CoPE, Golovneva et al. 2024 (arXiv 2405.18719), the paper's Python listing (CoPE + SelfAttn).
#include "compute/attention_logits.h"
#include "methods/cope/cope.h"
#include "methods/cope/cope_method.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/types.h"

#include "block_mean_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace posatlas;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// CoPE over n positions of seeded random content.
Scenario random_cope(std::int64_t n, std::uint64_t seed)
{
    Scenario s;
    s.method = Method::CoPE;
    s.seq_len = n;
    s.content.kind = ContentKind::Random;
    s.content.seed = seed;
    return s;
}

// The reference for CoPE's rows: the stream's row for the keys lo .. i (the query at i) as one vector,
// entry t at key lo + t, every key's gate summed (no clamp shortcut).
std::vector<double> cope_streamed_row(const Eigen::VectorXd& q, std::int64_t lo, std::int64_t i,
                                      const CopeRowStream::KeyDotsFn& dots, const Eigen::MatrixXd& pos_emb,
                                      double gate_scale, CopeQuantity what)
{
    if (lo < 0 || lo > i)
        throw std::invalid_argument("cope_streamed_row: 0 <= lo <= i");
    CopeRowStream stream(q, i, dots, pos_emb, gate_scale, what);
    std::vector<double> down(static_cast<std::size_t>(i - lo + 1)); // nearest the query first
    stream.next(i - lo + 1, down.data());
    return {down.rbegin(), down.rend()};
}

// q . k_j of a scenario's keys, as CopeRowStream asks for them.
CopeRowStream::KeyDotsFn key_dots_of(const Scenario& s)
{
    return [&s](std::int64_t a, std::int64_t b, const Eigen::VectorXd& q, double* out) {
        content_key_dots(s.content, static_cast<int>(q.size()), a, b, q.data(), out);
    };
}

TEST(Cope, HandComputedZeroLogits)
{
    // k = 0 makes every logit 0, so every unmasked gate is sigmoid(0) = 1/2 and the positions are
    // p_ij = (i - j + 1) / 2, clamped to npos_max - 1 = 1. With e[0] = (1, 2), e[1] = (3, 4):
    // z(q0) = (1, 3), z(q1) = (2, 4), z(q2) = (3, 7); p = 1/2 interpolates halfway.
    Eigen::MatrixXd q(3, 2), k = Eigen::MatrixXd::Zero(3, 2), e(2, 2);
    q << 1, 0, 0, 1, 1, 1;
    e << 1, 2, 3, 4;
    const CopeResult r = cope_attention(q, k, e, 1.0);
    Eigen::MatrixXd gates(3, 3), pos(3, 3), logits(3, 3);
    gates << 0.5, 0, 0, 0.5, 0.5, 0, 0.5, 0.5, 0.5;
    pos << 0.5, 0, 0, 1.0, 0.5, 0, 1.0, 1.0, 0.5; // row 2: 1.5 clamps to 1
    logits << 2, -kInf, -kInf, 4, 3, -kInf, 7, 7, 5;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            EXPECT_DOUBLE_EQ(r.gates(i, j), gates(i, j)) << i << "," << j;
            EXPECT_DOUBLE_EQ(r.positions(i, j), pos(i, j)) << i << "," << j;
            EXPECT_DOUBLE_EQ(r.logits(i, j), logits(i, j)) << i << "," << j; // exact binary values
        }
    }
}

TEST(Cope, MatchesPythonPortOfTheListing)
{
    // Values from a pure-python3 port of the listing (attn_logits = q k^T / sqrt(d) + mask.log(),
    // gates = sigmoid, reverse cumsum, clamp, ceil/floor interpolation), run here.
    Eigen::MatrixXd q(3, 2), k(3, 2), e(3, 2);
    q << 1.0, 0.5, -0.5, 1.0, 0.25, -1.0;
    k << 0.5, 0.5, 1.0, -1.0, -0.75, 0.25;
    e << 0.1, -0.2, 0.3, 0.4, -0.5, 0.6;
    const CopeResult r = cope_attention(q, k, e, 1.0);
    Eigen::MatrixXd g(3, 3), p(3, 3), logits(3, 3);
    g << 0.6295600959696415, 0, 0, 0.544079443349226, 0.25718331522680704, 0, 0.4340944527981844,
        0.7076263259745146, 0.4232711544867083;
    p << 0.6295600959696415, 0, 0, 0.801262758576033, 0.25718331522680704, 0, 1.5649919332594073,
        1.1308974804612228, 0.4232711544867083;
    logits << 0.8451101338747313, -kInf, -kInf, 0.3274080745846534, -1.1820685141664176, -kInf,
        -0.8161618162487181, 0.5065244842986951, -0.31715835173680407;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            // 1e-14 absolute: same operations, possibly different summation order.
            EXPECT_NEAR(r.gates(i, j), g(i, j), 1e-14) << i << "," << j;
            EXPECT_NEAR(r.positions(i, j), p(i, j), 1e-14) << i << "," << j;
            if (std::isinf(logits(i, j))) {
                EXPECT_EQ(r.logits(i, j), logits(i, j));
            } else {
                EXPECT_NEAR(r.logits(i, j), logits(i, j), 1e-14) << i << "," << j;
            }
        }
    }
}

TEST(Cope, NonCausalCountsEveryKeyAndGateScaleSharpens)
{
    Eigen::MatrixXd q = Eigen::MatrixXd::Ones(4, 2), k = Eigen::MatrixXd::Zero(4, 2);
    Eigen::MatrixXd e = Eigen::MatrixXd::Zero(8, 2);
    const CopeResult r = cope_attention(q, k, e, 1.0, false);
    // Without a mask, p_ij = sum_{t=j}^{3} 1/2 = (4 - j) / 2 for every row.
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_DOUBLE_EQ(r.positions(i, j), (4 - j) / 2.0);
    // gate_scale multiplies the logit inside the sigmoid: q.k / sqrt(2) = sqrt(2) for q = k = (1, 1).
    const Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(1, 2);
    const CopeResult s = cope_attention(ones, ones, e, 3.0);
    EXPECT_NEAR(s.gates(0, 0), 1.0 / (1.0 + std::exp(-3.0 * std::sqrt(2.0))), 1e-15);
    EXPECT_THROW(cope_attention(q, Eigen::MatrixXd::Zero(4, 3), e, 1.0), std::invalid_argument);
    try {
        cope_attention(q, k, e, std::nan(""));
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& err) {
        EXPECT_EQ(err.parameter(), "gate_scale");
    }
}

TEST(Cope, SeededPositionEmbeddings)
{
    CopeParams p;
    p.head_dim = 4;
    p.npos_max = 6;
    const Eigen::MatrixXd a = cope_position_embeddings(p);
    EXPECT_EQ(a.rows(), 6);
    EXPECT_EQ(a.cols(), 4);
    EXPECT_TRUE(a.isApprox(cope_position_embeddings(p), 0.0));
    p.npos_max = 0;
    try {
        cope_position_embeddings(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& err) {
        EXPECT_EQ(err.parameter(), "npos_max");
    }
}

// The sampled-rows path (what the heatmap computes: the sampled queries against every key of the
// window) against cope_attention's causal block, row by row, for the three quantities: same gates,
// same reverse sums, so equal to 1e-12 (the two GEMMs may sum in another order); NaN after the query.
TEST(Cope, SampledCausalRowsEqualTheFullBlock)
{
    const Eigen::Index span = 97, d = 6;
    Eigen::MatrixXd q(span, d), k(span, d), e(9, d);
    for (Eigen::Index i = 0; i < span; ++i)
        for (Eigen::Index c = 0; c < d; ++c) {
            q(i, c) = std::sin(0.7 * i + 1.3 * c);
            k(i, c) = std::cos(0.3 * i - 0.9 * c);
        }
    for (Eigen::Index r = 0; r < e.rows(); ++r)
        for (Eigen::Index c = 0; c < d; ++c)
            e(r, c) = 0.1 * (r + 1) * std::sin(static_cast<double>(c + r));
    const CopeResult full = cope_attention(q, k, e, 2.0, true);
    const std::vector<std::int64_t> rows = {0, 5, 50, 96};
    Eigen::MatrixXd qs(static_cast<Eigen::Index>(rows.size()), d);
    for (std::size_t r = 0; r < rows.size(); ++r)
        qs.row(static_cast<Eigen::Index>(r)) = q.row(rows[r]);
    for (CopeQuantity what : {CopeQuantity::Gates, CopeQuantity::Positions, CopeQuantity::Logits}) {
        const CopeMatrix got = cope_causal_rows(qs, k, e, 2.0, rows, what);
        const CopeMatrix& want = what == CopeQuantity::Gates       ? full.gates
                                 : what == CopeQuantity::Positions ? full.positions
                                                                   : full.logits;
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (Eigen::Index j = 0; j < span; ++j) {
                const double g = got(static_cast<Eigen::Index>(r), j);
                if (j > rows[r]) {
                    EXPECT_TRUE(std::isnan(g));
                } else {
                    ASSERT_NEAR(g, want(rows[r], j), 1e-12)
                        << static_cast<int>(what) << " " << rows[r] << ", " << j;
                }
            }
    }
    EXPECT_THROW(cope_causal_rows(qs, k, e, 2.0, {0, 5, 50, 97}, CopeQuantity::Gates), std::invalid_argument);
    // Only some columns (a point-sampled picture): the same values at those keys, NaN after each query.
    const std::vector<std::int64_t> cols = {0, 3, 5, 49, 50, 51, 96};
    for (CopeQuantity what : {CopeQuantity::Gates, CopeQuantity::Positions, CopeQuantity::Logits}) {
        const CopeMatrix got = cope_causal_rows(qs, k, e, 2.0, rows, what, &cols);
        const CopeMatrix& want = what == CopeQuantity::Gates       ? full.gates
                                 : what == CopeQuantity::Positions ? full.positions
                                                                   : full.logits;
        ASSERT_EQ(got.cols(), static_cast<Eigen::Index>(cols.size()));
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (std::size_t c = 0; c < cols.size(); ++c) {
                const double g = got(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
                if (cols[c] > rows[r]) {
                    EXPECT_TRUE(std::isnan(g)) << rows[r] << ", " << cols[c];
                } else {
                    ASSERT_NEAR(g, want(rows[r], cols[c]), 1e-12)
                        << static_cast<int>(what) << " " << rows[r] << ", " << cols[c];
                }
            }
    }
    const std::vector<std::int64_t> unsorted = {5, 3};
    EXPECT_THROW(cope_causal_rows(qs, k, e, 2.0, rows, CopeQuantity::Gates, &unsorted),
                 std::invalid_argument);
}

// The streamed row (a curve's query against every key below it, chunk by chunk) against
// cope_causal_rows's row for the same query over all keys at once (itself checked against the paper's
// full block above). Keys span three chunks plus a part, lo > 0, the clamp at npos_max - 1 is reached
// (gate scale 3: mean gate ~1/2, 45000 keys >> 400 positions) and every quantity. Tolerance 1e-9
// (1 + |value|): the content logit as a product per chunk instead of one product (a few ulps), carried
// through a running sum of up to 45000 gates (45000 * 2^-53 relative) and the interpolation.
TEST(Cope, StreamedRowEqualsTheWholeRow)
{
    const Eigen::Index d = 8, npos = 400;
    const std::int64_t lo = 123, i = lo + 3 * kCopeRowChunk + 777;
    const Eigen::Index span = i - lo + 1;
    Eigen::MatrixXd k(span, d), e(npos, d);
    Eigen::VectorXd q(d);
    for (Eigen::Index c = 0; c < d; ++c)
        q[c] = std::cos(0.4 * c + 0.2);
    for (Eigen::Index t = 0; t < span; ++t)
        for (Eigen::Index c = 0; c < d; ++c)
            k(t, c) = std::sin(0.37 * static_cast<double>(t) * (c + 1) + 0.5 * c);
    for (Eigen::Index r = 0; r < npos; ++r)
        for (Eigen::Index c = 0; c < d; ++c)
            e(r, c) = 0.1 * std::sin(0.05 * static_cast<double>(r * (c + 2)));
    std::int64_t largest_chunk = 0;
    const auto keys = [&](std::int64_t a, std::int64_t b) {
        largest_chunk = std::max(largest_chunk, b - a);
        return Eigen::MatrixXd(k.middleRows(a - lo, b - a));
    };
    for (CopeQuantity what : {CopeQuantity::Gates, CopeQuantity::Positions, CopeQuantity::Logits}) {
        const std::vector<double> got = cope_streamed_row(q, lo, i, key_dots_from(keys), e, 3.0, what);
        const CopeMatrix want = cope_causal_rows(q.transpose(), k, e, 3.0, {span - 1}, what);
        ASSERT_EQ(static_cast<Eigen::Index>(got.size()), span);
        for (Eigen::Index t = 0; t < span; ++t)
            ASSERT_NEAR(got[static_cast<std::size_t>(t)], want(0, t), 1e-9 * (1.0 + std::abs(want(0, t))))
                << static_cast<int>(what) << " key " << lo + t;
        if (what == CopeQuantity::Positions) {
            EXPECT_EQ(got.front(), static_cast<double>(npos - 1)) << "the clamp must be reached";
        }
    }
    EXPECT_EQ(largest_chunk, kCopeRowChunk) << "at most one chunk of keys at a time";
}

// The stream behind cope_streamed_row, asked for in uneven pieces (one key, 100, a chunk and 5, the
// rest): the same values as one call, to 1e-12 (1 + |value|) (the content logits are one product per
// piece, whose rounding may differ by an ulp where the pieces are cut differently); no more keys than
// the query has.
TEST(Cope, RowStreamInPiecesGivesTheSameValues)
{
    const Eigen::Index d = 8, npos = 64;
    const std::int64_t i = 2 * kCopeRowChunk + 300;
    Eigen::MatrixXd k(i + 1, d), e(npos, d);
    Eigen::VectorXd q(d);
    for (Eigen::Index c = 0; c < d; ++c)
        q[c] = std::sin(0.3 * c + 0.1);
    for (Eigen::Index t = 0; t <= i; ++t)
        for (Eigen::Index c = 0; c < d; ++c)
            k(t, c) = std::cos(0.11 * static_cast<double>(t) * (c + 1) - 0.2 * c);
    for (Eigen::Index r = 0; r < npos; ++r)
        for (Eigen::Index c = 0; c < d; ++c)
            e(r, c) = 0.2 * std::cos(0.07 * static_cast<double>(r * (c + 1)));
    const auto keys = [&](std::int64_t a, std::int64_t b) { return Eigen::MatrixXd(k.middleRows(a, b - a)); };
    const std::vector<double> whole =
        cope_streamed_row(q, 0, i, key_dots_from(keys), e, 1.5, CopeQuantity::Logits);
    CopeRowStream stream(q, i, key_dots_from(keys), e, 1.5, CopeQuantity::Logits);
    std::vector<double> pieces;
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{100}, kCopeRowChunk + 5, std::int64_t{0}}) {
        const std::int64_t take = n > 0 ? n : i + 1 - stream.given();
        std::vector<double> part(static_cast<std::size_t>(take));
        stream.next(take, part.data());
        pieces.insert(pieces.end(), part.begin(), part.end());
    }
    ASSERT_EQ(pieces.size(), whole.size());
    for (std::size_t t = 0; t < pieces.size(); ++t)
        ASSERT_NEAR(pieces[t], whole[whole.size() - 1 - t], 1e-12 * (1.0 + std::abs(pieces[t])))
            << "distance " << t;
    double one = 0.0;
    EXPECT_THROW(stream.next(1, &one), std::invalid_argument);
}

// The registry's streamed curve of CoPE with generated content: ranges that follow each other, one that
// starts past 0 (the distances before it streamed and dropped) and one behind the stream (started
// again), each against the cells of compute_matrix's row of the same query (the same arithmetic).
TEST(Cope, StreamedCurveIsTheMatrixRow)
{
    Scenario s = random_cope(40000, 3);
    const std::int64_t query = s.seq_len - 1;
    MatrixWindow w;
    w.row0 = query;
    w.rows = 1;
    const MatrixResult row = compute_matrix(s, MatrixKind::Logits, w);
    const MethodDescriptor& m = descriptor(s.method);
    ASSERT_TRUE(m.streamed_distance_logits);
    const MethodDescriptor::DistanceLogitsFn curve = m.streamed_distance_logits(s, query);
    for (const auto& [first, last] :
         {std::pair<std::int64_t, std::int64_t>{5, 1000}, {1000, 40000}, {0, 10}}) {
        std::vector<double> out(static_cast<std::size_t>(last - first));
        curve(first, last, out.data());
        for (std::int64_t r = first; r < last; ++r) {
            const double want = row.values(0, query - r);
            ASSERT_NEAR(out[static_cast<std::size_t>(r - first)], want, 1e-12 * (1.0 + std::abs(want)))
                << "distance " << r;
        }
    }
}

// A single row of compute_matrix streams from the query only until the positions are clamped at
// npos_max - 1, then evaluates each column from its own key (CopeRowStream::clamped_value). Reference:
// the whole row streamed (cope_streamed_row, every key's gate summed), for every quantity; the row
// dense and point-sampled (600 of 50000 columns), with the clamp reached within a few hundred keys
// (npos_max 64) and late (npos_max 20000: ~40000 keys, so most of the row is streamed). Tolerance
// 1e-12 (1 + |value|): the dot products q . k_j may be summed in another grouping. Planting the clamp
// one position too low (m_max_pos - 1) or using the key above j fails it.
TEST(Cope, ClampedRowsEvaluateEachKeyAlone)
{
    for (const int npos : {64, 20000}) {
        Scenario s = random_cope(50000, 5);
        CopeParams& p = s.params<CopeParams>();
        p.npos_max = npos;
        const std::int64_t query = s.seq_len - 1;
        const int d = p.head_dim;
        const Eigen::VectorXd q = content_query(s.content, d, query);
        const CopeRowStream::KeyDotsFn dots = key_dots_of(s);
        for (const auto& [kind, what] : {std::pair{MatrixKind::Logits, CopeQuantity::Logits},
                                         std::pair{kCopePositions, CopeQuantity::Positions},
                                         std::pair{kCopeGates, CopeQuantity::Gates}}) {
            const std::vector<double> full =
                cope_streamed_row(q, 0, query, dots, cope_position_embeddings(p), p.gate_scale, what);
            if (what == CopeQuantity::Positions) {
                ASSERT_EQ(full.front(), static_cast<double>(npos - 1))
                    << "the clamp must be reached, npos " << npos;
            }
            for (const std::int64_t out_cols : {std::int64_t{0}, std::int64_t{600}}) {
                MatrixWindow w;
                w.row0 = query;
                w.rows = 1;
                w.out_cols = out_cols;
                w.sample = SampleMode::Point;
                const MatrixResult row = compute_matrix(s, kind, w);
                ASSERT_EQ(row.values.cols(), out_cols > 0 ? out_cols : s.seq_len);
                for (Eigen::Index c = 0; c < row.values.cols(); ++c) {
                    const std::int64_t j = out_cols > 0 ? row.col_index[static_cast<std::size_t>(c)] : c;
                    const double want = full[static_cast<std::size_t>(j)];
                    ASSERT_NEAR(row.values(0, c), want, 1e-12 * (1.0 + std::abs(want)))
                        << "npos " << npos << ", quantity " << static_cast<int>(what) << ", key " << j;
                }
            }
        }
    }
    // Not clamped yet: nothing to evaluate alone.
    const Eigen::VectorXd q = Eigen::VectorXd::Ones(4);
    const CopeRowStream fresh(
        q, 10,
        [](std::int64_t a, std::int64_t b, const Eigen::VectorXd&, double* out) {
            std::fill(out, out + (b - a), 0.0);
        },
        Eigen::MatrixXd::Ones(8, 4), 1.0, CopeQuantity::Logits);
    EXPECT_FALSE(fresh.clamped());
    EXPECT_THROW(fresh.clamped_value(0.0), std::invalid_argument);
}

// A point-sampled window wider than the square block allows (a heatmap of 10^5 positions with generated
// content, 40 x 40 samples): every sampled cell equals the cell of its query's whole row streamed
// (cope_streamed_row), for every quantity, 1e-12 (1 + |value|) as above; the masked half is NaN. With
// npos_max so large that no query's positions are clamped within 4096 keys, the window is refused,
// naming seq_len, as before.
TEST(Cope, WideWindowsArePointSampledFromClampedRows)
{
    Scenario s = random_cope(100000, 8);
    const CopeParams& p = s.params<CopeParams>();
    const int d = p.head_dim;
    MatrixWindow w;
    w.out_rows = w.out_cols = 40;
    w.sample = SampleMode::Point;
    const CopeRowStream::KeyDotsFn dots = key_dots_of(s);
    for (const auto& [kind, what] : {std::pair{MatrixKind::Logits, CopeQuantity::Logits},
                                     std::pair{kCopePositions, CopeQuantity::Positions}}) {
        const MatrixResult m = compute_matrix(s, kind, w);
        ASSERT_EQ(m.values.rows(), 40);
        ASSERT_EQ(m.values.cols(), 40);
        int below = 0;
        for (Eigen::Index r = 0; r < 40; ++r) {
            const std::int64_t i = m.row_index[static_cast<std::size_t>(r)];
            const std::vector<double> full = cope_streamed_row(
                content_query(s.content, d, i), 0, i, dots, cope_position_embeddings(p), p.gate_scale, what);
            for (Eigen::Index c = 0; c < 40; ++c) {
                const std::int64_t j = m.col_index[static_cast<std::size_t>(c)];
                if (j > i) {
                    ASSERT_TRUE(std::isnan(m.values(r, c))) << i << ", " << j;
                    continue;
                }
                ++below;
                const double want = full[static_cast<std::size_t>(j)];
                ASSERT_NEAR(m.values(r, c), want, 1e-12 * (1.0 + std::abs(want))) << i << ", " << j;
            }
        }
        EXPECT_GT(below, 700);
    }
    Scenario unclamped = s;
    unclamped.params<CopeParams>().npos_max = 20000; // ~40000 keys to reach: more than 4096
    try {
        compute_matrix(unclamped, MatrixKind::Logits, w);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& err) {
        EXPECT_EQ(err.parameter(), "seq_len");
        EXPECT_NE(std::string(err.what()).find("npos_max"), std::string::npos) << err.what();
    }
}

} // namespace

// Position-independent content (ones, fixed): every gate is the same, and compute_matrix takes the
// closed form p = min((i - j + 1) g, npos_max - 1) of cope_constant_content instead of the running sums.
// Reference: cope_attention on the content's own (repeated) query and key rows, the paper's listing
// step by step. Tolerance: the running sum's rounding, (i - j + 1)^2 2^-53 g <= 300^2 2^-53 < 1e-11,
// times the largest |z_r| for the logits' interpolation; 1e-10 (1 + |value|) covers both. Cases with
// the clamp at npos_max - 1 reached (npos_max 16) and not (400), gate scales that make g near 0, 1/2
// and 1, and every quantity; masked (NaN) exactly above the diagonal.
TEST(Cope, ConstantContentEqualsTheRunningSums)
{
    const int n = 300, d = 8;
    for (ContentKind kind : {ContentKind::Ones, ContentKind::Fixed})
        for (int npos : {16, 400})
            for (double gate_scale : {-3.0, 0.4, 5.0}) {
                Scenario s;
                s.method = Method::CoPE;
                s.seq_len = n;
                s.content.kind = kind;
                s.content.seed = 21;
                CopeParams& p = s.params<CopeParams>();
                p.head_dim = d;
                p.npos_max = npos;
                p.gate_scale = gate_scale;
                std::vector<std::int64_t> pos(n);
                for (int i = 0; i < n; ++i)
                    pos[static_cast<std::size_t>(i)] = i;
                const CopeResult ref =
                    cope_attention(content_queries(s.content, d, pos), content_keys(s.content, d, pos),
                                   cope_position_embeddings(p), gate_scale, true);
                const std::pair<MatrixKind, const CopeMatrix*> kinds[] = {{kCopePositions, &ref.positions},
                                                                          {kCopeGates, &ref.gates},
                                                                          {MatrixKind::Logits, &ref.logits}};
                for (const auto& [mk, want] : kinds) {
                    const std::string what = std::string(matrix_kind_id(mk)) + " content " +
                                             std::to_string(static_cast<int>(kind)) + " npos " +
                                             std::to_string(npos) + " gate scale " +
                                             std::to_string(gate_scale);
                    const MatrixResult got = compute_matrix(s, mk, {});
                    ASSERT_EQ(got.values.rows(), n) << what;
                    for (int i = 0; i < n; ++i)
                        for (int j = 0; j < n; ++j) {
                            const double v = got.values(i, j);
                            if (j > i) {
                                ASSERT_TRUE(std::isnan(v)) << what << " " << i << "," << j;
                                continue;
                            }
                            const double w = (*want)(i, j);
                            ASSERT_NEAR(v, w, 1e-10 * (1.0 + std::abs(w))) << what << " " << i << "," << j;
                        }
                }
            }
}

// With position-independent content the heatmap of 10^6 positions is no longer refused: exact block
// means of a function of i - j. The mean of 2 x 2 blocks equals the mean of the 1 x 1 request's four
// quarters weighted by their unmasked cells (the lower-left quarter full, the diagonal ones half plus
// their diagonal): a wrong block range or count shows. Reference: the 1 x 1 block; 1e-9 relative.
TEST(Cope, ConstantContentHeatmapOfAMillionPositionsIsExactBlockMeans)
{
    Scenario s;
    s.method = Method::CoPE;
    s.seq_len = 1'000'000;
    s.content.kind = ContentKind::Fixed;
    s.params<CopeParams>().head_dim = 16;
    s.params<CopeParams>().npos_max = 64;
    MatrixWindow w;
    w.out_rows = w.out_cols = 2;
    const MatrixResult m2 = compute_matrix(s, MatrixKind::Logits, w);
    ASSERT_EQ(m2.sampling, MatrixSampling::BlockMean);
    EXPECT_TRUE(std::isnan(m2.values(0, 1))) << "the upper-right quarter is wholly masked";
    w.out_rows = w.out_cols = 1;
    const MatrixResult m1 = compute_matrix(s, MatrixKind::Logits, w);
    const double h = 500'000.0;
    const double diag = h * (h + 1.0) / 2.0, full = h * h;
    const double want =
        (m2.values(0, 0) * diag + m2.values(1, 1) * diag + m2.values(1, 0) * full) / (2.0 * diag + full);
    EXPECT_NEAR(m1.values(0, 0), want, 1e-9 * std::abs(want));
    // Random content needs the keys between j and i until the positions are clamped: point samples of
    // clamped rows (checked cell by cell in WideWindowsArePointSampledFromClampedRows), finite on and
    // below the diagonal, NaN above it.
    s.content.kind = ContentKind::Random;
    w.sample = SampleMode::Point;
    w.out_rows = w.out_cols = 64;
    const MatrixResult sampled = compute_matrix(s, MatrixKind::Logits, w);
    for (Eigen::Index r = 0; r < 64; ++r)
        for (Eigen::Index c = 0; c < 64; ++c)
            EXPECT_EQ(std::isfinite(sampled.values(r, c)), sampled.col_index[c] <= sampled.row_index[r])
                << r << ", " << c;
}

// Block means of the constant-content quantities add linear runs between changes of floor(p) in closed
// form (floor_changes, slope). Against brute force over the exact matrix's cells (itself checked against
// the running sums above), for gates near 0 (runs of ~100 offsets), near 1/2 and near 1 (a run per offset),
// the clamp reached within the window and not, uneven blocks of an offset window; 1e-9 of each block's
// mean |cell|.
TEST(Cope, ConstantContentBlockMeansByLinearRuns)
{
    for (double gate_scale : {-40.0, 0.0, 0.3, 30.0})
        for (int npos : {8, 3000})
            for (CopeQuantity q : {CopeQuantity::Logits, CopeQuantity::Positions}) {
                Scenario s;
                s.method = Method::CoPE;
                s.seq_len = 2000;
                s.content.kind = ContentKind::Fixed;
                s.content.seed = 4;
                s.params<CopeParams>().head_dim = 16;
                s.params<CopeParams>().npos_max = npos;
                s.params<CopeParams>().gate_scale = gate_scale;
                const MatrixKind kind = q == CopeQuantity::Logits ? MatrixKind::Logits : kCopePositions;
                const std::string what = "gate scale " + std::to_string(gate_scale) + " npos " +
                                         std::to_string(npos) + " " + std::string(matrix_kind_id(kind));
                MatrixWindow w;
                w.row0 = 300;
                w.rows = 1700;
                w.col0 = 100;
                w.cols = 1500;
                w.out_rows = 37;
                w.out_cols = 41;
                test::expect_block_means_exact(s, kind, w, what);
            }
}
