// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lab train|eval`: the extrapolation lab (core/lab). The command line is checked here and the
// lab runs in posatlas-lab, a process of its own (cli_lab_process.h): LibTorch never enters this program.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

int run_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace posatlas::cli
