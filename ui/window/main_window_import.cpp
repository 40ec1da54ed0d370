// SPDX-License-Identifier: GPL-3.0-or-later
// Models into the main window: config.json import, presets, and the import report (read, not modelled
// yet, not recognised).
#include "hub/model_dialog.h"
#include "hub/weights_dialog.h"
#include "io/checkpoint_adoption.h"
#include "io/hf_cache.h"
#include "io/model_config.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "scenario/validation.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
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
        tr("Imported %1 (%2)").arg(QFileInfo(path).fileName(), methodName(result.scenario.method)), 5000);
    return true;
}

bool MainWindow::openFile(const QString& path)
{
    if (path.endsWith(QStringLiteral(".safetensors"), Qt::CaseInsensitive) ||
        path.endsWith(QStringLiteral(".safetensors.index.json"), Qt::CaseInsensitive)) {
        openWeightsDialog(path);
        return true;
    }
    return is_session_file(path) ? m_sessions->openSession(path) : openConfig(path);
}

bool MainWindow::openCachedModel(const QString& ref)
{
    HfResolvedModel cached;
    ConfigImport result;
    try {
        cached = resolve_hf_model(hf_cache_root().path, parse_hf_model_ref(ref.toStdString()));
        result = load_model_config(cached.config.string(), m_model->scenario());
        // The snapshot's checkpoint feeds the tables its method knows in it, as `--model` does on the
        // command line (io/checkpoint_adoption.h).
        if (!cached.weights.empty())
            for (std::string& note : adopt_checkpoint(result.scenario, cached.weights.string()))
                result.notes.push_back(std::move(note));
        validate(result.scenario);
    } catch (const std::exception& e) {
        showError(tr("Cannot open model %1: %2").arg(ref, QString::fromUtf8(e.what())));
        return false;
    }
    const QString name = QString::fromStdString(cached.repo_id);
    if (!m_model->setScenario(result.scenario, tr("Open model %1").arg(name)))
        return false;
    showImportReport(name, result);
    statusBar()->showMessage(tr("Opened %1 (%2)").arg(name, methodName(result.scenario.method)), 5000);
    return true;
}

void MainWindow::openModelDialog()
{
    ModelDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedModel().isEmpty())
        openCachedModel(dialog.selectedModel());
}

void MainWindow::openWeightsDialog(const QString& given)
{
    QString path = given;
    if (path.isEmpty())
        path = QFileDialog::getOpenFileName(
            this, tr("Open weights"), QString(),
            tr("Checkpoints (*.safetensors *.safetensors.index.json);;All files (*)"));
    if (path.isEmpty())
        return;
    SafetensorsCatalog catalog;
    try {
        catalog = read_safetensors(QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        showError(tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return;
    }
    WeightsDialog dialog(catalog, this);
    if (dialog.exec() == QDialog::Accepted && !dialog.tensor().isEmpty())
        useWeights(path, dialog.tensor(), dialog.target());
}

bool MainWindow::useWeights(const QString& path, const QString& tensor, const QString& target)
{
    Scenario s = m_model->scenario();
    const std::string file = QFile::encodeName(path).toStdString();
    // The tensor fills the table field `target` names (WeightsDialog: a table_target_id), by default the one
    // its name suggests: a known tensor its method's table, any other a learned position table
    // (io/checkpoint_adoption.h).
    const Field* table = nullptr;
    try {
        const auto chosen = target.isEmpty() ? default_table_target(tensor.toStdString())
                                             : parse_table_target(target.toStdString());
        if (!chosen)
            throw AdoptionError("no table '" + target.toStdString() + "'");
        TableAdoption adopted = adopt_table(s, file, tensor.toStdString(), *chosen);
        s = std::move(adopted.scenario);
        table = adopted.field;
    } catch (const std::exception& e) {
        showError(tr("Cannot use %1 of %2: %3")
                      .arg(tensor, QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_model->setScenario(s, tr("Weights %1").arg(tensor)))
        return false;
    const QString name = QFileInfo(path).fileName();
    statusBar()->showMessage(
        tr("%1: %2 of %3")
            .arg(QStringLiteral("%1 · %2").arg(methodShortName(s.method),
                                               QCoreApplication::translate("ParamSpec", table->label)),
                 tensor, name),
        5000);
    return true;
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
