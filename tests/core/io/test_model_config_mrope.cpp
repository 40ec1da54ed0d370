// SPDX-License-Identifier: GPL-3.0-or-later
// Multimodal RoPE in model configs (core/io/model_config_mrope.cpp): the published Qwen2-VL, Qwen2.5-VL and
// Qwen3-VL config.json files (tests/data/configs/README.md), the transformers v5 rope_parameters form, a
// top-level mrope_section, and llama.cpp's rope.dimension_sections in a GGUF header (gguf-py constants.py
// Keys.Rope.DIMENSION_SECTIONS). Every mrope key is read, none is left "not modelled".
#include "io/model_config.h"
#include "methods/mrope/mrope.h"
#include "scenario/validation.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace posatlas;

namespace {

std::string config_path(const char* name)
{
    return std::string(POSATLAS_TEST_DATA) + "/configs/" + name;
}

bool has(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

bool mentions_mrope(const std::vector<std::string>& list)
{
    return std::any_of(list.begin(), list.end(),
                       [](const std::string& k) { return k.find("mrope") != std::string::npos; });
}

} // namespace

TEST(ModelConfigMrope, Qwen2VL)
{
    const ConfigImport c = load_model_config(config_path("qwen2_vl_7b.json"));
    ASSERT_EQ(c.scenario.method, kMRoPE);
    const MropeParams& m = c.scenario.params<MropeParams>();
    EXPECT_EQ(m.variant, MropeVariant::Qwen2VL);
    EXPECT_EQ(m.mrope_section, (std::vector<double>{16, 24, 24}));
    EXPECT_EQ(m.head_dim, 128); // 3584 / 28
    EXPECT_EQ(m.rope_theta, 1e6);
    EXPECT_EQ(m.spatial_merge_size, 2); // Qwen2VLVisionConfig's default: the file has no vision_config
    EXPECT_TRUE(has(c.read_keys, "rope_scaling.mrope_section"));
    EXPECT_FALSE(mentions_mrope(c.ignored_keys));
    EXPECT_NO_THROW(validate(c.scenario));
}

TEST(ModelConfigMrope, Qwen25VLReadsTokensPerSecond)
{
    const ConfigImport c = load_model_config(config_path("qwen2_5_vl_7b.json"));
    ASSERT_EQ(c.scenario.method, kMRoPE);
    const MropeParams& m = c.scenario.params<MropeParams>();
    EXPECT_EQ(m.variant, MropeVariant::Qwen25VL);
    EXPECT_EQ(m.tokens_per_second, 2);
    EXPECT_EQ(m.spatial_merge_size, 2);
    EXPECT_TRUE(has(c.read_keys, "vision_config.tokens_per_second"));
    EXPECT_TRUE(has(c.read_keys, "vision_config.spatial_merge_size"));
    EXPECT_FALSE(mentions_mrope(c.ignored_keys));
    EXPECT_FALSE(has(c.unknown_keys, "vision_config"));
    EXPECT_NO_THROW(validate(c.scenario));
}

TEST(ModelConfigMrope, Qwen3VLIsInterleavedFromItsTextConfig)
{
    const ConfigImport c = load_model_config(config_path("qwen3_vl_8b.json"));
    ASSERT_EQ(c.scenario.method, kMRoPE);
    const MropeParams& m = c.scenario.params<MropeParams>();
    EXPECT_EQ(m.variant, MropeVariant::Qwen3VL);
    EXPECT_EQ(m.mrope_section, (std::vector<double>{24, 20, 20}));
    EXPECT_EQ(m.head_dim, 128);
    EXPECT_EQ(m.rope_theta, 5e6);
    EXPECT_TRUE(has(c.read_keys, "rope_scaling.mrope_interleaved"));
    EXPECT_FALSE(mentions_mrope(c.ignored_keys));
    EXPECT_NO_THROW(validate(c.scenario));
}

TEST(ModelConfigMrope, V5RopeParametersAndTopLevel)
{
    const ConfigImport v5 = import_model_config(nlohmann::json::parse(R"({"model_type":"qwen2_vl",
        "hidden_size":1536,"num_attention_heads":12,"rope_parameters":{"rope_type":"default",
        "rope_theta":1000000.0,"mrope_section":[16,24,24]}})"));
    ASSERT_EQ(v5.scenario.method, kMRoPE);
    EXPECT_EQ(v5.scenario.params<MropeParams>().rope_theta, 1e6);
    EXPECT_TRUE(has(v5.read_keys, "rope_parameters.mrope_section"));
    EXPECT_FALSE(mentions_mrope(v5.ignored_keys));

    const ConfigImport top = import_model_config(nlohmann::json::parse(
        R"({"model_type":"qwen2_vl","hidden_size":1536,"num_attention_heads":12,"rope_theta":1e6,
        "mrope_section":[16,24,24],"mrope_interleaved":true})"));
    ASSERT_EQ(top.scenario.method, kMRoPE);
    EXPECT_EQ(top.scenario.params<MropeParams>().variant, MropeVariant::Qwen3VL);
    EXPECT_TRUE(has(top.read_keys, "mrope_section"));
    EXPECT_TRUE(has(top.read_keys, "mrope_interleaved"));
    EXPECT_FALSE(has(top.unknown_keys, "mrope_section"));

    EXPECT_THROW(import_model_config(nlohmann::json::parse(
                     R"({"model_type":"qwen2_vl","rope_scaling":{"type":"mrope","mrope_section":[16,24]}})")),
                 ConfigError);
}

TEST(ModelConfigMrope, GgufDimensionSections)
{
    test::GgufWriter w(3);
    w.string("general.architecture", "qwen2vl")
        .u32("qwen2vl.context_length", 128000)
        .u32("qwen2vl.embedding_length", 3584)
        .u32("qwen2vl.attention.head_count", 28)
        .f32("qwen2vl.rope.freq_base", 1000000.0f)
        .u32_array("qwen2vl.rope.dimension_sections", {16, 24, 24, 0});
    const std::string path =
        (std::filesystem::temp_directory_path() / ("posatlas_mrope_" + std::to_string(::getpid()) + ".gguf"))
            .string();
    std::ofstream(path, std::ios::binary) << w.bytes();
    const ConfigImport c = load_model_config(path);
    std::filesystem::remove(path);
    ASSERT_EQ(c.scenario.method, kMRoPE);
    EXPECT_EQ(c.scenario.params<MropeParams>().mrope_section, (std::vector<double>{16, 24, 24}));
    EXPECT_EQ(c.scenario.params<MropeParams>().head_dim, 128);
    EXPECT_TRUE(has(c.read_keys, "qwen2vl.rope.dimension_sections"));
    EXPECT_FALSE(has(c.ignored_keys, "qwen2vl.rope.dimension_sections"));
    EXPECT_FALSE(has(c.unknown_keys, "qwen2vl.rope.dimension_sections"));
}
