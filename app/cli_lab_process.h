// SPDX-License-Identifier: GPL-3.0-or-later
// posatlas-lab as a child process of `posatlas lab`: found beside the program (a build tree), then where
// it is installed (<prefix>/libexec/posatlas, found from the program's own location first, then from the
// prefix it was built for), or first in a folder the caller names (set_lab_search_dir). Standard input and
// error are the program's; standard output too, unless it is captured. Ctrl+C reaches the child (the terminal
// signals the whole process group; a SIGINT or SIGTERM sent to the program alone is passed on), which stops
// at the next step and keeps its last checkpoint.
#pragma once

#include <string>
#include <vector>

namespace posatlas::cli {

// The path of posatlas-lab, or "" when no place has it. A folder named with set_lab_search_dir is looked
// in first (the Python module names the build tree's app/ folder it was built in).
std::string find_lab_executable();
void set_lab_search_dir(const std::string& dir);

// Runs posatlas-lab with `args` (its argv after the program name) and returns its exit status (128 + the
// signal's number when a signal ended it). `captured`: standard output goes there instead. UsageError
// when posatlas-lab is not installed or cannot start.
int run_lab_process(const std::vector<std::string>& args, std::string* captured = nullptr);

} // namespace posatlas::cli
