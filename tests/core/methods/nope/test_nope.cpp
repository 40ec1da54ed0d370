// SPDX-License-Identifier: GPL-3.0-or-later
// NoPE: the logit is the content term alone (Kazemnejad et al. 2023), masked for j > i when causal.
#include "compute/attention_logits.h"
#include "methods/nope/nope.h"
#include "scenario/content.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace posatlas;

TEST(Nope, LogitIsContentOnly)
{
    Scenario s;
    s.method = kNoPE;
    s.seq_len = 40;
    s.content.kind = ContentKind::Random;
    s.params<NopeParams>().head_dim = 32;
    s.causal = false;
    std::vector<std::int64_t> pos(40);
    std::iota(pos.begin(), pos.end(), 0);
    const Eigen::MatrixXd expected =
        content_queries(s.content, 32, pos) * content_keys(s.content, 32, pos).transpose() / std::sqrt(32.0);
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    EXPECT_LT((r.values - expected).cwiseAbs().maxCoeff(), 1e-12); // one product, same operands
}

TEST(Nope, PermutationInvariantWithoutMask)
{
    // Without a mask and with the same vector at every position, every logit is the same number: NoPE
    // cannot tell positions apart (the baseline the teaching course shows).
    Scenario s;
    s.method = kNoPE;
    s.seq_len = 64;
    s.content.kind = ContentKind::Fixed;
    s.causal = false;
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    EXPECT_DOUBLE_EQ(r.max, r.min);
    // The causal mask is then the only positional signal.
    s.causal = true;
    const MatrixResult c = compute_matrix(s, MatrixKind::Logits, {});
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 64; ++j)
            EXPECT_EQ(std::isnan(c.values(i, j)), j > i);
}
