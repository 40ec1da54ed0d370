// SPDX-License-Identifier: GPL-3.0-or-later
// The context-extension explorer's computations, all done by core/ (rope_compare.h, rope_scaling.h,
// decay.h, attention_entropy.h) off the GUI thread. Three jobs, each a slot of the explorer window's
// JobTracker (job_tracker.h): the per-variant tables (pairs, temperatures, decay and score curves), the
// dynamic-NTK frequencies at the slider's length (cheap, follows the slider live) and the attention
// entropy (cancelled whenever its inputs change; its curves are cached per variant, EntropyCache). A result
// that is no longer the newest of its job is dropped; the GUI thread never waits.
#pragma once

#include "analysis/attention_entropy.h"
#include "analysis/rope_compare.h"
#include "explorer/explorer_model.h"
#include "scenario/types.h"

#include <QStringList>

#include <mutex>
#include <optional>

namespace posatlas::ui {

// A snapshot of the explorer's state, copied into the worker.
struct ExplorerInput {
    RopeParams model;
    QString model_name;
    std::vector<ExplorerVariant> variants;
    std::int64_t trained = 0; // L = model.trained_length()
    std::int64_t target = 0;
    std::int64_t current = 0; // dynamic-NTK slider
    std::uint64_t seed = 0;   // entropy content
    int trials = 0;           // entropy trials; 0: entropy_trials(entropy_content)
    EntropyContent entropy_content = EntropyContent::RepeatedToken;
    // A length-dependent scale of the last query (query_scale.h), beside the variants' temperatures: Qwen's
    // log-n on every variant's curve; Llama 4's temperature on a NoPE layer's curve (that model applies
    // it on its NoPE layers only).
    QueryScale query_scale;
};
ExplorerInput explorer_input(const ExplorerModel& model);

// Frequencies of a variant at current length seq_len (0: none): compute_rope_frequencies, or
// compute_yarn_llamacpp for VariantKind::YarnLlamaCpp.
RopeFrequencies variant_frequencies(const ExplorerVariant& v, std::int64_t seq_len);
// Core's per-pair table of the variant (v.params with seq_len 0): rope_pairs, or for YarnLlamaCpp
// yarn_llamacpp_pairs (llama.cpp's frequencies, the same rows; rope_compare.h).
RopePairsTable variant_pairs(const ExplorerVariant& v, std::int64_t trained, std::int64_t target);
// "28/29: λ 1956 | 2339 (kept → blended)" for every boundary between two runs of a table.
QStringList boundary_labels(const RopePairsTable& table);
QString regime_name(PairRegime regime); // translated "kept", "interpolated", "blended"

struct VariantResult {
    ExplorerVariant variant;
    QString error; // non-empty: this variant's parameters are invalid; nothing else is valid
    RopePairsTable table;
    TemperatureInfo temperature;
    std::vector<double> decay_bound; // rope_decay_bound over ExplorerTables::distances
    std::vector<double> score;       // rope_score_vs_distance over ExplorerTables::distances
};

struct ExplorerTables {
    QString model_name;
    std::int64_t trained = 0, target = 0;
    int head_dim = 0;
    RopePairsTable unscaled; // the model's unscaled frequencies (the reference of every ratio)
    YarnThresholds yarn;     // of the first YaRN variant, else of the model with beta 32 / 1
    bool yarn_from_variant = false;
    std::vector<VariantResult> variants;
    std::vector<double> distances; // log-spaced 0 .. target
    // Temperature formulas over the factor s as multipliers of the logits (attention_temperature of a
    // YaRN configuration of the model with factor s): YaRN 1/t = (0.1 ln s + 1)^2, LongRoPE's factor
    // squared, DeepSeek's ratio squared times, when its attention multiplies the softmax scale
    // (softmax_mscale), get_mscale(s, mscale_all_dim)^2 (when some variant or the model sets mscale and
    // mscale_all_dim, with those values).
    std::vector<double> s, yarn_logit, longrope_logit, deepseek_logit;
    std::optional<double> deepseek_mscale, deepseek_mscale_all_dim;
    bool deepseek_softmax = false;
};
ExplorerTables compute_explorer_tables(const ExplorerInput& in, const CancelFn& cancel = {});

struct DynamicEntry {
    ExplorerVariant variant; // slot -1: the probe dynamic NTK added when no variant is dynamic
    QString error;
    RopeFrequencies frequencies; // at seq_len = current
};
struct DynamicResult {
    std::int64_t current = 0, trained = 0;
    std::vector<DynamicEntry> entries;
};
DynamicResult compute_explorer_dynamic(const ExplorerInput& in);

struct EntropyResult {
    EntropyContent content = EntropyContent::RepeatedToken;
    int trials = 0;
    std::vector<std::int64_t> lengths;
    QueryScale query_scale; // what with_query_scale was computed with
    struct Curve {
        QString label;
        int slot = 0;                  // kNopeSlot: the NoPE layer of Llama 4's temperature
        double logit_multiplier = 1.0; // RopeFrequencies::logit_multiplier at the target length
        std::vector<double> without_temperature;
        std::vector<double> with_temperature;
        std::vector<double> with_query_scale; // empty without a query scale (and for Llama 4 on variants)
    };
    static constexpr int kNopeSlot = -1;
    // One per variant whose parameters are valid, in variant order; with Llama 4's temperature, then the
    // NoPE layer (every frequency 0, no attention factor).
    std::vector<Curve> curves;
    int computed = 0; // variants this job computed; the others came from the cache
};

// Finished entropy curves by everything they depend on: the variant's kind (HF or llama.cpp formulas) and
// full parameters, the content, the lengths, the seed and the trials. Shared by the explorer's entropy
// jobs (thread-safe), so that editing one variant recomputes that variant only; a cancelled job keeps
// what it finished. Holds the newest kCapacity curves.
class EntropyCache
{
public:
    struct Key {
        VariantKind kind = VariantKind::Linear;
        RopeParams params;
        EntropyContent content = EntropyContent::RepeatedToken;
        std::vector<std::int64_t> lengths;
        std::uint64_t seed = 0;
        int trials = 0;
        QueryScale query_scale;
        bool nope = false; // the NoPE layer's curve (params give head_dim and rotary_dim only)
        bool operator==(const Key&) const = default;
    };
    static constexpr std::size_t kCapacity = 32;

    std::optional<EntropyCurve> find(const Key& key) const;
    void insert(const Key& key, const EntropyCurve& curve);
    // Curves computed by core (attention_entropy calls) since construction.
    int coreCalls() const;

private:
    mutable std::mutex m_mutex;
    std::vector<std::pair<Key, EntropyCurve>> m_entries; // oldest first
    int m_coreCalls = 0;
};

// attention_entropy (the content of in.entropy_content) of every variant at entropy_lengths(in.target),
// each with its own frequencies (variant_frequencies at each length) and logit multiplier. Curves found
// in `cache` (may be null) are reused; the others are computed, reporting progress over them.
EntropyResult compute_explorer_entropy(const ExplorerInput& in, EntropyCache* cache = nullptr,
                                       const CancelFn& cancel = {}, const ProgressFn& progress = {});
// The lengths of the entropy curves: `count` log-spaced lengths 16 .. target (at least 32), rounded,
// distinct. 13 for the repeated token (one pass over the distances serves them all), 7 for random q, k
// (each length draws its keys).
std::vector<std::int64_t> entropy_lengths(std::int64_t target, int count = 7);
int entropy_length_count(EntropyContent content);
// Trials per curve: 4 random tokens for the repeated token (cheap), 2 draws of q, k for random content.
int entropy_trials(EntropyContent content);

} // namespace posatlas::ui
