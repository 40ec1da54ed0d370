// SPDX-License-Identifier: GPL-3.0-or-later
// The mapping between a sentence and its permutation (scenario/permutation.h), and the permutation
// equivariance it shows (Vaswani et al. 2017, eq. 1): with NoPE and no mask, the attention rows of the
// permuted sentence are the original's rows, permuted as the words and with their columns permuted alike:
// W'(k, l) = W(p[k], p[l]). Tolerance 1e-12: the same q.k products and one softmax in double precision,
// summed in another order (a few roundings of relative size 2^-53 on O(1) values).
#include "compute/attention_logits.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/permutation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace posatlas;

namespace {

using Tokens = std::vector<std::string>;
using Perm = std::vector<std::int64_t>;

Scenario sentence(Method m, const std::string& text, bool causal = false)
{
    Scenario s;
    s.method = m;
    s.content.seed = 5;
    common_field("text")->set(s, text);
    s.causal = causal;
    return s;
}

// Largest |b(k, l) - a(p[k], p[l])| over the cells where both are numbers; infinity when only one is.
double permuted_difference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const Perm& p)
{
    double largest = 0.0;
    for (Eigen::Index k = 0; k < b.rows(); ++k)
        for (Eigen::Index l = 0; l < b.cols(); ++l) {
            const double x = a(p[static_cast<std::size_t>(k)], p[static_cast<std::size_t>(l)]), y = b(k, l);
            if (std::isnan(x) != std::isnan(y))
                return INFINITY;
            if (!std::isnan(x))
                largest = std::max(largest, std::abs(x - y));
        }
    return largest;
}

} // namespace

TEST(TokenPermutation, MatchesEachTokenOfThePermutationToItsPlaceInTheSentence)
{
    const auto p = token_permutation({"the", "dog", "bit", "a", "man"}, {"a", "man", "bit", "the", "dog"});
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(*p, (Perm{3, 4, 2, 0, 1}));
    EXPECT_EQ(inverse_permutation(*p), (Perm{3, 4, 2, 0, 1}));
}

TEST(TokenPermutation, RepeatedWordsAreMatchedInReadingOrder)
{
    // "the" twice: the first "the" of the permutation is the sentence's first, the second its second.
    const Tokens a{"the", "dog", "bit", "the", "man"}, b{"the", "man", "bit", "the", "dog"};
    EXPECT_EQ(token_permutation(a, b), (Perm{0, 4, 2, 3, 1}));
    // 天 twice in 今天天气很好 -> 天气今天很好: the first 天 of the permutation is the sentence's first (1).
    const Scenario s = sentence(kNoPE, "今天天气很好"), t = sentence(kNoPE, "天气今天很好");
    EXPECT_EQ(token_permutation(s.content.tokens, t.content.tokens), (Perm{1, 3, 0, 2, 4, 5}));
    const auto moves = token_moves(t.content.tokens, Perm{1, 3, 0, 2, 4, 5});
    ASSERT_EQ(moves.size(), 4u);
    EXPECT_EQ(moves[0], (TokenMove{"今", 0, 2}));
    EXPECT_EQ(moves[1], (TokenMove{"天", 1, 0}));
    EXPECT_EQ(moves[2], (TokenMove{"天", 2, 3}));
    EXPECT_EQ(moves[3], (TokenMove{"气", 3, 1}));
    // The same sentence: the identity, nothing moved.
    EXPECT_EQ(token_permutation(a, a), (Perm{0, 1, 2, 3, 4}));
    EXPECT_TRUE(token_moves(a, Perm{0, 1, 2, 3, 4}).empty());
}

TEST(TokenPermutation, OtherWordsOrCountsAreNoPermutation)
{
    EXPECT_FALSE(token_permutation({"a", "b"}, {"b", "a", "a"}).has_value()); // another length
    EXPECT_FALSE(token_permutation({"a", "b"}, {"a", "c"}).has_value());      // another word
    EXPECT_FALSE(token_permutation({"a", "b"}, {"a", "a"}).has_value());      // a word too often
    EXPECT_EQ(token_permutation({}, {}), Perm{});
}

TEST(TokenPermutation, NopeRowsOfThePermutedSentenceAreThePermutedRows)
{
    for (const auto& [a, b] :
         std::vector<std::pair<std::string, std::string>>{{"the dog bit the man", "the man bit the dog"},
                                                          {"今天天气很好", "天气今天很好"},
                                                          {"狗咬人", "人咬狗"}}) {
        const Scenario sa = sentence(kNoPE, a), sb = sentence(kNoPE, b);
        const auto p = token_permutation(sa.content.tokens, sb.content.tokens);
        ASSERT_TRUE(p.has_value()) << a << " / " << b;
        for (const MatrixKind kind : {MatrixKind::Logits, MatrixKind::Weights}) {
            const Eigen::MatrixXd wa = compute_matrix(sa, kind, {}).values,
                                  wb = compute_matrix(sb, kind, {}).values;
            EXPECT_LE(permuted_difference(wa, wb, *p), 1e-12)
                << a << " / " << b << " " << matrix_kind_id(kind);
        }
    }
}

TEST(TokenPermutation, PositionsOrTheCausalMaskBreakTheEquivariance)
{
    const std::string a = "the dog bit the man", b = "the man bit the dog";
    // A positional encoding (sinusoidal, added to the words): the rows differ, not only their order.
    {
        const Scenario sa = sentence(Method::Sinusoidal, a), sb = sentence(Method::Sinusoidal, b);
        const Perm p = *token_permutation(sa.content.tokens, sb.content.tokens);
        EXPECT_GT(permuted_difference(compute_matrix(sa, MatrixKind::Weights, {}).values,
                                      compute_matrix(sb, MatrixKind::Weights, {}).values, p),
                  1e-3);
    }
    // NoPE with the scenario's causal switch on: its logits and its weights are masked, and the masked
    // cells do not move with the words.
    for (const MatrixKind kind : {MatrixKind::Logits, MatrixKind::Weights}) {
        const Scenario sa = sentence(kNoPE, a, true), sb = sentence(kNoPE, b, true);
        const Perm p = *token_permutation(sa.content.tokens, sb.content.tokens);
        EXPECT_GT(
            permuted_difference(compute_matrix(sa, kind, {}).values, compute_matrix(sb, kind, {}).values, p),
            1e-3)
            << matrix_kind_id(kind);
    }
}
