#include "gui_main.h"

#include "main_window.h"

#include <QApplication>
#include <QGuiApplication>

namespace posatlas::ui {

int run_gui(int argc, char** argv)
{
    // Fractional scale factors (125 %, 150 %) as the screen reports them: the heatmap asks for one
    // matrix cell per device pixel and the figures paint with device-independent coordinates.
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PosAtlas"));
    QApplication::setApplicationName(QStringLiteral("PosAtlas"));
    QApplication::setApplicationDisplayName(QStringLiteral("PosAtlas"));
    QApplication::setApplicationVersion(QStringLiteral(POSATLAS_VERSION_STRING));
    MainWindow window;
    window.show();
    return app.exec();
}

} // namespace posatlas::ui
