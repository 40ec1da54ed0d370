// SPDX-License-Identifier: GPL-3.0-or-later
// The report of a model config import (io/model_config.h) in one form for every reader: the GUI's import
// report, `posatlas inspect` (text and JSON) and the tests build it here, so they cannot disagree. The
// section titles are translated by each caller; the contents (keys, notes, layer lines) are these strings.
#pragma once

#include "io/model_config.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace posatlas {

// One line per group of alike layers (group_layers): "layers 0-4, 6-10: sliding 4096, RoPE θ=10000".
// Parts: the span ("global", "sliding W", "chunked C"), the encoding ("RoPE θ=B", with ", linear ×8" for
// a scaling, or "NoPE"), and Llama 4's temperature ("temperature log(⌊(p+1)/8192⌋+1)·0.1+1").
std::vector<std::string> layer_lines(const std::vector<LayerAnatomy>& layers);
// One layer's description (the text after "layers ...: ").
std::string layer_text(const LayerAnatomy& layer);

// How far back information reaches for the query at position `q` after k = 1 .. layers.size() layers
// (receptive_field_start, io/model_layers.h), runs of k with the same reach on one line:
// "after 1-3 layers: from position 16384 (3616 back)", "after 4-48 layers: from position 0 (20000 back)".
std::vector<std::string> receptive_field_lines(const std::vector<LayerAnatomy>& layers, std::int64_t q);

// Everything the report says, as JSON: model_type, method, read, not_modelled, not_recognised, notes,
// parameters (what the keys became: the method's parameters as a session file writes them,
// scenario_to_json), layer_groups (layer_lines) and layers (the
// full table: index, attention, span, rope, rope_theta, rope_type, rope_factor, temperature with
// floor_scale and attn_scale) and receptive_field: {position q, start: the earliest position reaching q
// after k = 1 .. n layers} for q = the model's max_position_embeddings - 1 (RoPE), else none.
nlohmann::json import_report_json(const ConfigImport& imp);

} // namespace posatlas
