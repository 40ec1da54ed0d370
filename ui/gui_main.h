// Entry point of the desktop application, called by app/main.cpp when `posatlas` runs without arguments.
#pragma once

namespace posatlas::ui {

// Creates the QApplication and the main window, runs the event loop, returns its exit code.
int run_gui(int argc, char** argv);

} // namespace posatlas::ui
