// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas compute QUANTITY [options]` and `posatlas presets`.
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include "cli_options.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace posatlas::cli {

class Options;
struct HelpSection;

struct QuantityCall {
    Options options;
    Scenario scenario;
};

int run_compute(const std::vector<std::string>& args, std::ostream& out);
// A quantity's options parsed as `posatlas compute QUANTITY ARGS...` parses them, and the scenario they
// describe (validated): what the Python module computes from when it does not want the quantity's text
// (matrix). Throws UsageError as run_compute does, also for --help and positional arguments.
struct QuantityCall;
QuantityCall parse_quantity(const std::string& quantity, const std::vector<std::string>& args);
// Each quantity of `compute` with the options it accepts, in the order of compute_usage().
std::vector<std::pair<std::string, OptionSet>> compute_option_sets();
OptionSet presets_option_set();
int run_presets(const std::vector<std::string>& args, std::ostream& out);
std::string compute_usage();
// `posatlas compute QUANTITY --help` (compute_usage() for an unknown quantity), `presets --help`.
std::string compute_help(const std::string& quantity);
std::string presets_help();
std::vector<std::string> quantity_names();
// A quantity's one-line summary and its own options (beside the model's and the output's), as its
// --help lists them; empty for an unknown quantity.
std::string quantity_summary(const std::string& quantity);
std::vector<OptionSpec> quantity_own_options(const std::string& quantity);

// Builds the Scenario that --preset / --config and the method options describe (flags override the
// file). Shared with `export`. `required` is the method the quantity needs, if any: a model that uses
// another encoding is a usage error naming that encoding. Validates the result.
Scenario scenario_from_options(const Options& o, std::optional<Method> required, const std::string& quantity);

// Applies --method and the method options on top of `base` (a session's scenario) and validates.
Scenario scenario_with_options(const Options& o, Scenario base);

// Throws the UsageError for a ParameterError, naming the command-line option of its key.
[[noreturn]] void rethrow_as_usage(const ParameterError& e);
// The options scenario_from_options understands, by help section: --preset, --config (and --method
// unless `fixed`), the scenario's own fields, then the parameters of `fixed` (or of every method), all
// generated from the method registry.
std::vector<HelpSection> scenario_sections(std::optional<Method> fixed);

} // namespace posatlas::cli
