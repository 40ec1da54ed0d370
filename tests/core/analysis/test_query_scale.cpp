// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the length-dependent query scales (core/analysis/query_scale.h).
//
// References: Qwen-7B's modeling_qwen.py (QWenAttention: logn_list[i - 1] = math.log(i, seq_length) if
// i > seq_length else 1, the query at position p multiplied by logn_list[p]); transformers
// Llama4TextAttention.forward (log(floor((cache_position + 1) / floor_scale) + 1) * attn_scale + 1).
// Values at powers of two are exact ratios of logarithms; tolerance 1e-15 (a few ulps).
#include "analysis/query_scale.h"
#include "analysis/rope_compare.h"
#include "io/model_layers.h"
#include "scenario/attention_span.h"
#include "scenario/types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace posatlas;

TEST(QueryScale, QwenLogNIsOneUpToTheTrainedLength)
{
    // seq_length 2048 (Qwen-7B's first release): positions 0 .. 2047 are i = 1 .. 2048 <= seq_length.
    EXPECT_EQ(logn_query_scale(0, 2048), 1.0);
    EXPECT_EQ(logn_query_scale(2047, 2048), 1.0);
    EXPECT_NEAR(logn_query_scale(2048, 2048), std::log(2049.0) / std::log(2048.0), 1e-15);
    // Position 8191 is i = 8192 = 2^13: log base 2^11 of it is 13 / 11.
    EXPECT_NEAR(logn_query_scale(8191, 2048), 13.0 / 11.0, 1e-15);
    EXPECT_NEAR(logn_query_scale(32767, 8192), 15.0 / 13.0, 1e-15);
}

TEST(QueryScale, LlamaFourTemperatureStepsAtMultiplesOfFloorScale)
{
    // Llama4TextConfig defaults: floor_scale 8192, attn_scale 0.1.
    EXPECT_EQ(query_temperature(8192.0, 0.1, 0), 1.0);
    EXPECT_EQ(query_temperature(8192.0, 0.1, 8190), 1.0); // (8190 + 1) / 8192 < 1
    EXPECT_NEAR(query_temperature(8192.0, 0.1, 8191), 0.1 * std::log(2.0) + 1.0, 1e-15);
    EXPECT_NEAR(query_temperature(8192.0, 0.1, 3 * 8192 - 1), 0.1 * std::log(4.0) + 1.0, 1e-15);
    // The layer anatomy's temperature is the same function on a layer that has it, 1 elsewhere.
    LayerAnatomy layer;
    layer.temperature = true;
    layer.floor_scale = 8192.0;
    layer.attn_scale = 0.1;
    for (std::int64_t pos : {0, 8191, 100000, 10000000})
        EXPECT_EQ(attention_temperature(layer, pos), query_temperature(8192.0, 0.1, pos)) << pos;
    layer.temperature = false;
    EXPECT_EQ(attention_temperature(layer, 100000), 1.0);
}

TEST(QueryScale, KindsDispatchAndIdsRoundTrip)
{
    QueryScale s;
    EXPECT_EQ(query_scale_at(s, 1000000), 1.0);
    s.kind = QueryScaleKind::LogN;
    s.trained_length = 4096;
    EXPECT_EQ(query_scale_at(s, 8191), logn_query_scale(8191, 4096));
    s.kind = QueryScaleKind::Llama4;
    EXPECT_EQ(query_scale_at(s, 8191), query_temperature(8192.0, 0.1, 8191));
    for (QueryScaleKind k : {QueryScaleKind::None, QueryScaleKind::LogN, QueryScaleKind::Llama4}) {
        QueryScaleKind back = QueryScaleKind::None;
        ASSERT_TRUE(parse_query_scale_kind(query_scale_id(k), &back));
        EXPECT_EQ(back, k);
    }
    QueryScaleKind unchanged = QueryScaleKind::LogN;
    EXPECT_FALSE(parse_query_scale_kind("yarn", &unchanged));
    EXPECT_EQ(unchanged, QueryScaleKind::LogN);
}

TEST(QueryScale, ValidationNamesTheFieldAndItsRange)
{
    const auto message = [](const QueryScale& s) {
        try {
            validate(s);
        } catch (const ParameterError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    QueryScale s;
    s.trained_length = 0; // not read for None
    EXPECT_EQ(message(s), "");
    s.kind = QueryScaleKind::LogN;
    EXPECT_NE(message(s).find("trained_length"), std::string::npos);
    s.trained_length = 2;
    EXPECT_EQ(message(s), "");
    s.kind = QueryScaleKind::Llama4;
    s.floor_scale = std::nan("");
    EXPECT_NE(message(s).find("floor_scale"), std::string::npos);
    s.floor_scale = 8192.0;
    s.attn_scale = 11.0;
    const std::string m = message(s);
    EXPECT_NE(m.find("attn_scale"), std::string::npos);
    EXPECT_NE(m.find("10"), std::string::npos) << m;
}

// Qwen's log-n at the last position of s L tokens equals the logit multiplier of LongRoPE's attention
// factor at the factor s: log_L(s L) = 1 + ln s / ln L = (sqrt(1 + ln s / ln L))^2 (HF
// _compute_longrope_parameters). Phi-3's lengths (s = 131072 / 4096 = 32), through core's temperature
// (rope_compare.h attention_temperature); relative 1e-14.
TEST(QueryScale, LogNAtSTimesTheTrainedLengthIsLongRopesMultiplier)
{
    RopeParams phi;
    phi.head_dim = 96;
    phi.rope_type = RopeType::LongRope;
    phi.max_position_embeddings = 131072;
    phi.original_max_position_embeddings = 4096;
    phi.short_factor.assign(48, 1.0);
    phi.long_factor.assign(48, 2.0);
    const TemperatureInfo t = attention_temperature(phi);
    const double longrope_logit = t.longrope_factor * t.longrope_factor;
    EXPECT_NEAR(logn_query_scale(131072 - 1, 4096), longrope_logit, 1e-14 * longrope_logit);
}
