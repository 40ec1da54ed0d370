// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/attention_weights.h"

#include "methods/registry.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace posatlas {

Scenario weights_logits_scenario(const Scenario& s)
{
    Scenario masked = s;
    if (const Field* f = descriptor(masked.method).field("causal"); f && f->type == FieldType::Bool)
        f->set(masked, masked.causal);
    return masked;
}

void attention_weights(MatrixJob& job, const std::function<void(MatrixJob&)>& logits)
{
    const std::int64_t n = job.s.seq_len;
    const auto rows = static_cast<std::int64_t>(job.rows.size());
    if (n > kMaxWeightsSeqLen)
        throw ParameterError("seq_len",
                             "an integer in [1, " + std::to_string(kMaxWeightsSeqLen) +
                                 "] for attention weights (each row is normalised over all N keys)",
                             std::to_string(n));
    if (rows * n > kMaxWeightsLogits)
        throw ParameterError("seq_len",
                             "at most " + std::to_string(kMaxWeightsLogits / rows) +
                                 " for attention weights of " + std::to_string(rows) +
                                 " query rows (each row needs the logits of all N keys)",
                             std::to_string(n));
    // The logits under the weights' own mask: a method's causal field follows the scenario's `causal`.
    const Scenario masked = weights_logits_scenario(job.s);
    std::vector<std::int64_t> keys(static_cast<std::size_t>(n));
    std::iota(keys.begin(), keys.end(), std::int64_t{0});
    // Query rows per chunk: about 2^20 logits at a time, between cancellation checks.
    const std::int64_t chunk = std::max<std::int64_t>(1, (std::int64_t{1} << 20) / n);
    const CancelFn& cancel = job.cancel;
    const ProgressFn no_progress;
    std::vector<double> w(static_cast<std::size_t>(n));
    for (std::int64_t r0 = 0; r0 < rows; r0 += chunk) {
        check_cancel(cancel);
        const std::int64_t r1 = std::min(rows, r0 + chunk);
        const std::vector<std::int64_t> queries(job.rows.begin() + r0, job.rows.begin() + r1);
        MatrixResult full;
        full.values.resize(r1 - r0, n);
        MatrixJob sub{masked, MatrixKind::Logits, queries, keys, cancel, no_progress,
                      full,   job.precision,      {},      {}};
        logits(sub);
        for (std::int64_t r = r0; r < r1; ++r) {
            const std::int64_t i = job.rows[static_cast<std::size_t>(r)];
            // Llama 4's temperature scales the query of row i, so its logits (logit_temperature).
            const double t = logit_temperature(job.s, i);
            if (t != 1.0)
                full.values.row(r - r0) *= t;
            const auto x = full.values.row(r - r0);
            // Stable softmax: subtract the row's largest unmasked logit before exp.
            double top = -std::numeric_limits<double>::infinity();
            for (std::int64_t j = 0; j < n; ++j)
                if (mask_allows(job.s, i, j) && std::isfinite(x(j)))
                    top = std::max(top, x(j));
            if (!std::isfinite(top)) { // no key to attend to
                for (Eigen::Index c = 0; c < job.out.values.cols(); ++c)
                    job.out.values(r, c) = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            double sum = 0.0;
            for (std::int64_t j = 0; j < n; ++j) {
                const bool masked = !mask_allows(job.s, i, j) || !std::isfinite(x(j));
                w[static_cast<std::size_t>(j)] = masked ? 0.0 : std::exp(x(j) - top);
                sum += w[static_cast<std::size_t>(j)];
            }
            for (Eigen::Index c = 0; c < job.out.values.cols(); ++c)
                job.out.values(r, c) =
                    w[static_cast<std::size_t>(job.cols[static_cast<std::size_t>(c)])] / sum;
        }
        report_progress(job.progress, static_cast<double>(r1) / static_cast<double>(rows));
    }
}

} // namespace posatlas
