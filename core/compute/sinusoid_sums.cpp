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
                                        const double* __restrict step_s, double* __restrict lc,
                                        double* __restrict ls, double* __restrict out)
{
    for (std::int64_t t = 0; t < count; t += static_cast<std::int64_t>(kLanes)) {
        double s0[kLanes] = {}, s1[kLanes] = {}, s2[kLanes] = {}, s3[kLanes] = {};
        std::size_t k = 0;
        for (; k + 4 <= n; k += 4) {
            lane_term(lc + k * kLanes, ls + k * kLanes, step_c[k], step_s[k], ws[k], wc[k], s0);
            lane_term(lc + (k + 1) * kLanes, ls + (k + 1) * kLanes, step_c[k + 1], step_s[k + 1], ws[k + 1],
                      wc[k + 1], s1);
            lane_term(lc + (k + 2) * kLanes, ls + (k + 2) * kLanes, step_c[k + 2], step_s[k + 2], ws[k + 2],
                      wc[k + 2], s2);
            lane_term(lc + (k + 3) * kLanes, ls + (k + 3) * kLanes, step_c[k + 3], step_s[k + 3], ws[k + 3],
                      wc[k + 3], s3);
        }
        for (; k < n; ++k)
            lane_term(lc + k * kLanes, ls + k * kLanes, step_c[k], step_s[k], ws[k], wc[k], s0);
        const auto m =
            static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(kLanes), count - t));
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
// (The single-precision kernel's runs are 8x longer: their sums and v_k come from L2, read once per
// panel and block against 32 terms' multiply-adds.)
constexpr std::size_t kPanel = 32;

POSATLAS_CLONES void table_sums(std::size_t n, std::int64_t count, const double* __restrict lane_c,
                                const double* __restrict lane_s, const double* __restrict stride_c,
                                const double* __restrict stride_s, double* __restrict vr,
                                double* __restrict vi, double* __restrict acc)
{
    const std::int64_t blocks =
        (count + static_cast<std::int64_t>(kTable) - 1) / static_cast<std::int64_t>(kTable);
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

// Sixteen floats: the single-precision table kernel's unit (one AVX-512 register, two AVX2 ones).
using F16 = float __attribute__((vector_size(64)));
using F16Load = float __attribute__((vector_size(64), aligned(4), may_alias));

// table_sums in single precision (SinusoidSum with Precision::Single): the same blocks and panels, with
// the table and each block's v_k rounded to float32 (v_k advanced in double as above, rounded once per
// block) and the products summed in float32 over a panel of kPanel terms, each panel's sums then added
// into the double acc. Sixteen lanes per vector instead of eight; cosine and sine parts in separate
// accumulators so that no chain of dependent multiply-adds sets the pace. vf: 2 * kPanel *
// ceil(count / 32) floats of scratch.
POSATLAS_CLONES void table_sums_single(std::size_t n, std::int64_t count, const float* __restrict lane_c,
                                       const float* __restrict lane_s, const double* __restrict stride_c,
                                       const double* __restrict stride_s, double* __restrict vr,
                                       double* __restrict vi, float* __restrict vf, double* __restrict acc)
{
    const std::int64_t blocks =
        (count + static_cast<std::int64_t>(kTable) - 1) / static_cast<std::int64_t>(kTable);
    for (std::size_t k0 = 0; k0 < n; k0 += kPanel) {
        const std::size_t k1 = std::min(n, k0 + kPanel);
        const std::size_t width = k1 - k0;
        // The panel's v_k for every block: fr[m * kPanel + kk], fi[...] = -Im.
        float* fr = vf;
        float* fi = vf + static_cast<std::size_t>(blocks) * kPanel;
        for (std::int64_t m = 0; m < blocks; ++m) {
            float* r = fr + m * static_cast<std::int64_t>(kPanel);
            float* i = fi + m * static_cast<std::int64_t>(kPanel);
#pragma omp simd
            for (std::size_t k = k0; k < k1; ++k) {
                r[k - k0] = static_cast<float>(vr[k]);
                i[k - k0] = static_cast<float>(-vi[k]);
                const double nr = vr[k] * stride_c[k] - vi[k] * stride_s[k];
                vi[k] = vr[k] * stride_s[k] + vi[k] * stride_c[k];
                vr[k] = nr;
            }
        }
        for (std::int64_t m = 0; m < blocks; ++m) {
            const float* r = fr + m * static_cast<std::int64_t>(kPanel);
            const float* i = fi + m * static_cast<std::int64_t>(kPanel);
            F16 c0 = {}, c1 = {}, s0 = {}, s1 = {};
            for (std::size_t kk = 0; kk < width; ++kk) {
                const auto* c = reinterpret_cast<const F16Load*>(lane_c + (k0 + kk) * kTable);
                const auto* s = reinterpret_cast<const F16Load*>(lane_s + (k0 + kk) * kTable);
                c0 += r[kk] * c[0];
                c1 += r[kk] * c[1];
                s0 += i[kk] * s[0];
                s1 += i[kk] * s[1];
            }
            const F16 a0 = c0 + s0, a1 = c1 + s1;
            double* o = acc + m * static_cast<std::int64_t>(kTable);
            for (std::size_t l = 0; l < 16; ++l) {
                o[l] += static_cast<double>(a0[l]);
                o[l + 16] += static_cast<double>(a1[l]);
            }
        }
    }
}

} // namespace

SinusoidSum::SinusoidSum(std::vector<double> w, std::vector<double> ws, std::vector<double> wc,
                         Precision precision)
    : w_(std::move(w)), ws_(std::move(ws)), wc_(std::move(wc)), precision_(precision)
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
    if (precision_ == Precision::Single) {
        // Every entry from its exact angle, rounded once (the rotated doubles above are within 1e-15).
        lane_cf_.resize(n * kTable);
        lane_sf_.resize(n * kTable);
        for (std::size_t i = 0; i < n * kTable; ++i) {
            lane_cf_[i] = static_cast<float>(lane_c_[i]);
            lane_sf_[i] = static_cast<float>(lane_s_[i]);
        }
    }
}

struct SinusoidSum::Scratch {
    std::vector<double> a, b; // the lanes (n x 8, cos and sin) or v (n, real and imaginary parts)
    std::vector<double> sums; // the table kernel's: a run rounded up to whole blocks
    std::vector<float> vf;    // the single-precision kernel's v_k per block of a panel

    Scratch(std::size_t n, Precision precision, std::int64_t run_length)
        : a(n * kLanes), b(n * kLanes), sums(static_cast<std::size_t>(run_length) + kTable),
          vf(precision == Precision::Single ? 2 * kPanel * (static_cast<std::size_t>(run_length) / kTable + 1)
                                            : 0)
    {
    }
};

// The positions p .. p + len - 1 (consecutive, len <= run_length()), from exact angles at p.
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
        if (precision_ == Precision::Single)
            table_sums_single(n, len, lane_cf_.data(), lane_sf_.data(), stride_c_.data(), stride_s_.data(),
                              scratch.a.data(), scratch.b.data(), scratch.vf.data(), scratch.sums.data());
        else
            table_sums(n, len, lane_c_.data(), lane_s_.data(), stride_c_.data(), stride_s_.data(),
                       scratch.a.data(), scratch.b.data(), scratch.sums.data());
        std::copy(scratch.sums.begin(), scratch.sums.begin() + len, out);
        return;
    }
    for (std::size_t k = 0; k < n; ++k) {
        const CosSin z = exact_cos_sin(static_cast<double>(p), w_[k]);
        start_lanes(z.c, z.s, step_c_[k], step_s_[k], scratch.a.data() + k * kLanes,
                    scratch.b.data() + k * kLanes);
    }
    lane_rotation_sums(n, len, ws_.data(), wc_.data(), step8_c_.data(), step8_s_.data(), scratch.a.data(),
                       scratch.b.data(), out);
}

// One chunk of at most kRun positions, each run of consecutive positions by run().
void SinusoidSum::chunk(const std::int64_t* positions, std::int64_t count, double* out) const
{
    Scratch scratch(w_.size(), precision_, kRun); // a chunk is at most kRun positions
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
    Scratch scratch(w_.size(), precision_, run_length());
    const std::int64_t len = run_length();
    for (std::int64_t r = 0; r < count; r += len)
        run(first + r, std::min(count - r, len), scratch, out + r);
}

std::int64_t SinusoidSum::run_length() const
{
    // Single precision restarts from exact angles 8x less often: v_k's double rotations then drift by
    // ~512 roundings, 6e-14, against float32's 6e-8; the restarts' sines and cosines (256 terms per
    // run) had been a fifth of a 10^6-distance curve's time.
    return precision_ == Precision::Single ? 8 * kRun : kRun;
}

std::vector<double> sinusoid_sums(const std::vector<double>& w, const std::vector<double>& ws,
                                  const std::vector<double>& wc, const std::vector<std::int64_t>& positions)
{
    return SinusoidSum(w, ws, wc).at(positions);
}

} // namespace posatlas
