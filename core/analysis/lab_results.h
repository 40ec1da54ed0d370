// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's shipped results (resources/lab-runs/, `make lab-runs`) as the lessons quote them: the
// sweep's answer accuracy and loss (sweep.json) and the small evaluation files written next to a run
// (METHOD/seed-N/evals/NAME.json, `posatlas lab eval --format json`). Reading them needs no LibTorch:
// a lesson quotes what the lab measured; the test lab_shipped_runs re-runs every one of them.
//
// Where the files are found, first match wins:
//   1. the folder named by the environment variable POSATLAS_LAB_RUNS;
//   2. the source tree's resources/lab-runs (compile-time POSATLAS_LAB_RUNS_SOURCE_DIR), when it exists;
//   3. the reader set with set_lab_results_fallback (the GUI library embeds the JSON files the course
//      quotes as Qt resources, so an installed program finds them without the source tree).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace posatlas {

// Reads `relative` (a path under lab-runs, "copy/sweep.json"); nullopt when it has no such file.
using LabResultsReader = std::function<std::optional<std::string>(const std::string& relative)>;
void set_lab_results_fallback(LabResultsReader reader);

// The text of lab-runs/`relative`. `relative` is letters, digits, '-', '_', '.' and '/' with no ".."
// component and no leading '/' (a lesson cannot name files outside lab-runs). Throws QuoteError
// (analysis/quoted_value.h) naming the file and the places searched.
std::string read_lab_results_file(const std::string& relative);

// "copy/rope": the sweep copy/sweep.json, its rows of method rope, the mean over the seeds at `length`.
// QuoteError: no such sweep, method or length, or the length is "not defined" there (a learned table).
double lab_sweep_accuracy(const std::string& sweep_method, std::int64_t length);
double lab_sweep_loss(const std::string& sweep_method, std::int64_t length);
// "copy": how many encodings the sweep copy/sweep.json compares (its "methods" list). QuoteError without
// one.
double lab_sweep_methods(const std::string& sweep);

// "copy/rope/seed-0/evals/pi4": the evaluation file NAME.json, its row at `length`.
// field: "answer_accuracy" or "loss"; lab_eval_entropy: "attention_entropy"[layer] (nats).
double lab_eval_value(const std::string& eval, std::int64_t length, const std::string& field);
double lab_eval_entropy(const std::string& eval, std::int64_t length, std::int64_t layer);
// The fine-tune's "final_loss" (the answer loss of its last 10 steps); QuoteError without a fine-tune.
double lab_eval_finetune_loss(const std::string& eval);

} // namespace posatlas
