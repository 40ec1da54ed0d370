// SPDX-License-Identifier: GPL-3.0-or-later
// Trained checkpoints on the command line: `compute learned --weights F [--tensor NAME]` (.safetensors,
// fixtures written byte by byte from the huggingface/safetensors README) and `--config F.gguf` (GGUF
// header from ggml docs/gguf.md). Numbers are the exact float values stored, printed shortest round trip.
#include "cli_support.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using namespace posatlas::test;

// A GPT-2-like checkpoint: wpe 12 x 2 in F16 (row p = [p, the p-th of some exact halves]) and a wte.
std::string gpt2_file()
{
    std::vector<std::uint16_t> wpe;
    // Second column: 2^-24 (0x0001), 1/3 rounded to half (0x3555 = 0.333251953125), 65504 (0x7BFF), -2.
    const std::uint16_t second[] = {0x0001, 0x3555, 0x7BFF, 0xC000};
    // First column: p as a half (exact for small integers): 0x0000, 0x3C00 (1), 0x4000 (2), 0x4200 (3), ...
    const std::uint16_t ints[] = {0x0000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500,
                                  0x4600, 0x4700, 0x4800, 0x4880, 0x4900, 0x4980};
    for (int p = 0; p < 12; ++p) {
        wpe.push_back(ints[p]);
        wpe.push_back(second[p % 4]);
    }
    return write_file("gpt2.safetensors",
                      safetensors_file({u16_tensor("wpe.weight", "F16", {12, 2}, wpe),
                                        f32_tensor("wte.weight", 2, 3, {1, 2, 3, 4, 5, 6})},
                                       R"({"format":"pt"})"))
        .string();
}

TEST(CliWeights, ComputeLearnedPrintsTheStoredRowsExactly)
{
    const std::string f = gpt2_file();
    const Result r =
        run({"compute", "learned", "--weights", f, "--tensor", "wpe.weight", "--from", "0", "--to", "11"});
    ASSERT_EQ(r.status, 0) << r.err;
    // Shortest round-trip text of the widened halves.
    EXPECT_NE(r.out.find("5.960464477539063e-08"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("0.333251953125"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("65504"), std::string::npos) << r.out;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["tensor"], "wpe.weight");
    EXPECT_EQ(j["trained_length"], 12);
    EXPECT_EQ(j["dim"], 2);
    ASSERT_EQ(j["embedding"].size(), 12u);
    for (int p = 0; p < 12; ++p)
        EXPECT_EQ(j["embedding"][p][0].get<double>(), p) << p;
    EXPECT_EQ(j["embedding"][0][1].get<double>(), std::ldexp(1.0, -24));
    EXPECT_EQ(j["embedding"][3][1].get<double>(), -2.0);

    // Without --tensor the GPT-2 name is found; CSV gives the same numbers.
    const Result c =
        run({"compute", "learned", "--weights", f, "--from", "0", "--to", "1", "--format", "csv"});
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(c.out, "position,dimension_0,dimension_1\n0,0,5.960464477539063e-08\n1,1,0.333251953125\n");
}

TEST(CliWeights, UnknownTensorListsTheTensorsAndExitsTwo)
{
    const std::string f = gpt2_file();
    const Result r = run({"compute", "learned", "--weights", f, "--tensor", "transformer.wpe.weight",
                          "--from", "0", "--to", "1"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("--weights"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no tensor 'transformer.wpe.weight'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("wpe.weight (F16, 12x2), wte.weight (F32, 2x3)"), std::string::npos) << r.err;

    // A tensor name without a checkpoint is refused, not ignored.
    const Result t = run({"compute", "learned", "--tensor", "wpe.weight", "--from", "0", "--to", "1"});
    EXPECT_EQ(t.status, 2);
    EXPECT_NE(t.err.find("tensor"), std::string::npos) << t.err;

    // A hostile file: a clear message naming it, exit 2.
    const std::string bad =
        write_file("bad.safetensors", le_bytes(std::uint64_t{1} << 62, 8) + "{}").string();
    const Result b = run({"compute", "learned", "--weights", bad, "--from", "0", "--to", "1"});
    EXPECT_EQ(b.status, 2);
    EXPECT_NE(b.err.find(bad), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("header length"), std::string::npos) << b.err;
}

TEST(CliWeights, ExportAndMatrixUseTheCheckpointTable)
{
    const std::string f = gpt2_file();
    const fs::path csv = temp_dir() / "weights_heatmap.csv";
    const Result r = run({"export", "--method", "learned", "--weights", f, "--view", "heatmap", "--seq-len",
                          "13", "--out", csv.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(slurp(csv));
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "position,dimension,encoding");
    std::vector<std::string> rows;
    while (std::getline(lines, line))
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 26u); // 13 positions x 2 dimensions (the table's width)
    EXPECT_EQ(rows[1], "0,1,5.960464477539063e-08");
    EXPECT_EQ(rows[5], "2,1,65504");
    EXPECT_EQ(rows[24], "12,0,"); // beyond the 12 stored rows: no embedding

    const Result m = run(
        {"compute", "matrix", "--method", "learned", "--weights", f, "--kind", "encoding", "--seq-len", "4"});
    ASSERT_EQ(m.status, 0) << m.err;
    EXPECT_NE(m.out.find("65504"), std::string::npos) << m.out;
}

TEST(CliWeights, GgufConfigWorksLikeAConfigJson)
{
    GgufWriter w(3);
    w.string("general.architecture", "llama")
        .u32("llama.context_length", 8192)
        .u32("llama.embedding_length", 4096)
        .u32("llama.attention.head_count", 32)
        .f32("llama.rope.freq_base", 500000.0f)
        .u32("llama.rope.dimension_count", 128)
        .string_array("tokenizer.ggml.tokens", 100);
    const auto g = write_file("llama.gguf", w.bytes());
    const Result r = run({"compute", "rope-frequencies", "--config", g.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["rotary_dim"].get<int>(), 128);
    // inv_freq[i] = base^(-2i/d) (HF _compute_default_rope_parameters); tolerance 1e-15 as in CliConfig.
    EXPECT_NEAR(j["inv_freq_rad_per_token"][1].get<double>(), std::pow(500000.0, -2.0 / 128.0), 1e-15);

    const auto bad = write_file("bad.gguf", std::string("GGUF") + le_bytes(3, 4) + le_bytes(0, 8) +
                                                le_bytes(~std::uint64_t{0}, 8));
    const Result b = run({"compute", "rope-frequencies", "--config", bad.string()});
    EXPECT_EQ(b.status, 2);
    EXPECT_NE(b.err.find("--config"), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("key-value count"), std::string::npos) << b.err;
}

} // namespace

namespace {

// T5-small-like: the encoder's layer-0 relative_attention_bias, 32 buckets x 8 heads in BF16, entry
// (b, h) = b - 2h as a bfloat16 (exact: small integers), and the decoder's, (b, h) = -(b + h).
std::string t5_file()
{
    const auto bf16 = [](float f) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        return static_cast<std::uint16_t>(bits >> 16); // exact for these integers
    };
    std::vector<std::uint16_t> enc, dec;
    for (int b = 0; b < 32; ++b)
        for (int h = 0; h < 8; ++h) {
            enc.push_back(bf16(static_cast<float>(b - 2 * h)));
            dec.push_back(bf16(static_cast<float>(-(b + h))));
        }
    return write_file("t5.safetensors",
                      safetensors_file(
                          {u16_tensor("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                                      "BF16", {32, 8}, dec),
                           u16_tensor("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                                      "BF16", {32, 8}, enc)}))
        .string();
}

} // namespace

TEST(CliWeights, T5BiasFromACheckpointIsTheTrainedTableInEveryCell)
{
    const std::string f = t5_file();
    // Head 3 of the encoder's table: cell (i, j) = bucket(j - i) - 6. The buckets of relative positions
    // -3..3 at 32 bidirectional buckets are 3 2 1 0 17 18 19 (HF _relative_position_bucket).
    const Result r = run({"compute", "matrix", "--method", "t5", "--weights", f, "--kind", "bias",
                          "--seq-len", "4", "--head", "3"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    const int bucket[7] = {3, 2, 1, 0, 17, 18, 19};
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k)
            EXPECT_EQ(j["matrix"][i][k].get<double>(), bucket[k - i + 3] - 6) << i << ", " << k;
    // The scenario names the tensor it found and takes the table's shape.
    const json s = json::parse(run({"compute", "scenario", "--method", "t5", "--weights", f}).out);
    EXPECT_EQ(s["t5"]["bias_tensor"], "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight");
    EXPECT_EQ(s["t5"]["num_heads"], 8);
    EXPECT_EQ(s["t5"]["bidirectional"], true);

    // The decoder's table: causal buckets, and a causal decoder masks keys after the query (null).
    const Result d = run({"compute", "matrix", "--method", "t5", "--weights", f, "--tensor",
                          "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "--kind",
                          "bias", "--seq-len", "4", "--head", "3"});
    ASSERT_EQ(d.status, 0) << d.err;
    const json dj = json::parse(d.out);
    EXPECT_TRUE(dj["matrix"][0][3].is_null()) << dj["matrix"][0][3];
    EXPECT_EQ(dj["matrix"][3][0].get<double>(), -6.0); // relative -3: causal bucket 3, -(3 + 3)
    EXPECT_EQ(dj["matrix"][2][1].get<double>(), -4.0); // relative -1: bucket 1, -(1 + 3)
}

TEST(CliWeights, T5BiasThatContradictsAnOptionOrIsMissingIsAUsageError)
{
    const std::string f = t5_file();
    const Result heads = run({"compute", "matrix", "--method", "t5", "--weights", f, "--num-heads", "12",
                              "--kind", "bias", "--seq-len", "4"});
    EXPECT_EQ(heads.status, 2);
    EXPECT_TRUE(heads.out.empty());
    EXPECT_NE(heads.err.find("--num-heads must be 8, the columns of the trained"), std::string::npos)
        << heads.err;

    const Result missing = run({"compute", "matrix", "--method", "t5", "--weights",
                                "/nonexistent/t5.safetensors", "--kind", "bias", "--seq-len", "4"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("--weights"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("/nonexistent/t5.safetensors"), std::string::npos) << missing.err;

    const Result gpt2 = run({"compute", "matrix", "--method", "t5", "--weights", gpt2_file(), "--kind",
                             "bias", "--seq-len", "4"});
    EXPECT_EQ(gpt2.status, 2);
    EXPECT_NE(gpt2.err.find("no T5 relative_attention_bias"), std::string::npos) << gpt2.err;
}
