// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute/attention_logits.h"

#include "compute/clones.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace posatlas {

// finite_extremes (attention_logits.h), split over threads and in 64-byte vectors (GCC's vector
// extensions: one AVX-512 register, two AVX2 or four SSE2 ones, per clone): the compiler does not
// vectorise a floating-point min / max reduction by itself, and a serial loop that stores both running
// extremes to memory on every cell is a large share of a 4096 x 4096 RoPE job. One body for
// double and float results. (GCC 12 does not build vector types of a template parameter, hence the
// two spelled-out Lanes.)
namespace {
template <typename T> struct Lanes;
template <> struct Lanes<double> {
    using Vec = double __attribute__((vector_size(64)));
    using VecBits = std::int64_t __attribute__((vector_size(64)));
    using Bits = std::int64_t;
};
template <> struct Lanes<float> {
    using Vec = float __attribute__((vector_size(64)));
    using VecBits = std::int32_t __attribute__((vector_size(64)));
    using Bits = std::int32_t;
};

// One part, serially, in vectors; lo and hi are updated.
template <typename T>
[[gnu::always_inline]] inline void extremes_lanes(const T* v, std::int64_t n, T& lo, T& hi)
{
    using Vec = typename Lanes<T>::Vec;
    using VecBits = typename Lanes<T>::VecBits;
    using Bits = typename Lanes<T>::Bits;
    constexpr std::int64_t kLanes = 64 / sizeof(T);
    constexpr T inf = std::numeric_limits<T>::infinity();
    const Vec vinf = Vec{} + inf;
    const Vec vbig = Vec{} + std::numeric_limits<T>::max();
    const VecBits no_sign = VecBits{} + std::numeric_limits<Bits>::max();
    Vec l = vinf, h = -vinf;
    for (std::int64_t b = 0; b < n / kLanes; ++b) {
        Vec x;
        std::memcpy(&x, v + b * kLanes, sizeof x);
        VecBits bits;
        std::memcpy(&bits, &x, sizeof bits);
        bits &= no_sign;
        Vec magnitude;
        std::memcpy(&magnitude, &bits, sizeof magnitude);
        const VecBits finite = magnitude <= vbig; // false for NaN and +-inf
        const Vec a = finite ? x : vinf, c = finite ? x : -vinf;
        l = a < l ? a : l;
        h = c > h ? c : h;
    }
    for (std::int64_t k = 0; k < kLanes; ++k) {
        lo = std::min(lo, l[k]);
        hi = std::max(hi, h[k]);
    }
    for (std::int64_t i = n / kLanes * kLanes; i < n; ++i)
        if (std::isfinite(v[i])) {
            lo = std::min(lo, v[i]);
            hi = std::max(hi, v[i]);
        }
}

// The vector loop lives in these cloned functions (an OpenMP region inside a template would be
// outlined for the default target and lose the clones' vector width: 25 % of the float32 RoPE job).
POSATLAS_CLONES void extremes_part(const double* v, std::int64_t n, double& lo, double& hi)
{
    extremes_lanes(v, n, lo, hi);
}
POSATLAS_CLONES void extremes_part(const float* v, std::int64_t n, float& lo, float& hi)
{
    extremes_lanes(v, n, lo, hi);
}

template <typename T> bool finite_extremes_parts(const T* v, std::int64_t n, double& lo_out, double& hi_out)
{
    constexpr std::int64_t kPart = std::int64_t{1} << 18;
    const std::int64_t parts = (n + kPart - 1) / kPart;
    T lo = std::numeric_limits<T>::infinity(), hi = -lo;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi) if (parts > 1)
    for (std::int64_t p = 0; p < parts; ++p)
        extremes_part(v + p * kPart, std::min(kPart, n - p * kPart), lo, hi);
    lo_out = lo;
    hi_out = hi;
    return lo <= hi;
}

} // namespace

bool finite_extremes(const double* v, std::int64_t n, double& lo, double& hi)
{
    return finite_extremes_parts(v, n, lo, hi);
}

bool finite_extremes(const float* v, std::int64_t n, double& lo, double& hi)
{
    return finite_extremes_parts(v, n, lo, hi);
}

} // namespace posatlas
