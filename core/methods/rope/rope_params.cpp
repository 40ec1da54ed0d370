// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/rope/rope_params.h"

#include <array>
#include <utility>

namespace posatlas {
namespace {

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
    for (const auto& [name, value] : kRopeTypeIds)
        if (name == id)
            return value;
    return std::nullopt;
}

} // namespace posatlas
