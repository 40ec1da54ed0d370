// SPDX-License-Identifier: GPL-3.0-or-later
// The options of `posatlas lab train|eval` and what they mean as a lab configuration: declared once, read
// by the program (help, completion, the checks before posatlas-lab starts) and by posatlas-lab (which runs
// the lab). Qt-free and LibTorch-free: translate() is the program's catalogue in posatlas and the one the
// program hands over in posatlas-lab (lab/lab_messages.h).
#pragma once

#include "cli_options.h"
#include "lab/lab.h"

#include <string>
#include <vector>

namespace posatlas::cli {

OptionTable lab_train_table();
OptionTable lab_eval_table();
// lab sweep: its own options, then those of lab train but --out, --method and --seed.
OptionTable lab_sweep_table();
OptionSet lab_option_set();
std::string lab_help();
// `lab train`, `lab eval` or `lab probe` parsed (rest: the words after the action), their positional
// arguments checked unless --help was given: train takes none, eval and probe one run folder. UsageError
// otherwise.
Options lab_action_options(const std::string& action, const std::vector<std::string>& rest);

// The training configuration of a parsed `lab train` command line, checked (lab::validate:
// ParameterError naming the option).
lab::LabConfig lab_config_from(const Options& o);

// A parsed `lab eval` command line. check() refuses a test-time scaling the run's method does not have
// (ParameterError naming --rope-type or --alibi-scaling).
struct LabEvalRequest {
    lab::EvalOptions options;
    std::string rope_type = "default", alibi_scaling = "none", format = "text";
    void check(const lab::RunInfo& info) const;
};
LabEvalRequest lab_eval_from(const Options& o);

// `lab probe`: a run's attention on one input written for the app's views (lab::write_probe). Its options:
// --length, --layer, --out, and the evaluation's --seed and test-time scalings.
OptionTable lab_probe_table();
struct LabProbeRequest {
    lab::ProbeRequest probe;
    std::string rope_type = "default", alibi_scaling = "none", out;
    // The scaling as LabEvalRequest::check refuses it, then lab::check_probe (ParameterError naming
    // --length or --layer, LabRunError for --out).
    void check(const lab::RunInfo& info) const;
};
LabProbeRequest lab_probe_from(const Options& o);

} // namespace posatlas::cli
