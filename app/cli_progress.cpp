// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace posatlas::cli {

Progress::Progress(std::string what, bool quiet)
    : m_what(std::move(what)), m_enabled(!quiet && ::isatty(STDERR_FILENO) == 1)
{
}

Progress::~Progress()
{
    done();
}

void Progress::draw(const std::string& text)
{
    if (!m_enabled)
        return;
    // \r, the text, then erase to the end of the line (a shorter text leaves nothing behind).
    std::fprintf(stderr, "\r%s: %s\033[K", m_what.c_str(), text.c_str());
    std::fflush(stderr);
    m_drawn = true;
}

void Progress::fraction(double f)
{
    const int percent = static_cast<int>(std::floor(std::clamp(f, 0.0, 1.0) * 100.0));
    if (percent == m_percent)
        return;
    m_percent = percent;
    draw(std::to_string(percent) + "%");
}

void Progress::step(int done, int total, const std::string& name)
{
    draw(std::to_string(done) + "/" + std::to_string(total) + " " + name);
}

ProgressFn Progress::part(double from, double to)
{
    if (!m_enabled)
        return {};
    return [this, from, to](double f) { fraction(from + (to - from) * f); };
}

void Progress::done()
{
    if (m_enabled && m_drawn) {
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
    }
    m_drawn = false;
}

} // namespace posatlas::cli
