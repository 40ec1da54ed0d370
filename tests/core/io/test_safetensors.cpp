// SPDX-License-Identifier: GPL-3.0-or-later
// Trained tables from .safetensors checkpoints (core/io/safetensors.h, LearnedTable::load).
// Fixtures are written by the tests byte by byte from the huggingface/safetensors README (tests/support/
// weights_fixtures.h). Float values are compared exactly: F32 values are exact binary fractions, and the
// F16 / BF16 widenings are checked bit for bit against IEEE 754 binary16 / bfloat16 definitions
// (value = (-1)^s * 2^(e - bias) * 1.m, subnormals 2^(1 - bias) * 0.m).
#include "io/safetensors.h"
#include "memory_limit.h"
#include "methods/learned/learned.h"
#include "scenario/validation.h"
#include "test_names.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>

#include <unistd.h>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir()
{
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("posatlas_safetensors_tests_" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

std::string write_file(const std::string& name, const std::string& bytes)
{
    const fs::path p = temp_dir() / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

std::uint32_t float_bits(float f)
{
    std::uint32_t b = 0;
    std::memcpy(&b, &f, 4);
    return b;
}

// The table of GPT-2's wpe used throughout: entry (p, c) = p + c / 4 (exact in every dtype here).
std::vector<float> table_values(int rows, int cols)
{
    std::vector<float> v;
    for (int p = 0; p < rows; ++p)
        for (int c = 0; c < cols; ++c)
            v.push_back(static_cast<float>(p + c / 4.0));
    return v;
}

// ------------------------------------------------------------------ widening

TEST(HalfToFloat, KnownValuesFromTheIeeeDefinition)
{
    EXPECT_EQ(half_to_float(0x3C00), 1.0f);
    EXPECT_EQ(half_to_float(0xC000), -2.0f);
    EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal 2^-24
    EXPECT_EQ(static_cast<double>(half_to_float(0x0001)), 5.9604644775390625e-08);
    EXPECT_EQ(half_to_float(0x03FF), std::ldexp(1023.0f, -24)); // largest subnormal
    EXPECT_EQ(half_to_float(0x0400), std::ldexp(1.0f, -14));    // smallest normal
    EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);                 // largest finite
    EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);
    EXPECT_EQ(half_to_float(0xFC00), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(half_to_float(0x7C00), std::numeric_limits<float>::infinity());
    EXPECT_EQ(float_bits(half_to_float(0x8000)), 0x80000000u); // -0 keeps its sign
    EXPECT_TRUE(std::isnan(half_to_float(0x7E00)));
    EXPECT_TRUE(std::isnan(half_to_float(0xFC01))); // signalling payload stays a NaN
}

TEST(HalfToFloat, EveryHalfValueMatchesTheDefinition)
{
    // All 65536 bit patterns against value = (-1)^s * 2^(e-15) * (1 + m/1024), e = 0: 2^-14 * m/1024.
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const int s = (h >> 15) & 1, e = (h >> 10) & 0x1F, m = h & 0x3FF;
        const float got = half_to_float(static_cast<std::uint16_t>(h));
        if (e == 31) {
            if (m == 0)
                EXPECT_EQ(got, s ? -INFINITY : INFINITY) << h;
            else
                EXPECT_TRUE(std::isnan(got)) << h;
            continue;
        }
        const double mag = e == 0 ? std::ldexp(static_cast<double>(m), -24) : std::ldexp(1024.0 + m, e - 25);
        EXPECT_EQ(static_cast<double>(got), s ? -mag : mag) << "bits " << h;
        EXPECT_EQ(std::signbit(got), s == 1) << h;
    }
}

TEST(Bfloat16ToFloat, KnownValuesAndEveryPatternIsTheUpperHalf)
{
    EXPECT_EQ(bfloat16_to_float(0x3F80), 1.0f);
    // 2^-133, a subnormal: 9.18354961579912e-41 to 15 digits; its shortest round-trip text has 16.
    EXPECT_EQ(static_cast<double>(bfloat16_to_float(0x0001)), 9.183549615799121e-41);
    EXPECT_EQ(bfloat16_to_float(0x0001), std::ldexp(1.0f, -133));
    EXPECT_EQ(bfloat16_to_float(0xFF80), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(bfloat16_to_float(0x7F7F), 3.3895313892515355e38f); // largest finite
    EXPECT_TRUE(std::isnan(bfloat16_to_float(0x7FC0)));
    for (std::uint32_t h = 0; h < 65536; ++h)
        ASSERT_EQ(float_bits(bfloat16_to_float(static_cast<std::uint16_t>(h))), h << 16) << h;
}

// ------------------------------------------------------------------ reading headers and values

TEST(Safetensors, ReadsHeaderShapesDtypesAndMetadata)
{
    const std::string path =
        write_file("mixed.safetensors",
                   safetensors_file({f32_tensor("wpe.weight", 4, 3, table_values(4, 3)),
                                     u16_tensor("h16", "F16", {2, 2}, {0x3C00, 0x0001, 0x7BFF, 0xFC00}),
                                     u16_tensor("b16", "BF16", {4}, {0x3F80, 0x0001, 0xFF80, 0xC000}),
                                     StTensor{"ids", "I64", {2}, std::string(16, '\0')}},
                                    R"({"format":"pt"})"));
    const SafetensorsCatalog cat = read_safetensors(path);
    ASSERT_EQ(cat.tensors.size(), 4u);
    EXPECT_EQ(cat.metadata.at("format"), "pt");
    const SafetensorsTensor* wpe = cat.find("wpe.weight");
    ASSERT_NE(wpe, nullptr);
    EXPECT_EQ(wpe->dtype, "F32");
    EXPECT_EQ(wpe->shape, (std::vector<std::int64_t>{4, 3}));
    EXPECT_EQ(wpe->begin, 0u);
    EXPECT_EQ(wpe->end, 48u);
    EXPECT_EQ(wpe->shape_text(), "4x3");

    const auto h = read_safetensors_values(*cat.find("h16"), 100);
    EXPECT_EQ(h, (std::vector<double>{1.0, 5.9604644775390625e-08, 65504.0, -INFINITY}));
    const auto b = read_safetensors_values(*cat.find("b16"), 100);
    EXPECT_EQ(b, (std::vector<double>{1.0, std::ldexp(1.0, -133), -INFINITY, -2.0}));
    const auto w = read_safetensors_values(*wpe, 100);
    for (int k = 0; k < 12; ++k)
        EXPECT_EQ(w[static_cast<std::size_t>(k)], (k / 3) + (k % 3) / 4.0);

    try {
        read_safetensors_values(*cat.find("ids"), 100);
        FAIL() << "an I64 tensor is not a float table";
    } catch (const SafetensorsError& e) {
        EXPECT_NE(std::string(e.what()).find("'ids' has dtype I64"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    try {
        read_safetensors_values(*wpe, 11);
        FAIL() << "12 values exceed a limit of 11";
    } catch (const SafetensorsError& e) {
        EXPECT_NE(std::string(e.what()).find("more than the limit of 11"), std::string::npos) << e.what();
    }
}

// A matrix is 2-D once leading dimensions of 1 are dropped (ViT's [1, 197, 768] position_embeddings); a
// batch of two, a vector or a scalar is not one.
TEST(Safetensors, MatrixShapeDropsLeadingDimensionsOfOne)
{
    const auto shape = [](std::vector<std::int64_t> dims) {
        SafetensorsTensor t;
        t.shape = std::move(dims);
        return t.matrix_shape();
    };
    EXPECT_EQ(shape({1, 197, 768}), std::make_pair(std::int64_t{197}, std::int64_t{768}));
    EXPECT_EQ(shape({1, 1, 3, 4}), std::make_pair(std::int64_t{3}, std::int64_t{4}));
    EXPECT_EQ(shape({1, 4}), std::make_pair(std::int64_t{1}, std::int64_t{4}));
    EXPECT_EQ(shape({1024, 768}), std::make_pair(std::int64_t{1024}, std::int64_t{768}));
    EXPECT_FALSE(shape({2, 3, 4}));
    EXPECT_FALSE(shape({5}));
    EXPECT_FALSE(shape({}));
}

TEST(Safetensors, ShardedIndexFindsEveryTensorInItsShard)
{
    write_file("sharded/model-00001-of-00002.safetensors",
               safetensors_file({f32_tensor("wte.weight", 2, 3, table_values(2, 3))}));
    write_file("sharded/model-00002-of-00002.safetensors",
               safetensors_file({f32_tensor("wpe.weight", 5, 3, table_values(5, 3)),
                                 f32_tensor("ln_f.weight", 1, 3, {1, 1, 1})}));
    const std::string index = write_file(
        "sharded/model.safetensors.index.json",
        R"({"metadata":{"total_size":96},"weight_map":{"wte.weight":"model-00001-of-00002.safetensors",)"
        R"("wpe.weight":"model-00002-of-00002.safetensors","ln_f.weight":"model-00002-of-00002.safetensors"}})");
    const SafetensorsCatalog cat = read_safetensors(index);
    ASSERT_EQ(cat.tensors.size(), 3u);
    EXPECT_NE(cat.find("wpe.weight")->file.find("model-00002-of-00002"), std::string::npos);

    // The learned table comes from the second shard, found automatically.
    const LearnedTable t = LearnedTable::load(index);
    EXPECT_EQ(t.tensor(), "wpe.weight");
    ASSERT_EQ(t.trained_length(), 5);
    ASSERT_EQ(t.dim(), 3);
    for (int p = 0; p < 5; ++p)
        for (int c = 0; c < 3; ++c)
            EXPECT_EQ(t.table()(p, c), p + c / 4.0);
}

TEST(Safetensors, IndexProblemsNameTheIndexAndTheTensor)
{
    write_file("badidx/a.safetensors", safetensors_file({f32_tensor("x", 1, 1, {1})}));
    const auto message = [](const std::string& index_text) {
        const std::string index = write_file("badidx/model.safetensors.index.json", index_text);
        try {
            read_safetensors(index);
        } catch (const SafetensorsError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(index), std::string::npos) << what;
            return what;
        }
        ADD_FAILURE() << "accepted: " << index_text;
        return std::string();
    };
    EXPECT_NE(message(R"({"metadata":{}})").find("weight_map"), std::string::npos);
    EXPECT_NE(message(R"({"weight_map":{"x":"../a.safetensors"}})").find("plain file name"),
              std::string::npos);
    EXPECT_NE(message(R"({"weight_map":{"y":"a.safetensors"}})").find("'y' is not in its shard"),
              std::string::npos);
    EXPECT_NE(message(R"({"weight_map":{"x":3}})").find("shard file name"), std::string::npos);
    EXPECT_NE(message(R"({"weight_map":{}})").find("empty"), std::string::npos);
    EXPECT_NE(message(R"({"weight_map":{"x":"missing.safetensors"}})").find("missing.safetensors"),
              std::string::npos);
}

// ------------------------------------------------------------------ learned tables

TEST(SafetensorsLearnedTable, F16AndBf16TablesAreWidenedExactly)
{
    // 2 x 2 tables of 1.0, 2^-24, 65504, -2 (F16) and 1.0, 2^-133, 3.3895313892515355e38, -2 (BF16).
    const std::string f16 = write_file(
        "f16.safetensors",
        safetensors_file({u16_tensor("wpe.weight", "F16", {2, 2}, {0x3C00, 0x0001, 0x7BFF, 0xC000})}));
    const LearnedTable a = LearnedTable::load(f16);
    EXPECT_EQ(a.table()(0, 0), 1.0);
    EXPECT_EQ(a.table()(0, 1), 5.9604644775390625e-08);
    EXPECT_EQ(a.table()(1, 0), 65504.0);
    EXPECT_EQ(a.table()(1, 1), -2.0);
    const std::string bf16 = write_file(
        "bf16.safetensors", safetensors_file({u16_tensor("bert.embeddings.position_embeddings.weight", "BF16",
                                                         {2, 2}, {0x3F80, 0x0001, 0x7F7F, 0xC000})}));
    const LearnedTable b = LearnedTable::load(bf16);
    EXPECT_EQ(b.tensor(), "bert.embeddings.position_embeddings.weight");
    EXPECT_EQ(b.table()(0, 0), 1.0);
    EXPECT_EQ(b.table()(0, 1), std::ldexp(1.0, -133)); // 9.18354961579912e-41
    EXPECT_EQ(b.table()(1, 0), 3.3895313892515355e38);
    EXPECT_EQ(b.table()(1, 1), -2.0);
}

TEST(SafetensorsLearnedTable, OptTableStartsTwoRowsIn)
{
    // HF OPTLearnedPositionalEmbedding: position p reads row p + 2 of a (n + 2) x d table.
    const std::string path = write_file(
        "opt.safetensors",
        safetensors_file({f32_tensor("model.decoder.embed_positions.weight", 6, 2, table_values(6, 2))}));
    const LearnedTable t = LearnedTable::load(path);
    EXPECT_EQ(t.row_offset(), 2);
    ASSERT_EQ(t.trained_length(), 4);
    for (int p = 0; p < 4; ++p) {
        EXPECT_EQ(t.table()(p, 0), p + 2.0);
        EXPECT_EQ(t.table()(p, 1), p + 2.25);
    }
}

TEST(SafetensorsLearnedTable, TensorPickedByNameAndAutomaticChoicePrefersLearned)
{
    const std::string path = write_file(
        "t5ish.safetensors",
        safetensors_file({f32_tensor("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                                     32, 2, table_values(32, 2)),
                          f32_tensor("other.weight", 3, 1, {7, 8, 9})}));
    // No learned absolute table: the message lists T5's tensor as a --tensor choice, and the tensors.
    try {
        LearnedTable::load(path);
        FAIL() << "a T5 checkpoint has no learned absolute table";
    } catch (const LearnedTableError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("T5's encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("other.weight (F32, 3x1)"), std::string::npos) << what;
    }
    const LearnedTable bias =
        LearnedTable::load(path, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    EXPECT_EQ(bias.trained_length(), 32); // buckets
    EXPECT_EQ(bias.dim(), 2);             // heads
    EXPECT_EQ(bias.table()(31, 1), 31.25);
    const LearnedTable other = LearnedTable::load(path, "other.weight");
    EXPECT_EQ(other.table()(2, 0), 9.0);
    EXPECT_EQ(known_position_tensor("deberta.encoder.rel_embeddings.weight")->method, "deberta");
}

TEST(SafetensorsLearnedTable, UnknownNameListsTheTensorsThatExist)
{
    const std::string path = write_file(
        "gpt2.safetensors", safetensors_file({f32_tensor("wpe.weight", 4, 3, table_values(4, 3)),
                                              f32_tensor("wte.weight", 2, 3, table_values(2, 3))}));
    try {
        LearnedTable::load(path, "transformer.wpe.weight");
        FAIL();
    } catch (const LearnedTableError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("no tensor 'transformer.wpe.weight'"), std::string::npos) << what;
        EXPECT_NE(what.find("wpe.weight (F32, 4x3), wte.weight (F32, 2x3)"), std::string::npos) << what;
        EXPECT_NE(what.find(path), std::string::npos) << what;
    }
}

TEST(SafetensorsLearnedTable, FromParamsReadsTheNamedTensor)
{
    const std::string path =
        write_file("params.safetensors", safetensors_file({f32_tensor("wpe.weight", 4, 3, table_values(4, 3)),
                                                           f32_tensor("pos", 2, 5, table_values(2, 5))}));
    LearnedParams p;
    p.table_path = path;
    p.table_tensor = "pos";
    const LearnedShape shape = learned_shape(p);
    EXPECT_EQ(shape.trained_length, 2);
    EXPECT_EQ(shape.dim, 5);
    p.table_tensor.clear();
    EXPECT_EQ(learned_shape(p).dim, 3);
    // A tensor name without a checkpoint is refused, not ignored.
    LearnedParams q;
    q.table_tensor = "wpe.weight";
    EXPECT_THROW(validate(q), ParameterError);
    // And a tensor name with a .csv table too.
    EXPECT_THROW(LearnedTable::load(std::string(POSATLAS_TEST_DATA) + "/learned_4x3.csv", "wpe.weight"),
                 LearnedTableError);
}

TEST(SafetensorsLearnedTable, WrongRankDtypeOrValuesAreClearErrors)
{
    const auto message = [](const std::string& name, const std::string& bytes, const std::string& tensor) {
        const std::string path = write_file(name, bytes);
        try {
            LearnedTable::load(path, tensor);
        } catch (const LearnedTableError& e) {
            EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
            return std::string(e.what());
        }
        ADD_FAILURE() << name << " accepted";
        return std::string();
    };
    EXPECT_NE(message("rank1.safetensors",
                      safetensors_file({StTensor{"v", "F32", {3}, std::string(12, '\0')}}), "v")
                  .find("a position table is 2-D"),
              std::string::npos);
    EXPECT_NE(message("int.safetensors",
                      safetensors_file({StTensor{"v", "I32", {1, 3}, std::string(12, '\0')}}), "v")
                  .find("dtype I32"),
              std::string::npos);
    EXPECT_NE(
        message("nan.safetensors", safetensors_file({u16_tensor("v", "F16", {1, 2}, {0x3C00, 0x7E00})}), "v")
            .find("stored row 0, column 1 is not finite"),
        std::string::npos);
    EXPECT_NE(message("opt_short.safetensors",
                      safetensors_file({f32_tensor("decoder.embed_positions.weight", 2, 1, {1, 2})}), "")
                  .find("no position rows"),
              std::string::npos);
}

// ------------------------------------------------------------------ hostile files

struct HostileCase {
    const char* name;
    std::string bytes;
    const char* expected; // part of the message
};

class SafetensorsHostile : public ::testing::TestWithParam<HostileCase>
{
};

TEST_P(SafetensorsHostile, ClearErrorNamingTheFile)
{
    const HostileCase& c = GetParam();
    const std::string path = write_file(std::string(c.name) + ".safetensors", c.bytes);
    try {
        read_safetensors(path);
        FAIL() << c.name << " was accepted";
    } catch (const SafetensorsError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
        EXPECT_NE(what.find(c.expected), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    // The learned table loader reports the same problem as a LearnedTableError.
    EXPECT_THROW(LearnedTable::load(path), LearnedTableError);
}

const std::string kGood = safetensors_header({f32_tensor("a", 1, 2, {1, 2})});

INSTANTIATE_TEST_SUITE_P(
    Files, SafetensorsHostile,
    ::testing::Values(
        HostileCase{"empty_file", "", "shorter than the 8-byte header length"},
        HostileCase{"header_longer_than_file", le_bytes(1000, 8) + "{}",
                    "header length 1000 is larger than the rest"},
        HostileCase{"header_length_2_to_62", le_bytes(std::uint64_t{1} << 62, 8) + "{}",
                    "header length 4611686018427387904"},
        HostileCase{"header_length_max", le_bytes(~std::uint64_t{0}, 8) + "{}",
                    "is larger than the rest of the file"},
        HostileCase{"non_json_header", safetensors_raw("{not json", ""), "the header is not valid JSON"},
        HostileCase{"header_is_array", safetensors_raw("[1,2]", ""), "must be a JSON object"},
        HostileCase{"deep_header", safetensors_raw(std::string(100, '[') + std::string(100, ']'), ""),
                    "nest"},
        HostileCase{"offsets_past_end",
                    safetensors_raw(R"({"a":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}})",
                                    std::string(4, '\0')),
                    "past the end of the data"},
        HostileCase{
            "offsets_huge",
            safetensors_raw(
                R"({"a":{"dtype":"F32","shape":[1,2],"data_offsets":[18446744073709551608,18446744073709551615]}})",
                ""),
            "past the end"},
        HostileCase{"begin_after_end",
                    safetensors_raw(R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})",
                                    std::string(8, '\0')),
                    "begin after their end"},
        HostileCase{"overlapping",
                    safetensors_raw(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                    R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                    std::string(12, '\0')),
                    "'b' overlaps tensor 'a'"},
        HostileCase{"byte_length_mismatch",
                    safetensors_raw(R"({"a":{"dtype":"F16","shape":[2,2],"data_offsets":[0,16]}})",
                                    std::string(16, '\0')),
                    "need 8 bytes but data_offsets hold 16"},
        HostileCase{
            "shape_product_overflows",
            safetensors_raw(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4],"data_offsets":[0,4]}})",
                            std::string(4, '\0')),
            "more than 2^62"},
        HostileCase{"negative_shape",
                    safetensors_raw(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})",
                                    std::string(4, '\0')),
                    "non-negative integers"},
        HostileCase{"unknown_dtype",
                    safetensors_raw(R"({"a":{"dtype":"Q4_K","shape":[1],"data_offsets":[0,1]}})",
                                    std::string(1, '\0')),
                    "unknown dtype 'Q4_K'"},
        HostileCase{"missing_offsets",
                    safetensors_raw(R"({"a":{"dtype":"F32","shape":[1]}})", std::string(4, '\0')),
                    "data_offsets must be [BEGIN, END]"},
        HostileCase{"tensor_not_object", safetensors_raw(R"({"a":5})", ""), "must be an object"},
        HostileCase{"metadata_not_object", safetensors_raw(R"({"__metadata__":[1]})", ""), "__metadata__"},
        HostileCase{"truncated_data", safetensors_raw(kGood, std::string(5, '\0')),
                    "past the end of the data"}),
    [](const ::testing::TestParamInfo<HostileCase>& info) { return param_name(info.param.name); });

TEST(Safetensors, EveryTruncationOfAGoodFileIsACleanError)
{
    const std::string good = safetensors_file(
        {f32_tensor("wpe.weight", 2, 2, {1, 2, 3, 4}), u16_tensor("b", "BF16", {2}, {0x3F80, 0x4000})});
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::string path = write_file("prefix.safetensors", good.substr(0, n));
        EXPECT_THROW(read_safetensors(path), SafetensorsError) << "prefix of " << n << " bytes";
    }
    const std::string path = write_file("prefix.safetensors", good);
    EXPECT_EQ(LearnedTable::load(path).table()(1, 1), 4.0);
}

TEST(Safetensors, NotARegularFileOrMissing)
{
    EXPECT_THROW(read_safetensors((temp_dir() / "absent.safetensors").string()), SafetensorsError);
    EXPECT_THROW(read_safetensors(temp_dir().string() + "/"), SafetensorsError);
    EXPECT_THROW(read_safetensors("/dev/zero"), SafetensorsError);
}

#ifndef POSATLAS_SANITIZED
// A header of 99 MB, under the 100 MiB limit: "{" prefix entry(0) entry(1) ... suffix "}".
std::string big_header(const std::string& prefix, const std::function<std::string(std::uint64_t)>& entry,
                       const std::string& suffix)
{
    const std::size_t target = 99'000'000;
    std::string h = "{" + prefix;
    h.reserve(target + 200);
    for (std::uint64_t i = 0; h.size() + suffix.size() + 100 < target; ++i)
        h.append(entry(i)); // append(): GCC 12 -Wrestrict false positive on +
    return h + suffix + "}";
}

// The README's promise: one request takes at most 1 GiB, also for a header of 99 MB made of tiny values
// (its parsed document used to cost ~20 bytes of memory per byte: 1.86 GB).
TEST(Safetensors, LargestHeaderReadsWithinOneGibibyte)
{
    const struct {
        const char* name;
        std::string header;
    } cases[] = {
        // One tensor whose shape has 50 million dimensions of 1 (and a 0: no data).
        {"long_shape", big_header(R"("t":{"dtype":"F32","data_offsets":[0,0],"shape":[)",
                                  [](std::uint64_t) { return std::string("1,"); }, "0]}")},
        // 1.6 million empty tensors.
        {"many_tensors", big_header(R"("__metadata__":{"format":"pt"})",
                                    [](std::uint64_t i) {
                                        return ",\"t" + std::to_string(i) +
                                               R"(":{"dtype":"F32","shape":[0],"data_offsets":[0,0]})";
                                    },
                                    "")},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string path =
            write_file(std::string(c.name) + ".safetensors", safetensors_raw(c.header, ""));
        const int status = run_with_memory_limit(std::uint64_t{1} << 30, [&] {
            try {
                read_safetensors(path);
            } catch (const SafetensorsError&) { // refused with a message: fine
            }
        });
        EXPECT_EQ(status, kBodyReturned) << "3: out of memory; 4: another exception; < 0: killed by a signal";
        fs::remove(path);
    }
}
#endif

} // namespace
