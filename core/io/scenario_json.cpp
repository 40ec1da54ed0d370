// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/scenario_json.h"

#include "methods/registry.h"

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
    template <typename Int> void integer(const char* key, Int& out) const
    {
        if (const json* v = find(key)) {
            if (!v->is_number_integer())
                fail(key, "an integer", *v);
            // Negative values compare against min only: cast to unsigned, -64 looked larger than INT_MAX.
            const bool fits =
                v->is_number_unsigned()
                    ? v->get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max())
                : v->get<std::int64_t>() < 0
                    ? v->get<std::int64_t>() >= static_cast<std::int64_t>(std::numeric_limits<Int>::min())
                    : static_cast<std::uint64_t>(v->get<std::int64_t>()) <=
                          static_cast<std::uint64_t>(std::numeric_limits<Int>::max());
            if (!fits)
                fail(key,
                     "an integer in [" + std::to_string(std::numeric_limits<Int>::min()) + ", " +
                         std::to_string(std::numeric_limits<Int>::max()) + "]",
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

    bool has(const std::string& key) const { return find(key.c_str()) != nullptr; }
    [[noreturn]] void fail_value(const std::string& key, const std::string& expected, const json& got) const
    {
        fail(key, expected, got);
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

} // namespace

json scenario_to_json(const Scenario& s)
{
    json j;
    j["method"] = std::string(s.method.id());
    j["seq_len"] = s.seq_len;
    j["head"] = s.head;
    j["content"] = {{"kind", std::string(content_kind_id(s.content.kind))}, {"seed", s.content.seed}};
    if (!s.content.text.empty())
        j["content"]["text"] = s.content.text;
    if (!s.content.permuted.empty())
        j["content"]["permuted"] = s.content.permuted;
    // The user's queries and keys: paths as given (a session's relative paths are resolved against its
    // folder when it is opened), and the tensor of a safetensors file.
    for (const char* key : {"queries", "queries_tensor", "keys", "keys_tensor"})
        if (const json v = common_field(key)->get(s); !v.get<std::string>().empty())
            j["content"][key] = v;
    j["causal"] = s.causal;
    // The mask's window and Llama 4's temperature (read back when present: older sessions lack them).
    j["window"] = std::string(window_id(s.window));
    j["window_span"] = s.window_span;
    j["attn_temperature_tuning"] = s.attn_temperature_tuning;
    j["floor_scale"] = s.floor_scale;
    j["attn_scale"] = s.attn_scale;
    for (const MethodDescriptor& d : methods()) {
        json section = json::object();
        for (const Field& f : d.fields)
            section[f.key] = f.get(s);
        j[d.section] = std::move(section);
    }
    return j;
}

namespace {

// Reads one field of a method's section: its key or an older alias. The JSON type must match the
// field's (ranges are validate()'s business).
void read_field(const Reader& r, const Field& f, Scenario& s)
{
    std::string key = f.key;
    if (!r.has(key))
        for (const std::string& alias : f.aliases)
            if (r.has(alias)) {
                key = alias;
                break;
            }
    if (!r.has(key))
        return;
    switch (f.type) {
    case FieldType::Int: {
        std::int64_t v = 0;
        r.integer(key.c_str(), v);
        f.set(s, v);
        return;
    }
    case FieldType::Seed: {
        std::uint64_t v = 0;
        r.seed(key.c_str(), v);
        f.set(s, v);
        return;
    }
    case FieldType::Real: {
        double v = 0;
        r.number(key.c_str(), v);
        f.set(s, v);
        return;
    }
    case FieldType::OptionalReal: {
        std::optional<double> v;
        r.optional_number(key.c_str(), v);
        f.set(s, v ? json(*v) : json(nullptr));
        return;
    }
    case FieldType::Bool: {
        bool v = false;
        r.boolean(key.c_str(), v);
        f.set(s, v);
        return;
    }
    case FieldType::Text: {
        std::string v;
        r.text(key.c_str(), v);
        f.set(s, v);
        return;
    }
    case FieldType::RealList: {
        std::vector<double> v;
        r.numbers(key.c_str(), v);
        f.set(s, v);
        return;
    }
    case FieldType::Choice: {
        std::string v;
        r.text(key.c_str(), v);
        if (!f.choice_index(v))
            r.fail_value(key, f.allowed(), json(v));
        f.set(s, v);
        return;
    }
    }
}

} // namespace

namespace {

constexpr const char* kContentKeys[] = {"kind",    "seed",           "text", "permuted",
                                        "queries", "queries_tensor", "keys", "keys_tensor"};

// Every key a scenario's JSON may hold, level by level, for the unknown-key report.
void report_unknown_keys(const json& j, std::vector<UnknownKey>& out)
{
    std::vector<std::string> top{"method",      "seq_len",   "head",        "content",
                                 "causal",      "window",    "window_span", "attn_temperature_tuning",
                                 "floor_scale", "attn_scale"};
    for (const MethodDescriptor& d : methods())
        top.push_back(d.section);
    collect_unknown_keys(j, top, "", out);
    if (const auto c = j.find("content"); c != j.end())
        collect_unknown_keys(*c, std::vector<std::string>(std::begin(kContentKeys), std::end(kContentKeys)),
                             "content", out);
    for (const MethodDescriptor& d : methods())
        if (const auto section = j.find(d.section); section != j.end()) {
            std::vector<std::string> keys;
            for (const Field& f : d.fields) {
                keys.push_back(f.key);
                keys.insert(keys.end(), f.aliases.begin(), f.aliases.end());
            }
            if (d.section == "nope")
                keys.push_back("causal"); // NoPE's old mask, read as the scenario's switch (above)
            collect_unknown_keys(*section, keys, d.section, out);
        }
}

} // namespace

Scenario scenario_from_json(const json& j, const Scenario& base, std::vector<UnknownKey>* unknown)
{
    Scenario s = base;
    const Reader top(j, "");
    top.id(
        "method", s.method, [](const std::string& v) { return parse_method(v); }, method_ids().c_str());
    top.integer("seq_len", s.seq_len);
    top.integer("head", s.head);
    if (auto c = top.child("content")) {
        c->id(
            "kind", s.content.kind, [](const std::string& v) { return parse_content_kind(v); },
            "ones|zero|fixed|random");
        c->seed("seed", s.content.seed);
        if (c->has("text")) {
            std::string text;
            c->text("text", text);
            common_field("text")->set(s, text); // the tokens, and seq_len = their number
        }
        if (c->has("permuted")) {
            std::string permuted;
            c->text("permuted", permuted);
            common_field("permuted")->set(s, permuted);
        }
        for (const char* key : {"queries", "queries_tensor", "keys", "keys_tensor"})
            if (c->has(key)) {
                std::string v;
                c->text(key, v);
                common_field(key)->set(s, v);
            }
    }
    if (top.has("causal"))
        top.boolean("causal", s.causal);
    if (top.has("window"))
        top.id(
            "window", s.window, [](const std::string& v) { return parse_window(v); }, "none|sliding|chunked");
    if (top.has("window_span"))
        top.integer("window_span", s.window_span);
    if (top.has("attn_temperature_tuning"))
        top.boolean("attn_temperature_tuning", s.attn_temperature_tuning);
    if (top.has("floor_scale"))
        top.number("floor_scale", s.floor_scale);
    if (top.has("attn_scale"))
        top.number("attn_scale", s.attn_scale);
    // NoPE's own mask of old ("nope": {"causal": b}) is the scenario's switch now (nope.h): it sets the
    // switch unless the file gives the switch itself, which the weights have always followed.
    if (auto nope = top.child("nope"); nope && nope->has("causal") && !top.has("causal"))
        nope->boolean("causal", s.causal);
    for (const MethodDescriptor& d : methods())
        if (auto c = top.child(d.section.c_str()))
            for (const Field& f : d.fields)
                read_field(*c, f, s);
    if (unknown)
        report_unknown_keys(j, *unknown);
    return s;
}

} // namespace posatlas

namespace posatlas {

std::string scenario_json_key(const Scenario& s, const std::string& parameter)
{
    if (parameter == "queries" || parameter == "keys" || parameter == "queries_tensor" ||
        parameter == "keys_tensor" || parameter == "permuted")
        return "content." + parameter; // written under "content", as the sentence's text
    if (common_field(parameter))
        return parameter;
    const MethodDescriptor& d = descriptor(s.method);
    return d.section + "." + (d.field(parameter) ? d.field(parameter)->key : parameter);
}

} // namespace posatlas
