// SPDX-License-Identifier: GPL-3.0-or-later
// Values for the registry's fields that the tests set: an in-range value other than the current one,
// so that a round trip (session JSON, command line) shows the edit arrived rather than a default.
#pragma once

#include "methods/registry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace posatlas::test {

// An in-range value different from `current` where the field allows one.
inline nlohmann::json other_value(const Field& f, const nlohmann::json& current)
{
    using nlohmann::json;
    switch (f.type) {
    case FieldType::Int: {
        const auto lo = static_cast<std::int64_t>(f.lo), hi = static_cast<std::int64_t>(f.hi);
        std::int64_t v = current.get<std::int64_t>() == hi ? hi - 1 : current.get<std::int64_t>() + 1;
        if (f.even && v % 2 != 0)
            v += v + 1 <= hi ? 1 : -1;
        return std::clamp(v, lo, hi);
    }
    case FieldType::Seed: return current.get<std::uint64_t>() + 12345;
    case FieldType::Real:
        return current.get<double>() < f.hi ? (current.get<double>() + f.hi) / 2 : (f.lo + f.hi) / 2;
    case FieldType::OptionalReal: return current.is_null() ? json((f.lo + f.hi) / 2) : json(nullptr);
    case FieldType::Bool: return !current.get<bool>();
    case FieldType::Choice:
        return std::string(f.choices.back().id == current.get<std::string>() ? f.choices.front().id
                                                                             : f.choices.back().id);
    case FieldType::RealList: return json::array({f.lo + 1, f.lo + 2});
    case FieldType::Text: return "table.csv";
    }
    return nullptr;
}

} // namespace posatlas::test
