// SPDX-License-Identifier: GPL-3.0-or-later
// A trained T5 bias table in place of the seeded stand-in. Checkpoints are written byte by
// byte from the safetensors spec (tests/support/weights_fixtures.h), with the tensor names of Hugging Face
// T5ForConditionalGeneration (T5Stack: only block 0 has relative_attention_bias, shape buckets x heads).
// Reference for the lookup: HF T5Attention.compute_bias, values = relative_attention_bias(bucket)
// permuted to (heads, query, key), i.e. bias(i, j, h) = table(bucket(j - i), h); buckets themselves are
// tested against HF in test_t5_buckets.cpp. Every comparison is exact (the stored floats are read
// exactly, and the bias kind adds nothing to them).
#include "compute/attention_logits.h"
#include "methods/learned/learned.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/types.h"
#include "scenario/validation.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kEncoder = "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight";
constexpr const char* kDecoder = "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight";

std::string write(const std::string& name, const std::string& bytes)
{
    const fs::path dir = fs::temp_directory_path() / ("posatlas_t5_trained_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

// buckets x heads, entry (b, h) = b + h / 8 - 3 (exact in float32), distinct for every bucket and head.
std::vector<float> ramp(int buckets, int heads, float shift = 0.0f)
{
    std::vector<float> v;
    for (int b = 0; b < buckets; ++b)
        for (int h = 0; h < heads; ++h)
            v.push_back(static_cast<float>(b) + static_cast<float>(h) / 8.0f - 3.0f + shift);
    return v;
}

// A T5-small-like checkpoint: encoder and decoder tables (32 x 8), and an unrelated matrix.
std::string t5_checkpoint()
{
    return write("t5.safetensors", safetensors_file({f32_tensor(kDecoder, 32, 8, ramp(32, 8, 100.0f)),
                                                     f32_tensor(kEncoder, 32, 8, ramp(32, 8)),
                                                     f32_tensor("shared.weight", 3, 2, {1, 2, 3, 4, 5, 6})}));
}

// The ParameterError validate(p) throws, or nullopt when it accepts p.
std::optional<ParameterError> refusal(const T5Params& p)
{
    try {
        validate(p);
    } catch (const ParameterError& e) {
        return e;
    }
    return std::nullopt;
}

} // namespace

TEST(T5Trained, CheckpointWithoutTensorNameGivesTheEncoderTableAndItsShape)
{
    T5Params p; // 32 buckets, 12 heads by default
    const T5TrainedBias t = t5_use_trained_bias(p, t5_checkpoint());
    EXPECT_EQ(t.tensor, kEncoder);
    EXPECT_FALSE(t.decoder);
    EXPECT_EQ(p.bias_tensor, kEncoder); // named, so a session reproduces it
    EXPECT_EQ(p.num_buckets, 32);
    EXPECT_EQ(p.num_heads, 8);
    EXPECT_TRUE(p.bidirectional);
    EXPECT_NO_THROW(validate(p));
    const Eigen::MatrixXd table = t5_bias_table(p);
    ASSERT_EQ(table.rows(), 32);
    ASSERT_EQ(table.cols(), 8);
    EXPECT_EQ(table(0, 0), -3.0);
    EXPECT_EQ(table(31, 7), 31.0 + 7.0 / 8.0 - 3.0);
    // Not the stand-in: another seed changes nothing.
    p.seed = 99;
    EXPECT_EQ(t5_bias_table(p), table);
}

TEST(T5Trained, DecoderTableIsCausal)
{
    T5Params p;
    const T5TrainedBias t = t5_use_trained_bias(p, t5_checkpoint(), kDecoder);
    EXPECT_TRUE(t.decoder);
    EXPECT_FALSE(p.bidirectional);
    EXPECT_EQ(t5_bias_table(p)(5, 2), 5.0 + 2.0 / 8.0 - 3.0 + 100.0);
    // Bidirectional buckets would index a causal table with buckets it never learned.
    p.bidirectional = true;
    {
        const auto e = refusal(p);
        ASSERT_TRUE(e) << "bidirectional buckets accepted for the decoder's table";
        EXPECT_EQ(e->parameter(), "bidirectional");
        EXPECT_NE(e->allowed().find("decoder"), std::string::npos) << e->allowed();
    }
}

TEST(T5Trained, BiasMatrixIsTheStoredTableAtEachCellsBucket)
{
    Scenario s;
    s.method = Method::T5;
    s.seq_len = 300; // relative positions beyond max_distance 128 reach the last buckets
    auto& p = s.params<T5Params>();
    t5_use_trained_bias(p, t5_checkpoint());
    const Eigen::MatrixXd table = t5_bias_table(p);
    for (int head : {0, 5, 7}) {
        s.head = head;
        const MatrixResult r = compute_matrix(s, MatrixKind::Bias, {});
        ASSERT_EQ(r.values.rows(), 300);
        for (std::int64_t i = 0; i < 300; i += 7)
            for (std::int64_t j = 0; j < 300; j += 3) {
                const int b = t5_relative_position_bucket(j - i, true, 32, 128);
                ASSERT_EQ(r.values(i, j), table(b, head)) << i << ", " << j << ", head " << head;
            }
    }
}

TEST(T5Trained, ShapeMismatchNamesTheParameterAndTheTable)
{
    T5Params p;
    t5_use_trained_bias(p, t5_checkpoint());
    p.num_buckets = 64;
    {
        const auto e = refusal(p);
        ASSERT_TRUE(e) << "64 buckets accepted for a 32-row table";
        EXPECT_EQ(e->parameter(), "relative_attention_num_buckets");
        EXPECT_NE(e->allowed().find("32, the rows of the trained"), std::string::npos) << e->allowed();
        EXPECT_EQ(e->got(), "64");
    }
    p.num_buckets = 32;
    p.num_heads = 12;
    {
        const auto e = refusal(p);
        ASSERT_TRUE(e) << "12 heads accepted for an 8-column table";
        EXPECT_EQ(e->parameter(), "num_heads");
        EXPECT_NE(e->allowed().find("8, the columns"), std::string::npos) << e->allowed();
    }
}

TEST(T5Trained, BadFilesAreRefusedWithTheFileNamedAndParamsUntouched)
{
    T5Params p;
    const T5Params before = p;
    // No T5 tensor: the message lists what the file has.
    const std::string gpt2 = write(
        "gpt2.safetensors", safetensors_file({f32_tensor("wpe.weight", 4, 2, {0, 1, 2, 3, 4, 5, 6, 7})}));
    try {
        t5_use_trained_bias(p, gpt2);
        FAIL() << "a checkpoint without a T5 table accepted";
    } catch (const LearnedTableError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("gpt2.safetensors"), std::string::npos) << m;
        EXPECT_NE(m.find("relative_attention_bias"), std::string::npos) << m;
        EXPECT_NE(m.find("wpe.weight (F32, 4x2)"), std::string::npos) << m;
    }
    EXPECT_EQ(p, before);
    // A named tensor of the wrong shape (a 1-D tensor, a table with more buckets than T5 allows) is
    // refused on the header, before its values are read.
    const std::string odd = write(
        "odd.safetensors", safetensors_file({StTensor{"vec", "F32", {4}, std::string(16, '\0')},
                                             StTensor{"wide", "F32", {5000, 1}, std::string(20000, '\0')}}));
    EXPECT_THROW(t5_use_trained_bias(p, odd, "vec"), LearnedTableError);
    try {
        t5_use_trained_bias(p, odd, "wide");
        FAIL() << "5000 buckets accepted";
    } catch (const LearnedTableError& e) {
        EXPECT_NE(std::string(e.what()).find("2 to 4096 buckets"), std::string::npos) << e.what();
    }
    // Missing file, truncated file, NaN in the table.
    EXPECT_THROW(t5_use_trained_bias(p, "/nonexistent/t5.safetensors"), LearnedTableError);
    const std::string whole = safetensors_file({f32_tensor(kEncoder, 4, 2, {0, 1, 2, 3, 4, 5, 6, 7})});
    EXPECT_THROW(t5_use_trained_bias(p, write("cut.safetensors", whole.substr(0, whole.size() - 3))),
                 LearnedTableError);
    const std::string nan =
        write("nan.safetensors",
              safetensors_file({f32_tensor(kEncoder, 4, 2, {0, 1, 2, std::nanf(""), 4, 5, 6, 7})}));
    EXPECT_THROW(t5_use_trained_bias(p, nan), LearnedTableError);
    EXPECT_EQ(p, before);
    // A tensor name without a file is refused, not ignored.
    p.bias_tensor = kEncoder;
    {
        const auto e = refusal(p);
        ASSERT_TRUE(e) << "bias_tensor without bias_weights accepted";
        EXPECT_EQ(e->parameter(), "bias_tensor");
    }
    // A file that disappears after it was chosen: validate names the field, not a crash.
    p = before;
    const std::string gone = write("gone.safetensors", whole);
    t5_use_trained_bias(p, gone);
    fs::remove(gone);
    {
        const auto e = refusal(p);
        ASSERT_TRUE(e) << "a missing table accepted";
        EXPECT_EQ(e->parameter(), "bias_weights");
        EXPECT_NE(e->got().find("gone.safetensors"), std::string::npos) << e->got();
    }
}

TEST(T5Trained, CsvTableKeepsTheDirectionAndTakesTheShape)
{
    T5Params p;
    p.bidirectional = false;
    p.num_buckets = 8;
    const std::string csv = write("bias.csv", "h0,h1\n0.5,-1\n1.5,-2\n2.5,-3\n3.5,-4\n");
    const T5TrainedBias t = t5_use_trained_bias(p, csv);
    EXPECT_TRUE(t.tensor.empty());
    EXPECT_EQ(p.num_buckets, 4);
    EXPECT_EQ(p.num_heads, 2);
    EXPECT_FALSE(p.bidirectional); // a plain table says nothing about its direction
    p.max_distance = 8;
    EXPECT_EQ(t5_bias_table(p)(3, 1), -4.0);
    // A CSV with a tensor name is an error (the learned table's loader says so).
    EXPECT_THROW(t5_use_trained_bias(p, csv, kEncoder), LearnedTableError);
}

TEST(T5Trained, CheckpointBiasIsUsedOnlyWhenTheCheckpointHasOne)
{
    T5Params p;
    EXPECT_TRUE(t5_use_checkpoint_bias(p, t5_checkpoint()));
    EXPECT_EQ(p.num_heads, 8);
    T5Params q;
    const std::string gpt2 =
        write("gpt2b.safetensors", safetensors_file({f32_tensor("wpe.weight", 2, 2, {0, 1, 2, 3})}));
    EXPECT_FALSE(t5_use_checkpoint_bias(q, gpt2));
    EXPECT_EQ(q, T5Params{});
}
