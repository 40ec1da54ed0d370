// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/language.h"

#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <memory>

namespace posatlas::ui {

namespace {

struct Installed {
    std::unique_ptr<QTranslator> own;
    std::unique_ptr<QTranslator> qt;
    QString language = QStringLiteral("en");
};

Installed& installed()
{
    static Installed state;
    return state;
}

} // namespace

QList<QPair<QString, QString>> languageChoices()
{
    return {{QStringLiteral("system"), QCoreApplication::translate("Language", "System language")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString resolveLanguage(const QString& choice, const QStringList& uiLanguages)
{
    if (choice == QLatin1String("en") || choice == QLatin1String("zh_CN"))
        return choice;
    for (const QString& lang : uiLanguages) {
        if (lang.startsWith(QLatin1String("zh"), Qt::CaseInsensitive))
            return QStringLiteral("zh_CN");
        if (lang.startsWith(QLatin1String("en"), Qt::CaseInsensitive))
            return QStringLiteral("en");
    }
    return QStringLiteral("en");
}

bool installLanguage(const QString& language)
{
    Installed& state = installed();
    for (auto* t : {state.own.get(), state.qt.get()})
        if (t)
            QCoreApplication::removeTranslator(t);
    state.own.reset();
    state.qt.reset();
    state.language = QStringLiteral("en");
    if (language != QLatin1String("zh_CN") && language != QLatin1String("en"))
        return false;
    // English needs its catalogue too: it holds only the plural forms ("1 value", "2 values"), since
    // the source strings are written once with %n.
    auto own = std::make_unique<QTranslator>();
    if (!own->load(QStringLiteral(":/posatlas/i18n/posatlas_%1.qm").arg(language)))
        return false;
    QCoreApplication::installTranslator(own.get());
    state.own = std::move(own);
    if (language == QLatin1String("en"))
        return true;
    // Standard buttons and dialogs (Open, Save, Cancel, the file dialog) come from Qt's own catalogue.
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_%1").arg(language),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        state.qt = std::move(qt);
    }
    state.language = language;
    return true;
}

QString currentLanguage()
{
    return installed().language;
}

void applyNumberPolicy()
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::OmitGroupSeparator | QLocale::RejectGroupSeparator);
    QLocale::setDefault(c);
}

QString dateTimeText(const QDateTime& when)
{
    // The pattern is the translation's (Chinese: 2026年12月6日); month names come from the language's
    // locale, not QLocale()'s C locale.
    const QLocale locale(currentLanguage() == QLatin1String("zh_CN") ? QLocale::Chinese : QLocale::English,
                         currentLanguage() == QLatin1String("zh_CN") ? QLocale::China
                                                                     : QLocale::UnitedKingdom);
    return locale.toString(when, QCoreApplication::translate("Language", "d MMM yyyy, HH:mm"));
}

} // namespace posatlas::ui
