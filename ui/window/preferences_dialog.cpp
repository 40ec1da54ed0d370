// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/preferences_dialog.h"

#include "window/language.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace posatlas::ui {

PreferencesDialog::PreferencesDialog(Settings& settings, QWidget* parent)
    : QDialog(parent), m_settings(settings)
{
    setWindowTitle(tr("Preferences"));
    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    for (const auto& [id, name] : languageChoices())
        m_language->addItem(name, id);
    m_language->setToolTip(
        tr("The language of menus, panels, figures and messages. \"System language\" "
           "follows the desktop's locale (Chinese for any Chinese locale, English otherwise)."));
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("languageNote"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Language:"), m_language);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addStretch();
    layout->addWidget(buttons);

    setSelectedLanguage(m_settings.languageChoice());
    connect(m_language, &QComboBox::currentIndexChanged, this, &PreferencesDialog::updateNote);
    updateNote();
}

QString PreferencesDialog::selectedLanguage() const
{
    return m_language->currentData().toString();
}

void PreferencesDialog::setSelectedLanguage(const QString& choice)
{
    const int index = m_language->findData(choice);
    m_language->setCurrentIndex(index >= 0 ? index : 0);
}

bool PreferencesDialog::apply()
{
    const bool changed = selectedLanguage() != m_settings.languageChoice();
    m_settings.setLanguageChoice(selectedLanguage());
    return changed;
}

void PreferencesDialog::updateNote()
{
    const QString target = resolveLanguage(selectedLanguage(), QLocale::system().uiLanguages());
    m_note->setText(target == currentLanguage()
                        ? QString()
                        : tr("The new language applies the next time PosAtlas starts."));
}

} // namespace posatlas::ui
