// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas lesson check [--update] [FILE.md …]`: every number a lesson quotes ([[0.034 = weights(2, 1)]],
// ui/lessons/lesson_quotes.h) computed on its step's scenario and compared with the printed text; with no
// file, the built-in course in every language. --update rewrites the files' quoted numbers that differ.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

struct OptionSet;

int run_lesson(const std::vector<std::string>& args, std::ostream& out);
OptionSet lesson_option_set();
std::string lesson_help();

} // namespace posatlas::cli
