// SPDX-License-Identifier: GPL-3.0-or-later
// Box-Muller normals (rng.h) from IEEE operations only: +, -, *, /, sqrt, exact conversions and bit
// manipulation, each correctly rounded, in an order fixed by this file. The file is compiled with
// -ffp-contract=off (core/CMakeLists.txt): no a*b+c is fused into an FMA in one clone and not in
// another, so the scalar normal() and every clone of normals() give the same bits on every x86-64.
#include "scenario/rng.h"

#include "compute/clones.h"
#include "compute/exact_angle.h" // CosSin

#include <array>
#include <cstddef>
#include <cstring>

namespace posatlas::rng {
namespace {

// c[0] z^(N-1) + ... + c[N-1] by Horner's rule (unrolled; the same operations in every clone).
template <std::size_t N> inline double horner(double z, const std::array<double, N>& c)
{
    double p = c[0];
    for (std::size_t i = 1; i < N; ++i)
        p = p * z + c[i];
    return p;
}

inline double bits_to_double(std::uint64_t b)
{
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
}

inline std::uint64_t double_to_bits(double d)
{
    std::uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

// (double)x for x < 2^53, exactly, without an int64 -> double conversion instruction (AVX2 has none):
// the two 32-bit halves placed in the mantissas of 2^52 and 2^84, each exact, and one exact sum.
inline double exact_double(std::uint64_t x)
{
    const double lo = bits_to_double(0x4330000000000000ULL | (x & 0xffffffffULL)) - 0x1.0p52;
    const double hi = bits_to_double(0x4530000000000000ULL | (x >> 32)) - 0x1.0p84;
    return hi + lo;
}

// uniform() of rng.h, the same value: (top 53 bits of the hash + 1/2) 2^-53.
inline double uniform_of(std::uint64_t stream_key, std::uint64_t index)
{
    return (exact_double(mix64(stream_key ^ index) >> 11) + 0.5) * 0x1.0p-53;
}

// ln u for u in (0, 1) (normal, as every uniform is: u >= 2^-54). u = f 2^e with f in [sqrt(1/2),
// sqrt(2)); ln f = 2 atanh(s), s = (f - 1) / (f + 1), |s| <= 0.1716, by its series to s^21 (the next
// term is below 2^-56 of the sum); e ln 2 with ln 2 split so that e ln2_hi is exact (Cody & Waite).
inline double log_unit(double u)
{
    const std::uint64_t b = double_to_bits(u);
    double f = bits_to_double((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL); // [1, 2)
    const bool high = f > 1.4142135623730951;
    f = high ? f * 0.5 : f;
    const double de = exact_double(b >> 52) - (high ? 1022.0 : 1023.0); // the exponent e, exactly
    const double s = (f - 1.0) / (f + 1.0);
    const double z = s * s;
    // 1/3 + z/5 + ... + z^9/21: 2 atanh(s) = 2 s + 2 s z p.
    constexpr std::array<double, 10> kAtanh = {1.0 / 21.0, 1.0 / 19.0, 1.0 / 17.0, 1.0 / 15.0, 1.0 / 13.0,
                                               1.0 / 11.0, 1.0 / 9.0,  1.0 / 7.0,  1.0 / 5.0,  1.0 / 3.0};
    const double p = horner(z, kAtanh);
    const double ln_f = 2.0 * s + 2.0 * s * z * p;
    constexpr double kLn2Hi = 6.93147180369123816490e-01; // 0x3fe62e42fee00000: 32 significant bits
    constexpr double kLn2Lo = 1.90821492927058770002e-10; // ln 2 - kLn2Hi
    return de * kLn2Hi + (ln_f + de * kLn2Lo);
}

// cos(2 pi u) and sin(2 pi u) for u in (0, 1): t = 4u (exact), q = nearest integer to t, r = t - q in
// [-1/2, 1/2] (exact), y = r pi / 2 in [-pi/4, pi/4]; 2 pi u = q pi/2 + y, so each is +-cos y or +-sin y
// by q. Taylor series to y^16 and y^17 (the next terms are below 2^-58).
inline CosSin cos_sin_two_pi(double u)
{
    const double t = 4.0 * u;
    const double q = static_cast<double>(static_cast<int>(t + 0.5)); // t >= 0: rounds half up
    const double y = (t - q) * 1.5707963267948966;
    const double z = y * y;
    // cos y = sum (-1)^n z^n / (2n)!, n <= 8; sin y = y + y z sum (-1)^(n+1) z^n / (2n + 3)!, n <= 7.
    constexpr std::array<double, 9> kCos = {1.0 / 20922789888000.0,
                                            -1.0 / 87178291200.0,
                                            1.0 / 479001600.0,
                                            -1.0 / 3628800.0,
                                            1.0 / 40320.0,
                                            -1.0 / 720.0,
                                            1.0 / 24.0,
                                            -0.5,
                                            1.0};
    constexpr std::array<double, 8> kSin = {
        1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0, -1.0 / 39916800.0,
        1.0 / 362880.0,          -1.0 / 5040.0,          1.0 / 120.0,        -1.0 / 6.0};
    const double c = horner(z, kCos);
    const double s = y + y * z * horner(z, kSin);
    // q = 0: (cos y, sin y), 1: (-sin y, cos y), 2: (-cos y, -sin y), 3: (sin y, -cos y), 4: as 0.
    const int k = static_cast<int>(q);
    const bool odd = (k & 1) != 0;
    const double vc = odd ? s : c, vs = odd ? c : s;
    return {((k + 1) & 2) != 0 ? -vc : vc, (k & 2) != 0 ? -vs : vs};
}

// The pair 2p, 2p + 1 (rng.h): even = r cos(2 pi u2), odd = r sin(2 pi u2).
inline void normal_pair(std::uint64_t stream_key, std::uint64_t p, double& even, double& odd)
{
    const double u1 = uniform_of(stream_key, 4 * p);
    const double u2 = uniform_of(stream_key, 4 * p + 1);
    const double r = std::sqrt(-2.0 * log_unit(u1));
    const CosSin z = cos_sin_two_pi(u2);
    even = r * z.c;
    odd = r * z.s;
}

inline double normal_at(std::uint64_t stream_key, std::uint64_t index)
{
    double even, odd;
    normal_pair(stream_key, index / 2, even, odd);
    return (index & 1) != 0 ? odd : even;
}

inline std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream)
{
    return mix64(mix64(seed) ^ stream);
}

// Whole pairs in the vector loop (one logarithm, root, sine and cosine for two values); an odd first
// index or a last index that is even are the halves of pairs, taken from normal_at.
POSATLAS_CLONES void normals_loop(std::uint64_t key, std::uint64_t first, std::int64_t count, double* out)
{
    if (count <= 0)
        return;
    std::int64_t i = 0;
    if ((first & 1) != 0) {
        out[0] = normal_at(key, first);
        i = 1;
    }
    const std::int64_t pairs = (count - i) / 2;
    const std::uint64_t p0 = (first + static_cast<std::uint64_t>(i)) / 2;
    double* o = out + i;
#pragma omp simd
    for (std::int64_t t = 0; t < pairs; ++t)
        normal_pair(key, p0 + static_cast<std::uint64_t>(t), o[2 * t], o[2 * t + 1]);
    if (i + 2 * pairs < count)
        out[count - 1] = normal_at(key, first + static_cast<std::uint64_t>(count - 1));
}

} // namespace

double normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
{
    return normal_at(stream_key(seed, stream), index);
}

void normals(std::uint64_t seed, std::uint64_t stream, std::uint64_t first, std::int64_t count, double* out)
{
    normals_loop(stream_key(seed, stream), first, count, out);
}

} // namespace posatlas::rng
