// SPDX-License-Identifier: GPL-3.0-or-later
// The LibTorch-free checks of a probe (lab.h, "probes for the main views"): the command line runs them
// before it starts posatlas-lab.
#include "lab/lab.h"

#include "io/number_text.h"

#include <cmath>
#include <filesystem>

namespace posatlas::lab {

std::int64_t probe_max_length(int heads)
{
    const auto fits = [&](std::int64_t n) {
        return 24.0 * heads * static_cast<double>(n) * static_cast<double>(n) <= kLabMemoryBudget;
    };
    std::int64_t n = static_cast<std::int64_t>(std::sqrt(kLabMemoryBudget / (24.0 * heads)));
    while (n > 2 && !fits(n))
        --n;
    while (fits(n + 1))
        ++n;
    return n;
}

void check_probe(const RunInfo& info, const ProbeRequest& r, const std::string& out)
{
    const LabConfig& c = info.config;
    if (r.length < 2 || r.length > 1 << 20)
        throw ParameterError("length", "an integer in [2, 1048576]", std::to_string(r.length));
    if (c.method == "learned" && r.length > c.learned_rows())
        throw ParameterError("length",
                             "at most " + std::to_string(c.learned_rows()) + " (the learned table's rows)",
                             std::to_string(r.length));
    if (r.layer < 0 || r.layer >= c.layers)
        throw ParameterError("layer", "an integer in [0, " + std::to_string(c.layers - 1) + "]",
                             std::to_string(r.layer));
    // The probe keeps every head's length x length scores twice (the model's, core's) and the model's
    // activations for one sequence: about 24 bytes per head and position pair, within the lab's budget.
    const std::int64_t largest = probe_max_length(c.heads);
    if (r.length > largest)
        throw ParameterError("length",
                             "at most " + std::to_string(largest) + " for " + std::to_string(c.heads) +
                                 " heads (memory budget " +
                                 std::to_string(static_cast<int>(kLabMemoryBudget / (1 << 30))) + " GiB)",
                             std::to_string(r.length));
    std::error_code ec;
    const std::filesystem::path p(out);
    if (std::filesystem::exists(p, ec) &&
        (!std::filesystem::is_directory(p, ec) || !std::filesystem::is_empty(p, ec)))
        throw LabRunError(out + ": exists and is not an empty folder; choose another --out");
}

} // namespace posatlas::lab
