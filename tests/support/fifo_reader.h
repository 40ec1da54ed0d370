// SPDX-License-Identifier: GPL-3.0-or-later
// Reads a FIFO on a thread of its own while a test writes to it: opened first without blocking (a writer
// that never comes must not hang the test), drained while the writer runs (a pipe holds only 64 KiB),
// and read to its end once the test says the writer has finished.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

namespace posatlas::test {

class FifoReader
{
public:
    explicit FifoReader(const std::filesystem::path& fifo)
        : m_fd(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC))
    {
        if (m_fd >= 0)
            m_thread = std::thread([this] { drain(); });
    }
    ~FifoReader() { finish(); }
    FifoReader(const FifoReader&) = delete;
    FifoReader& operator=(const FifoReader&) = delete;

    bool opened() const { return m_fd >= 0; }
    // After the writer has finished: reads what is left, stops the thread and returns every byte read.
    const std::string& finish()
    {
        m_finished = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0) {
            ::close(m_fd);
            m_fd = -1;
        }
        return m_received;
    }

private:
    void drain()
    {
        char buffer[65536];
        while (true) {
            const bool last = m_finished.load();
            const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
            if (n > 0) {
                m_received.append(buffer, static_cast<std::size_t>(n));
                continue;
            }
            if (last)
                break;
            ::usleep(1000);
        }
    }

    int m_fd = -1;
    std::atomic<bool> m_finished{false};
    std::string m_received;
    std::thread m_thread;
};

} // namespace posatlas::test
