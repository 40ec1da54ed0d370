// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/decay.h"

#include "analysis/decay_single.h"

#include "compute/clones.h"
#include "compute/exact_angle.h"
#include "scenario/validation.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace posatlas {

namespace {

// Distances per chunk between two cancel polls: small enough that a cancel is noticed within a few
// milliseconds for d/2 = 64 pairs, large enough to amortise the OpenMP fork.
constexpr std::size_t kChunk = 4096;

void check_inv_freq(const std::vector<double>& inv_freq)
{
    if (inv_freq.empty())
        throw ParameterError("inv_freq", "a non-empty list of frequencies", "an empty list");
    for (double v : inv_freq)
        require_real("inv_freq", v, 0.0, 1e6, false);
}

void check_distances(const std::vector<double>& distances)
{
    const auto limit = static_cast<double>(kMaxDistance);
    for (double r : distances)
        require_real("distance", r, -limit, limit, true);
}

} // namespace

namespace {

// Both RoPE decay curves are sums over pairs of functions of z_k = exp(i r theta_k). Calling sin and cos
// for every (r, k) costs ~40 ns per pair; on an evenly spaced run of distances r0 + n delta, the
// rotations obey z_k(r + delta) = z_k(r) * exp(i delta theta_k), a complex multiply. A block of
// kBlock distances is evaluated in kLanes interleaved lanes (lane b holds r0 + b delta and advances by
// kLanes delta), so the inner loop over lanes vectorises; each block starts from exact sin/cos, so the
// recurrence runs at most kBlock / kLanes = 32 steps, each adding about one rounding (1.1e-16) to the
// angle and to |z|. Blocks that are not evenly spaced (log-spaced curves) use the direct sums.
//
// Angles: r * theta rounded to double is off by up to |r theta| 2^-53 (1e-8 rad at r = 1e8), which would
// dominate both paths' error. Every angle is therefore formed exactly (compute/exact_angle.h), so both
// paths are within ~1e-15 rad of the exact angle of the double theta at any distance up to kMaxDistance.
constexpr std::size_t kLanes = 8;
constexpr std::size_t kBlock = 256;

// RopeCurve::Bound: (1 / (d/2)) sum_j |S_j|, S_j = sum_{k<j} z_k; RopeCurve::MeanCos: (1 / (d/2)) sum_k Re
// z_k.
using RopeSum = RopeCurve;

double direct_sum(RopeSum what, const std::vector<double>& inv_freq, double r)
{
    double re = 0.0;
    double im = 0.0;
    double acc = 0.0;
    for (double theta : inv_freq) {
        const CosSin z = exact_cos_sin(r, theta);
        if (what == RopeSum::MeanCos) {
            acc += z.c;
            continue;
        }
        re += z.c;
        im += z.s;
        acc += std::sqrt(re * re + im * im);
    }
    return acc / static_cast<double>(inv_freq.size());
}

bool evenly_spaced(const double* r, std::size_t n)
{
    if (n < 2 * kLanes)
        return false;
    const double delta = r[1] - r[0];
    for (std::size_t i = 2; i < n; ++i)
        if (r[i] - r[i - 1] != delta)
            return false;
    return true;
}

// The rotations a block needs besides its start, which depend only on the spacing delta and the
// frequencies: exp(i b delta theta_k) for each lane b (lane b starts at r0 + b delta) and the step
// exp(i kLanes delta theta_k). Built once per spacing (a few hundred sin/cos), not once per block.
struct LaneRotations {
    double delta = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> lr, li; // pairs x kLanes
    std::vector<double> wr, wi; // pairs
};

LaneRotations lane_rotations(const std::vector<double>& inv_freq, double delta)
{
    const std::size_t pairs = inv_freq.size();
    LaneRotations t;
    t.delta = delta;
    t.lr.resize(pairs * kLanes);
    t.li.resize(pairs * kLanes);
    t.wr.resize(pairs);
    t.wi.resize(pairs);
    for (std::size_t k = 0; k < pairs; ++k) {
        for (std::size_t b = 0; b < kLanes; ++b) {
            const CosSin z = exact_cos_sin(static_cast<double>(b) * delta, inv_freq[k]);
            t.lr[k * kLanes + b] = z.c;
            t.li[k * kLanes + b] = z.s;
        }
        const CosSin w = exact_cos_sin(static_cast<double>(kLanes) * delta, inv_freq[k]);
        t.wr[k] = w.c;
        t.wi[k] = w.s;
    }
    return t;
}

// The bound's inner loop over pairs for one block of kLanes distances, z (pairs x kLanes, rotated in
// place by w): sr = sum_k Re z_k and acc = sum_j |S_j|. Its cost is the square roots: 64 per distance
// for d = 128, and a vector square root (vsqrtpd) takes ~16 cycles on the machines measured, more than
// the rest of the loop together. With AVX-512 or AVX2 the root comes instead from the hardware's
// reciprocal-square-root estimate y0 (relative error <= 2^-14 for vrsqrt14pd, <= 1.5 * 2^-12 for
// vrsqrtps on the value rounded to float) and one correction by the series
//   1 / sqrt(x) = y0 (1 - e)^(-1/2) = y0 (1 + e/2 + 3e^2/8 + 5e^3/16 + 35e^4/128 + ...),  e = 1 - x y0^2,
// cut where the next term is below 2^-53: after e^3 for AVX-512 (|e| <= 2^-13: next term <= 1e-16
// relative), after e^4 for AVX2 (|e| <= 7.4e-4: next term <= 6e-17). sqrt(x) = x y then carries a few
// roundings more than a correctly rounded root, ~1e-15 relative, far inside the curves' 1e-12.
// x = |S_j|^2 is finite and >= 0 and at most (d/2)^2; x = 0 gives 0 (the estimate of max(x, tiny) is
// finite, so x y = 0 exactly and the correction multiplies 0).
using LaneIsa = RopeLaneIsa;

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's avx512fintrin.h builds _mm512_max_pd / _mm512_rsqrt14_pd on an "undefined" vector it then
// reports as maybe uninitialised (a known false positive); nothing here reads an undefined lane.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
[[gnu::target("avx512f")]] void bound_lanes_avx512(double* zr, double* zi, const double* wr, const double* wi,
                                                   std::size_t pairs, double* acc_out, double* sr_out)
{
    static_assert(kLanes == 8, "one AVX-512 vector per lane block");
    __m512d sr = _mm512_setzero_pd(), si = _mm512_setzero_pd(), acc = _mm512_setzero_pd();
    const __m512d one = _mm512_set1_pd(1.0), tiny = _mm512_set1_pd(std::numeric_limits<double>::min());
    const __m512d c1 = _mm512_set1_pd(0.5), c2 = _mm512_set1_pd(0.375), c3 = _mm512_set1_pd(0.3125);
    for (std::size_t k = 0; k < pairs; ++k) {
        const __m512d pr = _mm512_loadu_pd(zr + k * kLanes), pi = _mm512_loadu_pd(zi + k * kLanes);
        sr = _mm512_add_pd(sr, pr);
        si = _mm512_add_pd(si, pi);
        const __m512d x = _mm512_fmadd_pd(sr, sr, _mm512_mul_pd(si, si));
        const __m512d y = _mm512_rsqrt14_pd(_mm512_max_pd(x, tiny));
        const __m512d t = _mm512_mul_pd(x, y);         // sqrt(x) to 14 bits
        const __m512d e = _mm512_fnmadd_pd(t, y, one); // 1 - x y^2
        __m512d q = _mm512_fmadd_pd(e, c3, c2);
        q = _mm512_fmadd_pd(q, e, c1);
        q = _mm512_mul_pd(q, e);
        acc = _mm512_add_pd(acc, _mm512_fmadd_pd(t, q, t));
        const __m512d c = _mm512_set1_pd(wr[k]), s = _mm512_set1_pd(wi[k]);
        _mm512_storeu_pd(zr + k * kLanes, _mm512_fmsub_pd(pr, c, _mm512_mul_pd(pi, s)));
        _mm512_storeu_pd(zi + k * kLanes, _mm512_fmadd_pd(pr, s, _mm512_mul_pd(pi, c)));
    }
    _mm512_storeu_pd(acc_out, acc);
    _mm512_storeu_pd(sr_out, sr);
}
#pragma GCC diagnostic pop

[[gnu::target("avx2,fma")]] void bound_lanes_avx2(double* zr, double* zi, const double* wr, const double* wi,
                                                  std::size_t pairs, double* acc_out, double* sr_out)
{
    static_assert(kLanes == 8, "two AVX2 vectors per lane block");
    __m256d sr[2], si[2], acc[2];
    for (int h = 0; h < 2; ++h)
        sr[h] = si[h] = acc[h] = _mm256_setzero_pd();
    const __m256d one = _mm256_set1_pd(1.0), tiny = _mm256_set1_pd(1e-30);
    const __m256d c1 = _mm256_set1_pd(0.5), c2 = _mm256_set1_pd(0.375), c3 = _mm256_set1_pd(0.3125),
                  c4 = _mm256_set1_pd(35.0 / 128.0);
    for (std::size_t k = 0; k < pairs; ++k) {
        const __m256d c = _mm256_set1_pd(wr[k]), s = _mm256_set1_pd(wi[k]);
        for (int h = 0; h < 2; ++h) {
            double* pzr = zr + k * kLanes + 4 * h;
            double* pzi = zi + k * kLanes + 4 * h;
            const __m256d pr = _mm256_loadu_pd(pzr), pi = _mm256_loadu_pd(pzi);
            sr[h] = _mm256_add_pd(sr[h], pr);
            si[h] = _mm256_add_pd(si[h], pi);
            const __m256d x = _mm256_fmadd_pd(sr[h], sr[h], _mm256_mul_pd(si[h], si[h]));
            // The estimate in float (x <= (d/2)^2 fits; below 1e-30 the root is below 1e-15 and the
            // clamp keeps the float estimate finite, x y then being the tiny root to a few bits).
            const __m256d y = _mm256_cvtps_pd(_mm_rsqrt_ps(_mm256_cvtpd_ps(_mm256_max_pd(x, tiny))));
            const __m256d t = _mm256_mul_pd(x, y);
            const __m256d e = _mm256_fnmadd_pd(t, y, one);
            __m256d q = _mm256_fmadd_pd(e, c4, c3);
            q = _mm256_fmadd_pd(q, e, c2);
            q = _mm256_fmadd_pd(q, e, c1);
            q = _mm256_mul_pd(q, e);
            acc[h] = _mm256_add_pd(acc[h], _mm256_fmadd_pd(t, q, t));
            _mm256_storeu_pd(pzr, _mm256_fmsub_pd(pr, c, _mm256_mul_pd(pi, s)));
            _mm256_storeu_pd(pzi, _mm256_fmadd_pd(pr, s, _mm256_mul_pd(pi, c)));
        }
    }
    for (int h = 0; h < 2; ++h) {
        _mm256_storeu_pd(acc_out + 4 * h, acc[h]);
        _mm256_storeu_pd(sr_out + 4 * h, sr[h]);
    }
}

LaneIsa best_lane_isa()
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return LaneIsa::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return LaneIsa::Avx2;
    return LaneIsa::Portable;
}
#else
LaneIsa best_lane_isa()
{
    return LaneIsa::Portable;
}
#endif

bool lane_isa_available(LaneIsa isa)
{
    const LaneIsa best = best_lane_isa();
    switch (isa) {
    case LaneIsa::Portable: return true;
    case LaneIsa::Avx2: return best == LaneIsa::Avx2 || best == LaneIsa::Avx512;
    case LaneIsa::Avx512: return best == LaneIsa::Avx512;
    }
    return false;
}

// What the bound's lanes run on: the best the CPU has, or what a test chose (use_rope_lane_isa).
std::atomic<int>& lane_isa_choice()
{
    static std::atomic<int> isa{static_cast<int>(best_lane_isa())};
    return isa;
}

// out[i] for the n evenly spaced distances r[0..n) (n <= kBlock), by the rotation recurrence. `rot`
// holds the lane and step rotations of the block's spacing (lane_rotations). Each lane starts from the
// exact exp(i r0 theta) times its exact lane rotation: one sin/cos per pair and block, and one more
// rounding than an exact start of its own (~1e-16, against the 1e-12 the curves promise).
// With `both`, the bound goes to out and the mean cosine to out2: the bound's running sum S_{d/2} after
// the last pair is sum_k z_k, whose real part is the mean cosine's sum, so the second curve is free.
// A template so that the pair loop has no branch and the lane loops vectorise.
template <RopeSum what, bool both>
[[gnu::always_inline]] inline void recurrence_kernel(const std::vector<double>& inv_freq, const double* r,
                                                     std::size_t n, const LaneRotations& rot, double* out,
                                                     double* out2)
{
    const std::size_t pairs = inv_freq.size();
    const double r0 = r[0];
    std::vector<double> zrv(pairs * kLanes), ziv(pairs * kLanes);
    for (std::size_t k = 0; k < pairs; ++k) {
        const CosSin z0 = exact_cos_sin(r0, inv_freq[k]);
        for (std::size_t b = 0; b < kLanes; ++b) {
            const double lr = rot.lr[k * kLanes + b], li = rot.li[k * kLanes + b];
            zrv[k * kLanes + b] = z0.c * lr - z0.s * li;
            ziv[k * kLanes + b] = z0.c * li + z0.s * lr;
        }
    }
    const std::vector<double>& wr = rot.wr;
    const std::vector<double>& wi = rot.wi;
    const double inv_half = 1.0 / static_cast<double>(pairs);
    const auto isa = static_cast<LaneIsa>(lane_isa_choice().load(std::memory_order_relaxed));
    for (std::size_t base = 0; base < n; base += kLanes) {
        double sr[kLanes] = {};
        double si[kLanes] = {};
        double acc[kLanes] = {};
#if defined(__x86_64__) && defined(__GNUC__)
        if (what == RopeSum::Bound && isa == LaneIsa::Avx512) {
            bound_lanes_avx512(zrv.data(), ziv.data(), wr.data(), wi.data(), pairs, acc, sr);
        } else if (what == RopeSum::Bound && isa == LaneIsa::Avx2) {
            bound_lanes_avx2(zrv.data(), ziv.data(), wr.data(), wi.data(), pairs, acc, sr);
        } else
#endif
        {
            for (std::size_t k = 0; k < pairs; ++k) {
                double* __restrict pr = zrv.data() + k * kLanes;
                double* __restrict pi = ziv.data() + k * kLanes;
                const double c = wr[k];
                const double s = wi[k];
                if constexpr (what == RopeSum::MeanCos) {
#pragma omp simd
                    for (std::size_t b = 0; b < kLanes; ++b) {
                        acc[b] += pr[b];
                        const double nr = pr[b] * c - pi[b] * s;
                        pi[b] = pr[b] * s + pi[b] * c;
                        pr[b] = nr;
                    }
                } else {
#pragma omp simd
                    for (std::size_t b = 0; b < kLanes; ++b) {
                        sr[b] += pr[b];
                        si[b] += pi[b];
                        acc[b] += std::sqrt(sr[b] * sr[b] + si[b] * si[b]);
                        const double nr = pr[b] * c - pi[b] * s;
                        pi[b] = pr[b] * s + pi[b] * c;
                        pr[b] = nr;
                    }
                }
            }
        }
        for (std::size_t b = 0; b < kLanes && base + b < n; ++b) {
            out[base + b] = acc[b] * inv_half;
            if constexpr (both)
                out2[base + b] = sr[b] * inv_half;
        }
    }
}

// The lane loops are compiled for SSE2, AVX2 and AVX-512 (compute/clones.h).
POSATLAS_CLONES void recurrence_bound(const std::vector<double>& inv_freq, const double* r, std::size_t n,
                                      const LaneRotations& rot, double* out)
{
    recurrence_kernel<RopeSum::Bound, false>(inv_freq, r, n, rot, out, nullptr);
}
POSATLAS_CLONES void recurrence_mean_cos(const std::vector<double>& inv_freq, const double* r, std::size_t n,
                                         const LaneRotations& rot, double* out)
{
    recurrence_kernel<RopeSum::MeanCos, false>(inv_freq, r, n, rot, out, nullptr);
}
POSATLAS_CLONES void recurrence_both(const std::vector<double>& inv_freq, const double* r, std::size_t n,
                                     const LaneRotations& rot, double* bound, double* mean_cos)
{
    recurrence_kernel<RopeSum::Bound, true>(inv_freq, r, n, rot, bound, mean_cos);
}
// `rot` is the rotations of one spacing; a block of another spacing gets its own. out2: the mean cosine
// besides the bound (what = Bound only), or null.
template <RopeSum what>
void recurrence_block(const std::vector<double>& inv_freq, const double* r, std::size_t n,
                      const LaneRotations& rot, double* out, double* out2 = nullptr)
{
    const double delta = r[1] - r[0];
    const LaneRotations own = delta == rot.delta ? LaneRotations{} : lane_rotations(inv_freq, delta);
    const LaneRotations& use = delta == rot.delta ? rot : own;
    if constexpr (what == RopeSum::Bound) {
        if (out2)
            recurrence_both(inv_freq, r, n, use, out, out2);
        else
            recurrence_bound(inv_freq, r, n, use, out);
    } else {
        recurrence_mean_cos(inv_freq, r, n, use, out);
    }
}

std::vector<double> rope_sum(RopeSum what, const std::vector<double>& inv_freq,
                             const std::vector<double>& distances, const CancelFn& cancel,
                             const ProgressFn& progress)
{
    check_inv_freq(inv_freq);
    check_distances(distances);
    std::vector<double> out(distances.size());
    const std::size_t blocks = (distances.size() + kBlock - 1) / kBlock;
    // The rotations of the spacing of the first two distances (every block of an evenly spaced series).
    const LaneRotations rot =
        distances.size() >= 2 ? lane_rotations(inv_freq, distances[1] - distances[0]) : LaneRotations{};
    // Blocks per cancel poll: 65536 distances, a few milliseconds of work. Each poll closes an OpenMP
    // region, and on a busy machine every join waits for the slowest (descheduled) thread: regions of
    // 4096 distances made 10^6 distances take 1.9 s under load against 0.1 s unloaded.
    const std::size_t per_poll = std::max<std::size_t>(1, (std::size_t{1} << 16) / kBlock);
    for (std::size_t first = 0; first < blocks; first += per_poll) {
        check_cancel(cancel);
        const auto last = static_cast<std::ptrdiff_t>(std::min(blocks, first + per_poll));
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t blk = static_cast<std::ptrdiff_t>(first); blk < last; ++blk) {
            const std::size_t begin = static_cast<std::size_t>(blk) * kBlock;
            const std::size_t n = std::min(kBlock, distances.size() - begin);
            const double* r = distances.data() + begin;
            if (evenly_spaced(r, n)) {
                if (what == RopeSum::Bound)
                    recurrence_block<RopeSum::Bound>(inv_freq, r, n, rot, out.data() + begin);
                else
                    recurrence_block<RopeSum::MeanCos>(inv_freq, r, n, rot, out.data() + begin);
            } else {
                for (std::size_t i = 0; i < n; ++i)
                    out[begin + i] = direct_sum(what, inv_freq, r[i]);
            }
        }
        report_progress(progress, static_cast<double>(last) / static_cast<double>(blocks));
    }
    check_cancel(cancel);
    return out;
}

// The curve at every integer of [first, last) into out: blocks of kBlock consecutive integers, each by
// the recurrence (or directly when a block is too short for the lanes). out2 (what = Bound only): the
// mean cosine at the same integers, from the same rotations, or null.
void integer_range_values(RopeSum what, const std::vector<double>& inv_freq, const LaneRotations& rot,
                          std::int64_t first, std::int64_t last, double* out, double* out2 = nullptr)
{
    double r[kBlock];
    for (std::int64_t begin = first; begin < last; begin += static_cast<std::int64_t>(kBlock)) {
        const auto n = static_cast<std::size_t>(std::min<std::int64_t>(kBlock, last - begin));
        for (std::size_t i = 0; i < n; ++i)
            r[i] = static_cast<double>(begin + static_cast<std::int64_t>(i));
        double* v = out + (begin - first);
        double* v2 = out2 ? out2 + (begin - first) : nullptr;
        if (n >= 2 * kLanes) {
            if (what == RopeSum::Bound)
                recurrence_block<RopeSum::Bound>(inv_freq, r, n, rot, v, v2);
            else
                recurrence_block<RopeSum::MeanCos>(inv_freq, r, n, rot, v);
        } else {
            for (std::size_t i = 0; i < n; ++i) {
                v[i] = direct_sum(what, inv_freq, r[i]);
                if (v2)
                    v2[i] = direct_sum(RopeSum::MeanCos, inv_freq, r[i]);
            }
        }
    }
}

} // namespace

RopeCurveEnvelope rope_curve_envelope(RopeCurve curve, const std::vector<double>& inv_freq,
                                      const std::vector<std::int64_t>& edges, const CancelFn& cancel,
                                      const ProgressFn& progress, Precision precision)
{
    check_inv_freq(inv_freq);
    if (precision == Precision::Single) {
        RopeCurveEnvelopes both = rope_curve_envelopes(inv_freq, edges, cancel, progress, precision);
        return curve == RopeCurve::Bound ? std::move(both.bound) : std::move(both.mean_cos);
    }
    // Work is proportional to the integers covered: chunks of kChunk * 16 integers, run in parallel by
    // the shared envelope helper (curve_envelope.h); each chunk is evaluated by the recurrence.
    const RopeSum what = curve;
    const LaneRotations rot = lane_rotations(inv_freq, 1.0); // consecutive integers
    return integer_envelope(
        edges, kMaxDistance + 1,
        [&](std::int64_t first, std::int64_t last, double* out) {
            integer_range_values(what, inv_freq, rot, first, last, out);
        },
        static_cast<std::int64_t>(kChunk) * 16, true, cancel, progress);
}

bool use_rope_lane_isa(RopeLaneIsa isa)
{
    if (!lane_isa_available(isa))
        return false;
    lane_isa_choice().store(static_cast<int>(isa));
    return true;
}

RopeLaneIsa rope_lane_isa()
{
    return static_cast<RopeLaneIsa>(lane_isa_choice().load());
}

RopeCurveEnvelopes rope_curve_envelopes(const std::vector<double>& inv_freq,
                                        const std::vector<std::int64_t>& edges, const CancelFn& cancel,
                                        const ProgressFn& progress, Precision precision)
{
    check_inv_freq(inv_freq);
    if (precision == Precision::Single) {
        const decay_detail::RopeSingleCurves single(inv_freq);
        std::vector<CurveEnvelope> env = integer_envelopes(
            edges, kMaxDistance + 1, 2,
            [&](std::int64_t first, std::int64_t last, double* out) {
                single.range(first, last, out, out + (last - first));
            },
            static_cast<std::int64_t>(kChunk) * 16, true, cancel, progress);
        return {std::move(env[0]), std::move(env[1])};
    }
    const LaneRotations rot = lane_rotations(inv_freq, 1.0);
    std::vector<CurveEnvelope> env = integer_envelopes(
        edges, kMaxDistance + 1, 2,
        [&](std::int64_t first, std::int64_t last, double* out) {
            integer_range_values(RopeSum::Bound, inv_freq, rot, first, last, out, out + (last - first));
        },
        static_cast<std::int64_t>(kChunk) * 16, true, cancel, progress);
    return {std::move(env[0]), std::move(env[1])};
}

std::vector<double> rope_decay_bound(const std::vector<double>& inv_freq,
                                     const std::vector<double>& distances, const CancelFn& cancel,
                                     const ProgressFn& progress)
{
    return rope_sum(RopeSum::Bound, inv_freq, distances, cancel, progress);
}

std::vector<double> rope_mean_cos(const std::vector<double>& inv_freq, const std::vector<double>& distances,
                                  const CancelFn& cancel, const ProgressFn& progress)
{
    return rope_sum(RopeSum::MeanCos, inv_freq, distances, cancel, progress);
}

std::vector<double> alibi_decay(double slope, const std::vector<double>& distances)
{
    require_real("slope", slope, 0.0, 1e6, true);
    check_distances(distances);
    std::vector<double> out(distances.size());
    for (std::size_t i = 0; i < distances.size(); ++i)
        out[i] = std::exp(-slope * distances[i]);
    return out;
}

namespace {

// Geometric samples 1 .. R (n >= 2 samples), rounded to integers, plus 0; sorted and unique.
std::vector<double> log_samples(std::int64_t max_distance, std::size_t n)
{
    const auto r = static_cast<double>(max_distance);
    std::vector<double> out;
    out.reserve(n + 1);
    out.push_back(0.0);
    const double log_r = std::log(r);
    for (std::size_t k = 0; k < n; ++k) {
        const double t = static_cast<double>(k) / static_cast<double>(n - 1);
        out.push_back(std::round(std::exp(log_r * t)));
    }
    out.back() = r; // exact end point whatever exp rounded to
    // exp and round are monotone, so the samples are already in order (0 first, r last): only
    // neighbours can be equal.
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// decay_distances(max_distance, max_points, log_spaced) without the cache.
std::vector<double> compute_decay_distances(std::int64_t max_distance, std::size_t max_points,
                                            bool log_spaced);

} // namespace

std::vector<double> decay_distances(std::int64_t max_distance, std::size_t max_points, bool log_spaced)
{
    require_int("max_distance", max_distance, 0, kMaxDistance);
    require_int("max_points", static_cast<std::int64_t>(std::min<std::size_t>(max_points, 1u << 30)), 2,
                10'000'000);
    // A log grid's search below costs ~2.7 ms for 1200 points over 10^6 (17 trial grids of up to 7.7 x
    // 10^4 exp each), and the curves view asked for the same grid twice per slider move (its range, its
    // logit series): a move changes a parameter, not N. The last few small grids are kept.
    constexpr std::size_t kCached = 8, kCachedPoints = 1 << 16;
    struct Entry {
        std::int64_t max_distance;
        std::size_t max_points;
        bool log_spaced;
        std::vector<double> grid;
    };
    // Never destroyed: a view job still running while the process exits may call this after static
    // destructors have run.
    static auto* const mutex = new std::mutex;
    static auto* const cache = new std::vector<Entry>; // least recently used first
    {
        const std::lock_guard<std::mutex> lock(*mutex);
        for (auto it = cache->begin(); it != cache->end(); ++it)
            if (it->max_distance == max_distance && it->max_points == max_points &&
                it->log_spaced == log_spaced) {
                std::rotate(it, it + 1, cache->end()); // now the most recently used
                return cache->back().grid;
            }
    }
    std::vector<double> grid = compute_decay_distances(max_distance, max_points, log_spaced);
    if (max_points <= kCachedPoints) {
        const std::lock_guard<std::mutex> lock(*mutex);
        if (cache->size() == kCached)
            cache->erase(cache->begin());
        cache->push_back({max_distance, max_points, log_spaced, grid});
    }
    return grid;
}

namespace {

std::vector<double> compute_decay_distances(std::int64_t max_distance, std::size_t max_points,
                                            bool log_spaced)
{
    const auto count = static_cast<std::size_t>(max_distance) + 1;
    std::vector<double> out;
    if (count <= max_points) {
        out.resize(count);
        for (std::size_t i = 0; i < count; ++i)
            out[i] = static_cast<double>(i);
        return out;
    }
    if (!log_spaced) {
        const auto r = static_cast<double>(max_distance);
        out.reserve(max_points);
        for (std::size_t k = 0; k < max_points; ++k)
            out.push_back(std::round(r * static_cast<double>(k) / static_cast<double>(max_points - 1)));
        out.back() = r;
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }
    if (max_points == 2)
        return {0.0, static_cast<double>(max_distance)};
    // Rounding merges the dense low end of a geometric grid, so take the largest sample count whose
    // unique integers still fit max_points (binary search; the count grows with n).
    std::size_t lo = max_points - 1; // 0 plus max_points - 1 samples always fits
    std::size_t hi = std::min<std::size_t>(count, 64 * max_points);
    out = log_samples(max_distance, lo);
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        std::vector<double> candidate = log_samples(max_distance, mid);
        if (candidate.size() <= max_points) {
            lo = mid;
            out = std::move(candidate);
        } else {
            hi = mid - 1;
        }
    }
    return out;
}

} // namespace

} // namespace posatlas
