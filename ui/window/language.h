// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface language and the number policy, chosen once at start-up.
//
// PosAtlas speaks Chinese (simplified) and English. By default it follows the system locale (any
// zh* UI language gives Chinese, for example LANG=zh_CN.UTF-8); Edit > Preferences stores a choice that
// wins over the system from the next start. Translations are compiled from resources/translations/*.ts
// into the binary; Qt's own dialogs use Qt's translations when installed (qt6-translations-l10n).
//
// Numbers: one policy for every spin box, line edit and figure: a decimal point and no group
// separators, whatever the locale (a German locale would otherwise show 8,000 in a spin box for 8
// while the plots print 0.01). Dates and times are written as the interface language writes them
// (dateTimeText), not in the C locale the number policy installs.

#include <QCoreApplication>
#include <QDateTime>
#include <QString>
#include <QStringList>

namespace posatlas::ui {

// The choices of Settings::languageChoice() with their names, each written in its own language (a user who
// cannot read the current one still finds theirs).
QList<QPair<QString, QString>> languageChoices();

// "zh_CN" or "en" for a choice, resolving "system" against the given UI languages
// (QLocale::system().uiLanguages() by default).
QString resolveLanguage(const QString& choice, const QStringList& uiLanguages);

// Installs PosAtlas' translator (and Qt's, when available) for `language` ("zh_CN" or "en") on the
// application, replacing any installed before. Returns false when the translation cannot be loaded
// (the interface then stays English).
bool installLanguage(const QString& language);
// The language installed by installLanguage ("en" before any call).
QString currentLanguage();

// Decimal point, no group separators, for every QLocale() that widgets use.
void applyNumberPolicy();

// A date and time in the installed language: "6 Dec 2026, 14:05", "2026年12月6日 14:05".
QString dateTimeText(const QDateTime& when);

} // namespace posatlas::ui
