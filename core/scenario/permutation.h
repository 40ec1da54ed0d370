// SPDX-License-Identifier: GPL-3.0-or-later
// Which position of one sentence each token of its permutation came from: the mapping behind the
// side-by-side view of a sentence and its permutation (ContentParams::permuted) and behind the
// permutation equivariance of attention without positions (Vaswani et al. 2017, eq. 1: for a permutation
// matrix P, softmax((PQ)(PK)^T / sqrt(d)) = P softmax(QK^T / sqrt(d)) P^T, so NoPE's row k of the permuted
// sentence is row from[k] of the original, its columns permuted likewise).
//
// Tokens are matched by their text (the same word has the same query and key vectors, content.h). A word
// that occurs several times is matched occurrence by occurrence in reading order: the n-th "the" of the
// permutation is the n-th "the" of the sentence. Any matching of equal words gives the same numbers; this
// one is deterministic and keeps repeated words in their order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace posatlas {

// For each position k of `to`, the position in `from` of the same token; nullopt when `to` is not a
// permutation of `from` (another number of tokens, another word, or a word another number of times).
std::optional<std::vector<std::int64_t>> token_permutation(const std::vector<std::string>& from,
                                                           const std::vector<std::string>& to);

// The inverse of a permutation p (p[inverse[i]] == i).
std::vector<std::int64_t> inverse_permutation(const std::vector<std::int64_t>& p);

// A token that moved: it stands at `from` in the sentence and at `to` in its permutation.
struct TokenMove {
    std::string token;
    std::int64_t from = 0, to = 0;
    bool operator==(const TokenMove&) const = default;
};
// The tokens of `to` whose position differs from the one they came from (p = token_permutation(from, to)),
// in the order of `from`.
std::vector<TokenMove> token_moves(const std::vector<std::string>& to, const std::vector<std::int64_t>& p);

} // namespace posatlas
