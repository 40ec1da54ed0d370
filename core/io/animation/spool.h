// SPDX-License-Identifier: GPL-3.0-or-later
// An anonymous temporary file (tmpfile(3): unlinked, gone when closed or when the process dies) for the
// parts of an animation that must wait for its last frame. Reads and writes at explicit offsets, so
// several readers and writers (FFmpeg's faststart pass) each keep their own position.
#pragma once

#include "io/safe_write.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace posatlas::animation_detail {

class Spool
{
public:
    // `path`: the animation's path, for messages ("cannot write PATH: temporary file: REASON").
    explicit Spool(std::string path);
    ~Spool();
    Spool(const Spool&) = delete;
    Spool& operator=(const Spool&) = delete;

    void write_at(std::int64_t offset, const void* data, std::size_t size);
    void append(const void* data, std::size_t size) { write_at(m_size, data, size); }
    // Up to `size` bytes from `offset`; returns how many (0 at the end).
    std::size_t read_at(std::int64_t offset, void* data, std::size_t size) const;
    std::int64_t size() const { return m_size; }
    // Copies bytes [0, size()) to `out`, calling `tick(fraction)` between chunks (may throw).
    template <class Tick> void copy_to(SafeFileWriter& out, Tick&& tick) const;

private:
    [[noreturn]] void fail(int error) const;
    std::string m_path;
    std::FILE* m_file = nullptr;
    int m_fd = -1;
    std::int64_t m_size = 0;
};

template <class Tick> void Spool::copy_to(SafeFileWriter& out, Tick&& tick) const
{
    std::string chunk(1 << 20, '\0');
    for (std::int64_t offset = 0; offset < m_size;) {
        const std::size_t n = read_at(offset, chunk.data(), chunk.size());
        if (n == 0)
            fail(0);
        out.write(chunk.data(), n);
        offset += static_cast<std::int64_t>(n);
        tick(static_cast<double>(offset) / static_cast<double>(m_size));
    }
}

} // namespace posatlas::animation_detail
