// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's single source of truth: a QObject around core's plain Scenario value. Every edit goes
// through a setter that validates a copy with core's validate() (no state change on ParameterError),
// returns early when nothing changes, and pushes one QUndoCommand; a slider drag merges into one undo
// entry, a preset or a config import is one entry. One scenarioChanged() per change.
//
// Parameters are addressed by ParamId, a field of the method registry, so that the parameter panel, the
// undo stack and validation share one table (key, range, scale, label, tooltip).
#pragma once

#include "methods/registry.h"
#include "scenario/params.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>
#include <vector>

class QUndoStack;

namespace posatlas::ui {

// A parameter is a Field of the method registry (core/methods/registry.h): one of the scenario's own
// (seq_len, head, content, content_seed) or one of a method's. Its range, label, unit, tooltip and
// choices are the field's; the panel, validation and the command line share that one object.
using ParamId = const Field*;

// The scenario's own parameter `key`, or method m's (by key or alias). Never null for a registered
// key; asserts otherwise.
ParamId param(std::string_view key);
ParamId param(Method m, std::string_view key);
// The method a parameter belongs to; nullopt for the scenario's own.
std::optional<Method> param_method(ParamId id);
// A stable small integer per parameter (undo merging, tests): common fields first, then each method's.
int param_index(ParamId id);
// Every parameter: the scenario's own, then each method's in registry order.
std::vector<ParamId> all_params();

QString paramText(const char* source); // translated label / unit / tooltip / choice (context "ParamSpec")
QString methodName(Method m);          // translated display name (context "Method")
QString methodShortName(Method m);     // "RoPE", "Transformer-XL"
QString kindLabel(MatrixKind k);       // translated matrix-kind label (context "MatrixKind")

// Reads and writes a parameter of a Scenario as a double (ints, bools, choice indices included).
double param_value(const Scenario& s, ParamId id);
void set_param_value(Scenario& s, ParamId id, double value);
// Throws ParameterError when the scenario (its current method and the method that `id` belongs to)
// is invalid.
void validate_for(const Scenario& s, std::optional<ParamId> changed = std::nullopt);

class ScenarioModel : public QObject
{
    Q_OBJECT
public:
    explicit ScenarioModel(QObject* parent = nullptr);

    const Scenario& scenario() const { return m_scenario; }
    QUndoStack* undoStack() const { return m_undo; }
    double value(ParamId id) const { return param_value(m_scenario, id); }

    // Validated, undoable edit of one parameter. Returns false (and emits parameterRejected) when
    // core rejects the value; returns true when it was applied or did not change anything.
    bool setValue(ParamId id, double value);
    // The same for a text field (the sentence): validated, one undo step.
    bool setText(ParamId id, const QString& text);
    // The same for element `index` of a list field with list_defaults (ALiBi's head slopes): value
    // nullopt puts the element back to its default (Field::list_with gives the stored form). A drag
    // merges into one undo entry per element; quick repeats of one element merge like setValue's.
    bool setListElement(ParamId id, int index, std::optional<double> value);
    // Every element of such a list back to its default (an empty list), one undo step.
    bool resetList(ParamId id);
    // Switches the method (one undo step); the shown head is clamped to the new method's heads.
    bool setMethod(Method m);
    // The whole scenario at once (preset, config import, restore) as one undo step labelled `text`.
    bool setScenario(const Scenario& s, const QString& text);
    // Replaces the scenario without an undo entry (startup restore), validating it first.
    bool resetScenario(const Scenario& s);

    // A slider drag brackets its value changes so that they merge into one undo entry.
    void beginInteractiveEdit();
    void endInteractiveEdit();
    bool interactiveEdit() const { return m_interactive; }
    int interactiveSerial() const { return m_interactiveSerial; }

    // Used by the undo commands: assigns without pushing anything.
    void applyFromUndo(const Scenario& s);

signals:
    void scenarioChanged();
    void parameterRejected(const QString& message);

private:
    bool acceptEdit(const Scenario& next, ParamId id);
    bool setList(ParamId id, const nlohmann::json& list, const QString& text, int mergeId);
    void assign(const Scenario& s);

    Scenario m_scenario;
    QUndoStack* m_undo;
    bool m_interactive = false;
    int m_interactiveSerial = 0;
};

} // namespace posatlas::ui
