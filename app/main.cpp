// `posatlas` with no arguments opens the GUI; with a command it is the command line.
#include "cli.h"

#if __has_include("gui_main.h")
#include "gui_main.h"
#define POSATLAS_HAVE_GUI 1
#endif

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
#ifdef POSATLAS_HAVE_GUI
    if (argc <= 1)
        return posatlas::ui::run_gui(argc, argv);
#endif
    std::ios::sync_with_stdio(false);
    return posatlas::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
