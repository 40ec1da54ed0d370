// SPDX-License-Identifier: GPL-3.0-or-later
// GIF through giflib, with ONE global palette for the whole animation and no dithering, so that a colour
// never changes from frame to frame (per-frame palettes and dithering flicker in a rotation).
//
// The palette must fit every frame, and frames arrive one at a time; two passes over frames kept small:
//   add_frame(): composites over white, counts the colours (the exact colours while there are at most
//     256, and a histogram of 5-bit-per-channel cells with their colour sums), and spools the RGB frame,
//     zlib-compressed, to an anonymous temporary file;
//   finish(): the palette is the exact colours when they fit (pixels then exact), else a median cut of
//     the histogram refined by four k-means rounds, each cell mapped to its nearest palette colour:
//     127 colours when that is as good to the eye (a mean error below ΔE*ab 1 over the non-background
//     pixels: LZW's codes then start at 7 bits instead of 8, about 6 % smaller), else 255; then every
//     frame is read back, mapped to the palette and LZW-coded. A frame after
//     the first is coded only over the rectangle where it differs from the one before (kept on screen:
//     disposal "do not dispose"), its runs of unchanged pixels there as the transparent index when
//     the palette leaves room for it (at most 255 colours).
// Memory: two frames of indices, one RGB frame and the histogram (about 1 MB), whatever the frame count.
// Delays are whole hundredths of a second, rounded so that they add up to frame count / fps; the
// NETSCAPE2.0 extension makes it loop forever.
#include "io/animation/spool.h"
#include "io/animation/writers.h"

#include <gif_lib.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <exception>
#include <map>
#include <unordered_map>
#include <vector>

namespace posatlas::animation_detail {
namespace {

constexpr int kCells = 32 * 32 * 32;
inline int cell_of(const std::uint8_t* rgb)
{
    return (rgb[0] >> 3) << 10 | (rgb[1] >> 3) << 5 | rgb[2] >> 3;
}
inline std::uint32_t key_of(const std::uint8_t* rgb)
{
    return std::uint32_t(rgb[0]) << 16 | rgb[1] << 8 | rgb[2];
}

struct Cell {
    std::uint64_t count = 0, r = 0, g = 0, b = 0;
};

// The palette colour nearest `colour`: squared differences weighted 2:4:3 (R:G:B), the eye's rough
// sensitivities.
template <class Palette> std::size_t nearest(const Palette& palette, const std::array<double, 3>& colour)
{
    double best = 1e300;
    std::size_t index = 0;
    for (std::size_t i = 0; i < palette.size(); ++i) {
        const double dr = colour[0] - palette[i][0], dg = colour[1] - palette[i][1],
                     db = colour[2] - palette[i][2];
        const double d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
        if (d < best)
            best = d, index = i;
    }
    return index;
}

// Median cut over the histogram's occupied cells: split the box with the most pixels times its widest
// channel's extent at the weighted median, until `colours` boxes; each box's colour is its mean.
std::vector<std::array<std::uint8_t, 3>> median_cut(const std::vector<Cell>& cells, int colours)
{
    struct Box {
        std::vector<int> cells;
        std::uint64_t count = 0;
    };
    std::vector<Box> boxes(1);
    for (int c = 0; c < kCells; ++c)
        if (cells[static_cast<std::size_t>(c)].count)
            boxes[0].cells.push_back(c), boxes[0].count += cells[static_cast<std::size_t>(c)].count;
    const auto channel = [](int cell, int ch) { return (cell >> (10 - 5 * ch)) & 31; };
    while (static_cast<int>(boxes.size()) < colours) {
        int best = -1, best_ch = 0;
        double best_score = 0;
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            if (boxes[i].cells.size() < 2)
                continue;
            for (int ch = 0; ch < 3; ++ch) {
                int lo = 31, hi = 0;
                for (int c : boxes[i].cells)
                    lo = std::min(lo, channel(c, ch)), hi = std::max(hi, channel(c, ch));
                const double score = static_cast<double>(boxes[i].count) * (hi - lo);
                if (score > best_score)
                    best_score = score, best = static_cast<int>(i), best_ch = ch;
            }
        }
        if (best < 0)
            break;
        Box& box = boxes[static_cast<std::size_t>(best)];
        std::sort(box.cells.begin(), box.cells.end(),
                  [&](int a, int b) { return channel(a, best_ch) < channel(b, best_ch); });
        std::uint64_t running = 0;
        std::size_t split = 1;
        for (std::size_t i = 0; i + 1 < box.cells.size(); ++i) {
            running += cells[static_cast<std::size_t>(box.cells[i])].count;
            split = i + 1;
            if (2 * running >= box.count)
                break;
        }
        Box upper;
        upper.cells.assign(box.cells.begin() + static_cast<std::ptrdiff_t>(split), box.cells.end());
        box.cells.resize(split);
        box.count = 0;
        for (int c : box.cells)
            box.count += cells[static_cast<std::size_t>(c)].count;
        for (int c : upper.cells)
            upper.count += cells[static_cast<std::size_t>(c)].count;
        boxes.push_back(std::move(upper));
    }
    std::vector<std::array<double, 3>> means;
    for (const Box& box : boxes) {
        std::uint64_t r = 0, g = 0, b = 0;
        for (int c : box.cells)
            r += cells[static_cast<std::size_t>(c)].r, g += cells[static_cast<std::size_t>(c)].g,
                b += cells[static_cast<std::size_t>(c)].b;
        const double n = double(std::max<std::uint64_t>(box.count, 1));
        means.push_back({double(r) / n, double(g) / n, double(b) / n});
    }
    // A few rounds of Lloyd's algorithm (k-means) over the cells' mean colours, weighted by their counts,
    // starting from the boxes' means: each colour moves to the mean of the cells nearest to it.
    std::vector<int> occupied;
    for (int c = 0; c < kCells; ++c)
        if (cells[static_cast<std::size_t>(c)].count)
            occupied.push_back(c);
    for (int round = 0; round < 4; ++round) {
        std::vector<std::array<double, 4>> sums(means.size(), {0, 0, 0, 0});
        for (int c : occupied) {
            const Cell& cell = cells[static_cast<std::size_t>(c)];
            const double n = double(cell.count);
            const std::size_t k =
                nearest(means, {double(cell.r) / n, double(cell.g) / n, double(cell.b) / n});
            sums[k][0] += double(cell.r), sums[k][1] += double(cell.g), sums[k][2] += double(cell.b);
            sums[k][3] += n;
        }
        for (std::size_t k = 0; k < means.size(); ++k)
            if (sums[k][3] > 0)
                means[k] = {sums[k][0] / sums[k][3], sums[k][1] / sums[k][3], sums[k][2] / sums[k][3]};
    }
    std::vector<std::array<std::uint8_t, 3>> palette;
    for (const auto& m : means)
        palette.push_back({static_cast<std::uint8_t>(std::lround(m[0])),
                           static_cast<std::uint8_t>(std::lround(m[1])),
                           static_cast<std::uint8_t>(std::lround(m[2]))});
    return palette;
}

// CIE 1976 L*a*b* of an sRGB colour (D65 white; IEC 61966-2-1's transfer curve, CIE 15:2004's L*a*b*).
std::array<double, 3> cielab(const std::array<double, 3>& rgb)
{
    const auto linear = [](double c) {
        c /= 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double r = linear(rgb[0]), g = linear(rgb[1]), b = linear(rgb[2]);
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    const auto f = [](double t) {
        return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
    };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

// ΔE*ab 1: the colour difference commonly taken as not perceptible (the just-noticeable difference is
// about 2.3, Sharma, "Digital Color Imaging Handbook", 2003).
constexpr double kImperceptibleDeltaE = 1.0;

// The mean CIE 1976 colour difference ΔE*ab between each histogram cell's mean colour and the palette
// colour it is drawn with, weighted by pixels, over the picture's ink: every pixel but those of the most
// frequent cell (the background, which the palette always holds to within a rounding).
double mean_ink_error(const std::vector<Cell>& cells, const std::vector<std::array<std::uint8_t, 3>>& palette)
{
    std::size_t background = 0;
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].count > cells[background].count)
            background = c;
    std::vector<std::array<double, 3>> palette_lab;
    for (const auto& p : palette)
        palette_lab.push_back(cielab({double(p[0]), double(p[1]), double(p[2])}));
    double sum = 0, pixels = 0;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const Cell& cell = cells[c];
        if (!cell.count || c == background)
            continue;
        const double n = double(cell.count);
        const std::array<double, 3> mean{double(cell.r) / n, double(cell.g) / n, double(cell.b) / n};
        const auto lab = cielab(mean), drawn = palette_lab[nearest(palette, mean)];
        sum += n * std::hypot(lab[0] - drawn[0], lab[1] - drawn[1], lab[2] - drawn[2]);
        pixels += n;
    }
    return pixels > 0 ? sum / pixels : 0.0;
}

class GifWriter final : public AnimationWriter
{
public:
    GifWriter(const std::string& path, AnimationCallbacks callbacks)
        : AnimationWriter(path, std::move(callbacks))
    {
    }

    void do_begin(int width, int height, int fps, std::int64_t hint) override
    {
        if (m_begun)
            fail("begin() called twice");
        check_parameters(AnimationFormat::Gif, width, height, fps);
        m_width = width, m_height = height, m_fps = fps, m_hint = hint;
        m_out = std::make_unique<SafeFileWriter>(m_path, m_callbacks.write);
        m_spool = std::make_unique<Spool>(m_path);
        m_rgb.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
        m_cells.assign(kCells, {});
        m_begun = true;
    }

    void release() noexcept override
    {
        m_out.reset(); // no file, the old one untouched
        m_spool.reset();
    }

private:
    void do_add_frame(const std::uint8_t* rgba, std::ptrdiff_t stride) override
    {
        if (!m_begun || !m_out)
            fail("add_frame() outside begin() ... finish()");
        if (stride < static_cast<std::ptrdiff_t>(m_width) * 4)
            fail("frame rows " + std::to_string(stride) + " bytes apart, fewer than 4 x width");
        const std::size_t row = static_cast<std::size_t>(m_width) * 3;
        for (int y = 0; y < m_height; ++y)
            rgba_over_white(rgba + y * stride, m_width, m_rgb.data() + static_cast<std::size_t>(y) * row);
        std::uint32_t last = 0xffffffffu;
        for (std::size_t i = 0; i < m_rgb.size(); i += 3) {
            const std::uint8_t* p = m_rgb.data() + i;
            Cell& cell = m_cells[static_cast<std::size_t>(cell_of(p))];
            ++cell.count, cell.r += p[0], cell.g += p[1], cell.b += p[2];
            const std::uint32_t key = key_of(p);
            if (key != last && m_exact_fits) {
                last = key;
                m_exact.emplace(key, 0);
                if (m_exact.size() > 256)
                    m_exact_fits = false, m_exact.clear();
            }
        }
        uLongf size = ::compressBound(static_cast<uLong>(m_rgb.size()));
        m_compressed.resize(size);
        if (::compress2(m_compressed.data(), &size, m_rgb.data(), static_cast<uLong>(m_rgb.size()), 1) !=
            Z_OK)
            fail("zlib: cannot compress a frame");
        const auto n = static_cast<std::uint64_t>(size);
        m_spool->append(&n, sizeof n);
        m_spool->append(m_compressed.data(), size);
        frame_done();
    }

    void do_finish() override
    {
        if (!m_begun || !m_out)
            fail("finish() without begin()");
        if (m_frames == 0)
            throw ParameterError("frames", "at least 1", "0");
        build_palette();
        m_cells.clear();
        m_cells.shrink_to_fit();

        int error = 0;
        GifFileType* gif = ::EGifOpen(this, &GifWriter::output, &error);
        if (!gif)
            fail(std::string("giflib: ") + ::GifErrorString(error));
        try {
            encode(gif);
        } catch (...) {
            ::EGifCloseFile(gif, &error);
            throw;
        }
        if (::EGifCloseFile(gif, &error) != GIF_OK)
            gif_fail(error);
        m_out->commit();
        m_out.reset();
        m_spool.reset();
        report_progress(m_callbacks.progress, 1.0);
    }

    void build_palette()
    {
        m_palette.clear();
        if (m_exact_fits) {
            std::map<std::uint32_t, int> sorted;
            for (const auto& [key, unused] : m_exact)
                sorted.emplace(key, 0);
            for (const auto& [key, unused] : sorted) {
                m_exact[key] = static_cast<int>(m_palette.size());
                m_palette.push_back({static_cast<std::uint8_t>(key >> 16),
                                     static_cast<std::uint8_t>(key >> 8), static_cast<std::uint8_t>(key)});
            }
            return;
        }
        // The 256th index (or the 128th): transparent, "unchanged" (encode()).
        m_palette = median_cut(m_cells, 127);
        if (mean_ink_error(m_cells, m_palette) > kImperceptibleDeltaE)
            m_palette = median_cut(m_cells, 255);
        // Each occupied cell goes to the palette colour nearest its mean colour.
        m_cell_index.assign(kCells, 0);
        for (int c = 0; c < kCells; ++c) {
            const Cell& cell = m_cells[static_cast<std::size_t>(c)];
            if (!cell.count)
                continue;
            const double n = double(cell.count);
            m_cell_index[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(
                nearest(m_palette, {double(cell.r) / n, double(cell.g) / n, double(cell.b) / n}));
        }
    }

    void encode(GifFileType* gif)
    {
        // A pixel equal to the one already on screen is coded as the transparent index, one past the
        // colours, when there is room for it: long runs of it cost LZW next to nothing.
        const int transparent = m_palette.size() < 256 ? static_cast<int>(m_palette.size()) : -1;
        int bits = 1;
        while ((1 << bits) < static_cast<int>(m_palette.size()) + (transparent >= 0 ? 1 : 0))
            ++bits;
        std::vector<GifColorType> colours(static_cast<std::size_t>(1) << bits, GifColorType{0, 0, 0});
        for (std::size_t i = 0; i < m_palette.size(); ++i)
            colours[i] = {m_palette[i][0], m_palette[i][1], m_palette[i][2]};
        ColorMapObject* map = ::GifMakeMapObject(1 << bits, colours.data());
        if (!map)
            fail("giflib: out of memory");
        ::EGifSetGifVersion(gif, true);
        const int screen = ::EGifPutScreenDesc(gif, m_width, m_height, 8, 0, map);
        ::GifFreeMapObject(map);
        check(gif, screen);
        // NETSCAPE2.0: loop forever (count 0).
        static const unsigned char kLoop[3] = {1, 0, 0};
        check(gif, ::EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE));
        check(gif, ::EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0"));
        check(gif, ::EGifPutExtensionBlock(gif, 3, kLoop));
        check(gif, ::EGifPutExtensionTrailer(gif));

        const std::size_t pixels = static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height);
        std::vector<std::uint8_t> index(pixels), previous(pixels);
        std::int64_t offset = 0;
        for (std::int64_t f = 0; f < m_frames; ++f) {
            std::uint64_t n = 0;
            if (m_spool->read_at(offset, &n, sizeof n) != sizeof n)
                fail("temporary file: unexpected end of data");
            m_compressed.resize(n);
            if (m_spool->read_at(offset + 8, m_compressed.data(), n) != n)
                fail("temporary file: unexpected end of data");
            offset += 8 + static_cast<std::int64_t>(n);
            uLongf size = static_cast<uLongf>(m_rgb.size());
            if (::uncompress(m_rgb.data(), &size, m_compressed.data(), static_cast<uLong>(n)) != Z_OK ||
                size != m_rgb.size())
                fail("temporary file: a frame does not decompress");
            map_frame(index);

            // The rectangle that changed since the previous frame (the whole first frame; 1 x 1 when
            // nothing changed, so the frame and its delay still count).
            int x0 = 0, y0 = 0, x1 = m_width - 1, y1 = m_height - 1;
            if (f > 0) {
                x0 = m_width, y0 = m_height, x1 = -1, y1 = -1;
                for (int y = 0; y < m_height; ++y) {
                    const std::uint8_t* a = index.data() + static_cast<std::size_t>(y) * m_width;
                    const std::uint8_t* b = previous.data() + static_cast<std::size_t>(y) * m_width;
                    if (std::memcmp(a, b, static_cast<std::size_t>(m_width)) == 0)
                        continue;
                    y0 = std::min(y0, y), y1 = y;
                    int l = 0, r = m_width - 1;
                    while (a[l] == b[l])
                        ++l;
                    while (a[r] == b[r])
                        --r;
                    x0 = std::min(x0, l), x1 = std::max(x1, r);
                }
                if (x1 < 0)
                    x0 = y0 = x1 = y1 = 0;
            }
            GraphicsControlBlock gcb{};
            gcb.DisposalMode = DISPOSE_DO_NOT;
            gcb.UserInputFlag = false;
            gcb.DelayTime =
                static_cast<int>((100 * (f + 1) + m_fps / 2) / m_fps - (100 * f + m_fps / 2) / m_fps);
            gcb.TransparentColor = f > 0 && transparent >= 0 ? transparent : NO_TRANSPARENT_COLOR;
            GifByteType extension[4];
            const std::size_t length = ::EGifGCBToExtension(&gcb, extension);
            check(gif, ::EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension));
            check(gif, ::EGifPutImageDesc(gif, x0, y0, x1 - x0 + 1, y1 - y0 + 1, false, nullptr));
            std::vector<GifPixelType> line(static_cast<std::size_t>(x1 - x0 + 1));
            int last = -1;
            for (int y = y0; y <= y1; ++y) {
                const std::size_t at = static_cast<std::size_t>(y) * m_width + static_cast<std::size_t>(x0);
                std::copy(index.begin() + static_cast<std::ptrdiff_t>(at),
                          index.begin() + static_cast<std::ptrdiff_t>(at + line.size()), line.begin());
                if (f > 0 && transparent >= 0)
                    mark_unchanged(line, previous.data() + at, static_cast<GifPixelType>(transparent), last);
                check(gif, ::EGifPutLine(gif, line.data(), static_cast<int>(line.size())));
            }
            index.swap(previous);
            finish_progress(static_cast<double>(f + 1) / static_cast<double>(m_frames));
        }
    }

    // Pixels equal to the ones on screen may be coded as the transparent index or as their own colour:
    // the decoded picture is the same, only LZW's runs differ. A run of unchanged pixels of one colour
    // keeps it when a neighbour already has that colour (the white around a moving line then codes as
    // one long run of white with the changed white beside it); other runs of at least kRun pixels
    // become transparent; shorter ones keep their colours (scattered transparent pixels inside a
    // changing picture break its runs and make LZW's output larger). `last`: the index written last,
    // carried from line to line (LZW's strings run on across lines).
    static void mark_unchanged(std::vector<GifPixelType>& line, const std::uint8_t* previous,
                               GifPixelType transparent, int& last)
    {
        constexpr std::size_t kRun = 8;
        for (std::size_t x = 0; x < line.size();) {
            std::size_t end = x;
            bool uniform = true;
            while (end < line.size() && line[end] == previous[end]) {
                uniform = uniform && line[end] == line[x];
                ++end;
            }
            if (end == x) {
                last = line[x++];
                continue;
            }
            const int colour = line[x];
            const bool joins = uniform && (last == colour || (end < line.size() && line[end] == colour));
            if (!joins && (end - x >= kRun || last == transparent))
                std::fill(line.begin() + static_cast<std::ptrdiff_t>(x),
                          line.begin() + static_cast<std::ptrdiff_t>(end), transparent);
            last = line[end - 1];
            x = end;
        }
    }

    void map_frame(std::vector<std::uint8_t>& index)
    {
        std::uint32_t last_key = 0xffffffffu;
        std::uint8_t last = 0;
        for (std::size_t i = 0, p = 0; p < m_rgb.size(); ++i, p += 3) {
            const std::uint8_t* rgb = m_rgb.data() + p;
            if (!m_exact_fits) {
                index[i] = m_cell_index[static_cast<std::size_t>(cell_of(rgb))];
                continue;
            }
            const std::uint32_t key = key_of(rgb);
            if (key != last_key)
                last_key = key, last = static_cast<std::uint8_t>(m_exact.at(key));
            index[i] = last;
        }
    }

    // giflib is C: an exception must not cross it. The writer's error is kept and rethrown after.
    static int output(GifFileType* gif, const GifByteType* data, int size)
    {
        auto* self = static_cast<GifWriter*>(gif->UserData);
        try {
            self->m_out->write(data, static_cast<std::size_t>(size));
        } catch (...) {
            self->m_error = std::current_exception();
            return 0;
        }
        return size;
    }

    void check(GifFileType* gif, int result)
    {
        if (result != GIF_OK)
            gif_fail(gif->Error);
    }

    [[noreturn]] void gif_fail(int error)
    {
        if (m_error)
            std::rethrow_exception(m_error);
        fail(std::string("giflib: ") + (::GifErrorString(error) ? ::GifErrorString(error) : "error"));
    }

    std::unique_ptr<SafeFileWriter> m_out;
    std::unique_ptr<Spool> m_spool;
    std::exception_ptr m_error;
    std::vector<std::uint8_t> m_rgb, m_compressed;
    std::vector<Cell> m_cells;
    std::unordered_map<std::uint32_t, int> m_exact;
    bool m_exact_fits = true;
    std::vector<std::array<std::uint8_t, 3>> m_palette;
    std::vector<std::uint8_t> m_cell_index;
};

} // namespace

std::unique_ptr<AnimationWriter> make_gif_writer(const std::string& path, AnimationCallbacks callbacks)
{
    return std::make_unique<GifWriter>(path, std::move(callbacks));
}

} // namespace posatlas::animation_detail
