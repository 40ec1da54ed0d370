// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/gui_main.h"

#include "model/settings.h"
#include "window/language.h"
#include "window/main_window.h"

#include <QApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLocale>
#include <QUrl>

#include <cstdio>

namespace posatlas::ui {

int open_paths_at_startup(MainWindow& window, const QStringList& paths)
{
    int opened = 0;
    for (const QString& arg : paths) {
        const QUrl url(arg);
        const QString path = url.isLocalFile() ? url.toLocalFile() : arg;
        // Absolute, so that the recent-files menu works from any later working directory.
        if (window.openFile(QFileInfo(path).absoluteFilePath()))
            ++opened;
    }
    return opened;
}

QString missing_display_message(const QStringList& arguments)
{
#if defined(Q_OS_LINUX) || defined(Q_OS_FREEBSD)
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY") ||
        !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") || arguments.contains(QStringLiteral("-platform")))
        return {};
    return QStringLiteral(
        "posatlas: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot "
        "open; render figures headless with 'posatlas gallery --out DIR' or 'posatlas export "
        "... --out FILE', or run the GUI without a screen with QT_QPA_PLATFORM=offscreen");
#else
    Q_UNUSED(arguments);
    return {};
#endif
}

int run_gui(int argc, char** argv)
{
    QStringList rawArguments;
    for (int i = 0; i < argc; ++i)
        rawArguments << QString::fromLocal8Bit(argv[i]);
    if (const QString message = missing_display_message(rawArguments); !message.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(message));
        return 2;
    }
    // Fractional scale factors (125 %, 150 %) as the screen reports them: the heatmap asks for one
    // matrix cell per device pixel and the figures paint with device-independent coordinates.
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PosAtlas"));
    QApplication::setApplicationName(QStringLiteral("PosAtlas"));
    QApplication::setApplicationDisplayName(QStringLiteral("PosAtlas"));
    QApplication::setApplicationVersion(QStringLiteral(POSATLAS_VERSION_STRING));
    // Wayland compositors and X11 task bars match the window to the installed desktop entry (its icon
    // and name) through this id.
    QGuiApplication::setDesktopFileName(QString::fromLatin1(kAppId));
    // Before the first widget: every string the window builds is translated, every number uses the
    // decimal point.
    installLanguage(resolveLanguage(Settings().languageChoice(), QLocale::system().uiLanguages()));
    applyNumberPolicy();
    MainWindow window;
    window.show();
    // QApplication has removed its own options (-platform, -style, ...): what is left are files.
    open_paths_at_startup(window, QApplication::arguments().mid(1));
    return app.exec();
}

} // namespace posatlas::ui
