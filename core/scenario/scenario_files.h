// SPDX-License-Identifier: GPL-3.0-or-later
// The files a scenario reads (the queries and keys, a method's trained tables) and a fingerprint of their
// contents: two scenarios equal as values (same paths) read the same data only when their fingerprints
// are equal too. Caches of computed results key by it, so that a file changed on disk at the same path
// is a new key.
#pragma once

#include "scenario/params.h"

#include <optional>
#include <string>
#include <vector>

namespace posatlas {

// The non-empty file paths among the scenario's own fields (queries, keys; unless !common) and, when
// `method` is given, that method's file fields (Field::path text fields: a learned table, T5's bias,
// Shaw's tables, ...).
std::vector<std::string> scenario_files(const Scenario& s, std::optional<Method> method, bool common = true);
// For each of those files its path, size, modification time and (up to 64 MiB) a 64-bit FNV-1a hash
// of its bytes, read once per size and modification time; a file that cannot be read says so. Equal
// strings: the same bytes (within the hash) at the same paths.
std::string scenario_files_fingerprint(const Scenario& s, std::optional<Method> method, bool common = true);

} // namespace posatlas
