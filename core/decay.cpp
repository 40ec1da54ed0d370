#include "decay.h"

#include "validation.h"

#include <algorithm>
#include <cmath>
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

// Runs body(i) for every i in [0, n), OpenMP-parallel in chunks; cancel and progress happen on the
// calling thread between chunks only.
template <typename Body>
void chunked_parallel(std::size_t n, const CancelFn& cancel, const ProgressFn& progress, Body body)
{
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
        check_cancel(cancel);
        const auto end = static_cast<std::ptrdiff_t>(std::min(n, begin + kChunk));
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(begin); i < end; ++i)
            body(static_cast<std::size_t>(i));
        report_progress(progress, static_cast<double>(end) / static_cast<double>(n));
    }
    check_cancel(cancel);
}

} // namespace

std::vector<double> rope_decay_bound(const std::vector<double>& inv_freq,
                                     const std::vector<double>& distances, const CancelFn& cancel,
                                     const ProgressFn& progress)
{
    check_inv_freq(inv_freq);
    check_distances(distances);
    std::vector<double> out(distances.size());
    const double half = static_cast<double>(inv_freq.size());
    chunked_parallel(distances.size(), cancel, progress, [&](std::size_t i) {
        const double r = distances[i];
        double re = 0.0;
        double im = 0.0;
        double sum_abs = 0.0;
        for (double theta : inv_freq) { // S_j accumulates pairs 0 .. j-1
            const double angle = r * theta;
            re += std::cos(angle);
            im += std::sin(angle);
            sum_abs += std::hypot(re, im);
        }
        out[i] = sum_abs / half;
    });
    return out;
}

std::vector<double> rope_mean_cos(const std::vector<double>& inv_freq, const std::vector<double>& distances,
                                  const CancelFn& cancel, const ProgressFn& progress)
{
    check_inv_freq(inv_freq);
    check_distances(distances);
    std::vector<double> out(distances.size());
    const double half = static_cast<double>(inv_freq.size());
    chunked_parallel(distances.size(), cancel, progress, [&](std::size_t i) {
        double sum = 0.0;
        for (double theta : inv_freq)
            sum += std::cos(distances[i] * theta);
        out[i] = sum / half;
    });
    return out;
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
