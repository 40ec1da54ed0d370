// SPDX-License-Identifier: GPL-3.0-or-later
// The run folder's text files (config.json, metrics.jsonl, command.txt): written through SafeFileWriter,
// config.json read without trusting it. Internal to the lab.
#pragma once

#include "lab/lab.h"

#include <string>

namespace posatlas::lab {

std::string run_file(const std::string& dir, const char* name);
std::string config_text(const LabConfig& c, const std::string& status, int steps_done);
// config.json of a fine-tuned run (lab eval --finetune-out): the run's, plus "finetune" (the run it came
// from, steps, length, learning rate, warm-up and the test-time scaling that was active).
std::string finetune_config_text(const LabConfig& c, const std::string& status, int steps_done,
                                 const FineTune& f, const TestScaling& scaling, const std::string& from);
// The whole file, atomically (OutputFileError).
void write_run_text(const std::string& path, const std::string& text);
// One metrics.jsonl line; with perplexity (exp of the loss) for the lm task.
std::string metrics_line(int step, double lr, double loss, double accuracy, bool perplexity = false);

} // namespace posatlas::lab
