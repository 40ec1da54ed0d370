// SPDX-License-Identifier: GPL-3.0-or-later
// Plain parameter structs for every positional-encoding method, and the Scenario that bundles them.
// Field names follow the Hugging Face config keys where such a key exists, so that a model's
// config.json, the command line (--rope-theta) and the GUI all speak the same names.
// Validation of every field lives in one place: validation.h.
#pragma once

#include "methods/method.h"
#include "methods/param_set.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// Method (methods/method.h) names a method; its descriptor (methods/registry.h) says what it is.

// ---------------------------------------------------------------- sinusoidal
enum class SinusoidalLayout {
    Interleaved, // PE[p, 2i] = sin, PE[p, 2i+1] = cos (Vaswani et al.; Annotated Transformer)
    Split,       // [sin ... | cos ...] halves (tensor2tensor get_timing_signal_1d)
};
struct SinusoidalParams {
    int dim = 512;         // d_model; even, >= 2
    double base = 10000.0; // the 10000 of the paper; > 1
    SinusoidalLayout layout = SinusoidalLayout::Interleaved;

    bool operator==(const SinusoidalParams&) const = default;
};

// ---------------------------------------------------------------- learned absolute
struct LearnedParams {
    int dim = 768;                     // hidden size
    std::int64_t trained_length = 512; // max_position_embeddings: rows of the table
    std::uint64_t seed = 0;            // seeded N(0, stddev) table when no file is given
    double stddev = 0.02;              // initializer_range of BERT / GPT-2
    std::string table_path;            // optional user table (.csv, .npy, .safetensors or a sharded
                                       // checkpoint's model.safetensors.index.json); overrides the seed
    std::string table_tensor;          // the tensor of a safetensors checkpoint ("" = the known name)

    bool operator==(const LearnedParams&) const = default;
};

// ---------------------------------------------------------------- Shaw et al. 2018
struct ShawParams {
    int head_dim = 64;
    int max_relative_position = 16; // clip distance k: relative index clip(j - i, -k, k)
    std::uint64_t seed = 0;         // seeded N(0, stddev) tables a^K, a^V of 2k + 1 rows
    double stddev = 0.02;
    // Trained tables from files (methods/table_files.h), each replacing its stand-in; "" = seeded.
    std::string key_table, key_table_tensor;     // a^K: (2k + 1) x head_dim, row r + k = w^K_r
    std::string value_table, value_table_tensor; // a^V: the same shape

    bool operator==(const ShawParams&) const = default;
};

// ---------------------------------------------------------------- Transformer-XL / XLNet
struct TransformerXLParams {
    int head_dim = 64; // d of the sinusoid R_{i-j}
    double base = 10000.0;
    std::uint64_t seed = 0; // seeded projections W_{k,R} and biases u, v
    double stddev = 0.02;
    // Which of the four terms of Dai et al. eq. (3) enter the logit.
    bool term_a = true; // content x content      q_i W_q^T W_{k,E} x_j
    bool term_b = true; // content x position     q_i W_q^T W_{k,R} R_{i-j}
    bool term_c = true; // global content bias    u^T W_{k,E} x_j
    bool term_d = true; // global position bias   v^T W_{k,R} R_{i-j}
    // Trained tables from files (methods/table_files.h), each replacing its stand-in; "" = seeded.
    std::string r_net, r_net_tensor;       // W_{k,R}: head_dim x e, e (even) the dimension of R_{i-j}
    std::string r_w_bias, r_w_bias_tensor; // u: head_dim values
    std::string r_r_bias, r_r_bias_tensor; // v: head_dim values

    bool operator==(const TransformerXLParams&) const = default;
};

// ---------------------------------------------------------------- T5 buckets
struct T5Params {
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

// ---------------------------------------------------------------- DeBERTa v2/v3
struct DebertaParams {
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

// ---------------------------------------------------------------- RoPE and its scalings
enum class RopeType { Default, Linear, Ntk, Dynamic, Yarn, Llama3, LongRope };
// "default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope"
std::string_view rope_type_id(RopeType t);
// Accepts the ids above and the legacy aliases of HF configs: "su" -> longrope,
// "mrope" -> default (multimodal sections share the default frequencies), "ntk-aware" -> ntk.
std::optional<RopeType> parse_rope_type(std::string_view id);

enum class RopePairing {
    Interleaved, // pairs (2i, 2i+1): RoFormer, GPT-J, Meta's Llama reference code
    Half,        // pairs (i, i + d/2): GPT-NeoX, Hugging Face rotate_half
};

struct RopeParams {
    int head_dim = 128;                 // head_dim, or hidden_size / num_attention_heads
    double rope_theta = 10000.0;        // base
    double partial_rotary_factor = 1.0; // rotary_dim = int(head_dim * partial_rotary_factor)
    RopeType rope_type = RopeType::Default;
    RopePairing pairing = RopePairing::Half;
    double factor = 1.0;                               // scaling factor s
    std::int64_t max_position_embeddings = 2048;       // the model's (possibly extended) context
    std::int64_t original_max_position_embeddings = 0; // trained context; 0: same as max_position_embeddings
    std::int64_t seq_len = 0;                          // current length for dynamic NTK / longrope; 0: none
    // YaRN
    double beta_fast = 32.0;
    double beta_slow = 1.0;
    std::optional<double> mscale;
    std::optional<double> mscale_all_dim;
    std::optional<double> attention_factor; // explicit override (yarn, longrope)
    // DeepSeek-V2/V3 attention (yarn only): the softmax scale 1/sqrt(d) is also multiplied by
    // get_mscale(factor, mscale_all_dim)^2, beside the attention factor on cos and sin (rope_scaling.h,
    // RopeFrequencies::softmax_scale). Needs mscale_all_dim set and non-zero.
    bool softmax_mscale = false;
    bool truncate = true;
    // Llama 3
    double low_freq_factor = 1.0;
    double high_freq_factor = 4.0;
    // LongRoPE: one factor per rotary pair (rotary_dim / 2 values)
    std::vector<double> short_factor;
    std::vector<double> long_factor;

    int rotary_dim() const { return static_cast<int>(head_dim * partial_rotary_factor); }
    std::int64_t trained_length() const
    {
        return original_max_position_embeddings > 0 ? original_max_position_embeddings
                                                    : max_position_embeddings;
    }

    bool operator==(const RopeParams&) const = default;
};

// ---------------------------------------------------------------- ALiBi
enum class AlibiBias {
    Causal,    // -m (i - j) for j <= i (Press et al.)
    Symmetric, // -m |i - j| (bidirectional encoders, e.g. MPT with alibi and prefix-lm)
};
enum class AlibiScaling {
    None,
    Interpolate, // m' = m * L_train / L_target (Al-Khateeb et al. 2023, "Position Interpolation Improves
                 // ALiBi Extrapolation")
    Ntk,         // NTK-ALiBi (see alibi.h for the formula and its source)
};
struct AlibiParams {
    int num_heads = 8;
    double slope_scale = 1.0; // multiplies every slope (exploration knob; 1 = reference)
    AlibiBias bias = AlibiBias::Causal;
    AlibiScaling scaling = AlibiScaling::None;
    std::int64_t trained_length = 2048; // for Interpolate / Ntk
    std::int64_t target_length = 2048;  // for Interpolate / Ntk
    // Per-head slopes m_h chosen by the user for heads 0 .. size-1 (the later heads keep the paper's);
    // empty: every head has the paper's slope. At most num_heads entries. The scaling and slope_scale
    // apply to them as to the paper's (alibi.h).
    std::vector<double> slopes;

    bool operator==(const AlibiParams&) const = default;
};

// ---------------------------------------------------------------- CoPE
struct CopeParams {
    int head_dim = 64;
    int npos_max = 64; // number of position embeddings e[0..npos_max-1]; positions clamp to npos_max - 1
    double gate_scale = 1.0; // multiplies q.k inside the sigmoid (teaching knob; 1 = reference)
    std::uint64_t seed = 0;  // seeded position embeddings
    double stddev = 0.02;
    std::string pos_emb, pos_emb_tensor; // trained e[r] from a file: npos_max x head_dim ("" = seeded)

    bool operator==(const CopeParams&) const = default;
};

// ---------------------------------------------------------------- content vectors
enum class ContentKind {
    Ones,   // every position's query and key is the all-ones vector
    Zero,   // no content at all: only the positional terms remain (p_i . p_j for absolute methods)
    Fixed,  // one seeded random vector, repeated at every position
    Random, // seeded N(0, 1) vectors, independent per position (query and key differ)
};
// Queries or keys read from a file (scenario/content_file.h): N x d, one row per position. `data` is the
// loaded matrix, shared and immutable, filled by resolve_content_files() (a cache keyed by path, tensor and
// modification time); it is not part of the value: two references to the same file compare equal.
struct ContentMatrix;
struct ContentFile {
    std::string path;   // "" = none
    std::string tensor; // the tensor of a .safetensors file (required there); "" for .npy / .csv
    std::shared_ptr<const ContentMatrix> data;

    bool empty() const { return path.empty(); }
    bool operator==(const ContentFile& o) const { return path == o.path && tensor == o.tensor; }
};

struct ContentParams {
    ContentKind kind = ContentKind::Ones;
    std::uint64_t seed = 0;
    // A sentence typed by the user (empty: none). When it has tokens, position p is token p: its query
    // and key vectors are seeded from the token's text and `seed` (the same word, the same vectors), the
    // content kind is not used, and the scenario's seq_len is the number of tokens. Set both with
    // set_content_text (scenario/content.h), which keeps `tokens` the tokenization of `text`.
    std::string text;
    std::vector<std::string> tokens;
    // A second sentence shown beside the first (empty: none), normally the same words in another order:
    // the heatmap then draws both with each word's rows linked (scenario/permutation.h). It changes no
    // number of the scenario itself.
    std::string permuted;
    // The user's own queries and keys (both or neither): they replace kind, seed and text for every
    // method; position p is row p of each file.
    ContentFile queries;
    ContentFile keys;

    bool from_files() const { return !queries.empty() || !keys.empty(); }
    bool operator==(const ContentParams&) const = default;
};
std::string_view content_kind_id(ContentKind k); // "ones", "zero", "fixed", "random"
std::optional<ContentKind> parse_content_kind(std::string_view id);

// ---------------------------------------------------------------- scenario
// Everything needed to reproduce one picture: the method, every method's parameters (so that
// switching methods keeps each one's settings), the content vectors and the sequence length.
// A method's parameters are read and written as s.params<RopeParams>().
struct Scenario {
    Method method = Method::RoPE;
    std::int64_t seq_len = 256; // positions shown (N)
    int head = 0;               // head shown for per-head methods
    ContentParams content;
    // A decoder's mask: keys after the query get attention weight 0. The logits keep the method's own
    // mask (ALiBi's, CoPE's, xPos's), which the weights honour as well; a method without one of its own
    // (NoPE: MethodDescriptor::logits_follow_causal) takes this switch for its logits too.
    bool causal = false;

    template <typename P> P& params() { return m_params.get<P>(); }
    template <typename P> const P& params() const { return m_params.get<P>(); }

    bool operator==(const Scenario&) const = default;

private:
    ParamSet m_params;
};

} // namespace posatlas
