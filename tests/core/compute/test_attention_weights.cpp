// SPDX-License-Identifier: GPL-3.0-or-later
// Attention weights (compute/attention_weights.h): the row-wise softmax of each method's logits
// (Vaswani et al. 2017 eq. 1), and the permutation invariance of self-attention without positions:
// with NoPE, permuting the words permutes the weights (W' = P W P^T) and nothing else; with RoPE it
// does not. Tolerances: 1e-12 for identities of a softmax of O(1) logits in double precision (each
// weight is exp(x - max) / sum, a few roundings of relative size 2^-53 each).
#include "compute/attention_logits.h"
#include "compute/attention_weights.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace posatlas;

namespace {

Scenario sentence(Method m, const std::string& text, bool causal = false)
{
    Scenario s;
    s.method = m;
    s.content.seed = 7;
    common_field("text")->set(s, text);
    s.causal = causal;
    return s;
}

Eigen::MatrixXd weights(const Scenario& s)
{
    return compute_matrix(s, MatrixKind::Weights, {}).values;
}

// Index in `from` of each token of `to` (both permutations of the same distinct words).
std::vector<int> permutation(const std::vector<std::string>& from, const std::vector<std::string>& to)
{
    std::vector<int> p;
    for (const std::string& t : to)
        for (std::size_t k = 0; k < from.size(); ++k)
            if (from[k] == t) {
                p.push_back(static_cast<int>(k));
                break;
            }
    return p;
}

} // namespace

TEST(AttentionWeights, EveryMethodWithLogitsOffersWeightsAfterLogits)
{
    for (const MethodDescriptor& d : methods()) {
        const auto kinds = matrix_kinds_for(d.method);
        for (std::size_t k = 0; k < kinds.size(); ++k)
            if (kinds[k] == MatrixKind::Logits) {
                ASSERT_LT(k + 1, kinds.size()) << d.method.id();
                EXPECT_EQ(kinds[k + 1], MatrixKind::Weights) << d.method.id();
            }
    }
}

TEST(AttentionWeights, RowsSumToOneForEveryMethod)
{
    for (const MethodDescriptor& d : methods()) {
        if (!d.kind(MatrixKind::Weights))
            continue;
        for (bool causal : {false, true}) {
            Scenario s = sentence(d.method, "the quick brown fox jumps over the lazy dog", causal);
            const Eigen::MatrixXd w = weights(s);
            for (Eigen::Index i = 0; i < w.rows(); ++i) {
                EXPECT_NEAR(w.row(i).sum(), 1.0, 1e-12) << d.method.id() << " row " << i;
                EXPECT_GE(w.row(i).minCoeff(), 0.0) << d.method.id();
                if (causal) {
                    for (Eigen::Index j = i + 1; j < w.cols(); ++j)
                        EXPECT_EQ(w(i, j), 0.0) << d.method.id() << " (" << i << ", " << j << ")";
                }
            }
        }
    }
}

TEST(AttentionWeights, SoftmaxOfTheLogitsRow)
{
    // Reference: the definition, softmax_j(x_ij) = exp(x_ij) / sum_k exp(x_ik), over the Logits kind.
    const Scenario s = sentence(Method::RoPE, "a b c d e f");
    const Eigen::MatrixXd x = compute_matrix(s, MatrixKind::Logits, {}).values;
    const Eigen::MatrixXd w = weights(s);
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const Eigen::RowVectorXd e = x.row(i).array().exp();
        EXPECT_LT((w.row(i) - e / e.sum()).cwiseAbs().maxCoeff(), 1e-12);
    }
}

TEST(AttentionWeights, SampledRowsAreExactRowsOfTheFullMatrix)
{
    // Downsampled: each output cell is a weight of the full matrix (normalised over all keys).
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 300;
    s.content.kind = ContentKind::Random;
    const Eigen::MatrixXd full = weights(s);
    MatrixWindow w;
    w.out_rows = 7;
    w.out_cols = 11;
    const MatrixResult r = compute_matrix(s, MatrixKind::Weights, w);
    EXPECT_EQ(r.sampling, MatrixSampling::Point);
    for (Eigen::Index a = 0; a < r.values.rows(); ++a)
        for (Eigen::Index b = 0; b < r.values.cols(); ++b)
            EXPECT_NEAR(r.values(a, b), full(r.row_index[a], r.col_index[b]), 1e-12);
}

TEST(AttentionWeights, NopeWeightsPermuteWithTheWords)
{
    for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
             {"the dog bit a man", "a man bit the dog"}, {"今天天气很好", "天气今天很好"}}) {
        // Words repeat in 今天天气 (天 twice): permute by position, not by word.
        const Scenario sa = sentence(kNoPE, a), sb = sentence(kNoPE, b);
        ASSERT_EQ(sa.content.tokens.size(), sb.content.tokens.size());
        std::vector<int> p; // sb position k holds sa's token p[k]
        if (a == "今天天气很好")
            p = {2, 3, 0, 1, 4, 5}; // 天气 今天 很好
        else
            p = permutation(sa.content.tokens, sb.content.tokens);
        for (std::size_t k = 0; k < p.size(); ++k)
            ASSERT_EQ(sb.content.tokens[k], sa.content.tokens[static_cast<std::size_t>(p[k])]);
        const Eigen::MatrixXd wa = weights(sa), wb = weights(sb);
        for (Eigen::Index i = 0; i < wb.rows(); ++i)
            for (Eigen::Index j = 0; j < wb.cols(); ++j)
                EXPECT_NEAR(wb(i, j), wa(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(j)]),
                            1e-12)
                    << a << " / " << b << " (" << i << ", " << j << ")";
    }
}

TEST(AttentionWeights, RopeWeightsAreNotAPermutation)
{
    const Scenario sa = sentence(Method::RoPE, "the dog bit a man"),
                   sb = sentence(Method::RoPE, "a man bit the dog");
    const std::vector<int> p = permutation(sa.content.tokens, sb.content.tokens);
    const Eigen::MatrixXd wa = weights(sa), wb = weights(sb);
    double largest = 0.0;
    for (Eigen::Index i = 0; i < wb.rows(); ++i)
        for (Eigen::Index j = 0; j < wb.cols(); ++j)
            largest = std::max(largest, std::abs(wb(i, j) - wa(p[static_cast<std::size_t>(i)],
                                                               p[static_cast<std::size_t>(j)])));
    EXPECT_GT(largest, 1e-3);
}

TEST(AttentionWeights, NopesMaskIsTheScenariosCausalSwitch)
{
    // One switch: the scenario's `causal` masks NoPE's logits (NaN for j > i) and its weights (exactly 0);
    // off, neither is masked. NoPE has no causal field of its own that could say otherwise.
    EXPECT_EQ(descriptor(kNoPE).field("causal"), nullptr);
    Scenario s = sentence(kNoPE, "one two three four");
    const auto logits = [](const Scenario& x) { return compute_matrix(x, MatrixKind::Logits, {}).values; };
    EXPECT_TRUE(logits(s).allFinite());
    EXPECT_GT(weights(s)(0, 3), 0.0);
    s.causal = true;
    EXPECT_TRUE(std::isnan(logits(s)(0, 3)));
    EXPECT_TRUE(std::isfinite(logits(s)(3, 0)));
    EXPECT_EQ(weights(s)(0, 3), 0.0);
    EXPECT_NEAR(weights(s)(0, 0), 1.0, 1e-12); // the first query sees itself only
}

TEST(AttentionWeights, RefusesUnaffordableRowsNamingSeqLen)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = kMaxWeightsSeqLen + 1;
    MatrixWindow w;
    w.out_rows = 4;
    w.out_cols = 4;
    try {
        compute_matrix(s, MatrixKind::Weights, w);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "seq_len");
        EXPECT_NE(std::string(e.what()).find(std::to_string(kMaxWeightsSeqLen)), std::string::npos)
            << e.what();
    }
    s.seq_len = kMaxWeightsSeqLen;
    EXPECT_NO_THROW(compute_matrix(s, MatrixKind::Weights, w));
}

TEST(AttentionWeights, RopeAttentionFactorScalesTheLogitsBySquare)
{
    // Hugging Face multiplies cos and sin by attention_scaling (transformers LlamaRotaryEmbedding.forward;
    // the YaRN factor of modeling_rope_utils._compute_yarn_parameters), so q.k and every logit scale by
    // factor^2 and the weights are softmax(factor^2 x) of the unscaled logits x.
    Scenario s = sentence(Method::RoPE, "the dog bit the man");
    RopeParams& p = s.params<RopeParams>();
    p.rope_type = RopeType::Yarn;
    p.factor = 4.0;
    p.attention_factor = 1.0;
    const Eigen::MatrixXd x = compute_matrix(s, MatrixKind::Logits, {}).values;
    p.attention_factor = 1.5;
    const Eigen::MatrixXd w = weights(s);
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const Eigen::RowVectorXd e = (2.25 * x.row(i)).array().exp();
        EXPECT_LT((w.row(i) - e / e.sum()).cwiseAbs().maxCoeff(), 1e-12) << "row " << i;
    }
}
