// SPDX-License-Identifier: GPL-3.0-or-later
// How a Field reaches its member: included by the files that build descriptors.
#pragma once

#include "methods/registry.h"
#include "scenario/params.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace posatlas::field_access {

template <typename P, typename M> void bind(Field& f, M P::*member)
{
    using nlohmann::json;
    if constexpr (std::is_enum_v<M>) {
        f.get = [member, choices = f.choices](const Scenario& s) -> json {
            const auto i = static_cast<std::size_t>(s.params<P>().*member);
            return i < choices.size() ? json(std::string(choices[i].id)) : json(nullptr);
        };
        f.set = [member, choices = f.choices, aliases = f.choice_aliases](Scenario& s, const json& v) {
            if (const auto i = choice_index_of(choices, aliases, v.get<std::string>()))
                s.params<P>().*member = static_cast<M>(*i);
        };
    } else {
        f.get = [member](const Scenario& s) -> json {
            const M& value = s.params<P>().*member;
            if constexpr (std::is_same_v<M, std::optional<double>>)
                return value ? json(*value) : json(nullptr);
            else
                return json(value);
        };
        f.set = [member](Scenario& s, const json& v) {
            M& value = s.params<P>().*member;
            if constexpr (std::is_same_v<M, std::optional<double>>) {
                if (v.is_null())
                    value.reset();
                else
                    value = v.get<double>();
            } else {
                value = v.get<M>();
            }
        };
    }
}

} // namespace posatlas::field_access

namespace posatlas {

// Shorthands for descriptor tables: a field of type T bound to member m.
template <typename P, typename M> Field make_field(std::string key, FieldType type, M P::*member, Field f)
{
    f.key = std::move(key);
    f.type = type;
    field_access::bind(f, member);
    return f;
}

} // namespace posatlas
