// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas export --animate`, end to end: the formats by extension and by --format with --out -, read
// back with the formats' own decoders (frame count, size, duration), and bad input refused with exit 2,
// a message naming the option, and no file (an existing --out file left as it was). The frames' content
// against the still export is tested in tests/ui/export/test_animation_export.cpp.
#include "animation_decode.h"
#include "cli_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace posatlas::test;

// Small figures: 160 x 100 pixels (--dpi 96), a few frames.
std::vector<std::string> small(std::vector<std::string> args)
{
    for (const char* a : {"--width", "160", "--height", "100", "--dpi", "96", "--quiet"})
        args.emplace_back(a);
    return args;
}

TEST(CliAnimate, SpectrumSweepToMp4HasItsFramesSizeAndDuration)
{
    const fs::path out = temp_dir() / "sweep.mp4";
    const Result r =
        run(small({"export", "--view", "spectrum", "--preset", "llama-2-7b", "--animate",
                   "rope_theta=10000:500000:log", "--frames", "6", "--fps", "20", "--out", out.string()}));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, out.string() + "\n");
    const DecodedAnimation d = decode_mp4(out.string());
    EXPECT_TRUE(d.ok);
    EXPECT_EQ(d.frames, 6);
    EXPECT_EQ(d.width, 160);
    EXPECT_EQ(d.height, 100);
    EXPECT_NEAR(d.duration, 0.3, 1e-6);
}

// Without --width, --height and --dpi an animation's frames are 1280 x 720 pixels (the figure at 96
// dpi), not the still export's 2400 x 1600; each one given still counts.
TEST(CliAnimate, FramesHaveTheDefaultAnimationSizeWhenNoSizeIsGiven)
{
    const fs::path gif = temp_dir() / "default_size.gif";
    Result r = run({"export", "--view", "rotation", "--animate", "query_position=0:4", "--frames", "2",
                    "--quiet", "--out", gif.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    DecodedAnimation d = decode_gif(gif.string());
    EXPECT_TRUE(d.ok);
    EXPECT_EQ(d.frames, 2);
    EXPECT_EQ(d.width, 1280);
    EXPECT_EQ(d.height, 720);

    r = run({"export", "--view", "rotation", "--animate", "query_position=0:4", "--frames", "2", "--width",
             "320", "--dpi", "192", "--quiet", "--out", gif.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    d = decode_gif(gif.string());
    EXPECT_EQ(d.width, 640);
    EXPECT_EQ(d.height, 1440);
}

TEST(CliAnimate, RotationSweepToGifAndApngByExtension)
{
    const fs::path gif = temp_dir() / "rope.gif";
    Result r = run(small({"export", "--view", "rotation", "--animate", "query_position=0:64", "--frames", "5",
                          "--fps", "10", "--out", gif.string()}));
    ASSERT_EQ(r.status, 0) << r.err;
    DecodedAnimation d = decode_gif(gif.string());
    EXPECT_TRUE(d.ok);
    EXPECT_EQ(d.frames, 5);
    EXPECT_EQ(d.width, 160);
    EXPECT_NEAR(d.duration, 0.5, 1e-9);
    EXPECT_NE(d.rgb.front(), d.rgb.back());

    for (const char* name : {"rope.apng", "rope.png"}) {
        const fs::path png = temp_dir() / name;
        r = run(small({"export", "--view", "rotation", "--animate", "key-position=0:8", "--frames", "3",
                       "--out", png.string()}));
        ASSERT_EQ(r.status, 0) << r.err;
        d = decode_apng(png.string());
        EXPECT_TRUE(d.ok);
        EXPECT_EQ(d.frames, 3) << name;
        EXPECT_NEAR(d.duration, 3 / 20.0, 1e-9); // --fps 20 by default
    }
}

TEST(CliAnimate, StandardOutputWithFormat)
{
    const Result r = run(small({"export", "--view", "rotation", "--animate", "query_position=0:4", "--frames",
                                "2", "--out", "-", "--format", "gif"}));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, 6), "GIF89a");
    const Result no_format =
        run(small({"export", "--view", "rotation", "--animate", "query_position=0:4", "--out", "-"}));
    EXPECT_EQ(no_format.status, 2);
    EXPECT_NE(no_format.err.find("--format"), std::string::npos) << no_format.err;
}

struct Refusal {
    std::vector<std::string> args;
    std::string option; // the message names it
};

TEST(CliAnimate, BadInputIsRefusedNamingTheOptionAndLeavesTheFile)
{
    const fs::path out = temp_dir() / "kept.gif";
    const std::vector<std::string> base{"export", "--view", "spectrum", "--out", out.string()};
    const std::vector<Refusal> refusals{
        {{"--animate", "rope_theta=0:500000:log"}, "--animate"}, // a log sweep through 0
        {{"--animate", "rope_theta=-5:5:log"}, "--animate"},     // and below it
        {{"--animate", "no_such_field=1:2"}, "--animate"},       // not a field of the method
        {{"--animate", "rope_theta=0.5:100"}, "--animate"},      // outside the field's range
        {{"--animate", "rope_theta=10:100:cubic"}, "--animate"}, // not the form
        {{"--animate", "query_position=0:4"}, "--animate"},      // the rotation view's
        {{"--animate", "rope_theta=10:100", "--frames", "0"}, "--frames"},
        {{"--animate", "rope_theta=10:100", "--fps", "60"}, "--fps"},        // GIF: at most 50
        {{"--frames", "10"}, "--frames"},                                    // without --animate
        {{"--animate", "rope_theta=10:100", "--format", "mp4"}, "--format"}, // not the extension's
    };
    for (const Refusal& refusal : refusals) {
        write_file("kept.gif", "keep me");
        std::vector<std::string> args = base;
        args.insert(args.end(), refusal.args.begin(), refusal.args.end());
        const Result r = run(small(args));
        EXPECT_EQ(r.status, 2) << refusal.args[1];
        EXPECT_NE(r.err.find(refusal.option), std::string::npos) << r.err;
        EXPECT_EQ(slurp(out), "keep me") << refusal.args[1];
    }
    // A new file is not created either.
    const fs::path fresh = temp_dir() / "fresh.mp4";
    const Result r = run(
        small({"export", "--view", "spectrum", "--animate", "rope_theta=0:9:log", "--out", fresh.string()}));
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(fs::exists(fresh));
}

} // namespace
