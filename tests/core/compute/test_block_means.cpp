// SPDX-License-Identifier: GPL-3.0-or-later
// Exact block means of downsampled matrices (block_means.h, MatrixWindow::sample = BlockMean) and the
// single-precision product (gemm.h).
// Reference: brute force. The full matrix is computed cell by cell on the exact (not downsampled)
// path, whose cells are checked against the per-method kernels in test_attention_logits.cpp, and each
// block's mean is summed in long double over the same block's finite cells. Tolerance: 1e-9 of the
// block's own mean |cell| (block_mean_reference.h; double arithmetic, the block sums reorder O(N^2) terms).
// The same comparison at the edges of every method's parameters: test_block_means_extreme.cpp.
#include "compute/attention_logits.h"
#include "compute/block_means.h"
#include "methods/cope/cope_method.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "methods/t5/t5_buckets.h"
#include "methods/xpos/xpos.h"
#include "scenario/content.h"

#include "block_mean_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <ostream>
#include <string>

namespace {

using namespace posatlas;
using posatlas::test::expect_block_means_exact;

TEST(BlockBoundaries, ContiguousBlocksWhoseSizesDifferByAtMostOne)
{
    // 10 positions into 3 blocks: [0, 3), [3, 6), [6, 10) (floor(r * 10 / 3)).
    EXPECT_EQ(block_boundaries(0, 10, 3), (std::vector<std::int64_t>{0, 3, 6, 10}));
    EXPECT_EQ(block_boundaries(5, 4, 4), (std::vector<std::int64_t>{5, 6, 7, 8, 9}));
    const auto b = block_boundaries(17, 1000, 64);
    EXPECT_EQ(b.front(), 17);
    EXPECT_EQ(b.back(), 1017);
    for (std::size_t r = 0; r + 1 < b.size(); ++r) {
        EXPECT_GE(b[r + 1] - b[r], 15); // 1000 / 64 = 15.6
        EXPECT_LE(b[r + 1] - b[r], 16);
    }
}

TEST(BlockBoundaries, DirichletSumEqualsTheGeometricSeries)
{
    // Reference: the direct sum of e^{i m w}, m = a .. a + n - 1. Tolerance: n terms, each with an
    // angle error of up to |m w| 2^-53 in either evaluation, plus the naive summation's bound
    // n^2 2^-53 (Higham eq. 4.4): n (2^-51 (a + n) w) + n^2 2^-52.
    for (double w : {1.0, 0.3, 1e-4, 1e-9, 2.5})
        for (std::int64_t a : {0, 7, 100000})
            for (std::int64_t n : {1, 2, 13, 1000}) {
                std::complex<double> direct = 0.0;
                for (std::int64_t m = a; m < a + n; ++m)
                    direct += std::polar(1.0, static_cast<double>(m) * w);
                const double tol =
                    static_cast<double>(n) * (std::ldexp(1.0, -51) * static_cast<double>(a + n) * w) +
                    static_cast<double>(n * n) * std::ldexp(1.0, -52);
                EXPECT_LT(std::abs(dirichlet_sum(w, a, n) - direct), tol)
                    << "w " << w << " a " << a << " n " << n;
            }
}

TEST(BlockBoundaries, OffsetBlockSumsEqualTheDirectSums)
{
    // f(o) = sin(0.37 o) + 0.01 o: any function of i - j; blocks of uneven size, masked and not.
    // Reference: direct double loops. Tolerance 1e-9 absolute (sums of a few hundred O(1) terms).
    const auto f = [](std::int64_t o) {
        return std::sin(0.37 * static_cast<double>(o)) + 0.01 * static_cast<double>(o);
    };
    const auto rb = block_boundaries(3, 50, 7), cb = block_boundaries(20, 41, 5);
    for (bool causal : {false, true}) {
        const OffsetBlockSums o = offset_block_sums(rb, cb, f, causal);
        for (std::size_t r = 0; r + 1 < rb.size(); ++r)
            for (std::size_t s = 0; s + 1 < cb.size(); ++s) {
                double sum = 0.0, count = 0.0;
                for (std::int64_t i = rb[r]; i < rb[r + 1]; ++i)
                    for (std::int64_t j = cb[s]; j < cb[s + 1]; ++j)
                        if (!causal || j <= i) {
                            sum += f(i - j);
                            count += 1.0;
                        }
                EXPECT_NEAR(o.sums(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(s)), sum, 1e-9);
                EXPECT_EQ(o.counts(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(s)), count);
            }
    }
}

// ------------------------------------------------------------------ every exact method and kind

struct Case {
    std::string name;
    Method method;
    MatrixKind kind;
    ContentKind content;
    bool causal = false; // ALiBi causal / T5 decoder
};

// ctest shows the case's name, not the bytes of the struct.
void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.name;
}

Scenario scenario_for(const Case& k, std::int64_t n)
{
    Scenario s;
    s.method = k.method;
    s.seq_len = n;
    s.content.kind = k.content;
    s.content.seed = 11;
    s.params<RopeParams>().head_dim = 64;
    s.params<SinusoidalParams>().dim = 64;
    s.params<LearnedParams>().dim = 32;
    s.params<LearnedParams>().trained_length =
        1500; // positions 1500 .. N - 1 have no embedding: masked blocks
    s.params<ShawParams>().head_dim = 32;
    s.params<ShawParams>().max_relative_position = 40;
    s.params<TransformerXLParams>().head_dim = 16;
    s.params<DebertaParams>().head_dim = 32;
    s.params<AlibiParams>().bias = k.causal ? AlibiBias::Causal : AlibiBias::Symmetric;
    s.params<T5Params>().bidirectional = !k.causal;
    s.params<XposParams>().causal = k.causal;
    s.head = 2;
    return s;
}

std::vector<Case> exact_cases()
{
    std::vector<Case> cases;
    const std::pair<ContentKind, const char*> contents[] = {{ContentKind::Ones, "ones"},
                                                            {ContentKind::Zero, "zero"},
                                                            {ContentKind::Fixed, "fixed"},
                                                            {ContentKind::Random, "random"}};
    for (const auto& [content, cname] : contents) {
        const std::string c = cname;
        cases.push_back({"rope_" + c, Method::RoPE, MatrixKind::Logits, content});
        cases.push_back({"sinusoidal_" + c, Method::Sinusoidal, MatrixKind::Logits, content});
        cases.push_back({"learned_" + c, Method::Learned, MatrixKind::Logits, content});
        cases.push_back({"alibi_causal_" + c, Method::ALiBi, MatrixKind::Logits, content, true});
        cases.push_back({"alibi_symmetric_" + c, Method::ALiBi, MatrixKind::Logits, content});
        cases.push_back({"t5_causal_" + c, Method::T5, MatrixKind::Logits, content, true});
        cases.push_back({"t5_" + c, Method::T5, MatrixKind::Logits, content});
        cases.push_back(
            {"txl_" + c, Method::TransformerXL, MatrixKind::Logits, content}); // bilinear: any content
        if (content != ContentKind::Random) {
            cases.push_back({"shaw_" + c, Method::Shaw, MatrixKind::Logits, content});
            cases.push_back({"deberta_" + c, Method::DeBERTa, MatrixKind::Logits, content});
            // causal: the geometric series in closed form; not causal: the walk over every offset
            cases.push_back({"xpos_causal_" + c, kXPos, MatrixKind::Logits, content, true});
            cases.push_back({"xpos_" + c, kXPos, MatrixKind::Logits, content});
            // a function of i - j for position-independent content (cope_constant_content)
            cases.push_back({"cope_causal_" + c, Method::CoPE, MatrixKind::Logits, content, true});
            cases.push_back({"cope_positions_causal_" + c, Method::CoPE, kCopePositions, content, true});
        }
    }
    cases.push_back({"alibi_bias_causal", Method::ALiBi, MatrixKind::Bias, ContentKind::Ones, true});
    cases.push_back({"t5_bias", Method::T5, MatrixKind::Bias, ContentKind::Ones});
    cases.push_back({"t5_bias_causal", Method::T5, MatrixKind::Bias, ContentKind::Ones, true});
    cases.push_back({"sinusoidal_encoding", Method::Sinusoidal, MatrixKind::Encoding, ContentKind::Ones});
    cases.push_back({"learned_encoding", Method::Learned, MatrixKind::Encoding, ContentKind::Ones});
    return cases;
}

class BlockMeans : public ::testing::TestWithParam<Case>
{
};

TEST_P(BlockMeans, EqualBruteForceMeansOverTheSameBlocks_4096Into64)
{
    const Case& k = GetParam();
    const Scenario s = scenario_for(k, 4096);
    MatrixWindow w;
    w.out_rows = 64;
    w.out_cols = k.kind == MatrixKind::Encoding ? 16 : 64;
    const int nan = expect_block_means_exact(s, k.kind, w, k.name);
    // Masked blocks exist exactly where the mask or the table leaves a block without cells.
    if (k.causal)
        EXPECT_EQ(nan, 64 * 63 / 2) << "blocks strictly above the diagonal"; // equal 64-position blocks
    else if (k.method == Method::Learned && k.kind == MatrixKind::Logits)
        EXPECT_EQ(nan, 64 * 64 - 24 * 24) << "blocks past the table"; // block 23 = [1472, 1536) has rows
    else
        EXPECT_EQ(nan, k.method == Method::Learned ? 40 * 16 : 0);
}

TEST_P(BlockMeans, UnevenBlocksOfAnOffsetWindow)
{
    // 1000 x 1300 cells from (row0, col0) = (700, 150) into 48 x 61 blocks of 20 or 21 rows, 21 or 22
    // columns, so blocks straddle the causal diagonal at every phase.
    const Case& k = GetParam();
    const Scenario s = scenario_for(k, 2048);
    MatrixWindow w;
    w.row0 = 700;
    w.rows = 1000;
    if (k.kind == MatrixKind::Encoding) {
        w.col0 = 3;
        w.cols = 29;
        w.out_cols = 6;
    } else {
        w.col0 = 150;
        w.cols = 1300;
        w.out_cols = 61;
    }
    w.out_rows = 48;
    expect_block_means_exact(s, k.kind, w, k.name);
}

INSTANTIATE_TEST_SUITE_P(EveryExactKind, BlockMeans, ::testing::ValuesIn(exact_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(BlockMeansMatrix, ClaimedExactnessMatchesTheCases)
{
    // Every method x kind x content either is among the brute-force-tested cases above or says Point.
    for (const Case& k : exact_cases())
        EXPECT_TRUE(block_mean_supported(scenario_for(k, 64), k.kind)) << k.name;
    Scenario s = scenario_for({"", Method::Shaw, MatrixKind::Logits, ContentKind::Random}, 64);
    EXPECT_FALSE(block_mean_supported(s, MatrixKind::Logits));
    EXPECT_FALSE(block_mean_supported(s, MatrixKind::Buckets));
    s.method = Method::CoPE;
    EXPECT_FALSE(block_mean_supported(s, MatrixKind::Logits));
}

TEST(BlockMeansMatrix, NonlinearKindsArePointSampledAndSaySo)
{
    Scenario s;
    s.method = Method::T5;
    s.seq_len = 1000;
    MatrixWindow w;
    w.out_rows = w.out_cols = 10;
    const MatrixResult r = compute_matrix(s, MatrixKind::Buckets, w);
    EXPECT_EQ(r.sampling, MatrixSampling::Point);
    EXPECT_EQ(r.row_index[0], 50); // floor(0.5 * 1000 / 10)
    EXPECT_EQ(r.row_block_end[0], 51);
    // Not downsampled: exact.
    w.out_rows = w.out_cols = 0;
    s.seq_len = 10;
    EXPECT_EQ(compute_matrix(s, MatrixKind::Buckets, w).sampling, MatrixSampling::Exact);
}

TEST(BlockMeansMatrix, PointModeKeepsTheOldSamples)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 1000;
    s.params<RopeParams>().head_dim = 16;
    s.content.kind = ContentKind::Fixed;
    const MatrixResult full = compute_matrix(s, MatrixKind::Logits, {});
    MatrixWindow w;
    w.out_rows = 8;
    w.out_cols = 9;
    w.sample = SampleMode::Point;
    const MatrixResult p = compute_matrix(s, MatrixKind::Logits, w);
    EXPECT_EQ(p.sampling, MatrixSampling::Point);
    for (Eigen::Index r = 0; r < 8; ++r)
        for (Eigen::Index c = 0; c < 9; ++c)
            EXPECT_NEAR(p.values(r, c),
                        full.values(p.row_index[static_cast<std::size_t>(r)],
                                    p.col_index[static_cast<std::size_t>(c)]),
                        1e-10);
}

TEST(BlockMeansMatrix, ARowOfBlocksOverATenMillionPositionSequence)
{
    // Blocks of 10^7 / 4 positions: the closed forms make this O(blocks d), whatever the block size,
    // and nothing of size N is allocated. Reference: with equal blocks the mean of the 16 block means
    // is the mean over all 10^14 cells, which the 1 x 1 request computes from one block of 10^7
    // positions (different Dirichlet centres and lengths, so a wrong block range or centre shows).
    // Tolerance 1e-9 relative to the largest block mean.
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 10'000'000;
    s.params<RopeParams>().head_dim = 32;
    s.content.kind = ContentKind::Ones;
    MatrixWindow w;
    w.out_rows = 4;
    w.out_cols = 4;
    const MatrixResult m4 = compute_matrix(s, MatrixKind::Logits, w);
    w.out_rows = w.out_cols = 1;
    const MatrixResult m1 = compute_matrix(s, MatrixKind::Logits, w);
    EXPECT_EQ(m4.sampling, MatrixSampling::BlockMean);
    EXPECT_NEAR(m4.values.mean(), m1.values(0, 0), 1e-9 * std::max(1.0, m4.values.cwiseAbs().maxCoeff()));
}

// ------------------------------------------------------------------ single precision

TEST(SinglePrecision, EveryLogitWithinTheFloatDotProductBound)
{
    // Bound (gemm.h; Higham 2002 eq. 3.5 plus one rounding per factor): |single - double| <=
    // (d + 2) 2^-24 |q_i| |k_j| / sqrt(d) with the rotated q_i, k_j (rotation keeps norms; attention
    // factor 1). Reference: the double result of the same call.
    for (auto pairing : {RopePairing::Interleaved, RopePairing::Half}) {
        Scenario s;
        s.method = Method::RoPE;
        s.seq_len = 700;
        s.params<RopeParams>().head_dim = 128;
        s.params<RopeParams>().pairing = pairing;
        s.content.kind = ContentKind::Random;
        s.content.seed = 3;
        MatrixWindow w;
        const MatrixResult dbl = compute_matrix(s, MatrixKind::Logits, w);
        w.precision = Precision::Single;
        const MatrixResult sgl = compute_matrix(s, MatrixKind::Logits, w);
        const double d = 128.0;
        const double unit = (d + 2.0) * std::ldexp(1.0, -24) / std::sqrt(d);
        std::vector<double> qn(700), kn(700);
        for (std::int64_t p = 0; p < 700; ++p) {
            qn[static_cast<std::size_t>(p)] = content_query(s.content, 128, p).norm();
            kn[static_cast<std::size_t>(p)] = content_key(s.content, 128, p).norm();
        }
        double worst = 0.0;
        for (Eigen::Index j = 0; j < 700; ++j) {
            for (Eigen::Index i = 0; i < 700; ++i) {
                worst = std::max(
                    worst, std::abs(sgl.values(i, j) - dbl.values(i, j)) /
                               (unit * qn[static_cast<std::size_t>(i)] * kn[static_cast<std::size_t>(j)]));
            }
        }
        EXPECT_LE(worst, 1.0);
        EXPECT_GT(worst, 0.0) << "single precision must actually round";
        // What the README quotes: the error relative to max |logit|.
        const double rel = (sgl.values - dbl.values).cwiseAbs().maxCoeff() / dbl.values.cwiseAbs().maxCoeff();
        EXPECT_LT(rel, 1e-5);
    }
}

// A float32 result (MatrixWindow::single_result, `compute matrix --precision single`): RoPE and
// Transformer-XL write SGEMM's result directly; every other kind is its double result rounded once.
// References: the double result of the same call and the bound of the test above; min / max are the
// float values' own extremes.
TEST(SinglePrecision, Float32ResultsKeepTheBoundWithoutTheDoubleArray)
{
    const auto float_window = [](std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols) {
        MatrixWindow w;
        w.row0 = row0;
        w.rows = rows;
        w.col0 = col0;
        w.cols = cols;
        w.precision = Precision::Single;
        w.single_result = true;
        return w;
    };
    for (const Method method : {Method::RoPE, Method::TransformerXL}) {
        Scenario s;
        s.method = method;
        s.seq_len = 600;
        s.content.kind = ContentKind::Random;
        s.content.seed = 9;
        // The square window shares each angle's cos and sin between queries and keys; the other does not.
        for (const auto& [row0, rows, col0, cols] :
             {std::array<std::int64_t, 4>{0, 600, 0, 600}, std::array<std::int64_t, 4>{100, 300, 7, 411}}) {
            const MatrixWindow fw = float_window(row0, rows, col0, cols);
            MatrixWindow dw = fw;
            dw.precision = Precision::Double;
            dw.single_result = false;
            const MatrixResult dbl = compute_matrix(s, MatrixKind::Logits, dw);
            const MatrixResult flt = compute_matrix(s, MatrixKind::Logits, fw);
            ASSERT_TRUE(flt.single());
            EXPECT_EQ(flt.values.size(), 0) << "no double array beside the float one";
            ASSERT_EQ(flt.values_f.rows(), rows);
            ASSERT_EQ(flt.values_f.cols(), cols);
            EXPECT_EQ(flt.rows(), rows);
            EXPECT_EQ(flt.cols(), cols);
            // Every cell within 1e-5 of max |logit| of the double one (the test above checks RoPE's
            // per-cell bound; the README quotes 4.7e-7 of max |logit| measured).
            const double scale = dbl.values.cwiseAbs().maxCoeff();
            double worst = 0.0;
            for (Eigen::Index c = 0; c < cols; ++c)
                for (Eigen::Index r = 0; r < rows; ++r)
                    worst = std::max(worst, std::abs(flt.at(r, c) - dbl.values(r, c)));
            EXPECT_LT(worst, 1e-5 * scale) << method.id() << " window at " << row0 << ", " << col0;
            EXPECT_GT(worst, 0.0) << "float32 must actually round";
            EXPECT_EQ(flt.min, static_cast<double>(flt.values_f.minCoeff()));
            EXPECT_EQ(flt.max, static_cast<double>(flt.values_f.maxCoeff()));
        }
    }
    // A kind computed in double (causal ALiBi bias, NaN above the diagonal): exactly its double values
    // rounded to float32, NaN where they are NaN.
    Scenario a;
    a.method = Method::ALiBi;
    a.seq_len = 300;
    a.causal = true;
    MatrixWindow w;
    const MatrixResult dbl = compute_matrix(a, MatrixKind::Bias, w);
    w.precision = Precision::Single;
    w.single_result = true;
    const MatrixResult flt = compute_matrix(a, MatrixKind::Bias, w);
    ASSERT_TRUE(flt.single());
    for (Eigen::Index c = 0; c < 300; ++c)
        for (Eigen::Index r = 0; r < 300; ++r) {
            if (std::isnan(dbl.values(r, c)))
                EXPECT_TRUE(std::isnan(flt.values_f(r, c))) << r << ", " << c;
            else
                EXPECT_EQ(flt.values_f(r, c), static_cast<float>(dbl.values(r, c))) << r << ", " << c;
        }
    // A float32 result needs single arithmetic: asked with double, the call names the parameter.
    MatrixWindow bad;
    bad.single_result = true;
    try {
        compute_matrix(a, MatrixKind::Bias, bad);
        ADD_FAILURE() << "single_result with double precision was accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "precision");
    }
}

} // namespace

// Piecewise-constant offset functions (T5's bias): each run added in closed form must give the same block
// sums as the walk over every offset, causal or not, with runs that start before, inside and after the
// reachable offsets. Tolerance 1e-12 relative to the block's sum of |f| (both accumulate in long double).
TEST(OffsetBlockSums, ClosedFormRunsEqualTheWalkOverEveryOffset)
{
    const std::vector<std::int64_t> rb = block_boundaries(0, 3001, 37);
    const std::vector<std::int64_t> cb = block_boundaries(0, 3001, 29);
    // Runs change at these offsets (some outside [-3000, 3000], one at 0 and one at 1).
    const std::vector<std::int64_t> changes = {-5000, -2999, -700, -3, 0, 1, 2, 64, 65, 1999, 2500, 9000};
    const auto f = [&](std::int64_t o) {
        const auto run = std::upper_bound(changes.begin(), changes.end(), o) - changes.begin();
        return std::sin(1.7 * static_cast<double>(run)) * 10.0 + 0.25 * static_cast<double>(run);
    };
    for (bool causal : {false, true}) {
        const OffsetBlockSums walk = offset_block_sums(rb, cb, f, causal);
        const OffsetRuns pieces{changes, {}};
        const OffsetBlockSums runs = offset_block_sums(rb, cb, f, causal, {}, &pieces);
        ASSERT_EQ(runs.sums.rows(), 37);
        ASSERT_EQ(runs.sums.cols(), 29);
        for (Eigen::Index s = 0; s < 29; ++s)
            for (Eigen::Index r = 0; r < 37; ++r) {
                EXPECT_EQ(runs.counts(r, s), walk.counts(r, s))
                    << r << ", " << s << (causal ? " causal" : "");
                EXPECT_NEAR(runs.sums(r, s), walk.sums(r, s), 1e-12 * (1.0 + 11.0 * walk.counts(r, s)))
                    << r << ", " << s << (causal ? " causal" : "");
            }
    }
}

TEST(OffsetBlockSums, ChangePointsOfAMonotoneStepFunctionAreFoundExactly)
{
    // T5's buckets against offset i - j at 32 bidirectional buckets, max distance 128: every offset where
    // the bucket changes, against a scan of every offset.
    T5Params p;
    const T5Bucketer bucket(p);
    const auto g = [&](std::int64_t delta) { return std::int64_t{bucket(-delta)}; };
    const std::vector<std::int64_t> found = monotone_change_points(g, -100000, 100000);
    std::vector<std::int64_t> scanned;
    for (std::int64_t o = -99999; o <= 100000; ++o)
        if (g(o) != g(o - 1))
            scanned.push_back(o);
    EXPECT_EQ(found, scanned);
    // Keys after the query use buckets 17..31 (16 would be relative 0), keys before 0..15: 14 + 1 + 15.
    EXPECT_EQ(found.size(), 30u);
    p.bidirectional = false;
    const T5Bucketer causal(p);
    const std::vector<std::int64_t> c =
        monotone_change_points([&](std::int64_t d) { return std::int64_t{causal(-d)}; }, -5000, 5000);
    std::vector<std::int64_t> cs;
    for (std::int64_t o = -4999; o <= 5000; ++o)
        if (causal(-o) != causal(-(o - 1)))
            cs.push_back(o);
    EXPECT_EQ(c, cs);
}

// Piecewise-linear runs (ALiBi's -m |i - j|, and runs of other slopes): the closed form (v k + w k (k-1)/2,
// v k (k+1)/2 + w (k+1) k (k-1)/6) against the walk over every offset. N = 3001 into 37 x 29 blocks, and
// 10^5 into 16 x 16 blocks (the cubic term is ~10^14 there). Tolerance 1e-12 relative to the block sum's
// magnitude (both accumulate in long double).
TEST(OffsetBlockSums, ClosedFormLinearRunsEqualTheWalkOverEveryOffset)
{
    const std::vector<std::int64_t> changes = {-2000, -1, 0, 1, 17, 900};
    const auto slope = [&](std::int64_t start) {
        return start < 0 ? 0.125 : start == 0 ? -0.5 : start == 1 ? -0.03125 : -0.75;
    };
    // f continuous or not at the changes; within a run f(a + t) = f(a) + slope(a) t exactly.
    const auto f = [&](std::int64_t o) {
        const auto it = std::upper_bound(changes.begin(), changes.end(), o);
        const std::int64_t start = it == changes.begin() ? std::int64_t{-1'000'000} : *(it - 1);
        const double base = it == changes.begin() ? 3.0 : static_cast<double>(it - changes.begin());
        return base + slope(start) * static_cast<double>(o - start);
    };
    const OffsetRuns runs{changes, slope};
    for (const auto& [n, blocks] : {std::pair<std::int64_t, std::int64_t>{3001, 37}, {100000, 16}})
        for (bool causal : {false, true}) {
            const std::vector<std::int64_t> rb = block_boundaries(0, n, blocks);
            const std::vector<std::int64_t> cb = block_boundaries(0, n, blocks - 8);
            const OffsetBlockSums walk = offset_block_sums(rb, cb, f, causal);
            const OffsetBlockSums closed = offset_block_sums(rb, cb, f, causal, {}, &runs);
            for (Eigen::Index s = 0; s < walk.sums.cols(); ++s)
                for (Eigen::Index r = 0; r < walk.sums.rows(); ++r) {
                    EXPECT_EQ(closed.counts(r, s), walk.counts(r, s)) << n << ": " << r << ", " << s;
                    const double scale = 1.0 + walk.counts(r, s) * (4.0 + 0.75 * static_cast<double>(n));
                    EXPECT_NEAR(closed.sums(r, s), walk.sums(r, s), 1e-12 * scale)
                        << n << ": " << r << ", " << s << (causal ? " causal" : "");
                }
        }
}
