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
    // The factor stays as it is when the target changes: set by hand, or the model's own configuration.
    // Otherwise (and for kinds without a factor, variant_has_factor) it follows the target: T / L.
    bool factor_pinned = false;
};

// True for the kinds whose factor the user sets (all but Unscaled and LongRope, whose factor comes
// from the model's lists).
bool variant_has_factor(VariantKind kind);
// True when make_variant(kind, model, ...) is the model's own configuration (its rope type, as imported).
bool variant_is_models_own(VariantKind kind, const RopeParams& model);

// The variant of `kind` for `model` (its base configuration: head_dim, rope_theta, rotary fraction,
// pairing, trained length L = model.trained_length()) with scaling factor `factor` aiming at `target`.
// Parameters follow core standard_variants (rope_compare.h); when the model itself uses this rope type,
// the model's own configuration is taken instead (label "... (model)"). LongRope needs the model's
// factor lists: ParameterError otherwise. The model's own configuration comes with its factor pinned.
ExplorerVariant make_variant(VariantKind kind, const RopeParams& model, double factor, std::int64_t target);
// Variant `v` of model `from` carried over to model `to` aiming at `target`: make_variant of its kind for
// `to` with the factor extension_factor(L of `to`, target), then what the user set by hand on `v`: a
// pinned factor and the kind's own parameters (beta_fast, beta_slow, mscale, mscale_all_dim,
// low_freq_factor, high_freq_factor) that differ from make_variant's for `from`, as far as the result
// still validates. Lengths are always `to`'s. When the kind is `to`'s own scaling, `to`'s configuration as
// imported. The slot is kept. ParameterError when the kind is unavailable for `to`.
ExplorerVariant carry_variant(const ExplorerVariant& v, const RopeParams& from, const RopeParams& to,
                              std::int64_t target);
// True when make_variant(kind, model, ...) can succeed (LongRope only with both factor lists).
bool variant_available(VariantKind kind, const RopeParams& model);

class ExplorerModel : public QObject
{
    Q_OBJECT
public:
    explicit ExplorerModel(QObject* parent = nullptr);

    // Replaces the model. The first time (no variants yet) the variants become a default set for it: the
    // model's own scaling (if any) and the methods most often compared with it. Later the compared kinds
    // are kept (carry_variant; a kind the new model cannot have is dropped and the set topped up to
    // kMinVariants from the default one). The target becomes the new model's default. `name` is shown in
    // titles; `import` (may be empty) lists the config keys read / ignored.
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
    // Replaces the parameters of variant `index`; slot, kind and label are kept. A factor other than the
    // variant's current one is set by hand: it is pinned (no longer follows the target).
    void setVariantParams(int index, const RopeParams& params);
    // Pins the factor of variant `index` as it is, or makes it follow the target again (factor T / L).
    void setFactorPinned(int index, bool pinned);
    void setVariants(std::vector<ExplorerVariant> variants); // slots reassigned 0..n-1

    std::int64_t targetLength() const { return m_target; }
    // Sets the target T; the factor of every variant that follows it becomes T / L (extension_factor),
    // and the current length follows when it was at the old target.
    void setTargetLength(std::int64_t target);
    // The factor of the variants that follow the target: extension_factor(L, T).
    double targetFactor() const;
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
    void followTarget(ExplorerVariant& v) const; // factor T / L unless pinned

    RopeParams m_model;
    QString m_name;
    ConfigImport m_import;
    std::vector<ExplorerVariant> m_variants;
    std::int64_t m_target = 0;
    std::int64_t m_current = 0;
};

} // namespace posatlas::ui
