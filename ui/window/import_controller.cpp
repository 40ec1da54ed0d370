// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/import_controller.h"

#include "hub/model_dialog.h"
#include "hub/weights_dialog.h"
#include "io/checkpoint_adoption.h"
#include "io/hf_cache.h"
#include "io/import_report.h"
#include "io/model_config.h"
#include "io/presets.h"
#include "io/safetensors.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "scenario/validation.h"
#include "window/layers_controller.h"
#include "window/session_actions.h"
#include "window/window_status.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QTextBrowser>

namespace posatlas::ui {
namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

ImportController::ImportController(ScenarioModel* model, Settings* settings, SessionActions* sessions,
                                   WindowStatus* status, QWidget* window)
    : QObject(window), m_model(model), m_settings(settings), m_sessions(sessions), m_status(status),
      m_window(window), m_report(new QTextBrowser)
{
    m_report->setOpenExternalLinks(true);
}

ImportController::~ImportController()
{
    // The report belongs to the dock it was placed in; one never placed is ours.
    if (m_report && !m_report->parent())
        delete m_report;
}

bool ImportController::openConfig(const QString& path)
{
    ConfigImport result;
    try {
        result = load_model_config(QFile::encodeName(path).toStdString(), m_model->scenario());
    } catch (const std::exception& e) {
        m_status->showError(QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot import %1: %2")
                                .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    // A value out of range came from the file: name the file and its key, not a slider.
    try {
        validate(result.scenario);
    } catch (const ParameterError& e) {
        m_status->showError(QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot import %1: %2")
                                .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_model->setScenario(result.scenario,
                              QCoreApplication::translate("posatlas::ui::MainWindow", "Import %1")
                                  .arg(QFileInfo(path).fileName())))
        return false;
    takeLayers(QFileInfo(path).fileName(), result);
    m_settings->addRecentFile(path);
    emit recentFilesChanged();
    showReport(QFileInfo(path).fileName(), result);
    m_status->showMessage(QCoreApplication::translate("posatlas::ui::MainWindow", "Imported %1 (%2)")
                              .arg(QFileInfo(path).fileName(), methodName(result.scenario.method)),
                          5000);
    return true;
}

void ImportController::takeLayers(const QString& model, const ConfigImport& result)
{
    if (!m_layers)
        return;
    if (result.layers.empty() || result.scenario.method != RopeParams::kMethod)
        m_layers->clear();
    else
        m_layers->setLayers(model, result.layers, result.scenario.params<RopeParams>());
}

bool ImportController::openFile(const QString& path)
{
    if (path.endsWith(QStringLiteral(".safetensors"), Qt::CaseInsensitive) ||
        path.endsWith(QStringLiteral(".safetensors.index.json"), Qt::CaseInsensitive)) {
        openWeightsDialog(path);
        return true;
    }
    return is_session_file(path) ? m_sessions->openSession(path) : openConfig(path);
}

bool ImportController::openCachedModel(const QString& ref)
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
        m_status->showError(
            QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot open model %1: %2")
                .arg(ref, QString::fromUtf8(e.what())));
        return false;
    }
    const QString name = QString::fromStdString(cached.repo_id);
    if (!m_model->setScenario(
            result.scenario,
            QCoreApplication::translate("posatlas::ui::MainWindow", "Open model %1").arg(name)))
        return false;
    takeLayers(name, result);
    showReport(name, result);
    m_status->showMessage(QCoreApplication::translate("posatlas::ui::MainWindow", "Opened %1 (%2)")
                              .arg(name, methodName(result.scenario.method)),
                          5000);
    return true;
}

void ImportController::openModelDialog()
{
    ModelDialog dialog(m_window);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedModel().isEmpty())
        openCachedModel(dialog.selectedModel());
}

void ImportController::openWeightsDialog(const QString& given)
{
    QString path = given;
    if (path.isEmpty())
        path = QFileDialog::getOpenFileName(
            m_window, QCoreApplication::translate("posatlas::ui::MainWindow", "Open weights"), QString(),
            QCoreApplication::translate(
                "posatlas::ui::MainWindow",
                "Checkpoints (*.safetensors *.safetensors.index.json);;All files (*)"));
    if (path.isEmpty())
        return;
    SafetensorsCatalog catalog;
    try {
        catalog = read_safetensors(QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        m_status->showError(QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot open %1: %2")
                                .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return;
    }
    WeightsDialog dialog(catalog, m_window);
    if (dialog.exec() == QDialog::Accepted && !dialog.tensor().isEmpty())
        useWeights(path, dialog.tensor(), dialog.target());
}

bool ImportController::useWeights(const QString& path, const QString& tensor, const QString& target)
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
        m_status->showError(QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot use %1 of %2: %3")
                                .arg(tensor, QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    if (!m_model->setScenario(
            s, QCoreApplication::translate("posatlas::ui::MainWindow", "Weights %1").arg(tensor)))
        return false;
    const QString name = QFileInfo(path).fileName();
    m_status->showMessage(
        QCoreApplication::translate("posatlas::ui::MainWindow", "%1: %2 of %3")
            .arg(QStringLiteral("%1 · %2").arg(methodShortName(s.method),
                                               QCoreApplication::translate("ParamSpec", table->label)),
                 tensor, name),
        5000);
    return true;
}

bool ImportController::loadPreset(const QString& id)
{
    const auto info = find_preset(id.toStdString());
    ConfigImport result;
    try {
        result = load_preset(id.toStdString(), m_model->scenario());
    } catch (const std::exception& e) {
        m_status->showError(
            QCoreApplication::translate("posatlas::ui::MainWindow", "Cannot load preset %1: %2")
                .arg(id, QString::fromUtf8(e.what())));
        return false;
    }
    const QString name = info ? qs(info->name) : id;
    if (!m_model->setScenario(result.scenario,
                              QCoreApplication::translate("posatlas::ui::MainWindow", "Preset %1").arg(name)))
        return false;
    takeLayers(name, result);
    m_status->showMessage(
        info ? QCoreApplication::translate("posatlas::ui::MainWindow", "Preset %1 · source: %2")
                   .arg(name, qs(info->source))
             : name,
        8000);
    return true;
}

void ImportController::showReport(const QString& title, const ConfigImport& result)
{
    auto list = [](const std::vector<std::string>& items) {
        if (items.empty())
            return QStringLiteral("<p><i>%1</i></p>")
                .arg(QCoreApplication::translate("posatlas::ui::MainWindow", "none"));
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
    html +=
        QCoreApplication::translate("posatlas::ui::MainWindow",
                                    "<p>Model type <b>%1</b> → method <b>%2</b></p>")
            .arg(result.model_type.empty() ? QCoreApplication::translate("posatlas::ui::MainWindow", "(none)")
                                           : QString::fromStdString(result.model_type).toHtmlEscaped(),
                 methodName(result.scenario.method).toHtmlEscaped());
    html +=
        QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("posatlas::ui::MainWindow", "Read")) +
        list(result.read_keys);
    html += QStringLiteral("<h4>%1</h4>")
                .arg(QCoreApplication::translate("posatlas::ui::MainWindow",
                                                 "Read, not modelled yet (about positions)")) +
            list(result.ignored_keys);
    if (!result.unknown_keys.empty())
        html += QStringLiteral("<h4>%1</h4>")
                    .arg(QCoreApplication::translate("posatlas::ui::MainWindow", "Not recognised")) +
                list(result.unknown_keys);
    if (!result.notes.empty())
        html += QStringLiteral("<h4>%1</h4>")
                    .arg(QCoreApplication::translate("posatlas::ui::MainWindow", "Notes")) +
                notes(result.notes);
    // The layers as `posatlas inspect` prints them (io/import_report.h: one line per group of alike layers).
    if (!result.layers.empty())
        html += QStringLiteral("<h4>%1</h4>")
                    .arg(QCoreApplication::translate("posatlas::ui::MainWindow", "Layers (%1)")
                             .arg(result.layers.size())) +
                notes(layer_lines(result.layers));
    m_report->setHtml(html);
    emit reportShown();
}

QString ImportController::reportText() const
{
    return m_report->toPlainText();
}

} // namespace posatlas::ui
