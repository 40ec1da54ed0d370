// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lab_sweep.h"

#include "cli_export.h"
#include "cli_i18n.h"
#include "cli_lab_process.h"
#include "cli_options.h"
#include "export/figure_export.h"
#include "io/input_file.h"
#include "io/safe_write.h"
#include "lab/lab.h"
#include "lab/lab_run.h"
#include "lab/lab_sweep.h"
#include "lab/lab_sweep_figure.h"
#include "lab_options.h"

#include <filesystem>
#include <ostream>

namespace posatlas::cli {

namespace {

namespace fs = std::filesystem;

// Whether a run folder's config.json holds the training this sweep asks for: every field that changes
// what is learned (the thread count, the logging and checkpoint intervals do not).
bool trained_as(lab::LabConfig have, const lab::LabConfig& want)
{
    have.threads = want.threads;
    have.log_every = want.log_every;
    have.checkpoint_every = want.checkpoint_every;
    return lab::config_text(have, "complete", 0) == lab::config_text(want, "complete", 0);
}

} // namespace

int run_lab_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const Options o(args, lab_sweep_table());
    const std::string dir = *o.text("out");
    const std::vector<std::string> methods = lab::sweep_methods(*o.text("methods"));
    const int seeds = static_cast<int>(*o.integer("seeds"));
    const std::vector<std::int64_t> lengths = lab::sweep_lengths(*o.real_list("lengths"), *o.text("lengths"));
    std::string length_list;
    for (const std::int64_t l : lengths) {
        if (!length_list.empty())
            length_list += ',';
        length_list += std::to_string(l);
    }
    lab::check_sweep_folder(dir);
    // Each run's lab train command line, checked before anything runs.
    std::vector<std::string> common;
    for (const OptionSpec& s : lab_train_table())
        if (s.name != "out" && s.name != "method" && s.name != "seed" && s.type != ArgType::Flag &&
            o.has(s.name))
            common.insert(common.end(), {"--" + s.name, *o.text(s.name)});
    common.push_back("--quiet");
    const bool quiet = o.flag("quiet");
    struct Run {
        std::string method;
        int seed;
        fs::path folder;
        std::vector<std::string> train;
        lab::LabConfig config;
    };
    std::vector<Run> runs;
    for (const std::string& m : methods)
        for (int s = 0; s < seeds; ++s) {
            Run r{m, s, lab::sweep_run_folder(dir, m, s), {}};
            r.train = {"--method", m, "--seed", std::to_string(s), "--out", r.folder.string()};
            r.train.insert(r.train.end(), common.begin(), common.end());
            const Options check(r.train, lab_train_table());
            r.config = lab_config_from(check); // ParameterError naming the option
            // A complete run is reused only when it is the run this sweep would train: a folder swept
            // before with other settings (more steps, another length) would mix two experiments in one
            // table. Refused before anything runs; the folder is left as it is.
            if (lab::sweep_run_complete(r.folder.string()) &&
                !trained_as(lab::read_run_config(r.folder.string()).config, r.config))
                throw ParameterError("out",
                                     "a sweep folder whose runs were trained with these settings (" + m +
                                         " seed " + std::to_string(s) +
                                         " was trained with others: see its config.json; choose another "
                                         "folder, or remove that run to train it again)",
                                     dir);
            r.train.insert(r.train.begin(), "train");
            runs.push_back(std::move(r));
        }
    lab::SweepTable table;
    table.task = *o.choice("task");
    table.train_len = *o.integer("train-len");
    table.methods = methods;
    table.seeds = seeds;
    table.lengths = lengths;
    out.flush();
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const Run& r = runs[k];
        std::string head = "[";
        head.append(std::to_string(k + 1)).append("/").append(std::to_string(runs.size())).append("] ");
        head.append(r.method).append(" seed ").append(std::to_string(r.seed)).append(": ");
        const bool complete = lab::sweep_run_complete(r.folder.string());
        if (complete) {
            if (!quiet)
                err << head << translate("Cli", "complete, reused") << std::endl;
        } else {
            if (fs::exists(r.folder)) // a run stopped before its end: started again
                fs::remove_all(r.folder);
            fs::create_directories(r.folder.parent_path());
            if (!quiet)
                err << head << translate("Cli", "training") << std::endl;
            if (const int status = run_lab_process(r.train); status != 0)
                return status;
        }
        if (!quiet)
            err << head << translate("Cli", "evaluating") << std::endl;
        std::string json;
        if (const int status =
                run_lab_process({"eval", r.folder.string(), "--lengths", length_list, "--sequences",
                                 *o.text("sequences"), "--format", "json", "--quiet"},
                                &json);
            status != 0)
            return status;
        const std::vector<lab::SweepRow> rows = lab::sweep_rows_from_eval(r.method, r.seed, json);
        table.rows.insert(table.rows.end(), rows.begin(), rows.end());
    }
    write_file_atomically((fs::path(dir) / "sweep.csv").string(), lab::sweep_csv(table));
    write_file_atomically((fs::path(dir) / "sweep.json").string(), lab::sweep_json(table));

    // The figure, drawn here from sweep.json as written.
    const std::string json_path = (fs::path(dir) / "sweep.json").string();
    const lab::SweepTable written = lab::read_sweep_json(read_input_file(json_path, 1 << 28), json_path);
    ensure_application();
    const ui::LabSweepFigure figure(ui::lab_sweep_curves(written));
    ui::FigureExportOptions options;
    options.title = figure.figureTitle();
    try {
        for (const char* ext : {"png", "svg"})
            ui::export_figure(
                figure, QString::fromStdString((fs::path(dir) / (std::string("sweep.") + ext)).string()),
                options);
    } catch (const ui::ExportError& e) {
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    }
    out << dir << ": " << runs.size() << " runs, sweep.csv, sweep.json, sweep.png, sweep.svg\n";
    return 0;
}

} // namespace posatlas::cli
