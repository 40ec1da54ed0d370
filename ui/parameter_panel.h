// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel: a method selector and, below it, exactly the chosen method's parameters, each a
// slider with a spin box (log scale where the range spans decades), a check box or a combo box, with
// its unit and a tooltip that explains it. RoPE's scaling parameters appear only for the scaling type
// that reads them. Built from the parameter table of scenario_model.h; edits go to the ScenarioModel,
// model changes come back through scenarioChanged (a guard flag stops the echo).
#pragma once

#include "scenario_model.h"

#include <QWidget>

#include <array>

class QComboBox;
class QGroupBox;
class QLabel;
class QCheckBox;

namespace posatlas::ui {

class LogSlider;

class ParameterPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ParameterPanel(ScenarioModel* model, QWidget* parent = nullptr);

    // The editor of a parameter (LogSlider, QCheckBox or QComboBox), for tests and focus handling.
    QWidget* editor(ParamId id) const { return m_editors[static_cast<std::size_t>(id)]; }
    LogSlider* slider(ParamId id) const;
    QComboBox* methodCombo() const;
    // True when the row of `id` is currently shown (method and RoPE type filter).
    bool isRowVisible(ParamId id) const;

signals:
    // A note for the status bar, e.g. a typed value clamped to its parameter's limit.
    void message(const QString& text);

private:
    void build();
    QWidget* makeEditor(const ParamSpec& spec);
    void syncFromModel();
    void updateVisibility();
    void edit(ParamId id, double value);

    ScenarioModel* m_model;
    std::array<QWidget*, kParamCount> m_editors{};
    std::array<QWidget*, kParamCount> m_labels{};
    std::array<QGroupBox*, 9> m_methodGroups{};
    QLabel* m_longRopeLabel = nullptr;
    bool m_syncing = false;
};

} // namespace posatlas::ui
