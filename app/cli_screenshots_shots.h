// SPDX-License-Identifier: GPL-3.0-or-later
// What the groups of `posatlas screenshots` share (cli_screenshots.cpp, cli_screenshots_review.cpp): the
// main window, the folder and the listing of saved files, and the wait for the views' jobs.
#pragma once

#include <QDir>
#include <QString>

#include <functional>
#include <iosfwd>

class QWidget;

namespace posatlas::ui {
class MainWindow;
}

namespace posatlas::cli {

// Runs the event loop until `busy` turns false (after letting debounce timers fire) or 60 s pass.
bool wait_idle(const std::function<bool()>& busy);

// Saves `w` as DIR/NAME.png and lists the path on `out`.
void save_shot(QWidget* w, const QDir& dir, const QString& name, std::ostream& out);

// The main window, the folder and the listing of saved files: what every group of shots uses.
struct Shots {
    ui::MainWindow& w;
    const QDir& dir;
    std::ostream& out;

    bool idle() const;
    void save(QWidget* widget, const QString& name) const { save_shot(widget, dir, name, out); }
};

// For review, in the environment's language (the file names end in -en or -zh_CN), in
// cli_screenshots_review.cpp:
// presentation mode at 150, 200 and 250 % (each view, ALiBi's per-head captions, a lesson step) and the
// window before and after presenting;
void shoot_presentation_scales(const Shots& s);
// the course page and every step of every lesson;
void shoot_course(const Shots& s);
// the heatmap's hover readout and the curves' crosshair;
void shoot_readouts(const Shots& s);
// the Open Weights and Open Model dialogs;
void shoot_open_dialogs(const Shots& s);
// NTK-ALiBi's scaled slopes beside the sliders, and content vectors from files.
void shoot_slopes_and_files(const Shots& s);
// M-RoPE's token layout (Qwen2-VL: text, a 4 x 6 image merged to 2 x 3, text; presented at 200 %; Qwen3-VL
// with a video of two frames).
void shoot_token_layout(const Shots& s);

} // namespace posatlas::cli
