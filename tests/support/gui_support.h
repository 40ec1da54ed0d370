// SPDX-License-Identifier: GPL-3.0-or-later
// What the QtTest suites of the GUI share (named gui_, not ui_: AUTOUIC takes ui_*.h for generated forms):
// waiting until the main window's job tracker is idle, and rendering a figure into an image.
#pragma once

#include "jobs/job_tracker.h"
#include "views/figure.h"
#include "window/main_window.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
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
// pass; first `settleMs` so that the debounce timer can fire. True when idle.
inline bool waitIdle(ui::JobTracker* s, int timeoutMs = kJobTimeoutMs, int settleMs = 60)
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

// A main window on the settings file `settingsPath` with every view computed (hidden ones too), shown at
// 1280x720, after its first results.
inline std::unique_ptr<ui::MainWindow> showMainWindow(const QString& settingsPath)
{
    auto w = std::make_unique<ui::MainWindow>(settingsPath);
    w->setComputeHiddenViews(true);
    w->resize(1280, 720);
    w->show();
    // A window that never shows or jobs that never finish fail the calling test (it goes on with the
    // window, so that it can still close it cleanly).
    if (!QTest::qWaitForWindowExposed(w.get()))
        QTest::qFail("the main window was not exposed", __FILE__, __LINE__);
    else if (!waitIdle(w->jobs()))
        QTest::qFail("the main window's first jobs did not finish in time", __FILE__, __LINE__);
    return w;
}

} // namespace posatlas::test
