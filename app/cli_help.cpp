// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_help.h"
#include "cli_i18n.h"

#include "cli_i18n.h"

#include <algorithm>
#include <sstream>
#include <string_view>
#include <utility>

namespace posatlas::cli {
namespace {

constexpr std::size_t kWidth = 100;
constexpr std::size_t kColumn = 30;

// The code point starting at text[i] and its length in bytes (a stray byte counts as one).
std::pair<char32_t, std::size_t> code_point(const std::string& text, std::size_t i)
{
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (n == 1 || i + n > text.size())
        return {b, 1};
    char32_t c = b & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k)
        c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    return {c, n};
}

// Chinese characters and full-width punctuation: two columns, and a line may break beside them.
bool wide(char32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
           (c >= 0xFFE0 && c <= 0xFFE6);
}

// Punctuation that never starts a line (，。) or never ends one (（).
bool closing(char32_t c)
{
    return std::u32string_view(U"，。、；：？！）」』》”’").find(c) != std::u32string_view::npos;
}
bool opening(char32_t c)
{
    return std::u32string_view(U"（「『《“‘").find(c) != std::u32string_view::npos;
}

// Appends `text` wrapped at kWidth display columns, every line but the first indented to `indent` (the
// first continues at `used` columns). Lines break at spaces, and between Chinese characters.
void wrap_at(std::string& out, const std::string& text, std::size_t used, std::size_t indent)
{
    struct Piece {
        std::string text;
        std::size_t width = 0;
        bool space_before = false;
    };
    std::vector<Piece> pieces;
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        bool first = true;
        char32_t previous = 0;
        for (std::size_t i = 0; i < word.size();) {
            const auto [c, n] = code_point(word, i);
            const bool breaks = !first && (wide(c) || wide(previous)) && !closing(c) && !opening(previous);
            if (first || breaks)
                pieces.push_back({"", 0, first && !pieces.empty()});
            pieces.back().text.append(word, i, n);
            pieces.back().width += wide(c) ? 2 : 1;
            previous = c;
            first = false;
            i += n;
        }
    }
    std::size_t col = used;
    bool line_start = true;
    for (const Piece& p : pieces) {
        const std::size_t space = p.space_before ? 1 : 0;
        if (!line_start && col + space + p.width > kWidth) {
            out += '\n';
            out.append(indent, ' ');
            col = indent;
            line_start = true;
        }
        if (!line_start && p.space_before) {
            out += ' ';
            ++col;
        }
        out += p.text;
        col += p.width;
        line_start = false;
    }
    out += '\n';
}

// A text of the tables in the installed language: tables built before the language was chosen (static
// ones) hold the English, marked for lupdate with translate("Cli", ...) where they are declared.
std::string localized(const std::string& text)
{
    return text.empty() ? text : translate("Cli", text.c_str());
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
    std::string text = localized(s.help);
    std::vector<std::string> notes;
    if (s.required)
        notes.push_back(translate("Cli", "required"));
    if (const std::string allowed = s.allowed_text(); !allowed.empty() && allowed != s.value_name())
        notes.push_back(localized(allowed));
    if (!s.default_text.empty())
        notes.push_back(arg(translate("Cli", "default: %1"), {localized(s.default_text)}));
    else if (!s.default_value.empty())
        notes.push_back(arg(translate("Cli", "default: %1"), {s.default_value}));
    if (!notes.empty()) {
        const std::string list = join(notes, translate("Cli", "; "), [](const std::string& n) { return n; });
        text =
            text.empty()
                ? "[" + list + "]"
                : arg(translate("Cli", "%1 [%2]", "an option's meaning, then its allowed values and default"),
                      {text, list});
    }
    return text;
}

} // namespace

void wrap(std::string& out, const std::string& text, std::size_t used, std::size_t indent)
{
    wrap_at(out, text, used, indent);
}

std::size_t display_width(const std::string& text)
{
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto [c, n] = code_point(text, i);
        width += wide(c) ? 2 : 1;
        i += n;
    }
    return width;
}

std::string usage_prefix()
{
    return translate("Cli", "usage: ");
}

const OptionSpec& quiet_option()
{
    static const OptionSpec spec{
        .name = "quiet",
        .type = ArgType::Flag,
        .help = translate(
            "Cli", "Show no progress. Progress goes to standard error, and only when it is a terminal.")};
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
        wrap(out, localized(description), 0, 0);
    }
    for (const HelpSection& section : sections) {
        if (section.options.empty())
            continue;
        out += '\n';
        out += localized(section.title);
        out += translate("Cli", ":");
        out += '\n';
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
            std::string paragraph = localized(section.note);
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
                wrap(out, option_text(s), kColumn, kColumn);
            } else {
                line.append(kColumn - line.size(), ' ');
                out += line;
                wrap(out, option_text(s), kColumn, kColumn);
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
