// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lab.h"

#include "cli_i18n.h"
#include "cli_lab_process.h"
#include "cli_lab_sweep.h"
#include "cli_options.h"
#include "lab/lab.h"
#include "lab_options.h"

#include <iostream>
#include <ostream>

namespace posatlas::cli {

int run_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, std::string* captured)
{
    const std::string action = args.empty() ? "" : args.front();
    if (action == "--help" || action == "-h") {
        out << lab_help();
        return 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (action == "sweep") {
        if (Options(rest, lab_sweep_table()).help()) {
            out << lab_help();
            return 0;
        }
        return run_lab_sweep(rest, out, err);
    }
    if (action != "train" && action != "eval" && action != "probe")
        throw UsageError(translate(
            "Cli", "lab takes the action 'train', 'eval', 'sweep' or 'probe' (see posatlas lab --help)"));
    // Everything that can be checked without LibTorch is checked here, in the user's language, before
    // posatlas-lab starts: the options, the configuration (memory budget included), the run folder.
    const Options o = lab_action_options(action, rest);
    if (o.help()) {
        out << lab_help();
        return 0;
    }
    if (action == "train") {
        lab_config_from(o);
        lab::check_new_run_folder(*o.text("out"));
    } else if (action == "probe") {
        const LabProbeRequest request = lab_probe_from(o);
        const lab::RunInfo info = lab::read_run_config(o.positional().front());
        request.check(info);
        if (info.config.language_model())
            lab::run_corpus(info.config, request.probe.corpus); // the run's corpus, else --corpus is named
    } else {
        const LabEvalRequest request = lab_eval_from(o);
        const lab::RunInfo info = lab::read_run_config(o.positional().front());
        request.check(info);
        if (info.config.language_model())
            lab::run_corpus(info.config, request.options.corpus);
        if (!request.options.finetune.out.empty())
            lab::check_new_run_folder(request.options.finetune.out);
    }
    out.flush();
    err.flush();
    return run_lab_process(args, captured);
}

} // namespace posatlas::cli
