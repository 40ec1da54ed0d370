// SPDX-License-Identifier: GPL-3.0-or-later
// DeBERTa v2/v3 relative positions and disentangled logits. Reference: HF transformers
// models/deberta_v2/modeling_deberta_v2.py (make_log_bucket_position, build_relative_position,
// DisentangledSelfAttention.disentangled_attention_bias). Bucket values below come from a python3 port
// of make_log_bucket_position with float32 tensor semantics (struct.pack('f') after every op), run
// here; buckets are integers, compared exactly.
#include "compute/attention_logits.h"
#include "methods/deberta/deberta.h"
#include "scenario/types.h"
#include "test_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace posatlas;

namespace {

struct BucketCase {
    int bucket_size;
    int max_position;
    std::int64_t rel;
    std::int64_t expected;
};

class DebertaBucketTable : public ::testing::TestWithParam<BucketCase>
{
};

TEST_P(DebertaBucketTable, MatchesHfPort)
{
    const auto& c = GetParam();
    EXPECT_EQ(deberta_log_bucket(c.rel, c.bucket_size, c.max_position), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    HfMakeLogBucketPosition, DebertaBucketTable,
    ::testing::Values(
        // position_buckets 256, max_relative_positions 512 (DeBERTa-v3 config)
        BucketCase{256, 512, 0, 0}, BucketCase{256, 512, 1, 1}, BucketCase{256, 512, -1, -1},
        BucketCase{256, 512, 127, 127}, BucketCase{256, 512, 128, 128}, BucketCase{256, 512, -128, -128},
        BucketCase{256, 512, 129, 129}, BucketCase{256, 512, -129, -129}, BucketCase{256, 512, 150, 143},
        BucketCase{256, 512, 200, 169}, BucketCase{256, 512, 255, 192}, BucketCase{256, 512, 256, 192},
        BucketCase{256, 512, -256, -192}, BucketCase{256, 512, 300, 207}, BucketCase{256, 512, 400, 233},
        BucketCase{256, 512, 500, 254}, BucketCase{256, 512, 511, 255}, BucketCase{256, 512, -511, -255},
        BucketCase{256, 512, 512, 256}, BucketCase{256, 512, 1000, 317}, BucketCase{256, 512, -1000, -317},
        BucketCase{256, 512, 4096, 446}, BucketCase{256, 512, 100000, 740},
        // position_buckets 512, max_relative_positions 512
        BucketCase{512, 512, 255, 255}, BucketCase{512, 512, 256, 256}, BucketCase{512, 512, 300, 315},
        BucketCase{512, 512, 400, 421}, BucketCase{512, 512, 500, 503}, BucketCase{512, 512, 511, 511},
        BucketCase{512, 512, -1000, -759}, BucketCase{512, 512, 4096, 1279},
        // position_buckets 256, max_relative_positions 1024
        BucketCase{256, 1024, 130, 129}, BucketCase{256, 1024, 200, 156}, BucketCase{256, 1024, 1000, 254},
        BucketCase{256, 1024, -4096, -340}),
    [](const ::testing::TestParamInfo<BucketCase>& info) { // Buckets256_Max512_At_minus128
        const BucketCase& c = info.param;
        return "Buckets" + std::to_string(c.bucket_size) + "_Max" + std::to_string(c.max_position) + "_At_" +
               posatlas::test::signed_name(c.rel);
    });

TEST(DebertaBuckets, OddSymmetricAndMonotone)
{
    // sign(rel) * f(|rel|) in HF: odd; non-decreasing in rel.
    std::int64_t prev = deberta_log_bucket(-3000, 256, 512);
    for (std::int64_t r = -3000; r <= 3000; ++r) {
        const auto b = deberta_log_bucket(r, 256, 512);
        EXPECT_EQ(b, -deberta_log_bucket(-r, 256, 512));
        EXPECT_GE(b, prev);
        prev = b;
    }
}

TEST(DebertaRelative, QueryMinusKeyThenBucketed)
{
    DebertaParams p;                                   // 256 buckets, 512 positions
    EXPECT_EQ(deberta_relative_position(10, 3, p), 7); // P_q - P_k
    EXPECT_EQ(deberta_relative_position(3, 10, p), -7);
    EXPECT_EQ(deberta_relative_position(1000, 0, p), 317); // bucketed, as in the table
    p.position_buckets = 0;                                // no buckets: plain difference
    EXPECT_EQ(deberta_relative_position(1000, 0, p), 1000);
    EXPECT_EQ(deberta_att_span(p), 512);
    p.position_buckets = 256;
    EXPECT_EQ(deberta_att_span(p), 256);
}

TEST(DebertaIndices, C2pAndP2cFollowHfGather)
{
    DebertaParams p;
    // c2p: clamp(delta(i, j) + att_span, 0, 2 att_span - 1)
    EXPECT_EQ(deberta_c2p_index(p, 10, 3), 7 + 256);
    EXPECT_EQ(deberta_c2p_index(p, 3, 10), -7 + 256);
    EXPECT_EQ(deberta_c2p_index(p, 100000, 0), 511); // bucket 740 clamps to 2 * 256 - 1
    EXPECT_EQ(deberta_c2p_index(p, 0, 100000), 0);   // bucket -740 clamps to 0
    // p2c: clamp(-r_pos[j][i] + att_span): with an odd bucket function the same row as c2p.
    for (std::int64_t i : {0, 5, 300, 2000})
        for (std::int64_t j : {0, 7, 299, 5000})
            EXPECT_EQ(deberta_p2c_index(p, i, j), deberta_c2p_index(p, i, j)) << i << "," << j;
    // Without buckets: spans of max_relative_positions.
    p.position_buckets = 0;
    p.max_relative_positions = 8;
    EXPECT_EQ(deberta_c2p_index(p, 2, 0), 10);
    EXPECT_EQ(deberta_p2c_index(p, 2, 0), 10);
    EXPECT_EQ(deberta_c2p_index(p, 50, 0), 15);
}

TEST(DebertaTerms, MatchHfFormulaAndScale)
{
    DebertaParams p;
    p.head_dim = 4;
    p.position_buckets = 4;
    p.max_relative_positions = 16;
    p.stddev = 0.5;
    p.seed = 3;
    const DebertaModel m = make_deberta_model(p);
    ASSERT_EQ(m.att_span, 4);
    ASSERT_EQ(m.rel_embeddings.rows(), 8);
    ASSERT_EQ(m.pos_key.rows(), 8);
    ASSERT_EQ(m.pos_query.cols(), 4);
    Eigen::VectorXd q(4), k(4);
    q << 1.0, -2.0, 0.5, 3.0;
    k << 0.25, 1.0, -1.0, 2.0;
    const std::int64_t i = 9, j = 2;
    const auto t = deberta_logit_terms(m, q, k, i, j);
    // scale_factor 3 (c2p and p2c): 1 / sqrt(4 * 3).
    const double scale = 1.0 / std::sqrt(12.0);
    EXPECT_DOUBLE_EQ(t.scale, scale);
    EXPECT_NEAR(t.c2c, q.dot(k) * scale, 1e-14); // |q.k| ~ 5: 1e-14 absolute
    const auto idx = deberta_c2p_index(p, i, j);
    EXPECT_NEAR(t.c2p, q.dot(m.pos_key.row(idx).transpose()) * scale, 1e-14);
    EXPECT_NEAR(t.p2c, k.dot(m.pos_query.row(deberta_p2c_index(p, i, j)).transpose()) * scale, 1e-14);
    EXPECT_NEAR(t.total, t.c2c + t.c2p + t.p2c, 1e-14);

    // Only c2p on: scale_factor 2 and p2c contributes nothing.
    p.p2c = false;
    const auto m2 = make_deberta_model(p);
    const auto t2 = deberta_logit_terms(m2, q, k, i, j);
    EXPECT_DOUBLE_EQ(t2.scale, 1.0 / std::sqrt(8.0));
    EXPECT_EQ(t2.p2c, 0.0);
    EXPECT_NEAR(t2.total, t2.c2c + t2.c2p, 1e-14);
}

TEST(DebertaModel, SeededAndRejectsOversizedTables)
{
    DebertaParams p;
    p.head_dim = 8;
    const auto a = make_deberta_model(p);
    const auto b = make_deberta_model(p);
    EXPECT_TRUE(a.rel_embeddings.isApprox(b.rel_embeddings, 0.0));
    EXPECT_TRUE(a.pos_key.isApprox(b.pos_key, 0.0));
    p.position_buckets = 0;
    p.max_relative_positions = 500'000'000; // 1e9 x 8 rows would exceed kMaxMatrixElements
    try {
        make_deberta_model(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "max_relative_positions");
    }
    try {
        deberta_log_bucket(5, 256, 100); // max_position - 1 must exceed mid = 128
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "max_relative_positions");
    }
}

} // namespace

// The series core gives the CLI (`compute deberta-buckets`) and the curve view. Reference: HF
// build_relative_position (rel = query - key, then make_log_bucket_position when position_buckets > 0;
// values from the python port's table above) and DisentangledSelfAttention.disentangled_attention_bias
// (c2p_pos = torch.clamp(relative_pos + att_span, 0, att_span * 2 - 1)). Integers: exact comparison.
TEST(DebertaSeries, BucketAndClampedRowMatchHf)
{
    struct Want {
        std::int64_t rel, delta;
    };
    // position_buckets 256, max_relative_positions 512 (from the HfMakeLogBucketPosition table).
    const std::vector<Want> want = {{0, 0},       {1, 1},       {-1, -1},   {127, 127},  {128, 128},
                                    {-129, -129}, {200, 169},   {255, 192}, {300, 207},  {500, 254},
                                    {511, 255},   {-511, -255}, {512, 256}, {1000, 317}, {-1000, -317},
                                    {4096, 446},  {100000, 740}};
    std::vector<std::int64_t> rel;
    for (const Want& w : want)
        rel.push_back(w.rel);
    const DebertaParams p; // 256 / 512
    const DebertaPositionSeries s = deberta_relative_positions(p, rel);
    EXPECT_EQ(s.att_span, 256);
    ASSERT_EQ(s.delta.size(), want.size());
    ASSERT_EQ(s.delta_used.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(s.delta[k], want[k].delta) << "rel " << want[k].rel;
        // HF's gather index minus att_span: clamp(delta + 256, 0, 511) - 256.
        EXPECT_EQ(s.delta_used[k], std::clamp<std::int64_t>(want[k].delta + 256, 0, 511) - 256)
            << "rel " << want[k].rel;
        // The single-value entry points agree (query rel, key 0).
        EXPECT_EQ(s.delta_used[k], deberta_c2p_index(p, want[k].rel, 0) - 256);
    }
    EXPECT_EQ(s.delta_used.back(), 255); // bucket 740 reads row 2 * 256 - 1
    EXPECT_EQ(s.delta_used[12], 255);    // bucket 256 already clamps to 255
    EXPECT_EQ(s.delta_used[11], -255);   // -255 is inside [-256, 255]

    // Without buckets (position_buckets 0): delta = query - key, rows span max_relative_positions.
    DebertaParams plain;
    plain.position_buckets = 0;
    plain.max_relative_positions = 8;
    const DebertaPositionSeries q = deberta_relative_positions(plain, {-20, -8, -1, 0, 7, 8, 50});
    EXPECT_EQ(q.att_span, 8);
    EXPECT_EQ(q.delta, (std::vector<std::int64_t>{-20, -8, -1, 0, 7, 8, 50}));
    EXPECT_EQ(q.delta_used, (std::vector<std::int64_t>{-8, -8, -1, 0, 7, 7, 7}));
}

// Parameters are validated once at each public entry point, outside any kernel: an invalid set gives
// ParameterError, never an exception inside an OpenMP region (which would end the process), also
// through compute_matrix, whose DeBERTa kernels run in parallel loops.
TEST(DebertaSeries, InvalidParametersThrowParameterErrorAtEveryEntryPoint)
{
    DebertaParams bad; // 256 buckets need max_relative_positions > 129
    bad.max_relative_positions = 100;
    EXPECT_THROW(deberta_relative_position(5, 0, bad), ParameterError);
    EXPECT_THROW(deberta_c2p_index(bad, 5, 0), ParameterError);
    EXPECT_THROW(deberta_p2c_index(bad, 5, 0), ParameterError);
    EXPECT_THROW(deberta_relative_positions(bad, {0, 1, 2}), ParameterError);
    EXPECT_THROW(deberta_relative_positions(bad, {}), ParameterError);
    EXPECT_THROW(make_deberta_model(bad), ParameterError);

    Scenario s;
    s.method = Method::DeBERTa;
    s.seq_len = 600; // beyond 256 OpenMP's parallel Toeplitz fill is on
    s.params<DebertaParams>() = bad;
    for (MatrixKind kind : {MatrixKind::Buckets, MatrixKind::Logits}) {
        try {
            compute_matrix(s, kind, MatrixWindow{});
            ADD_FAILURE() << "expected ParameterError for kind " << matrix_kind_id(kind);
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "max_relative_positions");
        }
    }
    // The same scenario with valid parameters computes (the failure above is the parameters').
    s.params<DebertaParams>().max_relative_positions = 512;
    EXPECT_NO_THROW(compute_matrix(s, MatrixKind::Buckets, MatrixWindow{}));
}
