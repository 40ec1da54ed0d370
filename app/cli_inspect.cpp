// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_inspect.h"

#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_quantities.h"
#include "io/hf_cache.h"
#include "io/import_report.h"
#include "io/model_config.h"
#include "io/number_text.h"
#include "methods/registry.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace posatlas::cli {

using nlohmann::json;
using quantity_kernels::write_json;

namespace {

OptionTable inspect_table()
{
    return {{.name = "format",
             .type = ArgType::Choice,
             .help = translate("Cli", "text: the report as sections, alike layers on one line; json: every "
                                      "field, and the full per-layer table."),
             .default_value = "text",
             .choices = {"text", "json"}}};
}

// A path (file, or a folder holding config.json), else ORG/NAME[@REV] in the local Hugging Face cache.
std::string config_path(const std::string& what)
{
    std::error_code ec;
    const std::filesystem::path p(what);
    if (std::filesystem::is_directory(p, ec))
        return (p / "config.json").string();
    if (std::filesystem::exists(p, ec) || what.find('/') == std::string::npos || what.rfind("./", 0) == 0 ||
        what.rfind('/', 0) == 0)
        return what;
    try {
        return resolve_hf_model(hf_cache_root().path, parse_hf_model_ref(what)).config.string();
    } catch (const InputFileError&) {
        return what; // not cached either: the file's own error names the path
    }
}

// "rope.rope_theta = 500000" lines of what the keys became (the scenario's JSON, flattened).
void flatten(const json& j, const std::string& prefix, std::vector<std::string>& lines)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), lines);
        return;
    }
    std::string text;
    append_json_text(text, j);
    lines.push_back(prefix + " = " + text);
}

void section(std::ostream& out, const std::string& title, const std::vector<std::string>& items,
             const std::string& bullet)
{
    out << title << '\n';
    if (items.empty())
        out << "  (" << translate("Cli", "none") << ")\n";
    for (const std::string& i : items)
        out << "  " << bullet << i << '\n';
}

} // namespace

OptionSet inspect_option_set()
{
    return option_set(inspect_table());
}

std::string inspect_help()
{
    return render_help(
        usage_prefix() + "posatlas inspect FILE|ORG/NAME[@REV] [--format text|json]",
        translate("Cli",
                  "Prints the import report of a model, the one the window shows after File > Open Model: "
                  "the keys read, the parameters they became, the positional keys read but not modelled, "
                  "the keys not recognised and the notes, then every layer's attention (global, sliding "
                  "window of W keys, chunks of C) and positional encoding (RoPE with its base and scaling, "
                  "or NoPE). FILE is a config.json, a .gguf file or a folder holding config.json; ORG/NAME "
                  "is a model in the local Hugging Face cache. Diff the output of two models or of two "
                  "transformers versions of one config."),
        {{translate("Cli", "Options"), inspect_table()}, {translate("Cli", "Help"), {help_option()}}});
}

int run_inspect(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, inspect_table());
    if (o.help()) {
        out << inspect_help();
        return 0;
    }
    if (o.positional().size() != 1)
        throw UsageError(translate("Cli", "inspect takes one config.json, .gguf file, folder or ORG/NAME"));
    const std::string& what = o.positional().front();
    const ConfigImport imp = load_model_config(config_path(what));
    const json report = import_report_json(imp);
    if (*o.choice("format") == "json") {
        json j = report;
        j["source"] = what;
        write_json(out, j);
        return 0;
    }
    out << "# " << what << '\n';
    out << arg(translate("Cli", "Model type %1 -> method %2"),
               {imp.model_type.empty() ? translate("Cli", "(none)") : imp.model_type,
                std::string(method_display_name(imp.scenario.method))})
        << "\n\n";
    section(out, translate("Cli", "Read"), imp.read_keys, "");
    std::vector<std::string> became;
    flatten(report.at("parameters"), report.at("method").get<std::string>(), became);
    section(out, translate("Cli", "What they became"), became, "");
    section(out, translate("Cli", "Read, not modelled yet (about positions)"), imp.ignored_keys, "");
    section(out, translate("Cli", "Not recognised"), imp.unknown_keys, "");
    section(out, translate("Cli", "Notes"), imp.notes, "- ");
    if (!imp.layers.empty())
        section(out, arg(translate("Cli", "Layers (%1)"), {std::to_string(imp.layers.size())}),
                layer_lines(imp.layers), "");
    if (!imp.layers.empty()) {
        const std::int64_t q = report.at("receptive_field").at("position").get<std::int64_t>();
        section(out,
                arg(translate("Cli", "Receptive field of position %1 (the last of the context)"),
                    {std::to_string(q)}),
                receptive_field_lines(imp.layers, q), "");
    }
    return 0;
}

} // namespace posatlas::cli
