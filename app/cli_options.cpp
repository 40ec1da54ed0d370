// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_options.h"
#include "cli_i18n.h"

#include "io/number_text.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace posatlas::cli {

std::string option_name(const std::string& key)
{
    std::string name = "--" + key;
    std::replace(name.begin(), name.end(), '_', '-');
    return name;
}

const OptionSpec& help_option()
{
    static const OptionSpec spec{
        .name = "help",
        .type = ArgType::Flag,
        .help = translate("Cli", "Print this help (the options, their meaning, default and allowed values) "
                                 "and exit."),
        .aliases = {}};
    return spec;
}

std::string OptionSpec::allowed_text() const
{
    if (!allowed.empty())
        return allowed;
    switch (type) {
    case ArgType::Flag: return "";
    case ArgType::Int:
        return arg(translate("posatlas::ui::ParameterMessage", "an integer in [%1, %2]"),
                   {number_text(lo), number_text(hi)});
    case ArgType::Real: {
        // Shortest text (1e+15, not 1000000000000000): real bounds are round numbers.
        const auto shortest = [](double v) {
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, v);
            return std::string(buf, r.ptr);
        };
        return lo < hi ? arg(translate("Cli", "a number in [%1, %2]"), {shortest(lo), shortest(hi)})
                       : translate("Cli", "a number");
    }
    case ArgType::RealList: return translate("Cli", "comma-separated numbers, like 1,2.5,3");
    case ArgType::Choice:
        return arg(translate("posatlas::ui::ParameterMessage", "one of %1"),
                   {join(choices, "|", [](const std::string& c) { return c; })});
    case ArgType::Text: return "";
    case ArgType::Path: return translate("Cli", "a file name");
    }
    return "";
}

std::string OptionSpec::value_name() const
{
    if (!metavar.empty())
        return metavar;
    switch (type) {
    case ArgType::Flag: return "";
    case ArgType::Int: return "N";
    case ArgType::Real: return "X";
    case ArgType::RealList: return "X,X,..";
    case ArgType::Choice: return join(choices, "|", [](const std::string& c) { return c; });
    case ArgType::Text: return "TEXT";
    case ArgType::Path: return "FILE";
    }
    return "";
}

OptionSet option_set(const OptionTable& table)
{
    OptionSet set;
    for (const OptionSpec& s : table) {
        auto& names = s.type == ArgType::Flag ? set.flags : set.values;
        names.insert(s.name);
        names.insert(s.aliases.begin(), s.aliases.end());
        if (s.type == ArgType::Path) {
            set.paths.insert(s.name);
            set.paths.insert(s.aliases.begin(), s.aliases.end());
        }
    }
    set.flags.insert(help_option().name);
    return set;
}

namespace {

double parse_real(const std::string& option, const std::string& text)
{
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    if (text.empty() || end != begin + text.size() || errno == ERANGE || !std::isfinite(v))
        throw UsageError(arg(translate("Cli", "--%1 must be a finite number (got '%2')"), {option, text}));
    return v;
}

} // namespace

Options::Options(const std::vector<std::string>& args, OptionTable table) : m_table(std::move(table))
{
    m_table.push_back(help_option());
    // --help wins over every other problem: `posatlas export --view nonsense --help` explains.
    for (const std::string& a : args)
        if (a == "--help" || a == "-h") {
            m_help = true;
            return;
        }
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            m_positional.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::optional<std::string> inline_value;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (m_values.count(name) || m_flags.count(name))
            throw UsageError(arg(translate("Cli", "--%1 is given twice; give it once"), {name}));
        const OptionSpec* s = spec(name);
        if (!s) {
            const OptionSet all = option_set(m_table);
            std::set<std::string> names = all.values;
            names.insert(all.flags.begin(), all.flags.end());
            throw UsageError(arg(translate("Cli", "unknown option --%1; this command accepts %2"),
                                 {name, join(names, ", ", [](const std::string& n) { return "--" + n; })}));
        }
        if (s->type != ArgType::Flag) {
            if (inline_value) {
                m_values[name] = *inline_value;
            } else {
                if (i + 1 >= args.size())
                    throw UsageError(arg(translate("Cli", "--%1 needs a value"), {name}));
                m_values[name] = args[++i];
            }
        } else {
            if (inline_value && *inline_value != "true" && *inline_value != "false")
                throw UsageError(
                    arg(translate("Cli", "--%1 is a flag: give it alone or as --%1=true|false (got '%2')"),
                        {name, *inline_value}));
            if (!inline_value || *inline_value == "true")
                m_flags.insert(name);
            else
                m_values[name] = "false"; // remembered as given, but off
        }
    }
}

const OptionSpec* Options::spec(const std::string& name) const
{
    for (const OptionSpec& s : m_table)
        if (s.name == name || std::find(s.aliases.begin(), s.aliases.end(), name) != s.aliases.end())
            return &s;
    return nullptr;
}

bool Options::has(const std::string& name) const
{
    return m_values.count(name) || m_flags.count(name);
}

bool Options::flag(const std::string& name) const
{
    return m_flags.count(name) > 0;
}

std::optional<std::string> Options::text(const std::string& name) const
{
    if (const auto it = m_values.find(name); it != m_values.end())
        return it->second;
    if (const OptionSpec* s = spec(name); s && !s->default_value.empty() && s->type != ArgType::Flag)
        return s->default_value;
    return std::nullopt;
}

std::optional<double> Options::real(const std::string& name) const
{
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    const double v = parse_real(name, *t);
    if (const OptionSpec* s = spec(name);
        s && s->type == ArgType::Real && s->lo < s->hi && (v < s->lo || v > s->hi))
        throw UsageError(arg(translate("Cli", "--%1 must be %2 (got '%3')"), {name, s->allowed_text(), *t}));
    return v;
}

std::optional<std::int64_t> Options::integer(const std::string& name) const
{
    const OptionSpec* s = spec(name);
    if (!s || s->type != ArgType::Int)
        throw std::logic_error("--" + name + " is not declared as an integer option");
    return integer(name, static_cast<std::int64_t>(s->lo), static_cast<std::int64_t>(s->hi));
}

std::optional<std::int64_t> Options::integer(const std::string& name, std::int64_t lo, std::int64_t hi) const
{
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    const char* begin = t->c_str();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(begin, &end, 10);
    if (t->empty() || end != begin + t->size() || errno == ERANGE || v < lo || v > hi)
        throw UsageError(arg(translate("Cli", "--%1 must be %2 (got '%3')"),
                             {name,
                              arg(translate("posatlas::ui::ParameterMessage", "an integer in [%1, %2]"),
                                  {std::to_string(lo), std::to_string(hi)}),
                              *t}));
    return v;
}

std::optional<std::vector<double>> Options::real_list(const std::string& name) const
{
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    std::vector<double> out;
    std::size_t start = 0;
    while (true) {
        const auto comma = t->find(',', start);
        const std::string item =
            t->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            throw UsageError(arg(
                translate("Cli", "--%1 must be a comma-separated list of numbers, like 1,2.5,3 (got '%2')"),
                {name, *t}));
        out.push_back(parse_real(name, item));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

std::optional<std::string> Options::choice(const std::string& name) const
{
    const OptionSpec* s = spec(name);
    if (!s || s->type != ArgType::Choice)
        throw std::logic_error("--" + name + " is not declared as a choice");
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    if (std::find(s->choices.begin(), s->choices.end(), *t) == s->choices.end())
        throw UsageError(arg(translate("Cli", "--%1 must be %2 (got '%3')"), {name, s->allowed_text(), *t}));
    return t;
}

} // namespace posatlas::cli
