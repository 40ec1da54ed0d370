// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lab sweep`: trains each (method, seed) with posatlas-lab, evaluates each run at the lengths,
// writes one table (sweep.csv, sweep.json) and draws one figure (sweep.png, sweep.svg: answer accuracy
// against length, one line per encoding with its spread over the seeds) with the program's own chart
// code. A run folder that is already complete is reused, so a stopped sweep resumes.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

int run_lab_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace posatlas::cli
