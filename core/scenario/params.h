// SPDX-License-Identifier: GPL-3.0-or-later
// The Scenario: the method shown, every method's parameters, the content vectors and the sequence.
// Each method's parameter struct lives in its own folder (methods/<name>/<name>_params.h, or the
// method's header for the later ones: NoPE, xPos); this header includes those of the methods that the
// importers and views name. Validation of every field lives in one place: validation.h.
#pragma once

#include "methods/alibi/alibi_params.h"
#include "methods/cope/cope_params.h"
#include "methods/deberta/deberta_params.h"
#include "methods/learned/learned_params.h"
#include "methods/method.h"
#include "methods/param_set.h"
#include "methods/rope/rope_params.h"
#include "methods/shaw/shaw_params.h"
#include "methods/sinusoidal/sinusoidal_params.h"
#include "methods/t5/t5_params.h"
#include "methods/transformer_xl/transformer_xl_params.h"
#include "scenario/attention_span.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// Method (methods/method.h) names a method; its descriptor (methods/registry.h) says what it is.

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
    // A narrower causal mask (attention_span.h): a sliding window of window_span keys, or chunks of
    // window_span positions; Global: the causal mask alone. Only with `causal` (validation). Outside it
    // the logits of every method are masked (NaN) and the weights are 0.
    LayerAttention window = LayerAttention::Global;
    std::int64_t window_span = 64;
    // Llama 4's attention temperature (modeling_llama4.py Llama4TextAttention.forward, on its NoPE
    // layers): the query at position p is scaled by query_temperature(floor_scale, attn_scale, p), so
    // the logits of row p (and the weights' softmax) are scaled by it. Applied to the methods whose logits
    // are linear in the query alone: NoPE and RoPE (temperature_applies).
    bool attn_temperature_tuning = false;
    double floor_scale = 8192.0;
    double attn_scale = 0.1;

    template <typename P> P& params() { return m_params.get<P>(); }
    template <typename P> const P& params() const { return m_params.get<P>(); }

    bool operator==(const Scenario&) const = default;

private:
    ParamSet m_params;
};

// The scenario's mask (attention_span.h): may query position q attend to key position k? Every key when
// not causal; else k <= q, within the sliding window or the chunk when one is set.
bool mask_allows(const Scenario& s, std::int64_t q, std::int64_t k);

// True when the scenario's attention temperature scales its logits: tuning on, method NoPE or RoPE.
bool temperature_applies(const Scenario& s);
// The factor of the logits of query position q: query_temperature when temperature_applies, else 1.
double logit_temperature(const Scenario& s, std::int64_t q);

} // namespace posatlas
