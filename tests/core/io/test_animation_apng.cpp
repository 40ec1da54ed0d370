// SPDX-License-Identifier: GPL-3.0-or-later
// The APNG writer (io/animation/): the file is read back chunk by chunk here (libpng 1.6.39 has no APNG
// reader): every CRC, IHDR, acTL's frame count and loop count, the fcTL/fdAT sequence numbers and delays;
// each frame's zlib stream is wrapped into a PNG of its own and decoded by libpng, and must equal the
// input exactly (lossless, straight alpha).
#include "animation_decode.h"
#include "animation_fixtures.h"
#include "io/animation/animation_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;

namespace {

struct Chunk {
    std::string type, data;
};

std::vector<Chunk> read_chunks(const std::string& file)
{
    std::vector<Chunk> chunks;
    EXPECT_EQ(file.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    for (std::size_t at = 8; at + 12 <= file.size();) {
        const std::uint32_t length = png_get32(file, at);
        Chunk c{file.substr(at + 4, 4), file.substr(at + 8, length)};
        const uLong crc =
            crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(file.data() + at + 4), length + 4);
        EXPECT_EQ(png_get32(file, at + 8 + length), crc) << "CRC of " << c.type;
        chunks.push_back(std::move(c));
        at += 12 + length;
    }
    return chunks;
}

std::vector<std::uint8_t> unpadded(const std::vector<std::uint8_t>& frame, int width, int height, int stride)
{
    std::vector<std::uint8_t> out;
    for (int y = 0; y < height; ++y)
        out.insert(out.end(), frame.begin() + y * stride, frame.begin() + y * stride + 4 * width);
    return out;
}

TEST(AnimationApng, EveryFrameDecodesExactlyWithItsCountDelayAndSequence)
{
    const auto dir = fresh_animation_dir("apng_exact");
    const auto path = (dir / "sweep.png").string();
    constexpr int kW = 37, kH = 23, kFrames = 6, kFps = 12, kStride = 4 * kW + 8; // odd sizes, padded rows
    auto writer = make_animation_writer(AnimationFormat::Apng, path);
    writer->begin(kW, kH, kFps, kFrames);
    std::vector<std::vector<std::uint8_t>> input;
    for (int i = 0; i < kFrames; ++i) {
        const auto frame =
            make_frame(kW, kH, i, kFrames, i % 2 ? FrameKind::Alpha : FrameKind::FewColours, kStride);
        writer->add_frame(frame.data(), kStride);
        input.push_back(unpadded(frame, kW, kH, kStride));
    }
    writer->finish();

    const std::string file = slurp_file(path);
    const auto chunks = read_chunks(file);
    ASSERT_GE(chunks.size(), 4u);
    EXPECT_EQ(chunks[0].type, "IHDR");
    EXPECT_EQ(chunks[1].type, "acTL");
    EXPECT_EQ(png_get32(chunks[1].data, 0), static_cast<std::uint32_t>(kFrames));
    EXPECT_EQ(png_get32(chunks[1].data, 4), 0u); // loops forever
    EXPECT_EQ(chunks.back().type, "IEND");

    // Frames: fcTL then IDAT (frame 0) or fdAT; the sequence numbers of fcTL and fdAT count up from 0.
    std::vector<std::string> streams;
    std::uint32_t sequence = 0;
    for (const Chunk& c : chunks) {
        if (c.type == "fcTL") {
            ASSERT_EQ(c.data.size(), 26u);
            EXPECT_EQ(png_get32(c.data, 0), sequence++);
            EXPECT_EQ(png_get32(c.data, 4), static_cast<std::uint32_t>(kW));
            EXPECT_EQ(png_get32(c.data, 8), static_cast<std::uint32_t>(kH));
            const int num =
                static_cast<std::uint8_t>(c.data[20]) << 8 | static_cast<std::uint8_t>(c.data[21]);
            const int den =
                static_cast<std::uint8_t>(c.data[22]) << 8 | static_cast<std::uint8_t>(c.data[23]);
            EXPECT_EQ(num, 1);
            EXPECT_EQ(den, kFps);
            streams.emplace_back();
        } else if (c.type == "IDAT") {
            ASSERT_EQ(streams.size(), 1u);
            streams.back() += c.data;
        } else if (c.type == "fdAT") {
            ASSERT_GT(streams.size(), 1u);
            EXPECT_EQ(png_get32(c.data, 0), sequence++);
            streams.back() += c.data.substr(4);
        }
    }
    ASSERT_EQ(streams.size(), static_cast<std::size_t>(kFrames));
    const std::string ihdr = png_chunk("IHDR", chunks[0].data);
    for (int i = 0; i < kFrames; ++i) {
        const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + ihdr + png_chunk("IDAT", streams[i]) +
                                png_chunk("IEND", "");
        int w = 0, h = 0;
        EXPECT_EQ(decode_png(png, w, h, true), input[static_cast<std::size_t>(i)]) << "frame " << i;
        EXPECT_EQ(w, kW);
        EXPECT_EQ(h, kH);
    }
    // A viewer without APNG shows the first frame: libpng reads the whole file as that picture.
    int w = 0, h = 0;
    EXPECT_EQ(decode_png(file, w, h, true), input[0]);
}

} // namespace
