// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario <-> JSON round trip and error messages (session files and saved settings depend on it).
#include "io/scenario_json.h"
#include "test_names.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using namespace posatlas;
using nlohmann::json;

Scenario non_default()
{
    Scenario s;
    s.method = Method::ALiBi;
    s.seq_len = 777;
    s.head = 3;
    s.content = {ContentKind::Random, 99};
    s.params<SinusoidalParams>() = {256, 500.0, SinusoidalLayout::Split};
    s.params<LearnedParams>().table_path = "/tmp/model.safetensors";
    s.params<LearnedParams>().table_tensor = "transformer.wpe.weight";
    s.params<TransformerXLParams>().term_c = false;
    s.params<T5Params>().bidirectional = false;
    s.params<DebertaParams>().p2c = false;
    s.params<RopeParams>().rope_type = RopeType::LongRope;
    s.params<RopeParams>().pairing = RopePairing::Interleaved;
    s.params<RopeParams>().mscale = 0.707;
    s.params<RopeParams>().short_factor = {1.0, 1.5};
    s.params<RopeParams>().long_factor = {2.0, 3.5};
    s.params<RopeParams>().truncate = false;
    s.params<RopeParams>().frequency_fraction = 0.25; // p-RoPE
    s.params<AlibiParams>().scaling = AlibiScaling::Ntk;
    s.params<AlibiParams>().bias = AlibiBias::Symmetric;
    s.params<CopeParams>().gate_scale = -0.5;
    return s;
}

TEST(ScenarioJson, RoundTripKeepsEveryField)
{
    const Scenario s = non_default();
    const json j = scenario_to_json(s);
    const Scenario back = scenario_from_json(json::parse(j.dump()));
    // Serialising the result again must give the identical document (every field survives).
    EXPECT_EQ(scenario_to_json(back), j);
    EXPECT_EQ(back.method, Method::ALiBi);
    EXPECT_EQ(back.params<RopeParams>().mscale, std::optional<double>(0.707));
    EXPECT_FALSE(back.params<RopeParams>().mscale_all_dim.has_value());
    EXPECT_EQ(back.params<RopeParams>().long_factor, (std::vector<double>{2.0, 3.5}));
    EXPECT_EQ(back.params<RopeParams>().frequency_fraction, 0.25);
    EXPECT_EQ(back.content.seed, 99u);
}

TEST(ScenarioJson, MissingFieldsKeepTheBase)
{
    const Scenario base = non_default();
    const Scenario s = scenario_from_json(json{{"rope", {{"rope_theta", 5e5}}}}, base);
    EXPECT_EQ(s.params<RopeParams>().rope_theta, 5e5);
    EXPECT_EQ(s.method, Method::ALiBi);
    EXPECT_EQ(s.seq_len, 777);
}

// Keys no reader knows are reported at every level with the nearest valid key at that level (a typo
// such as rope_thta would otherwise draw the default base 10000 without a word).
TEST(ScenarioJson, UnknownKeysAreReportedWithTheNearestValidKey)
{
    const json doc = {{"method", "rope"},
                      {"seq_lne", 64},
                      {"content", {{"kindd", "ones"}}},
                      {"rope", {{"rope_thta", 500}, {"rope_theta", 2e4}, {"stddev", 1}, {"zzzzzzzz", 1}}},
                      {"learned", {{"stddev", 0.5}}}}; // an older alias: known
    std::vector<UnknownKey> unknown;
    const Scenario s = scenario_from_json(doc, {}, &unknown);
    EXPECT_EQ(s.params<RopeParams>().rope_theta, 2e4);
    ASSERT_EQ(unknown.size(), 5u);
    EXPECT_EQ(unknown_key_message(unknown[0]), "unknown key seq_lne (did you mean seq_len?)");
    EXPECT_EQ(unknown_key_message(unknown[1]), "unknown key content.kindd (did you mean kind?)");
    EXPECT_EQ(unknown_key_message(unknown[2]), "unknown key rope.rope_thta (did you mean rope_theta?)");
    EXPECT_EQ(unknown[3].key, "rope.stddev"); // the learned table's key, not RoPE's
    EXPECT_EQ(unknown_key_message(unknown[4]), "unknown key rope.zzzzzzzz"); // nothing close
    // A complete scenario has none.
    unknown.clear();
    scenario_from_json(scenario_to_json(non_default()), {}, &unknown);
    EXPECT_TRUE(unknown.empty()) << unknown.front().key;
}

TEST(ScenarioJson, EditDistance)
{
    EXPECT_EQ(edit_distance("rope_thta", "rope_theta"), 1u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(nearest_key("log_X", {"log_x", "rows"}), "log_x");
    EXPECT_EQ(nearest_key("ab", {"xy"}), ""); // every letter changed: no suggestion
}

// NoPE's own "causal" key of older sessions and lessons is the scenario's one switch now (nope.h).
TEST(ScenarioJson, NopesOldCausalKeySetsTheScenariosSwitch)
{
    for (const bool causal : {false, true}) {
        Scenario base;
        base.causal = !causal;
        const Scenario s = scenario_from_json(json{{"method", "nope"}, {"nope", {{"causal", causal}}}}, base);
        EXPECT_EQ(s.causal, causal);
        // Written back, the switch is the scenario's; NoPE has no key of its own any more.
        const json j = scenario_to_json(s);
        EXPECT_EQ(j["causal"], causal);
        EXPECT_FALSE(j["nope"].contains("causal"));
    }
    // Read, so not reported as unknown; nor is the permuted sentence.
    std::vector<UnknownKey> unknown;
    scenario_from_json(
        json{{"nope", {{"causal", true}}}, {"content", {{"permuted", "b a"}, {"text", "a b"}}}}, {},
        &unknown);
    EXPECT_TRUE(unknown.empty()) << unknown.front().key;
    // A file that gives the switch itself keeps it (the one the weights always followed).
    const Scenario s = scenario_from_json(json{{"causal", false}, {"nope", {{"causal", true}}}});
    EXPECT_FALSE(s.causal);
    // The old key's type is checked like any other.
    try {
        scenario_from_json(json{{"nope", {{"causal", "yes"}}}});
        FAIL() << "expected ScenarioJsonError";
    } catch (const ScenarioJsonError& e) {
        EXPECT_NE(std::string(e.what()).find("nope.causal"), std::string::npos) << e.what();
    }
}

TEST(ScenarioJson, PermutedSentenceRoundTrips)
{
    Scenario s;
    s.content.permuted = "the man bit the dog";
    const json j = scenario_to_json(s);
    EXPECT_EQ(j["content"]["permuted"], "the man bit the dog");
    EXPECT_EQ(scenario_from_json(json::parse(j.dump())).content.permuted, "the man bit the dog");
    EXPECT_FALSE(scenario_to_json(Scenario{})["content"].contains("permuted")); // none: not written
}

struct BadCase {
    json doc;
    std::string key;
};

class ScenarioJsonBad : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(ScenarioJsonBad, ErrorNamesTheDottedKey)
{
    try {
        scenario_from_json(GetParam().doc);
        FAIL() << "expected ScenarioJsonError";
    } catch (const ScenarioJsonError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(GetParam().key + ":", 0), 0u) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(
    Keys, ScenarioJsonBad,
    ::testing::Values(
        BadCase{json{{"rope", {{"rope_theta", "abc"}}}}, "rope.rope_theta"},
        BadCase{json{{"method", "magic"}}, "method"}, BadCase{json{{"seq_len", 1.5}}, "seq_len"},
        BadCase{json{{"rope", {{"short_factor", {1, "x"}}}}}, "rope.short_factor"},
        BadCase{json{{"alibi", {{"bias", "sideways"}}}}, "alibi.bias"}, BadCase{json{{"t5", 3}}, "t5"},
        BadCase{json{{"content", {{"seed", -1}}}}, "content.seed"}, BadCase{json{{"head", 1e12}}, "head"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { // rope_rope_theta
        return posatlas::test::param_name(info.param.key);
    });

} // namespace
