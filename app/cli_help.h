// SPDX-License-Identifier: GPL-3.0-or-later
// `--help` text, rendered from the option tables (cli_options.h): every option with its value, meaning,
// allowed values and default. The man page is made from this text (packaging/make_manpage.cmake runs
// `posatlas help --all`), so it lists the same options.
#pragma once

#include "cli_options.h"

#include <string>
#include <vector>

namespace posatlas::cli {

struct HelpSection {
    std::string title; // "Figure options"
    OptionTable options;
    // Only the option names, as one wrapped paragraph (options that are accepted but explained elsewhere).
    bool names_only = false;
    std::string note; // the paragraph before the names
};

// "usage: ...", a paragraph, then each section's options, aligned and wrapped to 100 columns.
std::string render_help(const std::string& usage, const std::string& description,
                        const std::vector<HelpSection>& sections);

// Appends `text` wrapped at 100 display columns (a Chinese character takes two; lines also break between
// Chinese characters), every line but the first indented to `indent`, the first continuing at `used`.
void wrap(std::string& out, const std::string& text, std::size_t used, std::size_t indent);
// Columns `text` takes on a terminal.
std::size_t display_width(const std::string& text);
// "usage: " in the installed language, before a synopsis.
std::string usage_prefix();

// Every option of the sections (for parsing: the first declaration of a name wins).
OptionTable flatten(const std::vector<HelpSection>& sections);

// Declared once, used by every command that runs long (gallery, export, compute).
const OptionSpec& quiet_option();

} // namespace posatlas::cli
