// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lab train|eval`: the extrapolation lab (core/lab). Compiled only with the lab (POSATLAS_LAB).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

struct OptionSet;

int run_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
OptionSet lab_option_set();
std::string lab_help();

} // namespace posatlas::cli
