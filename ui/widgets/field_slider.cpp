// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/field_slider.h"

#include "model/scenario_model.h"
#include "widgets/log_slider.h"

#include <QCoreApplication>
#include <QDoubleSpinBox>

namespace posatlas::ui {

QString field_tooltip(const Field& spec)
{
    QString text = paramText(spec.tooltip);
    const QString unit = paramText(spec.unit);
    if (!unit.isEmpty() && unit != QStringLiteral("×"))
        text += QLatin1Char('\n') + QCoreApplication::translate("ParameterPanel", "Unit: %1").arg(unit);
    text += QLatin1Char('\n') +
            QCoreApplication::translate("ParameterPanel", "Key: %1").arg(QString::fromStdString(spec.key));
    return text;
}

QString field_label(const Field& spec)
{
    const QString unit = paramText(spec.unit);
    if (unit.isEmpty() || spec.type == FieldType::Bool)
        return paramText(spec.label);
    return QCoreApplication::translate("ParameterPanel", "%1 (%2)").arg(paramText(spec.label), unit);
}

LogSlider* make_field_slider(const Field& spec, QWidget* parent)
{
    LogSlider::Range r;
    r.min = spec.lo;
    r.max = spec.hi;
    r.log_scale = spec.log_scale;
    r.integer = spec.type == FieldType::Int || spec.type == FieldType::Seed;
    r.decimals = spec.decimals;
    r.step = spec.step;
    r.zero_means_unset = spec.unset_label != nullptr;
    auto* s = new LogSlider(r, parent);
    s->setToolTips(field_tooltip(spec));
    if (spec.unset_label)
        s->setSpecialValueText(paramText(spec.unset_label));
    if (QLatin1String(spec.unit) == QLatin1String("×"))
        s->spinBox()->setSuffix(QStringLiteral(" ×"));
    s->setAccessibleName(paramText(spec.label));
    return s;
}

QString field_clamp_message(const Field& spec, const QString& note)
{
    return QCoreApplication::translate("ParameterPanel", "%1: %2").arg(paramText(spec.label), note);
}

} // namespace posatlas::ui
