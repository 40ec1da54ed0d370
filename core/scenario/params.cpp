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

constexpr std::array<std::pair<std::string_view, ContentKind>, 4> kContentIds{{
    {"ones", ContentKind::Ones},
    {"zero", ContentKind::Zero},
    {"fixed", ContentKind::Fixed},
    {"random", ContentKind::Random},
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

} // namespace posatlas
