// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Edit > Preferences: the interface language (system, English, 简体中文). The choice is stored in the
// settings and takes effect at the next start (every widget is built in the language of its time).

#include "model/settings.h"

#include <QDialog>

class QComboBox;
class QLabel;

namespace posatlas::ui {

class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    // Reads and stores the choice in `settings` (the main window's).
    explicit PreferencesDialog(Settings& settings, QWidget* parent = nullptr);

    // The language choice the dialog shows ("system", "en", "zh_CN").
    QString selectedLanguage() const;
    void setSelectedLanguage(const QString& choice);
    // Stores the selection; true when it differs from what was stored before.
    bool apply();

private:
    void updateNote();

    Settings& m_settings;
    QComboBox* m_language = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace posatlas::ui
