// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/undo_commands.h"

#include "model/scenario_model.h"

namespace posatlas::ui {

namespace {
// QUndoCommand::id() must be unique per command type; parameter ids are offset so that -1 (never
// merge) stays distinct.
constexpr int kIdBase = 0x5000;
} // namespace

SetScenarioCommand::SetScenarioCommand(ScenarioModel* model, Scenario before, Scenario after,
                                       const QString& text, int paramId, int dragSerial)
    : QUndoCommand(text), m_model(model), m_before(std::move(before)), m_after(std::move(after)),
      m_paramId(paramId), m_dragSerial(dragSerial)
{
    m_lastEdit.start();
}

void SetScenarioCommand::undo()
{
    m_model->applyFromUndo(m_before);
}
void SetScenarioCommand::redo()
{
    m_model->applyFromUndo(m_after);
}

int SetScenarioCommand::id() const
{
    return m_paramId < 0 ? -1 : kIdBase + m_paramId;
}

bool SetScenarioCommand::mergeWith(const QUndoCommand* other)
{
    if (other->id() != id() || id() < 0)
        return false;
    const auto* next = static_cast<const SetScenarioCommand*>(other);
    const bool sameDrag = m_dragSerial >= 0 && next->m_dragSerial == m_dragSerial;
    const bool quickRepeat =
        m_dragSerial < 0 && next->m_dragSerial < 0 && m_lastEdit.elapsed() < kMergeWindowMs;
    if (!sameDrag && !quickRepeat)
        return false;
    m_after = next->m_after;
    m_lastEdit.restart();
    // A drag that returns to where it started leaves nothing to undo.
    if (m_before == m_after)
        setObsolete(true);
    return true;
}

} // namespace posatlas::ui
