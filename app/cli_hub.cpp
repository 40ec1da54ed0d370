// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_hub.h"

#include "cli_export.h"
#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_quantities.h"
#include "hub/hub_download.h"
#include "io/hf_cache.h"

#include <nlohmann/json.hpp>

#include <QNetworkProxyFactory>

#include <unistd.h>

namespace posatlas::cli {

using nlohmann::json;
using quantity_kernels::write_json;

namespace {

OptionTable models_table()
{
    return {{.name = "format",
             .type = ArgType::Choice,
             .help = translate(
                 "Cli", "text: one line per cached snapshot (model, revision, files); json: every field."),
             .default_value = "text",
             .choices = {"text", "json"}}};
}

OptionTable download_table()
{
    return {
        {.name = "config-only",
         .type = ArgType::Flag,
         .help = translate("Cli", "Fetch only config.json, not the position tensors.")},
        {.name = "timeout",
         .type = ArgType::Int,
         .help = translate(
             "Cli",
             "Give up when the Hub sends nothing for this many seconds, or less than 1 KiB/s over that "
             "long."),
         .metavar = "S",
         .default_value = "30",
         .lo = 1,
         .hi = 3600},
        {.name = "quiet", .type = ArgType::Flag, .help = translate("Cli", "No progress on standard error.")}};
}

std::string files_text(const HfSnapshot& s)
{
    std::string t = s.has_config ? "config.json" : "";
    if (s.has_index)
        t += std::string(t.empty() ? "" : ", ") + "model.safetensors.index.json";
    for (const std::string& f : s.safetensors)
        t += (t.empty() ? "" : ", ") + f;
    if (s.has_positions)
        t += std::string(t.empty() ? "" : ", ") + std::string(kPartialWeightsFile) +
             " (position tensors only)";
    return t.empty() ? "(no files)" : t;
}

} // namespace

OptionSet models_option_set()
{
    return option_set(models_table());
}
OptionSet download_option_set()
{
    return option_set(download_table());
}

std::string models_help()
{
    return render_help(
        usage_prefix() + "posatlas models [--format text|json]",
        translate(
            "Cli",
            "Lists the models in the local Hugging Face cache (for --model ORG/NAME[@REV]): $HF_HUB_CACHE, "
            "else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub, "
            "the folders huggingface_hub writes (models--ORG--NAME/snapshots/COMMIT/)."),
        {{translate("Cli", "Options"), models_table()}, {translate("Cli", "Help"), {help_option()}}});
}

int run_models(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, models_table());
    if (o.help()) {
        out << models_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'"), {o.positional().front()}));
    const HfCacheRoot root = hf_cache_root();
    const auto models = list_hf_cache(root.path);
    if (*o.choice("format") == "json") {
        json list = json::array();
        for (const HfCachedModel& m : models) {
            json snaps = json::array();
            for (const HfSnapshot& s : m.snapshots)
                snaps.push_back({{"commit", s.commit},
                                 {"path", s.dir.string()},
                                 {"config", s.has_config},
                                 {"index", s.has_index},
                                 {"safetensors", s.safetensors},
                                 {"position_tensors_only", s.has_positions}});
            list.push_back(
                {{"model", m.repo_id}, {"path", m.dir.string()}, {"refs", m.refs}, {"snapshots", snaps}});
        }
        write_json(out, json{{"cache", root.path.string()}, {"cache_from", root.source}, {"models", list}});
        return 0;
    }
    out << "# Hugging Face cache " << root.path.string() << " (from " << root.source << ")\n";
    if (models.empty())
        out << "# no models cached; posatlas download ORG/NAME fetches one\n";
    for (const HfCachedModel& m : models)
        for (const HfSnapshot& s : m.snapshots) {
            std::string refs;
            for (const auto& [ref, commit] : m.refs)
                if (commit == s.commit)
                    refs += (refs.empty() ? "" : ",") + ref;
            out << m.repo_id
                << (refs.empty()     ? "@" + s.commit
                    : refs == "main" ? ""
                                     : "@" + refs)
                << "  " << s.commit << "  " << files_text(s) << '\n';
        }
    return 0;
}

std::string download_help()
{
    return render_help(
        usage_prefix() + "posatlas download ORG/NAME[@REV] [--config-only] [--timeout S] [--quiet]",
        translate("Cli",
                  "Fetches a model from the Hugging Face Hub into the local cache (see posatlas "
                  "models), so that --model "
                  "ORG/NAME opens it: its config.json, and only the bytes of the position tensors "
                  "PosAtlas knows (GPT-2 "
                  "wpe.weight, BERT and OPT position embeddings, T5 relative_attention_bias, DeBERTa "
                  "rel_embeddings) read by "
                  "HTTP range requests from model.safetensors or the shards its index names, never the "
                  "whole checkpoint. "
                  "They are stored as snapshots/COMMIT/posatlas-positions.safetensors. The endpoint is "
                  "$HF_ENDPOINT (default "
                  "https://huggingface.co); $HF_TOKEN is sent as a bearer token (gated and private "
                  "models). Nothing is cached "
                  "unless every request succeeded."),
        {{translate("Cli", "Options"), download_table()}, {translate("Cli", "Help"), {help_option()}}});
}

int run_download(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const Options o(args, download_table());
    if (o.help()) {
        out << download_help();
        return 0;
    }
    if (o.positional().size() != 1)
        throw UsageError(
            translate("Cli", "download takes one model, like posatlas download openai-community/gpt2"));
    HfModelRef ref;
    try {
        ref = parse_hf_model_ref(o.positional().front());
    } catch (const HfCacheError& e) {
        throw UsageError(e.what());
    }
    HubDownloadRequest request = hub_request_from_environment(ref);
    request.weights = !o.flag("config-only");
    request.timeout_ms = static_cast<int>(*o.integer("timeout")) * 1000;
    ensure_application();
    // http_proxy / https_proxy / no_proxy, as huggingface_hub (requests) honours them.
    QNetworkProxyFactory::setUseSystemConfiguration(true);
    const bool show = !o.flag("quiet") && ::isatty(STDERR_FILENO);
    const auto progress = [&](std::int64_t done, std::int64_t total, const std::string& what) {
        if (show)
            err << "\r"
                << arg(total > 0 ? translate("Cli", "%1: %2 / %3 bytes") : translate("Cli", "%1: %2 bytes"),
                       {what, std::to_string(done), std::to_string(total)})
                << std::flush;
    };
    const HubDownloadResult r = download_hub_model(request, progress);
    if (show)
        err << '\n';
    json j{{"model", ref.repo_id},        {"revision", ref.revision},
           {"commit", r.commit},          {"snapshot", r.snapshot.string()},
           {"config", r.config.string()}, {"tensors", r.tensors},
           {"bytes_received", r.bytes},   {"notes", r.notes}};
    if (!r.positions.empty())
        j["positions"] = r.positions.string();
    write_json(out, j);
    return 0;
}

} // namespace posatlas::cli
