// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's single source of truth: a QObject around core's plain Scenario value. Every edit goes
// through a setter that validates a copy with core's validate() (no state change on ParameterError),
// returns early when nothing changes, and pushes one QUndoCommand; a slider drag merges into one undo
// entry, a preset or a config import is one entry. One scenarioChanged() per change.
//
// Parameters are addressed by ParamId so that the parameter panel, the undo stack and the settings
// file share one table (name, Hugging Face key, range, scale, tooltip) instead of three lists.
#pragma once

#include "params.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <span>

class QUndoStack;

namespace posatlas::ui {

enum class ParamId {
    // common to every method
    Method,
    SeqLen,
    Head,
    ContentKind,
    ContentSeed,
    // sinusoidal
    SinDim,
    SinBase,
    SinLayout,
    // learned
    LearnedDim,
    LearnedTrained,
    LearnedSeed,
    LearnedStddev,
    // Shaw
    ShawHeadDim,
    ShawMaxRel,
    ShawSeed,
    // Transformer-XL
    TxlHeadDim,
    TxlBase,
    TxlSeed,
    TxlTermA,
    TxlTermB,
    TxlTermC,
    TxlTermD,
    // T5
    T5Buckets,
    T5MaxDistance,
    T5Bidirectional,
    T5Heads,
    T5Seed,
    // DeBERTa
    DebHeadDim,
    DebBuckets,
    DebMaxRel,
    DebC2p,
    DebP2c,
    DebSeed,
    // RoPE
    RopeHeadDim,
    RopeTheta,
    RopePartial,
    RopePairing,
    RopeType,
    RopeFactor,
    RopeMaxPos,
    RopeOrigMaxPos,
    RopeSeqLen,
    RopeBetaFast,
    RopeBetaSlow,
    RopeMscale,
    RopeMscaleAllDim,
    RopeAttentionFactor,
    RopeTruncate,
    RopeLowFreq,
    RopeHighFreq,
    // ALiBi
    AlibiHeads,
    AlibiSlopeScale,
    AlibiBias,
    AlibiScaling,
    AlibiTrained,
    AlibiTarget,
    // CoPE
    CopeHeadDim,
    CopeNpos,
    CopeGate,
    CopeSeed,
    Count_
};
inline constexpr int kParamCount = static_cast<int>(ParamId::Count_);

enum class ParamKind { Int, Real, Bool, Choice };

// One row of the parameter table. Strings are untranslated source texts (QT_TRANSLATE_NOOP in the
// .cpp); translate them with paramText().
struct ParamSpec {
    ParamId id;
    ParamKind kind;
    std::optional<Method> method; // nullopt: shown for every method
    const char* key;              // Hugging Face config key / settings key, e.g. "rope_theta"
    const char* label;            // "Base θ"
    const char* unit;             // "positions", "" when dimensionless
    const char* tooltip;          // what the parameter does
    double min = 0.0, max = 1.0;
    bool log_scale = false;               // slider maps log10(value): ranges that span decades
    int decimals = 0;                     // Real: spin box decimals
    double step = 1.0;                    // spin box single step
    const char* const* choices = nullptr; // Choice: null-terminated list of labels (source texts)
    unsigned rope_types = 0;       // RoPE scaling params: bit (1 << int(RopeType)) per type shown; 0 = always
    bool zero_means_unset = false; // Real: 0 shows as "unset" (optional HF keys)
};

// The table, indexed by ParamId.
const ParamSpec& param_spec(ParamId id);
std::span<const ParamSpec> all_param_specs();
QString paramText(const char* source); // translated label / unit / tooltip / choice

// Reads and writes a parameter of a Scenario as a double (ints, bools, enum indices included).
double param_value(const Scenario& s, ParamId id);
void set_param_value(Scenario& s, ParamId id, double value);
// Throws ParameterError when the scenario (its current method and the struct that `id` belongs to)
// is invalid.
void validate_for(const Scenario& s, std::optional<ParamId> changed = std::nullopt);
// True when every field of a and b is equal (Scenario has no operator==; RoPE factor lists included).
bool scenarios_equal(const Scenario& a, const Scenario& b);

// The factor a RoPE scaling type gets when it is chosen while the factor is still 1 (4x: Code Llama's
// and the PI paper's typical extension).
inline constexpr double kDefaultScalingFactor = 4.0;

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
    bool setMethod(Method m) { return setValue(ParamId::Method, static_cast<int>(m)); }
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
    void assign(const Scenario& s);

    Scenario m_scenario;
    QUndoStack* m_undo;
    bool m_interactive = false;
    int m_interactiveSerial = 0;
};

} // namespace posatlas::ui
