// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_model.h"

#include "analysis/rope_compare.h"
#include "scenario/types.h"
#include "scenario/validation.h"
#include "views/figure_style.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

bool has_factor_lists(const RopeParams& p)
{
    return p.rope_type == RopeType::LongRope && !p.short_factor.empty() && !p.long_factor.empty();
}

// The default comparison for a model: its own scaling first, then the methods usually weighed against
// it. At most kMaxVariants, at least kMinVariants.
std::vector<VariantKind> default_kinds(const RopeParams& model)
{
    switch (model.rope_type) {
    case RopeType::Llama3:
        return {VariantKind::Llama3, VariantKind::Linear, VariantKind::Yarn, VariantKind::Dynamic};
    case RopeType::Yarn:
        return {VariantKind::Yarn, VariantKind::YarnLlamaCpp, VariantKind::Linear, VariantKind::Ntk};
    case RopeType::LongRope:
        if (has_factor_lists(model))
            return {VariantKind::LongRope, VariantKind::Linear, VariantKind::Yarn, VariantKind::Llama3};
        break;
    case RopeType::Linear:
        return {VariantKind::Linear, VariantKind::Ntk, VariantKind::Yarn, VariantKind::Llama3};
    case RopeType::Dynamic:
        return {VariantKind::Dynamic, VariantKind::Linear, VariantKind::Yarn, VariantKind::Llama3};
    default: break;
    }
    return {VariantKind::Linear, VariantKind::Ntk, VariantKind::Yarn, VariantKind::Llama3};
}

} // namespace

QString variant_kind_id(VariantKind kind)
{
    switch (kind) {
    case VariantKind::Unscaled: return QStringLiteral("unscaled");
    case VariantKind::Linear: return QStringLiteral("linear");
    case VariantKind::Ntk: return QStringLiteral("ntk");
    case VariantKind::Dynamic: return QStringLiteral("dynamic");
    case VariantKind::Yarn: return QStringLiteral("yarn");
    case VariantKind::YarnLlamaCpp: return QStringLiteral("yarn-llamacpp");
    case VariantKind::Llama3: return QStringLiteral("llama3");
    case VariantKind::LongRope: return QStringLiteral("longrope");
    }
    return QStringLiteral("linear");
}

std::optional<VariantKind> parse_variant_kind(const QString& id)
{
    for (VariantKind k : kAllVariantKinds)
        if (variant_kind_id(k) == id)
            return k;
    return std::nullopt;
}

QString variant_kind_name(VariantKind kind)
{
    switch (kind) {
    case VariantKind::Unscaled: return ExplorerModel::tr("Unscaled");
    case VariantKind::Linear: return ExplorerModel::tr("PI (linear)");
    case VariantKind::Ntk: return ExplorerModel::tr("NTK-aware");
    case VariantKind::Dynamic: return ExplorerModel::tr("Dynamic NTK");
    case VariantKind::Yarn: return ExplorerModel::tr("YaRN");
    case VariantKind::YarnLlamaCpp: return ExplorerModel::tr("YaRN (llama.cpp)");
    case VariantKind::Llama3: return ExplorerModel::tr("Llama 3");
    case VariantKind::LongRope: return ExplorerModel::tr("LongRoPE");
    }
    return {};
}

RopeType variant_rope_type(VariantKind kind)
{
    switch (kind) {
    case VariantKind::Unscaled: return RopeType::Default;
    case VariantKind::Linear: return RopeType::Linear;
    case VariantKind::Ntk: return RopeType::Ntk;
    case VariantKind::Dynamic: return RopeType::Dynamic;
    case VariantKind::Yarn:
    case VariantKind::YarnLlamaCpp: return RopeType::Yarn;
    case VariantKind::Llama3: return RopeType::Llama3;
    case VariantKind::LongRope: return RopeType::LongRope;
    }
    return RopeType::Default;
}

QColor explorer_variant_color(int slot, bool dark)
{
    // tab10 blue, orange, green, purple: red is reserved for the "never-seen rotation" marks.
    static const int tab10_index[kMaxVariants] = {0, 1, 2, 4};
    return series_color(tab10_index[std::clamp(slot, 0, kMaxVariants - 1)], dark);
}

bool variant_available(VariantKind kind, const RopeParams& model)
{
    return kind != VariantKind::LongRope || has_factor_lists(model);
}

bool variant_has_factor(VariantKind kind)
{
    return kind != VariantKind::Unscaled && kind != VariantKind::LongRope;
}

bool variant_is_models_own(VariantKind kind, const RopeParams& model)
{
    const RopeType type = variant_rope_type(kind);
    return type == model.rope_type && type != RopeType::Default;
}

ExplorerVariant make_variant(VariantKind kind, const RopeParams& model, double factor, std::int64_t target)
{
    ExplorerVariant v;
    v.kind = kind;
    const RopeType type = variant_rope_type(kind);
    if (kind == VariantKind::LongRope && !has_factor_lists(model))
        throw ParameterError("long_factor", "short_factor and long_factor lists in the model's config",
                             "none");
    if (variant_is_models_own(kind, model)) {
        // The model's own configuration, exactly as imported; its factor is the model's.
        v.params = model;
        v.params.seq_len = 0;
        v.factor_pinned = variant_has_factor(kind);
        // llama.cpp reads the same config; "(model)" marks only the model's own (HF) scaling.
        v.label = kind == VariantKind::YarnLlamaCpp
                      ? variant_kind_name(kind)
                      : ExplorerModel::tr("%1 (model)").arg(variant_kind_name(kind));
        return v;
    }
    const std::vector<ScalingVariant> standard = standard_variants(model, std::max(1.0, factor), target);
    for (const ScalingVariant& s : standard) {
        if (s.params.rope_type == type) {
            v.params = s.params;
            v.params.seq_len = 0;
            v.label = variant_kind_name(kind);
            return v;
        }
    }
    throw ParameterError("rope_type", "a scaling this model supports", std::string(rope_type_id(type)));
}

ExplorerVariant carry_variant(const ExplorerVariant& v, const RopeParams& from, const RopeParams& to,
                              std::int64_t target)
{
    ExplorerVariant out = make_variant(v.kind, to, extension_factor(to.trained_length(), target), target);
    out.slot = v.slot;
    if (variant_is_models_own(v.kind, to) || !variant_has_factor(v.kind))
        return out;
    // What the user set by hand: the values that differ from the kind's standard for the old model.
    RopeParams standard = v.params;
    try {
        standard = make_variant(v.kind, from, std::max(1.0, v.params.factor), target).params;
    } catch (const ParameterError&) {
        // The old model no longer validates alone: nothing is known to be set by hand.
    }
    const bool hand_factor =
        v.factor_pinned && !(variant_is_models_own(v.kind, from) && v.params.factor == standard.factor);
    RopeParams carried = out.params;
    auto carry = [&](auto member) {
        if (v.params.*member != standard.*member)
            carried.*member = v.params.*member;
    };
    carry(&RopeParams::beta_fast);
    carry(&RopeParams::beta_slow);
    carry(&RopeParams::mscale);
    carry(&RopeParams::mscale_all_dim);
    carry(&RopeParams::low_freq_factor);
    carry(&RopeParams::high_freq_factor);
    RopeParams factor_only = out.params;
    if (hand_factor)
        carried.factor = factor_only.factor = v.params.factor;
    for (const RopeParams& p : {carried, factor_only}) {
        try {
            validate(p);
            out.params = p;
            out.factor_pinned = hand_factor;
            return out;
        } catch (const ParameterError&) {
            // e.g. low_freq_factor above the new high_freq_factor: try with less of the old values
        }
    }
    return out;
}

ExplorerModel::ExplorerModel(QObject* parent) : QObject(parent) {}

double ExplorerModel::targetFactor() const
{
    return extension_factor(std::clamp<std::int64_t>(trainedLength(), 1, kMaxSeqLen), m_target);
}

void ExplorerModel::followTarget(ExplorerVariant& v) const
{
    if (v.factor_pinned || !variant_has_factor(v.kind))
        return;
    v.params.factor = targetFactor();
    // The standard variants aim at the target (standard_variants); dynamic NTK scales from the model's
    // max_position_embeddings, and the model's own configuration keeps its lengths.
    if (v.kind != VariantKind::Dynamic && !variant_is_models_own(v.kind, m_model))
        v.params.max_position_embeddings = m_target;
}

double ExplorerModel::defaultFactor() const
{
    if (m_model.rope_type == RopeType::Default)
        return 4.0;
    const TemperatureInfo t = attention_temperature(m_model); // the factor the model's rule uses
    return std::max(1.0, t.factor);
}

void ExplorerModel::setModel(const RopeParams& model, const QString& name, const ConfigImport& import)
{
    validate(model);
    const RopeParams from = m_model;
    std::vector<ExplorerVariant> previous = std::move(m_variants);
    m_variants.clear();
    m_model = model;
    m_name = name;
    m_import = import;
    // Core's target: the views' (rope_default_target_length) for a scaled model, L * factor for an
    // unscaled one (the extension explored).
    m_target = rope_extension_target_length(model, defaultFactor());
    m_current = m_target;
    // The methods compared so far stay (those the new model can have), re-derived for it.
    for (const ExplorerVariant& v : previous) {
        try {
            m_variants.push_back(carry_variant(v, from, model, m_target));
        } catch (const ParameterError&) {
            // e.g. LongRoPE without the new model's factor lists, NTK with rotary_dim 2
        }
    }
    const int wanted = previous.empty() ? kMaxVariants : kMinVariants;
    for (VariantKind k : default_kinds(model)) {
        if (variantCount() >= wanted)
            break;
        if (!variant_available(k, model) ||
            std::any_of(m_variants.begin(), m_variants.end(), [k](const auto& v) { return v.kind == k; }))
            continue;
        try {
            ExplorerVariant v = make_variant(k, model, targetFactor(), m_target);
            v.slot = freeSlot();
            m_variants.push_back(std::move(v));
        } catch (const ParameterError&) {
            // e.g. NTK with rotary_dim 2: leave that method out of the default set.
        }
    }
    emit modelChanged();
    emit variantsChanged();
}

int ExplorerModel::freeSlot() const
{
    for (int s = 0; s < kMaxVariants; ++s)
        if (std::none_of(m_variants.begin(), m_variants.end(), [s](const auto& v) { return v.slot == s; }))
            return s;
    return 0;
}

bool ExplorerModel::addVariant(VariantKind kind)
{
    if (!canAdd() || !variant_available(kind, m_model))
        return false;
    ExplorerVariant v;
    try {
        v = make_variant(kind, m_model, targetFactor(), m_target);
    } catch (const ParameterError&) {
        return false;
    }
    v.slot = freeSlot();
    m_variants.push_back(std::move(v));
    emit variantsChanged();
    return true;
}

bool ExplorerModel::removeVariant(int index)
{
    if (!canRemove() || index < 0 || index >= variantCount())
        return false;
    m_variants.erase(m_variants.begin() + index);
    emit variantsChanged();
    return true;
}

void ExplorerModel::setVariantParams(int index, const RopeParams& params)
{
    if (index < 0 || index >= variantCount())
        return;
    ExplorerVariant& v = m_variants[static_cast<std::size_t>(index)];
    if (variant_has_factor(v.kind) && params.factor != v.params.factor)
        v.factor_pinned = true; // set by hand
    v.params = params;
    emit parametersChanged();
}

void ExplorerModel::setFactorPinned(int index, bool pinned)
{
    if (index < 0 || index >= variantCount())
        return;
    ExplorerVariant& v = m_variants[static_cast<std::size_t>(index)];
    v.factor_pinned = pinned && variant_has_factor(v.kind);
    followTarget(v);
    emit parametersChanged();
}

void ExplorerModel::setVariants(std::vector<ExplorerVariant> variants)
{
    m_variants = std::move(variants);
    if (variantCount() > kMaxVariants)
        m_variants.resize(kMaxVariants);
    for (int i = 0; i < variantCount(); ++i)
        m_variants[static_cast<std::size_t>(i)].slot = i;
    emit variantsChanged();
}

void ExplorerModel::setTargetLength(std::int64_t target)
{
    target = std::clamp<std::int64_t>(target, 1, kMaxSeqLen);
    if (target == m_target)
        return;
    // The dynamic-NTK length stays where the user put it, else it follows the target.
    const bool current_follows = m_current == m_target;
    m_target = target;
    if (current_follows)
        m_current = target;
    for (ExplorerVariant& v : m_variants)
        followTarget(v);
    emit parametersChanged();
    if (current_follows)
        emit currentLengthChanged();
}

void ExplorerModel::setCurrentLength(std::int64_t length)
{
    length = std::clamp<std::int64_t>(length, 1, kMaxSeqLen);
    if (length == m_current)
        return;
    m_current = length;
    emit currentLengthChanged();
}

} // namespace posatlas::ui
