// SPDX-License-Identifier: GPL-3.0-or-later
// Counter-based pseudo-random numbers: value k of stream s under seed S is a pure function of
// (S, s, k). Any window of a seeded table (content vectors, learned embeddings) can therefore be
// generated on its own, in parallel, without materialising the rows before it, and the same seed
// gives the same numbers on every platform (no std::normal_distribution, whose output is
// implementation-defined).
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace posatlas::rng {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
constexpr std::uint64_t mix64(std::uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

constexpr std::uint64_t hash(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
{
    return mix64(mix64(mix64(seed) ^ stream) ^ index);
}

// Uniform in the open interval (0, 1), 53 random bits.
inline double uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
{
    return (static_cast<double>(hash(seed, stream, index) >> 11) + 0.5) * 0x1.0p-53;
}

// Standard normal by Box-Muller, both of its outputs: the pair of indices 2p and 2p + 1 shares
// u1 = uniform(4p), u2 = uniform(4p + 1) and is sqrt(-2 ln u1) (cos, sin)(2 pi u2), two independent
// normals for one logarithm and one square root. (Until 2026-12 every index drew its own pair and kept
// the cosine: the even indices give the same values as then, the odd ones are the sines now.) The
// logarithm, cosine and sine are PosAtlas's own (rng.cpp: series with IEEE operations only, no libm,
// compiled without contraction into FMA), so the same seed gives the same bits on every CPU and C
// library, and normals() below gives exactly these values in vectors. Accurate to a few units in the
// last place.
double normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

// out[i] = normal(seed, stream, first + i) for i in [0, count): the same values, bit for bit, computed
// eight or four to a vector (AVX-512 / AVX2 clones; the seeded content of 4096 positions x 128 took a
// quarter of the float32 RoPE logits job with libm's scalar log and cos).
void normals(std::uint64_t seed, std::uint64_t stream, std::uint64_t first, std::int64_t count, double* out);

// Stream ids, so that different tables drawn from one seed are independent.
enum Stream : std::uint64_t {
    kQueryContent = 1,
    kKeyContent = 2,
    kFixedContent = 3,
    kTokenContent = 4, // content.h: a token's seed is hash(seed, kTokenContent, FNV-1a of its text)
    kLearnedTable = 10,
    kShawKey = 20,
    kShawValue = 21,
    kTxlWq = 30,
    kTxlWkE = 31,
    kTxlWkR = 32,
    kTxlU = 33,
    kTxlV = 34,
    kT5Bias = 40,
    kDebertaRel = 50,
    kDebertaWq = 51,
    kDebertaWk = 52,
    kCopePos = 60,
    kEntropyQuery = 70, // attention_entropy.h: trial t uses stream kEntropyQuery + (t << 32)
    kEntropyKey = 71,   // attention_entropy.h: trial t uses stream kEntropyKey + (t << 32)
};

} // namespace posatlas::rng
