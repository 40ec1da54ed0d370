// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's model in LibTorch (included only by lab/*_torch.cpp): parameters by name (the names of
// model.safetensors), the positional constants of one length computed by core, and the forward pass.
#pragma once

#include "lab/lab.h"

#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

namespace posatlas::lab {

// What a forward at one length needs of the positional encoding, computed in double by core's code and
// cast to the model's dtype.
struct Positional {
    std::int64_t length = 0;
    torch::Tensor cos, sin;         // rope, xpos: [L, pairs] (RoPE: times attention_factor)
    torch::Tensor q_scale, k_scale; // xpos: [L, pairs]
    torch::Tensor to_layout;        // rope, xpos: [pair-first | pair-second | pass] -> head layout
    torch::Tensor first, second;    // rope, xpos: the components of each pair
    int rotary_dim = 0;
    double softmax_scale = 1.0; // RoPE: f.softmax_scale
    torch::Tensor alibi;        // [H, L, L]
    torch::Tensor buckets;      // t5: [L * L] int64, bucket(j - i) of (i, j)
    torch::Tensor absolute;     // sinusoidal: [L, d_model]
    torch::Tensor causal;       // [L, L] bool, true where j > i
    // The relative methods (lab_relative_torch.cpp), each [L, L] int64 of (i, j):
    torch::Tensor shaw_rows;   // shaw: clip(j - i, -k, k) + k, the row of a^K and a^V
    torch::Tensor txl_rows;    // transformer-xl: max(i - j, 0), the row of txl_r (j > i is masked)
    torch::Tensor txl_r;       // transformer-xl: [L, d_model] R_m, m = 0 .. L - 1
    torch::Tensor deberta_c2p; // deberta: the row of K^r that c2p reads
    torch::Tensor deberta_p2c; // deberta: the row of Q^r that p2c reads
};

Positional make_positional(const LabConfig& c, std::int64_t length, const TestScaling& scaling,
                           torch::Dtype dtype);
// The relative methods' part of make_positional (their rows and R from core's code).
void relative_positional(Positional& p, const LabConfig& c, std::int64_t length, torch::Dtype dtype);

struct Model {
    LabConfig config;
    torch::Dtype dtype = torch::kFloat32;
    std::vector<std::pair<std::string, torch::Tensor>> params; // in a fixed order

    torch::Tensor& at(const std::string& name);
    // The shapes every parameter has for a config, by name.
    static std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes(const LabConfig& c);
    // Seeded initialisation (torch::manual_seed(c.seed) first).
    static Model init(const LabConfig& c, torch::Dtype dtype = torch::kFloat32);

    // tokens [B, L] int64 -> logits [B, L, vocab]. With `probe`, layer probe_layer's per-head queries and
    // keys before the positional step and its scores (of sequence 0) are stored there. With
    // `entropy_sums` (one per layer), each layer's attention entropy -sum_j p_j ln p_j (nats, 0 ln 0 = 0)
    // summed over the batch, the heads and the query positions is added to its entry.
    torch::Tensor forward(const torch::Tensor& tokens, const Positional& pos,
                          std::vector<HeadProbe>* probe = nullptr, int probe_layer = 0,
                          std::vector<double>* entropy_sums = nullptr);
};

// The pre-softmax scores of layer `layer` for shaw, transformer-xl and deberta from the per-head queries
// and keys q, k [B, H, L, dh] (their logit definitions in core: shaw_logit, txl_logit_terms scaled by
// 1/sqrt(dh), deberta_logit_terms), and Shaw's value term sum_j alpha_ij a^V_{clip(j-i)} [B, H, L, dh]
// (shaw_output; an undefined tensor for the other methods).
torch::Tensor relative_scores(Model& m, int layer, const torch::Tensor& q, const torch::Tensor& k,
                              const Positional& pos);
torch::Tensor relative_values(Model& m, int layer, const torch::Tensor& weights, const Positional& pos);
bool relative_method(const std::string& method);

// Cross-entropy (mean, nats) and the correct count over the answer tokens of one batch: what training
// minimises and evaluation reports (for lm every position is an answer: the loss whose exp is the
// perplexity).
struct BatchLoss {
    torch::Tensor loss;
    double correct = 0.0, answers = 0.0;
};
BatchLoss answer_loss(const torch::Tensor& logits, const TaskBatch& b);

// Tensors <-> model.safetensors (F32), through core's writer and reader.
void save_weights(const Model& m, const std::string& path, int step);
Model load_weights(const LabConfig& c, const std::string& path);

} // namespace posatlas::lab
