// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_json.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>

namespace posatlas {
namespace {

using nlohmann::json;

// Reads obj[key] into `out` when present, checking the JSON type. `path` is the dotted prefix.
class Reader
{
public:
    Reader(const json& obj, std::string path) : m_obj(obj), m_path(std::move(path))
    {
        if (!m_obj.is_object())
            fail("", "an object", m_obj);
    }

    void number(const char* key, double& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_number())
                fail(key, "a number", *v);
            out = v->get<double>();
        }
    }
    void optional_number(const char* key, std::optional<double>& out) const
    {
        if (const json* v = find(key)) {
            if (v->is_null()) {
                out.reset();
                return;
            }
            if (!v->is_number())
                fail(key, "a number or null", *v);
            out = v->get<double>();
        }
    }
    template <typename Int>
    void integer(const char* key, Int& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_number_integer())
                fail(key, "an integer", *v);
            // Negative values compare against min only: cast to unsigned, -64 looked larger than INT_MAX.
            const bool fits = v->is_number_unsigned()
                                  ? v->get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max())
                                  : v->get<std::int64_t>() < 0
                                        ? v->get<std::int64_t>() >= static_cast<std::int64_t>(std::numeric_limits<Int>::min())
                                        : static_cast<std::uint64_t>(v->get<std::int64_t>())
                                              <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max());
            if (!fits)
                fail(key,
                     "an integer in [" + std::to_string(std::numeric_limits<Int>::min()) + ", "
                         + std::to_string(std::numeric_limits<Int>::max()) + "]",
                     *v);
            out = static_cast<Int>(v->get<std::int64_t>());
        }
    }
    void seed(const char* key, std::uint64_t& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0))
                fail(key, "a non-negative integer", *v);
            out = v->get<std::uint64_t>();
        }
    }
    void boolean(const char* key, bool& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_boolean())
                fail(key, "true or false", *v);
            out = v->get<bool>();
        }
    }
    void text(const char* key, std::string& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_string())
                fail(key, "a string", *v);
            out = v->get<std::string>();
        }
    }
    void numbers(const char* key, std::vector<double>& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_array())
                fail(key, "an array of numbers", *v);
            std::vector<double> tmp;
            for (const auto& x : *v) {
                if (!x.is_number())
                    fail(key, "an array of numbers", x);
                tmp.push_back(x.get<double>());
            }
            out = std::move(tmp);
        }
    }
    // An enum stored by id; `parse` returns std::optional<E>.
    template <typename E, typename Parse>
    void id(const char* key, E& out, Parse parse, const char* allowed) const
    {
        if (const json* v = find(key)) {
            if (!v->is_string())
                fail(key, std::string("one of ") + allowed, *v);
            const auto parsed = parse(v->get<std::string>());
            if (!parsed)
                fail(key, std::string("one of ") + allowed, *v);
            out = *parsed;
        }
    }
    std::optional<Reader> child(const char* key) const
    {
        if (const json* v = find(key))
            return Reader(*v, m_path.empty() ? key : m_path + "." + key);
        return std::nullopt;
    }

private:
    const json* find(const char* key) const
    {
        const auto it = m_obj.find(key);
        return it == m_obj.end() ? nullptr : &*it;
    }
    [[noreturn]] void fail(const std::string& key, const std::string& expected, const json& got) const
    {
        const std::string where = m_path.empty() ? key : key.empty() ? m_path : m_path + "." + key;
        throw ScenarioJsonError(where + ": expected " + expected + ", got " + json_value_for_message(got));
    }

    const json& m_obj;
    std::string m_path;
};

template <typename E>
std::optional<E> parse_pair(std::string_view id, std::string_view a, E ea, std::string_view b, E eb)
{
    if (id == a)
        return ea;
    if (id == b)
        return eb;
    return std::nullopt;
}

std::optional<AlibiScaling> parse_alibi_scaling(std::string_view id)
{
    if (id == "none")
        return AlibiScaling::None;
    if (id == "interpolate")
        return AlibiScaling::Interpolate;
    if (id == "ntk")
        return AlibiScaling::Ntk;
    return std::nullopt;
}

const char* alibi_scaling_id(AlibiScaling s)
{
    switch (s) {
    case AlibiScaling::None: return "none";
    case AlibiScaling::Interpolate: return "interpolate";
    case AlibiScaling::Ntk: return "ntk";
    }
    return "none";
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

} // namespace

json scenario_to_json(const Scenario& s)
{
    json j;
    j["method"] = std::string(method_id(s.method));
    j["seq_len"] = s.seq_len;
    j["head"] = s.head;
    j["content"] = {{"kind", std::string(content_kind_id(s.content.kind))}, {"seed", s.content.seed}};
    j["sinusoidal"] = {{"dim", s.params<SinusoidalParams>().dim},
                       {"base", s.params<SinusoidalParams>().base},
                       {"layout", s.params<SinusoidalParams>().layout == SinusoidalLayout::Split ? "split" : "interleaved"}};
    j["learned"] = {{"dim", s.params<LearnedParams>().dim},
                    {"trained_length", s.params<LearnedParams>().trained_length},
                    {"seed", s.params<LearnedParams>().seed},
                    {"stddev", s.params<LearnedParams>().stddev},
                    {"table_path", s.params<LearnedParams>().table_path}};
    j["shaw"] = {{"head_dim", s.params<ShawParams>().head_dim},
                 {"max_relative_position", s.params<ShawParams>().max_relative_position},
                 {"seed", s.params<ShawParams>().seed},
                 {"stddev", s.params<ShawParams>().stddev}};
    const auto& x = s.params<TransformerXLParams>();
    j["transformer_xl"] = {{"head_dim", x.head_dim}, {"base", x.base},     {"seed", x.seed},
                           {"stddev", x.stddev},     {"term_a", x.term_a}, {"term_b", x.term_b},
                           {"term_c", x.term_c},     {"term_d", x.term_d}};
    j["t5"] = {{"num_buckets", s.params<T5Params>().num_buckets}, {"max_distance", s.params<T5Params>().max_distance},
               {"bidirectional", s.params<T5Params>().bidirectional}, {"num_heads", s.params<T5Params>().num_heads},
               {"seed", s.params<T5Params>().seed}, {"stddev", s.params<T5Params>().stddev}};
    const auto& d = s.params<DebertaParams>();
    j["deberta"] = {{"head_dim", d.head_dim}, {"position_buckets", d.position_buckets},
                    {"max_relative_positions", d.max_relative_positions},
                    {"c2p", d.c2p}, {"p2c", d.p2c}, {"seed", d.seed}, {"stddev", d.stddev}};
    const auto& r = s.params<RopeParams>();
    j["rope"] = {{"head_dim", r.head_dim},
                 {"rope_theta", r.rope_theta},
                 {"partial_rotary_factor", r.partial_rotary_factor},
                 {"rope_type", std::string(rope_type_id(r.rope_type))},
                 {"pairing", r.pairing == RopePairing::Half ? "half" : "interleaved"},
                 {"factor", r.factor},
                 {"max_position_embeddings", r.max_position_embeddings},
                 {"original_max_position_embeddings", r.original_max_position_embeddings},
                 {"seq_len", r.seq_len},
                 {"beta_fast", r.beta_fast},
                 {"beta_slow", r.beta_slow},
                 {"mscale", optional_json(r.mscale)},
                 {"mscale_all_dim", optional_json(r.mscale_all_dim)},
                 {"attention_factor", optional_json(r.attention_factor)},
                 {"truncate", r.truncate},
                 {"low_freq_factor", r.low_freq_factor},
                 {"high_freq_factor", r.high_freq_factor},
                 {"short_factor", r.short_factor},
                 {"long_factor", r.long_factor}};
    const auto& a = s.params<AlibiParams>();
    j["alibi"] = {{"num_heads", a.num_heads},
                  {"slope_scale", a.slope_scale},
                  {"bias", a.bias == AlibiBias::Symmetric ? "symmetric" : "causal"},
                  {"scaling", alibi_scaling_id(a.scaling)},
                  {"trained_length", a.trained_length},
                  {"target_length", a.target_length}};
    j["cope"] = {{"head_dim", s.params<CopeParams>().head_dim}, {"npos_max", s.params<CopeParams>().npos_max}, {"gate_scale", s.params<CopeParams>().gate_scale},
                 {"seed", s.params<CopeParams>().seed}, {"stddev", s.params<CopeParams>().stddev}};
    return j;
}

Scenario scenario_from_json(const json& j, const Scenario& base)
{
    Scenario s = base;
    const Reader top(j, "");
    top.id("method", s.method, [](const std::string& v) { return parse_method(v); },
           "sinusoidal|learned|shaw|transformer-xl|t5|deberta|rope|alibi|cope");
    top.integer("seq_len", s.seq_len);
    top.integer("head", s.head);
    if (auto c = top.child("content")) {
        c->id("kind", s.content.kind, [](const std::string& v) { return parse_content_kind(v); }, "ones|zero|fixed|random");
        c->seed("seed", s.content.seed);
    }
    if (auto c = top.child("sinusoidal")) {
        c->integer("dim", s.params<SinusoidalParams>().dim);
        c->number("base", s.params<SinusoidalParams>().base);
        c->id("layout", s.params<SinusoidalParams>().layout,
              [](const std::string& v) {
                  return parse_pair(v, "interleaved", SinusoidalLayout::Interleaved, "split", SinusoidalLayout::Split);
              },
              "interleaved|split");
    }
    if (auto c = top.child("learned")) {
        c->integer("dim", s.params<LearnedParams>().dim);
        c->integer("trained_length", s.params<LearnedParams>().trained_length);
        c->seed("seed", s.params<LearnedParams>().seed);
        c->number("stddev", s.params<LearnedParams>().stddev);
        c->text("table_path", s.params<LearnedParams>().table_path);
    }
    if (auto c = top.child("shaw")) {
        c->integer("head_dim", s.params<ShawParams>().head_dim);
        c->integer("max_relative_position", s.params<ShawParams>().max_relative_position);
        c->seed("seed", s.params<ShawParams>().seed);
        c->number("stddev", s.params<ShawParams>().stddev);
    }
    if (auto c = top.child("transformer_xl")) {
        auto& x = s.params<TransformerXLParams>();
        c->integer("head_dim", x.head_dim);
        c->number("base", x.base);
        c->seed("seed", x.seed);
        c->number("stddev", x.stddev);
        c->boolean("term_a", x.term_a);
        c->boolean("term_b", x.term_b);
        c->boolean("term_c", x.term_c);
        c->boolean("term_d", x.term_d);
    }
    if (auto c = top.child("t5")) {
        c->integer("num_buckets", s.params<T5Params>().num_buckets);
        c->integer("max_distance", s.params<T5Params>().max_distance);
        c->boolean("bidirectional", s.params<T5Params>().bidirectional);
        c->integer("num_heads", s.params<T5Params>().num_heads);
        c->seed("seed", s.params<T5Params>().seed);
        c->number("stddev", s.params<T5Params>().stddev);
    }
    if (auto c = top.child("deberta")) {
        auto& d = s.params<DebertaParams>();
        c->integer("head_dim", d.head_dim);
        c->integer("position_buckets", d.position_buckets);
        c->integer("max_relative_positions", d.max_relative_positions);
        c->boolean("c2p", d.c2p);
        c->boolean("p2c", d.p2c);
        c->seed("seed", d.seed);
        c->number("stddev", d.stddev);
    }
    if (auto c = top.child("rope")) {
        auto& r = s.params<RopeParams>();
        c->integer("head_dim", r.head_dim);
        c->number("rope_theta", r.rope_theta);
        c->number("partial_rotary_factor", r.partial_rotary_factor);
        c->id("rope_type", r.rope_type, [](const std::string& v) { return parse_rope_type(v); },
              "default|linear|ntk|dynamic|yarn|llama3|longrope");
        c->id("pairing", r.pairing,
              [](const std::string& v) {
                  return parse_pair(v, "interleaved", RopePairing::Interleaved, "half", RopePairing::Half);
              },
              "interleaved|half");
        c->number("factor", r.factor);
        c->integer("max_position_embeddings", r.max_position_embeddings);
        c->integer("original_max_position_embeddings", r.original_max_position_embeddings);
        c->integer("seq_len", r.seq_len);
        c->number("beta_fast", r.beta_fast);
        c->number("beta_slow", r.beta_slow);
        c->optional_number("mscale", r.mscale);
        c->optional_number("mscale_all_dim", r.mscale_all_dim);
        c->optional_number("attention_factor", r.attention_factor);
        c->boolean("truncate", r.truncate);
        c->number("low_freq_factor", r.low_freq_factor);
        c->number("high_freq_factor", r.high_freq_factor);
        c->numbers("short_factor", r.short_factor);
        c->numbers("long_factor", r.long_factor);
    }
    if (auto c = top.child("alibi")) {
        auto& a = s.params<AlibiParams>();
        c->integer("num_heads", a.num_heads);
        c->number("slope_scale", a.slope_scale);
        c->id("bias", a.bias,
              [](const std::string& v) {
                  return parse_pair(v, "causal", AlibiBias::Causal, "symmetric", AlibiBias::Symmetric);
              },
              "causal|symmetric");
        c->id("scaling", a.scaling, [](const std::string& v) { return parse_alibi_scaling(v); },
              "none|interpolate|ntk");
        c->integer("trained_length", a.trained_length);
        c->integer("target_length", a.target_length);
    }
    if (auto c = top.child("cope")) {
        c->integer("head_dim", s.params<CopeParams>().head_dim);
        c->integer("npos_max", s.params<CopeParams>().npos_max);
        c->number("gate_scale", s.params<CopeParams>().gate_scale);
        c->seed("seed", s.params<CopeParams>().seed);
        c->number("stddev", s.params<CopeParams>().stddev);
    }
    return s;
}

} // namespace posatlas

namespace posatlas {

std::string scenario_json_key(const Scenario& s, const std::string& parameter)
{
    if (parameter == "seq_len" || parameter == "head")
        return parameter;
    std::string section;
    switch (s.method) {
    case Method::Sinusoidal: section = "sinusoidal"; break;
    case Method::Learned: section = "learned"; break;
    case Method::Shaw: section = "shaw"; break;
    case Method::TransformerXL: section = "transformer_xl"; break;
    case Method::T5: section = "t5"; break;
    case Method::DeBERTa: section = "deberta"; break;
    case Method::RoPE: section = "rope"; break;
    case Method::ALiBi: section = "alibi"; break;
    case Method::CoPE: section = "cope"; break;
    }
    // validate() uses the Hugging Face key; the session JSON names a few fields differently.
    std::string key = parameter;
    if (parameter == "initializer_range")
        key = "stddev";
    else if (s.method == Method::Learned && parameter == "max_position_embeddings")
        key = "trained_length";
    else if (parameter == "relative_attention_num_buckets")
        key = "num_buckets";
    else if (parameter == "relative_attention_max_distance")
        key = "max_distance";
    return section + "." + key;
}

} // namespace posatlas
