// SPDX-License-Identifier: GPL-3.0-or-later
// The GIF writer (io/animation/), read back with giflib's decoder: frame count, size, delays, the
// NETSCAPE2.0 loop, one global palette and no local ones; frames rebuilt on a canvas (each frame's
// rectangle over the previous picture, as "do not dispose" says, its transparent pixels leaving what is
// there) equal the input exactly when the whole
// animation has at most 256 colours.
#include "animation_fixtures.h"
#include "io/animation/animation_writer.h"

#include <gif_lib.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;

namespace {

struct Decoded {
    int width = 0, height = 0, frames = 0;
    bool global_palette = false, local_palettes = false, loops_forever = false;
    int palette_size = 0; // entries of the global colour map (a power of two)
    std::vector<int> delays;
    long transparent_pixels = 0;                // pixels left as they were on screen
    std::vector<std::vector<std::uint8_t>> rgb; // each frame as shown: the canvas after it
};

Decoded decode_gif(const std::string& path)
{
    Decoded d;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    EXPECT_NE(gif, nullptr) << GifErrorString(error);
    if (!gif)
        return d;
    EXPECT_EQ(DGifSlurp(gif), GIF_OK) << GifErrorString(gif->Error);
    d.width = gif->SWidth, d.height = gif->SHeight, d.frames = gif->ImageCount;
    d.global_palette = gif->SColorMap != nullptr;
    d.palette_size = gif->SColorMap ? gif->SColorMap->ColorCount : 0;
    // DGifSlurp keeps the extensions before an image with that image (the loop comes before the first).
    const auto find_loop = [&](const ExtensionBlock* blocks, int count) {
        for (int e = 0; e + 1 < count; ++e) {
            const ExtensionBlock& b = blocks[e];
            if (b.Function == APPLICATION_EXT_FUNC_CODE && b.ByteCount == 11 &&
                std::string(reinterpret_cast<const char*>(b.Bytes), 11) == "NETSCAPE2.0") {
                const ExtensionBlock& sub = blocks[e + 1];
                d.loops_forever =
                    sub.ByteCount == 3 && sub.Bytes[0] == 1 && sub.Bytes[1] == 0 && sub.Bytes[2] == 0;
            }
        }
    };
    find_loop(gif->ExtensionBlocks, gif->ExtensionBlockCount);
    if (gif->ImageCount > 0)
        find_loop(gif->SavedImages[0].ExtensionBlocks, gif->SavedImages[0].ExtensionBlockCount);
    std::vector<std::uint8_t> canvas(static_cast<std::size_t>(d.width) * d.height * 3, 0);
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage& image = gif->SavedImages[i];
        d.local_palettes = d.local_palettes || image.ImageDesc.ColorMap != nullptr;
        GraphicsControlBlock gcb{};
        EXPECT_EQ(DGifSavedExtensionToGCB(gif, i, &gcb), GIF_OK);
        d.delays.push_back(gcb.DelayTime);
        EXPECT_EQ(gcb.DisposalMode, DISPOSE_DO_NOT);
        const GifImageDesc& r = image.ImageDesc;
        for (int y = 0; y < r.Height; ++y)
            for (int x = 0; x < r.Width; ++x) {
                const int index = image.RasterBits[y * r.Width + x];
                if (index == gcb.TransparentColor) { // unchanged: what is on screen stays
                    ++d.transparent_pixels;
                    continue;
                }
                const GifColorType c = gif->SColorMap->Colors[index];
                std::uint8_t* p =
                    canvas.data() + (static_cast<std::size_t>(r.Top + y) * d.width + r.Left + x) * 3;
                p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue;
            }
        d.rgb.push_back(canvas);
    }
    DGifCloseFile(gif, &error);
    return d;
}

std::vector<std::uint8_t> rgb_of(const std::vector<std::uint8_t>& rgba)
{
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < rgba.size(); i += 4)
        out.insert(out.end(), {rgba[i], rgba[i + 1], rgba[i + 2]});
    return out;
}

TEST(AnimationGif, FewColoursAreExactWithOneGlobalPaletteLoopAndDelays)
{
    const auto path = (fresh_animation_dir("gif_exact") / "rotation.gif").string();
    constexpr int kW = 61, kH = 45, kFrames = 12, kFps = 10;
    auto writer = make_animation_writer(AnimationFormat::Gif, path);
    writer->begin(kW, kH, kFps, kFrames);
    std::vector<std::vector<std::uint8_t>> input;
    for (int i = 0; i < kFrames; ++i) {
        // Frame 5 repeats frame 4: an unchanged frame still counts, with its delay.
        const auto frame = make_frame(kW, kH, i == 5 ? 4 : i, kFrames, FrameKind::FewColours);
        writer->add_frame(frame.data(), 4 * kW);
        input.push_back(rgb_of(frame));
    }
    writer->finish();

    const Decoded d = decode_gif(path);
    EXPECT_EQ(d.width, kW);
    EXPECT_EQ(d.height, kH);
    ASSERT_EQ(d.frames, kFrames);
    EXPECT_TRUE(d.global_palette);
    EXPECT_FALSE(d.local_palettes);
    EXPECT_TRUE(d.loops_forever);
    EXPECT_EQ(d.delays, std::vector<int>(kFrames, 10)); // 1/10 s in hundredths
    EXPECT_GT(d.transparent_pixels, 0); // the tiles stand still every other frame: only the dot is coded
    for (int i = 0; i < kFrames; ++i)
        EXPECT_EQ(d.rgb[static_cast<std::size_t>(i)], input[static_cast<std::size_t>(i)]) << "frame " << i;
}

// A 16-colour pattern that LZW cannot shorten much, with an 8 x 8 square moving 2 pixels a frame over it.
std::vector<std::uint8_t> speckle_with_square(int width, int height, int frame)
{
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            std::uint32_t h =
                static_cast<std::uint32_t>(x) * 73856093u ^ static_cast<std::uint32_t>(y) * 19349663u;
            h = (h ^ (h >> 13)) * 0x5bd1e995u;
            const int c = static_cast<int>((h >> 7) & 15);
            const bool square = x >= 20 + 2 * frame && x < 28 + 2 * frame && y >= 30 && y < 38;
            std::uint8_t* p = rgba.data() + (static_cast<std::size_t>(y) * width + x) * 4;
            p[0] = square ? 255 : static_cast<std::uint8_t>(c * 16);
            p[1] = square ? 0 : static_cast<std::uint8_t>(255 - c * 16);
            p[2] = static_cast<std::uint8_t>(c * 8), p[3] = 255;
        }
    return rgba;
}

// Only what changed is coded: the frames after the first cost about the rectangle that changed (the old
// and the new square, 10 x 8 pixels), not the whole picture. Bound, from the content: the one-frame GIF
// of the first frame, then per frame at most one byte per pixel of the changed rectangle plus 64 bytes
// (control block, image descriptor, LZW's clear and end codes); whole frames would cost about a one-frame
// GIF each, 30 times the bound's first term. Decoded frames are the input exactly (16 colours).
TEST(AnimationGif, FramesThatDifferInASmallRegionCodeOnlyThatRegion)
{
    const auto dir = fresh_animation_dir("gif_small_change");
    constexpr int kW = 160, kH = 120, kFrames = 30;
    const auto one = (dir / "first.gif").string();
    {
        auto writer = make_animation_writer(AnimationFormat::Gif, one);
        writer->begin(kW, kH, 10, 1);
        writer->add_frame(speckle_with_square(kW, kH, 0).data(), 4 * kW);
        writer->finish();
    }
    const auto whole_frame = static_cast<double>(std::filesystem::file_size(one));

    const auto path = (dir / "square.gif").string();
    auto writer = make_animation_writer(AnimationFormat::Gif, path);
    writer->begin(kW, kH, 10, kFrames);
    std::vector<std::vector<std::uint8_t>> input;
    for (int i = 0; i < kFrames; ++i) {
        const auto frame = speckle_with_square(kW, kH, i);
        writer->add_frame(frame.data(), 4 * kW);
        input.push_back(rgb_of(frame));
    }
    writer->finish();
    const auto size = static_cast<double>(std::filesystem::file_size(path));
    EXPECT_GT(whole_frame, 4000.0); // the pattern is not cheap: whole frames would be 30 x this
    EXPECT_LE(size, whole_frame + (kFrames - 1) * (10.0 * 8.0 + 64.0))
        << "one frame: " << whole_frame << " bytes";

    const Decoded d = decode_gif(path);
    ASSERT_EQ(d.frames, kFrames);
    for (int i = 0; i < kFrames; ++i)
        EXPECT_EQ(d.rgb[static_cast<std::size_t>(i)], input[static_cast<std::size_t>(i)]) << "frame " << i;
}

TEST(AnimationGif, DelaysInHundredthsAddUpToTheDuration)
{
    const auto path = (fresh_animation_dir("gif_delays") / "sweep.gif").string();
    auto writer = make_animation_writer(AnimationFormat::Gif, path);
    writer->begin(16, 16, 30, 30);
    for (int i = 0; i < 30; ++i) {
        const auto frame = make_frame(16, 16, i, 30, FrameKind::FewColours);
        writer->add_frame(frame.data(), 64);
    }
    writer->finish();
    const Decoded d = decode_gif(path);
    int total = 0;
    for (int delay : d.delays) {
        EXPECT_TRUE(delay == 3 || delay == 4) << delay; // 100/30 = 3.33 hundredths
        total += delay;
    }
    EXPECT_EQ(total, 100); // 30 frames at 30 fps: one second
}

// Thousands of colours: the global palette is a median cut of every frame's colours (no dithering).
// Tolerance, over every frame: a mean absolute error of at most 7 levels of 255 per channel and none
// above 36. The three fields fill a colour volume of about 200 x 200 x 160 levels evenly; 256 colours cut
// it into boxes about 32 levels a side: a mean error near a quarter of that and a worst near half, in one
// channel. (A palette of the first frame's colours only misses later frames' colours by far more.)
TEST(AnimationGif, ManyColoursShareOnePaletteBuiltFromAllFrames)
{
    const auto path = (fresh_animation_dir("gif_many") / "smooth.gif").string();
    constexpr int kW = 96, kH = 64, kFrames = 8;
    auto writer = make_animation_writer(AnimationFormat::Gif, path);
    writer->begin(kW, kH, 25, 0);
    std::vector<std::vector<std::uint8_t>> input;
    for (int i = 0; i < kFrames; ++i) {
        const auto frame = make_frame(kW, kH, i, kFrames, FrameKind::Smooth);
        writer->add_frame(frame.data(), 4 * kW);
        input.push_back(rgb_of(frame));
    }
    writer->finish();
    const Decoded d = decode_gif(path);
    ASSERT_EQ(d.frames, kFrames);
    EXPECT_TRUE(d.global_palette);
    EXPECT_FALSE(d.local_palettes);
    double sum = 0;
    int worst = 0;
    std::size_t n = 0;
    for (int i = 0; i < kFrames; ++i)
        for (std::size_t k = 0; k < input[0].size(); ++k, ++n) {
            const int e = std::abs(int(d.rgb[static_cast<std::size_t>(i)][k]) -
                                   int(input[static_cast<std::size_t>(i)][k]));
            sum += e, worst = std::max(worst, e);
        }
    EXPECT_LE(sum / static_cast<double>(n), 7.0);
    EXPECT_LE(worst, 36);
    EXPECT_EQ(d.palette_size, 256); // 127 colours would cost far more than ΔE*ab 1 here
}

// CIE 1976 L*a*b* of an sRGB colour: D65, the sRGB transfer curve (IEC 61966-2-1), CIE 15:2004.
std::array<double, 3> lab_of(const std::uint8_t* rgb)
{
    double linear[3];
    for (int c = 0; c < 3; ++c) {
        const double v = rgb[c] / 255.0;
        linear[c] = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    }
    const double xyz[3] = {(0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]) / 0.95047,
                           0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2],
                           (0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]) / 1.08883};
    double f[3];
    for (int c = 0; c < 3; ++c)
        f[c] = xyz[c] > std::pow(6.0 / 29.0, 3) ? std::cbrt(xyz[c])
                                                : xyz[c] / (3 * std::pow(6.0 / 29.0, 2)) + 4.0 / 29.0;
    return {116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
}

// Lines on white with hundreds of colours (anti-aliased edges): 127 colours draw them as well to the eye
// as 255, so the writer takes the smaller palette (LZW's codes start at 7 bits instead of 8). Checked
// against the input, pixel by pixel, over the pixels that are not white: a mean colour difference
// below ΔE*ab 1, the writer's bound (it bounds its histogram cells' mean colours; measured here per
// pixel: 0.38). The file's size is measured in animation_bench, not here.
TEST(AnimationGif, LinesOnWhiteTakeTheSmallerPaletteWhenTheEyeCannotTell)
{
    const auto path = (fresh_animation_dir("gif_lines") / "lines.gif").string();
    constexpr int kW = 160, kH = 120, kFrames = 12;
    auto writer = make_animation_writer(AnimationFormat::Gif, path);
    writer->begin(kW, kH, 25, 0);
    std::vector<std::vector<std::uint8_t>> input;
    std::set<std::uint32_t> colours;
    for (int i = 0; i < kFrames; ++i) {
        const auto frame = make_frame(kW, kH, i, kFrames, FrameKind::Lines);
        writer->add_frame(frame.data(), 4 * kW);
        input.push_back(rgb_of(frame));
        for (std::size_t k = 0; k < frame.size(); k += 4)
            colours.insert(std::uint32_t(frame[k]) << 16 | frame[k + 1] << 8 | frame[k + 2]);
    }
    writer->finish();
    ASSERT_GT(colours.size(), 256u); // else the palette would be the exact colours
    const Decoded d = decode_gif(path);
    ASSERT_EQ(d.frames, kFrames);
    EXPECT_EQ(d.palette_size, 128);
    double sum = 0, worst = 0;
    std::size_t ink = 0;
    for (int i = 0; i < kFrames; ++i)
        for (std::size_t k = 0; k < input[0].size(); k += 3) {
            const std::uint8_t* in = input[static_cast<std::size_t>(i)].data() + k;
            if (in[0] == 255 && in[1] == 255 && in[2] == 255)
                continue;
            const auto a = lab_of(in), b = lab_of(d.rgb[static_cast<std::size_t>(i)].data() + k);
            const double e = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
            sum += e, worst = std::max(worst, e), ++ink;
        }
    ASSERT_GT(ink, 0u);
    EXPECT_LT(sum / static_cast<double>(ink), 1.0) << "worst " << worst;
}

} // namespace
