// SPDX-License-Identifier: GPL-3.0-or-later
// Llama 4's attention temperature in the scenario (Scenario::attn_temperature_tuning): the query at
// position p is multiplied by log(floor((p + 1) / floor_scale) + 1) * attn_scale + 1
// (transformers modeling_llama4.py Llama4TextAttention.forward, attn_scales), so row p of the NoPE and
// RoPE logits is that factor times the logits without it. Tolerances: the scaled logits are one rounding
// (2^-53 relative) from the reference product; the weights 1e-12 (a softmax of O(1) logits in double).
#include "compute/attention_logits.h"
#include "compute/attention_weights.h"
#include "io/model_layers.h"
#include "io/scenario_json.h"
#include "methods/nope/nope.h"
#include "methods/registry.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using namespace posatlas;

namespace {

// The formula of Llama4TextAttention.forward, written here from the reference.
double reference_temperature(std::int64_t p, double floor_scale, double attn_scale)
{
    return std::log(std::floor((static_cast<double>(p) + 1.0) / floor_scale) + 1.0) * attn_scale + 1.0;
}

Scenario tuned(Method m)
{
    Scenario s;
    s.method = m;
    s.seq_len = 24;
    s.content.kind = ContentKind::Random;
    s.content.seed = 5;
    common_field("attn_temperature_tuning")->set(s, true);
    common_field("floor_scale")->set(s, 4.0);
    common_field("attn_scale")->set(s, 0.1);
    return s;
}

} // namespace

TEST(AttentionTemperature, FactorAtFewPositionsIsTheLlamaFourFormula)
{
    // Below floor_scale - 1 the factor is 1; then log 2 * 0.1 + 1 from p = 3, log 4 * 0.1 + 1 from p = 11.
    EXPECT_EQ(query_temperature(4.0, 0.1, 0), 1.0);
    EXPECT_EQ(query_temperature(4.0, 0.1, 2), 1.0);
    EXPECT_EQ(query_temperature(4.0, 0.1, 3), std::log(2.0) * 0.1 + 1.0);
    EXPECT_EQ(query_temperature(4.0, 0.1, 11), std::log(4.0) * 0.1 + 1.0);
    // Llama 4 Scout's own: floor_scale 8192, attn_scale 0.1.
    for (const std::int64_t p : {0, 8190, 8191, 100000, 1000000})
        EXPECT_EQ(query_temperature(8192.0, 0.1, p), reference_temperature(p, 8192.0, 0.1)) << p;
    // The layer anatomy's and the scenario's are the one formula.
    LayerAnatomy layer;
    layer.temperature = true;
    layer.floor_scale = 8192.0;
    layer.attn_scale = 0.1;
    for (const std::int64_t p : {0, 8191, 50000})
        EXPECT_EQ(attention_temperature(layer, p), query_temperature(8192.0, 0.1, p)) << p;
}

TEST(AttentionTemperature, LogitsOfNopeAndRopeRowsAreScaledByTheTemperature)
{
    for (const Method m : {kNoPE, Method::RoPE}) {
        const Scenario s = tuned(m);
        Scenario plain = s;
        plain.attn_temperature_tuning = false;
        const Eigen::MatrixXd x = compute_matrix(s, MatrixKind::Logits, {}).values;
        const Eigen::MatrixXd y = compute_matrix(plain, MatrixKind::Logits, {}).values;
        for (std::int64_t q = 0; q < s.seq_len; ++q)
            for (std::int64_t k = 0; k < s.seq_len; ++k) {
                const double expected = y(q, k) * reference_temperature(q, 4.0, 0.1);
                EXPECT_NEAR(x(q, k), expected, std::abs(expected) * std::numeric_limits<double>::epsilon())
                    << m.id() << " q " << q << " k " << k;
            }
    }
}

TEST(AttentionTemperature, WeightsAreTheSoftmaxOfTheScaledLogits)
{
    Scenario s = tuned(Method::RoPE);
    common_field("causal")->set(s, true);
    Scenario plain = s;
    plain.attn_temperature_tuning = false;
    const Eigen::MatrixXd w = compute_matrix(s, MatrixKind::Weights, {}).values;
    const Eigen::MatrixXd y = compute_matrix(plain, MatrixKind::Logits, {}).values;
    for (std::int64_t q = 0; q < s.seq_len; ++q) {
        const double t = reference_temperature(q, 4.0, 0.1);
        double top = -INFINITY;
        for (std::int64_t k = 0; k <= q; ++k)
            top = std::max(top, t * y(q, k));
        double denominator = 0.0;
        for (std::int64_t k = 0; k <= q; ++k)
            denominator += std::exp(t * y(q, k) - top);
        for (std::int64_t k = 0; k < s.seq_len; ++k) {
            const double expected = k <= q ? std::exp(t * y(q, k) - top) / denominator : 0.0;
            EXPECT_NEAR(w(q, k), expected, 1e-12) << "q " << q << " k " << k;
        }
    }
}

TEST(AttentionTemperature, MethodsWithBiasesAreLeftAsTheyAre)
{
    // ALiBi's bias does not scale with the query: the temperature is not applied, nor offered.
    const Scenario s = tuned(Method::ALiBi);
    Scenario plain = s;
    plain.attn_temperature_tuning = false;
    EXPECT_FALSE(temperature_applies(s));
    EXPECT_FALSE(common_field("attn_temperature_tuning")->shown(s));
    const Eigen::MatrixXd x = compute_matrix(s, MatrixKind::Logits, {}).values;
    const Eigen::MatrixXd y = compute_matrix(plain, MatrixKind::Logits, {}).values;
    EXPECT_TRUE(x.cwiseEqual(y).count() + x.array().isNaN().count() == x.size());
}

TEST(AttentionTemperature, FloorScaleBelowOneIsRefusedNamingTheOption)
{
    Scenario s = tuned(Method::RoPE);
    s.floor_scale = 0.5;
    try {
        validate(s);
        ADD_FAILURE() << "floor_scale 0.5 accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "floor_scale");
        EXPECT_NE(std::string(e.what()).find(">= 1"), std::string::npos) << e.what();
    }
}

TEST(AttentionTemperature, SessionKeepsTheTemperature)
{
    const Scenario s = tuned(kNoPE);
    const Scenario back = scenario_from_json(scenario_to_json(s));
    EXPECT_TRUE(back.attn_temperature_tuning);
    EXPECT_EQ(back.floor_scale, 4.0);
    EXPECT_EQ(back.attn_scale, 0.1);
    nlohmann::json older = scenario_to_json(s);
    older.erase("attn_temperature_tuning");
    EXPECT_FALSE(scenario_from_json(older).attn_temperature_tuning); // older sessions: none
}
