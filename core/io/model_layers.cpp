// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/model_layers.h"

#include <algorithm>
#include <cmath>

namespace posatlas {

bool layer_mask_allows(const LayerAnatomy& layer, std::int64_t q, std::int64_t k)
{
    return span_allows(layer.attention, layer.span, q, k);
}

double attention_temperature(const LayerAnatomy& layer, std::int64_t pos)
{
    if (!layer.temperature)
        return 1.0;
    return query_temperature(layer.floor_scale, layer.attn_scale, pos);
}

std::int64_t receptive_field_start(const std::vector<LayerAnatomy>& layers, int k, std::int64_t q)
{
    std::int64_t lo = std::max<std::int64_t>(0, q);
    const int top = std::clamp(k, 0, static_cast<int>(layers.size()));
    for (int l = top - 1; l >= 0 && lo > 0; --l) {
        const LayerAnatomy& a = layers[static_cast<std::size_t>(l)];
        switch (a.attention) {
        case LayerAttention::Global: lo = 0; break;
        case LayerAttention::Sliding:
            lo = std::max<std::int64_t>(0, lo - std::max<std::int64_t>(0, a.span - 1));
            break;
        case LayerAttention::Chunked:
            if (a.span > 0)
                lo = (lo / a.span) * a.span;
            break;
        }
    }
    return lo;
}

std::vector<LayerGroup> group_layers(const std::vector<LayerAnatomy>& layers)
{
    std::vector<LayerGroup> groups;
    for (const LayerAnatomy& a : layers) {
        LayerAnatomy key = a;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const LayerGroup& g) {
            key.index = g.anatomy.index;
            return g.anatomy == key;
        });
        if (it == groups.end()) {
            groups.push_back({{{a.index, a.index}}, a});
            continue;
        }
        if (it->ranges.back().second + 1 == a.index)
            it->ranges.back().second = a.index;
        else
            it->ranges.emplace_back(a.index, a.index);
    }
    return groups;
}

std::string layer_type_name(LayerAttention a)
{
    switch (a) {
    case LayerAttention::Global: return "full_attention";
    case LayerAttention::Sliding: return "sliding_attention";
    case LayerAttention::Chunked: return "chunked_attention";
    }
    return "full_attention";
}

} // namespace posatlas
