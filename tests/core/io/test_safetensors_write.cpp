// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors writer (io/safetensors_write.h) against the project's own reader (io/safetensors.h),
// which checks the format as the huggingface/safetensors README states it: the header's length, JSON,
// dtypes, shapes and data offsets.
#include "io/safe_write.h"
#include "io/safetensors.h"
#include "io/safetensors_write.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace posatlas {
namespace {

std::string temp_path(const std::string& name)
{
    return (std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()) + ".safetensors"))
        .string();
}

TEST(SafetensorsWrite, ReadsBackBitForBitWithShapesAndMetadata)
{
    const std::string path = temp_path("write_roundtrip");
    const std::vector<float> a{1.5f, -0.0f, 3e-39f /* subnormal */, 7.0f, 1e30f, -2.25f};
    write_safetensors(path, {{"b.weight", {3}, {1, 2, 3}}, {"a", {2, 3}, a}, {"scalar", {}, {42}}},
                      {{"step", "7"}});
    const SafetensorsCatalog cat = read_safetensors(path);
    ASSERT_EQ(cat.tensors.size(), 3u);
    const SafetensorsTensor* t = cat.find("a");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->dtype, "F32");
    EXPECT_EQ(t->shape, (std::vector<std::int64_t>{2, 3}));
    const std::vector<float> back = read_safetensors_f32(*t, 100);
    ASSERT_EQ(back.size(), a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(std::memcmp(&back[i], &a[i], 4), 0) << i;
    EXPECT_EQ(cat.find("scalar")->shape.size(), 0u);
    EXPECT_EQ(read_safetensors_f32(*cat.find("scalar"), 1), std::vector<float>{42});
    EXPECT_EQ(cat.metadata.at("step"), "7");
    // The header is padded to a multiple of 8 bytes (the reference writer's alignment).
    std::ifstream in(path, std::ios::binary);
    unsigned char n[8];
    in.read(reinterpret_cast<char*>(n), 8);
    EXPECT_EQ(n[0] % 8, 0);
    std::filesystem::remove(path);
}

TEST(SafetensorsWrite, RefusesMismatchedShapesAndRepeatedNamesWithoutWriting)
{
    const std::string path = temp_path("write_refused");
    EXPECT_THROW(write_safetensors(path, {{"x", {2, 2}, {1, 2, 3}}}), std::invalid_argument);
    EXPECT_THROW(write_safetensors(path, {{"x", {1}, {1}}, {"x", {1}, {2}}}), std::invalid_argument);
    EXPECT_THROW(write_safetensors(path, {{"", {1}, {1}}}), std::invalid_argument);
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_THROW(write_safetensors("/nonexistent-folder/x.safetensors", {{"x", {1}, {1}}}), OutputFileError);
}

} // namespace
} // namespace posatlas
