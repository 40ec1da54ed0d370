// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/params.h"

#include "methods/nope/nope.h"

#include <array>
#include <utility>

namespace posatlas {
namespace {

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view id)
{
    for (const auto& [name, value] : table)
        if (name == id)
            return value;
    return std::nullopt;
}

constexpr std::array<std::pair<std::string_view, ContentKind>, 4> kContentIds{{
    {"ones", ContentKind::Ones},
    {"zero", ContentKind::Zero},
    {"fixed", ContentKind::Fixed},
    {"random", ContentKind::Random},
}};

constexpr std::array<std::pair<std::string_view, LayerAttention>, 3> kWindowIds{{
    {"none", LayerAttention::Global},
    {"sliding", LayerAttention::Sliding},
    {"chunked", LayerAttention::Chunked},
}};

} // namespace

std::string_view content_kind_id(ContentKind k)
{
    for (const auto& [name, value] : kContentIds)
        if (value == k)
            return name;
    return "ones";
}

std::optional<ContentKind> parse_content_kind(std::string_view id)
{
    return lookup(kContentIds, id);
}

std::string_view window_id(LayerAttention a)
{
    for (const auto& [name, value] : kWindowIds)
        if (value == a)
            return name;
    return "none";
}

std::optional<LayerAttention> parse_window(std::string_view id)
{
    return lookup(kWindowIds, id);
}

bool mask_allows(const Scenario& s, std::int64_t q, std::int64_t k)
{
    return !s.causal || span_allows(s.window, s.window_span, q, k);
}

bool temperature_applies(const Scenario& s)
{
    return s.attn_temperature_tuning && (s.method == kNoPE || s.method == Method::RoPE);
}

double logit_temperature(const Scenario& s, std::int64_t q)
{
    return temperature_applies(s) ? query_temperature(s.floor_scale, s.attn_scale, q) : 1.0;
}

} // namespace posatlas
