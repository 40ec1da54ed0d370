// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/params.h"

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

constexpr std::array<std::pair<std::string_view, RopeType>, 10> kRopeTypeIds{{
    {"default", RopeType::Default},
    {"linear", RopeType::Linear},
    {"ntk", RopeType::Ntk},
    {"dynamic", RopeType::Dynamic},
    {"yarn", RopeType::Yarn},
    {"llama3", RopeType::Llama3},
    {"longrope", RopeType::LongRope},
    // Legacy aliases found in published config.json files.
    {"su", RopeType::LongRope},   // Phi-3 before transformers 4.42
    {"mrope", RopeType::Default}, // Qwen2-VL: multimodal sections, default frequencies
    {"ntk-aware", RopeType::Ntk},
}};

constexpr std::array<std::pair<std::string_view, ContentKind>, 4> kContentIds{{
    {"ones", ContentKind::Ones},
    {"zero", ContentKind::Zero},
    {"fixed", ContentKind::Fixed},
    {"random", ContentKind::Random},
}};

} // namespace

std::string_view rope_type_id(RopeType t)
{
    for (const auto& [name, value] : kRopeTypeIds)
        if (value == t)
            return name; // the first entry of each value is its canonical id
    return "default";
}

std::optional<RopeType> parse_rope_type(std::string_view id)
{
    return lookup(kRopeTypeIds, id);
}

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

} // namespace posatlas
