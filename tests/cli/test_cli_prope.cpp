// SPDX-License-Identifier: GPL-3.0-or-later
// p-RoPE (--frequency-fraction) through the real binary: the frequencies by hand from Barbero et al. 2024's
// definition (1e-15 relative), Gemma 4's config as p-RoPE over global_head_dim (transformers
// _compute_proportional_rope_parameters, 1e-15 relative), and refusals that name the option.
#include "cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

using nlohmann::json;
using namespace posatlas::test;

std::string config(const char* name)
{
    return std::string(POSATLAS_TEST_DATA) + "/configs/" + name;
}

// d = 16, θ 10000, p 0.5: the highest 4 of 8 frequencies, 1, 10000^(-1/8), 10000^(-1/4), 10000^(-3/8).
TEST(CliPRope, FrequencyFractionKeepsTheHighestFrequencies)
{
    const Result r = run({"compute", "rope-frequencies", "--head-dim", "16", "--frequency-fraction", "0.5"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["rotary_dim"], 8);
    const double hand[] = {1.0, 0.31622776601683794, 0.1, 0.031622776601683794};
    ASSERT_EQ(j["inv_freq_rad_per_token"].size(), 4u);
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(j["inv_freq_rad_per_token"][i].get<double>(), hand[i], 1e-15 * hand[i]) << i;
}

TEST(CliPRope, GemmaFourConfigIsProportionalRope)
{
    const Result r = run({"compute", "rope-frequencies", "--config", config("gemma4_text_defaults.json")});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["rotary_dim"], 128); // int(0.25 * 512 // 2) = 64 pairs
    // The last kept frequency, exponent over the whole head: 1e6^(-126/512).
    const double last = std::pow(1e6, -126.0 / 512.0);
    EXPECT_NEAR(j["inv_freq_rad_per_token"].back().get<double>(), last, 1e-15 * last);
}

TEST(CliPRope, RefusalsNameTheOption)
{
    const Result yarn = run({"compute", "rope-frequencies", "--head-dim", "16", "--frequency-fraction", "0.5",
                             "--rope-type", "yarn", "--factor", "4"});
    EXPECT_EQ(yarn.status, 2);
    EXPECT_NE(yarn.err.find("--frequency-fraction"), std::string::npos) << yarn.err;
    const Result range = run({"compute", "rope-frequencies", "--frequency-fraction", "1.5"});
    EXPECT_EQ(range.status, 2);
    EXPECT_NE(range.err.find("--frequency-fraction"), std::string::npos) << range.err;
}

} // namespace
