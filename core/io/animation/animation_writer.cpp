// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/animation/animation_writer.h"

#include "io/animation/writers.h"

#include <algorithm>
#include <cctype>

namespace posatlas {

const char* animation_format_name(AnimationFormat format)
{
    switch (format) {
    case AnimationFormat::Mp4: return "mp4";
    case AnimationFormat::Gif: return "gif";
    case AnimationFormat::Apng: return "apng";
    }
    return "";
}

std::optional<AnimationFormat> animation_format_from_path(std::string_view path)
{
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos)
        return std::nullopt;
    std::string ext(path.substr(dot + 1));
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == "mp4")
        return AnimationFormat::Mp4;
    if (ext == "gif")
        return AnimationFormat::Gif;
    if (ext == "png" || ext == "apng")
        return AnimationFormat::Apng;
    return std::nullopt;
}

AnimationLimits animation_limits(AnimationFormat format)
{
    switch (format) {
    case AnimationFormat::Mp4: return {.max_side = 8192, .even_sides = true, .min_fps = 1, .max_fps = 120};
    case AnimationFormat::Gif: return {.max_side = 8192, .even_sides = false, .min_fps = 1, .max_fps = 50};
    case AnimationFormat::Apng: return {.max_side = 8192, .even_sides = false, .min_fps = 1, .max_fps = 120};
    }
    return {};
}

void AnimationWriter::begin(int width, int height, int fps, std::int64_t frame_count_hint)
{
    guarded([&] { do_begin(width, height, fps, frame_count_hint); });
}

void AnimationWriter::add_frame(const std::uint8_t* rgba, std::ptrdiff_t stride)
{
    guarded([&] { do_add_frame(rgba, stride); });
}

void AnimationWriter::finish()
{
    guarded([&] { do_finish(); });
}

void AnimationWriter::check_parameters(AnimationFormat format, int width, int height, int fps) const
{
    const AnimationLimits limits = animation_limits(format);
    const std::string name = format == AnimationFormat::Mp4   ? "MP4"
                             : format == AnimationFormat::Gif ? "GIF"
                                                              : "APNG";
    const auto side = [&](const char* parameter, int value) {
        const bool odd = limits.even_sides && value % 2 != 0;
        if (value < (limits.even_sides ? 2 : 1) || value > limits.max_side || odd)
            throw ParameterError(parameter,
                                 (limits.even_sides ? "an even number of pixels from 2 to " : "from 1 to ") +
                                     std::to_string(limits.max_side) + " for " + name,
                                 std::to_string(value));
    };
    side("width", width);
    side("height", height);
    if (fps < limits.min_fps || fps > limits.max_fps)
        throw ParameterError("fps",
                             "from " + std::to_string(limits.min_fps) + " to " +
                                 std::to_string(limits.max_fps) + " frames per second for " + name,
                             std::to_string(fps));
}

void AnimationWriter::frame_done()
{
    ++m_frames;
    check_cancel(m_callbacks.cancel);
    const double fraction = m_hint > 0 && m_frames <= m_hint
                                ? 0.9 * static_cast<double>(m_frames) / static_cast<double>(m_hint)
                                : 0.9;
    report_progress(m_callbacks.progress, fraction);
}

void AnimationWriter::finish_progress(double fraction_of_finish) const
{
    check_cancel(m_callbacks.cancel);
    report_progress(m_callbacks.progress, 0.9 + 0.1 * std::clamp(fraction_of_finish, 0.0, 1.0));
}

std::unique_ptr<AnimationWriter> make_animation_writer(AnimationFormat format, const std::string& path,
                                                       AnimationCallbacks callbacks)
{
    switch (format) {
    case AnimationFormat::Mp4: return animation_detail::make_mp4_writer(path, std::move(callbacks));
    case AnimationFormat::Gif: return animation_detail::make_gif_writer(path, std::move(callbacks));
    case AnimationFormat::Apng: return animation_detail::make_apng_writer(path, std::move(callbacks));
    }
    return nullptr;
}

namespace animation_detail {

void rgba_over_white(const std::uint8_t* rgba, int width, std::uint8_t* rgb)
{
    for (int x = 0; x < width; ++x, rgba += 4, rgb += 3) {
        const unsigned a = rgba[3];
        if (a == 255) {
            rgb[0] = rgba[0], rgb[1] = rgba[1], rgb[2] = rgba[2];
        } else {
            for (int c = 0; c < 3; ++c)
                rgb[c] = static_cast<std::uint8_t>((rgba[c] * a + 255u * (255u - a) + 127u) / 255u);
        }
    }
}

} // namespace animation_detail
} // namespace posatlas
