// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/sinusoid_sums.h"

#include "compute/clones.h"
#include "compute/exact_angle.h"

#include <algorithm>
#include <stdexcept>

namespace posatlas {

namespace {

constexpr std::int64_t kRun = kSinusoidRun;
constexpr std::size_t kLanes = kSinusoidLanes;

// One term's lanes: their weighted sum into sum, then one rotation by the step.
inline void lane_term(double* __restrict c, double* __restrict s, double sc, double ss, double a, double b,
                      double* __restrict sum)
{
#pragma omp simd
    for (std::size_t j = 0; j < kLanes; ++j) {
        const double cj = c[j], sj = s[j];
        sum[j] += a * sj + b * cj;
        c[j] = cj * sc - sj * ss;
        s[j] = sj * sc + cj * ss;
    }
}

} // namespace

// Four terms per iteration, each into its own partial sums (locals, so they stay in registers: an
// array indexed by k % 4 went through memory at every term).
POSATLAS_CLONES void lane_rotation_sums(std::size_t n, std::int64_t count, const double* __restrict ws,
                                        const double* __restrict wc, const double* __restrict step_c,
                                        const double* __restrict step_s, double* __restrict lc, double* __restrict ls,
                                        double* __restrict out)
{
    for (std::int64_t t = 0; t < count; t += static_cast<std::int64_t>(kLanes)) {
        double s0[kLanes] = {}, s1[kLanes] = {}, s2[kLanes] = {}, s3[kLanes] = {};
        std::size_t k = 0;
        for (; k + 4 <= n; k += 4) {
            lane_term(lc + k * kLanes, ls + k * kLanes, step_c[k], step_s[k], ws[k], wc[k], s0);
            lane_term(lc + (k + 1) * kLanes, ls + (k + 1) * kLanes, step_c[k + 1], step_s[k + 1], ws[k + 1], wc[k + 1], s1);
            lane_term(lc + (k + 2) * kLanes, ls + (k + 2) * kLanes, step_c[k + 2], step_s[k + 2], ws[k + 2], wc[k + 2], s2);
            lane_term(lc + (k + 3) * kLanes, ls + (k + 3) * kLanes, step_c[k + 3], step_s[k + 3], ws[k + 3], wc[k + 3], s3);
        }
        for (; k < n; ++k)
            lane_term(lc + k * kLanes, ls + k * kLanes, step_c[k], step_s[k], ws[k], wc[k], s0);
        const auto m = static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(kLanes), count - t));
        for (std::size_t j = 0; j < m; ++j)
            out[t + static_cast<std::int64_t>(j)] = (s0[j] + s1[j]) + (s2[j] + s3[j]);
    }
}

namespace {

// The steps e^{i w_k} (one lane to the next) and e^{8 i w_k} (one block of lanes to the next).
struct Steps {
    std::vector<double> c, s, c8, s8;

    explicit Steps(const std::vector<double>& w) : c(w.size()), s(w.size()), c8(w.size()), s8(w.size())
    {
        for (std::size_t k = 0; k < w.size(); ++k) {
            const CosSin z = exact_cos_sin(1.0, w[k]);
            c[k] = z.c;
            s[k] = z.s;
            const CosSin z8 = exact_cos_sin(static_cast<double>(kLanes), w[k]);
            c8[k] = z8.c;
            s8[k] = z8.s;
        }
    }
};

void check_terms(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc)
{
    if (ws.size() != w.size() || wc.size() != w.size())
        throw std::invalid_argument("sinusoid_sums: w, ws and wc must have the same number of terms");
}

// The positions p .. p + len - 1 (consecutive): exact angles at p, the other lanes one step each, then
// lane_rotation_sums. lc, ls: scratch of n x kLanes.
void consecutive_sums(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc,
                      const Steps& st, std::int64_t p, std::int64_t len, std::vector<double>& lc, std::vector<double>& ls,
                      double* out)
{
    const std::size_t n = w.size();
    for (std::size_t k = 0; k < n; ++k) {
        const CosSin z = exact_cos_sin(static_cast<double>(p), w[k]);
        start_lanes(z.c, z.s, st.c[k], st.s[k], lc.data() + k * kLanes, ls.data() + k * kLanes);
    }
    lane_rotation_sums(n, len, ws.data(), wc.data(), st.c8.data(), st.s8.data(), lc.data(), ls.data(), out);
}

// One chunk of at most kRun positions, each run of consecutive positions by consecutive_sums.
void sums_chunk(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc,
                const Steps& st, const std::int64_t* positions, std::int64_t count, double* out)
{
    std::vector<double> lc(w.size() * kLanes), ls(lc.size());
    for (std::int64_t r = 0; r < count;) {
        std::int64_t len = 1;
        while (r + len < count && positions[r + len] == positions[r + len - 1] + 1)
            ++len;
        consecutive_sums(w, ws, wc, st, positions[r], len, lc, ls, out + r);
        r += len;
    }
}

} // namespace

std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions)
{
    check_terms(w, ws, wc);
    const Steps st(w);
    const auto count = static_cast<std::int64_t>(positions.size());
    std::vector<double> out(positions.size());
    const std::int64_t chunks = (count + kRun - 1) / kRun;
#pragma omp parallel for schedule(static) if (count > kRun)
    for (std::int64_t t = 0; t < chunks; ++t) {
        const std::int64_t r0 = t * kRun;
        sums_chunk(w, ws, wc, st, positions.data() + r0, std::min(count, r0 + kRun) - r0, out.data() + r0);
    }
    return out;
}

void sinusoid_sums_range(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc,
                         std::int64_t first, std::int64_t count, double* out)
{
    check_terms(w, ws, wc);
    const Steps st(w);
    std::vector<double> lc(w.size() * kLanes), ls(lc.size());
    for (std::int64_t r = 0; r < count; r += kRun)
        consecutive_sums(w, ws, wc, st, first + r, std::min(count - r, kRun), lc, ls, out + r);
}

} // namespace posatlas
