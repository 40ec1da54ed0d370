// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_i18n.h"

#include "model/parameter_message.h"
#include "window/language.h"

#include <QCoreApplication>
#include <QLocale>

#include <clocale>
#include <string_view>

namespace posatlas::cli {

void choose_language()
{
    if (!QCoreApplication::instance()) {
        // QCoreApplication sets the C library's locale from the environment (a German LC_NUMERIC would
        // read and print 0,5): put back what the program had.
        const std::string before = std::setlocale(LC_ALL, nullptr);
        static int argc = 1;
        static char name[] = "posatlas";
        static char* argv[] = {name, nullptr};
        // Heap, deleted by release_application() (cli_export.h) before static destructors run.
        new QCoreApplication(argc, argv);
        std::setlocale(LC_ALL, before.c_str());
    }
    // As the GUI's "system" choice, without its stored preference: a script's output depends on its
    // environment only.
    ui::installLanguage(ui::resolveLanguage(QStringLiteral("system"), QLocale::system().uiLanguages()));
}

std::string translate(const char* context, const char* source, const char* disambiguation)
{
    return QCoreApplication::translate(context, source, disambiguation).toStdString();
}

std::string parameter_message(const std::string& option, const std::string& allowed, const std::string& got)
{
    return arg(translate("posatlas::ui::ParameterMessage", "%1 must be %2 (got %3)"),
               {option, ui::allowedText(allowed).toStdString(), got});
}

} // namespace posatlas::cli
