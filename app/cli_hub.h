// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas models` (the local Hugging Face cache) and `posatlas download ORG/NAME[@REV]` (from the Hub,
// only on request).
#pragma once

#include "cli_options.h"

#include <ostream>
#include <string>
#include <vector>

namespace posatlas::cli {

OptionSet models_option_set();
std::string models_help();
int run_models(const std::vector<std::string>& args, std::ostream& out);

OptionSet download_option_set();
std::string download_help();
int run_download(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace posatlas::cli
