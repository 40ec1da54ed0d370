// SPDX-License-Identifier: GPL-3.0-or-later
// The parameters of DeBERTa v2/v3's disentangled attention: one plain struct, its fields named after the
// Hugging Face config keys where one exists. Ranges, labels and command-line options are the method's
// registry fields (deberta/ beside this file); a Scenario keeps one of these (s.params<DebertaParams>()).
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string>

namespace posatlas {

struct DebertaParams {
    static constexpr Method kMethod = Method::DeBERTa;

    int head_dim = 64;
    int position_buckets = 256;       // 0 or negative: no log buckets (plain clipped relative)
    int max_relative_positions = 512; // -1 in HF means max_position_embeddings
    bool c2p = true;                  // content-to-position term (pos_att_type "c2p")
    bool p2c = true;                  // position-to-content term (pos_att_type "p2c")
    std::uint64_t seed = 0;
    double stddev = 0.02;
    // Trained tables from files (methods/table_files.h), each replacing its stand-in; "" = seeded.
    std::string rel_embeddings, rel_embeddings_tensor; // 2 att_span x e (e = hidden size of a checkpoint)
    std::string pos_key_proj, pos_key_proj_tensor;     // W_k: head_dim x e
    std::string pos_query_proj, pos_query_proj_tensor; // W_q: head_dim x e

    bool operator==(const DebertaParams&) const = default;
};

} // namespace posatlas
