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

constexpr std::size_t kTable = 32; // positions per block of the table kernel: four AVX-512 vectors

// Eight doubles: the table kernel's unit (in the AVX2 clone two registers, in the SSE2 clone four), read
// from the table unaligned through a may_alias type (a function returning one would change the ABI).
using V8 = double __attribute__((vector_size(64)));
using V8Load = double __attribute__((vector_size(64), aligned(8), may_alias));

void check_terms(const std::vector<double>& w, const std::vector<double>& ws, const std::vector<double>& wc)
{
    if (ws.size() != w.size() || wc.size() != w.size())
        throw std::invalid_argument("sinusoid_sums: w, ws and wc must have the same number of terms");
}

// count positions from v (vr, vi: the terms' v_k at the first position, advanced in place), added into
// acc (ceil(count / 32) * 32 values, zero on entry): per block m of 32 positions,
// acc[32 m + b] += sum_k vr_k lane_c[k][b] - vi_k lane_s[k][b], then v_k *= e^{32 i w_k}. The 32 sums are
// four vectors that stay in registers over the terms: two multiply-adds per term and position, against
// six operations and a store per term and position for the rotating lanes. Terms go in panels of
// kPanel, every block of the run for one panel before the next, so that the panel's table (16 kB) and
// the run's sums (at most 16 kB) stay in L1: the whole table of 256 terms (128 kB) came from L2 at every
// block, and that bandwidth, not the multiply-adds, set the pace (0.6 cycles per term and position).
constexpr std::size_t kPanel = 32;

POSATLAS_CLONES void table_sums(std::size_t n, std::int64_t count, const double* __restrict lane_c,
                                const double* __restrict lane_s, const double* __restrict stride_c,
                                const double* __restrict stride_s, double* __restrict vr, double* __restrict vi,
                                double* __restrict acc)
{
    const std::int64_t blocks = (count + static_cast<std::int64_t>(kTable) - 1) / static_cast<std::int64_t>(kTable);
    for (std::size_t k0 = 0; k0 < n; k0 += kPanel) {
        const std::size_t k1 = std::min(n, k0 + kPanel);
        for (std::int64_t m = 0; m < blocks; ++m) {
            auto* o = reinterpret_cast<V8Load*>(acc + m * static_cast<std::int64_t>(kTable));
            V8 a0 = o[0], a1 = o[1], a2 = o[2], a3 = o[3];
            for (std::size_t k = k0; k < k1; ++k) {
                const double r = vr[k], i = -vi[k];
                const auto* c = reinterpret_cast<const V8Load*>(lane_c + k * kTable);
                const auto* s = reinterpret_cast<const V8Load*>(lane_s + k * kTable);
                a0 += r * c[0];
                a1 += r * c[1];
                a2 += r * c[2];
                a3 += r * c[3];
                a0 += i * s[0];
                a1 += i * s[1];
                a2 += i * s[2];
                a3 += i * s[3];
            }
            o[0] = a0;
            o[1] = a1;
            o[2] = a2;
            o[3] = a3;
#pragma omp simd
            for (std::size_t k = k0; k < k1; ++k) {
                const double r = vr[k] * stride_c[k] - vi[k] * stride_s[k];
                vi[k] = vr[k] * stride_s[k] + vi[k] * stride_c[k];
                vr[k] = r;
            }
        }
    }
}

} // namespace

SinusoidSum::SinusoidSum(std::vector<double> w, std::vector<double> ws, std::vector<double> wc)
    : w_(std::move(w)), ws_(std::move(ws)), wc_(std::move(wc))
{
    check_terms(w_, ws_, wc_);
    const std::size_t n = w_.size();
    step_c_.resize(n);
    step_s_.resize(n);
    step8_c_.resize(n);
    step8_s_.resize(n);
    stride_c_.resize(n);
    stride_s_.resize(n);
    lane_c_.resize(n * kTable);
    lane_s_.resize(n * kTable);
    for (std::size_t k = 0; k < n; ++k) {
        const CosSin z = exact_cos_sin(1.0, w_[k]);
        step_c_[k] = z.c;
        step_s_[k] = z.s;
        const CosSin z8 = exact_cos_sin(static_cast<double>(kLanes), w_[k]);
        step8_c_[k] = z8.c;
        step8_s_[k] = z8.s;
        const CosSin z32 = exact_cos_sin(static_cast<double>(kTable), w_[k]);
        stride_c_[k] = z32.c;
        stride_s_[k] = z32.s;
        // Exact at every eighth lane, the seven between by one rotation each (at most 7 roundings): the
        // table of 256 terms costs 1024 sines and cosines, not 8192 (a one-off sum of a few thousand
        // positions, as a sinusoidal row of 2^13 keys is, paid a fifth of its time for them).
        for (std::size_t b = 0; b < kTable; ++b) {
            CosSin e = {1.0, 0.0};
            if (b % kLanes == 0) {
                e = exact_cos_sin(static_cast<double>(b), w_[k]);
            } else {
                const double pc = lane_c_[k * kTable + b - 1], ps = lane_s_[k * kTable + b - 1];
                e = {pc * z.c - ps * z.s, ps * z.c + pc * z.s};
            }
            lane_c_[k * kTable + b] = e.c;
            lane_s_[k * kTable + b] = e.s;
        }
    }
}

struct SinusoidSum::Scratch {
    std::vector<double> a, b; // the lanes (n x 8, cos and sin) or v (n, real and imaginary parts)
    std::vector<double> sums; // the table kernel's: a run rounded up to whole blocks

    explicit Scratch(std::size_t n) : a(n * kLanes), b(n * kLanes), sums(static_cast<std::size_t>(kRun) + kTable) {}
};

// The positions p .. p + len - 1 (consecutive, len <= kRun), from exact angles at p.
void SinusoidSum::run(std::int64_t p, std::int64_t len, Scratch& scratch, double* out) const
{
    const std::size_t n = w_.size();
    if (len >= static_cast<std::int64_t>(kTable)) {
        for (std::size_t k = 0; k < n; ++k) {
            const CosSin z = exact_cos_sin(static_cast<double>(p), w_[k]);
            scratch.a[k] = wc_[k] * z.c + ws_[k] * z.s; // (wc - i ws) e^{i p w}
            scratch.b[k] = wc_[k] * z.s - ws_[k] * z.c;
        }
        std::fill(scratch.sums.begin(), scratch.sums.end(), 0.0);
        table_sums(n, len, lane_c_.data(), lane_s_.data(), stride_c_.data(), stride_s_.data(), scratch.a.data(),
                   scratch.b.data(), scratch.sums.data());
        std::copy(scratch.sums.begin(), scratch.sums.begin() + len, out);
        return;
    }
    for (std::size_t k = 0; k < n; ++k) {
        const CosSin z = exact_cos_sin(static_cast<double>(p), w_[k]);
        start_lanes(z.c, z.s, step_c_[k], step_s_[k], scratch.a.data() + k * kLanes, scratch.b.data() + k * kLanes);
    }
    lane_rotation_sums(n, len, ws_.data(), wc_.data(), step8_c_.data(), step8_s_.data(), scratch.a.data(),
                       scratch.b.data(), out);
}

// One chunk of at most kRun positions, each run of consecutive positions by run().
void SinusoidSum::chunk(const std::int64_t* positions, std::int64_t count, double* out) const
{
    Scratch scratch(w_.size());
    for (std::int64_t r = 0; r < count;) {
        std::int64_t len = 1;
        while (r + len < count && positions[r + len] == positions[r + len - 1] + 1)
            ++len;
        run(positions[r], len, scratch, out + r);
        r += len;
    }
}

std::vector<double> SinusoidSum::at(const std::vector<std::int64_t>& positions) const
{
    const auto count = static_cast<std::int64_t>(positions.size());
    std::vector<double> out(positions.size());
    const std::int64_t chunks = (count + kRun - 1) / kRun;
#pragma omp parallel for schedule(static) if (count > kRun)
    for (std::int64_t t = 0; t < chunks; ++t) {
        const std::int64_t r0 = t * kRun;
        chunk(positions.data() + r0, std::min(count, r0 + kRun) - r0, out.data() + r0);
    }
    return out;
}

void SinusoidSum::range(std::int64_t first, std::int64_t count, double* out) const
{
    Scratch scratch(w_.size());
    for (std::int64_t r = 0; r < count; r += kRun)
        run(first + r, std::min(count - r, kRun), scratch, out + r);
}

std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions)
{
    return SinusoidSum(w, ws, wc).at(positions);
}

} // namespace posatlas
