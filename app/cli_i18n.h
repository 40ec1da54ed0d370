// SPDX-License-Identifier: GPL-3.0-or-later
// The command line's language, chosen as the GUI's "system" choice is (ui/window/language.h): from the
// environment (LANGUAGE, else LC_ALL, LC_MESSAGES, LANG; a Chinese locale gives Chinese, anything else
// English), with the same translations compiled into the binary (resources/translations/*.ts). Help,
// command summaries, option descriptions and messages are translated; option names, JSON keys, CSV
// headers and numbers never are, so nothing machine-readable changes with the locale.
#pragma once

#include <initializer_list>
#include <string>

namespace posatlas::cli {

// Installs the environment's language. Translations need a QCoreApplication: one is made when none exists
// (ensure_application() replaces it by a QApplication when a command draws). The C library's locale is
// left as it was, so numbers are read and written the same in every language.
void choose_language();

// `source` in the installed language. lupdate collects the literal calls, translate("Cli", "...") for the
// command line's own texts; the registry's labels and tooltips keep their context ("ParamSpec").
std::string translate(const char* context, const char* source, const char* disambiguation = nullptr);

// "--rope-theta must be > 1 and <= 1e+12 (got 0)": a value outside the range a parameter allows
// (ParameterError), in the GUI's words (posatlas::ui::ParameterMessage) with the option's name.
std::string parameter_message(const std::string& option, const std::string& allowed, const std::string& got);

// `pattern` with %1, %2, ... replaced by `args` in order (as QString::arg, which translations use).
std::string arg(const std::string& pattern, std::initializer_list<std::string> args);

} // namespace posatlas::cli
