// SPDX-License-Identifier: GPL-3.0-or-later
// T5 relative position buckets. Reference: HF transformers models/t5/modeling_t5.py::
// T5Attention._relative_position_bucket, ported to python3 with float32 semantics (every tensor op
// rounded to float32 with struct.pack('f')) and run here to produce the tables below for relative
// positions -200..200 (32 buckets, max_distance 128). Bucket indices are integers: exact comparison.
#include "methods/t5/t5_buckets.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

using namespace posatlas;

namespace {

// Index r + 200 holds the bucket of relative position r (key - query).
constexpr int kBidirectional[401] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14,
    14, 14, 14, 14, 14, 14, 14, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 12,
    12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10,
    10, 10, 10, 9,  9,  9,  9,  8,  8,  8,  8,  7,  6,  5,  4,  3,  2,  1,  0,  17, 18, 19, 20, 21, 22, 23,
    24, 24, 24, 24, 25, 25, 25, 25, 26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29,
    29, 29, 29, 29, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
};
constexpr int kCausal[401] = {
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 29, 29,
    29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 27, 27, 27, 27, 27, 27,
    27, 27, 27, 27, 26, 26, 26, 26, 26, 26, 26, 26, 25, 25, 25, 25, 25, 25, 25, 24, 24, 24, 24, 24, 24, 23,
    23, 23, 23, 23, 23, 22, 22, 22, 22, 22, 21, 21, 21, 21, 20, 20, 20, 20, 19, 19, 19, 18, 18, 18, 17, 17,
    16, 16, 16, 15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

TEST(T5Buckets, BidirectionalMatchesHfPort)
{
    for (int r = -200; r <= 200; ++r)
        EXPECT_EQ(t5_relative_position_bucket(r, true, 32, 128), kBidirectional[r + 200]) << "r = " << r;
}

TEST(T5Buckets, CausalMatchesHfPort)
{
    for (int r = -200; r <= 200; ++r)
        EXPECT_EQ(t5_relative_position_bucket(r, false, 32, 128), kCausal[r + 200]) << "r = " << r;
}

TEST(T5Buckets, MonotoneInDistanceAndSaturatesAtMaxDistance)
{
    for (bool bidirectional : {true, false}) {
        const int last = bidirectional ? 15 : 31; // last bucket of the past half (HF: num_buckets - 1)
        int previous = -1;
        for (int n = 0; n <= 1000; ++n) {
            const int b = t5_relative_position_bucket(-n, bidirectional, 32, 128);
            EXPECT_GE(b, previous) << "n = " << n;
            previous = b;
            if (n >= 128) {
                EXPECT_EQ(b, last) << "n = " << n; // every distance >= max_distance shares one bucket
            }
            const int max_exact = bidirectional ? 8 : 16;
            if (n < max_exact) {
                EXPECT_EQ(b, n); // exact buckets below max_exact = num_buckets / 2
            }
        }
        if (bidirectional) {
            int prev_future = -1;
            for (int n = 1; n <= 1000; ++n) {
                const int b = t5_relative_position_bucket(n, true, 32, 128);
                EXPECT_GE(b, prev_future);
                EXPECT_GE(b, 16); // future keys use the upper half
                prev_future = b;
            }
            EXPECT_EQ(t5_relative_position_bucket(1'000'000'000'000LL, true, 32, 128), 31);
        }
    }
}

TEST(T5Buckets, Float32EdgeCase)
{
    // The only configuration found (num_buckets <= 128, max_distance <= 1024, |r| < 1100) where the
    // float32 evaluation HF performs and a double evaluation disagree: float32 gives 31 (python port
    // above), double would give 30.
    EXPECT_EQ(t5_relative_position_bucket(-728, false, 32, 939), 31);
    EXPECT_EQ(t5_relative_position_bucket(-728, true, 64, 939), 31);
}

TEST(T5Buckets, RejectsBadParameters)
{
    try {
        t5_relative_position_bucket(3, true, 7, 128); // bidirectional needs an even count
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "relative_attention_num_buckets");
    }
    try {
        t5_relative_position_bucket(3, true, 32, 8); // max_distance must exceed max_exact = 8
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "relative_attention_max_distance");
    }
}

TEST(T5Bias, SeededTableLookup)
{
    T5Params p;
    p.num_heads = 4;
    p.seed = 7;
    const Eigen::MatrixXd table = t5_bias_table(p);
    ASSERT_EQ(table.rows(), 32);
    ASSERT_EQ(table.cols(), 4);
    EXPECT_TRUE(table.isApprox(t5_bias_table(p), 0.0)); // deterministic
    p.seed = 8;
    EXPECT_FALSE(table.isApprox(t5_bias_table(p), 1e-3));
    p.seed = 7;
    // query 150, key 10: relative -140 -> bucket 15 (bidirectional table above).
    EXPECT_EQ(t5_bias(table, p, 150, 10, 2), table(15, 2));
    // query 10, key 13: relative +3 -> bucket 16 + 3 = 19.
    EXPECT_EQ(t5_bias(table, p, 10, 13, 3), table(19, 3));
    try {
        t5_bias(table, p, 0, 0, 4);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "head");
    }
}

} // namespace

// The series core gives the CLI (`compute t5-buckets`) and the curve view: the same HF
// T5Attention._relative_position_bucket values as the port tables above, exactly.
TEST(T5BucketSeries, RelativePositionsMatchHfPort)
{
    std::vector<std::int64_t> rel;
    for (int r = -200; r <= 200; ++r)
        rel.push_back(r);
    T5Params p; // 32 buckets, max_distance 128
    for (bool bidirectional : {true, false}) {
        p.bidirectional = bidirectional;
        const std::vector<int> b = t5_relative_position_buckets(p, rel);
        ASSERT_EQ(b.size(), rel.size());
        for (std::size_t k = 0; k < rel.size(); ++k)
            EXPECT_EQ(b[k], bidirectional ? kBidirectional[k] : kCausal[k]) << "r = " << rel[k];
    }
    // The float32 edge of the HF port (T5Buckets.Float32EdgeCase) survives the series too.
    p.bidirectional = false;
    p.max_distance = 939;
    EXPECT_EQ(t5_relative_position_buckets(p, {-728}), std::vector<int>{31});
}

TEST(T5BucketSeries, DistancesGiveKeysBeforeAndAfter)
{
    std::vector<std::int64_t> dist;
    for (int r = 0; r <= 200; ++r)
        dist.push_back(r);
    T5Params p;
    const T5DistanceBuckets bi = t5_distance_buckets(p, dist);
    ASSERT_EQ(bi.before.size(), dist.size());
    ASSERT_EQ(bi.after.size(), dist.size());
    for (int r = 0; r <= 200; ++r) {
        EXPECT_EQ(bi.before[r], kBidirectional[200 - r]) << "key r = " << r << " before the query";
        EXPECT_EQ(bi.after[r], kBidirectional[200 + r]) << "key r = " << r << " after the query";
    }
    p.bidirectional = false;
    const T5DistanceBuckets causal = t5_distance_buckets(p, dist);
    EXPECT_TRUE(causal.after.empty()); // causal T5: every later key is bucket 0, no series of its own
    for (int r = 0; r <= 200; ++r)
        EXPECT_EQ(causal.before[r], kCausal[200 - r]) << "r = " << r;
    // A negative distance counts as its magnitude.
    EXPECT_EQ(t5_distance_buckets(p, {-5}).before, t5_distance_buckets(p, {5}).before);
}

TEST(T5BucketSeries, InvalidParametersThrowOnceBeforeTheLoop)
{
    T5Params p;
    p.num_buckets = 7; // bidirectional needs an even count
    EXPECT_THROW(t5_relative_position_buckets(p, {0, 1, 2}), ParameterError);
    EXPECT_THROW(t5_distance_buckets(p, {0, 1, 2}), ParameterError);
    p.num_buckets = 32;
    p.max_distance = 8;                                                // must exceed max_exact = 8
    EXPECT_THROW(t5_relative_position_buckets(p, {}), ParameterError); // even for an empty series
}
