// SPDX-License-Identifier: GPL-3.0-or-later
// Shaw, Uszkoreit, Vaswani 2018: relative index clip(j - i, -k, k) (eq. 5), logit
// q_i . (k_j + a^K_ij) / sqrt(d) (eq. 4), output sum_j alpha_ij (v_j + a^V_ij) (eq. 3).
#include "methods/shaw/shaw.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace posatlas;

namespace {

TEST(ShawRelativeIndex, ClipsToK)
{
    struct Case {
        std::int64_t i, j;
        int k;
        std::int64_t expected;
    };
    // Hand-computed from eq. (5).
    for (const Case& c :
         {Case{5, 5, 4, 0}, Case{5, 7, 4, 2}, Case{7, 5, 4, -2}, Case{0, 4, 4, 4}, Case{0, 5, 4, 4},
          Case{0, 1000, 4, 4}, Case{1000, 0, 4, -4}, Case{3, 0, 1, -1}, Case{0, 0, 16, 0}}) {
        EXPECT_EQ(shaw_relative_index(c.i, c.j, c.k), c.expected) << c.i << "," << c.j << " k=" << c.k;
    }
}

TEST(ShawTables, LayoutAndSeeding)
{
    ShawParams p;
    p.head_dim = 3;
    p.max_relative_position = 2;
    p.seed = 5;
    const ShawTables t = make_shaw_tables(p);
    EXPECT_EQ(t.k, 2);
    EXPECT_EQ(t.a_key.rows(), 5); // 2k + 1
    EXPECT_EQ(t.a_value.cols(), 3);
    EXPECT_FALSE(t.a_key.isApprox(t.a_value, 1e-3)); // independent streams
    const ShawTables again = make_shaw_tables(p);
    EXPECT_TRUE(t.a_key.isApprox(again.a_key, 0.0));
}

TEST(ShawLogit, Equation4)
{
    ShawParams p;
    p.head_dim = 2;
    p.max_relative_position = 1;
    ShawTables t = make_shaw_tables(p);
    // Replace the seeded tables with hand values: a^K_{-1} = (1, 0), a^K_0 = (0, 1), a^K_1 = (2, 2).
    t.a_key << 1, 0, 0, 1, 2, 2;
    t.a_value << 10, 0, 0, 10, 5, 5;
    Eigen::Vector2d q(1.0, 3.0), k(0.5, -1.0);
    // j - i = +3 clips to +1: q . (k + (2, 2)) / sqrt(2) = (2.5 + 3) / sqrt(2)
    EXPECT_NEAR(shaw_logit(t, q, k, 0, 3), 5.5 / std::sqrt(2.0), 1e-15);
    // j - i = -1: q . (k + (1, 0)) / sqrt(2) = (1.5 - 3) / sqrt(2)
    EXPECT_NEAR(shaw_logit(t, q, k, 4, 3), -1.5 / std::sqrt(2.0), 1e-15);
    EXPECT_NEAR(shaw_position_logit(t, q, 4, 4), 3.0 / std::sqrt(2.0), 1e-15);

    // Eq. (3): weights (0.25, 0.75) over keys 0, 1 for query 1: relatives -1, 0.
    Eigen::Vector2d alpha(0.25, 0.75);
    Eigen::Matrix2d v;
    v << 1, 2, 3, 4;
    const Eigen::VectorXd z = shaw_output(t, alpha, v, 1);
    // 0.25 * ((1,2) + (10,0)) + 0.75 * ((3,4) + (0,10)) = (2.75 + 2.25, 0.5 + 10.5)
    EXPECT_NEAR(z[0], 5.0, 1e-15);
    EXPECT_NEAR(z[1], 11.0, 1e-15);
    EXPECT_THROW(shaw_logit(t, Eigen::Vector3d(1, 2, 3), k, 0, 0), std::invalid_argument);
}

TEST(ShawTables, BadParametersNameTheKey)
{
    ShawParams p;
    p.max_relative_position = 0;
    try {
        make_shaw_tables(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "max_relative_position");
    }
    p.max_relative_position = 1'000'000; // (2e6 + 1) x 4096 exceeds kMaxMatrixElements
    p.head_dim = 4096;
    try {
        make_shaw_tables(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "max_relative_position");
    }
}

} // namespace
