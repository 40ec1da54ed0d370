// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of T5's relative-position buckets: one plain struct, its fields named after the Hugging Face
// config keys where one exists. Ranges, labels and command-line options are the method's registry fields (t5/
// beside this file); a Scenario keeps one of these (s.params<T5Params>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string>

namespace posatlas {

struct T5Params {
    static constexpr Method kMethod = Method::T5;

    int num_buckets = 32;      // relative_attention_num_buckets
    int max_distance = 128;    // relative_attention_max_distance
    bool bidirectional = true; // encoder: true; decoder (causal): false
    int num_heads = 12;        // heads of the per-head bias table
    std::uint64_t seed = 0;    // seeded N(0, stddev) bias table [num_buckets x num_heads]
    double stddev = 1.0;
    std::string bias_path;   // optional trained table (.safetensors checkpoint or its index, .csv, .npy):
                             // num_buckets rows x num_heads columns; overrides the seed
    std::string bias_tensor; // the tensor of a checkpoint ("" = T5's encoder, else decoder, layer-0 bias)

    bool operator==(const T5Params&) const = default;
};

} // namespace posatlas
