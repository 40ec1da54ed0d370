// SPDX-License-Identifier: GPL-3.0-or-later
// Models into the main window: config.json (and .gguf) import, sessions and checkpoints by their file
// name (openFile), models of the local Hugging Face cache, a checkpoint's tensors as a method's table
// (Open Weights…), presets, and the import report (read, not modelled yet, not recognised). Every
// change is one undo step of the scenario model; errors go to the status line and change nothing.
// The window places the report (reportWidget) in its Config import dock and shows it on reportShown.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTextBrowser>

class QWidget;

namespace posatlas {
struct ConfigImport;
}

namespace posatlas::ui {

class LayersController;
class ScenarioModel;
class SessionActions;
class Settings;
class WindowStatus;

class ImportController : public QObject
{
    Q_OBJECT
public:
    // `sessions` opens the session files openFile is given; `window` is the parent of the dialogs.
    ImportController(ScenarioModel* model, Settings* settings, SessionActions* sessions, WindowStatus* status,
                     QWidget* window);
    ~ImportController() override;

    // Applies a config.json as one undo step and shows the import report. False (and a message) on error.
    bool openConfig(const QString& path);
    // A session (.posatlas.json, see session_actions.h) or a config.json, by its name or content; a
    // .safetensors checkpoint or its index opens the weights picker.
    bool openFile(const QString& path);
    // A model of the local Hugging Face cache (ORG/NAME[@REV]): its config.json, and for a learned table its
    // cached position tensor, as one undo step. False (and a message) when it is not cached.
    bool openCachedModel(const QString& ref);
    // File > Open Model…: the cache and the Hub download (hub/model_dialog.h).
    void openModelDialog();
    // File > Open Weights…: the tensors of `path` (hub/weights_dialog.h); the one chosen becomes the
    // learned table. An empty path asks for a file first.
    void openWeightsDialog(const QString& path = {});
    // Sets the learned method's table to `tensor` of the checkpoint `path` (one undo step).
    // `target` as WeightsDialog::target(): "learned", "t5" or "METHOD/FIELD"; empty: the known tensor's
    // default (WeightsDialog::defaultTarget).
    bool useWeights(const QString& path, const QString& tensor, const QString& target = {});
    // Applies an embedded preset as one undo step.
    bool loadPreset(const QString& id);

    // Each import hands the model's layers (io/model_layers.h) to `layers` (none: a preset or a config
    // without them clears it).
    void setLayers(LayersController* layers) { m_layers = layers; }

    // The last import's report, and the widget that shows it (the window puts it in a dock).
    QString reportText() const;
    QTextBrowser* reportWidget() const { return m_report; }

signals:
    // A config was imported: it heads the recent files now.
    void recentFilesChanged();
    // The report has a new import (the window brings its dock to the front).
    void reportShown();

private:
    void showReport(const QString& title, const ConfigImport& result);
    void takeLayers(const QString& model, const ConfigImport& result);

    ScenarioModel* m_model;
    Settings* m_settings;
    SessionActions* m_sessions;
    WindowStatus* m_status;
    QWidget* m_window;
    QPointer<QTextBrowser> m_report; // placed in a dock by the window
    LayersController* m_layers = nullptr;
};

} // namespace posatlas::ui
