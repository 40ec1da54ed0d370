// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/decay_single.h"

#include "compute/clones.h"
#include "compute/exact_angle.h"

#include <algorithm>
#include <cmath>

namespace posatlas::decay_detail {

namespace {

constexpr std::size_t kRun = RopeSingleCurves::kRun;

// One run of kRun distances: the running sums over the pairs for all kRun lanes at once (the lane
// loop vectorises: 16 floats per AVX-512 vector, 8 per AVX2 one), v (vr, vi) the run's start
// rotations in float, t the table. Writes the bound's sum_j |S_j| and Re S_{P} per lane.
// The root is the correctly rounded vsqrtps: an AVX-512 version with the reciprocal-root estimate and
// one Newton step (as decay.cpp's double lanes do) measured no faster (38.6 against 35.8 ms,
// BM_RopeCurveEnvelopes/2): in float the loop is bound by its multiply-adds, not by the root.
POSATLAS_CLONES void single_run(const float* vr, const float* vi, const float* tr, const float* ti,
                                std::size_t pairs, float* acc_out, float* sr_out)
{
    alignas(64) float sr[kRun] = {};
    alignas(64) float si[kRun] = {};
    alignas(64) float acc[kRun] = {};
    for (std::size_t k = 0; k < pairs; ++k) {
        const float a = vr[k];
        const float b = vi[k];
        const float* __restrict pr = tr + k * kRun;
        const float* __restrict pi = ti + k * kRun;
#pragma omp simd
        for (std::size_t l = 0; l < kRun; ++l) {
            sr[l] += a * pr[l] - b * pi[l];
            si[l] += a * pi[l] + b * pr[l];
            acc[l] += std::sqrt(sr[l] * sr[l] + si[l] * si[l]);
        }
    }
    for (std::size_t l = 0; l < kRun; ++l) {
        acc_out[l] = acc[l];
        sr_out[l] = sr[l];
    }
}

} // namespace

RopeSingleCurves::RopeSingleCurves(const std::vector<double>& inv_freq) : m_theta(inv_freq)
{
    const std::size_t pairs = inv_freq.size();
    m_tr.resize(pairs * kRun);
    m_ti.resize(pairs * kRun);
    m_wr.resize(pairs);
    m_wi.resize(pairs);
    for (std::size_t k = 0; k < pairs; ++k) {
        for (std::size_t b = 0; b < kRun; ++b) {
            const CosSin t = exact_cos_sin(static_cast<double>(b), inv_freq[k]);
            m_tr[k * kRun + b] = static_cast<float>(t.c);
            m_ti[k * kRun + b] = static_cast<float>(t.s);
        }
        const CosSin w = exact_cos_sin(static_cast<double>(kRun), inv_freq[k]);
        m_wr[k] = w.c;
        m_wi[k] = w.s;
    }
}

void RopeSingleCurves::range(std::int64_t first, std::int64_t last, double* bound, double* mean_cos) const
{
    if (last <= first)
        return;
    const std::size_t pairs = m_theta.size();
    // v_k for the run at `first`, exact; then advanced by exp(i kRun theta_k) in double per run. A range
    // is at most a chunk of the envelope helper (2^16 distances: 2048 runs), so the double recurrence
    // adds ~2048 roundings of 1.1e-16, ~1e-13, against float's 6e-8.
    std::vector<double> vd_r(pairs), vd_i(pairs);
    std::vector<float> vr(pairs), vi(pairs);
    for (std::size_t k = 0; k < pairs; ++k) {
        const CosSin z = exact_cos_sin(static_cast<double>(first), m_theta[k]);
        vd_r[k] = z.c;
        vd_i[k] = z.s;
    }
    const double inv_pairs = 1.0 / static_cast<double>(pairs);
    alignas(64) float acc[kRun];
    alignas(64) float sr[kRun];
    for (std::int64_t r0 = first; r0 < last; r0 += static_cast<std::int64_t>(kRun)) {
        for (std::size_t k = 0; k < pairs; ++k) {
            vr[k] = static_cast<float>(vd_r[k]);
            vi[k] = static_cast<float>(vd_i[k]);
            const double nr = vd_r[k] * m_wr[k] - vd_i[k] * m_wi[k];
            vd_i[k] = vd_r[k] * m_wi[k] + vd_i[k] * m_wr[k];
            vd_r[k] = nr;
        }
        single_run(vr.data(), vi.data(), m_tr.data(), m_ti.data(), pairs, acc, sr);
        const auto n =
            static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(kRun), last - r0));
        double* out = bound + (r0 - first);
        for (std::size_t l = 0; l < n; ++l)
            out[l] = static_cast<double>(acc[l]) * inv_pairs;
        if (mean_cos) {
            double* out2 = mean_cos + (r0 - first);
            for (std::size_t l = 0; l < n; ++l)
                out2[l] = static_cast<double>(sr[l]) * inv_pairs;
        }
    }
}

} // namespace posatlas::decay_detail
