// SPDX-License-Identifier: GPL-3.0-or-later
// Frames and scratch folders for the animation writers' tests (tests/core/io/test_animation_*.cpp) and
// their benchmark: deterministic RGBA pictures of a known kind.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace posatlas::test {

enum class FrameKind {
    Smooth,     // sinusoidal colour fields drifting with the frame: thousands of colours, no sharp edges
    FewColours, // 8 x 8 tiles of 40 colours, shifted by one tile every other frame, and a dot moving along a
                // circle
    Alpha,      // Smooth with an alpha ramp (straight alpha)
    Lines,      // the rotation view's kind of picture: four anti-aliased hands of four colours turning on
                // white, hundreds of colours (each hand's colour over white at every coverage)
};

// Frame `i` of `n`, rows `stride` bytes apart (stride >= 4 * width; padding bytes are 0x5a).
inline std::vector<std::uint8_t> make_frame(int width, int height, int i, int n, FrameKind kind,
                                            int stride = 0)
{
    if (stride == 0)
        stride = 4 * width;
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(stride) * static_cast<std::size_t>(height), 0x5a);
    const double pi = 3.14159265358979323846, t = static_cast<double>(i) / n;
    const double cx = width * (0.5 + 0.3 * std::cos(2 * pi * t)),
                 cy = height * (0.5 + 0.3 * std::sin(2 * pi * t));
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p =
                rgba.data() + static_cast<std::size_t>(y) * stride + 4 * static_cast<std::size_t>(x);
            if (kind == FrameKind::Lines) {
                // Coverage of a 1.5-pixel-wide hand from the centre: 1 inside, falling linearly to 0 over
                // one pixel at its edge.
                static constexpr std::uint8_t kColours[4][3] = {
                    {31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40}};
                double r = 255, g = 255, b = 255;
                for (int h = 0; h < 4; ++h) {
                    const double angle = 2 * pi * (t * (h + 1) + 0.25 * h),
                                 length = 0.45 * std::min(width, height);
                    const double dx = std::cos(angle), dy = std::sin(angle);
                    const double px = x + 0.5 - width / 2.0, py = y + 0.5 - height / 2.0;
                    const double along = std::clamp(px * dx + py * dy, 0.0, length);
                    const double distance = std::hypot(px - along * dx, py - along * dy);
                    const double a = std::clamp(1.75 - distance, 0.0, 1.0);
                    r = r * (1 - a) + kColours[h][0] * a, g = g * (1 - a) + kColours[h][1] * a,
                    b = b * (1 - a) + kColours[h][2] * a;
                }
                p[0] = static_cast<std::uint8_t>(std::lround(r)),
                p[1] = static_cast<std::uint8_t>(std::lround(g));
                p[2] = static_cast<std::uint8_t>(std::lround(b)), p[3] = 255;
                continue;
            }
            if (kind == FrameKind::FewColours) {
                const int tile = (x / 8 + y / 8 + i / 2) % 40;
                p[0] = static_cast<std::uint8_t>(tile * 6), p[1] = static_cast<std::uint8_t>(255 - tile * 5);
                p[2] = static_cast<std::uint8_t>((tile * 37) % 256), p[3] = 255;
                if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < 16)
                    p[0] = p[1] = p[2] = 0;
                continue;
            }
            const double u = static_cast<double>(x) / width, v = static_cast<double>(y) / height;
            p[0] = static_cast<std::uint8_t>(std::lround(128 + 100 * std::sin(2 * pi * (u + t))));
            p[1] = static_cast<std::uint8_t>(std::lround(128 + 100 * std::cos(2 * pi * (v - t))));
            p[2] = static_cast<std::uint8_t>(std::lround(128 + 80 * std::sin(2 * pi * (u + v + 2 * t))));
            p[3] = kind == FrameKind::Alpha ? static_cast<std::uint8_t>((x * 255) / std::max(1, width - 1))
                                            : 255;
        }
    }
    return rgba;
}

// An empty folder of its own for one test.
inline std::filesystem::path fresh_animation_dir(const std::string& name)
{
    const auto d =
        std::filesystem::temp_directory_path() / ("posatlas_animation_" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

inline std::string slurp_file(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace posatlas::test
