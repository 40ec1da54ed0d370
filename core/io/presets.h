// SPDX-License-Identifier: GPL-3.0-or-later
// Model presets: real config.json values of well-known models, shipped inside the library
// (resources/presets/<id>.json, embedded at build time by core/io/embed_presets.cmake).
// Each file is a Hugging Face config.json (only the keys that matter for positions and the model's shape)
// plus metadata keys "_posatlas_name", "_posatlas_family", "_posatlas_source" (URL of the config.json or
// the paper) and "_posatlas_description" (one sentence on the model's positional encoding).
#pragma once

#include "io/model_config.h"
#include "scenario/params.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

struct PresetInfo {
    std::string id;     // file name without .json, lowercase ("llama-3.1-8b")
    std::string name;   // "Llama 3.1 8B"
    std::string family; // "Llama", "Qwen", "Mistral", "Phi", "DeepSeek", "GPT-OSS", "GPT-NeoX", "BLOOM", ...
    std::string source; // URL of the config.json, or of the paper
    std::string description; // one sentence on the model's positional encoding
    Method method;           // what import_model_config() decides for this preset
};

// Every embedded preset, sorted by id.
std::vector<PresetInfo> list_presets();
// The preset with this id, or nullopt.
std::optional<PresetInfo> find_preset(std::string_view id);
// Imports the preset's config through import_model_config(). Unknown id -> ConfigError listing the valid ids.
ConfigImport load_preset(std::string_view id, const Scenario& base = {});

} // namespace posatlas
