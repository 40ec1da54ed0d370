// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/animation/spool.h"

#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace posatlas::animation_detail {

Spool::Spool(std::string path) : m_path(std::move(path))
{
    m_file = std::tmpfile();
    if (!m_file)
        fail(errno);
    m_fd = ::fileno(m_file);
}

Spool::~Spool()
{
    if (m_file)
        std::fclose(m_file);
}

void Spool::fail(int error) const
{
    char buffer[256];
    const std::string reason = error ? ::strerror_r(error, buffer, sizeof buffer) : "unexpected end of data";
    throw OutputFileError(m_path, "temporary file: " + reason);
}

void Spool::write_at(std::int64_t offset, const void* data, std::size_t size)
{
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::pwrite(m_fd, p, size, offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail(errno);
        }
        p += n;
        size -= static_cast<std::size_t>(n);
        offset += n;
    }
    if (offset > m_size)
        m_size = offset;
}

std::size_t Spool::read_at(std::int64_t offset, void* data, std::size_t size) const
{
    auto* p = static_cast<char*>(data);
    std::size_t total = 0;
    while (total < size) {
        const ssize_t n = ::pread(m_fd, p + total, size - total, offset + static_cast<std::int64_t>(total));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail(errno);
        }
        if (n == 0)
            break;
        total += static_cast<std::size_t>(n);
    }
    return total;
}

} // namespace posatlas::animation_detail
