// SPDX-License-Identifier: GPL-3.0-or-later
// Every field of every registered method arrives through the command line: for each, the real
// `posatlas` is given `--<option> <value>` (an in-range value other than the default, as the session
// round trip in test_registry.cpp uses) and `posatlas compute scenario` prints the scenario it parsed;
// reading that back with core's session reader must give the value. A field whose option, parsing or
// JSON key went astray fails here by name. The options come from the registry, so a new method's
// fields are covered with no edit.
#include "cli_support.h"
#include "field_values.h"
#include "io/number_text.h"
#include "io/scenario_json.h"
#include "methods/registry.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/validation.h"
#include "test_names.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;
using nlohmann::json;

namespace {

// The command-line text of a field's JSON value.
std::string option_text(const json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    std::string text;
    if (v.is_array()) {
        for (const json& x : v) {
            if (!text.empty())
                text += ',';
            append_json_text(text, x);
        }
        return text;
    }
    append_json_text(text, v);
    return text;
}

// Values to try for a field, in order: other_value() first, then others of its range, so that a
// cross-field rule (beta_fast > beta_slow, an even bucket count when bidirectional, LongRoPE's factor
// lists) leaves one that the whole scenario accepts.
std::vector<json> candidates(const Field& f, const json& current)
{
    std::vector<json> out{other_value(f, current)};
    // M-RoPE's sections: three whole numbers that fill head_dim / 2 (64 at the default 128).
    if (f.key == "mrope_section")
        out.push_back(json::array({32, 16, 16}));
    switch (f.type) {
    case FieldType::Int: {
        // And one step of the field's spin box either way, when it is larger (a head dimension that must
        // be a multiple of 4 steps by 4).
        const auto step = static_cast<std::int64_t>(f.step);
        std::vector<std::int64_t> deltas{2, -1, -2};
        if (step > 2)
            deltas.insert(deltas.end(), {step, -step});
        for (std::int64_t d : deltas)
            if (const std::int64_t v = current.get<std::int64_t>() + d; v >= f.lo && v <= f.hi)
                out.emplace_back(v);
        break;
    }
    case FieldType::Real: {
        const double c = current.get<double>();
        out.emplace_back(c > f.lo ? (f.lo + c) / 2 : c * 1.5);
        out.emplace_back(c * 1.001);
        break;
    }
    case FieldType::Choice:
        for (const FieldChoice& choice : f.choices)
            if (choice.id != current.get<std::string>())
                out.emplace_back(std::string(choice.id));
        break;
    // Set by default (MLA's mscale = 1, DeepSeek-V3's): unset cannot be typed on the command line, so
    // other numbers of its range.
    case FieldType::OptionalReal:
        if (!current.is_null()) {
            const double c = current.get<double>();
            out = {json(c < f.hi ? (c + f.hi) / 2 : (f.lo + f.hi) / 2), json(c * 1.5)};
        }
        break;
    default: break;
    }
    return out;
}

struct FieldCase {
    Method method;
    const Field* field;
};

std::vector<FieldCase> every_field()
{
    std::vector<FieldCase> cases;
    for (const Field& f : common_fields()) // the scenario's own (seq_len, content, text, ...), under RoPE
        cases.push_back({Method::RoPE, &f});
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields)
            cases.push_back({d.method, &f});
    return cases;
}

class CliField : public ::testing::TestWithParam<FieldCase>
{
};

} // namespace

TEST_P(CliField, ArrivesThroughTheCommandLine)
{
    const MethodDescriptor& d = descriptor(GetParam().method);
    const Field& f = *GetParam().field;
    Scenario s;
    s.method = d.method;
    std::vector<std::string> args{"compute", "scenario", "--method", std::string(d.method.id())};
    // A field valid only beside another (a checkpoint's tensor beside its .safetensors file): that one
    // is set first, on the scenario and on the command line, and the field takes a value it allows.
    std::optional<json> text_value;
    // M-RoPE's token layout has a form of its own (items text:N, image:TxHxW): one in it.
    if (f.key == "token_layout")
        text_value = "text:2,image:1x4x4,text:1";
    if (f.key == "table_tensor") {
        const fs::path checkpoint =
            write_file("fields.safetensors",
                       safetensors_file({{"wpe.weight",
                                          "F32",
                                          {3, 2},
                                          f32_bytes(0.5f) + f32_bytes(-1.0f) + f32_bytes(2.0f) +
                                              f32_bytes(0.25f) + f32_bytes(1.0f) + f32_bytes(3.0f)}}));
        const Field& table = *d.field("table_path");
        table.set(s, checkpoint.string());
        args.insert(args.end(), {"--" + table.option_name(), checkpoint.string()});
        text_value = "wpe.weight";
    }
    // T5's trained bias table brings its shape (buckets x heads) and, from a checkpoint, its direction:
    // the expected scenario takes them as the command line does (t5_use_trained_bias).
    if (f.key == "bias_weights") {
        t5_use_trained_bias(s.params<T5Params>(), std::string(POSATLAS_TEST_DATA) + "/learned_4x3.csv");
        s.params<T5Params>().bias_path.clear();
    }
    if (f.key == "bias_tensor") {
        std::string data;
        for (int i = 0; i < 8 * 3; ++i)
            data += f32_bytes(static_cast<float>(i) - 2.5f);
        const fs::path checkpoint = write_file(
            "fields_t5.safetensors",
            safetensors_file({{"decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                               "F32",
                               {8, 3},
                               data}}));
        t5_use_trained_bias(s.params<T5Params>(), checkpoint.string());
        args.insert(args.end(), {"--" + d.field("bias_weights")->option_name(), checkpoint.string()});
        text_value = s.params<T5Params>().bias_tensor;
    }
    // A method's own table (Shaw's a^K, DeBERTa's relative embeddings, ...) must have the shape the
    // scenario gives it: a .csv of that shape for the file field, a .safetensors tensor of it for the
    // tensor field (its file field set first).
    const auto table_csv = [&](const Field& table) {
        const TableShape shape = table.table_shape(s);
        // A shape of any rows is checked by the method itself: 5 rows are ViT's CLS row and a 2 × 2 grid.
        const std::int64_t rows = shape.vector     ? 1
                                  : shape.rows < 0 ? 5
                                                   : shape.rows,
                           cols = shape.cols < 0 ? 2 : shape.cols;
        std::string text;
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c)
                text += std::to_string(static_cast<double>(r * cols + c) / 4.0) + (c + 1 < cols ? "," : "\n");
        return std::make_pair(write_file("fields_" + table.key + ".csv", text).string(),
                              std::make_pair(rows, cols));
    };
    if (f.table_shape)
        text_value = table_csv(f).first;
    if (const Field* table = f.key.size() > 7 ? d.field(f.key.substr(0, f.key.size() - 7)) : nullptr;
        table && table->table_shape && f.key.ends_with("_tensor")) {
        const auto [rows, cols] = table_csv(*table).second;
        std::string data;
        for (std::int64_t i = 0; i < rows * cols; ++i)
            data += f32_bytes(static_cast<float>(i) / 4.0f);
        const fs::path checkpoint = write_file("fields_" + table->key + ".safetensors",
                                               safetensors_file({{"t", "F32", {rows, cols}, data}}));
        table->set(s, checkpoint.string());
        args.insert(args.end(), {"--" + table->option_name(), checkpoint.string()});
        text_value = "t";
    }
    // The user's queries and keys come in pairs of files whose shape fits the scenario: two 4 x 4 tensors
    // of one safetensors file, with seq_len 4 and head_dim 4; the field under test is given last.
    const std::vector<std::pair<std::string, std::string>> content_files{
        {"queries", ""}, {"queries_tensor", "q"}, {"keys", ""}, {"keys_tensor", "k"}};
    if (std::any_of(content_files.begin(), content_files.end(),
                    [&](const auto& c) { return c.first == f.key; })) {
        std::string data;
        for (int i = 0; i < 16; ++i)
            data += f32_bytes(static_cast<float>(i) / 4.0f);
        const std::string st =
            write_file("fields_content.safetensors",
                       safetensors_file({{"k", "F32", {4, 4}, data}, {"q", "F32", {4, 4}, data}}))
                .string();
        for (const Field* g : all_fields())
            if (g == common_field("seq_len") || g->follows_seq_len)
                g->set(s, 4);
        d.field("head_dim")->set(s, 4);
        args.insert(args.end(), {"--seq-len", "4", "--head-dim", "4"});
        for (const auto& [key, value] : content_files) {
            const std::string text = value.empty() ? st : value;
            if (key == f.key) {
                text_value = text;
                continue;
            }
            common_field(key)->set(s, text);
            args.insert(args.end(), {"--" + common_field(key)->option_name(), text});
        }
    }
    json v;
    for (json c : candidates(f, f.get(s))) {
        if (f.type ==
            FieldType::Text) // a file the method reads (a real table of the test data), or a sentence
            c = text_value ? *text_value
                : f.path   ? json(std::string(POSATLAS_TEST_DATA) + "/learned_4x3.csv")
                           : json("the dog bit the man");
        Scenario t = s;
        f.set(t, c);
        try {
            validate(t);
        } catch (const ParameterError&) {
            continue;
        }
        v = c;
        break;
    }
    ASSERT_FALSE(v.is_null()) << "no value of " << f.key
                              << " other than its default is valid: give the test "
                                 "the field it depends on";
    if (f.type == FieldType::Bool)
        args.push_back("--" + f.option_name() + "=" + option_text(v));
    else
        args.insert(args.end(), {"--" + f.option_name(), option_text(v)});
    const Result r = run(args);
    ASSERT_EQ(r.status, 0) << "posatlas " << args.back() << ": " << r.err;
    const Scenario back = scenario_from_json(json::parse(r.out));
    EXPECT_EQ(back.method, d.method);
    EXPECT_EQ(f.get(back), v) << "--" << f.option_name() << " " << option_text(v) << " gave "
                              << f.get(back).dump();
    // Nothing else moved: the same edit made directly on a default scenario is the same scenario (with the
    // companion rule the panel applies too: a RoPE scaling type gets factor 4).
    f.set(s, v);
    if (f.companion)
        f.companion(s);
    if (&f == common_field("seq_len")) // --seq-len also sets the fields that follow it (rope_seq_len)
        for (const Field* g : all_fields())
            if (g->follows_seq_len)
                g->set(s, v);
    EXPECT_TRUE(back == s) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Registry, CliField, ::testing::ValuesIn(every_field()),
                         [](const ::testing::TestParamInfo<FieldCase>& info) {
                             const bool common = common_field(info.param.field->key) == info.param.field;
                             return param_name(
                                 (common ? std::string("scenario") : std::string(info.param.method.id())) +
                                 " " + info.param.field->key);
                         });

TEST(CliScenario, CsvListsEveryValueByItsDottedKey)
{
    const Result r = run({"compute", "scenario", "--preset", "llama-3.1-8b", "--format", "csv"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "key,value");
    EXPECT_NE(r.out.find("\nmethod,rope\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nrope.rope_theta,500000\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nrope.rope_type,llama3\n"), std::string::npos) << r.out;
}

// A scaling type chosen with factor 1 would be the identity: the command line gives it factor 4 as the
// panel does (Field::companion of rope_type), unless --factor is given.
TEST(CliScenario, AScalingTypeGetsTheFactorThePanelGivesIt)
{
    const auto factor_of = [](std::vector<std::string> args) {
        args.insert(args.begin(), {"compute", "scenario", "--method", "rope"});
        const Result r = run(args);
        EXPECT_EQ(r.status, 0) << r.err;
        return scenario_from_json(json::parse(r.out)).params<RopeParams>().factor;
    };
    EXPECT_EQ(factor_of({"--rope-type", "yarn"}), kDefaultScalingFactor);
    EXPECT_EQ(factor_of({"--rope-type", "linear", "--factor", "1"}), 1.0);
    EXPECT_EQ(factor_of({"--factor", "2", "--rope-type", "ntk"}), 2.0);
    EXPECT_EQ(factor_of({"--rope-type", "default"}), 1.0);
    // A config's own factor stays (files say what they mean): Llama 3.1's 8.
    const Result r = run({"compute", "scenario", "--preset", "llama-3.1-8b", "--rope-type", "yarn"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(scenario_from_json(json::parse(r.out)).params<RopeParams>().factor, 8.0);
}

TEST(CliScenario, AnOutOfRangeOptionNamesItsRange)
{
    const Result r = run({"compute", "scenario", "--method", "rope", "--head-dim", "3"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("head-dim"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}
