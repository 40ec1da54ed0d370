// SPDX-License-Identifier: GPL-3.0-or-later
// What every animation writer (io/animation/) shares: the refusals, with messages that name the parameter
// and its allowed range; whole or not at all (a refused, failed, cancelled or abandoned animation leaves
// no file and an existing file as it was); progress up to 1; the format from a file name.
#include "animation_fixtures.h"
#include "io/animation/animation_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

const AnimationFormat kFormats[] = {AnimationFormat::Mp4, AnimationFormat::Gif, AnimationFormat::Apng};

std::string extension(AnimationFormat f)
{
    return f == AnimationFormat::Mp4 ? ".mp4" : f == AnimationFormat::Gif ? ".gif" : ".png";
}

std::vector<std::string> names_in(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    return names;
}

// The ParameterError `begin` throws, or a failure when it throws none.
ParameterError begin_error(AnimationFormat format, int width, int height, int fps)
{
    auto writer =
        make_animation_writer(format, (fresh_animation_dir("refusal") / "x").string() + extension(format));
    try {
        writer->begin(width, height, fps, 1);
    } catch (const ParameterError& e) {
        return e;
    }
    ADD_FAILURE() << animation_format_name(format) << " accepted " << width << " x " << height << " at "
                  << fps;
    return ParameterError("", "", "");
}

TEST(AnimationWriter, RefusesSizesEachFormatCannotTakeNamingTheParameterAndRange)
{
    ParameterError odd = begin_error(AnimationFormat::Mp4, 641, 480, 30);
    EXPECT_EQ(odd.parameter(), "width");
    EXPECT_STREQ(odd.what(), "width must be an even number of pixels from 2 to 8192 for MP4 (got 641)");
    EXPECT_EQ(begin_error(AnimationFormat::Mp4, 640, 481, 30).parameter(), "height");
    for (AnimationFormat f : kFormats) {
        const ParameterError zero = begin_error(f, 0, 10, 10);
        EXPECT_EQ(zero.parameter(), "width") << animation_format_name(f);
        EXPECT_EQ(zero.got(), "0");
        EXPECT_EQ(begin_error(f, 10, 0, 10).parameter(), "height");
        EXPECT_EQ(begin_error(f, 10, 8194, 10).parameter(), "height");
    }
    EXPECT_STREQ(begin_error(AnimationFormat::Gif, 0, 5, 10).what(),
                 "width must be from 1 to 8192 for GIF (got 0)");
    // GIF and APNG take odd sizes.
    for (AnimationFormat f : {AnimationFormat::Gif, AnimationFormat::Apng}) {
        auto writer = make_animation_writer(f, (fresh_animation_dir("odd") / "x").string() + extension(f));
        EXPECT_NO_THROW(writer->begin(3, 5, 10));
    }
}

TEST(AnimationWriter, RefusesFrameRatesOutOfRange)
{
    const ParameterError gif = begin_error(AnimationFormat::Gif, 16, 16, 51);
    EXPECT_EQ(gif.parameter(), "fps");
    EXPECT_STREQ(gif.what(), "fps must be from 1 to 50 frames per second for GIF (got 51)");
    EXPECT_STREQ(begin_error(AnimationFormat::Mp4, 16, 16, 121).what(),
                 "fps must be from 1 to 120 frames per second for MP4 (got 121)");
    for (AnimationFormat f : kFormats)
        EXPECT_EQ(begin_error(f, 16, 16, 0).parameter(), "fps") << animation_format_name(f);
}

TEST(AnimationWriter, NoFramesIsRefusedAndLeavesTheOldFile)
{
    for (AnimationFormat f : kFormats) {
        const fs::path dir = fresh_animation_dir(std::string("empty_") + animation_format_name(f));
        const fs::path path = dir / ("old" + extension(f));
        std::ofstream(path, std::ios::binary) << "old bytes";
        auto writer = make_animation_writer(f, path.string());
        writer->begin(16, 16, 10, 0);
        try {
            writer->finish();
            ADD_FAILURE() << animation_format_name(f) << " finished without frames";
        } catch (const ParameterError& e) {
            EXPECT_EQ(e.parameter(), "frames");
            EXPECT_STREQ(e.what(), "frames must be at least 1 (got 0)");
        }
        writer.reset();
        EXPECT_EQ(slurp_file(path), "old bytes") << animation_format_name(f);
        EXPECT_EQ(names_in(dir), std::vector<std::string>{"old" + extension(f)}); // no temporary file left
    }
}

// A cancel in the middle, a frame the writer refuses, and a writer dropped before finish(): no new file,
// the old one untouched, no temporary file.
TEST(AnimationWriter, FailedCancelledOrAbandonedAnimationLeavesNoFileAndTheOldOneUntouched)
{
    for (AnimationFormat f : kFormats) {
        const fs::path dir = fresh_animation_dir(std::string("failed_") + animation_format_name(f));
        const fs::path old = dir / ("old" + extension(f));
        const fs::path fresh = dir / ("new" + extension(f));
        std::ofstream(old, std::ios::binary) << "old bytes";
        const auto frame = make_frame(16, 16, 0, 1, FrameKind::Smooth);

        int polls = 0;
        auto cancelled = make_animation_writer(f, old.string(), {.cancel = [&] { return ++polls >= 3; }});
        cancelled->begin(16, 16, 10, 5);
        cancelled->add_frame(frame.data(), 64);
        cancelled->add_frame(frame.data(), 64);
        EXPECT_THROW(cancelled->add_frame(frame.data(), 64), Cancelled);
        EXPECT_THROW(cancelled->finish(), OutputFileError); // finished by the exception

        auto refused = make_animation_writer(f, old.string());
        refused->begin(16, 16, 10, 2);
        refused->add_frame(frame.data(), 64);
        try {
            refused->add_frame(frame.data(), 60); // rows closer than 4 x width
            ADD_FAILURE() << animation_format_name(f) << " took a short stride";
        } catch (const OutputFileError& e) {
            EXPECT_EQ(e.path(), old.string());
            EXPECT_NE(std::string(e.what()).find("60 bytes apart"), std::string::npos) << e.what();
        }

        auto abandoned = make_animation_writer(f, fresh.string());
        abandoned->begin(16, 16, 10, 2);
        abandoned->add_frame(frame.data(), 64);
        abandoned.reset();

        EXPECT_EQ(slurp_file(old), "old bytes") << animation_format_name(f);
        EXPECT_EQ(names_in(dir), std::vector<std::string>{"old" + extension(f)}) << animation_format_name(f);
    }
}

TEST(AnimationWriter, ReplacesAnExistingFileWholeAndReportsProgressUpToOne)
{
    for (AnimationFormat f : kFormats) {
        const fs::path dir = fresh_animation_dir(std::string("replace_") + animation_format_name(f));
        const fs::path path = dir / ("figure" + extension(f));
        std::ofstream(path, std::ios::binary) << "old bytes";
        std::vector<double> progress;
        auto writer =
            make_animation_writer(f, path.string(), {.progress = [&](double p) { progress.push_back(p); }});
        writer->begin(32, 32, 10, 4);
        for (int i = 0; i < 4; ++i) {
            const auto frame = make_frame(32, 32, i, 4, FrameKind::Smooth);
            writer->add_frame(frame.data(), 128);
        }
        EXPECT_EQ(slurp_file(path), "old bytes"); // nothing replaced before finish()
        writer->finish();
        EXPECT_GT(fs::file_size(path), 100u);
        ASSERT_FALSE(progress.empty());
        EXPECT_DOUBLE_EQ(progress.back(), 1.0);
        EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
        EXPECT_EQ(names_in(dir), std::vector<std::string>{"figure" + extension(f)});
    }
}

TEST(AnimationWriter, AFolderThatDoesNotExistIsAnErrorNamingThePath)
{
    for (AnimationFormat f : kFormats) {
        const std::string path =
            (fresh_animation_dir("missing") / "no" / "such" / "x").string() + extension(f);
        auto writer = make_animation_writer(f, path);
        try {
            writer->begin(16, 16, 10);
            ADD_FAILURE() << "opened " << path;
        } catch (const OutputFileError& e) {
            const std::string expected = "cannot write " + path + ": No such file or directory";
            EXPECT_EQ(std::string(e.what()).substr(0, expected.size()), expected);
        }
    }
}

TEST(AnimationWriter, FormatFromTheFileName)
{
    EXPECT_EQ(animation_format_from_path("a/b/Rotation.MP4"), AnimationFormat::Mp4);
    EXPECT_EQ(animation_format_from_path("x.gif"), AnimationFormat::Gif);
    EXPECT_EQ(animation_format_from_path("x.png"), AnimationFormat::Apng);
    EXPECT_EQ(animation_format_from_path("x.apng"), AnimationFormat::Apng);
    EXPECT_EQ(animation_format_from_path("x.webm"), std::nullopt);
    EXPECT_EQ(animation_format_from_path("dir.gif/x"), std::nullopt);
}

} // namespace
