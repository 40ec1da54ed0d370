// SPDX-License-Identifier: GPL-3.0-or-later
// The MP4 writer (io/animation/), read back with FFmpeg's own demuxer and H.264 decoder: frame count, size,
// frame rate and duration, H.264 in yuv420p, the index (moov) before the data (faststart), and the first
// and last frames against the input within PSNR >= 40 dB (RGB, peak 255; converted back with the BT.709
// limited-range matrix the file is tagged with).
#include "animation_decode.h"
#include "animation_fixtures.h"
#include "io/animation/animation_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;

namespace {

std::vector<std::uint8_t> rgb_of(const std::vector<std::uint8_t>& rgba)
{
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < rgba.size(); i += 4)
        out.insert(out.end(), {rgba[i], rgba[i + 1], rgba[i + 2]});
    return out;
}

// The order of the top-level boxes ("ftyp", "moov", "mdat", ...).
std::vector<std::string> top_level_boxes(const std::string& file)
{
    std::vector<std::string> boxes;
    for (std::size_t at = 0; at + 8 <= file.size();) {
        std::uint64_t size = 0;
        for (int i = 0; i < 4; ++i)
            size = size << 8 | static_cast<std::uint8_t>(file[at + static_cast<std::size_t>(i)]);
        boxes.push_back(file.substr(at + 4, 4));
        if (size < 8)
            break;
        at += size;
    }
    return boxes;
}

TEST(AnimationMp4, DecodesWithItsFrameCountRateAndFirstAndLastFramesAbove40dB)
{
    const auto path = (fresh_animation_dir("mp4_decode") / "rotation.mp4").string();
    constexpr int kW = 320, kH = 240, kFrames = 45, kFps = 30;
    auto writer = make_animation_writer(AnimationFormat::Mp4, path);
    writer->begin(kW, kH, kFps, kFrames);
    std::vector<std::uint8_t> first, last;
    for (int i = 0; i < kFrames; ++i) {
        const auto frame = make_frame(kW, kH, i, kFrames, FrameKind::Smooth);
        writer->add_frame(frame.data(), 4 * kW);
        if (i == 0)
            first = rgb_of(frame);
        last = rgb_of(frame);
    }
    writer->finish();

    const DecodedAnimation d = decode_mp4(path);
    ASSERT_TRUE(d.ok);
    EXPECT_EQ(d.codec, AV_CODEC_ID_H264);
    EXPECT_EQ(d.pix_fmt, AV_PIX_FMT_YUV420P);
    EXPECT_EQ(d.width, kW);
    EXPECT_EQ(d.height, kH);
    EXPECT_EQ(d.frames, kFrames);
    EXPECT_DOUBLE_EQ(d.fps, kFps);
    EXPECT_NEAR(d.duration, 1.5, 1e-9); // 45 frames at 30 fps
    ASSERT_EQ(d.rgb.size(), static_cast<std::size_t>(kFrames));
    ASSERT_EQ(d.rgb.front().size(), first.size());
    EXPECT_GE(psnr(d.rgb.front(), first), 40.0);
    EXPECT_GE(psnr(d.rgb.back(), last), 40.0);

    const auto boxes = top_level_boxes(slurp_file(path));
    const auto at = [&](const char* name) {
        return std::find(boxes.begin(), boxes.end(), name) - boxes.begin();
    };
    EXPECT_LT(at("moov"), at("mdat")); // faststart: a player can start before the end arrives
    EXPECT_LT(at("mdat"), static_cast<std::ptrdiff_t>(boxes.size()));
}

} // namespace
