// SPDX-License-Identifier: GPL-3.0-or-later
// Progress of long commands (gallery, large exports, rope-decay to 10^7) on standard error: only when
// standard error is a terminal, never with --quiet, so that pipes, logs and scripts see only the
// one-line error messages the command line promises. The line is redrawn in place ("\r") and erased
// when the work is done.
#pragma once

#include "scenario/types.h"

#include <string>

namespace posatlas::cli {

class Progress
{
public:
    // Shows nothing when `quiet` or when standard error is not a terminal.
    Progress(std::string what, bool quiet);
    ~Progress(); // erases the line
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    bool shown() const { return m_enabled; }
    // "what: 42%" (redrawn only when the percentage changes).
    void fraction(double f);
    // "what: 3/20 name".
    void step(int done, int total, const std::string& name);
    // A core ProgressFn mapping its 0..1 to from..to of this line.
    ProgressFn part(double from, double to);
    void done(); // erases the line

private:
    void draw(const std::string& text);
    std::string m_what;
    bool m_enabled = false;
    bool m_drawn = false;
    int m_percent = -1;
};

} // namespace posatlas::cli
