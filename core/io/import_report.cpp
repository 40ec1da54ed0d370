// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/import_report.h"

#include "io/number_text.h"
#include "io/scenario_json.h"
#include "methods/registry.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace posatlas {

std::string layer_text(const LayerAnatomy& a)
{
    std::string s;
    switch (a.attention) {
    case LayerAttention::Global: s = "global"; break;
    case LayerAttention::Sliding: s = "sliding " + std::to_string(a.span); break;
    case LayerAttention::Chunked: s = "chunked " + std::to_string(a.span); break;
    }
    if (!a.rope) {
        s += ", NoPE";
    } else {
        s += ", RoPE θ=" + format_number(a.rope_theta);
        if (a.rope_type != "default")
            s += " " + a.rope_type + " ×" + format_number(a.rope_factor);
    }
    if (a.temperature)
        s += ", temperature log(⌊(p+1)/" + format_number(a.floor_scale) + "⌋+1)·" +
             format_number(a.attn_scale) + "+1";
    return s;
}

std::vector<std::string> layer_lines(const std::vector<LayerAnatomy>& layers)
{
    std::vector<std::string> lines;
    for (const LayerGroup& g : group_layers(layers)) {
        std::string ranges;
        int count = 0;
        for (const auto& [first, last] : g.ranges) {
            ranges += (ranges.empty() ? "" : ", ") + std::to_string(first) +
                      (last > first ? "-" + std::to_string(last) : std::string());
            count += last - first + 1;
        }
        lines.push_back((count == 1 ? "layer " : "layers ") + ranges + ": " + layer_text(g.anatomy));
    }
    return lines;
}

std::vector<std::string> receptive_field_lines(const std::vector<LayerAnatomy>& layers, std::int64_t q)
{
    std::vector<std::string> lines;
    const int n = static_cast<int>(layers.size());
    for (int k = 1; k <= n;) {
        const std::int64_t start = receptive_field_start(layers, k, q);
        int last = k;
        while (last < n && receptive_field_start(layers, last + 1, q) == start)
            ++last;
        lines.push_back("after " + std::to_string(k) +
                        (last > k ? "-" + std::to_string(last) : std::string()) +
                        (last > 1 ? " layers" : " layer") + ": from position " + std::to_string(start) +
                        " (" + std::to_string(q - start) + " back)");
        k = last + 1;
    }
    return lines;
}

// The query of the receptive field: the last position of the model's context.
std::int64_t receptive_field_query(const ConfigImport& imp)
{
    // A rotary method's context (RoPE's, MLA's rotary part: registry.h); others have none here.
    const std::optional<RopeParams> rotary = rotary_params(imp.scenario);
    return rotary ? std::max<std::int64_t>(0, rotary->max_position_embeddings - 1) : 0;
}

nlohmann::json import_report_json(const ConfigImport& imp)
{
    using nlohmann::json;
    const std::int64_t q = receptive_field_query(imp);
    json starts = json::array();
    for (int k = 1; k <= static_cast<int>(imp.layers.size()); ++k)
        starts.push_back(receptive_field_start(imp.layers, k, q));
    json layers = json::array();
    for (const LayerAnatomy& a : imp.layers) {
        json l{{"index", a.index},
               {"attention", layer_type_name(a.attention)},
               {"span", a.span},
               {"rope", a.rope},
               {"rope_theta", a.rope_theta},
               {"rope_type", a.rope_type},
               {"rope_factor", a.rope_factor},
               {"temperature", a.temperature}};
        if (a.temperature) {
            l["floor_scale"] = a.floor_scale;
            l["attn_scale"] = a.attn_scale;
        }
        layers.push_back(std::move(l));
    }
    return json{
        {"model_type", imp.model_type},
        {"method", std::string(method_id(imp.scenario.method))},
        {"read", imp.read_keys},
        {"not_modelled", imp.ignored_keys},
        {"not_recognised", imp.unknown_keys},
        {"notes", imp.notes},
        {"parameters",
         scenario_to_json(imp.scenario).value(std::string(method_id(imp.scenario.method)), json::object())},
        {"layer_groups", layer_lines(imp.layers)},
        {"layers", layers},
        {"receptive_field", imp.layers.empty() ? json(nullptr) : json{{"position", q}, {"start", starts}}}};
}

} // namespace posatlas
