// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas export` (one figure or its numbers, headless) and `posatlas gallery` (the standard set).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

struct OptionSet;

// Creates the QApplication on the offscreen platform (unless QT_QPA_PLATFORM is set) if none exists.
void ensure_application();
// Deletes the application ensure_application() made (call once, before returning from main).
void release_application();

int run_export(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_gallery(const std::vector<std::string>& args, std::ostream& out);
// The options each accepts.
OptionSet export_option_set();
OptionSet gallery_option_set();
// Their --help.
std::string export_help();
std::string gallery_help();

} // namespace posatlas::cli
