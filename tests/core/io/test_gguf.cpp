// SPDX-License-Identifier: GPL-3.0-or-later
// GGUF metadata import (core/io/gguf.h). Fixtures are written byte by byte from ggml docs/gguf.md with key
// names of llama.cpp gguf-py constants.py (tests/support/weights_fixtures.h). Expected scenario values are
// what the equivalent HF config.json gives (same rules as test_model_config.cpp); integers and exact
// binary fractions compare exactly, float32-stored values compare to their float32 value exactly.
#include "io/gguf.h"
#include "io/model_config.h"
#include "test_names.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

std::string write_file(const std::string& name, const std::string& bytes)
{
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("posatlas_gguf_tests_" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

bool has(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

// A Llama-3.1-like header: YaRN on an 8192-token original context, a tokenizer array to skip.
GgufWriter llama_yarn(std::uint32_t version)
{
    GgufWriter w(version, 291);
    w.string("general.architecture", "llama")
        .string("general.name", "tiny")
        .u32("llama.context_length", 32768)
        .u32("llama.embedding_length", 4096)
        .u32("llama.block_count", 32)
        .u32("llama.attention.head_count", 32)
        .u32("llama.attention.head_count_kv", 8)
        .f32("llama.rope.freq_base", 500000.0f)
        .u32("llama.rope.dimension_count", 128)
        .string("llama.rope.scaling.type", "yarn")
        .f32("llama.rope.scaling.factor", 4.0f)
        .u32("llama.rope.scaling.original_context_length", 8192)
        .f32("llama.rope.scaling.yarn_beta_fast", 16.0f)
        .f32("llama.rope.scaling.yarn_beta_slow", 2.0f)
        .f32("llama.rope.scaling.yarn_ext_factor", 1.0f)
        .string_array("tokenizer.ggml.tokens", 300)
        .u32_array("tokenizer.ggml.token_type", std::vector<std::uint32_t>(1000, 1))
        .f32("llama.attention.layer_norm_rms_epsilon", 1e-5f)
        .u32("llama.mystery_key", 7);
    return w;
}

TEST(Gguf, ReadsHeaderAndTypedKeyValues)
{
    const std::string path = write_file("llama3.gguf", llama_yarn(3).bytes());
    const GgufHeader h = read_gguf_header(path);
    EXPECT_EQ(h.version, 3u);
    EXPECT_EQ(h.tensor_count, 291u);
    ASSERT_EQ(h.kv.size(), 19u);
    EXPECT_EQ(h.find("general.architecture")->value, "llama");
    EXPECT_EQ(h.find("llama.rope.freq_base")->type, 6u);
    EXPECT_EQ(h.find("llama.rope.freq_base")->value.get<double>(), 500000.0);
    EXPECT_EQ(h.find("tokenizer.ggml.tokens")->array_length, 300u);
    EXPECT_EQ(h.find("tokenizer.ggml.tokens")->value.size(), kGgufKeptArray); // only the first kept
    EXPECT_EQ(h.find("tokenizer.ggml.tokens")->value[5], "t5");
    EXPECT_EQ(h.find("tokenizer.ggml.token_type")->array_length, 1000u);
    EXPECT_EQ(h.find("llama.attention.layer_norm_rms_epsilon")->value.get<double>(),
              static_cast<double>(1e-5f));
}

TEST(Gguf, LlamaYarnKeysMapToTheScenario)
{
    for (std::uint32_t version : {2u, 3u}) {
        const std::string path =
            write_file("llama_v" + std::to_string(version) + ".gguf", llama_yarn(version).bytes());
        const ConfigImport imp = load_model_config(path); // dispatches on .gguf
        const Scenario& s = imp.scenario;
        ASSERT_EQ(s.method, Method::RoPE);
        const RopeParams& r = s.params<RopeParams>();
        EXPECT_EQ(r.head_dim, 128); // 4096 / 32
        EXPECT_EQ(r.rope_theta, 500000.0);
        EXPECT_EQ(r.partial_rotary_factor, 1.0); // 128 of 128
        EXPECT_EQ(r.rope_type, RopeType::Yarn);
        EXPECT_EQ(r.factor, 4.0);
        EXPECT_EQ(r.max_position_embeddings, 32768);
        EXPECT_EQ(r.original_max_position_embeddings, 8192);
        EXPECT_EQ(r.beta_fast, 16.0);
        EXPECT_EQ(r.beta_slow, 2.0);
        EXPECT_EQ(imp.model_type, "llama");
        EXPECT_TRUE(has(imp.read_keys, "llama.rope.freq_base"));
        EXPECT_TRUE(has(imp.read_keys, "llama.rope.scaling.factor"));
        EXPECT_TRUE(has(imp.read_keys, "llama.rope.scaling.original_context_length"));
        EXPECT_TRUE(has(imp.read_keys, "llama.context_length"));
        EXPECT_TRUE(has(imp.ignored_keys, "llama.rope.scaling.yarn_ext_factor"));
        EXPECT_TRUE(has(imp.unknown_keys, "llama.mystery_key"));
        EXPECT_FALSE(has(imp.unknown_keys, "tokenizer.ggml.tokens"));
        EXPECT_FALSE(has(imp.unknown_keys, "llama.block_count"));
    }
}

TEST(Gguf, PartialRotaryLinearAndNoneScaling)
{
    // Phi-2: 2560 wide, 32 heads (head 80), 32 rotary dimensions: partial_rotary_factor 0.4.
    GgufWriter phi(3);
    phi.string("general.architecture", "phi2")
        .u32("phi2.context_length", 2048)
        .u32("phi2.embedding_length", 2560)
        .u32("phi2.attention.head_count", 32)
        .u32("phi2.rope.dimension_count", 32)
        .string("phi2.rope.scaling.type", "none")
        .f32("phi2.rope.scaling.factor", 8.0f);
    const ConfigImport a = load_model_config(write_file("phi2.gguf", phi.bytes()));
    EXPECT_EQ(a.model_type, "phi");
    EXPECT_EQ(a.scenario.params<RopeParams>().head_dim, 80);
    EXPECT_EQ(a.scenario.params<RopeParams>().rotary_dim(), 32);
    EXPECT_EQ(a.scenario.params<RopeParams>().rope_type, RopeType::Default);
    EXPECT_EQ(a.scenario.params<RopeParams>().factor, 1.0);
    EXPECT_TRUE(has(a.ignored_keys, "phi2.rope.scaling.factor"));

    // Legacy linear key and an explicit head size (attention.key_length), float64 base.
    GgufWriter lin(2);
    lin.string("general.architecture", "llama")
        .u32("llama.context_length", 4096)
        .u32("llama.embedding_length", 4096)
        .u32("llama.attention.head_count", 32)
        .u32("llama.attention.key_length", 64)
        .f64("llama.rope.freq_base", 1e6)
        .f32("llama.rope.scale_linear", 2.0f);
    const ConfigImport b = load_model_config(write_file("linear.gguf", lin.bytes()));
    EXPECT_EQ(b.scenario.params<RopeParams>().head_dim, 64);
    EXPECT_EQ(b.scenario.params<RopeParams>().rope_theta, 1e6);
    EXPECT_EQ(b.scenario.params<RopeParams>().rope_type, RopeType::Linear);
    EXPECT_EQ(b.scenario.params<RopeParams>().factor, 2.0);
    EXPECT_TRUE(has(b.read_keys, "llama.rope.scale_linear"));
    EXPECT_TRUE(has(b.read_keys, "llama.attention.key_length"));
}

TEST(Gguf, AlibiModelsAndTheirMaxBias)
{
    GgufWriter bloom(3);
    bloom.string("general.architecture", "bloom")
        .u32("bloom.context_length", 2048)
        .u32("bloom.embedding_length", 1024)
        .u32("bloom.attention.head_count", 16)
        .f32("bloom.attention.max_alibi_bias", 8.0f);
    const ConfigImport a = load_model_config(write_file("bloom.gguf", bloom.bytes()));
    ASSERT_EQ(a.scenario.method, Method::ALiBi);
    EXPECT_EQ(a.scenario.params<AlibiParams>().num_heads, 16);
    EXPECT_TRUE(has(a.read_keys, "bloom.attention.max_alibi_bias")); // 8: the reference slopes 2^(-8h/n)

    GgufWriter mpt(3);
    mpt.string("general.architecture", "mpt")
        .u32("mpt.context_length", 2048)
        .u32("mpt.embedding_length", 4096)
        .u32("mpt.attention.head_count", 32)
        .f32("mpt.attention.max_alibi_bias", 16.0f);
    const ConfigImport b = load_model_config(write_file("mpt.gguf", mpt.bytes()));
    ASSERT_EQ(b.scenario.method, Method::ALiBi);
    EXPECT_EQ(b.scenario.params<AlibiParams>().num_heads, 32);
    EXPECT_EQ(b.scenario.params<AlibiParams>().trained_length, 2048); // context_length as max_seq_len
    // Read as attn_config.alibi_bias_max; 16 is not the modelled 8, so it is reported as not modelled.
    EXPECT_TRUE(has(b.ignored_keys, "mpt.attention.max_alibi_bias"));
    EXPECT_TRUE(has(b.read_keys, "mpt.context_length"));

    GgufWriter bloom16(3);
    bloom16.string("general.architecture", "bloom")
        .u32("bloom.attention.head_count", 8)
        .f32("bloom.attention.max_alibi_bias", 16.0f);
    const ConfigImport c = load_model_config(write_file("bloom16.gguf", bloom16.bytes()));
    EXPECT_TRUE(has(c.ignored_keys, "bloom.attention.max_alibi_bias"));
}

// Gemma 3's layer keys (llama.cpp llama-arch.cpp: attention.sliding_window, attention.sliding_window_pattern
// as a period or one bool per layer, rope.freq_base_swa) give the layers the config.json would
// (Gemma3TextConfig: sliding when (i + 1) % 6 != 0, local base rope_local_base_freq).
TEST(Gguf, Gemma3LayerKeys)
{
    const auto gemma3 = [](GgufWriter& w) -> GgufWriter& {
        return w.string("general.architecture", "gemma3")
            .u32("gemma3.context_length", 32768)
            .u32("gemma3.embedding_length", 1152)
            .u32("gemma3.block_count", 12)
            .u32("gemma3.attention.head_count", 4)
            .u32("gemma3.attention.key_length", 256)
            .f32("gemma3.rope.freq_base", 1000000.0f)
            .f32("gemma3.rope.freq_base_swa", 10000.0f)
            .u32("gemma3.attention.sliding_window", 512);
    };
    GgufWriter period(3, 0);
    gemma3(period).u32("gemma3.attention.sliding_window_pattern", 6);
    std::string flags = le_bytes(7, 4) + le_bytes(12, 8);
    for (int i = 0; i < 12; ++i)
        flags += static_cast<char>((i + 1) % 6 != 0 ? 1 : 0);
    GgufWriter per_layer(3, 0);
    gemma3(per_layer).raw_kv("gemma3.attention.sliding_window_pattern", 9, flags);
    for (GgufWriter* w : {&period, &per_layer}) {
        const ConfigImport imp = load_model_config(write_file("gemma3_layers.gguf", w->bytes()));
        ASSERT_EQ(imp.layers.size(), 12u);
        for (const LayerAnatomy& a : imp.layers) {
            const bool global = (a.index + 1) % 6 == 0;
            EXPECT_EQ(a.attention, global ? LayerAttention::Global : LayerAttention::Sliding) << a.index;
            EXPECT_EQ(a.span, global ? 0 : 512);
            EXPECT_EQ(a.rope_theta, global ? 1e6 : 10000.0) << a.index;
        }
        EXPECT_TRUE(has(imp.read_keys, "gemma3.attention.sliding_window_pattern"));
        EXPECT_TRUE(has(imp.read_keys, "gemma3.rope.freq_base_swa"));
        EXPECT_TRUE(has(imp.read_keys, "gemma3.block_count"));
        EXPECT_TRUE(imp.ignored_keys.empty()) << imp.ignored_keys.front();
    }
}

TEST(Gguf, WrongTypesAndUnsupportedScalingNameTheGgufKey)
{
    const auto message = [](const std::string& name, const GgufWriter& w) {
        const std::string path = write_file(name, w.bytes());
        try {
            load_model_config(path);
        } catch (const ConfigError& e) {
            EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
            return std::string(e.what());
        }
        ADD_FAILURE() << name << " accepted";
        return std::string();
    };
    GgufWriter a(3);
    a.string("general.architecture", "llama").string("llama.rope.freq_base", "big");
    EXPECT_NE(message("type.gguf", a).find("llama.rope.freq_base must be a number"), std::string::npos);
    GgufWriter b(3);
    b.string("general.architecture", "llama").string("llama.rope.scaling.type", "dynamic");
    EXPECT_NE(
        message("scaling.gguf", b).find("llama.rope.scaling.type must be one of none|linear|yarn|longrope"),
        std::string::npos);
    GgufWriter c(3);
    c.u32("llama.context_length", 1);
    EXPECT_NE(message("noarch.gguf", c).find("no general.architecture"), std::string::npos);
    GgufWriter d(3);
    d.string("general.architecture", "llama").string("llama.rope.scaling.type", "yarn");
    EXPECT_NE(message("nofactor.gguf", d).find("factor"), std::string::npos);
}

struct HostileGguf {
    const char* name;
    std::string bytes;
    const char* expected;
};

class GgufHostile : public ::testing::TestWithParam<HostileGguf>
{
};

TEST_P(GgufHostile, ClearErrorNamingTheFile)
{
    const HostileGguf& c = GetParam();
    const std::string path = write_file(std::string(c.name) + ".gguf", c.bytes);
    try {
        load_model_config(path);
        FAIL() << c.name << " was accepted";
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
        EXPECT_NE(what.find(c.expected), std::string::npos) << what;
    }
}

const std::string kHead = std::string("GGUF") + le_bytes(3, 4) + le_bytes(0, 8);

INSTANTIATE_TEST_SUITE_P(
    Files, GgufHostile,
    ::testing::Values(
        HostileGguf{"empty", "", "shorter than the magic"},
        HostileGguf{"bad_magic", std::string("GGML") + le_bytes(3, 4) + le_bytes(0, 16),
                    "not the magic \"GGUF\""},
        HostileGguf{"version_1", std::string("GGUF") + le_bytes(1, 4) + le_bytes(0, 16),
                    "GGUF version 1 is not read"},
        HostileGguf{"big_endian", std::string("GGUF") + std::string("\0\0\0\3", 4) + le_bytes(0, 16),
                    "big-endian"},
        HostileGguf{"huge_kv_count", kHead + le_bytes(std::uint64_t{1} << 62, 8),
                    "key-value count 4611686018427387904"},
        HostileGguf{"too_many_key_values", kHead + le_bytes(70000, 8) + std::string(70000 * 13, '\0'),
                    "exceeds the limit of 65536"},
        HostileGguf{"huge_key_length",
                    kHead + le_bytes(1, 8) + le_bytes(std::uint64_t{1} << 62, 8) + "abc" + le_bytes(0, 32),
                    "has length 4611686018427387904, more than"},
        HostileGguf{"huge_string_length",
                    kHead + le_bytes(1, 8) + GgufWriter::str("general.name") + le_bytes(8, 4) +
                        le_bytes(~std::uint64_t{0}, 8),
                    "has length 18446744073709551615"},
        HostileGguf{"huge_array_length",
                    kHead + le_bytes(1, 8) + GgufWriter::str("tokenizer.ggml.tokens") + le_bytes(9, 4) +
                        le_bytes(8, 4) + le_bytes(std::uint64_t{1} << 61, 8) + "xx",
                    "array length 2305843009213693952"},
        HostileGguf{"unknown_type",
                    kHead + le_bytes(1, 8) + GgufWriter::str("k") + le_bytes(13, 4) + "xxxxxxxx",
                    "unknown value type 13"},
        HostileGguf{"bad_bool", kHead + le_bytes(1, 8) + GgufWriter::str("k") + le_bytes(7, 4) + "\x02",
                    "a bool must be 0 or 1"},
        HostileGguf{"deep_arrays",
                    [] {
                        std::string v;
                        for (int i = 0; i < 6; ++i)
                            v += le_bytes(9, 4) + le_bytes(1, 8);
                        return kHead + le_bytes(1, 8) + GgufWriter::str("k") + le_bytes(9, 4) + v +
                               le_bytes(0, 32);
                    }(),
                    "nested deeper than 4"},
        HostileGguf{"truncated_value",
                    kHead + le_bytes(1, 8) + GgufWriter::str("llama.context_length") + le_bytes(4, 4) +
                        "\x01",
                    "truncated GGUF file"}),
    [](const ::testing::TestParamInfo<HostileGguf>& info) { return param_name(info.param.name); });

TEST(Gguf, EveryTruncationIsACleanError)
{
    const std::string good = llama_yarn(3).bytes();
    // Every prefix shorter than the whole key-value section fails cleanly (a few bytes into each field).
    for (std::size_t n = 0; n < good.size(); n += (n < 400 ? 1 : 97)) {
        const std::string path = write_file("prefix.gguf", good.substr(0, n));
        EXPECT_THROW(read_gguf_header(path), ConfigError) << "prefix of " << n << " bytes";
    }
    EXPECT_NO_THROW(read_gguf_header(write_file("prefix.gguf", good)));
}

// A file of `bytes` bytes holding one key-value "x": an array of `n` elements of type `elem`, all zero
// (empty strings, empty uint8 arrays). The zeros are a hole of the file (sparse): nothing large on disk.
std::string sparse_array_file(const std::string& name, std::uint32_t elem, std::uint64_t n,
                              std::uint64_t bytes)
{
    const std::string path =
        write_file(name, GgufWriter().raw_kv("x", 9, le_bytes(elem, 4) + le_bytes(n, 8)).bytes());
    fs::resize_file(path, fs::file_size(path) + bytes);
    return path;
}

TEST(Gguf, ArrayOfHalfABillionEmptyArraysIsRefusedAfterTheValueLimit)
{
    // 6 GiB: 2^29 nested arrays of 12 bytes each (element type, length 0). Walking them all took 43 s.
    const std::uint64_t n = std::uint64_t{1} << 29;
    const std::string path = sparse_array_file("nested.gguf", 9, n, n * 12);
    try {
        read_gguf_header(path);
        ADD_FAILURE() << "expected ConfigError";
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find("key 'x': more than " + std::to_string(kGgufMaxValues) + " values"),
                  std::string::npos)
            << what;
    }
    fs::remove(path);
}

TEST(Gguf, ValueLimitIsExactAndLeavesRoomForTokenizerLists)
{
    // One key-value and kGgufMaxValues - 1 empty strings: exactly the limit (a tokenizer has ~10^5-10^6).
    std::string path = sparse_array_file("strings.gguf", 8, kGgufMaxValues - 1, (kGgufMaxValues - 1) * 8);
    EXPECT_EQ(read_gguf_header(path).find("x")->array_length, kGgufMaxValues - 1);
    path = sparse_array_file("strings.gguf", 8, kGgufMaxValues, kGgufMaxValues * 8);
    EXPECT_THROW(read_gguf_header(path), ConfigError);
    fs::remove(path);
}

} // namespace
