// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_compute.h"

#include "cli_options.h"
#include "io/model_config.h"
#include "io/presets.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <limits>
#include <map>

// Building a Scenario from --preset / --config / --session and the method options: shared by
// `compute` and `export`. Option names are the Hugging Face config keys with dashes.
namespace posatlas::cli {
namespace {

// ------------------------------------------------------------------ option sets
// Every option comes from a field of the method registry: its option name (the config key with
// dashes) and aliases. A Bool field is a flag (--c2p, --c2p=false, --no-c2p, or a negation: --causal).

const std::vector<std::string> kSourceOptions{"preset", "config"};

bool is_flag(const Field& f) { return f.type == FieldType::Bool; }

// Every name by which `f` may be given, each with the value it implies for a flag (true, or false for
// --no-x and negations).
std::vector<std::pair<std::string, bool>> option_names(const Field& f)
{
    std::vector<std::pair<std::string, bool>> names{{f.option_name(), true}};
    for (const std::string& a : f.option_aliases)
        names.emplace_back(a, true);
    if (is_flag(f)) {
        names.emplace_back("no-" + f.option_name(), false);
        for (const std::string& n : f.negations)
            names.emplace_back(n, false);
    }
    return names;
}

// The field of the scenario or of method m that option `name` sets (and the flag value it implies).
std::optional<std::pair<const Field*, bool>> field_for_option(Method m, const std::string& name)
{
    std::vector<const Field*> candidates;
    for (const Field& f : common_fields())
        candidates.push_back(&f);
    for (const Field& f : descriptor(m).fields)
        candidates.push_back(&f);
    for (const Field* f : candidates)
        for (const auto& [n, value] : option_names(*f))
            if (n == name)
                return std::pair{f, value};
    return std::nullopt;
}

// The value of field f's option `name` as the field's JSON type; UsageError for text of another type.
nlohmann::json option_value(const Options& o, const Field& f, const std::string& name, bool flag_value)
{
    using nlohmann::json;
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    switch (f.type) {
    case FieldType::Bool: {
        const bool on = o.flag(name);
        return on == flag_value;
    }
    case FieldType::Int: return *o.integer(name, std::numeric_limits<std::int64_t>::min(), kMax);
    case FieldType::Seed: return static_cast<std::uint64_t>(*o.integer(name, 0, kMax));
    case FieldType::Real:
    case FieldType::OptionalReal: return *o.real(name);
    case FieldType::RealList: return *o.real_list(name);
    case FieldType::Text:
    case FieldType::Choice: return *o.text(name);
    }
    return nullptr;
}

std::string quantities_for(Method m)
{
    const auto& q = descriptor(m).quantities;
    std::string out;
    for (const std::string& name : q)
        out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "matrix" : out + ", matrix";
}

void apply_method_options(const Options& o, Scenario& s)
{
    std::vector<std::string> given;
    for (const Field* f : all_fields())
        for (const auto& [name, value] : option_names(*f))
            if (o.has(name) && std::find(given.begin(), given.end(), name) == given.end())
                given.push_back(name);
    for (const std::string& name : given) {
        const auto found = field_for_option(s.method, name);
        if (!found)
            continue; // another method's parameter (or a quantity's own option of the same name)
        const auto& [field, flag_value] = *found;
        const nlohmann::json v = option_value(o, *field, name, flag_value);
        try {
            field->check(v);
        } catch (const ParameterError& e) {
            throw UsageError("--" + name + " must be " + e.allowed() + " (got " + e.got() + ")");
        }
        field->set(s, v);
    }
    // One --seq-len: the positions shown (N) and, for fields that follow it (RoPE's current length for
    // dynamic NTK / LongRoPE), their value unless given on their own.
    if (o.has("seq-len"))
        for (const Field& f : descriptor(s.method).fields)
            if (f.follows_seq_len && !o.has(f.option_name()))
                f.set(s, s.seq_len);
}

void apply_method_choice(const Options& o, Scenario& s)
{
    if (auto m = o.text("method")) {
        const auto parsed = parse_method(*m);
        if (!parsed)
            throw UsageError("--method must be one of " + method_ids() + " (got '" + *m + "')");
        s.method = *parsed;
    }
}

// The option a ParameterError's key is given by: the field with that key (any method; the same key
// has the same option everywhere).
std::string option_for_key(const std::string& key)
{
    for (const Field* f : all_fields())
        if (f->key == key)
            return "--" + f->option_name();
    return option_name(key);
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
    v.push_back("method");
    for (const Field* f : all_fields())
        if (!is_flag(*f))
            for (const auto& [name, value] : option_names(*f))
                if (std::find(v.begin(), v.end(), name) == v.end())
                    v.push_back(name);
    return v;
}

std::vector<std::string> scenario_flag_options()
{
    std::vector<std::string> v;
    for (const Field* f : all_fields())
        if (is_flag(*f))
            for (const auto& [name, value] : option_names(*f))
                if (std::find(v.begin(), v.end(), name) == v.end())
                    v.push_back(name);
    return v;
}

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
            throw UsageError(model + " uses " + descriptor(s.method).noun + ", not " + descriptor(*required).noun + "; "
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
