// SPDX-License-Identifier: GPL-3.0-or-later
// APNG: lossless RGBA. Debian 12's libpng (1.6.39) has no APNG support (no acTL in png.h), so the chunks
// are written here (PNG 3rd edition / the APNG specification): signature, IHDR, acTL, then per frame an
// fcTL and the frame's zlib stream (the first frame in IDAT, so that a viewer without APNG shows it; the
// others in fdAT with their sequence numbers), IEND; every chunk with its CRC-32 (zlib's crc32).
// acTL holds the frame count and comes before the frames, so the frames are spooled to a temporary file
// and the file is written by finish().
#include "io/animation/spool.h"
#include "io/animation/writers.h"

#include <zlib.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace posatlas::animation_detail {
namespace {

void put32(std::vector<std::uint8_t>& out, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<std::uint8_t>(v >> shift));
}

void put16(std::vector<std::uint8_t>& out, std::uint16_t v)
{
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
}

// A whole chunk: length, type, data, CRC over type and data.
std::vector<std::uint8_t> chunk(const char* type, const std::uint8_t* data, std::size_t size)
{
    std::vector<std::uint8_t> out;
    out.reserve(size + 12);
    put32(out, static_cast<std::uint32_t>(size));
    out.insert(out.end(), type, type + 4);
    if (size)
        out.insert(out.end(), data, data + size);
    const uLong crc = ::crc32(::crc32(0L, Z_NULL, 0), out.data() + 4, static_cast<uInt>(size + 4));
    put32(out, static_cast<std::uint32_t>(crc));
    return out;
}

// The PNG filter (None, Sub, Up, Average, Paeth) with the smallest sum of absolute differences, the
// usual heuristic (libpng's default for colour images).
std::uint8_t paeth(int a, int b, int c)
{
    const int p = a + b - c;
    const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return static_cast<std::uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

void filter_row(const std::uint8_t* row, const std::uint8_t* prev, std::size_t n, std::uint8_t* out,
                std::array<std::vector<std::uint8_t>, 5>& trial)
{
    long best_sum = -1;
    int best = 0;
    for (int f = 0; f < 5; ++f) {
        auto& t = trial[static_cast<std::size_t>(f)];
        long sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const int a = i >= 4 ? row[i - 4] : 0;
            const int b = prev ? prev[i] : 0;
            const int c = prev && i >= 4 ? prev[i - 4] : 0;
            std::uint8_t v = row[i];
            switch (f) {
            case 1: v = static_cast<std::uint8_t>(v - a); break;
            case 2: v = static_cast<std::uint8_t>(v - b); break;
            case 3: v = static_cast<std::uint8_t>(v - (a + b) / 2); break;
            case 4: v = static_cast<std::uint8_t>(v - paeth(a, b, c)); break;
            default: break;
            }
            t[i] = v;
            sum += v < 128 ? v : 256 - v;
        }
        if (best_sum < 0 || sum < best_sum)
            best_sum = sum, best = f;
    }
    out[0] = static_cast<std::uint8_t>(best);
    std::memcpy(out + 1, trial[static_cast<std::size_t>(best)].data(), n);
}

class ApngWriter final : public AnimationWriter
{
public:
    ApngWriter(const std::string& path, AnimationCallbacks callbacks)
        : AnimationWriter(path, std::move(callbacks))
    {
    }

    void do_begin(int width, int height, int fps, std::int64_t hint) override
    {
        if (m_begun)
            fail("begin() called twice");
        check_parameters(AnimationFormat::Apng, width, height, fps);
        m_width = width, m_height = height, m_fps = fps, m_hint = hint;
        m_out = std::make_unique<SafeFileWriter>(m_path, m_callbacks.write); // checks the path now
        m_spool = std::make_unique<Spool>(m_path);
        m_row_bytes = static_cast<std::size_t>(width) * 4;
        m_prev.resize(m_row_bytes);
        m_filtered.resize(m_row_bytes + 1);
        for (auto& t : m_trial)
            t.resize(m_row_bytes);
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
        if (stride < static_cast<std::ptrdiff_t>(m_row_bytes))
            fail("frame rows " + std::to_string(stride) + " bytes apart, fewer than 4 x width");
        // fcTL: the whole canvas, shown for 1/fps s, replacing (APNG_DISPOSE_OP_NONE, APNG_BLEND_OP_SOURCE).
        std::vector<std::uint8_t> fctl;
        put32(fctl, m_sequence++);
        put32(fctl, static_cast<std::uint32_t>(m_width));
        put32(fctl, static_cast<std::uint32_t>(m_height));
        put32(fctl, 0);
        put32(fctl, 0);
        put16(fctl, 1);
        put16(fctl, static_cast<std::uint16_t>(m_fps));
        fctl.push_back(0);
        fctl.push_back(0);
        spool(chunk("fcTL", fctl.data(), fctl.size()));

        z_stream z{};
        if (::deflateInit(&z, 6) != Z_OK)
            fail("zlib: cannot start compression");
        std::vector<std::uint8_t> out(1 << 18);
        const auto drain = [&](int flush) {
            int ret = Z_OK;
            do {
                z.next_out = out.data();
                z.avail_out = static_cast<uInt>(out.size());
                ret = ::deflate(&z, flush);
                const std::size_t produced = out.size() - z.avail_out;
                if (produced)
                    emit_data(out.data(), produced);
            } while (z.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
        };
        try {
            for (int y = 0; y < m_height; ++y) {
                const std::uint8_t* row = rgba + y * stride;
                filter_row(row, y ? m_prev.data() : nullptr, m_row_bytes, m_filtered.data(), m_trial);
                std::memcpy(m_prev.data(), row, m_row_bytes);
                z.next_in = m_filtered.data();
                z.avail_in = static_cast<uInt>(m_filtered.size());
                drain(Z_NO_FLUSH);
            }
            drain(Z_FINISH);
        } catch (...) {
            ::deflateEnd(&z);
            throw;
        }
        ::deflateEnd(&z);
        frame_done();
    }

    void do_finish() override
    {
        if (!m_begun || !m_out)
            fail("finish() without begin()");
        if (m_frames == 0)
            throw ParameterError("frames", "at least 1", "0");
        static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        m_out->write(kSignature, sizeof kSignature);
        std::vector<std::uint8_t> ihdr;
        put32(ihdr, static_cast<std::uint32_t>(m_width));
        put32(ihdr, static_cast<std::uint32_t>(m_height));
        ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0}); // 8 bits, RGBA, deflate, adaptive filters, no interlace
        write(chunk("IHDR", ihdr.data(), ihdr.size()));
        std::vector<std::uint8_t> actl;
        put32(actl, static_cast<std::uint32_t>(m_frames));
        put32(actl, 0); // plays: 0 = loop forever
        write(chunk("acTL", actl.data(), actl.size()));
        m_spool->copy_to(*m_out, [this](double f) { finish_progress(f); });
        write(chunk("IEND", nullptr, 0));
        m_out->commit();
        m_out.reset();
        m_spool.reset();
        report_progress(m_callbacks.progress, 1.0);
    }

    void spool(const std::vector<std::uint8_t>& bytes) { m_spool->append(bytes.data(), bytes.size()); }
    void write(const std::vector<std::uint8_t>& bytes) { m_out->write(bytes.data(), bytes.size()); }

    // Compressed bytes of the current frame: IDAT for the first frame, fdAT (sequence number first) after.
    void emit_data(const std::uint8_t* data, std::size_t size)
    {
        if (m_frames == 0) {
            spool(chunk("IDAT", data, size));
            return;
        }
        std::vector<std::uint8_t> body;
        body.reserve(size + 4);
        put32(body, m_sequence++);
        body.insert(body.end(), data, data + size);
        spool(chunk("fdAT", body.data(), body.size()));
    }

    std::unique_ptr<SafeFileWriter> m_out;
    std::unique_ptr<Spool> m_spool;
    std::uint32_t m_sequence = 0;
    std::size_t m_row_bytes = 0;
    std::vector<std::uint8_t> m_prev, m_filtered;
    std::array<std::vector<std::uint8_t>, 5> m_trial;
};

} // namespace

std::unique_ptr<AnimationWriter> make_apng_writer(const std::string& path, AnimationCallbacks callbacks)
{
    return std::make_unique<ApngWriter>(path, std::move(callbacks));
}

} // namespace posatlas::animation_detail
