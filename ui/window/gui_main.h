// SPDX-License-Identifier: GPL-3.0-or-later
// Entry point of the desktop application, called by app/main.cpp when `posatlas` runs without a
// command: with no arguments, or with files to open (`posatlas FILE`, the desktop entry's `Exec=posatlas
// %f`).
#pragma once

#include <QString>
#include <QStringList>

namespace posatlas::ui {

class MainWindow;

// The reverse-DNS application id: the desktop entry, AppStream metainfo, MIME type and icon are named
// after it (set by CMake, which installs those files under the same name).
inline constexpr char kAppId[] = POSATLAS_APP_ID;

// Opens each path as File > Open / drag-and-drop does (MainWindow::openFile: a .posatlas.json session
// or a model's config.json, told apart by name and content), in order; a file:// URL is taken as its
// local path. A file that cannot be opened is reported by the window as for File > Open. Returns how
// many opened.
int open_paths_at_startup(MainWindow& window, const QStringList& paths);

// Empty when a GUI can be shown; otherwise the one-line message saying that there is no display and
// how to run headless. Without a display Qt's xcb plugin aborts (SIGABRT) inside the QApplication
// constructor, so this is decided from the environment before one is made: on Linux, no
// QT_QPA_PLATFORM, no DISPLAY and no WAYLAND_DISPLAY, and no `-platform` argument.
QString missing_display_message(const QStringList& arguments);

// Creates the QApplication and the main window, opens the files among the arguments, runs the event
// loop, returns its exit code; 2 (and missing_display_message() on stderr) without a display.
int run_gui(int argc, char** argv);

} // namespace posatlas::ui
