// SPDX-License-Identifier: GPL-3.0-or-later
// Keys of a JSON object that the reader does not know (a typo such as "rope_thta" would otherwise be
// dropped silently and its value replaced by the default), with the nearest valid key at the same level
// by edit distance, so that a message can say "did you mean rope_theta?".
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

struct UnknownKey {
    std::string key;        // dotted, from the file's top: "scenario.rope.rope_thta"
    std::string suggestion; // the nearest valid key at that level ("rope_theta"); empty when none is close
};

// Levenshtein distance (insertions, deletions and substitutions cost 1), on bytes.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The valid key closest to `key`, when it is close enough to be a plausible typo: at most 2 edits, or a
// third of the key's length for longer keys, and fewer edits than the key has letters. Else "".
std::string nearest_key(std::string_view key, const std::vector<std::string>& valid);

// "unknown key scenario.rope.rope_thta (did you mean rope_theta?)", or "unknown key x" without a
// suggestion.
std::string unknown_key_message(const UnknownKey& k);

// Appends to `out` each key of the object `obj` (nothing when it is not an object) that is not in `valid`,
// named `path` + "." + key (key alone when `path` is empty), in the object's order.
void collect_unknown_keys(const nlohmann::json& obj, const std::vector<std::string>& valid,
                          const std::string& path, std::vector<UnknownKey>& out);

} // namespace posatlas
