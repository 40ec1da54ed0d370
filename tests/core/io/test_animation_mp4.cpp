// SPDX-License-Identifier: GPL-3.0-or-later
// The MP4 writer (io/animation/), read back with FFmpeg's own demuxer and H.264 decoder: frame count, size,
// frame rate and duration, H.264 in yuv420p, the index (moov) before the data (faststart), and the first
// and last frames against the input within PSNR >= 40 dB (RGB, peak 255; converted back with the BT.709
// limited-range matrix the file is tagged with).
#include "animation_fixtures.h"
#include "io/animation/animation_writer.h"

#include <gtest/gtest.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include <cmath>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;

namespace {

struct DecodedVideo {
    int width = 0, height = 0, frames = 0;
    AVCodecID codec = AV_CODEC_ID_NONE;
    int pix_fmt = -1;
    double fps = 0, duration = 0;
    std::vector<std::uint8_t> first, last; // RGB24
};

std::vector<std::uint8_t> to_rgb(const AVFrame* frame)
{
    SwsContext* sws = sws_getContext(
        frame->width, frame->height, static_cast<AVPixelFormat>(frame->format), frame->width, frame->height,
        AV_PIX_FMT_RGB24, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(sws, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16);
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(frame->width) * frame->height * 3);
    std::uint8_t* planes[1] = {rgb.data()};
    const int strides[1] = {frame->width * 3};
    sws_scale(sws, frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(sws);
    return rgb;
}

DecodedVideo decode_mp4(const std::string& path)
{
    DecodedVideo d;
    AVFormatContext* format = nullptr;
    EXPECT_EQ(avformat_open_input(&format, path.c_str(), nullptr, nullptr), 0);
    if (!format)
        return d;
    EXPECT_GE(avformat_find_stream_info(format, nullptr), 0);
    const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    EXPECT_GE(index, 0);
    const AVStream* stream = format->streams[index];
    d.codec = stream->codecpar->codec_id;
    d.pix_fmt = stream->codecpar->format;
    d.fps = av_q2d(stream->avg_frame_rate);
    d.duration = static_cast<double>(stream->duration) * av_q2d(stream->time_base);
    const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext* decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(decoder, stream->codecpar);
    EXPECT_EQ(avcodec_open2(decoder, codec, nullptr), 0);
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    const auto receive = [&] {
        while (avcodec_receive_frame(decoder, frame) == 0) {
            if (d.frames == 0)
                d.first = to_rgb(frame);
            d.last = to_rgb(frame);
            d.width = frame->width, d.height = frame->height;
            ++d.frames;
        }
    };
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == index) {
            EXPECT_EQ(avcodec_send_packet(decoder, packet), 0);
            receive();
        }
        av_packet_unref(packet);
    }
    avcodec_send_packet(decoder, nullptr);
    receive();
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&format);
    return d;
}

double psnr(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b)
{
    double se = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        se += (double(a[i]) - double(b[i])) * (double(a[i]) - double(b[i]));
    const double mse = se / static_cast<double>(a.size());
    return 10 * std::log10(255.0 * 255.0 / std::max(mse, 1e-12));
}

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

    const DecodedVideo d = decode_mp4(path);
    EXPECT_EQ(d.codec, AV_CODEC_ID_H264);
    EXPECT_EQ(d.pix_fmt, AV_PIX_FMT_YUV420P);
    EXPECT_EQ(d.width, kW);
    EXPECT_EQ(d.height, kH);
    EXPECT_EQ(d.frames, kFrames);
    EXPECT_DOUBLE_EQ(d.fps, kFps);
    EXPECT_NEAR(d.duration, 1.5, 1e-9); // 45 frames at 30 fps
    ASSERT_EQ(d.first.size(), first.size());
    EXPECT_GE(psnr(d.first, first), 40.0);
    EXPECT_GE(psnr(d.last, last), 40.0);

    const auto boxes = top_level_boxes(slurp_file(path));
    const auto at = [&](const char* name) {
        return std::find(boxes.begin(), boxes.end(), name) - boxes.begin();
    };
    EXPECT_LT(at("moov"), at("mdat")); // faststart: a player can start before the end arrives
    EXPECT_LT(at("mdat"), static_cast<std::ptrdiff_t>(boxes.size()));
}

} // namespace
