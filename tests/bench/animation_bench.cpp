// SPDX-License-Identifier: GPL-3.0-or-later
// The animation writers (core/io/animation/) on figure-like frames: white background, a heat map of a
// plane wave through a 64-step colour map turning a little each frame (a rotation), black axes and
// ticks; and a clock face of turning hands like the rotation view's. Frames are drawn with the timers paused:
// what is timed is encoding and writing the file. The file's size is the counter "bytes". Run on purpose
// (`make bench`), never by ctest.
//
// The figures' path (export/animation_export.h, what `posatlas export --animate` runs): every frame
// computed, rendered by the still export's renderer and encoded, the fixed scale's pass included, timed
// as a whole (BM_Figure_*). Its counters: the file's "bytes" and the process's peak resident memory
// "peak_rss_mb" (ru_maxrss).
#include "export/animation_export.h"
#include "io/animation/animation_writer.h"
#include "model/session.h"

#include <QApplication>

#include <sys/resource.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <vector>

#include <unistd.h>

namespace {

using namespace posatlas;

void draw_frame(std::vector<std::uint8_t>& rgba, int width, int height, int i, int n)
{
    const double pi = 3.14159265358979323846, angle = 2 * pi * i / n;
    const double c = std::cos(angle), s = std::sin(angle);
    const int x0 = width / 10, y0 = height / 10, x1 = width - width / 10, y1 = height - height / 10;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = rgba.data() + (static_cast<std::size_t>(y) * width + x) * 4;
            p[0] = p[1] = p[2] = p[3] = 255;
            const bool axis = (x == x0 - 2 || y == y1 + 1) && x >= x0 - 2 && y <= y1 + 1;
            const bool tick =
                (y > y1 && y < y1 + 8 && (x - x0) % 64 == 0) || (x < x0 && x > x0 - 8 && (y - y0) % 64 == 0);
            if (axis || tick) {
                p[0] = p[1] = p[2] = 0;
                continue;
            }
            if (x < x0 || x >= x1 || y < y0 || y >= y1)
                continue;
            const double u = (x - width / 2.0) / height, v = (y - height / 2.0) / height;
            const double wave = 0.5 + 0.5 * std::sin(12 * (u * c + v * s)) * std::cos(5 * (v * c - u * s));
            const int step = std::min(63, static_cast<int>(wave * 64));
            const double t = step / 63.0; // a viridis-like ramp: dark blue to teal to yellow
            p[0] = static_cast<std::uint8_t>(std::lround(68 + 185 * t * t));
            p[1] = static_cast<std::uint8_t>(std::lround(1 + 230 * t));
            p[2] = static_cast<std::uint8_t>(std::lround(84 + 100 * std::sin(pi * t) - 50 * t));
        }
    }
}

// Like the rotation view: a clock face of four grey rings on white, one coloured hand per ring turning
// at its own speed (the outer ones fastest), antialiased (each pixel blends by its distance to the
// hand), and a dot at each tip.
void draw_clock(std::vector<std::uint8_t>& rgba, int width, int height, int i, int n)
{
    static constexpr std::uint8_t kColours[4][3] = {
        {31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40}};
    const double pi = 3.14159265358979323846, cx = width / 2.0, cy = height / 2.0;
    const double outer = 0.45 * std::min(width, height);
    double tip_x[4], tip_y[4], radius[4];
    for (int k = 0; k < 4; ++k) {
        radius[k] = outer * (1.0 - 0.2 * k);
        const double angle = 2 * pi * i / n * std::pow(2.0, 3 - k);
        tip_x[k] = cx + radius[k] * std::cos(angle), tip_y[k] = cy - radius[k] * std::sin(angle);
    }
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            double r = 255, g = 255, b = 255;
            const auto blend = [&](const std::uint8_t* c, double coverage) {
                coverage = std::clamp(coverage, 0.0, 1.0);
                r += (c[0] - r) * coverage, g += (c[1] - g) * coverage, b += (c[2] - b) * coverage;
            };
            const double dx = x - cx, dy = y - cy, d = std::hypot(dx, dy);
            static constexpr std::uint8_t kGrey[3] = {170, 170, 170};
            for (int k = 0; k < 4; ++k)
                blend(kGrey, 1.0 - std::abs(d - radius[k]));
            for (int k = 0; k < 4; ++k) {
                const double hx = tip_x[k] - cx, hy = tip_y[k] - cy;
                const double t = std::clamp((dx * hx + dy * hy) / (hx * hx + hy * hy), 0.0, 1.0);
                const double dist = std::hypot(dx - t * hx, dy - t * hy);
                blend(kColours[k], 2.0 - dist);
                blend(kColours[k], 5.0 - std::hypot(x - tip_x[k], y - tip_y[k]));
            }
            std::uint8_t* p = rgba.data() + (static_cast<std::size_t>(y) * width + x) * 4;
            p[0] = static_cast<std::uint8_t>(std::lround(r)),
            p[1] = static_cast<std::uint8_t>(std::lround(g));
            p[2] = static_cast<std::uint8_t>(std::lround(b)), p[3] = 255;
        }
    }
}

using DrawFn = void (*)(std::vector<std::uint8_t>&, int, int, int, int);

void encode(benchmark::State& state, AnimationFormat format, int width, int height, int frames, int fps,
            DrawFn draw = draw_frame)
{
    const auto dir =
        std::filesystem::temp_directory_path() / ("posatlas_animation_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = (dir / (std::string("bench.") + animation_format_name(format))).string();
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
    for (auto _ : state) {
        auto writer = make_animation_writer(format, path);
        writer->begin(width, height, fps, frames);
        for (int i = 0; i < frames; ++i) {
            state.PauseTiming();
            draw(rgba, width, height, i, frames);
            state.ResumeTiming();
            writer->add_frame(rgba.data(), 4 * width);
        }
        writer->finish();
    }
    state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
    std::filesystem::remove_all(dir);
}

// A 2-second 1280 x 720 rotation at 30 fps.
void BM_Mp4_60Frames1280x720(benchmark::State& state)
{
    encode(state, AnimationFormat::Mp4, 1280, 720, 60, 30);
}
BENCHMARK(BM_Mp4_60Frames1280x720)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// A 120-frame 512 x 512 rotation at 20 fps.
void BM_Gif_120Frames512x512(benchmark::State& state)
{
    encode(state, AnimationFormat::Gif, 512, 512, 120, 20);
}
BENCHMARK(BM_Gif_120Frames512x512)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// The rotation view's kind of picture: lines on white.
void BM_Gif_120Frames512x512Clock(benchmark::State& state)
{
    encode(state, AnimationFormat::Gif, 512, 512, 120, 20, draw_clock);
}
BENCHMARK(BM_Gif_120Frames512x512Clock)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// The same rotation as APNG (lossless).
void BM_Apng_120Frames512x512(benchmark::State& state)
{
    encode(state, AnimationFormat::Apng, 512, 512, 120, 20);
}
BENCHMARK(BM_Apng_120Frames512x512)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// The figures need a QApplication (offscreen): one for the process, made on first use.
void ensure_application()
{
    if (QCoreApplication::instance())
        return;
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "animation_bench";
    static char* argv[] = {name, nullptr};
    new QApplication(argc, argv); // lives until exit
}

void export_figure_animation(benchmark::State& state, ui::ViewKind view, const char* sweep, int frames,
                             AnimationFormat format, double width, double height)
{
    ensure_application();
    ui::AnimationRequest r;
    r.view = view;
    r.sweep = ui::parse_sweep(sweep, frames);
    r.figure.size = QSizeF(width, height);
    r.figure.dpi = 96; // width x height pixels
    r.settings = ui::export_view_settings(r.settings, r.figure);
    r.fps = 20;
    r.format = format;
    const auto dir =
        std::filesystem::temp_directory_path() / ("posatlas_animation_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = (dir / (std::string("figure.") + animation_format_name(format))).string();
    for (auto _ : state)
        ui::export_animation(r, path);
    state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
    std::filesystem::remove_all(dir);
}

// `posatlas export --view spectrum --animate rope_theta=10000:500000:log --frames 60` at 1280 x 720.
void BM_Figure_Mp4_Spectrum60Frames1280x720(benchmark::State& state)
{
    export_figure_animation(state, ui::ViewKind::Spectrum, "rope_theta=10000:500000:log", 60,
                            AnimationFormat::Mp4, 1280, 720);
}
BENCHMARK(BM_Figure_Mp4_Spectrum60Frames1280x720)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// `posatlas export --view rotation --animate query_position=0:64 --frames 120` at 1280 x 720 and 640 x 480.
void BM_Figure_Gif_Rotation120Frames1280x720(benchmark::State& state)
{
    export_figure_animation(state, ui::ViewKind::Rotation, "query_position=0:64", 120, AnimationFormat::Gif,
                            1280, 720);
}
BENCHMARK(BM_Figure_Gif_Rotation120Frames1280x720)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

void BM_Figure_Gif_Rotation120Frames640x480(benchmark::State& state)
{
    export_figure_animation(state, ui::ViewKind::Rotation, "query_position=0:64", 120, AnimationFormat::Gif,
                            640, 480);
}
BENCHMARK(BM_Figure_Gif_Rotation120Frames640x480)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

} // namespace
