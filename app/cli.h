// SPDX-License-Identifier: GPL-3.0-or-later
// The `posatlas` command line. Everything it prints is computed by core/ (and, for figures, rendered
// by the same ui/ renderers as the GUI).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

// Runs `posatlas ARGS...` (args exclude the program name). Returns the exit status:
// 0 success, 2 bad input (one line on `err` naming the option and what is allowed), 1 internal failure.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string usage();

// The commands run() knows (the first argument), as the usage and the unknown-command message list
// them. Not listed: `completion bash`, which prints the bash completion script built at install time.
const std::vector<std::string>& commands();
// True when `posatlas ARGS...` is a command-line invocation; false when it asks for the GUI: no
// arguments, or files to open (the first argument is no command and no option, and is an existing
// file or looks like one: it contains a '/' or ends in .json).
bool is_command_line(const std::vector<std::string>& args);

} // namespace posatlas::cli
