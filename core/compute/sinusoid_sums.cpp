// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/sinusoid_sums.h"

#include "compute/clones.h"
#include "compute/exact_angle.h"

#include <algorithm>
#include <stdexcept>

namespace posatlas {

namespace {

constexpr std::int64_t kRun = 256;

POSATLAS_CLONES void sums_chunk(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc,
                                const std::vector<double>& step_c, const std::vector<double>& step_s,
                                const std::int64_t* positions, std::int64_t count, double* out)
{
    const std::size_t n = w.size();
    std::vector<double> zc(n), zs(n);
    for (std::int64_t r = 0; r < count; ++r) {
        if (r == 0 || positions[r] != positions[r - 1] + 1) {
            for (std::size_t k = 0; k < n; ++k) {
                const CosSin z = exact_cos_sin(static_cast<double>(positions[r]), w[k]);
                zc[k] = z.c;
                zs[k] = z.s;
            }
        } else {
            double* __restrict pc = zc.data();
            double* __restrict ps = zs.data();
            const double* __restrict sc = step_c.data();
            const double* __restrict ss = step_s.data();
#pragma omp simd
            for (std::size_t k = 0; k < n; ++k) {
                const double c = pc[k] * sc[k] - ps[k] * ss[k];
                ps[k] = ps[k] * sc[k] + pc[k] * ss[k];
                pc[k] = c;
            }
        }
        double acc = 0.0;
        const double* __restrict a = ws.data();
        const double* __restrict b = wc.data();
#pragma omp simd reduction(+ : acc)
        for (std::size_t k = 0; k < n; ++k)
            acc += a[k] * zs[k] + b[k] * zc[k];
        out[r] = acc;
    }
}

} // namespace

std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions)
{
    if (ws.size() != w.size() || wc.size() != w.size())
        throw std::invalid_argument("sinusoid_sums: w, ws and wc must have the same number of terms");
    std::vector<double> step_c(w.size()), step_s(w.size());
    for (std::size_t k = 0; k < w.size(); ++k) {
        const CosSin z = exact_cos_sin(1.0, w[k]);
        step_c[k] = z.c;
        step_s[k] = z.s;
    }
    const auto count = static_cast<std::int64_t>(positions.size());
    std::vector<double> out(positions.size());
    const std::int64_t chunks = (count + kRun - 1) / kRun;
#pragma omp parallel for schedule(static) if (count > 256)
    for (std::int64_t t = 0; t < chunks; ++t) {
        const std::int64_t r0 = t * kRun;
        sums_chunk(w, ws, wc, step_c, step_s, positions.data() + r0, std::min(count, r0 + kRun) - r0, out.data() + r0);
    }
    return out;
}

} // namespace posatlas
