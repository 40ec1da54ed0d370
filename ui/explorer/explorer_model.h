// SPDX-License-Identifier: GPL-3.0-or-later
// The state of the context-extension explorer: one model's base RoPE configuration, two to
// four scaling variants of it with their parameters, the target context and the "current sequence
// length" of the dynamic-NTK slider. Variants keep a colour slot for their lifetime, so removing one
// never recolours the others: every view draws variant `slot` in explorer_variant_color(slot).
#pragma once

#include "io/model_config.h"
#include "scenario/params.h"

#include <QColor>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace posatlas::ui {

// The scalings the explorer compares. All but YarnLlamaCpp are HF rope types; YarnLlamaCpp uses the
// same parameters as Yarn but llama.cpp's formulas (core compute_yarn_llamacpp).
enum class VariantKind { Unscaled, Linear, Ntk, Dynamic, Yarn, YarnLlamaCpp, Llama3, LongRope };
inline constexpr VariantKind kAllVariantKinds[] = {
    VariantKind::Unscaled, VariantKind::Linear,       VariantKind::Ntk,    VariantKind::Dynamic,
    VariantKind::Yarn,     VariantKind::YarnLlamaCpp, VariantKind::Llama3, VariantKind::LongRope};
QString variant_kind_name(VariantKind kind); // "PI (linear)", "YaRN (llama.cpp)", ...
RopeType variant_rope_type(VariantKind kind);
// Stable, untranslated ids for files (sessions, autosave): "unscaled", "linear", "ntk", "dynamic", "yarn",
// "yarn-llamacpp", "llama3", "longrope".
QString variant_kind_id(VariantKind kind);
std::optional<VariantKind> parse_variant_kind(const QString& id);

inline constexpr int kMinVariants = 2;
inline constexpr int kMaxVariants = 4;
// Fixed colour of variant slot 0 .. kMaxVariants - 1 (tab10 blue, orange, green, purple; red is kept
// for "never-seen rotations").
QColor explorer_variant_color(int slot, bool dark = false);

struct ExplorerVariant {
    VariantKind kind = VariantKind::Linear;
    int slot = 0;      // colour slot, stable while the variant exists
    QString label;     // legend text, e.g. "Llama 3 (model)"
    RopeParams params; // seq_len is left 0: the jobs set it (target length, or the slider's length)
};

// The variant of `kind` for `model` (its base configuration: head_dim, rope_theta, rotary fraction,
// pairing, trained length L = model.trained_length()) with scaling factor `factor` aiming at `target`.
// Parameters follow core standard_variants (rope_compare.h); when the model itself uses this rope type,
// the model's own configuration is taken instead (label "... (model)"). LongRope needs the model's
// factor lists: ParameterError otherwise.
ExplorerVariant make_variant(VariantKind kind, const RopeParams& model, double factor, std::int64_t target);
// True when make_variant(kind, model, ...) can succeed (LongRope only with both factor lists).
bool variant_available(VariantKind kind, const RopeParams& model);

class ExplorerModel : public QObject
{
    Q_OBJECT
public:
    explicit ExplorerModel(QObject* parent = nullptr);

    // Replaces the model and resets the variants to a default set for it: the model's own scaling (if
    // any) and the methods most often compared with it. `name` is shown in titles; `import` (may be
    // empty) lists the config keys read / ignored.
    void setModel(const RopeParams& model, const QString& name, const ConfigImport& import = {});
    const RopeParams& modelParams() const { return m_model; }
    const QString& modelName() const { return m_name; }
    const ConfigImport& configImport() const { return m_import; }
    std::int64_t trainedLength() const { return m_model.trained_length(); }
    // The factor new variants get: the model's own factor when it is scaled, else 4.
    double defaultFactor() const;

    const std::vector<ExplorerVariant>& variants() const { return m_variants; }
    int variantCount() const { return static_cast<int>(m_variants.size()); }
    bool canAdd() const { return variantCount() < kMaxVariants; }
    bool canRemove() const { return variantCount() > kMinVariants; }
    // Adds a variant of `kind` with the default factor and the current target; false when full or
    // the kind is unavailable for this model.
    bool addVariant(VariantKind kind);
    bool removeVariant(int index);
    // Replaces the parameters (and label) of variant `index`; slot and kind are kept.
    void setVariantParams(int index, const RopeParams& params);
    void setVariants(std::vector<ExplorerVariant> variants); // slots reassigned 0..n-1

    std::int64_t targetLength() const { return m_target; }
    void setTargetLength(std::int64_t target);
    // The dynamic-NTK slider's current sequence length.
    std::int64_t currentLength() const { return m_current; }
    void setCurrentLength(std::int64_t length);

signals:
    void modelChanged();      // model replaced (variants reset too)
    void variantsChanged();   // variants added / removed / reset (structure)
    void parametersChanged(); // a variant's numbers or the target changed (same structure)
    void currentLengthChanged();

private:
    int freeSlot() const;

    RopeParams m_model;
    QString m_name;
    ConfigImport m_import;
    std::vector<ExplorerVariant> m_variants;
    std::int64_t m_target = 0;
    std::int64_t m_current = 0;
};

} // namespace posatlas::ui
