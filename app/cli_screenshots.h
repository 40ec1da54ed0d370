// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas screenshots --out DIR`: the README's pictures of the main window, each view and the
// context-extension explorer, made by the app itself (offscreen, 1280x720 / 1400x900), then a few more
// for reviewing the GUI by eye: the explorer on a YaRN model (explorer-yarn-N), a T5 model's main window,
// the main window at 1920x1080 and the export dialog, and (cli_screenshots_review.cpp) presentation mode
// at every text size, the lessons, readouts, dialogs and panels, named with the environment's language.
// `--dark` takes them all in the dark theme.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

struct OptionSet;

int run_screenshots(const std::vector<std::string>& args, std::ostream& out);
OptionSet screenshots_option_set();
std::string screenshots_help();

} // namespace posatlas::cli
