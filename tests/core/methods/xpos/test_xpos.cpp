// SPDX-License-Identifier: GPL-3.0-or-later
// xPos against an independent transcription of the reference (microsoft/torchscale,
// torchscale/component/xpos_relative_position.py: XPOS.forward with fixed_pos_embedding, rotate_every_two,
// duplicate_interleave; queries scaled by zeta^(n/gamma), keys by zeta^(-m/gamma), positions centred at
// min_pos = -(length // 2)), and against RoPE as gamma grows.
#include "compute/attention_logits.h"
#include "methods/xpos/xpos.h"
#include "scenario/content.h"

#include "block_mean_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace posatlas;

namespace {

// The reference's steps, for one sequence of `length` positions: returns q'_n and k'_m (rows).
std::pair<Eigen::MatrixXd, Eigen::MatrixXd> torchscale_xpos(const XposParams& p, const Eigen::MatrixXd& q,
                                                            const Eigen::MatrixXd& k)
{
    const int d = p.head_dim, half = d / 2;
    const auto length = q.rows();
    const auto min_pos = -(length / 2);
    Eigen::MatrixXd qo(length, d), ko(length, d);
    for (Eigen::Index n = 0; n < length; ++n) {
        for (int i = 0; i < half; ++i) {
            const double zeta = (2.0 * i + 0.4 * d) / (1.4 * d); // self.scale
            const double scale = std::pow(zeta, static_cast<double>(min_pos + n) / p.scale_base);
            const double inv_freq =
                1.0 / std::pow(p.base, static_cast<double>(i) / half); // fixed_pos_embedding
            const double angle = static_cast<double>(n) * inv_freq;    // sinusoid_inp uses arange(0, seq_len)
            const double c = std::cos(angle), s = std::sin(angle);
            // (x * cos * scale) + (rotate_every_two(x) * sin * scale); keys use 1 / scale (downscale).
            const auto rot = [&](const Eigen::MatrixXd& x, double sc, Eigen::MatrixXd& out) {
                const double x1 = x(n, 2 * i), x2 = x(n, 2 * i + 1);
                out(n, 2 * i) = (x1 * c - x2 * s) * sc;
                out(n, 2 * i + 1) = (x2 * c + x1 * s) * sc;
            };
            rot(q, scale, qo);
            rot(k, 1.0 / scale, ko);
        }
    }
    return {qo, ko};
}

Scenario xpos_scenario(int n, bool causal)
{
    Scenario s;
    s.method = kXPos;
    s.seq_len = n;
    s.content.kind = ContentKind::Random;
    s.content.seed = 3;
    s.params<XposParams>().head_dim = 16;
    s.params<XposParams>().scale_base = 64; // small gamma: a visible decay within 48 positions
    s.params<XposParams>().causal = causal;
    return s;
}

} // namespace

TEST(Xpos, MatchesTheReferenceImplementation)
{
    const int n = 48;
    const Scenario s = xpos_scenario(n, false);
    const XposParams& p = s.params<XposParams>();
    std::vector<std::int64_t> pos(n);
    for (int i = 0; i < n; ++i)
        pos[static_cast<std::size_t>(i)] = i;
    const auto [q, k] = torchscale_xpos(p, content_queries(s.content, p.head_dim, pos),
                                        content_keys(s.content, p.head_dim, pos));
    const Eigen::MatrixXd expected = q * k.transpose() / std::sqrt(16.0);
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    // Tolerance 1e-10 relative to the largest logit: the reference's centred scales and this
    // implementation's zeta^((i - j) / gamma) differ only by rounding.
    const double tol = 1e-10 * expected.cwiseAbs().maxCoeff();
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            ASSERT_NEAR(r.values(i, j), expected(i, j), tol) << i << ", " << j;
}

TEST(Xpos, CausalMasksTheFutureAndDecays)
{
    const Scenario s = xpos_scenario(32, true);
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j)
            EXPECT_EQ(std::isnan(r.values(i, j)), j > i) << i << ", " << j;
    // zeta_p < 1: with constant content the logit's envelope falls with distance (the point of xPos).
    Scenario ones = s;
    ones.content.kind = ContentKind::Ones;
    ones.seq_len = 2048;
    const MatrixResult far = compute_matrix(ones, MatrixKind::Logits, {.row0 = 2047, .rows = 1});
    double near_max = 0.0, far_max = 0.0;
    for (int j = 2047 - 64; j <= 2047; ++j)
        near_max = std::max(near_max, std::abs(far.values(0, j)));
    for (int j = 0; j < 1024; ++j)
        far_max = std::max(far_max, std::abs(far.values(0, j)));
    // Bound: |a_p cos - b_p sin| <= 2 for ones content, so beyond distance 1024 every logit is at most
    // sum_p 2 zeta_p^(1024 / gamma) / sqrt(d); without the decay it would reach the near maximum (4).
    double bound = 0.0;
    for (double z : xpos_zeta(ones.params<XposParams>()))
        bound += 2.0 * std::pow(z, 1024.0 / 64.0);
    bound /= std::sqrt(16.0);
    EXPECT_LE(far_max, bound);
    EXPECT_LT(bound, 0.5 * near_max);
}

TEST(Xpos, LargeScaleBaseIsRope)
{
    // gamma -> infinity: zeta^(delta / gamma) -> 1, and xPos is RoPE with interleaved pairs.
    Scenario x = xpos_scenario(40, false);
    x.params<XposParams>().scale_base = 1e9;
    Scenario r = x;
    r.method = Method::RoPE;
    r.params<RopeParams>().head_dim = 16;
    r.params<RopeParams>().pairing = RopePairing::Interleaved;
    const MatrixResult a = compute_matrix(x, MatrixKind::Logits, {});
    const MatrixResult b = compute_matrix(r, MatrixKind::Logits, {});
    // |1 - zeta^(40 / 1e9)| < 1e-7 for zeta >= 0.28: relative tolerance 1e-6.
    for (Eigen::Index i = 0; i < a.values.size(); ++i)
        ASSERT_NEAR(a.values.data()[i], b.values.data()[i], 1e-6 * (1.0 + std::abs(b.values.data()[i])));
}

// The factors of consecutive offsets come from one step's rotation and decay, restarted exactly every 64
// offsets (xpos.cpp for_each_offset), as a table per offset or per window. Every cell against
// xpos_logit (exp, sin and cos of the cell's own offset): windows near 0 and near 10^6 (a curve's row
// of 3000 keys, and a 40 x 40 window), fixed and random content, causal and not; 1e-12 relative.
TEST(Xpos, OffsetWalkMatchesEveryCellsOwnFactors)
{
    struct Case {
        std::int64_t row0, rows, col0, cols;
    };
    for (ContentKind kind : {ContentKind::Fixed, ContentKind::Random})
        for (bool causal : {true, false})
            for (const Case& w :
                 {Case{2999, 1, 0, 3000}, Case{999'999, 1, 997'000, 3000}, Case{999'900, 40, 999'890, 40}}) {
                SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + (causal ? " causal " : " ") +
                             std::to_string(w.row0));
                Scenario s;
                s.method = kXPos;
                s.seq_len = 1'000'000;
                s.content.kind = kind;
                XposParams& p = s.params<XposParams>();
                p.head_dim = 16;
                p.scale_base = causal ? 512.0 : 1e6; // non-causal: a slow decay, so that j > i stays finite
                p.causal = causal;
                MatrixWindow m;
                m.row0 = w.row0;
                m.rows = w.rows;
                m.col0 = w.col0;
                m.cols = w.cols;
                m.sample = SampleMode::Point;
                const MatrixResult r = compute_matrix(s, MatrixKind::Logits, m);
                int checked = 0;
                for (Eigen::Index i = 0; i < r.values.rows(); ++i)
                    for (Eigen::Index j = 0; j < r.values.cols(); j += 7) {
                        const std::int64_t qi = r.row_index[static_cast<std::size_t>(i)];
                        const std::int64_t kj = r.col_index[static_cast<std::size_t>(j)];
                        if (causal && kj > qi) {
                            EXPECT_TRUE(std::isnan(r.values(i, j)));
                            continue;
                        }
                        const double want = xpos_logit(p, content_query(s.content, 16, qi),
                                                       content_key(s.content, 16, kj), qi, kj);
                        ASSERT_NEAR(r.values(i, j), want, 1e-12 * std::max(1.0, std::abs(want)))
                            << qi << ", " << kj;
                        ++checked;
                    }
                EXPECT_GT(checked, 100);
            }
    // A sparse point sample of 10^6 positions (2 x 10^6 offsets for 32 x 32 cells): each cell's factors
    // are a coarse and a fine table's product, f(a + b) = f(a) f(b); non-causal with a slow decay so
    // that every cell is finite.
    Scenario s;
    s.method = kXPos;
    s.seq_len = 1'000'000;
    s.content.kind = ContentKind::Random;
    XposParams& p = s.params<XposParams>();
    p.head_dim = 16;
    p.scale_base = 1e6;
    p.causal = false;
    MatrixWindow m;
    m.out_rows = m.out_cols = 32;
    m.sample = SampleMode::Point;
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, m);
    for (Eigen::Index i = 0; i < 32; ++i)
        for (Eigen::Index j = 0; j < 32; ++j) {
            const std::int64_t qi = r.row_index[static_cast<std::size_t>(i)],
                               kj = r.col_index[static_cast<std::size_t>(j)];
            const double want =
                xpos_logit(p, content_query(s.content, 16, qi), content_key(s.content, 16, kj), qi, kj);
            ASSERT_NEAR(r.values(i, j), want, 1e-12 * std::max(1.0, std::abs(want))) << qi << ", " << kj;
        }
}

TEST(Xpos, BlockMeansAreMeansOfTheCells)
{
    Scenario s = xpos_scenario(64, true);
    s.content.kind = ContentKind::Ones;
    const MatrixResult exact = compute_matrix(s, MatrixKind::Logits, {});
    const MatrixResult blocks = compute_matrix(s, MatrixKind::Logits, {.out_rows = 8, .out_cols = 8});
    ASSERT_EQ(blocks.sampling, MatrixSampling::BlockMean);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) {
            double sum = 0.0;
            int count = 0;
            for (int i = 8 * r; i < 8 * r + 8; ++i)
                for (int j = 8 * c; j < 8 * c + 8; ++j)
                    if (!std::isnan(exact.values(i, j))) {
                        sum += exact.values(i, j);
                        ++count;
                    }
            if (count == 0)
                EXPECT_TRUE(std::isnan(blocks.values(r, c)));
            else
                EXPECT_NEAR(blocks.values(r, c), sum / count, 1e-10); // summation order only
        }
}

namespace {

// Reference for a block mean of the causal logits with position-independent content, where the logit
// depends on o = i - j alone: sum over the offsets o >= 0 the block reaches of f(o) times the number of
// its cells with that offset (a trapezoid in o), in long double, f from xpos_logit (exp, sin and cos of
// the offset itself, nothing shared with the closed form). Also returns the mean of |cell| over the
// block, the scale that the tolerance is relative to (a block far from the diagonal holds values like
// 1e-80: an error relative to the largest cell of the picture would not see it).
struct BlockRef {
    double mean = std::numeric_limits<double>::quiet_NaN();
    double mean_abs = 0.0;
};
BlockRef offset_reference(const std::vector<double>& f, std::int64_t i0, std::int64_t i1, std::int64_t j0,
                          std::int64_t j1)
{
    long double sum = 0.0L, abs_sum = 0.0L, cells = 0.0L;
    for (std::int64_t o = std::max<std::int64_t>(0, i0 - (j1 - 1)); o <= i1 - 1 - j0; ++o) {
        // Cells (i, i - o) with i in [i0, i1) and i - o in [j0, j1).
        const std::int64_t n = std::min(i1, j1 + o) - std::max(i0, j0 + o);
        if (n <= 0)
            continue;
        const double v = f[static_cast<std::size_t>(o)];
        sum += static_cast<long double>(v) * n;
        abs_sum += static_cast<long double>(std::abs(v)) * n;
        cells += n;
    }
    BlockRef r;
    if (cells > 0) {
        r.mean = static_cast<double>(sum / cells);
        r.mean_abs = static_cast<double>(abs_sum / cells);
    }
    return r;
}

// Checks every block of `w` against offset_reference; tolerance 1e-10 of the block's mean |cell| (plus
// 1e-300 for blocks whose every term underflows). Returns the number of masked (NaN) blocks.
int expect_causal_blocks(const Scenario& s, const MatrixWindow& w, const std::string& what)
{
    const XposParams& p = s.params<XposParams>();
    const int d = p.head_dim;
    const MatrixResult m = compute_matrix(s, MatrixKind::Logits, w);
    EXPECT_EQ(m.sampling, MatrixSampling::BlockMean) << what;
    std::vector<std::int64_t> rb(m.row_index), cb(m.col_index);
    rb.push_back(m.row_block_end.back());
    cb.push_back(m.col_block_end.back());
    const Eigen::VectorXd q = content_query(s.content, d, 0), k = content_key(s.content, d, 0);
    std::vector<double> f(static_cast<std::size_t>(std::max<std::int64_t>(0, rb.back() - cb.front())));
    for (std::size_t o = 0; o < f.size(); ++o)
        f[o] = xpos_logit(p, q, k, static_cast<std::int64_t>(o), 0);
    int nan = 0, bad = 0;
    for (std::size_t r = 0; r + 1 < rb.size(); ++r)
        for (std::size_t c = 0; c + 1 < cb.size(); ++c) {
            const BlockRef ref = offset_reference(f, rb[r], rb[r + 1], cb[c], cb[c + 1]);
            const double got = m.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
            if (std::isnan(ref.mean)) {
                ++nan;
                if (!std::isnan(got) && bad++ < 3)
                    ADD_FAILURE() << what << " block " << r << "," << c << ": want NaN, got " << got;
            } else if (!(std::abs(got - ref.mean) <= 1e-10 * ref.mean_abs + 1e-300) && bad++ < 3) {
                ADD_FAILURE() << what << " block " << r << "," << c << " [" << rb[r] << "," << rb[r + 1]
                              << ") x [" << cb[c] << "," << cb[c + 1] << "): got " << got << " want "
                              << ref.mean << " (mean |cell| " << ref.mean_abs << ")";
            }
        }
    return nan;
}

} // namespace

// Block means with ones / fixed content come from the geometric double series in tiles plus the
// trapezoid identity near the diagonal (xpos.cpp constant_block_means), with the mask and without it
// (then the cells above the diagonal grow as zeta^((i - j) / gamma): up to 1e176 here for gamma 4).
// Against brute force over the same blocks' cells (the exact path, itself checked against xpos_logit
// above) for uneven blocks of offset windows, so that blocks straddle the diagonal at every phase; 1e-9
// of each block's mean |cell| (block_mean_reference.h).
TEST(Xpos, ConstantBlockMeansEqualBruteForce)
{
    for (bool causal : {true, false})
        for (ContentKind kind : {ContentKind::Ones, ContentKind::Fixed})
            for (double gamma : {4.0, 64.0, 512.0})
                for (int d : {16, 64}) {
                    const std::string what = std::string(causal ? "causal" : "no mask") + " content " +
                                             std::to_string(static_cast<int>(kind)) + " gamma " +
                                             std::to_string(gamma) + " d " + std::to_string(d);
                    Scenario s;
                    s.method = kXPos;
                    s.seq_len = 2048;
                    s.content.kind = kind;
                    s.content.seed = 5;
                    s.params<XposParams>().head_dim = d;
                    s.params<XposParams>().scale_base = gamma;
                    s.params<XposParams>().causal = causal;
                    MatrixWindow w;
                    w.row0 = 700;
                    w.rows = 1000;
                    w.col0 = 150;
                    w.cols = 1300;
                    w.out_rows = 48;
                    w.out_cols = 61;
                    const int masked = test::expect_block_means_exact(s, MatrixKind::Logits, w, what);
                    if (!causal) {
                        EXPECT_EQ(masked, 0) << what;
                        continue;
                    }
                    EXPECT_GT(masked, 0) << what; // some blocks lie wholly above the diagonal
                    // The same blocks against the offset reference, relative to each block's own magnitude.
                    expect_causal_blocks(s, w, what);
                }
}

// Long sequences, where the blocks far from the diagonal hold values many orders of magnitude below the
// diagonal's and the fast pairs' factors underflow: 10^6 positions into 40 x 50 blocks and a window of
// 3 x 10^5 positions ending at 10^6 into 37 x 29, every block within 1e-10 of its own mean |cell|
// (offset_reference). gamma 4 makes almost every far term underflow to 0.
TEST(Xpos, CausalConstantBlockMeansOfLongSequences)
{
    for (double gamma : {4.0, 512.0, 1e5}) {
        Scenario s;
        s.method = kXPos;
        s.seq_len = 1'000'000;
        s.content.kind = ContentKind::Fixed;
        s.content.seed = 9;
        s.params<XposParams>().head_dim = 16;
        s.params<XposParams>().scale_base = gamma;
        MatrixWindow w;
        w.out_rows = 40;
        w.out_cols = 50;
        EXPECT_EQ(expect_causal_blocks(s, w, "whole, gamma " + std::to_string(gamma)), 960)
            << "blocks of 25000 rows and 20000 columns: block (r, c) is masked iff 25000 (r + 1) <= 20000 c";
        MatrixWindow z;
        z.row0 = 700'000;
        z.rows = 300'000;
        z.col0 = 650'000;
        z.cols = 310'000;
        z.out_rows = 37;
        z.out_cols = 29;
        expect_causal_blocks(s, z, "window, gamma " + std::to_string(gamma));
    }
}
