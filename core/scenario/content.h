// SPDX-License-Identifier: GPL-3.0-or-later
// Content vectors: the "x" that positional information is added to or mixed with, so that the
// positional part of an attention logit can be seen apart from (or together with) content.
//   Ones:   q_i = k_j = (1, ..., 1)                   -> logits show the pure positional pattern
//   Zero:   q_i = k_j = 0                             -> only position-position terms survive (for
//           absolute encodings the classic p_i . p_j picture; relative methods that multiply content
//           by position, such as RoPE, give zero)
//   Fixed:  q_i = k_j = one seeded N(0,1) vector      -> a single "token" repeated
//   Random: q_i, k_j independent seeded N(0,1) vectors -> a random sequence
//   Text:   a sentence (ContentParams::text): position p holds token p, whose query and key vectors are
//           seeded N(0,1) vectors drawn from (seed, FNV-1a hash of the token's text): the same word gets
//           the same vectors at every position. Without positional information the attention weights
//           then permute exactly with the words (the permutation invariance of self-attention).
//   Files:  the user's own queries and keys (ContentParams::queries/keys, scenario/content_file.h): row p
//           of each file is position p; they take precedence over the kind, the seed and the text.
// Vectors are generated per position from core/scenario/rng.h, so any window of positions is produced
// without materialising the positions before it.
#pragma once

#include "scenario/params.h"

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// The query (or key) content vector of dimension `dim` at `position`.
Eigen::VectorXd content_query(const ContentParams& c, int dim, std::int64_t position);
Eigen::VectorXd content_key(const ContentParams& c, int dim, std::int64_t position);

// Rows = the given positions, cols = dim.
Eigen::MatrixXd content_queries(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions);
Eigen::MatrixXd content_keys(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions);

// out[t] = q . k_{a + t} for the keys at positions a .. b - 1 (q: dim entries), without the (b - a) x dim
// key matrix: rows generated a block at a time and multiplied while in cache. Parallel (OpenMP) when
// large. The same values as content_keys(c, dim, {a .. b - 1}) * q, to the rounding of the sums.
void content_key_dots(const ContentParams& c, int dim, std::int64_t a, std::int64_t b, const double* q,
                      double* out);

// The query (key = false) or key (key = true) content vector of `position` written into out[0 .. dim),
// without allocating: the inner loop of block sums over millions of positions.
void content_vector_into(const ContentParams& c, bool key, int dim, std::int64_t position, double* out);

// True when q_i and k_j do not depend on position (Ones, Fixed, no text, no files): then every relative
// method's logit depends on i - j only and the matrix is Toeplitz.
bool content_is_position_independent(const ContentParams& c);

// Most tokens a sentence may have (each is a position; the weights of a row are normalised over all).
inline constexpr std::int64_t kMaxTextTokens = 4096;

// The tokens of a sentence: whitespace-separated words, except that each CJK character (Han
// ideographs, kana, CJK and full-width punctuation) is a token of its own, so that unspaced Chinese
// ("今天天气很好") gives one token per character. UTF-8 aware; bytes that are not valid UTF-8 stay
// part of the word they are in.
std::vector<std::string> tokenize_text(std::string_view text);
// Sets c.text and c.tokens = tokenize_text(text).
void set_content_text(ContentParams& c, std::string text);
// 64-bit FNV-1a (Fowler, Noll, Vo; offset basis 14695981039346656037, prime 1099511628211) of the
// bytes: the same on every platform, unlike std::hash.
std::uint64_t fnv1a64(std::string_view bytes);

} // namespace posatlas
