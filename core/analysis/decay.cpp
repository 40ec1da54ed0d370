// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/decay.h"

#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

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
// dominate both paths' error. Every angle is therefore formed exactly as hi + lo (lo = fma(r, theta, -hi)
// recovers the product's rounding error) and sin/cos take the first-order correction in lo, so both
// paths are within ~1e-15 rad of the exact angle of the double theta at any distance up to kMaxDistance.
constexpr std::size_t kLanes = 8;
constexpr std::size_t kBlock = 256;

// RopeCurve::Bound: (1 / (d/2)) sum_j |S_j|, S_j = sum_{k<j} z_k; RopeCurve::MeanCos: (1 / (d/2)) sum_k Re z_k.
using RopeSum = RopeCurve;

struct CosSin {
    double c;
    double s;
};

// cos and sin of the exact product r * theta (see above): the double product plus its rounding error.
CosSin exact_cos_sin(double r, double theta)
{
    const double hi = r * theta;
    const double lo = std::fma(r, theta, -hi);
    const double c = std::cos(hi);
    const double s = std::sin(hi);
    return {c - s * lo, s + c * lo};
}

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

// out[i] for the n evenly spaced distances r[0..n) (n <= kBlock), by the rotation recurrence. `rot`
// holds the lane and step rotations of the block's spacing (lane_rotations). Each lane starts from the
// exact exp(i r0 theta) times its exact lane rotation: one sin/cos per pair and block, and one more
// rounding than an exact start of its own (~1e-16, against the 1e-12 the curves promise).
// A template so that the pair loop has no branch and the lane loops vectorise.
template <RopeSum what>
[[gnu::always_inline]] inline void recurrence_kernel(const std::vector<double>& inv_freq, const double* r,
                                                     std::size_t n, const LaneRotations& rot, double* out)
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
    for (std::size_t base = 0; base < n; base += kLanes) {
        double sr[kLanes] = {};
        double si[kLanes] = {};
        double acc[kLanes] = {};
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
        for (std::size_t b = 0; b < kLanes && base + b < n; ++b)
            out[base + b] = acc[b] * inv_half;
    }
}

// The default build targets any x86-64 (SSE2: two doubles per vector). GCC compiles the lane loops a
// second time for AVX2 + FMA (four per vector) and the loader picks the version the CPU runs, so the
// .deb stays portable and fast machines are not held back (per-function multi-versioning).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSATLAS_CLONES [[gnu::target_clones("avx2,fma", "default")]]
#else
#define POSATLAS_CLONES
#endif
POSATLAS_CLONES void recurrence_bound(const std::vector<double>& inv_freq, const double* r, std::size_t n,
                                      const LaneRotations& rot, double* out)
{
    recurrence_kernel<RopeSum::Bound>(inv_freq, r, n, rot, out);
}
POSATLAS_CLONES void recurrence_mean_cos(const std::vector<double>& inv_freq, const double* r, std::size_t n,
                                         const LaneRotations& rot, double* out)
{
    recurrence_kernel<RopeSum::MeanCos>(inv_freq, r, n, rot, out);
}
// `rot` is the rotations of one spacing; a block of another spacing gets its own.
template <RopeSum what>
void recurrence_block(const std::vector<double>& inv_freq, const double* r, std::size_t n, const LaneRotations& rot,
                      double* out)
{
    const double delta = r[1] - r[0];
    const LaneRotations own = delta == rot.delta ? LaneRotations{} : lane_rotations(inv_freq, delta);
    const LaneRotations& use = delta == rot.delta ? rot : own;
    if constexpr (what == RopeSum::Bound)
        recurrence_bound(inv_freq, r, n, use, out);
    else
        recurrence_mean_cos(inv_freq, r, n, use, out);
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
// the recurrence (or directly when a block is too short for the lanes).
void integer_range_values(RopeSum what, const std::vector<double>& inv_freq, const LaneRotations& rot,
                          std::int64_t first, std::int64_t last, double* out)
{
    double r[kBlock];
    for (std::int64_t begin = first; begin < last; begin += static_cast<std::int64_t>(kBlock)) {
        const auto n = static_cast<std::size_t>(std::min<std::int64_t>(kBlock, last - begin));
        for (std::size_t i = 0; i < n; ++i)
            r[i] = static_cast<double>(begin + static_cast<std::int64_t>(i));
        double* v = out + (begin - first);
        if (n >= 2 * kLanes) {
            if (what == RopeSum::Bound)
                recurrence_block<RopeSum::Bound>(inv_freq, r, n, rot, v);
            else
                recurrence_block<RopeSum::MeanCos>(inv_freq, r, n, rot, v);
        } else {
            for (std::size_t i = 0; i < n; ++i)
                v[i] = direct_sum(what, inv_freq, r[i]);
        }
    }
}

} // namespace

RopeCurveEnvelope rope_curve_envelope(RopeCurve curve, const std::vector<double>& inv_freq,
                                      const std::vector<std::int64_t>& edges, const CancelFn& cancel,
                                      const ProgressFn& progress)
{
    check_inv_freq(inv_freq);
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
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

std::vector<double> decay_distances(std::int64_t max_distance, std::size_t max_points, bool log_spaced)
{
    require_int("max_distance", max_distance, 0, kMaxDistance);
    require_int("max_points", static_cast<std::int64_t>(std::min<std::size_t>(max_points, 1u << 30)), 2,
                10'000'000);
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

} // namespace posatlas
