// SPDX-License-Identifier: GPL-3.0-or-later
// A sweep of the lab (`posatlas lab sweep`, the GUI's Lab window): one run per (method, seed) in
// OUT/METHOD/seed-N, each evaluated at the same lengths, gathered in one table (sweep.csv, sweep.json).
// The checks of a sweep's own options and the table live here, once, for the command line and the GUI;
// finding the lab's process (posatlas-lab) too. Qt-free and LibTorch-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posatlas::lab {

// The methods of a comma-separated list, each a lab method (lab_methods) named once: ParameterError
// naming "methods" otherwise (an empty list too).
std::vector<std::string> sweep_methods(const std::string& list);
// The evaluation lengths: increasing integers in [4, 1048576], else ParameterError naming "lengths"
// (`given`: the text the user wrote, quoted in the message).
std::vector<std::int64_t> sweep_lengths(const std::vector<double>& lengths, const std::string& given);
// A sweep's folder: one that does not exist yet, an empty folder, or one holding only a sweep's files
// (folders named after lab methods, sweep.csv/json/png/svg). ParameterError naming "out" otherwise, so that
// a sweep never writes into (or clears run folders inside) a folder of something else.
void check_sweep_folder(const std::string& dir);
// OUT/METHOD/seed-N.
std::string sweep_run_folder(const std::string& dir, const std::string& method, int seed);
// Whether the run folder holds a complete run (config.json readable, status complete): a sweep reuses it.
bool sweep_run_complete(const std::string& folder);

struct SweepRow {
    std::string method;
    int seed = 0;
    std::int64_t length = 0;
    bool defined = true; // false: beyond a learned table ("not defined")
    double accuracy = 0.0, loss = 0.0;
};
struct SweepTable {
    std::string task;
    std::int64_t train_len = 0;
    std::vector<std::string> methods;
    int seeds = 1;
    std::vector<std::int64_t> lengths;
    // The RoPE scaling the rope runs were evaluated with ("default": none) and its factor.
    std::string rope_type = "default";
    double factor = 1.0;
    std::vector<SweepRow> rows;
};
// The rows of one run from `posatlas-lab eval --format json`'s output: LabRunError when it is not that.
std::vector<SweepRow> sweep_rows_from_eval(const std::string& method, int seed, const std::string& eval_json);
// sweep.csv (method,seed,length,accuracy,loss; numbers with 17 significant digits, "not defined" beyond a
// learned table) and sweep.json (the table's fields and its rows).
std::string sweep_csv(const SweepTable& t);
std::string sweep_json(const SweepTable& t);
// sweep.json read back (InputFileError naming `path` when it is not a sweep's table).
SweepTable read_sweep_json(const std::string& text, const std::string& path);

// The lab's process, posatlas-lab: first in `search_dir` (when not empty), then beside the running
// program (a build tree), then in the libexec folder found from the program's own folder
// (../libexec/posatlas), then in the libexec folder of the prefix it was built for. "" when none has it.
std::string find_lab_executable(const std::string& search_dir = "");

// The runs shipped with the app (resources/lab-runs/, made by `make lab-runs`): installed in
// <prefix>/<datadir>/posatlas/lab-runs by the lab's install component, found from the running program's
// folder (../share/posatlas/lab-runs), else in the datadir of the prefix it was built for; a program run
// from its build tree reads the source tree's resources/lab-runs first. "" when none exists.
std::string find_shipped_runs_dir();
// A shipped run: TASK/METHOD/seed-N under the shipped folder, its config.json complete.
struct ShippedRun {
    std::string task, method;
    int seed = 0;
    std::string dir;
};
// The complete runs under `root` (TASK/METHOD/seed-N), ordered by task, then in lab_methods()' order, then
// by seed. Folders that are not complete runs are left out; nothing under `root` is written.
std::vector<ShippedRun> shipped_runs(const std::string& root);

} // namespace posatlas::lab
