// SPDX-License-Identifier: GPL-3.0-or-later
// The explorer's control panel: the model picker (RoPE presets grouped by family, "Open config.json…"
// with a report of the keys read, ignored and unknown), the target context, and one editor per scaling
// variant (its colour, kind and parameters) with add / remove.
#pragma once

#include "explorer/explorer_model.h"

#include <QWidget>

#include <string_view>
#include <utility>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QTextBrowser;
class QToolButton;
class QVBoxLayout;

namespace posatlas::ui {

class LogSlider;

// Editor of one variant's parameters; only the fields its kind reads are shown.
class VariantEditor : public QWidget
{
    Q_OBJECT
public:
    VariantEditor(const ExplorerVariant& variant, bool removable, QWidget* parent = nullptr);
    QPushButton* removeButton() const { return m_remove; }
    QDoubleSpinBox* factorBox() const; // the factor slider's spin box
    // The editor of the RoPE field `key` ("factor", "beta_fast", ...); null when this kind has none.
    LogSlider* fieldSlider(std::string_view key) const;
    // "follows T" or "pinned" next to the factor, and the button that makes a pinned factor follow T
    // (nullptr for kinds without a factor).
    QLabel* factorState() const { return m_factorState; }
    QPushButton* followButton() const { return m_follow; }
    // Shows the variant's current numbers (same kind): the target moved, or a factor was released.
    void showVariant(const ExplorerVariant& variant);

signals:
    void paramsEdited(const posatlas::RopeParams& params);
    void removeRequested();
    void followTargetRequested();
    // A note for the status bar: a typed value outside its field's range was clamped to the limit.
    void message(const QString& text);

private:
    LogSlider* addField(QFormLayout* form, const char* key);
    void emitParams();
    void showFactorState();

    ExplorerVariant m_variant;
    QPushButton* m_remove = nullptr;
    LogSlider* m_factor = nullptr;
    QLabel* m_factorState = nullptr;
    QPushButton* m_follow = nullptr;
    LogSlider* m_original = nullptr;
    LogSlider* m_betaFast = nullptr;
    LogSlider* m_betaSlow = nullptr;
    LogSlider* m_mscale = nullptr;
    LogSlider* m_mscaleAll = nullptr;
    LogSlider* m_lowFreq = nullptr;
    LogSlider* m_highFreq = nullptr;
    std::vector<std::pair<std::string_view, LogSlider*>> m_sliders; // by field key, in form order
};

class ExplorerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExplorerPanel(ExplorerModel* model, QWidget* parent = nullptr);

    // Loads an embedded preset / a config.json into the model. False (and errorMessage) on failure,
    // e.g. a model whose positions are not RoPE.
    bool loadPreset(const QString& id);
    bool openConfig(const QString& path);
    // The report of the last import (keys read / ignored / unknown, notes) as plain text.
    QString importReportText() const;
    // The model line above the report (rich text): shape, trained length, logit multiplier, warnings.
    QString modelSummaryText() const;

    QComboBox* presetCombo() const { return m_presets; }
    QToolButton* addButton() const { return m_add; }
    LogSlider* targetSlider() const { return m_target; }
    QList<VariantEditor*> editors() const { return m_editors; }

signals:
    void errorMessage(const QString& message);

private:
    void rebuildEditors();
    void rebuildTarget();
    void showReport();
    void syncPresetCombo();

    ExplorerModel* m_model;
    QComboBox* m_presets;
    QLabel* m_modelLabel;
    QTextBrowser* m_report;
    QVBoxLayout* m_targetBox;
    LogSlider* m_target = nullptr;
    QVBoxLayout* m_editorBox;
    QList<VariantEditor*> m_editors;
    QToolButton* m_add;
    QString m_presetId;
};

} // namespace posatlas::ui
