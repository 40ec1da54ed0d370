// SPDX-License-Identifier: GPL-3.0-or-later
// Models into the main window: config.json import, presets, and the import report (read, not modelled
// yet, not recognised).
#include "io/model_config.h"
#include "io/presets.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "scenario/validation.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QStatusBar>
#include <QTextBrowser>

namespace posatlas::ui {
namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

bool MainWindow::openConfig(const QString& path)
{
    ConfigImport result;
    try {
        result = load_model_config(QFile::encodeName(path).toStdString(), m_model->scenario());
    } catch (const std::exception& e) {
        showError(tr("Cannot import %1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    // A value out of range came from the file: name the file and its key, not a slider.
    try {
        validate(result.scenario);
    } catch (const ParameterError& e) {
        showError(tr("Cannot import %1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_model->setScenario(result.scenario, tr("Import %1").arg(QFileInfo(path).fileName())))
        return false;
    m_settings->addRecentFile(path);
    rebuildRecentMenu();
    showImportReport(QFileInfo(path).fileName(), result);
    statusBar()->showMessage(
        tr("Imported %1 (%2)")
            .arg(QFileInfo(path).fileName(), methodName(result.scenario.method)),
        5000);
    return true;
}

bool MainWindow::openFile(const QString& path)
{
    return is_session_file(path) ? m_sessions->openSession(path) : openConfig(path);
}

bool MainWindow::loadPreset(const QString& id)
{
    const auto info = find_preset(id.toStdString());
    ConfigImport result;
    try {
        result = load_preset(id.toStdString(), m_model->scenario());
    } catch (const std::exception& e) {
        showError(tr("Cannot load preset %1: %2").arg(id, QString::fromUtf8(e.what())));
        return false;
    }
    const QString name = info ? qs(info->name) : id;
    if (!m_model->setScenario(result.scenario, tr("Preset %1").arg(name)))
        return false;
    statusBar()->showMessage(info ? tr("Preset %1 · source: %2").arg(name, qs(info->source)) : name, 8000);
    return true;
}

void MainWindow::showImportReport(const QString& title, const ConfigImport& result)
{
    auto list = [](const std::vector<std::string>& items) {
        if (items.empty())
            return QStringLiteral("<p><i>%1</i></p>").arg(MainWindow::tr("none"));
        QString html = QStringLiteral("<ul>");
        for (const auto& item : items)
            html +=
                QStringLiteral("<li><code>%1</code></li>").arg(QString::fromStdString(item).toHtmlEscaped());
        return html + QStringLiteral("</ul>");
    };
    auto notes = [](const std::vector<std::string>& items) {
        QString html = QStringLiteral("<ul>");
        for (const auto& item : items)
            html += QStringLiteral("<li>%1</li>").arg(QString::fromStdString(item).toHtmlEscaped());
        return html + QStringLiteral("</ul>");
    };
    QString html = QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped());
    html += tr("<p>Model type <b>%1</b> → method <b>%2</b></p>")
                .arg(result.model_type.empty() ? tr("(none)")
                                               : QString::fromStdString(result.model_type).toHtmlEscaped(),
                     methodName(result.scenario.method).toHtmlEscaped());
    html += QStringLiteral("<h4>%1</h4>").arg(tr("Read")) + list(result.read_keys);
    html += QStringLiteral("<h4>%1</h4>").arg(tr("Read, not modelled yet (about positions)")) +
            list(result.ignored_keys);
    if (!result.unknown_keys.empty())
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Not recognised")) + list(result.unknown_keys);
    if (!result.notes.empty())
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Notes")) + notes(result.notes);
    m_importReport->setHtml(html);
    m_importDock->show();
    m_importDock->raise();
}

QString MainWindow::importReportText() const
{
    return m_importReport->toPlainText();
}
QString MainWindow::statusMessage() const
{
    return m_lastMessage;
}

} // namespace posatlas::ui
