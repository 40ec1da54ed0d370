// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_compute.h"

#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_options.h"
#include "io/checkpoint_adoption.h"
#include "io/hf_cache.h"
#include "io/model_config.h"
#include "io/number_text.h"
#include "io/presets.h"
#include "methods/registry.h"
#include "model/parameter_message.h"
#include "scenario/content.h"
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

bool is_flag(const Field& f)
{
    return f.type == FieldType::Bool;
}

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

// The fields of the scenario and of method m that option `name` sets (each with the flag value it implies).
// Usually one; --causal sets both the scenario's causal mask and the method's own (xPos; T5's decoder
// buckets), so that the weights and the logits agree. NoPE has none of its own: the scenario's is its mask.
std::vector<std::pair<const Field*, bool>> fields_for_option(Method m, const std::string& name)
{
    std::vector<const Field*> candidates;
    for (const Field& f : common_fields())
        candidates.push_back(&f);
    for (const Field& f : descriptor(m).fields)
        candidates.push_back(&f);
    std::vector<std::pair<const Field*, bool>> out;
    for (const Field* f : candidates)
        for (const auto& [n, value] : option_names(*f))
            if (n == name) {
                out.emplace_back(f, value);
                break;
            }
    return out;
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
        // None: another method's parameter (or a quantity's own option of the same name).
        for (const auto& [field, flag_value] : fields_for_option(s.method, name)) {
            const nlohmann::json v = option_value(o, *field, name, flag_value);
            try {
                field->check(v);
            } catch (const ParameterError& e) {
                throw UsageError(parameter_message("--" + name, e.allowed(), e.got()));
            }
            // A sentence given on the command line must have a word: "" would silently mean "no sentence".
            if (field->key == "text" && tokenize_text(v.get<std::string>()).empty())
                throw UsageError(arg(translate("Cli", "--%1 must be a sentence of 1 to %2 words (got '%3')"),
                                     {name, std::to_string(kMaxTextTokens), v.get<std::string>()}));
            field->set(s, v);
            // The rule the panel applies too (Field::companion): a RoPE scaling type chosen with
            // factor 1 gets factor 4, unless the other value was given.
            if (field->companion) {
                Scenario companioned = s;
                const std::string changed = field->companion(companioned);
                const Field* other = changed.empty() ? nullptr : descriptor(s.method).field(changed);
                if (!other && !changed.empty())
                    other = common_field(changed); // M-RoPE's layout sets seq_len
                if (other && !o.has(other->option_name()))
                    s = std::move(companioned);
            }
        }
    }
    // A sentence sets the positions: --seq-len beside it must agree.
    if (o.has("text") && o.has("seq-len") &&
        *o.integer("seq-len", std::numeric_limits<std::int64_t>::min(),
                   std::numeric_limits<std::int64_t>::max()) !=
            static_cast<std::int64_t>(s.content.tokens.size()))
        throw UsageError(arg(
            translate("Cli", "--seq-len must be %1, the number of tokens of --text, or be left out (got %2)"),
            {std::to_string(s.content.tokens.size()), *o.text("seq-len")}));
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
            throw UsageError(
                arg(translate("Cli", "--method must be one of %1 (got '%2')"), {method_ids(), *m}));
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
    throw UsageError(parameter_message(option_for_key(e.parameter()), e.allowed(), e.got()));
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

namespace {

// The default of a field as help shows it.
std::string default_text(const Field& f, const Scenario& defaults)
{
    const nlohmann::json v = f.get(defaults);
    if (v.is_boolean())
        return v.get<bool>() ? translate("Cli", "on") : translate("Cli", "off");
    if (v.is_null())
        return f.unset_label ? translate("ParamSpec", f.unset_label) : translate("Cli", "unset");
    if (v.is_string())
        return v.get<std::string>().empty() ? translate("Cli", "none") : v.get<std::string>();
    if (v.is_number())
        return number_text(v.get<double>());
    if (v.is_array()) {
        if (v.empty())
            return translate("Cli", "none");
        std::string out;
        // append(), not "," + std::string: GCC 12 -O2 warns falsely (-Wrestrict) on the latter.
        for (const auto& x : v)
            out.append(out.empty() ? "" : ",").append(number_text(x.get<double>()));
        return out;
    }
    return v.dump();
}

// A registry field as a command-line option: its names, its meaning (label, unit and tooltip), the
// range the registry checks, and its default for the method.
OptionSpec field_spec(const Field& f, const Scenario& defaults)
{
    OptionSpec o;
    o.name = f.option_name();
    o.aliases = f.option_aliases;
    // The GUI's label, unit and tooltip, translated as the GUI shows them.
    o.help = translate("ParamSpec", f.label);
    if (*f.unit)
        o.help = arg(translate("Cli", "%1 (%2)", "a parameter: its label, then its unit"),
                     {o.help, translate("ParamSpec", f.unit)});
    if (*f.tooltip)
        o.help = arg(translate("Cli", "%1: %2", "a parameter: its name, then what it means"),
                     {o.help, translate("ParamSpec", f.tooltip)});
    else
        o.help += translate("Cli", ".");
    switch (f.type) {
    case FieldType::Bool:
        o.type = ArgType::Flag;
        o.aliases.push_back("no-" + f.option_name());
        o.aliases.insert(o.aliases.end(), f.negations.begin(), f.negations.end());
        o.help +=
            arg(translate("Cli", " (%1: off)"),
                {"--no-" + f.option_name() + (f.negations.empty() ? "" : ", --" + f.negations.front())});
        break;
    case FieldType::Int:
    case FieldType::Seed: o.type = ArgType::Int; break;
    case FieldType::Real:
    case FieldType::OptionalReal: o.type = ArgType::Real; break;
    case FieldType::RealList: o.type = ArgType::RealList; break;
    case FieldType::Choice:
        o.type = ArgType::Choice;
        for (const FieldChoice& c : f.choices)
            o.choices.emplace_back(c.id);
        break;
    case FieldType::Text: // a file (table_path) or a name / sentence (table_tensor, text)
        o.type = f.path ? ArgType::Path : ArgType::Text;
        break;
    }
    if (f.type != FieldType::Bool)
        o.allowed = f.allowed() == "a string" ? translate("Cli", "a string")
                                              : ui::allowedText(f.allowed()).toStdString();
    o.default_text = default_text(f, defaults);
    return o;
}

const OptionSpec kPreset{
    .name = "preset",
    .type = ArgType::Text,
    .help = translate("Cli", "Start from a shipped model preset (posatlas presets lists them); options given "
                             "beside it override its values."),
    .metavar = "NAME"};
const OptionSpec kConfig{
    .name = "config",
    .type = ArgType::Path,
    .help = translate("Cli", "Start from a Hugging Face config.json, or the metadata of a llama.cpp .gguf "
                             "file (read as the equivalent config.json); options given beside it override "
                             "its values. Exclusive with --preset."),
    .allowed = translate("Cli", "a JSON or .gguf file")};
const OptionSpec kModel{
    .name = "model",
    .type = ArgType::Text,
    .help = translate("Cli",
                      "Start from a model in the local Hugging Face cache ($HF_HUB_CACHE, else $HF_HOME/hub, "
                      "else ~/.cache/huggingface/hub; posatlas models lists it): its config.json exactly as "
                      "--config would read it, and for learned absolute positions its cached weights "
                      "(the known position tensor) unless --weights is given. Nothing is downloaded: "
                      "posatlas download fetches a model. Exclusive with --preset and --config."),
    .metavar = "ORG/NAME[@REV]",
    .allowed = translate("Cli", "a cached model, like openai-community/gpt2 or org/name@revision")};

} // namespace

std::vector<HelpSection> scenario_sections(std::optional<Method> fixed)
{
    std::vector<HelpSection> sections;
    HelpSection model{translate("Cli", "Model"), {kPreset, kConfig, kModel}};
    if (!fixed) {
        OptionSpec method{
            .name = "method",
            .type = ArgType::Choice,
            .help = translate("Cli", "The positional encoding (unless the preset or config names one)."),
            .default_text = translate("Cli", "the preset's or config's, else rope")};
        for (const MethodDescriptor& d : methods())
            method.choices.emplace_back(method_id(d.method));
        model.options.push_back(method);
    }
    const Scenario defaults;
    for (const Field& f : common_fields())
        model.options.push_back(field_spec(f, defaults));
    sections.push_back(std::move(model));
    for (const MethodDescriptor& d : methods()) {
        if (fixed && d.method != *fixed)
            continue;
        Scenario s;
        s.method = d.method;
        const std::string name = translate("Method", d.short_name);
        HelpSection section{
            arg(translate("Cli", "%1 parameters (--method %2)"), {name, std::string(method_id(d.method))}),
            {}};
        if (fixed)
            section.title = arg(translate("Cli", "%1 parameters"), {name});
        for (const Field& f : d.fields)
            section.options.push_back(field_spec(f, s));
        sections.push_back(std::move(section));
    }
    return sections;
}

Scenario scenario_from_options(const Options& o, std::optional<Method> required, const std::string& quantity)
{
    if (int(o.has("preset")) + int(o.has("config")) + int(o.has("model")) > 1)
        throw UsageError(translate("Cli", "--preset, --config and --model are exclusive: give one model"));
    Scenario s;
    std::string model;
    std::string source;         // where values not given as options came from, for messages
    std::string cached_weights; // --model: the snapshot's checkpoint, if it has one
    if (auto name = o.text("model")) {
        HfResolvedModel m;
        try {
            m = resolve_hf_model(hf_cache_root().path, parse_hf_model_ref(*name));
            s = load_model_config(m.config.string()).scenario;
        } catch (const InputFileError& e) { // HfCacheError, ConfigError
            throw UsageError(std::string("--model: ") + e.what());
        }
        model = "model " + *name;
        source = m.config.string();
        cached_weights = m.weights.string();
    }
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
    // A rotary quantity on a model whose method is rotary but another one (MLA): it reads the model's
    // rotary part, the parameters the rotary views draw (registry.h).
    if (required && s.method != *required && is_rotary(*required))
        if (const std::optional<RopeParams> rotary = rotary_params(s)) {
            const RopeParams part = *rotary;
            s.params<RopeParams>() = part;
            s.method = *required;
        }
    if (required) {
        if (!model.empty() && s.method != *required)
            throw UsageError(model + " uses " + descriptor(s.method).noun + ", not " +
                             descriptor(*required).noun + "; " + quantity +
                             " does not apply (try: " + quantities_for(s.method) + ")");
        s.method = *required;
    }
    // A table file given by hand (--weights) whose field has an adoption rule of its own takes it (T5: its
    // bucket count, head count and direction); options given beside it still override them, and validate()
    // then names the one the table contradicts. The cached checkpoint of --model then fills every table its
    // method knows in it that was not given by hand (io/checkpoint_adoption.h).
    const auto given = [&](const Field& f) {
        if (o.has(f.option_name()))
            return f.option_name();
        for (const std::string& alias : f.option_aliases)
            if (o.has(alias))
                return alias;
        return std::string();
    };
    for (const Field& f : descriptor(s.method).fields) {
        const std::string option = f.adopt_tensor ? given(f) : std::string();
        if (option.empty())
            continue;
        const Field* tensor = descriptor(s.method).field(f.tensor_key);
        const std::string tensor_name = tensor ? o.text(tensor->option_name()).value_or("") : std::string();
        try {
            adopt_table_file(s, f, *o.text(option), tensor_name);
        } catch (const InputFileError& e) {
            throw UsageError("--" + option + ": " + e.what());
        }
    }
    try {
        adopt_checkpoint(s, cached_weights, [&](const Field& f) { return !given(f).empty(); });
    } catch (const InputFileError& e) {
        throw UsageError(std::string("--model: ") + e.what());
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
        throw UsageError(source + ": " + e.parameter() + " must be " + e.allowed() + " (got " + e.got() +
                         ")");
    }
    return s;
}

} // namespace posatlas::cli
