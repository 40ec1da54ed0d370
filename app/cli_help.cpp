// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_help.h"

#include <algorithm>
#include <sstream>

namespace posatlas::cli {
namespace {

constexpr std::size_t kWidth = 100;
constexpr std::size_t kColumn = 30;

// Appends `text` wrapped at kWidth, every line but the first indented to `indent` (the first continues
// at `used` columns).
void wrap(std::string& out, const std::string& text, std::size_t used, std::size_t indent = kColumn)
{
    std::istringstream words(text);
    std::string word;
    std::size_t col = used;
    bool first = true;
    while (words >> word) {
        if (!first && col + 1 + word.size() > kWidth) {
            out += '\n';
            out.append(indent, ' ');
            col = indent;
            first = true;
        }
        if (!first) {
            out += ' ';
            ++col;
        }
        out += word;
        col += word.size();
        first = false;
    }
    out += '\n';
}

std::string option_line(const OptionSpec& s)
{
    std::string names = "  ";
    if (s.name == help_option().name)
        names += "-h, ";
    names += "--";
    names += s.name;
    for (const std::string& a : s.aliases) {
        names += ", --";
        names += a;
    }
    if (s.type != ArgType::Flag) {
        names += ' ';
        names += s.value_name();
    }
    return names;
}

std::string option_text(const OptionSpec& s)
{
    std::string text = s.help;
    std::vector<std::string> notes;
    if (s.required)
        notes.push_back("required");
    if (const std::string allowed = s.allowed_text(); !allowed.empty() && allowed != s.value_name())
        notes.push_back(allowed);
    if (!s.default_text.empty())
        notes.push_back("default: " + s.default_text);
    else if (!s.default_value.empty())
        notes.push_back("default: " + s.default_value);
    if (!notes.empty()) {
        if (!text.empty())
            text += ' ';
        text += '[';
        text += join(notes, "; ", [](const std::string& n) { return n; });
        text += ']';
    }
    return text;
}

} // namespace

const OptionSpec& quiet_option()
{
    static const OptionSpec spec{
        .name = "quiet",
        .type = ArgType::Flag,
        .help = "Show no progress. Progress goes to standard error, and only when it is a terminal."};
    return spec;
}

std::string render_help(const std::string& usage, const std::string& description,
                        const std::vector<HelpSection>& sections)
{
    std::string out = usage;
    if (!out.empty() && out.back() != '\n')
        out += '\n';
    if (!description.empty()) {
        out += '\n';
        wrap(out, description, 0, 0);
    }
    for (const HelpSection& section : sections) {
        if (section.options.empty())
            continue;
        out += '\n';
        out += section.title;
        out += ":\n";
        if (section.names_only) {
            std::vector<std::string> seen;
            std::string names;
            const auto add = [&](const std::string& n) {
                if (std::find(seen.begin(), seen.end(), n) != seen.end())
                    return;
                seen.push_back(n);
                names += names.empty() ? "--" : ", --";
                names += n;
            };
            for (const OptionSpec& s : section.options) {
                add(s.name);
                for (const std::string& a : s.aliases)
                    add(a);
            }
            out += "  ";
            std::string paragraph = section.note;
            paragraph += ' ';
            paragraph += names;
            wrap(out, paragraph, 2, 2);
            continue;
        }
        for (const OptionSpec& s : section.options) {
            std::string line = option_line(s);
            if (line.size() + 1 >= kColumn) {
                out += line + '\n';
                out.append(kColumn, ' ');
                wrap(out, option_text(s), kColumn);
            } else {
                line.append(kColumn - line.size(), ' ');
                out += line;
                wrap(out, option_text(s), kColumn);
            }
        }
    }
    return out;
}

OptionTable flatten(const std::vector<HelpSection>& sections)
{
    OptionTable table;
    for (const HelpSection& section : sections)
        for (const OptionSpec& s : section.options)
            if (std::none_of(table.begin(), table.end(),
                             [&](const OptionSpec& t) { return t.name == s.name; }))
                table.push_back(s);
    return table;
}

} // namespace posatlas::cli
