// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas inspect`, end to end: the import report and the per-layer anatomy of the configs in
// tests/data/configs (their sources in its README), as text and as JSON, from a file, a folder and the
// local Hugging Face cache; hostile configs refused with a message naming the key.
#include "cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

namespace {

using nlohmann::json;
using namespace posatlas::test;

std::string config(const std::string& name)
{
    return (fs::path(POSATLAS_TEST_DATA) / "configs" / name).string();
}

json inspect_json(const std::string& what)
{
    const Result r = run({"inspect", what, "--format", "json"});
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(r.out);
}

TEST(CliInspect, TextReportWithLayerRuns)
{
    const Result r = run({"inspect", config("gemma3_27b_text.json")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Read, not modelled yet (about positions)\n  (none)\n"), std::string::npos) << r.out;
    // Gemma3TextConfig: global when (i + 1) % 6 == 0; local layers rope_local_base_freq 10000, global
    // layers rope_theta 1e6 with the linear factor 8.
    EXPECT_NE(r.out.find("Layers (62)\n  layers 0-4, 6-10, 12-16"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(": sliding 1024, RoPE θ=10000\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  layers 5, 11, 17, 23, 29, 35, 41, 47, 53, 59: global, RoPE θ=1e+06 linear ×8\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  rope.rope_theta = 1000000\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
}

TEST(CliInspect, JsonHasTheFullLayerTable)
{
    const json j = inspect_json(config("llama4_scout.json"));
    EXPECT_EQ(j.at("model_type"), "llama4");
    EXPECT_EQ(j.at("method"), "rope");
    EXPECT_EQ(j.at("parameters").at("rope_theta"), 500000);
    const json& layers = j.at("layers");
    ASSERT_EQ(layers.size(), 48u);
    // Llama4TextConfig: NoPE every 4th layer, full attention there with temperature tuning; chunked RoPE
    // elsewhere.
    EXPECT_EQ(layers[3].at("rope"), false);
    EXPECT_EQ(layers[3].at("attention"), "full_attention");
    EXPECT_EQ(layers[3].at("temperature"), true);
    EXPECT_EQ(layers[3].at("floor_scale"), 8192);
    EXPECT_EQ(layers[0].at("attention"), "chunked_attention");
    EXPECT_EQ(layers[0].at("span"), 8192);
    EXPECT_EQ(layers[0].at("rope_type"), "llama3");
    EXPECT_EQ(j.at("layer_groups").size(), 2u);
    // The last position 10485759 sits in chunk 1279 (starting at 1279 * 8192 = 10477568): three chunked
    // layers stay in it, the global NoPE layer 3 reaches position 0 (receptive_field_start).
    const json& rf = j.at("receptive_field");
    EXPECT_EQ(rf.at("position"), 10485759);
    ASSERT_EQ(rf.at("start").size(), 48u);
    EXPECT_EQ(rf.at("start")[0], 10477568);
    EXPECT_EQ(rf.at("start")[2], 10477568);
    EXPECT_EQ(rf.at("start")[3], 0);
}

// Mistral-7B-v0.1: k sliding layers of W = 4096 reach k * 4095 back from position 32767.
TEST(CliInspect, ReceptiveFieldText)
{
    const Result r = run({"inspect", config("mistral_7b_v0.1.json")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Receptive field of position 32767 (the last of the context)\n"
                         "  after 1 layer: from position 28672 (4095 back)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  after 8 layers: from position 7 (32760 back)\n"
                         "  after 9-32 layers: from position 0 (32767 back)\n"),
              std::string::npos)
        << r.out;
}

// The issue's families: no positional key stays in "read but not modelled".
TEST(CliInspect, NoPositionalKeyNotModelledForAnyFamily)
{
    for (const char* f : {"gemma2_9b.json", "gemma3_12b.json", "gemma3_27b_text.json", "gemma3_1b_v5.json",
                          "gemma3_tiny_v5.json", "llama4_scout.json", "llama4_v5.json", "cohere2_r7b.json",
                          "cohere2_v5.json", "smollm3_3b.json", "mistral_7b_v0.1.json", "qwen2_sliding.json",
                          "qwen2.5_7b_instruct.json", "deepseek_v3.json", "gemma4_text_defaults.json"}) {
        const json j = inspect_json(config(f));
        EXPECT_EQ(j.at("not_modelled"), json::array()) << f;
        EXPECT_FALSE(j.at("layers").empty()) << f;
    }
}

TEST(CliInspect, FolderAndCachedModel)
{
    const fs::path dir = temp_dir() / "mistral";
    fs::create_directories(dir);
    fs::copy_file(config("mistral_7b_v0.1.json"), dir / "config.json", fs::copy_options::overwrite_existing);
    EXPECT_EQ(inspect_json(dir.string()).at("layer_groups"),
              json::array({"layers 0-31: sliding 4096, RoPE θ=10000"}));

    const fs::path root = temp_dir() / "hf_cache";
    const fs::path model = root / "models--org--smol";
    fs::create_directories(model / "snapshots" / "c0ffee");
    fs::create_directories(model / "refs");
    fs::copy_file(config("smollm3_3b.json"), model / "snapshots" / "c0ffee" / "config.json",
                  fs::copy_options::overwrite_existing);
    std::ofstream(model / "refs" / "main") << "c0ffee";
    ::setenv("HF_HUB_CACHE", root.c_str(), 1);
    const json j = inspect_json("org/smol");
    EXPECT_EQ(j.at("model_type"), "smollm3");
    EXPECT_EQ(j.at("layers")[3].at("rope"), false); // no_rope_layers[3] == 0
}

TEST(CliInspect, HostileConfigsNameTheKey)
{
    const fs::path bad = write_file("bad_layers.json", R"({"model_type":"gemma2","num_hidden_layers":4,
        "layer_types":["sliding_attention","full_attention","sliding_attention"]})");
    Result r = run({"inspect", bad.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("layer_types has 3 entries but num_hidden_layers is 4"), std::string::npos) << r.err;
    const fs::path neg = write_file("neg_window.json", R"({"model_type":"mistral","sliding_window":-1})");
    r = run({"inspect", neg.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("sliding_window must be a positive integer (got -1)"), std::string::npos) << r.err;
    r = run({"inspect"});
    EXPECT_EQ(r.status, 2);
}

TEST(CliInspect, ChineseHeadings)
{
    RunOptions zh;
    zh.locale = "zh_CN.UTF-8";
    const Result r = run({"inspect", config("cohere2_r7b.json")}, zh);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("Read, not modelled yet"), std::string::npos) << r.out;
    // Cohere2Attention: RoPE on the sliding layers only; the layer lines are the same in every language.
    EXPECT_NE(r.out.find("layers 3, 7, 11, 15, 19, 23, 27, 31: global, NoPE"), std::string::npos) << r.out;
}

} // namespace
