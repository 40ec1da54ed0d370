// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas completion bash`: the bash completion script, built from the option sets the parser
// itself uses (compute_option_sets(), export_option_set(), ...), so that it cannot drift from them.
// CMake runs it at build time and installs the output as share/bash-completion/completions/posatlas.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

int run_completion(const std::vector<std::string>& args, std::ostream& out);
std::string completion_help();

} // namespace posatlas::cli
