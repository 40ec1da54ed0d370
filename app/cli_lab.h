// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lab train|eval`: the extrapolation lab (core/lab). The command line is checked here and the
// lab runs in posatlas-lab, a process of its own (cli_lab_process.h): LibTorch never enters this program.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

// `captured`: posatlas-lab's standard output goes there instead of the program's (train and eval; the
// sweep writes its results to files and its progress to `err`).
int run_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            std::string* captured = nullptr);

} // namespace posatlas::cli
