// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameter_panel.h"

#include "log_slider.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace posatlas::ui {

namespace {

QString tooltipFor(const ParamSpec& spec)
{
    QString text = paramText(spec.tooltip);
    const QString unit = paramText(spec.unit);
    if (!unit.isEmpty() && unit != QStringLiteral("×"))
        text += QLatin1Char('\n') + QCoreApplication::translate("ParameterPanel", "Unit: %1").arg(unit);
    text += QLatin1Char('\n') +
            QCoreApplication::translate("ParameterPanel", "Key: %1").arg(QLatin1String(spec.key));
    return text;
}

QString labelFor(const ParamSpec& spec)
{
    const QString unit = paramText(spec.unit);
    if (unit.isEmpty() || spec.kind == ParamKind::Bool)
        return paramText(spec.label);
    return QCoreApplication::translate("ParameterPanel", "%1 (%2)").arg(paramText(spec.label), unit);
}

int methodIndex(Method m)
{
    for (int i = 0; i < 9; ++i)
        if (kAllMethods[i] == m)
            return i;
    return 0;
}

} // namespace

ParameterPanel::ParameterPanel(ScenarioModel* model, QWidget* parent) : QWidget(parent), m_model(model)
{
    build();
    syncFromModel();
    connect(m_model, &ScenarioModel::scenarioChanged, this, &ParameterPanel::syncFromModel);
}

LogSlider* ParameterPanel::slider(ParamId id) const
{
    return qobject_cast<LogSlider*>(editor(id));
}
QComboBox* ParameterPanel::methodCombo() const
{
    return qobject_cast<QComboBox*>(editor(ParamId::Method));
}

QWidget* ParameterPanel::makeEditor(const ParamSpec& spec)
{
    const QString tip = tooltipFor(spec);
    switch (spec.kind) {
    case ParamKind::Bool: {
        auto* box = new QCheckBox(paramText(spec.label));
        box->setToolTip(tip);
        connect(box, &QCheckBox::toggled, this, [this, id = spec.id](bool on) { edit(id, on ? 1.0 : 0.0); });
        return box;
    }
    case ParamKind::Choice: {
        auto* combo = new QComboBox;
        if (spec.id == ParamId::Method) {
            for (Method m : kAllMethods)
                combo->addItem(QString::fromUtf8(method_display_name(m).data(),
                                                 static_cast<qsizetype>(method_display_name(m).size())));
        } else {
            for (const char* const* c = spec.choices; c && *c; ++c)
                combo->addItem(paramText(*c));
        }
        combo->setToolTip(tip);
        connect(combo, &QComboBox::activated, this, [this, id = spec.id](int index) { edit(id, index); });
        return combo;
    }
    case ParamKind::Int:
    case ParamKind::Real: {
        LogSlider::Range r;
        r.min = spec.min;
        r.max = spec.max;
        r.log_scale = spec.log_scale;
        r.integer = spec.kind == ParamKind::Int;
        r.decimals = spec.decimals;
        r.step = spec.step;
        r.zero_means_unset = spec.zero_means_unset;
        auto* s = new LogSlider(r);
        s->setToolTips(tip);
        if (spec.zero_means_unset)
            s->setSpecialValueText(spec.id == ParamId::RopeOrigMaxPos ? tr("same as max")
                                   : spec.id == ParamId::RopeSeqLen   ? tr("none")
                                                                      : tr("unset"));
        if (QLatin1String(spec.unit) == QLatin1String("×"))
            s->spinBox()->setSuffix(QStringLiteral(" ×"));
        s->setAccessibleName(paramText(spec.label));
        connect(s, &LogSlider::valueEdited, this, [this, id = spec.id](double v) { edit(id, v); });
        connect(s, &LogSlider::valueClamped, this, [this, label = paramText(spec.label)](const QString& text) {
            emit message(tr("%1: %2").arg(label, text));
        });
        connect(s, &LogSlider::dragStarted, m_model, &ScenarioModel::beginInteractiveEdit);
        connect(s, &LogSlider::dragFinished, m_model, &ScenarioModel::endInteractiveEdit);
        return s;
    }
    }
    return nullptr;
}

void ParameterPanel::build()
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    scroll->setWidget(content);

    auto makeForm = [](QGroupBox* box) {
        auto* form = new QFormLayout(box);
        // Labels above their editors: long names with units never clip in a narrow dock.
        form->setRowWrapPolicy(QFormLayout::WrapAllRows);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        return form;
    };

    auto* common = new QGroupBox(tr("Scenario"), content);
    auto* commonForm = makeForm(common);
    column->addWidget(common);
    for (int i = 0; i < 9; ++i) {
        const Method m = kAllMethods[i];
        m_methodGroups[static_cast<std::size_t>(i)] =
            new QGroupBox(tr("%1 parameters")
                              .arg(QString::fromUtf8(method_display_name(m).data(),
                                                     static_cast<qsizetype>(method_display_name(m).size()))),
                          content);
        makeForm(m_methodGroups[static_cast<std::size_t>(i)]);
        column->addWidget(m_methodGroups[static_cast<std::size_t>(i)]);
    }
    column->addStretch(1);

    for (const ParamSpec& spec : all_param_specs()) {
        QWidget* editorWidget = makeEditor(spec);
        const auto idx = static_cast<std::size_t>(spec.id);
        m_editors[idx] = editorWidget;
        QFormLayout* form =
            spec.method ? static_cast<QFormLayout*>(
                              m_methodGroups[static_cast<std::size_t>(methodIndex(*spec.method))]->layout())
                        : commonForm;
        if (spec.kind == ParamKind::Bool) {
            form->addRow(editorWidget);
        } else {
            auto* label = new QLabel(labelFor(spec));
            label->setToolTip(tooltipFor(spec));
            label->setBuddy(editorWidget); // Alt+letter reaches the editor; screen readers name it
            m_labels[idx] = label;
            form->addRow(label, editorWidget);
        }
        if (spec.id == ParamId::RopeHighFreq) {
            // LongRoPE's per-pair factor lists come from a config or preset: shown, not edited.
            m_longRopeLabel = new QLabel;
            m_longRopeLabel->setWordWrap(true);
            m_longRopeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
            m_longRopeLabel->setToolTip(
                tr("rope_scaling.short_factor / long_factor: one factor per rotary pair, "
                   "read from a model's config.json (Phi-3). Load a preset or a config to set them."));
            form->addRow(m_longRopeLabel);
        }
    }
    setMinimumWidth(280);
}

void ParameterPanel::edit(ParamId id, double value)
{
    if (m_syncing)
        return;
    if (!m_model->setValue(id, value)) {
        // Rejected: show the model's (unchanged) value again.
        syncFromModel();
    }
}

void ParameterPanel::syncFromModel()
{
    m_syncing = true;
    const Scenario& s = m_model->scenario();
    for (const ParamSpec& spec : all_param_specs()) {
        QWidget* w = m_editors[static_cast<std::size_t>(spec.id)];
        const double v = param_value(s, spec.id);
        if (auto* box = qobject_cast<QCheckBox*>(w)) {
            const QSignalBlocker block(box);
            box->setChecked(v != 0.0);
        } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
            const QSignalBlocker block(combo);
            combo->setCurrentIndex(static_cast<int>(v));
        } else if (auto* slider = qobject_cast<LogSlider*>(w)) {
            if (slider->value() != v)
                slider->setValue(v);
        }
    }
    if (m_longRopeLabel) {
        auto summary = [](const std::vector<double>& f) {
            if (f.empty())
                return tr("none");
            QStringList parts;
            for (std::size_t i = 0; i < f.size() && i < 4; ++i)
                parts << QString::number(f[i], 'g', 4);
            return tr("%n values: %1%2", nullptr, static_cast<int>(f.size()))
                .arg(parts.join(QStringLiteral(", ")), f.size() > 4 ? QStringLiteral(", …") : QString());
        };
        m_longRopeLabel->setText(tr("short_factor: %1\nlong_factor: %2")
                                     .arg(summary(s.params<RopeParams>().short_factor), summary(s.params<RopeParams>().long_factor)));
    }
    updateVisibility();
    m_syncing = false;
}

bool ParameterPanel::isRowVisible(ParamId id) const
{
    const ParamSpec& spec = param_spec(id);
    const Scenario& s = m_model->scenario();
    if (spec.method && *spec.method != s.method)
        return false;
    if (spec.id == ParamId::Head && s.method != Method::T5 && s.method != Method::ALiBi)
        return false;
    if (spec.rope_types != 0 && !(spec.rope_types & (1u << static_cast<unsigned>(s.params<RopeParams>().rope_type))))
        return false;
    if (id == ParamId::ContentSeed && (s.content.kind == ContentKind::Ones || s.content.kind == ContentKind::Zero))
        return false;
    if ((id == ParamId::AlibiTrained || id == ParamId::AlibiTarget) && s.params<AlibiParams>().scaling == AlibiScaling::None)
        return false;
    return true;
}

void ParameterPanel::updateVisibility()
{
    const Scenario& s = m_model->scenario();
    for (int i = 0; i < 9; ++i)
        m_methodGroups[static_cast<std::size_t>(i)]->setVisible(kAllMethods[i] == s.method);
    for (const ParamSpec& spec : all_param_specs()) {
        const auto idx = static_cast<std::size_t>(spec.id);
        auto* form = qobject_cast<QFormLayout*>(m_editors[idx]->parentWidget()->layout());
        if (form)
            form->setRowVisible(m_editors[idx], isRowVisible(spec.id));
    }
    if (m_longRopeLabel) {
        auto* form = qobject_cast<QFormLayout*>(m_longRopeLabel->parentWidget()->layout());
        if (form)
            form->setRowVisible(m_longRopeLabel,
                                s.method == Method::RoPE && s.params<RopeParams>().rope_type == RopeType::LongRope);
    }
}

} // namespace posatlas::ui
