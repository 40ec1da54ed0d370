// SPDX-License-Identifier: GPL-3.0-or-later
// Reads back what the animation writers wrote, with the formats' own decoders: FFmpeg's demuxer and H.264
// decoder (MP4, converted to RGB with the BT.709 limited-range matrix the file is tagged with), giflib
// (GIF, each frame as shown: the canvas after it) and libpng (APNG: libpng 1.6 has no APNG reader, so each
// frame's zlib stream is wrapped into a PNG of its own). Every frame is kept as RGB24: for small tests.
// Link PkgConfig::POSATLAS_ANIMATION_DECODERS (tests/CMakeLists.txt).
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}
#include <gif_lib.h>
#include <png.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace posatlas::test {

struct DecodedAnimation {
    bool ok = false;
    int width = 0, height = 0, frames = 0;
    double duration = 0.0; // seconds
    // MP4 only: the stream's codec (AVCodecID), pixel format (AVPixelFormat) and average frame rate.
    int codec = AV_CODEC_ID_NONE, pix_fmt = -1;
    double fps = 0.0;
    std::vector<std::vector<std::uint8_t>> rgb; // RGB24, row after row
};

inline std::vector<std::uint8_t> frame_to_rgb(const AVFrame* frame)
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

inline DecodedAnimation decode_mp4(const std::string& path)
{
    DecodedAnimation d;
    AVFormatContext* format = nullptr;
    if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) != 0)
        return d;
    avformat_find_stream_info(format, nullptr);
    const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (index < 0) {
        avformat_close_input(&format);
        return d;
    }
    const AVStream* stream = format->streams[index];
    d.duration = static_cast<double>(stream->duration) * av_q2d(stream->time_base);
    d.codec = stream->codecpar->codec_id;
    d.pix_fmt = stream->codecpar->format;
    d.fps = av_q2d(stream->avg_frame_rate);
    const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
    AVCodecContext* decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(decoder, stream->codecpar);
    d.ok = avcodec_open2(decoder, codec, nullptr) == 0;
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    const auto receive = [&] {
        while (avcodec_receive_frame(decoder, frame) == 0) {
            d.rgb.push_back(frame_to_rgb(frame));
            d.width = frame->width, d.height = frame->height;
            ++d.frames;
        }
    };
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == index && avcodec_send_packet(decoder, packet) == 0)
            receive();
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

inline DecodedAnimation decode_gif(const std::string& path)
{
    DecodedAnimation d;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    if (!gif)
        return d;
    d.ok = DGifSlurp(gif) == GIF_OK;
    d.width = gif->SWidth, d.height = gif->SHeight, d.frames = gif->ImageCount;
    std::vector<std::uint8_t> canvas(static_cast<std::size_t>(d.width) * d.height * 3, 0);
    for (int i = 0; d.ok && i < gif->ImageCount; ++i) {
        const SavedImage& image = gif->SavedImages[i];
        GraphicsControlBlock gcb{};
        DGifSavedExtensionToGCB(gif, i, &gcb);
        d.duration += gcb.DelayTime / 100.0;
        const GifImageDesc& r = image.ImageDesc;
        const ColorMapObject* map = r.ColorMap ? r.ColorMap : gif->SColorMap;
        for (int y = 0; y < r.Height; ++y)
            for (int x = 0; x < r.Width; ++x) {
                const int index = image.RasterBits[y * r.Width + x];
                if (index == gcb.TransparentColor)
                    continue;
                const GifColorType c = map->Colors[index];
                std::uint8_t* p =
                    canvas.data() + (static_cast<std::size_t>(r.Top + y) * d.width + r.Left + x) * 3;
                p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue;
            }
        d.rgb.push_back(canvas);
    }
    DGifCloseFile(gif, &error);
    return d;
}

inline std::uint32_t png_get32(const std::string& s, std::size_t at)
{
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v = v << 8 | static_cast<std::uint8_t>(s[at + static_cast<std::size_t>(i)]);
    return v;
}

inline std::string png_chunk(const std::string& type, const std::string& data)
{
    std::string out;
    const auto put32 = [&](std::uint32_t v) {
        for (int s = 24; s >= 0; s -= 8)
            out += static_cast<char>(v >> s);
    };
    put32(static_cast<std::uint32_t>(data.size()));
    const std::string body = type + data;
    out += body;
    put32(static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(body.data()),
                                           static_cast<uInt>(body.size()))));
    return out;
}

// A PNG in memory decoded by libpng's simplified API to RGB24 (or straight-alpha RGBA when `rgba`); empty
// when libpng refuses it.
inline std::vector<std::uint8_t> decode_png(const std::string& png, int& width, int& height,
                                            bool rgba = false)
{
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_memory(&image, png.data(), png.size()) == 0)
        return {};
    image.format = rgba ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(image));
    if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0)
        return {};
    width = static_cast<int>(image.width), height = static_cast<int>(image.height);
    return pixels;
}

// An APNG whose frames all cover the whole canvas (what the writer writes).
inline DecodedAnimation decode_apng(const std::string& path)
{
    DecodedAnimation d;
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string file = buffer.str();
    if (file.size() < 8 || file.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0)
        return d;
    std::string ihdr;
    std::vector<std::string> streams;
    for (std::size_t at = 8; at + 12 <= file.size();) {
        const std::uint32_t length = png_get32(file, at);
        const std::string type = file.substr(at + 4, 4), data = file.substr(at + 8, length);
        if (type == "IHDR") {
            ihdr = data;
        } else if (type == "fcTL" && data.size() == 26) {
            const int num = static_cast<std::uint8_t>(data[20]) << 8 | static_cast<std::uint8_t>(data[21]);
            const int den = static_cast<std::uint8_t>(data[22]) << 8 | static_cast<std::uint8_t>(data[23]);
            d.duration += static_cast<double>(num) / (den == 0 ? 100 : den);
            streams.emplace_back();
        } else if (type == "IDAT" && !streams.empty()) {
            streams.back() += data;
        } else if (type == "fdAT" && !streams.empty()) {
            streams.back() += data.substr(4);
        }
        at += 12 + length;
    }
    d.ok = !ihdr.empty();
    for (const std::string& stream : streams) {
        const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) +
                                png_chunk("IDAT", stream) + png_chunk("IEND", "");
        std::vector<std::uint8_t> pixels = decode_png(png, d.width, d.height);
        if (pixels.empty()) {
            d.ok = false;
            break;
        }
        d.rgb.push_back(std::move(pixels));
        ++d.frames;
    }
    return d;
}

// Peak signal-to-noise ratio of two RGB24 images (peak 255); infinity when equal.
inline double psnr(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b)
{
    if (a.size() != b.size() || a.empty())
        return 0.0;
    double se = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        se += (double(a[i]) - double(b[i])) * (double(a[i]) - double(b[i]));
    const double mse = se / static_cast<double>(a.size());
    return mse == 0 ? INFINITY : 10.0 * std::log10(255.0 * 255.0 / mse);
}

} // namespace posatlas::test
