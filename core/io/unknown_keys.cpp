// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/unknown_keys.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <numeric>

namespace posatlas {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    // One row of the dynamic programme: row[j] = distance(a[0..i), b[0..j)).
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string nearest_key(std::string_view key, const std::vector<std::string>& valid)
{
    std::string best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const std::string& v : valid) {
        const std::size_t d = edit_distance(key, v);
        if (d < best_distance) {
            best_distance = d;
            best = v;
        }
    }
    const std::size_t allowed = std::max<std::size_t>(2, key.size() / 3);
    if (best.empty() || best_distance > allowed || best_distance >= key.size())
        return {};
    return best;
}

std::string unknown_key_message(const UnknownKey& k)
{
    std::string text = "unknown key " + k.key;
    if (!k.suggestion.empty())
        text += " (did you mean " + k.suggestion + "?)";
    return text;
}

void collect_unknown_keys(const nlohmann::json& obj, const std::vector<std::string>& valid,
                          const std::string& path, std::vector<UnknownKey>& out)
{
    if (!obj.is_object())
        return;
    for (const auto& [key, value] : obj.items())
        if (std::find(valid.begin(), valid.end(), key) == valid.end())
            out.push_back({path.empty() ? key : path + "." + key, nearest_key(key, valid)});
}

} // namespace posatlas
