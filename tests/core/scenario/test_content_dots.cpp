// SPDX-License-Identifier: GPL-3.0-or-later
// content_key_dots (core/scenario/content.h): q . k_j for a range of keys without the key matrix.
// Reference: content_keys over the same positions times q (the key matrix CoPE's stream multiplied
// before). Tolerance: 1e-12 of sum_c |q_c k_jc| (the two sum the same products in different orders).
#include "scenario/content.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using namespace posatlas;

void expect_dots_of_keys(const ContentParams& c, int dim, std::int64_t a, std::int64_t b)
{
    Eigen::VectorXd q(dim);
    for (int t = 0; t < dim; ++t)
        q[t] = std::cos(0.7 * t + 0.1);
    std::vector<std::int64_t> at;
    for (std::int64_t j = a; j < b; ++j)
        at.push_back(j);
    const Eigen::MatrixXd k = content_keys(c, dim, at);
    std::vector<double> got(static_cast<std::size_t>(b - a) + 1, -7.0);
    content_key_dots(c, dim, a, b, q.data(), got.data());
    for (std::int64_t t = 0; t < b - a; ++t) {
        const double want = k.row(t).dot(q);
        const double scale = (k.row(t).transpose().cwiseProduct(q)).cwiseAbs().sum();
        ASSERT_NEAR(got[static_cast<std::size_t>(t)], want, 1e-12 * scale) << "key " << a + t;
    }
    EXPECT_EQ(got.back(), -7.0) << "wrote past b - a";
}

// Random content over ranges that end inside a block of 64, start far from 0, span many blocks (the
// parallel path), and are empty; constant content (one product); a sentence's tokens.
TEST(ContentKeyDots, EqualTheKeyMatrixTimesTheQuery)
{
    ContentParams random;
    random.kind = ContentKind::Random;
    for (const auto& [a, b] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {0, 1}, {0, 63}, {5, 70}, {1'000'000, 1'000'129}, {3, 20'003}, {9, 9}})
        expect_dots_of_keys(random, 64, a, b);
    expect_dots_of_keys(random, 7, 11, 300); // a width that is not a multiple of the vectors
    for (const ContentKind kind : {ContentKind::Ones, ContentKind::Fixed}) {
        ContentParams constant;
        constant.kind = kind;
        expect_dots_of_keys(constant, 64, 100, 5000);
    }
    ContentParams text;
    text.tokens = {"the", "cat", "sat", "on", "the", "mat"};
    expect_dots_of_keys(text, 32, 0, 200);
}

} // namespace
