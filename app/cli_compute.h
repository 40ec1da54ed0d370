// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas compute QUANTITY [options]` and `posatlas presets`.
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace posatlas::cli {

class Options;
struct OptionSet;

int run_compute(const std::vector<std::string>& args, std::ostream& out);
// Each quantity of `compute` with the options it accepts, in the order of compute_usage().
std::vector<std::pair<std::string, OptionSet>> compute_option_sets();
OptionSet presets_option_set();
int run_presets(const std::vector<std::string>& args, std::ostream& out);
std::string compute_usage();

// Builds the Scenario that --preset / --config and the method options describe (flags override the
// file). Shared with `export`. `required` is the method the quantity needs, if any: a model that uses
// another encoding is a usage error naming that encoding. Validates the result.
Scenario scenario_from_options(const Options& o, std::optional<Method> required, const std::string& quantity);

// Applies --method and the method options on top of `base` (a session's scenario) and validates.
Scenario scenario_with_options(const Options& o, Scenario base);

// Throws the UsageError for a ParameterError, naming the command-line option of its key.
[[noreturn]] void rethrow_as_usage(const ParameterError& e);
// The option names scenario_from_options understands.
std::vector<std::string> scenario_value_options();
std::vector<std::string> scenario_flag_options();

} // namespace posatlas::cli
