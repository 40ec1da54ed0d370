// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/presets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace posatlas::detail {
// Generated from resources/presets/*.json by core/io/embed_presets.cmake: (id, file text), sorted by id.
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_presets();
} // namespace posatlas::detail

namespace posatlas {
namespace {

struct Preset {
    PresetInfo info;
    nlohmann::json config;
};

std::string meta(const nlohmann::json& cfg, const char* key, std::string_view id)
{
    const auto it = cfg.find(key);
    if (it == cfg.end() || !it->is_string())
        throw ConfigError("preset '" + std::string(id) + "' lacks the string key " + key);
    return it->get<std::string>();
}

// Parsed once; a broken embedded preset is a build defect, reported as ConfigError on first use.
const std::vector<Preset>& presets()
{
    static const std::vector<Preset> all = [] {
        std::vector<Preset> out;
        for (const auto& [id, text] : detail::embedded_presets()) {
            Preset p;
            try {
                p.config = parse_json_input(text);
            } catch (const InputFileError& e) {
                throw ConfigError("preset '" + std::string(id) + "': " + e.what());
            }
            p.info.id = std::string(id);
            p.info.name = meta(p.config, "_posatlas_name", id);
            p.info.family = meta(p.config, "_posatlas_family", id);
            p.info.source = meta(p.config, "_posatlas_source", id);
            p.info.description = meta(p.config, "_posatlas_description", id);
            p.info.method = import_model_config(p.config).scenario.method;
            out.push_back(std::move(p));
        }
        std::sort(out.begin(), out.end(),
                  [](const Preset& a, const Preset& b) { return a.info.id < b.info.id; });
        return out;
    }();
    return all;
}

const Preset* find(std::string_view id)
{
    for (const auto& p : presets())
        if (p.info.id == id)
            return &p;
    return nullptr;
}

} // namespace

std::vector<PresetInfo> list_presets()
{
    std::vector<PresetInfo> out;
    for (const auto& p : presets())
        out.push_back(p.info);
    return out;
}

std::optional<PresetInfo> find_preset(std::string_view id)
{
    if (const Preset* p = find(id))
        return p->info;
    return std::nullopt;
}

ConfigImport load_preset(std::string_view id, const Scenario& base)
{
    const Preset* p = find(id);
    if (!p) {
        std::string ids;
        for (const auto& q : presets())
            ids += (ids.empty() ? "" : ", ") + q.info.id;
        throw ConfigError("unknown preset '" + quote_input(id) + "' (valid: " + ids + ")");
    }
    return import_model_config(p->config, base);
}

} // namespace posatlas
