// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/registry.h"

#include "compute/attention_weights.h"
#include "io/input_file.h"
#include "io/number_text.h"
#include "methods/field_binding.h"
#include "methods/nope/nope.h"
#include "scenario/content.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas {

// ------------------------------------------------------------------ the list
// One line per method: its descriptor function, defined in its own folder.
#define POSATLAS_METHODS(X)                                                                                  \
    X(sinusoidal)                                                                                            \
    X(learned)                                                                                               \
    X(shaw)                                                                                                  \
    X(transformer_xl)                                                                                        \
    X(t5)                                                                                                    \
    X(deberta) X(rope) X(alibi) X(cope) X(nope) X(xpos) X(mrope) X(mla) X(rope2d) X(rope_mixed) X(swin) X(vit)

#define POSATLAS_DECLARE(name) MethodDescriptor describe_##name();
POSATLAS_METHODS(POSATLAS_DECLARE)
#undef POSATLAS_DECLARE

namespace {

// The Weights kind, right after the Logits kind of every method that has one: the row-wise softmax of
// that method's logits (compute/attention_weights.h). Written once here, not in each method's folder.
void add_weights_kind(MethodDescriptor& d)
{
    const auto logits = std::find_if(d.kinds.begin(), d.kinds.end(),
                                     [](const MatrixKindSpec& k) { return k.kind == MatrixKind::Logits; });
    if (logits == d.kinds.end() || d.kind(MatrixKind::Weights))
        return;
    std::function<void(MatrixJob&)> compute_logits = logits->compute;
    MatrixKindSpec weights{MatrixKind::Weights,
                           QT_TRANSLATE_NOOP("MatrixKind", "attention weights"),
                           QT_TRANSLATE_NOOP("MatrixLabel", "weight"),
                           [compute_logits](MatrixJob& job) { attention_weights(job, compute_logits); },
                           nullptr, // nonlinear in the logits: point sampling of exact rows
                           true};   // in [0, 1]
    d.kinds.insert(logits + 1, std::move(weights));
}

std::vector<MethodDescriptor> build_registry()
{
    std::vector<MethodDescriptor> all;
#define POSATLAS_ADD(name) all.push_back(describe_##name());
    POSATLAS_METHODS(POSATLAS_ADD)
#undef POSATLAS_ADD
    for (MethodDescriptor& d : all) {
        add_weights_kind(d);
        if (!d.explain_curves)
            d.explain_curves = [](const Scenario&) { return logit_curve_explanation(); };
    }
    return all;
}

// Every seed up to 2^53 is exact as a double.
constexpr double kSeedMax = kExactIntegerLimit;

// A value for a ParameterError's "got": a string as typed (the command line's text), anything else
// bounded and escaped by the message policy of input files (an object could be arbitrarily large).
std::string json_text(const nlohmann::json& v)
{
    return v.is_string() ? v.get<std::string>() : json_value_for_message(v);
}

} // namespace

const std::vector<MethodDescriptor>& methods()
{
    static const std::vector<MethodDescriptor> all = build_registry();
    return all;
}

const MethodDescriptor& descriptor(Method m)
{
    for (const MethodDescriptor& d : methods())
        if (d.method == m)
            return d;
    throw ParameterError("method", "one of " + method_ids(), std::string(m.id()));
}

std::optional<RopeParams> rotary_params(const Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    return d.rotary ? d.rotary(s) : std::nullopt;
}

bool is_rotary(Method m)
{
    Scenario s;
    s.method = m;
    return rotary_params(s).has_value();
}

std::int64_t curve_last_query(const Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    return d.last_query ? d.last_query(s) : s.seq_len - 1;
}

std::optional<Method> parse_method(std::string_view id)
{
    for (const MethodDescriptor& d : methods())
        if (d.method.id() == id)
            return d.method;
    return std::nullopt;
}

std::string_view method_id(Method m)
{
    return m.id();
}

std::string method_ids(std::string_view sep)
{
    std::string out;
    for (const MethodDescriptor& d : methods()) {
        if (!out.empty())
            out += sep;
        out += d.method.id();
    }
    return out;
}

std::string_view method_display_name(Method m)
{
    return descriptor(m).name;
}

std::optional<Method> quantity_method(std::string_view quantity)
{
    for (const MethodDescriptor& d : methods())
        if (std::find(d.quantities.begin(), d.quantities.end(), quantity) != d.quantities.end())
            return d.method;
    return std::nullopt;
}

const Field* MethodDescriptor::field(std::string_view key) const
{
    for (const Field& f : fields)
        if (f.key == key || std::find(f.aliases.begin(), f.aliases.end(), key) != f.aliases.end())
            return &f;
    return nullptr;
}

const MatrixKindSpec* MethodDescriptor::kind(MatrixKind k) const
{
    for (const MatrixKindSpec& spec : kinds)
        if (spec.kind == k)
            return &spec;
    return nullptr;
}

std::optional<MatrixKind> parse_matrix_kind(std::string_view id)
{
    for (const MethodDescriptor& d : methods())
        for (const MatrixKindSpec& spec : d.kinds)
            if (spec.kind.id() == id)
                return spec.kind;
    return std::nullopt;
}

std::string_view matrix_kind_id(MatrixKind k)
{
    return k.id();
}

std::vector<MatrixKind> matrix_kinds_for(Method m)
{
    std::vector<MatrixKind> out;
    for (const MatrixKindSpec& spec : descriptor(m).kinds)
        out.push_back(spec.kind);
    return out;
}

const char* matrix_kind_label(MatrixKind k)
{
    for (const MethodDescriptor& d : methods())
        for (const MatrixKindSpec& spec : d.kinds)
            if (spec.kind == k)
                return spec.label;
    return "";
}

// ------------------------------------------------------------------ fields

std::optional<int> choice_index_of(const std::vector<FieldChoice>& choices,
                                   const std::vector<std::pair<std::string_view, std::string_view>>& aliases,
                                   std::string_view id)
{
    for (const auto& [alias, canonical] : aliases)
        if (alias == id)
            id = canonical;
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i].id == id)
            return static_cast<int>(i);
    return std::nullopt;
}

std::optional<int> Field::choice_index(std::string_view id) const
{
    return choice_index_of(choices, choice_aliases, id);
}

std::string Field::option_name() const
{
    if (!option.empty())
        return option;
    std::string name = key;
    std::replace(name.begin(), name.end(), '_', '-');
    return name;
}

std::string Field::allowed() const
{
    const auto integer_range = [&] {
        return std::string(even ? "an even integer" : "an integer") + " in [" + format_number(lo) + ", " +
               format_number(hi) + "]";
    };
    const auto real_range = [&] {
        return std::string(lo_open ? "> " : ">= ") + format_number(lo) + " and <= " + format_number(hi);
    };
    switch (type) {
    case FieldType::Int: return integer_range();
    case FieldType::Real: return real_range();
    case FieldType::OptionalReal: return real_range() + ", or unset";
    case FieldType::RealList: return "a list of numbers, each " + real_range();
    case FieldType::Bool: return "true or false";
    case FieldType::Seed: return "an integer in [0, " + format_number(kSeedMax) + "]";
    case FieldType::Text: return "a string";
    case FieldType::Choice: {
        std::string out = "one of ";
        for (std::size_t i = 0; i < choices.size(); ++i) {
            if (i)
                out += '|'; // appended, not `"|" + std::string(...)`: GCC 12 warns a false -Wrestrict there
            out += choices[i].id;
        }
        return out;
    }
    }
    return "";
}

void Field::check(const nlohmann::json& v) const
{
    const auto fail = [&] { throw ParameterError(key, allowed(), json_text(v)); };
    const auto real_ok = [&](double x) {
        return std::isfinite(x) && (lo_open ? x > lo : x >= lo) && x <= hi;
    };
    switch (type) {
    case FieldType::Int: {
        if (!v.is_number_integer())
            fail();
        const double x = v.is_number_unsigned() ? static_cast<double>(v.get<std::uint64_t>())
                                                : static_cast<double>(v.get<std::int64_t>());
        if (x < lo || x > hi || (even && v.get<std::int64_t>() % 2 != 0))
            fail();
        return;
    }
    case FieldType::Seed:
        if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) ||
            static_cast<double>(v.get<std::uint64_t>()) > kSeedMax)
            fail();
        return;
    case FieldType::Real:
        if (!v.is_number() || !real_ok(v.get<double>()))
            fail();
        return;
    case FieldType::OptionalReal:
        if (!v.is_null() && (!v.is_number() || !real_ok(v.get<double>())))
            fail();
        return;
    case FieldType::RealList:
        if (!v.is_array())
            fail();
        for (const auto& x : v)
            if (!x.is_number() || !real_ok(x.get<double>()))
                throw ParameterError(key, allowed(), json_text(x));
        return;
    case FieldType::Bool:
        if (!v.is_boolean())
            fail();
        return;
    case FieldType::Text:
        if (!v.is_string())
            fail();
        return;
    case FieldType::Choice:
        if (!v.is_string() || !choice_index(v.get<std::string>()))
            fail();
        return;
    }
}

double Field::number(const Scenario& s) const
{
    const nlohmann::json v = get(s);
    switch (type) {
    case FieldType::Bool: return v.get<bool>() ? 1.0 : 0.0;
    case FieldType::Choice: return choice_index(v.get<std::string>()).value_or(0);
    case FieldType::OptionalReal: return v.is_null() ? 0.0 : v.get<double>();
    case FieldType::Int:
    case FieldType::Seed:
    case FieldType::Real: return v.get<double>();
    case FieldType::RealList:
    case FieldType::Text: return 0.0;
    }
    return 0.0;
}

void Field::set_number(Scenario& s, double v) const
{
    switch (type) {
    case FieldType::Bool: set(s, v != 0.0); return;
    case FieldType::Choice: {
        const auto i = static_cast<std::size_t>(
            std::clamp<long>(std::lround(v), 0, static_cast<long>(choices.size()) - 1));
        set(s, std::string(choices[i].id));
        return;
    }
    case FieldType::OptionalReal: set(s, v > 0.0 ? nlohmann::json(v) : nlohmann::json(nullptr)); return;
    case FieldType::Int: set(s, static_cast<std::int64_t>(std::llround(v))); return;
    case FieldType::Seed:
        set(s, v <= 0.0 ? std::uint64_t{0} : static_cast<std::uint64_t>(std::llround(v)));
        return;
    case FieldType::Real: set(s, v); return;
    case FieldType::RealList:
    case FieldType::Text: return;
    }
}

std::vector<double> Field::list_values(const Scenario& s) const
{
    if (type != FieldType::RealList || !list_defaults)
        return {};
    std::vector<double> values = list_defaults(s);
    const nlohmann::json list = get(s);
    for (std::size_t k = 0; k < list.size() && k < values.size(); ++k)
        values[k] = list[k].get<double>();
    return values;
}

nlohmann::json Field::list_with(const Scenario& s, std::size_t index, std::optional<double> value) const
{
    if (type != FieldType::RealList || !list_defaults)
        return get(s);
    const std::vector<double> defaults = list_defaults(s);
    std::vector<double> list = get(s).get<std::vector<double>>();
    if (index >= defaults.size())
        return list;
    if (list.size() <= index)
        list.insert(list.end(), defaults.begin() + static_cast<std::ptrdiff_t>(list.size()),
                    defaults.begin() + static_cast<std::ptrdiff_t>(index) + 1);
    list[index] = value.value_or(defaults[index]);
    // Shortest form: a trailing element equal to its default says nothing the defaults do not.
    while (!list.empty() && list.size() <= defaults.size() && list.back() == defaults[list.size() - 1])
        list.pop_back();
    return list;
}

// ------------------------------------------------------------------ the scenario's own fields

namespace {

std::vector<Field> build_common_fields()
{
    using nlohmann::json;
    std::vector<Field> f(11);
    Field& n = f[0];
    n.key = "seq_len";
    n.type = FieldType::Int;
    n.lo = 1;
    n.hi = static_cast<double>(kMaxSeqLen);
    n.log_scale = true;
    n.label = QT_TRANSLATE_NOOP("ParamSpec", "Sequence length");
    n.unit = QT_TRANSLATE_NOOP("ParamSpec", "positions");
    n.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec",
        "Number of positions N shown. Large N is downsampled to the view's pixels, never computed in full.");
    n.shown = [](const Scenario& s) { return s.content.tokens.empty(); }; // a sentence sets N
    n.get = [](const Scenario& s) { return json(s.seq_len); };
    n.set = [](Scenario& s, const json& v) { s.seq_len = v.get<std::int64_t>(); };

    Field& h = f[1];
    h.key = "head";
    h.type = FieldType::Int;
    h.lo = 0;
    h.hi = 1023;
    h.label = QT_TRANSLATE_NOOP("ParamSpec", "Head");
    h.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec", "Attention head shown by single-panel views of per-head methods (ALiBi, T5).");
    h.shown = [](const Scenario& s) { // per-head methods only
        const MethodDescriptor& d = descriptor(s.method);
        return d.heads && d.heads(s) > 1;
    };
    h.get = [](const Scenario& s) { return json(s.head); };
    h.set = [](Scenario& s, const json& v) { s.head = v.get<int>(); };

    Field& c = f[2];
    c.key = "content";
    c.type = FieldType::Choice;
    c.choices = {{"ones", QT_TRANSLATE_NOOP("ParamSpec", "Ones (pure position)")},
                 {"zero", QT_TRANSLATE_NOOP("ParamSpec", "Zero (position terms only)")},
                 {"fixed", QT_TRANSLATE_NOOP("ParamSpec", "Fixed random vector")},
                 {"random", QT_TRANSLATE_NOOP("ParamSpec", "Random per position")}};
    c.label = QT_TRANSLATE_NOOP("ParamSpec", "Content vectors");
    c.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec",
        "The query/key vectors positions are mixed with: ones show the pure positional pattern; zero keeps "
        "only position-position terms (p_i · p_j); random vectors show a real-looking sequence.");
    c.shown = [](const Scenario& s) {
        return s.content.tokens.empty();
    }; // a sentence's tokens are the content
    c.get = [](const Scenario& s) { return json(std::string(content_kind_id(s.content.kind))); };
    c.set = [](Scenario& s, const json& v) {
        if (auto k = parse_content_kind(v.get<std::string>()))
            s.content.kind = *k;
    };

    Field& cs = f[3];
    cs.key = "content_seed";
    cs.type = FieldType::Seed;
    cs.lo = 0;
    cs.hi = kSeedMax;
    cs.label = QT_TRANSLATE_NOOP("ParamSpec", "Content seed");
    cs.tooltip =
        QT_TRANSLATE_NOOP("ParamSpec", "Seed of the random content vectors (same seed, same picture).");
    cs.shown = [](const Scenario& s) { // seeded content only
        return !s.content.from_files() &&
               (s.content.kind == ContentKind::Fixed || s.content.kind == ContentKind::Random ||
                !s.content.tokens.empty());
    };
    cs.get = [](const Scenario& s) { return json(s.content.seed); };
    cs.set = [](Scenario& s, const json& v) { s.content.seed = v.get<std::uint64_t>(); };

    Field& t = f[4];
    t.key = "text";
    t.type = FieldType::Text;
    t.path = false;
    t.label = QT_TRANSLATE_NOOP("ParamSpec", "Sentence");
    t.tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                  "Words as positions: each word (each character of Chinese) is a token with "
                                  "its own seeded query and key vectors, the same word the same vectors; the "
                                  "sequence length becomes the number of tokens. Empty: no sentence.");
    t.get = [](const Scenario& s) { return json(s.content.text); };
    t.set = [](Scenario& s, const json& v) {
        set_content_text(s.content, v.get<std::string>());
        if (!s.content.tokens.empty())
            s.seq_len = static_cast<std::int64_t>(s.content.tokens.size());
    };

    Field& m = f[5];
    m.key = "causal";
    m.type = FieldType::Bool;
    m.label = QT_TRANSLATE_NOOP("ParamSpec", "Causal mask");
    m.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec", "A decoder's mask: keys after the query get attention weight 0 and each row sums to 1 "
                     "over the keys up to the query; off, every key is seen. NoPE has no mask of its own: "
                     "this switch masks its logits too. Other methods' own masks shape their logits.");
    m.get = [](const Scenario& s) { return json(s.causal); };
    m.set = [](Scenario& s, const json& v) {
        s.causal = v.get<bool>();
        if (!s.causal) // a window or chunks are causal masks: without the causal mask, every key is seen
            s.window = LayerAttention::Global;
    };

    // The sentence's permutation, drawn beside it (ContentParams::permuted); the view's business only.
    Field& pt = f[10];
    pt.key = "permuted";
    pt.type = FieldType::Text;
    pt.path = false;
    pt.label = QT_TRANSLATE_NOOP("ParamSpec", "Compare with permuted sentence");
    pt.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec", "The same words in another order, e.g. \"the man bit the dog\": the heatmap shows both "
                     "sentences side by side and links each word's rows. Without positions (NoPE) the linked "
                     "rows hold the same numbers. Empty: one sentence.");
    pt.shown = [](const Scenario& s) { return !s.content.tokens.empty() && !s.content.from_files(); };
    pt.get = [](const Scenario& s) { return json(s.content.permuted); };
    pt.set = [](Scenario& s, const json& v) { s.content.permuted = v.get<std::string>(); };

    // The user's own queries and keys (scenario/content_file.h). The data pointer of a ContentFile is
    // dropped whenever its path or tensor changes: the next compute reads the file through the cache.
    const auto file_field = [](Field& x, const char* key, ContentFile ContentParams::*member, bool tensor) {
        x.key = key;
        x.type = FieldType::Text;
        x.panel = false; // the content combo box's "From file..." entry sets them
        x.path = !tensor;
        x.get = [member, tensor](const Scenario& s) {
            const ContentFile& cf = s.content.*member;
            return json(tensor ? cf.tensor : cf.path);
        };
        x.set = [member, tensor](Scenario& s, const json& v) {
            ContentFile& cf = s.content.*member;
            (tensor ? cf.tensor : cf.path) = v.get<std::string>();
            cf.data.reset();
        };
    };
    file_field(f[6], "queries", &ContentParams::queries, false);
    f[6].label = QT_TRANSLATE_NOOP("ParamSpec", "Queries file");
    f[6].tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec",
        "Your own queries, N x d, one row per position (.npy float16/32/64, .csv, or a .safetensors file "
        "with its tensor named); with the keys file they replace the seeded content for every method.");
    file_field(f[7], "queries_tensor", &ContentParams::queries, true);
    f[7].label = QT_TRANSLATE_NOOP("ParamSpec", "Queries tensor");
    f[7].tooltip = QT_TRANSLATE_NOOP("ParamSpec", "The tensor of a .safetensors queries file.");
    file_field(f[8], "keys", &ContentParams::keys, false);
    f[8].label = QT_TRANSLATE_NOOP("ParamSpec", "Keys file");
    f[8].tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec", "Your own keys, N x d, one row per position, in the formats of the queries file.");
    file_field(f[9], "keys_tensor", &ContentParams::keys, true);
    f[9].label = QT_TRANSLATE_NOOP("ParamSpec", "Keys tensor");
    f[9].tooltip = QT_TRANSLATE_NOOP("ParamSpec", "The tensor of a .safetensors keys file.");

    // The causal mask narrowed to a sliding window or to chunks (attention_span.h), as the layers of
    // Mistral, Gemma 2/3 (sliding) and Llama 4 (chunked) have it; placed right after the causal switch.
    Field w;
    w.key = "window";
    w.type = FieldType::Choice;
    w.choices = {{"none", QT_TRANSLATE_NOOP("ParamSpec", "None (every earlier key)")},
                 {"sliding", QT_TRANSLATE_NOOP("ParamSpec", "Sliding window")},
                 {"chunked", QT_TRANSLATE_NOOP("ParamSpec", "Chunks")}};
    w.label = QT_TRANSLATE_NOOP("ParamSpec", "Attention window");
    w.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec",
        "Narrows the causal mask as a model's layer does (transformers masking_utils): a sliding window "
        "lets the query see only the last W keys, itself included (q - k < W); chunks let it see only the "
        "earlier keys of its own chunk of C positions (k / C = q / C). Choosing one turns the causal mask "
        "on. Masked logits are drawn as masked cells and get attention weight 0.");
    w.get = [](const Scenario& s) { return json(std::string(window_id(s.window))); };
    w.set = [](Scenario& s, const json& v) {
        if (auto a = parse_window(v.get<std::string>())) {
            s.window = *a;
            if (*a != LayerAttention::Global)
                s.causal = true;
        }
    };
    Field ws;
    ws.key = "window_span";
    ws.type = FieldType::Int;
    ws.lo = 1;
    ws.hi = static_cast<double>(kMaxSeqLen);
    ws.log_scale = true;
    ws.label = QT_TRANSLATE_NOOP("ParamSpec", "Window size");
    ws.unit = QT_TRANSLATE_NOOP("ParamSpec", "positions");
    ws.tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                   "W, the keys a sliding window shows (sliding_window in config.json), or "
                                   "C, the positions of a chunk (attention_chunk_size).");
    ws.shown = [](const Scenario& s) { return s.window != LayerAttention::Global; };
    ws.get = [](const Scenario& s) { return json(s.window_span); };
    ws.set = [](Scenario& s, const json& v) { s.window_span = v.get<std::int64_t>(); };

    // Llama 4's attention temperature (Scenario::attn_temperature_tuning), on the methods whose logits
    // are linear in the query (temperature_applies): NoPE, RoPE.
    const auto linear_in_query = [](const Scenario& s) {
        return s.method == kNoPE || s.method == Method::RoPE;
    };
    Field tt;
    tt.key = "attn_temperature_tuning";
    tt.type = FieldType::Bool;
    tt.label = QT_TRANSLATE_NOOP("ParamSpec", "Attention temperature");
    tt.tooltip = QT_TRANSLATE_NOOP(
        "ParamSpec",
        "Llama 4's temperature tuning (Llama4TextAttention): the query at position p is multiplied by "
        "log(floor((p + 1) / floor_scale) + 1) · attn_scale + 1, so later queries attend more sharply. "
        "Applied to NoPE and RoPE, whose logits scale with the query.");
    tt.shown = linear_in_query;
    tt.get = [](const Scenario& s) { return json(s.attn_temperature_tuning); };
    tt.set = [](Scenario& s, const json& v) { s.attn_temperature_tuning = v.get<bool>(); };
    Field fs;
    fs.key = "floor_scale";
    fs.type = FieldType::Real;
    fs.lo = 1.0;
    fs.hi = 1e9;
    fs.log_scale = true;
    fs.label = QT_TRANSLATE_NOOP("ParamSpec", "Temperature floor scale");
    fs.unit = QT_TRANSLATE_NOOP("ParamSpec", "positions");
    fs.tooltip = QT_TRANSLATE_NOOP("ParamSpec",
                                   "floor_scale: the temperature grows one step every floor_scale positions "
                                   "(8192 in Llama 4); below floor_scale - 1 it is 1.");
    fs.shown = [linear_in_query](const Scenario& s) {
        return linear_in_query(s) && s.attn_temperature_tuning;
    };
    fs.get = [](const Scenario& s) { return json(s.floor_scale); };
    fs.set = [](Scenario& s, const json& v) { s.floor_scale = v.get<double>(); };
    Field as;
    as.key = "attn_scale";
    as.type = FieldType::Real;
    as.lo = 0.0;
    as.hi = 10.0;
    as.decimals = 3;
    as.step = 0.01;
    as.label = QT_TRANSLATE_NOOP("ParamSpec", "Temperature scale");
    as.tooltip = QT_TRANSLATE_NOOP("ParamSpec", "attn_scale: the weight of the logarithm (0.1 in Llama 4).");
    as.shown = fs.shown;
    as.get = [](const Scenario& s) { return json(s.attn_scale); };
    as.set = [](Scenario& s, const json& v) { s.attn_scale = v.get<double>(); };
    f.insert(f.begin() + 6, {std::move(w), std::move(ws), std::move(tt), std::move(fs), std::move(as)});
    return f;
}

} // namespace

const std::vector<Field>& common_fields()
{
    static const std::vector<Field> all = build_common_fields();
    return all;
}

std::vector<const Field*> all_fields()
{
    std::vector<const Field*> out;
    for (const Field& f : common_fields())
        out.push_back(&f);
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields)
            out.push_back(&f);
    return out;
}

const Field* common_field(std::string_view key)
{
    for (const Field& f : common_fields())
        if (f.key == key)
            return &f;
    return nullptr;
}

} // namespace posatlas
