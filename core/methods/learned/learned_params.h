// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of learned absolute positions (BERT, GPT-2): one plain struct, its fields named after the
// Hugging Face config keys where one exists. Ranges, labels and command-line options are the method's
// registry fields (learned/ beside this file); a Scenario keeps one of these (s.params<LearnedParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string>

namespace posatlas {

struct LearnedParams {
    static constexpr Method kMethod = Method::Learned;

    int dim = 768;                     // hidden size
    std::int64_t trained_length = 512; // max_position_embeddings: rows of the table
    std::uint64_t seed = 0;            // seeded N(0, stddev) table when no file is given
    double stddev = 0.02;              // initializer_range of BERT / GPT-2
    std::string table_path;            // optional user table (.csv, .npy, .safetensors or a sharded
                                       // checkpoint's model.safetensors.index.json); overrides the seed
    std::string table_tensor;          // the tensor of a safetensors checkpoint ("" = the known name)

    bool operator==(const LearnedParams&) const = default;
};

} // namespace posatlas
