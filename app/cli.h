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

} // namespace posatlas::cli
