// SPDX-License-Identifier: GPL-3.0-or-later
// A DeepSeek GGUF file (llama.cpp architecture deepseek2) imports as the MLA method with the parameters
// its config.json gives (io/gguf_deepseek.cpp). The file is DeepSeek-V3's header as llama.cpp's
// convert_hf_to_gguf.py (DeepseekV2Model.set_gguf_parameters) writes it (tests/support/weights_fixtures.h),
// the config tests/data/configs/deepseek_v3_published.json; the parameters compare exactly (every value is
// an integer or a binary fraction stored exactly in float32, and mscale_all_dim = 0.1f / 0.1f is 1 as
// llama_model_deepseek2's loader computes it).
#include "io/gguf.h"
#include "io/model_config.h"
#include "methods/mla/mla.h"
#include "scenario/validation.h"
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

std::string write_gguf(const std::string& name, const std::string& bytes)
{
    const fs::path dir = fs::temp_directory_path() / ("posatlas_mla_gguf_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

bool has(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

ConfigImport published_config()
{
    return load_model_config(std::string(POSATLAS_TEST_DATA) + "/configs/deepseek_v3_published.json");
}

} // namespace

TEST(MlaGguf, DeepSeekV3FileGivesTheParametersOfItsConfig)
{
    const ConfigImport want = published_config();
    for (const bool mla : {true, false}) {
        SCOPED_TRACE(mla ? "converted for MLA (key_length_mla)" : "older file (key_length)");
        const ConfigImport got = load_gguf_config(
            write_gguf(mla ? "v3_mla.gguf" : "v3_legacy.gguf", deepseek_v3_gguf(mla).bytes()));
        EXPECT_EQ(got.scenario.method, MlaParams::kMethod);
        EXPECT_NO_THROW(validate(got.scenario));
        const MlaParams& m = got.scenario.params<MlaParams>();
        EXPECT_EQ(m, want.scenario.params<MlaParams>());
        EXPECT_EQ(m.qk_nope_head_dim, 128);
        EXPECT_EQ(m.qk_rope_head_dim, 64);
        EXPECT_EQ(m.rope_type, MlaRopeType::Yarn);
        EXPECT_EQ(m.factor, 40.0);
        EXPECT_EQ(m.original_max_position_embeddings, 4096);
        EXPECT_EQ(m.max_position_embeddings, 163840);
        ASSERT_TRUE(m.mscale && m.mscale_all_dim);
        EXPECT_EQ(*m.mscale_all_dim, 1.0);
        EXPECT_EQ(*m.mscale, 1.0);
        // The rotary part and DeepSeek's softmax multiplier as the config gives them.
        EXPECT_EQ(got.scenario.params<RopeParams>(), want.scenario.params<RopeParams>());
        EXPECT_EQ(mla_softmax_scale(m), mla_softmax_scale(want.scenario.params<MlaParams>()));
    }
}

TEST(MlaGguf, ReportNamesTheGgufKeysItRead)
{
    const ConfigImport got = load_gguf_config(write_gguf("v3_report.gguf", deepseek_v3_gguf().bytes()));
    EXPECT_TRUE(has(got.read_keys, "deepseek2.attention.key_length_mla"))
        << ::testing::PrintToString(got.read_keys);
    EXPECT_TRUE(has(got.read_keys, "deepseek2.rope.dimension_count"));
    EXPECT_TRUE(has(got.read_keys, "deepseek2.rope.scaling.yarn_log_multiplier"));
    // The latent key's width llama.cpp caches: a size of no position, neither modelled nor unknown.
    EXPECT_FALSE(has(got.ignored_keys, "deepseek2.attention.key_length"));
    EXPECT_TRUE(got.unknown_keys.empty()) << ::testing::PrintToString(got.unknown_keys);
    const bool noted = std::any_of(got.notes.begin(), got.notes.end(), [](const std::string& n) {
        return n.find("0.1 * mscale_all_dim") != std::string::npos;
    });
    EXPECT_TRUE(noted) << ::testing::PrintToString(got.notes);
}

TEST(MlaGguf, KeyShorterThanItsRotaryPartIsRefusedByName)
{
    GgufWriter bad(3, 0);
    bad.string("general.architecture", "deepseek2")
        .u32("deepseek2.rope.dimension_count", 64)
        .u32("deepseek2.attention.key_length_mla", 32)
        .u32("deepseek2.attention.value_length_mla", 128);
    try {
        load_gguf_config(write_gguf("v3_bad.gguf", bad.bytes()));
        FAIL() << "a key_length_mla below rope.dimension_count was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("deepseek2.attention.key_length_mla must be at least "
                                             "deepseek2.rope.dimension_count = 64 (got 32)"),
                  std::string::npos)
            << e.what();
    }
}

TEST(MlaGguf, YarnLogMultiplierBeyondFloatIsRefusedByName)
{
    GgufWriter bad(3, 0);
    bad.string("general.architecture", "deepseek2")
        .u32("deepseek2.rope.dimension_count", 64)
        .string("deepseek2.rope.scaling.type", "yarn")
        .f32("deepseek2.rope.scaling.factor", 40.0f)
        .f64("deepseek2.rope.scaling.yarn_log_multiplier", 1e300);
    try {
        load_gguf_config(write_gguf("v3_huge.gguf", bad.bytes()));
        FAIL() << "a yarn_log_multiplier of 1e300 was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(
            std::string(e.what()).find("deepseek2.rope.scaling.yarn_log_multiplier must be a finite float32"),
            std::string::npos)
            << e.what();
    }
}
