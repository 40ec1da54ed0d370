// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel: a method selector and, below it, exactly the chosen method's parameters, each a
// slider with a spin box (log scale where the range spans decades), a check box or a combo box, with
// its unit and a tooltip that explains it. RoPE's scaling parameters appear only for the scaling type
// that reads them. Built from the method registry's fields (core/methods/registry.h); edits go to the
// ScenarioModel, model changes come back through scenarioChanged (a guard flag stops the echo).
#pragma once

#include "model/scenario_model.h"

#include <QHash>
#include <QWidget>

#include <vector>

class QComboBox;
class QGroupBox;
class QLabel;
class QScrollArea;
class QCheckBox;

namespace posatlas::ui {

class ListSliders;
class LogSlider;

class ParameterPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ParameterPanel(ScenarioModel* model, QWidget* parent = nullptr);

    // The editor of a parameter (LogSlider, QCheckBox or QComboBox), for tests and focus handling.
    QWidget* editor(ParamId id) const { return m_editors.value(id); }
    QWidget* label(ParamId id) const { return m_labels.value(id); } // null for rows that label themselves
    LogSlider* slider(ParamId id) const;
    // The per-element sliders of a list field with defaults (ALiBi's head slopes); null otherwise.
    ListSliders* listSliders(ParamId id) const;
    QComboBox* methodCombo() const;
    // True when the row of `id` is currently shown (method and RoPE type filter).
    bool isRowVisible(ParamId id) const;
    // The narrowest the panel can be without clipping its rows (at its current font and style): the
    // rows' minimum width, the vertical scroll bar and the frame.
    int contentMinimumWidth() const;

signals:
    // A note for the status bar, e.g. a typed value clamped to its parameter's limit.
    void message(const QString& text);

private:
    void build();
    QWidget* makeEditor(ParamId id);
    void syncFromModel();
    void updateVisibility();
    void edit(ParamId id, double value);
    // The content combo box: a seeded kind (dropping any files), or its last entry, From file...
    void editContent(ParamId id, int index, int seededKinds);

    ScenarioModel* m_model;
    QComboBox* m_methodCombo = nullptr;
    QHash<ParamId, QWidget*> m_editors;
    QHash<ParamId, QWidget*> m_labels;
    // Each row's container (its label above its editor): rows are shown and hidden as whole widgets.
    QHash<ParamId, QWidget*> m_rows;
    std::vector<QGroupBox*> m_methodGroups; // in registry order
    // Per method group (registry order): the label of the lists it shows read only; null when none.
    std::vector<QLabel*> m_summaryLabels;
    QScrollArea* m_scroll = nullptr;
    bool m_syncing = false;
};

} // namespace posatlas::ui
