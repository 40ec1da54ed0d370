// SPDX-License-Identifier: GPL-3.0-or-later
// Transformer-XL relative attention, Dai et al. 2019 eq. (3). R_{i-j} reference: a python3 port of
// kimiyoung/transformer-xl pytorch/mem_transformer.py::PositionalEmbedding (inv_freq = 1 /
// 10000^(arange(0, d, 2) / d), [sin | cos]), run here.
#include "compute/attention_logits.h"
#include "methods/transformer_xl/transformer_xl.h"
#include "scenario/content.h"
#include "scenario/params.h"
#include "scenario/types.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include <vector>

using namespace posatlas;

namespace {

TEST(TxlRelativeSinusoid, ConcatenatedSinCosLayout)
{
    const std::vector<double> r7 = {0.6569865987187891, 0.31922465060631494, 0.01508047117005742,
                                    0.7539022543433046, 0.9476790714399449,  0.9998862832288925};
    const std::vector<double> rm2 = {-0.9092974268256817, -0.09269850077872725, -0.0043088560467428125,
                                     -0.4161468365471424, 0.9956942241237399,   0.9999907168366957};
    const Eigen::VectorXd a = txl_relative_sinusoid(6, 10000.0, 7);
    const Eigen::VectorXd b = txl_relative_sinusoid(6, 10000.0, -2);
    for (int k = 0; k < 6; ++k) {
        EXPECT_NEAR(a[k], r7[static_cast<std::size_t>(k)], 1e-15) << k; // angles <= 7 rad: 1e-15 absolute
        EXPECT_NEAR(b[k], rm2[static_cast<std::size_t>(k)], 1e-15) << k;
    }
    EXPECT_THROW(txl_relative_sinusoid(5, 10000.0, 1), ParameterError);
}

TEST(TxlTerms, FourTermsAndTheirSum)
{
    TransformerXLParams p;
    p.head_dim = 4;
    p.stddev = 0.3;
    p.seed = 9;
    const TxlModel m = make_txl_model(p);
    ASSERT_EQ(m.w_k_r.rows(), 4);
    ASSERT_EQ(m.u.size(), 4);
    Eigen::Vector4d q(1.0, -0.5, 2.0, 0.25), k(0.5, 1.5, -1.0, 2.0);
    const std::int64_t i = 12, j = 5;
    const TxlTerms t = txl_logit_terms(m, q, k, i, j);
    const Eigen::VectorXd wr = m.w_k_r * txl_relative_sinusoid(4, 10000.0, i - j);
    // Eq. (3) with the caller's projected q_i and k_j; 1e-14 absolute on O(1) dot products.
    EXPECT_NEAR(t.a, q.dot(k), 1e-14);
    EXPECT_NEAR(t.b, q.dot(wr), 1e-14);
    EXPECT_NEAR(t.c, m.u.dot(k), 1e-14);
    EXPECT_NEAR(t.d, m.v.dot(wr), 1e-14);
    EXPECT_NEAR(t.total(p), t.a + t.b + t.c + t.d, 1e-14);
    p.term_b = false;
    p.term_c = false;
    EXPECT_NEAR(t.total(p), t.a + t.d, 1e-14);
    p.term_a = p.term_d = false;
    EXPECT_EQ(t.total(p), 0.0);
    // Terms (b), (d) depend on i - j only.
    const TxlTerms shifted = txl_logit_terms(m, q, k, i + 100, j + 100);
    EXPECT_NEAR(shifted.b, t.b, 1e-14);
    EXPECT_NEAR(shifted.d, t.d, 1e-14);
    EXPECT_THROW(txl_logit_terms(m, Eigen::Vector3d(1, 2, 3), k, 0, 0), std::invalid_argument);
}

// With random content the matrix is one product of factors (transformer_xl_method.cpp: the
// angle-difference expansion of W_{k,R} R_{i-j}); with fixed content one weighted sinusoid sum per
// offset (sinusoid_sums). Every cell against eq. (3) term by term
// (txl_logit_terms, a sinusoid and a d x e product per cell): exact windows near 0 and near 10^6, a
// point sample of 10^6 positions, each term switched off in turn, and an r_net from a file whose
// R_{i-j} has e = 12 dimensions for head_dim 8. Tolerance 1e-11 absolute: the per-cell reference
// rounds (i - j) w (up to 2^-53 |i - j| rad), the factored path forms each angle exactly.
TEST(TxlMatrix, FactoredLogitsEqualEveryCellsFourTerms)
{
    const std::string r_net =
        (std::filesystem::temp_directory_path() / "posatlas_txl_rnet_test.csv").string();
    {
        std::ofstream f(r_net);
        for (int r = 0; r < 8; ++r)
            for (int col = 0; col < 12; ++col)
                f << (col ? "," : "") << 0.05 * std::sin(1.0 + r * 12 + col) << (col == 11 ? "\n" : "");
    }
    struct Case {
        const char* name;
        std::int64_t row0, col0, rows, cols, out;
        int off; // which term is switched off (0: none, 1..4: a..d), -1: r_net from the file
    };
    const Case cases[] = {{"near 0", 0, 0, 40, 40, 0, 0},
                          {"near 10^6", 999'900, 999'800, 30, 50, 0, 0},
                          {"point sample", 0, 0, 1'000'000, 1'000'000, 24, 0},
                          {"no a", 0, 0, 20, 20, 0, 1},
                          {"no b", 0, 0, 20, 20, 0, 2},
                          {"no c", 0, 0, 20, 20, 0, 3},
                          {"no d", 5, 0, 20, 20, 0, 4},
                          {"r_net e = 12", 100, 90, 20, 20, 0, -1}};
    for (ContentKind kind : {ContentKind::Random, ContentKind::Fixed})
        for (const Case& t : cases) {
            SCOPED_TRACE(std::string(t.name) + (kind == ContentKind::Fixed ? " fixed" : " random"));
            Scenario s;
            s.method = Method::TransformerXL;
            s.seq_len = 1'000'000;
            s.content.kind = kind;
            s.content.seed = 5;
            TransformerXLParams& p = s.params<TransformerXLParams>();
            p.head_dim = 8;
            p.term_a = t.off != 1;
            p.term_b = t.off != 2;
            p.term_c = t.off != 3;
            p.term_d = t.off != 4;
            if (t.off == -1)
                p.r_net = r_net;
            MatrixWindow w;
            w.row0 = t.row0;
            w.col0 = t.col0;
            w.rows = t.rows;
            w.cols = t.cols;
            w.out_rows = t.out ? t.out : t.rows;
            w.out_cols = t.out ? t.out : t.cols;
            w.sample = SampleMode::Point;
            const MatrixResult r = compute_matrix(s, MatrixKind::Logits, w);
            const TxlModel m = make_txl_model(p);
            ASSERT_EQ(m.w_k_r.cols(), t.off == -1 ? 12 : 8);
            for (Eigen::Index i = 0; i < r.values.rows(); ++i)
                for (Eigen::Index j = 0; j < r.values.cols(); ++j) {
                    const std::int64_t qi = r.row_index[static_cast<std::size_t>(i)];
                    const std::int64_t kj = r.col_index[static_cast<std::size_t>(j)];
                    const double want = txl_logit_terms(m, content_query(s.content, 8, qi),
                                                        content_key(s.content, 8, kj), qi, kj)
                                            .total(p) /
                                        std::sqrt(8.0);
                    ASSERT_NEAR(r.values(i, j), want, 1e-11) << qi << ", " << kj;
                }
        }
    std::remove(r_net.c_str());
}

TEST(TxlModel, SeededDeterminism)
{
    TransformerXLParams p;
    p.head_dim = 8;
    const TxlModel a = make_txl_model(p);
    const TxlModel b = make_txl_model(p);
    EXPECT_TRUE(a.w_k_r.isApprox(b.w_k_r, 0.0));
    EXPECT_FALSE(a.u.isApprox(a.v, 1e-3)); // independent streams for u and v
    p.head_dim = 3;
    try {
        make_txl_model(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "head_dim");
    }
}

} // namespace
