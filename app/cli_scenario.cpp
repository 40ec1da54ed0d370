// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_compute.h"

#include "cli_options.h"
#include "model_config.h"
#include "presets.h"
#include "validation.h"

#include <limits>
#include <map>

// Building a Scenario from --preset / --config / --session and the method options: shared by
// `compute` and `export`. Option names are the Hugging Face config keys with dashes.
namespace posatlas::cli {
namespace {

// ------------------------------------------------------------------ option sets

const std::vector<std::string> kSourceOptions{"preset", "config"};
const std::vector<std::string> kRopeOptions{
    "head-dim", "rope-theta", "partial-rotary-factor", "rope-type", "factor",
    "original-max-position-embeddings", "max-position-embeddings", "seq-len", "beta-fast", "beta-slow",
    "mscale", "mscale-all-dim", "attention-factor", "truncate", "low-freq-factor", "high-freq-factor",
    "short-factor", "long-factor", "pairing"};
const std::vector<std::string> kOtherMethodOptions{
    // sinusoidal / transformer-xl
    "dim", "base", "layout",
    // learned
    "table", "initializer-range",
    // shaw
    "max-relative-position",
    // t5
    "num-buckets", "max-distance",
    // deberta
    "position-buckets", "max-relative-positions",
    // alibi
    "num-heads", "slope-scale", "alibi-bias", "alibi-scaling", "trained-length", "target-length",
    // cope
    "npos-max", "gate-scale",
    // tables and content
    "seed", "content", "content-seed", "head", "method"};
const std::vector<std::string> kScenarioFlags{"causal", "no-c2p", "no-p2c", "no-term-a", "no-term-b",
                                              "no-term-c", "no-term-d"};

// HF keys whose command-line option has a shorter name than option_name(key).
std::string option_for_key(const std::string& key)
{
    static const std::map<std::string, std::string> aliases{
        {"relative_attention_num_buckets", "--num-buckets"},
        {"relative_attention_max_distance", "--max-distance"},
        {"max_position_embeddings", "--max-position-embeddings"},
        {"base", "--base"},
    };
    const auto it = aliases.find(key);
    return it != aliases.end() ? it->second : option_name(key);
}

std::string method_noun(Method m)
{
    switch (m) {
    case Method::Sinusoidal: return "sinusoidal absolute positions";
    case Method::Learned: return "learned absolute positions";
    case Method::Shaw: return "Shaw relative positions";
    case Method::TransformerXL: return "Transformer-XL relative positions";
    case Method::T5: return "T5 relative position buckets";
    case Method::DeBERTa: return "DeBERTa disentangled relative positions";
    case Method::RoPE: return "RoPE";
    case Method::ALiBi: return "ALiBi";
    case Method::CoPE: return "CoPE";
    }
    return "unknown";
}

std::string quantities_for(Method m)
{
    switch (m) {
    case Method::RoPE: return "rope-frequencies, rope-pairs, rope-decay, rope-score, rope-angles, attention-entropy";
    case Method::ALiBi: return "alibi-slopes";
    case Method::T5: return "t5-buckets";
    case Method::DeBERTa: return "deberta-buckets";
    case Method::Sinusoidal: return "sinusoidal";
    case Method::Learned: return "learned";
    default: return "matrix";
    }
}

// ------------------------------------------------------------------ scenario from options

void apply_rope_options(const Options& o, RopeParams& r)
{
    if (auto v = o.integer("head-dim", 1, 1 << 20))
        r.head_dim = static_cast<int>(*v);
    if (auto v = o.real("rope-theta"))
        r.rope_theta = *v;
    if (auto v = o.real("partial-rotary-factor"))
        r.partial_rotary_factor = *v;
    if (auto v = o.choice("rope-type", {"default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "su"}))
        r.rope_type = *parse_rope_type(*v);
    if (auto v = o.real("factor"))
        r.factor = *v;
    if (auto v = o.integer("original-max-position-embeddings", 0, 1'000'000'000))
        r.original_max_position_embeddings = *v;
    if (auto v = o.integer("max-position-embeddings", 1, 1'000'000'000))
        r.max_position_embeddings = *v;
    if (auto v = o.integer("seq-len", 0, 1'000'000'000))
        r.seq_len = *v;
    if (auto v = o.real("beta-fast"))
        r.beta_fast = *v;
    if (auto v = o.real("beta-slow"))
        r.beta_slow = *v;
    if (auto v = o.real("mscale"))
        r.mscale = *v;
    if (auto v = o.real("mscale-all-dim"))
        r.mscale_all_dim = *v;
    if (auto v = o.real("attention-factor"))
        r.attention_factor = *v;
    if (auto v = o.boolean("truncate"))
        r.truncate = *v;
    if (auto v = o.real("low-freq-factor"))
        r.low_freq_factor = *v;
    if (auto v = o.real("high-freq-factor"))
        r.high_freq_factor = *v;
    if (auto v = o.real_list("short-factor"))
        r.short_factor = *v;
    if (auto v = o.real_list("long-factor"))
        r.long_factor = *v;
    if (auto v = o.choice("pairing", {"interleaved", "half"}))
        r.pairing = *v == "half" ? RopePairing::Half : RopePairing::Interleaved;
}

void apply_method_options(const Options& o, Scenario& s)
{
    constexpr std::int64_t kBig = 1'000'000'000;
    const auto seed = o.integer("seed", 0, std::numeric_limits<std::int64_t>::max());
    const auto head_dim = o.integer("head-dim", 1, 1 << 20);
    const auto dim = o.integer("dim", 1, 1 << 20);
    const auto stddev = o.real("initializer-range");

    // Sinusoidal
    if (dim)
        s.params<SinusoidalParams>().dim = static_cast<int>(*dim);
    if (auto v = o.real("base"))
        s.params<SinusoidalParams>().base = s.params<TransformerXLParams>().base = *v;
    if (auto v = o.choice("layout", {"interleaved", "split"}))
        s.params<SinusoidalParams>().layout = *v == "split" ? SinusoidalLayout::Split : SinusoidalLayout::Interleaved;
    // Learned
    if (dim)
        s.params<LearnedParams>().dim = static_cast<int>(*dim);
    if (auto v = o.integer("max-position-embeddings", 1, kBig))
        s.params<LearnedParams>().trained_length = *v;
    if (auto v = o.text("table"))
        s.params<LearnedParams>().table_path = *v;
    // Per-head-dimension methods
    if (head_dim) {
        const int d = static_cast<int>(*head_dim);
        s.params<ShawParams>().head_dim = s.params<TransformerXLParams>().head_dim = s.params<DebertaParams>().head_dim = s.params<CopeParams>().head_dim = d;
    }
    if (auto v = o.integer("max-relative-position", 0, kBig))
        s.params<ShawParams>().max_relative_position = static_cast<int>(*v);
    if (o.flag("no-term-a"))
        s.params<TransformerXLParams>().term_a = false;
    if (o.flag("no-term-b"))
        s.params<TransformerXLParams>().term_b = false;
    if (o.flag("no-term-c"))
        s.params<TransformerXLParams>().term_c = false;
    if (o.flag("no-term-d"))
        s.params<TransformerXLParams>().term_d = false;
    // T5
    if (auto v = o.integer("num-buckets", 0, kBig))
        s.params<T5Params>().num_buckets = static_cast<int>(*v);
    if (auto v = o.integer("max-distance", 0, kBig))
        s.params<T5Params>().max_distance = static_cast<int>(*v);
    if (o.flag("causal"))
        s.params<T5Params>().bidirectional = false;
    // DeBERTa
    if (auto v = o.integer("position-buckets", -1, kBig))
        s.params<DebertaParams>().position_buckets = static_cast<int>(*v);
    if (auto v = o.integer("max-relative-positions", -1, kBig))
        s.params<DebertaParams>().max_relative_positions = static_cast<int>(*v);
    if (o.flag("no-c2p"))
        s.params<DebertaParams>().c2p = false;
    if (o.flag("no-p2c"))
        s.params<DebertaParams>().p2c = false;
    // ALiBi (and T5's heads)
    if (auto v = o.integer("num-heads", 0, kBig))
        s.params<AlibiParams>().num_heads = s.params<T5Params>().num_heads = static_cast<int>(*v);
    if (auto v = o.real("slope-scale"))
        s.params<AlibiParams>().slope_scale = *v;
    if (auto v = o.choice("alibi-bias", {"causal", "symmetric"}))
        s.params<AlibiParams>().bias = *v == "symmetric" ? AlibiBias::Symmetric : AlibiBias::Causal;
    if (auto v = o.choice("alibi-scaling", {"none", "interpolate", "ntk"}))
        s.params<AlibiParams>().scaling = *v == "ntk" ? AlibiScaling::Ntk : *v == "interpolate" ? AlibiScaling::Interpolate
                                                                             : AlibiScaling::None;
    if (auto v = o.integer("trained-length", 0, kBig))
        s.params<AlibiParams>().trained_length = *v;
    if (auto v = o.integer("target-length", 0, kBig))
        s.params<AlibiParams>().target_length = *v;
    // CoPE
    if (auto v = o.integer("npos-max", 0, kBig))
        s.params<CopeParams>().npos_max = static_cast<int>(*v);
    if (auto v = o.real("gate-scale"))
        s.params<CopeParams>().gate_scale = *v;
    // Seeds and initialiser spread of every seeded table
    if (seed) {
        const auto u = static_cast<std::uint64_t>(*seed);
        s.params<LearnedParams>().seed = s.params<ShawParams>().seed = s.params<TransformerXLParams>().seed = s.params<T5Params>().seed = s.params<DebertaParams>().seed = s.params<CopeParams>().seed = u;
    }
    if (stddev)
        s.params<LearnedParams>().stddev = s.params<ShawParams>().stddev = s.params<TransformerXLParams>().stddev = s.params<DebertaParams>().stddev = s.params<CopeParams>().stddev = *stddev;
    // Content vectors and the shown head
    if (auto v = o.choice("content", {"ones", "zero", "fixed", "random"}))
        s.content.kind = *parse_content_kind(*v);
    if (auto v = o.integer("content-seed", 0, std::numeric_limits<std::int64_t>::max()))
        s.content.seed = static_cast<std::uint64_t>(*v);
    if (auto v = o.integer("head", 0, 1 << 20))
        s.head = static_cast<int>(*v);
    apply_rope_options(o, s.params<RopeParams>());
    // One --seq-len: the positions shown (N) and, for dynamic NTK / LongRoPE, the current length.
    if (s.params<RopeParams>().seq_len >= 1 && o.has("seq-len"))
        s.seq_len = s.params<RopeParams>().seq_len;
}

void apply_method_choice(const Options& o, Scenario& s)
{
    if (auto m = o.text("method")) {
        const auto parsed = parse_method(*m);
        if (!parsed) {
            const std::string allowed = join(kAllMethods, "|", [](Method mm) { return std::string(method_id(mm)); });
            throw UsageError("--method must be one of " + allowed + " (got '" + *m + "')");
        }
        s.method = *parsed;
    }
}

} // namespace

[[noreturn]] void rethrow_as_usage(const ParameterError& e)
{
    throw UsageError(option_for_key(e.parameter()) + " must be " + e.allowed() + " (got " + e.got() + ")");
}

Scenario scenario_with_options(const Options& o, Scenario base)
{
    apply_method_choice(o, base);
    apply_method_options(o, base);
    try {
        validate(base);
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    return base;
}

std::vector<std::string> scenario_value_options()
{
    std::vector<std::string> v = kSourceOptions;
    v.insert(v.end(), kRopeOptions.begin(), kRopeOptions.end());
    v.insert(v.end(), kOtherMethodOptions.begin(), kOtherMethodOptions.end());
    return v;
}

std::vector<std::string> scenario_flag_options() { return kScenarioFlags; }

Scenario scenario_from_options(const Options& o, std::optional<Method> required, const std::string& quantity)
{
    if (o.has("preset") && o.has("config"))
        throw UsageError("--preset and --config are exclusive: give one model");
    Scenario s;
    std::string model;
    std::string source; // where values not given as options came from, for messages
    try {
        if (auto id = o.text("preset")) {
            s = load_preset(*id).scenario;
            model = "preset " + *id;
            source = "preset " + *id;
        } else if (auto path = o.text("config")) {
            s = load_model_config(*path).scenario;
            model = "config " + *path;
            source = *path;
        }
    } catch (const ConfigError& e) {
        throw UsageError(std::string(o.has("preset") ? "--preset: " : "--config: ") + e.what());
    }
    apply_method_choice(o, s);
    if (required) {
        if (!model.empty() && s.method != *required)
            throw UsageError(model + " uses " + method_noun(s.method) + ", not " + method_noun(*required) + "; "
                             + quantity + " does not apply (try: " + quantities_for(s.method) + ")");
        s.method = *required;
    }
    apply_method_options(o, s);
    try {
        validate(s);
    } catch (const ParameterError& e) {
        // The user typed the option: name it. Otherwise the value came from the file: name the file and
        // its key, not an option the user never typed.
        const std::string option = option_for_key(e.parameter());
        if (source.empty() || o.has(option.substr(2)))
            rethrow_as_usage(e);
        throw UsageError(source + ": " + e.parameter() + " must be " + e.allowed() + " (got " + e.got() + ")");
    }
    return s;
}

} // namespace posatlas::cli
