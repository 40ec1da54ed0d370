// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace posatlas::cli {

std::string option_name(const std::string& key)
{
    std::string name = "--" + key;
    std::replace(name.begin(), name.end(), '_', '-');
    return name;
}

namespace {

std::string join_options(const std::set<std::string>& names)
{
    return join(names, ", ", [](const std::string& n) { return "--" + n; });
}

double parse_real(const std::string& option, const std::string& text)
{
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    if (text.empty() || end != begin + text.size() || errno == ERANGE || !std::isfinite(v))
        throw UsageError("--" + option + " must be a finite number (got '" + text + "')");
    return v;
}

} // namespace

Options::Options(const std::vector<std::string>& args, const std::set<std::string>& value_options,
                 const std::set<std::string>& flag_options)
{
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
            throw UsageError("--" + name + " is given twice; give it once");
        if (value_options.count(name)) {
            if (inline_value) {
                m_values[name] = *inline_value;
            } else {
                if (i + 1 >= args.size())
                    throw UsageError("--" + name + " needs a value");
                m_values[name] = args[++i];
            }
        } else if (flag_options.count(name)) {
            if (inline_value && *inline_value != "true" && *inline_value != "false")
                throw UsageError("--" + name + " is a flag: give it alone or as --" + name + "=true|false (got '"
                                 + *inline_value + "')");
            if (!inline_value || *inline_value == "true")
                m_flags.insert(name);
            else
                m_values[name] = "false"; // remembered as given, but off
        } else {
            std::set<std::string> all = value_options;
            all.insert(flag_options.begin(), flag_options.end());
            throw UsageError("unknown option --" + name + "; this command accepts " + join_options(all));
        }
    }
}

bool Options::has(const std::string& name) const { return m_values.count(name) || m_flags.count(name); }

bool Options::flag(const std::string& name) const { return m_flags.count(name) > 0; }

std::optional<std::string> Options::text(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

std::optional<double> Options::real(const std::string& name) const
{
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    return parse_real(name, *t);
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
        throw UsageError("--" + name + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi)
                         + "] (got '" + *t + "')");
    return v;
}

std::optional<bool> Options::boolean(const std::string& name) const
{
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    if (*t == "true" || *t == "1")
        return true;
    if (*t == "false" || *t == "0")
        return false;
    throw UsageError("--" + name + " must be true or false (got '" + *t + "')");
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
        const std::string item = t->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            throw UsageError("--" + name + " must be a comma-separated list of numbers, like 1,2.5,3 (got '" + *t
                             + "')");
        out.push_back(parse_real(name, item));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

std::optional<std::string> Options::choice(const std::string& name, const std::vector<std::string>& choices) const
{
    const auto t = text(name);
    if (!t)
        return std::nullopt;
    if (std::find(choices.begin(), choices.end(), *t) == choices.end()) {
        const std::string allowed = join(choices, "|", [](const std::string& c) { return c; });
        throw UsageError("--" + name + " must be one of " + allowed + " (got '" + *t + "')");
    }
    return t;
}

} // namespace posatlas::cli
