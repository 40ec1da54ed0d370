// SPDX-License-Identifier: GPL-3.0-or-later
// The method registry's contract: every field of every method has one range that validation enforces
// (by construction the panel and the command line read the same Field), every field round-trips
// through the session JSON, and every method computes and explains every kind it offers.
#include "compute/attention_logits.h"
#include "field_values.h"
#include "io/scenario_json.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>
#include <type_traits>

using namespace posatlas;
using nlohmann::json;

using posatlas::test::other_value;

TEST(Registry, IdsAreUniqueAndParse)
{
    std::set<std::string_view> ids;
    for (const MethodDescriptor& d : methods()) {
        EXPECT_TRUE(ids.insert(d.method.id()).second) << d.method.id();
        EXPECT_EQ(parse_method(d.method.id()), d.method);
        EXPECT_FALSE(d.kinds.empty()) << d.method.id();
        EXPECT_TRUE(d.content_dim) << d.method.id();
        std::set<std::string> keys;
        for (const Field& f : d.fields)
            EXPECT_TRUE(keys.insert(f.key).second) << d.method.id() << "." << f.key;
    }
    EXPECT_FALSE(parse_method("no-such-method"));
    EXPECT_THROW(descriptor(Method("no-such-method")), ParameterError);
    // A parsed id is the registry's own (a literal), never a view of the caller's string.
    std::string id = "rope";
    const std::optional<Method> parsed = parse_method(id);
    id = "xxxx";
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->id(), "rope");
}

// A command-line option names one quantity: a method's field never takes the option of a field common to
// every method with another meaning (the scenario's window span against Swin's window size, once both were
// --window-size: one value set both). The one shared option is xPos's own causal flag, which means the
// scenario's causal mask (--causal sets both, as the panel does).
TEST(Registry, NoMethodFieldSharesACommonFieldsOption)
{
    std::set<std::string> common;
    for (const Field& f : common_fields())
        EXPECT_TRUE(common.insert(f.option_name()).second) << f.option_name();
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields) {
            if (d.method.id() == "xpos" && f.key == "causal")
                continue;
            EXPECT_EQ(common.count(f.option_name()), 0u) << d.method.id() << "." << f.key << " is --"
                                                         << f.option_name() << ", a common field's option";
        }
}

// Ids are string literals: a Method or MatrixKind cannot be made from a run-time string, which could
// die before it (a temporary's view dangled). Run-time ids go through parse_method.
static_assert(std::is_constructible_v<Method, const char (&)[5]>);
static_assert(!std::is_constructible_v<Method, const char*>);
static_assert(!std::is_constructible_v<Method, std::string>);
static_assert(!std::is_constructible_v<Method, std::string_view>);
static_assert(!std::is_constructible_v<MatrixKind, std::string>);
static_assert(!std::is_constructible_v<MatrixKind, std::string_view>);

TEST(Registry, DefaultsAreValidAndRangesAreEnforced)
{
    for (const MethodDescriptor& d : methods()) {
        Scenario s;
        s.method = d.method;
        ASSERT_NO_THROW(validate(s)) << d.method.id();
        for (const Field& f : d.fields) {
            if (f.type != FieldType::Int && f.type != FieldType::Real)
                continue;
            // Just outside the range on either side: ParameterError naming the field and its allowed().
            for (double outside : {f.lo - 1, f.hi + 1, f.hi * 2}) {
                Scenario bad = s;
                if (f.type == FieldType::Int)
                    f.set(bad, static_cast<std::int64_t>(outside));
                else
                    f.set(bad, outside);
                try {
                    validate(bad);
                    ADD_FAILURE() << d.method.id() << "." << f.key << " accepted " << outside;
                } catch (const ParameterError& e) {
                    EXPECT_EQ(e.parameter(), f.key);
                    EXPECT_EQ(e.allowed(), f.allowed());
                }
            }
        }
    }
}

TEST(Registry, EveryFieldRoundTripsThroughSessionJson)
{
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields) {
            Scenario s;
            s.method = d.method;
            const json v = other_value(f, f.get(s));
            f.set(s, v);
            ASSERT_EQ(f.get(s), v) << d.method.id() << "." << f.key;
            const Scenario back = scenario_from_json(scenario_to_json(s));
            EXPECT_EQ(f.get(back), v) << d.method.id() << "." << f.key;
            EXPECT_TRUE(back == s) << d.method.id() << "." << f.key;
            EXPECT_FALSE(back == Scenario{}) << d.method.id() << "." << f.key; // the edit is seen by ==
        }
}

TEST(Registry, OlderSessionKeysStillRead)
{
    const Scenario s = scenario_from_json(json{
        {"learned", {{"dim", 96}, {"trained_length", 300}, {"stddev", 0.5}}}, {"t5", {{"num_buckets", 16}}}});
    EXPECT_EQ(s.params<LearnedParams>().dim, 96);
    EXPECT_EQ(s.params<LearnedParams>().trained_length, 300);
    EXPECT_EQ(s.params<LearnedParams>().stddev, 0.5);
    EXPECT_EQ(s.params<T5Params>().num_buckets, 16);
}

TEST(Registry, EveryMethodComputesEveryKind)
{
    for (const MethodDescriptor& d : methods())
        for (const MatrixKindSpec& k : d.kinds)
            for (ContentKind content : {ContentKind::Ones, ContentKind::Random}) {
                Scenario s;
                s.method = d.method;
                s.seq_len = 48;
                s.content.kind = content;
                const MatrixResult r = compute_matrix(s, k.kind, {});
                int finite = 0;
                for (Eigen::Index i = 0; i < r.values.size(); ++i)
                    finite += std::isfinite(r.values.data()[i]) ? 1 : 0;
                EXPECT_GT(finite, 0) << d.method.id() << " " << k.kind.id();
                // Downsampled: block means where the descriptor says so, else point samples.
                const MatrixResult down = compute_matrix(s, k.kind, {.out_rows = 6, .out_cols = 6});
                EXPECT_EQ(down.sampling == MatrixSampling::BlockMean, k.block_means && k.block_means(s))
                    << d.method.id() << " " << k.kind.id();
            }
}

namespace {

// The distinct placeholders %1 ... %9 of a source text.
std::set<char> placeholders(std::string_view text)
{
    std::set<char> out;
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '%' && text[i + 1] >= '1' && text[i + 1] <= '9')
            out.insert(text[i + 1]);
    return out;
}

// Every part has a text and one argument per placeholder, numbered from %1 on.
void expect_well_formed(const ExplanationText& e, const std::string& where)
{
    for (const auto* list : {&e.parts, &e.notes})
        for (const ExplanationPart& part : *list) {
            ASSERT_NE(part.text, nullptr) << where;
            EXPECT_GT(std::string_view(part.text).size(), 20u) << where;
            const std::set<char> p = placeholders(part.text);
            EXPECT_EQ(p.size(), part.args.size()) << where << ": " << part.text;
            if (!p.empty()) {
                EXPECT_EQ(*p.rbegin() - '0', static_cast<int>(p.size())) << where << ": " << part.text;
            }
        }
}

std::string first_sentences(const ExplanationText& e)
{
    std::string out;
    for (const ExplanationPart& part : e.parts)
        out += std::string(part.text) + " ";
    return out;
}

} // namespace

// "What am I looking at?" is the method's own: its descriptor explains every kind it offers (the Weights
// kind the registry adds too) and its curves, with every content, and no two kinds alike.
TEST(Registry, EveryMethodExplainsEveryKindItOffers)
{
    for (const MethodDescriptor& d : methods()) {
        const std::string id(d.method.id());
        ASSERT_TRUE(d.explain) << id << " has no explanation";
        ASSERT_TRUE(d.explain_curves) << id;
        for (ContentKind content : {ContentKind::Ones, ContentKind::Zero, ContentKind::Random}) {
            Scenario s;
            s.method = d.method;
            s.content.kind = content;
            std::set<std::string> texts;
            for (const MatrixKindSpec& k : d.kinds) {
                const std::string where = id + " " + std::string(k.kind.id());
                const ExplanationText e = d.explain(s, k.kind);
                EXPECT_FALSE(e.parts.empty()) << where;
                expect_well_formed(e, where);
                EXPECT_TRUE(texts.insert(first_sentences(e)).second)
                    << where << " says what another kind says";
            }
            const ExplanationText curves = d.explain_curves(s);
            EXPECT_FALSE(curves.parts.empty()) << id << " curves";
            expect_well_formed(curves, id + " curves");
        }
    }
}

// `posatlas compute` takes the method a quantity needs from the descriptors: the one that lists it.
TEST(Registry, EveryQuantityBelongsToTheMethodThatListsIt)
{
    std::set<std::string> seen;
    for (const MethodDescriptor& d : methods())
        for (const std::string& q : d.quantities) {
            EXPECT_TRUE(seen.insert(q).second) << q << " is listed twice";
            EXPECT_EQ(quantity_method(q), d.method) << q;
        }
    EXPECT_EQ(quantity_method("rope-decay"), Method::RoPE);
    EXPECT_EQ(quantity_method("t5-buckets"), Method::T5);
    EXPECT_FALSE(quantity_method("matrix"));
    EXPECT_FALSE(quantity_method("no-such-quantity"));
}
