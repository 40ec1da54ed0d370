// SPDX-License-Identifier: GPL-3.0-or-later
// Untrusted input files: nesting limits, number overflow, devices and FIFOs, size limits, escaping of
// quoted bytes, one exception type, and the keys named in messages. Every test feeds the input that
// used to crash, hang or print raw bytes.
#include "analysis/attention_entropy.h"
#include "io/input_file.h"
#include "io/model_config.h"
#include "io/scenario_json.h"
#include "methods/learned/learned.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <type_traits>

#include <sys/stat.h>
#include <unistd.h>

using namespace posatlas;
namespace fs = std::filesystem;

static_assert(std::is_base_of_v<InputFileError, ConfigError>);
static_assert(std::is_base_of_v<InputFileError, ScenarioJsonError>);
static_assert(std::is_base_of_v<InputFileError, LearnedTableError>);

namespace {

fs::path temp_dir()
{
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("posatlas_input_tests_" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

fs::path write_file(const std::string& name, const std::string& bytes)
{
    const fs::path p = temp_dir() / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

std::string nested(int depth, const std::string& inner = "1")
{
    return "{\"model_type\":\"llama\",\"rope_theta\":" + std::string(static_cast<std::size_t>(depth), '[') +
           inner + std::string(static_cast<std::size_t>(depth), ']') + "}";
}

bool has_control_bytes(const std::string& s)
{
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7F)
            return true;
    return false;
}

} // namespace

TEST(JsonInput, DeepNestingIsRefusedBeforeParsing)
{
    // 100000 levels (200 kB) overflowed the stack of nlohmann's recursive DOM code.
    const std::string text = nested(100000);
    try {
        parse_json_input(text);
        FAIL() << "accepted 100000 levels of nesting";
    } catch (const InputFileError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("nested deeper than 64"), std::string::npos) << what;
        EXPECT_LT(what.size(), 200u) << "the message must not dump the value";
    }
}

TEST(JsonInput, DepthLimitIsExactAndStringsDoNotCount)
{
    // The object itself is one level: 63 more arrays make 64 (accepted), 64 more make 65 (refused).
    EXPECT_NO_THROW(parse_json_input(nested(kMaxJsonDepth - 1)));
    EXPECT_THROW(parse_json_input(nested(kMaxJsonDepth)), InputFileError);
    // Brackets inside strings, also after an escaped quote, are text.
    const std::string brackets =
        "{\"a\":\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"}";
    EXPECT_NO_THROW(parse_json_input(brackets));
}

TEST(JsonInput, NumberOverflowAndSyntaxErrorsAreInputErrors)
{
    // nlohmann throws out_of_range (not parse_error) for 1e400: it used to escape as "internal error".
    EXPECT_THROW(parse_json_input(R"({"rope_theta": 1e400})"), InputFileError);
    EXPECT_THROW(parse_json_input("{\"a\": }"), InputFileError);
    EXPECT_THROW(parse_json_input(""), InputFileError);
    EXPECT_EQ(parse_json_input(R"({"a": [1, 2]})").at("a").size(), 2u);
}

std::string json_error(std::string_view text, std::uint64_t max_values = kMaxJsonValues)
{
    try {
        parse_json_input(text, max_values);
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(JsonInput, ErrorsSayWhereInPlainWordsNotTheLibrarys)
{
    const struct {
        std::string_view text;
        const char* expected;
    } cases[] = {
        {R"({"rope_theta": 1e400})",
         "key 'rope_theta': the number 1e400 is out of range: a double holds at most about 1.8e308 "
         "(at byte 16, line 1, column 16)"},
        {"{\"a\": {\"b\": [1, 2, -1e999]}}", "key 'a.b[2]': the number -1e999 is out of range"},
        {"1e400", "the number 1e400 is out of range"},
        {"{\"a\": tru}", "not valid JSON at byte 10, line 1, column 10: near key 'a': not a JSON value"},
        {"{\"a\": 1,\n \"b\": }",
         "not valid JSON at byte 16, line 2, column 7: near key 'b': unexpected '}'; "
         "expected a value"},
        {"{\"a\": ", "not valid JSON at byte 6, line 1, column 6: near key 'a': the text ends too early; "
                     "expected a value"},
        {"[1, 2] x", "not valid JSON at byte 8, line 1, column 8: not a JSON value (a value is a number"},
        {"\"a\nb\"", "not valid JSON at byte 3, line 1, column 3: a string: control character U+000A (LF) "
                     "must be escaped"},
        {"", "not valid JSON: the text is empty"},
        {" \n", "not valid JSON: the text is empty"},
    };
    for (const auto& c : cases) {
        const std::string what = json_error(c.text);
        SCOPED_TRACE(std::string(c.text));
        EXPECT_NE(what.find(c.expected), std::string::npos) << what;
        EXPECT_EQ(what.find("json.exception"), std::string::npos) << what;
        EXPECT_EQ(what.find("literal"), std::string::npos) << what;
    }
}

TEST(JsonInput, ValueLimitIsExactAndNamesTheKey)
{
    // [1, 2, 3] is 4 values (the array counts), {"a": [1]} 2.
    EXPECT_EQ(json_error("[1, 2, 3]", 4), "(accepted)");
    EXPECT_EQ(json_error("[1, 2, 3]", 3),
              "key '[2]': not accepted as JSON: more than 3 values (the limit for this file)");
    EXPECT_EQ(json_error(R"({"a": {"b": [1]}})", 3),
              "key 'a.b[0]': not accepted as JSON: more than 3 values (the limit for this file)");
    EXPECT_EQ(json_error("{}", 1), "(accepted)");
    // The default bounds the document whatever the text: 2^21 values, about 200 MiB parsed.
    std::string many = "[";
    for (std::uint64_t i = 0; i < kMaxJsonValues; ++i)
        many += "0,";
    many.back() = ']';
    EXPECT_NE(json_error(many).find("more than 2097152 values"), std::string::npos);
    many.resize(many.size() - 3);
    many += "]";
    EXPECT_EQ(json_error(many), "(accepted)");
}

TEST(JsonInput, ModelConfigFileNamesPathAndNeverDumpsTheValue)
{
    const fs::path deep = write_file("deep.json", nested(100000));
    try {
        load_model_config(deep.string());
        FAIL();
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(deep.string() + ": ", 0), 0u) << what;
        EXPECT_EQ(what.find("[[["), std::string::npos) << what;
    }
    const fs::path overflow = write_file("overflow.json", R"({"model_type": "llama", "rope_theta": 1e400})");
    EXPECT_THROW(load_model_config(overflow.string()), ConfigError);
    // A wrong type deep inside (within the limit) names the type only, not the nested value.
    const fs::path wrong = write_file("wrong.json", nested(30));
    try {
        load_model_config(wrong.string());
        FAIL();
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("rope_theta"), std::string::npos) << what;
        EXPECT_NE(what.find("an array"), std::string::npos) << what;
        EXPECT_EQ(what.find("[["), std::string::npos) << what;
    }
}

TEST(InputFile, ReadsRegularFilesOnly)
{
    const fs::path good = write_file("good.txt", "hello");
    EXPECT_EQ(read_input_file(good.string(), 100), "hello");

    // A symlink to a device that never ends: refused by fstat on the opened descriptor, at once.
    const fs::path zero = temp_dir() / "z.posatlas.json";
    fs::remove(zero);
    fs::create_symlink("/dev/zero", zero);
    EXPECT_THROW(read_input_file(zero.string(), 1 << 20), InputFileError);

    // A FIFO without a writer: opening it must not block (O_NONBLOCK), and it is refused.
    const fs::path fifo = temp_dir() / "fifo.json";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    try {
        read_input_file(fifo.string(), 1 << 20);
        FAIL() << "a FIFO was read";
    } catch (const InputFileError& e) {
        EXPECT_NE(std::string(e.what()).find("FIFO"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));

    EXPECT_THROW(read_input_file(temp_dir().string(), 100), InputFileError); // a directory
    EXPECT_THROW(read_input_file((temp_dir() / "absent").string(), 100), InputFileError);
}

TEST(InputFile, RefusesFilesOverTheLimit)
{
    const fs::path big = write_file("big.txt", std::string(101, 'x'));
    EXPECT_THROW(read_input_file(big.string(), 100), InputFileError);
    EXPECT_EQ(read_input_file(big.string(), 101).size(), 101u);
}

TEST(InputFile, DevicesAsConfigSessionAndTableAreInputErrors)
{
    const fs::path zero = temp_dir() / "zero_config.json";
    fs::remove(zero);
    fs::create_symlink("/dev/zero", zero);
    EXPECT_THROW(load_model_config(zero.string()), ConfigError);
    const fs::path table = temp_dir() / "zero_table.csv";
    fs::remove(table);
    fs::create_symlink("/dev/zero", table);
    EXPECT_THROW(LearnedTable::load(table.string()), LearnedTableError);
}

TEST(QuoteInput, EscapesControlsAndInvalidUtf8)
{
    EXPECT_EQ(quote_input("abc"), "abc");
    EXPECT_EQ(quote_input("a\x1b[31mb"), "a\\x1b[31mb");
    EXPECT_EQ(quote_input("a\nb\tc\rd"), "a\\nb\\tc\\rd");
    EXPECT_EQ(quote_input(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(quote_input("\x7f"), "\\x7f");
    EXPECT_EQ(quote_input("θ′"), "θ′");                        // valid UTF-8 stays
    EXPECT_EQ(quote_input("\xff\xfe"), "\\xff\\xfe");          // invalid bytes
    EXPECT_EQ(quote_input("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
    EXPECT_EQ(quote_input("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a UTF-16 surrogate
    EXPECT_EQ(quote_input("\xc2\x9b"), "\\xc2\\x9b");          // C1 CSI, a terminal control
    EXPECT_EQ(quote_input("\xe2\x82"), "\\xe2\\x82");          // truncated sequence
    EXPECT_EQ(quote_input(std::string(50, 'x'), 10), std::string(10, 'x') + "...");
}

TEST(QuoteInput, TableMessagesNeverCarryRawBytes)
{
    const fs::path csv = write_file("evil.csv", "1,2\n3,\x1b]0;pwned\x07\n");
    try {
        LearnedTable::load(csv.string());
        FAIL();
    } catch (const LearnedTableError& e) {
        const std::string what = e.what();
        EXPECT_FALSE(has_control_bytes(what)) << what;
        EXPECT_NE(what.find("\\x1b]0;pwned\\x07"), std::string::npos) << what;
        EXPECT_NE(what.find("line 2, column 2"), std::string::npos) << what;
    }
    const std::string header = "{'descr': '<\x1b[2Jf8', 'fortran_order': False, 'shape': (1, 1), }\n";
    const std::string preamble =
        std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + static_cast<char>(0);
    const fs::path npy = write_file("evil.npy", preamble + header + std::string(8, '\0'));
    try {
        LearnedTable::load(npy.string());
        FAIL();
    } catch (const LearnedTableError& e) {
        const std::string what = e.what();
        EXPECT_FALSE(has_control_bytes(what)) << what;
        EXPECT_NE(what.find("unsupported dtype '<\\x1b[2Jf8'"), std::string::npos) << what;
    }
}

TEST(QuoteInput, ScenarioJsonAndConfigMessagesEscapeStrings)
{
    const nlohmann::json j = {{"method", "rope\x1b[2J"}};
    try {
        scenario_from_json(j);
        FAIL();
    } catch (const ScenarioJsonError& e) {
        EXPECT_FALSE(has_control_bytes(e.what())) << e.what();
        EXPECT_NE(std::string(e.what()).find("\\x1b[2J"), std::string::npos) << e.what();
    }
    const nlohmann::json cfg = {{"model_type", "llama"},
                                {"rope_scaling", {{"rope_type", "evil\x07"}, {"factor", 2}}}};
    try {
        import_model_config(cfg);
        FAIL();
    } catch (const ConfigError& e) {
        EXPECT_FALSE(has_control_bytes(e.what())) << e.what();
    }
}

TEST(ScenarioJsonKey, NamesTheSessionKeyOfAParameter)
{
    Scenario s;
    s.method = Method::RoPE;
    EXPECT_EQ(scenario_json_key(s, "head_dim"), "rope.head_dim");
    EXPECT_EQ(scenario_json_key(s, "seq_len"), "seq_len");
    s.method = Method::Learned;
    EXPECT_EQ(scenario_json_key(s, "max_position_embeddings"), "learned.max_position_embeddings");
    EXPECT_EQ(scenario_json_key(s, "initializer_range"), "learned.initializer_range");
    s.method = Method::T5;
    EXPECT_EQ(scenario_json_key(s, "relative_attention_num_buckets"), "t5.relative_attention_num_buckets");
    // The mapping agrees with validate(): a session with a bad value names an existing key.
    s.method = Method::RoPE;
    s.params<RopeParams>().head_dim = -64;
    try {
        validate(s);
        FAIL();
    } catch (const ParameterError& e) {
        const std::string key = scenario_json_key(s, e.parameter());
        EXPECT_TRUE(scenario_to_json(s).at("rope").contains(key.substr(5))) << key;
    }
}

TEST(MemoryBudget, RefusesWithTheLargestAllowedValue)
{
    EXPECT_NO_THROW(require_within_budget("length", kMemoryBudgetBytes / 1024, 1024, "x"));
    try {
        require_within_budget("length", kMemoryBudgetBytes / 1024 + 1, 1024, "the matrix");
        FAIL();
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "length");
        EXPECT_NE(e.allowed().find("at most " + std::to_string(kMemoryBudgetBytes / 1024)), std::string::npos)
            << e.allowed();
    }
}

TEST(MemoryBudget, AttentionEntropyRefusesTooManyLengths)
{
    RopeParams p;
    std::vector<std::int64_t> lengths(static_cast<std::size_t>(kMaxEntropyLengths) + 1, 16);
    EXPECT_THROW(attention_entropy(p, lengths, 1, 1), ParameterError);
    lengths.resize(static_cast<std::size_t>(kMaxEntropyLengths));
    EXPECT_NO_THROW(attention_entropy(p, lengths, 1, 1));
}
