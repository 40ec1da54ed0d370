// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/permutation.h"

#include <algorithm>
#include <map>

namespace posatlas {

std::optional<std::vector<std::int64_t>> token_permutation(const std::vector<std::string>& from,
                                                           const std::vector<std::string>& to)
{
    if (from.size() != to.size())
        return std::nullopt;
    // Each word's positions in `from`, in reading order; the permutation takes them one by one.
    std::map<std::string, std::vector<std::int64_t>> positions;
    for (std::size_t i = 0; i < from.size(); ++i)
        positions[from[i]].push_back(static_cast<std::int64_t>(i));
    std::map<std::string, std::size_t> used;
    std::vector<std::int64_t> p;
    p.reserve(to.size());
    for (const std::string& t : to) {
        const auto it = positions.find(t);
        std::size_t& n = used[t];
        if (it == positions.end() || n >= it->second.size())
            return std::nullopt;
        p.push_back(it->second[n++]);
    }
    return p; // same sizes and no word used too often: every position of `from` is taken once
}

std::vector<std::int64_t> inverse_permutation(const std::vector<std::int64_t>& p)
{
    std::vector<std::int64_t> inverse(p.size());
    for (std::size_t k = 0; k < p.size(); ++k)
        inverse[static_cast<std::size_t>(p[k])] = static_cast<std::int64_t>(k);
    return inverse;
}

std::vector<TokenMove> token_moves(const std::vector<std::string>& to, const std::vector<std::int64_t>& p)
{
    std::vector<TokenMove> moves;
    for (std::size_t k = 0; k < p.size() && k < to.size(); ++k)
        if (p[k] != static_cast<std::int64_t>(k))
            moves.push_back({to[k], p[k], static_cast<std::int64_t>(k)});
    std::sort(moves.begin(), moves.end(),
              [](const TokenMove& a, const TokenMove& b) { return a.from < b.from; });
    return moves;
}

} // namespace posatlas
