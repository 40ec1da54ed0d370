// SPDX-License-Identifier: GPL-3.0-or-later
// `posatlas` with no arguments, or with files to open (`posatlas session.posatlas.json`, as the desktop
// entry's `Exec=posatlas %f` runs it), opens the GUI; with a command it is the command line.
#include "cli.h"
#include "compute/memory_reuse.h"

#if __has_include("window/gui_main.h")
#include "window/gui_main.h"
#define POSATLAS_HAVE_GUI 1
#endif

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    // The GUI runs a job per view on every slider move, the gallery twenty figures: each reuses the
    // memory the last one freed instead of faulting in fresh pages (compute/memory_reuse.h).
    posatlas::keep_freed_memory_for_reuse();
#ifdef POSATLAS_HAVE_GUI
    if (!posatlas::cli::is_command_line(args))
        return posatlas::ui::run_gui(argc, argv);
#endif
    std::ios::sync_with_stdio(false);
    return posatlas::cli::run(args, std::cout, std::cerr);
}
