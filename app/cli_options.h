// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line option parsing for `posatlas`: --name value / --name=value / --flag, typed getters
// that validate through core's require_* primitives so that every message names the option and its
// allowed range.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas::cli {

// Bad input on the command line: printed as one line on stderr, exit status 2.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// "a|b|c": the items, each turned into text by `text`, separated by `sep`.
template <typename Range, typename Text>
std::string join(const Range& items, std::string_view sep, Text&& text)
{
    std::string out;
    for (const auto& item : items) {
        if (!out.empty())
            out += sep;
        out += text(item);
    }
    return out;
}

// The options one command (or one `compute` quantity) accepts, names without the leading dashes:
// what its Options is built from, and what `posatlas completion bash` offers.
struct OptionSet {
    std::set<std::string> values; // take a value
    std::set<std::string> flags;  // do not
};

// "rope_theta" -> "--rope-theta"
std::string option_name(const std::string& key);

class Options
{
public:
    // `value_options` take a value, `flag_options` do not (a flag may also be given as
    // --flag=true|false). Names without the leading dashes. Throws UsageError on unknown options,
    // a missing value, or a repeated option.
    Options(const std::vector<std::string>& args, const std::set<std::string>& value_options,
            const std::set<std::string>& flag_options);

    bool has(const std::string& name) const;
    bool flag(const std::string& name) const;
    std::optional<std::string> text(const std::string& name) const;
    std::optional<double> real(const std::string& name) const;                       // finite number
    std::optional<std::int64_t> integer(const std::string& name, std::int64_t lo, std::int64_t hi) const;
    std::optional<bool> boolean(const std::string& name) const;                      // true|false
    std::optional<std::vector<double>> real_list(const std::string& name) const;     // a,b,c
    // One of `choices`.
    std::optional<std::string> choice(const std::string& name, const std::vector<std::string>& choices) const;
    const std::vector<std::string>& positional() const { return m_positional; }

private:
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
    std::vector<std::string> m_positional;
};

} // namespace posatlas::cli
