// SPDX-License-Identifier: GPL-3.0-or-later
// Undo commands of the scenario model. Every edit stores the whole Scenario before and after (a few
// hundred bytes; LongRoPE lists at most a few KB), which makes one command type serve single
// parameters, method switches, presets and config imports alike.
#pragma once

#include "scenario/params.h"

#include <QElapsedTimer>
#include <QUndoCommand>

namespace posatlas::ui {

class ScenarioModel;

class SetScenarioCommand : public QUndoCommand
{
public:
    // paramId: the ParamId edited (merging key), -1 for whole-scenario changes (never merged).
    // dragSerial: >= 0 while a slider drag is in progress; commands of the same drag merge.
    SetScenarioCommand(ScenarioModel* model, Scenario before, Scenario after, const QString& text,
                       int paramId, int dragSerial);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    // Outside a drag, repeated edits of the same parameter this close together (keyboard auto-repeat,
    // spin-box arrows held down) still merge into one entry.
    static constexpr qint64 kMergeWindowMs = 400;

private:
    ScenarioModel* m_model;
    Scenario m_before;
    Scenario m_after;
    int m_paramId;
    int m_dragSerial;
    QElapsedTimer m_lastEdit;
};

} // namespace posatlas::ui
