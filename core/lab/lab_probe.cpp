// SPDX-License-Identifier: GPL-3.0-or-later
// The LibTorch-free checks of a probe (lab.h, "probes for the main views"): the command line runs them
// before it starts posatlas-lab.
#include "lab/lab.h"

#include "io/number_text.h"

#include <filesystem>

namespace posatlas::lab {

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
    // activations for one sequence: bounded like training, well below the lab's memory budget.
    const double bytes = 8.0 * static_cast<double>(c.heads) * static_cast<double>(r.length) *
                         static_cast<double>(r.length) * 3.0;
    if (bytes > kLabMemoryBudget) {
        std::int64_t largest = 2;
        while (8.0 * c.heads * static_cast<double>(2 * largest) * static_cast<double>(2 * largest) * 3.0 <=
               kLabMemoryBudget)
            largest *= 2;
        throw ParameterError("length",
                             "at most " + std::to_string(largest) + " for " + std::to_string(c.heads) +
                                 " heads (memory)",
                             std::to_string(r.length));
    }
    std::error_code ec;
    const std::filesystem::path p(out);
    if (std::filesystem::exists(p, ec) &&
        (!std::filesystem::is_directory(p, ec) || !std::filesystem::is_empty(p, ec)))
        throw LabRunError(out + ": exists and is not an empty folder; choose another --out");
}

} // namespace posatlas::lab
