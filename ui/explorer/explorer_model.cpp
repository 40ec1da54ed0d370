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

QString tr_(const char* text)
{
    return QCoreApplication::translate("posatlas::ui::ExplorerModel", text);
}

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
    case VariantKind::Unscaled: return tr_("Unscaled");
    case VariantKind::Linear: return tr_("PI (linear)");
    case VariantKind::Ntk: return tr_("NTK-aware");
    case VariantKind::Dynamic: return tr_("Dynamic NTK");
    case VariantKind::Yarn: return tr_("YaRN");
    case VariantKind::YarnLlamaCpp: return tr_("YaRN (llama.cpp)");
    case VariantKind::Llama3: return tr_("Llama 3");
    case VariantKind::LongRope: return tr_("LongRoPE");
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

ExplorerVariant make_variant(VariantKind kind, const RopeParams& model, double factor, std::int64_t target)
{
    ExplorerVariant v;
    v.kind = kind;
    const RopeType type = variant_rope_type(kind);
    if (kind == VariantKind::LongRope && !has_factor_lists(model))
        throw ParameterError("long_factor", "short_factor and long_factor lists in the model's config",
                             "none");
    if (type == model.rope_type && type != RopeType::Default) {
        // The model's own configuration, exactly as imported.
        v.params = model;
        v.params.seq_len = 0;
        // llama.cpp reads the same config; "(model)" marks only the model's own (HF) scaling.
        v.label = kind == VariantKind::YarnLlamaCpp ? variant_kind_name(kind)
                                                    : tr_("%1 (model)").arg(variant_kind_name(kind));
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

ExplorerModel::ExplorerModel(QObject* parent) : QObject(parent) {}

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
    m_model = model;
    m_name = name;
    m_import = import;
    const double factor = defaultFactor();
    // Core's target: the views' (rope_default_target_length) for a scaled model, L * factor for an
    // unscaled one (the extension explored).
    m_target = rope_extension_target_length(model, factor);
    m_current = m_target;
    m_variants.clear();
    for (VariantKind k : default_kinds(model)) {
        if (!variant_available(k, model))
            continue;
        try {
            ExplorerVariant v = make_variant(k, model, factor, m_target);
            v.slot = freeSlot();
            m_variants.push_back(std::move(v));
        } catch (const ParameterError&) {
            // e.g. NTK with rotary_dim 2: leave that method out of the default set.
        }
        if (variantCount() == kMaxVariants)
            break;
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
        v = make_variant(kind, m_model, defaultFactor(), m_target);
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
    m_variants[static_cast<std::size_t>(index)].params = params;
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
    m_target = target;
    emit parametersChanged();
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
