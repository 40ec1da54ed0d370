// SPDX-License-Identifier: GPL-3.0-or-later
#include "params.h"

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

constexpr std::array<std::pair<std::string_view, Method>, 9> kMethodIds{{
    {"sinusoidal", Method::Sinusoidal},
    {"learned", Method::Learned},
    {"shaw", Method::Shaw},
    {"transformer-xl", Method::TransformerXL},
    {"t5", Method::T5},
    {"deberta", Method::DeBERTa},
    {"rope", Method::RoPE},
    {"alibi", Method::ALiBi},
    {"cope", Method::CoPE},
}};

constexpr std::array<std::pair<std::string_view, RopeType>, 10> kRopeTypeIds{{
    {"default", RopeType::Default},
    {"linear", RopeType::Linear},
    {"ntk", RopeType::Ntk},
    {"dynamic", RopeType::Dynamic},
    {"yarn", RopeType::Yarn},
    {"llama3", RopeType::Llama3},
    {"longrope", RopeType::LongRope},
    // Legacy aliases found in published config.json files.
    {"su", RopeType::LongRope},      // Phi-3 before transformers 4.42
    {"mrope", RopeType::Default},    // Qwen2-VL: multimodal sections, default frequencies
    {"ntk-aware", RopeType::Ntk},
}};

constexpr std::array<std::pair<std::string_view, ContentKind>, 4> kContentIds{{
    {"ones", ContentKind::Ones},
    {"zero", ContentKind::Zero},
    {"fixed", ContentKind::Fixed},
    {"random", ContentKind::Random},
}};

} // namespace

std::string_view method_id(Method m)
{
    for (const auto& [name, value] : kMethodIds)
        if (value == m)
            return name;
    return "unknown";
}

std::optional<Method> parse_method(std::string_view id) { return lookup(kMethodIds, id); }

std::string_view method_display_name(Method m)
{
    switch (m) {
    case Method::Sinusoidal: return "Sinusoidal (Vaswani et al. 2017)";
    case Method::Learned: return "Learned absolute (BERT, GPT-2)";
    case Method::Shaw: return "Relative (Shaw et al. 2018)";
    case Method::TransformerXL: return "Transformer-XL / XLNet";
    case Method::T5: return "T5 relative buckets";
    case Method::DeBERTa: return "DeBERTa disentangled attention";
    case Method::RoPE: return "RoPE (Su et al. 2021)";
    case Method::ALiBi: return "ALiBi (Press et al. 2022)";
    case Method::CoPE: return "CoPE (Golovneva et al. 2024)";
    }
    return "unknown";
}

std::string_view rope_type_id(RopeType t)
{
    for (const auto& [name, value] : kRopeTypeIds)
        if (value == t)
            return name; // the first entry of each value is its canonical id
    return "default";
}

std::optional<RopeType> parse_rope_type(std::string_view id) { return lookup(kRopeTypeIds, id); }

std::string_view content_kind_id(ContentKind k)
{
    for (const auto& [name, value] : kContentIds)
        if (value == k)
            return name;
    return "ones";
}

std::optional<ContentKind> parse_content_kind(std::string_view id) { return lookup(kContentIds, id); }

} // namespace posatlas
