// SPDX-License-Identifier: GPL-3.0-or-later
// How a command that failed ends, in both programs (posatlas and the lab's process posatlas-lab): one line
// "posatlas: ..." on the error stream and the exit status, 2 for what the user gave (usage, a parameter out
// of its range, an input file that cannot be read, an output that cannot be written), 1 for the rest
// (cancelled, out of memory, an internal error). Texts come from translate() (cli_i18n.h), which each
// program implements in its own way.
#pragma once

#include <ostream>

namespace posatlas::cli {

// Reports the exception being handled: call it only inside a catch block.
int report_command_error(std::ostream& err);

} // namespace posatlas::cli
