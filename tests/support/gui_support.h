// SPDX-License-Identifier: GPL-3.0-or-later
// What the QtTest suites of the GUI share (named gui_, not ui_: AUTOUIC takes ui_*.h for generated forms):
// a suite's set-up, main windows shown and computed, waiting until the main window's job tracker is idle,
// and rendering a figure into an image.
#pragma once

#include "jobs/job_tracker.h"
#include "views/figure.h"
#include "window/main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace posatlas::test {

// How long a test waits for the views' jobs: a guard against a hang, not a speed requirement. A Debug
// build under AddressSanitizer runs the kernels 10 to 20 times slower (the exact decay envelope of a
// 10^6-position context takes about 4 s in Release on two busy cores), so it waits five times longer.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr int kJobTimeoutMs = 300000;
#else
inline constexpr int kJobTimeoutMs = 60000;
#endif

// Runs the event loop until the tracker has nothing debounced and nothing awaited, or `timeoutMs`
// pass; first `settleMs` so that the debounce timer can fire. True when idle; a caller that ignores a
// timeout goes on with results that are not there, so the result must be checked (QVERIFY).
[[nodiscard]] inline bool waitIdle(ui::JobTracker* s, int timeoutMs = kJobTimeoutMs, int settleMs = 60)
{
    QTest::qWait(settleMs);
    QElapsedTimer t;
    t.start();
    while (s->busy() && t.elapsed() < timeoutMs)
        QTest::qWait(10);
    return !s->busy();
}

// `figure` rendered with the default options on white, as an export would paint it.
inline QImage renderToImage(const ui::Figure& figure, QSize size = {800, 520})
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    figure.renderFigure(painter, QRectF(QPointF(0, 0), QSizeF(size)), ui::RenderOptions{});
    painter.end();
    return image;
}

// Where a suite keeps QSettings' own user scope (the language choice is stored there).
enum class UserSettings {
    Untouched, // the suite's windows read and write only their own settings files
    InFolder,  // QSettings' user scope (IniFormat, the default format) is the suite's folder
};

// What every GUI suite's initTestCase does first: the suite's temporary folder exists, and the
// application is named (organisation PosAtlasTest, application the test executable's name) so that no
// test reads or writes a user's settings. False when the folder could not be made: call it as
// QVERIFY(initGuiSuite(m_dir)).
[[nodiscard]] inline bool initGuiSuite(const QTemporaryDir& dir, UserSettings user = UserSettings::Untouched)
{
    if (!dir.isValid())
        return false;
    QApplication::setOrganizationName(QStringLiteral("PosAtlasTest"));
    QApplication::setApplicationName(QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
    if (user == UserSettings::InFolder) {
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
        QSettings::setDefaultFormat(QSettings::IniFormat);
    }
    return true;
}

// How showMainWindow shows a main window; the defaults are what most suites want.
struct WindowOptions {
    QSize size{1280, 720};
    bool computeHiddenViews = true; // every view computed, hidden ones too
    bool active = false;            // the active window, so that key events reach its focus widget
    bool waitForJobs = true;        // returned after its first results
};

// A main window on the settings file `settingsPath`, shown (and, by default, after its first results).
// A window that never shows or jobs that never finish fail the calling test; it goes on with the window,
// so that it can still close it cleanly.
inline std::unique_ptr<ui::MainWindow> showMainWindow(const QString& settingsPath,
                                                      const WindowOptions& options = {})
{
    auto w = std::make_unique<ui::MainWindow>(settingsPath);
    w->setComputeHiddenViews(options.computeHiddenViews);
    w->resize(options.size);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        QTest::qFail("the main window was not exposed", __FILE__, __LINE__);
    else {
        if (options.active)
            QApplication::setActiveWindow(w.get());
        if (options.waitForJobs && !waitIdle(w->jobs()))
            QTest::qFail("the main window's first jobs did not finish in time", __FILE__, __LINE__);
    }
    return w;
}

// The same on the settings file `name`.ini in the suite's folder `dir`.
inline std::unique_ptr<ui::MainWindow> showMainWindow(const QTemporaryDir& dir, const QString& name,
                                                      const WindowOptions& options = {})
{
    return showMainWindow(dir.filePath(name + QStringLiteral(".ini")), options);
}

} // namespace posatlas::test
