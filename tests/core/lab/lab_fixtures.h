// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the lab's tests: a fresh folder per test and a small, fast configuration.
#pragma once

#include "lab/lab.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace posatlas::lab::testing {

inline std::string fresh_dir(const std::string& name)
{
    static std::mt19937_64 rng(std::random_device{}());
    const std::filesystem::path p =
        std::filesystem::temp_directory_path() / ("posatlas-lab-" + name + "-" + std::to_string(rng()));
    std::filesystem::remove_all(p);
    return p.string();
}

inline std::string file_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void put_bytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

// A model small enough to train in well under a second.
inline LabConfig tiny(const std::string& method, int steps = 20)
{
    LabConfig c;
    c.method = method;
    c.layers = 1;
    c.d_model = 16;
    c.heads = 2;
    c.mlp_ratio = 2;
    c.alphabet = 6;
    c.train_len = 12;
    c.steps = steps;
    c.batch = 8;
    c.warmup = 2;
    c.log_every = 5;
    c.checkpoint_every = 10;
    c.t5_num_buckets = 8;
    c.t5_max_distance = 16;
    c.cope_npos_max = 8;
    c.shaw_max_relative_position = 4; // clipped within the probes' 20 positions
    c.deberta_position_buckets = 8;   // log buckets past distance 4
    c.deberta_max_relative_positions = 16;
    c.xpos_scale_base = 16;
    return c;
}

} // namespace posatlas::lab::testing
