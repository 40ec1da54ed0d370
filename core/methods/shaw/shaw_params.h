// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of Shaw et al. 2018 relative positions: one plain struct, its fields named after the Hugging
// Face config keys where one exists. Ranges, labels and command-line options are the method's registry fields
// (shaw/ beside this file); a Scenario keeps one of these (s.params<ShawParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string>

namespace posatlas {

struct ShawParams {
    static constexpr Method kMethod = Method::Shaw;

    int head_dim = 64;
    int max_relative_position = 16; // clip distance k: relative index clip(j - i, -k, k)
    std::uint64_t seed = 0;         // seeded N(0, stddev) tables a^K, a^V of 2k + 1 rows
    double stddev = 0.02;
    // Trained tables from files (methods/table_files.h), each replacing its stand-in; "" = seeded.
    std::string key_table, key_table_tensor;     // a^K: (2k + 1) x head_dim, row r + k = w^K_r
    std::string value_table, value_table_tensor; // a^V: the same shape

    bool operator==(const ShawParams&) const = default;
};

} // namespace posatlas
