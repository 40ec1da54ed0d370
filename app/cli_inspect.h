// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas inspect FILE [--format text|json]`: the import report of a model (config.json, .gguf, a folder
// holding config.json, or ORG/NAME[@REV] from the local Hugging Face cache), the same one the window's
// import report shows (io/import_report.h), with the anatomy of every layer.
#pragma once

#include "cli_options.h"

#include <ostream>
#include <string>
#include <vector>

namespace posatlas::cli {

OptionSet inspect_option_set();
std::string inspect_help();
int run_inspect(const std::vector<std::string>& args, std::ostream& out);

} // namespace posatlas::cli
