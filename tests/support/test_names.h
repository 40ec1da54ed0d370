// SPDX-License-Identifier: GPL-3.0-or-later
// Names for parameterised GoogleTest cases. gtest_discover_tests makes each case's name part of its ctest
// name, so every INSTANTIATE_TEST_SUITE_P passes a generator built on param_name: names that say what the
// case is, never an index alone nor the printed bytes of a struct.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace posatlas::test {

// `text` as a GoogleTest parameter name: letters and digits kept, every other run of characters one '_'
// ("rope.rope_theta" -> "rope_rope_theta", "base 0.5" -> "base_0_5"); no separator at either end, never
// empty.
inline std::string param_name(std::string_view text)
{
    std::string name;
    bool gap = false;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            if (gap && !name.empty())
                name += '_';
            name += c;
            gap = false;
        } else {
            gap = true;
        }
    }
    return name.empty() ? std::string("_") : name;
}

// A signed number as a name part: 12 -> "12", -12 -> "minus12".
inline std::string signed_name(long long value)
{
    return value < 0 ? "minus" + std::to_string(-value) : std::to_string(value);
}

} // namespace posatlas::test
