// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line option parsing for `posatlas`: --name value / --name=value / --flag, typed getters
// that validate so that every message names the option and its allowed range.
//
// Table-driven: each option is declared once, as an OptionSpec (name, type, meaning, default, range).
// The parser, the typed getters (range and default), `--help` (cli_help.h), the man page (made from
// the help) and `posatlas completion bash` all read the same declarations; the method parameters'
// specs are generated from the method registry's fields (cli_scenario.cpp).
//
// Why not CLI11 (Debian's libcli11-dev)? We weighed it. This parser is ~250 lines and does
// everything the command line needs: --name=value, flags given as --flag=true|false, --no-x and named
// negations, aliases, the same option name meaning a different registry field per --method (decided
// after parsing, from the preset or config), and one-line messages that name the option and the
// allowed range from the registry. With CLI11 every registry field would still need a custom
// validator and a custom help formatter, its error texts would have to be rewritten to keep today's
// messages, and per-method option meaning does not fit its one-option-one-variable model; it would add
// a dependency without removing code.
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
    std::set<std::string> paths;  // of the values, those that name a file or folder
};

// "rope_theta" -> "--rope-theta"
std::string option_name(const std::string& key);

enum class ArgType {
    Flag,     // no value (or --flag=true|false)
    Int,      // an integer in [lo, hi]
    Real,     // a finite number, in [lo, hi] when lo < hi
    RealList, // a,b,c
    Choice,   // one of `choices`
    Text,     // anything (a name, a caption)
    Path,     // a file or folder name (bash completes paths)
};

// One option, declared once: what it means, its default and its allowed values.
struct OptionSpec {
    std::string name; // without the leading dashes: "max-distance"
    ArgType type = ArgType::Text;
    std::string help;                 // what it means, one or two sentences
    std::string metavar;              // "N", "FILE"; empty: from the type
    std::string default_value;        // the value the getters return when it is not given ("" = none)
    std::string default_text;         // what help says about the default when it depends on something
    double lo = 0.0, hi = 0.0;        // Int, Real: the allowed range (Real: unchecked when lo >= hi)
    std::vector<std::string> choices; // Choice
    std::string allowed;              // the allowed values as help says them; "" = from type and range
    bool required = false;
    std::vector<std::string> aliases; // other names for it (each kept as given: --dim, --no-c2p)

    std::string allowed_text() const; // "an integer in [2, 10000000]", "json|csv", ...
    std::string value_name() const;   // metavar or one from the type ("" for a flag)
};
using OptionTable = std::vector<OptionSpec>;

// The option every command accepts: -h / --help.
const OptionSpec& help_option();
// Every name of a table (names and aliases), split into value options and flags.
OptionSet option_set(const OptionTable& table);

class Options
{
public:
    // Parses `args` by `table` (help_option() is always accepted, also as -h). Throws UsageError on
    // unknown options, a missing value, or a repeated option -- unless --help / -h is among the
    // arguments: then help() is true and nothing else is checked.
    Options(const std::vector<std::string>& args, OptionTable table);

    bool help() const { return m_help; }
    bool has(const std::string& name) const;
    bool flag(const std::string& name) const;
    // The value given, else the declared default, else nullopt. Typed getters check the declared range
    // or choices and throw UsageError naming the option and what is allowed.
    std::optional<std::string> text(const std::string& name) const;
    std::optional<double> real(const std::string& name) const;
    std::optional<std::int64_t> integer(const std::string& name) const;
    std::optional<std::string> choice(const std::string& name) const;
    std::optional<std::vector<double>> real_list(const std::string& name) const; // a,b,c
    // With an explicit range (registry fields, which check their own range afterwards).
    std::optional<std::int64_t> integer(const std::string& name, std::int64_t lo, std::int64_t hi) const;
    const std::vector<std::string>& positional() const { return m_positional; }
    const OptionSpec* spec(const std::string& name) const; // by name or alias; null if none

private:
    OptionTable m_table;
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
    std::vector<std::string> m_positional;
    bool m_help = false;
};

} // namespace posatlas::cli
