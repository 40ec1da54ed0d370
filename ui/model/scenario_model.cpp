// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/scenario_model.h"

#include "model/parameter_message.h"
#include "model/undo_commands.h"
#include "scenario/validation.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <algorithm>
#include <array>
#include <cmath>

namespace posatlas::ui {
namespace {

// Keeps the shown head valid when the method or the head count changes (otherwise switching from a
// 12-head T5 to an 8-head ALiBi would be rejected for a field the user did not touch).
void clamp_head(Scenario& s)
{
    const MethodDescriptor& d = descriptor(s.method);
    const int heads = d.heads ? d.heads(s) : 1;
    if (s.head >= heads)
        s.head = std::max(0, heads - 1);
}

QString translated(const char* context, const char* source)
{
    return source ? QCoreApplication::translate(context, source) : QString();
}

} // namespace

ParamId param(std::string_view key)
{
    const Field* f = common_field(key);
    Q_ASSERT(f);
    return f;
}

ParamId param(Method m, std::string_view key)
{
    const Field* f = descriptor(m).field(key);
    Q_ASSERT(f);
    return f;
}

std::optional<Method> param_method(ParamId id)
{
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields)
            if (&f == id)
                return d.method;
    return std::nullopt;
}

std::vector<ParamId> all_params()
{
    return all_fields();
}

int param_index(ParamId id)
{
    const std::vector<ParamId> all = all_params();
    const auto it = std::find(all.begin(), all.end(), id);
    return it == all.end() ? -1 : static_cast<int>(it - all.begin());
}

QString paramText(const char* source)
{
    return translated("ParamSpec", source);
}
QString methodName(Method m)
{
    return translated("Method", descriptor(m).name);
}
QString methodShortName(Method m)
{
    return translated("Method", descriptor(m).short_name);
}
QString kindLabel(MatrixKind k)
{
    return translated("MatrixKind", matrix_kind_label(k));
}

double param_value(const Scenario& s, ParamId id)
{
    return id->number(s);
}

void set_param_value(Scenario& s, ParamId id, double v)
{
    id->set_number(s, v);
    clamp_head(s);
}

void validate_for(const Scenario& s, std::optional<ParamId> changed)
{
    validate(s);
    if (!changed)
        return;
    // validate(Scenario) checks the current method only; an edit of another method's parameter
    // must not slip through unchecked.
    const auto method = param_method(*changed);
    if (method && *method != s.method)
        validate_method(s, *method);
}

// ---------------------------------------------------------------- ScenarioModel

ScenarioModel::ScenarioModel(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {}

// Validates an edit of `id`; a rejected one is reported (parameterRejected) and leaves the model as it was.
bool ScenarioModel::acceptEdit(const Scenario& next, ParamId id)
{
    try {
        validate_for(next, id);
        return true;
    } catch (const ParameterError& e) {
        emit parameterRejected(parameterErrorText(e, next));
        return false;
    }
}

bool ScenarioModel::setText(ParamId id, const QString& text)
{
    Scenario next = m_scenario;
    id->set(next, nlohmann::json(text.toStdString()));
    if (next == m_scenario)
        return true;
    if (!acceptEdit(next, id))
        return false;
    m_undo->push(new SetScenarioCommand(this, m_scenario, next, tr("Change %1").arg(paramText(id->label)),
                                        param_index(id), -1));
    return true;
}

bool ScenarioModel::setValue(ParamId id, double value)
{
    Scenario next = m_scenario;
    set_param_value(next, id, value);
    if (next == m_scenario)
        return true;
    if (!acceptEdit(next, id))
        return false;
    QString text = tr("Change %1").arg(paramText(id->label));
    // A value that means little without another (Field::companion: a RoPE scaling type with factor 1
    // is the identity) sets the other in the same undo step, when that validates; the command line
    // applies the same rule.
    if (id->companion) {
        Scenario companioned = next;
        const std::string changed = id->companion(companioned);
        const std::optional<Method> owner = param_method(id);
        const Field* other = changed.empty() || !owner ? nullptr : descriptor(*owner).field(changed);
        if (!other && !changed.empty())
            other = common_field(changed); // M-RoPE's layout sets seq_len
        if (other) {
            try {
                validate_for(companioned, id);
                next = companioned;
                text = tr("Change %1 (%2 %3)")
                           .arg(paramText(id->label), paramText(other->label),
                                QString::fromStdString(posatlas::format_number(other->number(next))));
            } catch (const ParameterError&) {
                // keep the value as it was; the figures say what it means
            }
        }
    }
    const int mergeKey = m_interactive ? m_interactiveSerial : -1;
    m_undo->push(new SetScenarioCommand(this, m_scenario, next, text, param_index(id), mergeKey));
    return true;
}

bool ScenarioModel::setList(ParamId id, const nlohmann::json& list, const QString& text, int mergeId)
{
    try {
        id->check(list); // before set(): a wrong element must not reach the parameter struct
    } catch (const ParameterError& e) {
        emit parameterRejected(QString::fromStdString(e.what()));
        return false;
    }
    Scenario next = m_scenario;
    id->set(next, list);
    if (next == m_scenario)
        return true;
    if (!acceptEdit(next, id))
        return false;
    const int mergeKey = m_interactive ? m_interactiveSerial : -1;
    m_undo->push(new SetScenarioCommand(this, m_scenario, next, text, mergeId, mergeKey));
    return true;
}

bool ScenarioModel::setListElement(ParamId id, int index, std::optional<double> value)
{
    if (index < 0 || id->type != FieldType::RealList || !id->list_defaults)
        return false;
    const nlohmann::json list = id->list_with(m_scenario, static_cast<std::size_t>(index), value);
    // One undo id per (field, element), above the plain fields' ids, so that a quick edit of head 4
    // after one of head 3 stays a step of its own.
    const int fields = static_cast<int>(all_params().size());
    const int mergeId = fields * (1 + index) + param_index(id);
    const QString text = value ? tr("Change %1 (head %2)").arg(paramText(id->label)).arg(index + 1)
                               : tr("Reset %1 (head %2)").arg(paramText(id->label)).arg(index + 1);
    return setList(id, list, text, value ? mergeId : -1);
}

bool ScenarioModel::resetList(ParamId id)
{
    if (id->type != FieldType::RealList)
        return false;
    return setList(id, nlohmann::json::array(), tr("Reset %1").arg(paramText(id->label)), -1);
}

bool ScenarioModel::setMethod(Method m)
{
    Scenario next = m_scenario;
    next.method = m;
    clamp_head(next);
    if (next == m_scenario)
        return true;
    try {
        validate_for(next);
    } catch (const ParameterError& e) {
        emit parameterRejected(parameterErrorText(e, next));
        return false;
    }
    m_undo->push(new SetScenarioCommand(this, m_scenario, next, tr("Change Method"), -1, -1));
    return true;
}

bool ScenarioModel::setScenario(const Scenario& s, const QString& text)
{
    if (s == m_scenario)
        return true;
    try {
        validate_for(s);
    } catch (const ParameterError& e) {
        emit parameterRejected(parameterErrorText(e, s));
        return false;
    }
    m_undo->push(new SetScenarioCommand(this, m_scenario, s, text, -1, -1));
    return true;
}

bool ScenarioModel::resetScenario(const Scenario& s)
{
    try {
        validate_for(s);
    } catch (const ParameterError& e) {
        emit parameterRejected(parameterErrorText(e, s));
        return false;
    }
    m_undo->clear();
    assign(s);
    return true;
}

void ScenarioModel::beginInteractiveEdit()
{
    m_interactive = true;
    ++m_interactiveSerial;
}

void ScenarioModel::endInteractiveEdit()
{
    m_interactive = false;
}

void ScenarioModel::applyFromUndo(const Scenario& s)
{
    assign(s);
}

void ScenarioModel::assign(const Scenario& s)
{
    m_scenario = s;
    emit scenarioChanged();
}

} // namespace posatlas::ui
