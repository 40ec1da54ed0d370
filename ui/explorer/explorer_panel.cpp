// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_panel.h"

#include "analysis/rope_compare.h"
#include "io/presets.h"
#include "jobs/view_jobs.h"
#include "methods/registry.h"
#include "model/scenario_model.h"
#include "scenario/validation.h"
#include "views/figure_style.h"
#include "widgets/field_slider.h"
#include "widgets/log_slider.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSlider>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>

namespace posatlas::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

// ----------------------------------------------------------------- VariantEditor

VariantEditor::VariantEditor(const ExplorerVariant& variant, bool removable, QWidget* parent)
    : QWidget(parent), m_variant(variant)
{
    auto* frame = new QFrame(this);
    frame->setFrameShape(QFrame::StyledPanel);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(frame);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(2);

    auto* head = new QHBoxLayout;
    auto* swatch = new QLabel(frame);
    swatch->setFixedSize(14, 14);
    swatch->setStyleSheet(QStringLiteral("background: %1; border-radius: 3px;")
                              .arg(explorer_variant_color(variant.slot).name()));
    auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(variant.label.toHtmlEscaped()), frame);
    m_remove = new QPushButton(tr("Remove"), frame);
    m_remove->setEnabled(removable);
    m_remove->setToolTip(tr("Remove this method (two to four methods are compared)"));
    head->addWidget(swatch);
    head->addWidget(title, 1);
    head->addWidget(m_remove);
    layout->addLayout(head);
    connect(m_remove, &QPushButton::clicked, this, &VariantEditor::removeRequested);

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(2);
    layout->addLayout(form);
    const RopeParams& p = variant.params;
    const VariantKind k = variant.kind;
    if (k == VariantKind::Unscaled) {
        form->addRow(new QLabel(tr("The trained frequencies, for reference."), frame));
        return;
    }
    if (k == VariantKind::LongRope) {
        form->addRow(new QLabel(tr("The model's own short/long factor lists; s = %1 / %2.")
                                    .arg(p.max_position_embeddings)
                                    .arg(p.original_max_position_embeddings),
                                frame));
        return;
    }
    // One editor per parameter the kind reads, each built from its registry field (range, scale,
    // decimals, label, tooltip: field_slider.h) as in the parameter panel. The factor first, and under
    // it its state: it follows the target T unless it was set by hand (or is the model's own). A row of
    // its own keeps the panel narrow.
    m_factor = addField(form, "factor");
    m_factorState = new QLabel(frame);
    m_follow = new QPushButton(tr("Follow T"), frame);
    m_follow->setToolTip(tr("Let the factor follow the target context again: s = T / L"));
    connect(m_follow, &QPushButton::clicked, this, &VariantEditor::followTargetRequested);
    auto* stateRow = new QHBoxLayout;
    stateRow->setContentsMargins(0, 0, 0, 0);
    stateRow->addWidget(m_factorState);
    stateRow->addWidget(m_follow);
    stateRow->addStretch(1);
    form->addRow(QString(), stateRow);
    // HF's dynamic NTK scales from max_position_embeddings (not the original length).
    m_original = addField(form, k == VariantKind::Dynamic ? "max_position_embeddings"
                                                          : "original_max_position_embeddings");
    if (variant_rope_type(k) == RopeType::Yarn) {
        m_betaFast = addField(form, "beta_fast");
        m_betaSlow = addField(form, "beta_slow");
        m_mscale = addField(form, "mscale");
        m_mscaleAll = addField(form, "mscale_all_dim");
    }
    if (k == VariantKind::Llama3) {
        m_lowFreq = addField(form, "low_freq_factor");
        m_highFreq = addField(form, "high_freq_factor");
    }
    showVariant(variant);
}

LogSlider* VariantEditor::addField(QFormLayout* form, const char* key)
{
    const Field& field = *descriptor(RopeParams::kMethod).field(key);
    auto* slider = make_field_slider(field, this);
    // The spin box only, and the label without its unit (the tooltip names it): the editors share a
    // narrow panel, four of them under the model.
    slider->slider()->hide();
    auto* label = new QLabel(paramText(field.label), this);
    label->setToolTip(field_tooltip(field));
    label->setBuddy(slider->spinBox());
    form->addRow(label, slider);
    m_sliders.emplace_back(key, slider);
    connect(slider, &LogSlider::valueEdited, this, &VariantEditor::emitParams);
    connect(slider, &LogSlider::valueClamped, this,
            [this, &field](const QString& note) { emit message(field_clamp_message(field, note)); });
    return slider;
}

LogSlider* VariantEditor::fieldSlider(std::string_view key) const
{
    for (const auto& [k, slider] : m_sliders)
        if (k == key)
            return slider;
    return nullptr;
}

QDoubleSpinBox* VariantEditor::factorBox() const
{
    return m_factor ? m_factor->spinBox() : nullptr;
}

void VariantEditor::showFactorState()
{
    if (!m_factorState)
        return;
    const bool pinned = m_variant.factor_pinned;
    m_factorState->setText(pinned ? tr("pinned") : tr("follows T: s = T / L"));
    m_factorState->setToolTip(
        pinned ? tr("The factor stays as set (by hand, or the model's own) when the target context T changes")
               : tr("s = T / L: the factor that stretches the trained length L to the target context T. "
                    "Setting it by hand pins it."));
    m_follow->setVisible(pinned);
}

void VariantEditor::showVariant(const ExplorerVariant& variant)
{
    m_variant.params = variant.params;
    m_variant.factor_pinned = variant.factor_pinned;
    const RopeParams& p = variant.params;
    auto show = [](LogSlider* slider, double value) {
        if (slider && slider->value() != value)
            slider->setValue(value); // no valueEdited: the model -> widget direction
    };
    show(m_factor, p.factor);
    show(m_original,
         static_cast<double>(m_variant.kind == VariantKind::Dynamic ? p.max_position_embeddings
                                                                    : p.original_max_position_embeddings));
    show(m_betaFast, p.beta_fast);
    show(m_betaSlow, p.beta_slow);
    show(m_mscale, p.mscale.value_or(0.0));
    show(m_mscaleAll, p.mscale_all_dim.value_or(0.0));
    show(m_lowFreq, p.low_freq_factor);
    show(m_highFreq, p.high_freq_factor);
    showFactorState();
}

void VariantEditor::emitParams()
{
    // Only the edited parameter: the factor box shows 2 decimals of T / L (100000 / 8192 = 12.20703125),
    // and editing beta_fast must neither round the factor nor pin it (nor round an imported value).
    const auto* from = qobject_cast<const LogSlider*>(sender());
    if (!from)
        return;
    RopeParams p = m_variant.params;
    const double v = from->value();
    const auto optional = [](double x) { return x > 0.0 ? std::optional<double>(x) : std::nullopt; };
    if (from == m_factor)
        p.factor = v;
    else if (from == m_original && m_variant.kind == VariantKind::Dynamic)
        p.max_position_embeddings = static_cast<std::int64_t>(v);
    else if (from == m_original)
        p.original_max_position_embeddings = static_cast<std::int64_t>(v);
    else if (from == m_betaFast)
        p.beta_fast = v;
    else if (from == m_betaSlow)
        p.beta_slow = v;
    else if (from == m_mscale)
        p.mscale = optional(v);
    else if (from == m_mscaleAll)
        p.mscale_all_dim = optional(v);
    else if (from == m_lowFreq)
        p.low_freq_factor = v;
    else if (from == m_highFreq)
        p.high_freq_factor = v;
    m_variant.params = p;
    emit paramsEdited(p);
}

// ----------------------------------------------------------------- ExplorerPanel

ExplorerPanel::ExplorerPanel(ExplorerModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_presets(new QComboBox(this)), m_modelLabel(new QLabel(this)),
      m_report(new QTextBrowser(this)), m_targetBox(new QVBoxLayout), m_editorBox(new QVBoxLayout),
      m_add(new QToolButton(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    // ---- model
    auto* modelBox = new QGroupBox(tr("Model"), this);
    auto* ml = new QVBoxLayout(modelBox);
    auto* items = new QStandardItemModel(m_presets);
    auto* none = new QStandardItem(tr("Preset…"));
    items->appendRow(none);
    std::map<QString, std::vector<PresetInfo>> families;
    for (const PresetInfo& p : list_presets())
        if (is_rotary(p.method))
            families[qs(p.family)].push_back(p);
    for (const auto& [family, list] : families) {
        auto* header = new QStandardItem(family);
        header->setFlags(Qt::NoItemFlags); // a family heading, not selectable
        QFont f = header->font();
        f.setBold(true);
        header->setFont(f);
        items->appendRow(header);
        for (const PresetInfo& p : list) {
            auto* item = new QStandardItem(QStringLiteral("   ") + qs(p.name));
            item->setData(qs(p.id), Qt::UserRole);
            item->setToolTip(qs(p.description));
            items->appendRow(item);
        }
    }
    m_presets->setModel(items);
    m_presets->setToolTip(tr("RoPE models, grouped by family"));
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        const QString id = m_presets->itemData(index, Qt::UserRole).toString();
        if (!id.isEmpty())
            loadPreset(id);
    });
    auto* open = new QPushButton(tr("Open config.json…"), modelBox);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open config.json"), {},
                                                          tr("Model config (*.json *.gguf);;All files (*)"));
        if (!path.isEmpty())
            openConfig(path);
    });
    auto* row = new QHBoxLayout;
    row->addWidget(m_presets, 1);
    row->addWidget(open);
    ml->addLayout(row);
    m_modelLabel->setWordWrap(true);
    ml->addWidget(m_modelLabel);
    m_report->setMaximumHeight(120);
    m_report->setAccessibleName(tr("Import report"));
    ml->addWidget(m_report);
    layout->addWidget(modelBox);

    // ---- target
    auto* targetBox = new QGroupBox(tr("Target context T"), this);
    targetBox->setLayout(m_targetBox);
    layout->addWidget(targetBox);

    // ---- methods
    auto* methods = new QGroupBox(tr("Methods (2–4)"), this);
    auto* vl = new QVBoxLayout(methods);
    vl->addLayout(m_editorBox);
    m_add->setText(tr("Add method"));
    m_add->setPopupMode(QToolButton::InstantPopup);
    m_add->setMenu(new QMenu(m_add));
    vl->addWidget(m_add);
    layout->addWidget(methods);
    layout->addStretch(1);

    connect(m_model, &ExplorerModel::modelChanged, this, [this] {
        rebuildTarget();
        showReport();
    });
    connect(m_model, &ExplorerModel::variantsChanged, this, &ExplorerPanel::rebuildEditors);
    connect(m_model, &ExplorerModel::parametersChanged, this, [this] {
        const auto& variants = m_model->variants();
        if (static_cast<std::size_t>(m_editors.size()) != variants.size())
            return;
        for (std::size_t i = 0; i < variants.size(); ++i)
            m_editors[static_cast<qsizetype>(i)]->showVariant(variants[i]);
    });
}

bool ExplorerPanel::loadPreset(const QString& id)
{
    try {
        const ConfigImport imp = load_preset(id.toStdString());
        const std::optional<RopeParams> rotary = rotary_params(imp.scenario);
        if (!rotary)
            throw ConfigError(tr("%1 does not use RoPE").arg(id).toStdString());
        const auto info = find_preset(id.toStdString());
        m_presetId = id;
        m_model->setModel(*rotary, info ? qs(info->name) : id, imp);
        syncPresetCombo();
        return true;
    } catch (const std::exception& e) {
        emit errorMessage(tr("Preset %1: %2").arg(id, QString::fromUtf8(e.what())));
        return false;
    }
}

bool ExplorerPanel::openConfig(const QString& path)
{
    try {
        const ConfigImport imp = load_model_config(path.toStdString());
        const std::optional<RopeParams> rotary = rotary_params(imp.scenario);
        if (!rotary)
            throw ConfigError(tr("the model's positions are %1, not RoPE")
                                  .arg(methodName(imp.scenario.method))
                                  .toStdString());
        validate(*rotary);
        m_presetId.clear();
        const QFileInfo fi(path);
        m_model->setModel(*rotary, fi.dir().dirName() + QLatin1Char('/') + fi.fileName(), imp);
        syncPresetCombo();
        return true;
    } catch (const std::exception& e) {
        emit errorMessage(tr("%1: %2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
}

void ExplorerPanel::syncPresetCombo()
{
    const int i = m_presetId.isEmpty() ? 0 : m_presets->findData(m_presetId, Qt::UserRole);
    m_presets->setCurrentIndex(std::max(0, i));
}

QString ExplorerPanel::importReportText() const
{
    return m_report->toPlainText();
}

QString ExplorerPanel::modelSummaryText() const
{
    return m_modelLabel->text();
}

void ExplorerPanel::showReport()
{
    const RopeParams& p = m_model->modelParams();
    QString label = tr("<b>%1</b><br>head_dim %2 · rotary %3 · base %4 · %5 · trained L = %6")
                        .arg(m_model->modelName().toHtmlEscaped())
                        .arg(p.head_dim)
                        .arg(p.rotary_dim())
                        .arg(format_number(p.rope_theta, 8), rope_scaling_name(p.rope_type))
                        .arg(m_model->trainedLength());
    const TemperatureInfo t = attention_temperature(p);
    if (t.logit_multiplier != 1.0)
        label += tr(" · logits × %1").arg(format_number(t.logit_multiplier, 4));
    if (trained_length_ambiguous(p))
        label += tr("<br><span style='color:#d62728'>Trained length assumed: the config does not say whether "
                    "max_position_embeddings %1 is the trained or the extended context. Set the original "
                    "context in the main window's panel.</span>")
                     .arg(p.max_position_embeddings);
    m_modelLabel->setText(label);
    const ConfigImport& imp = m_model->configImport();
    auto list = [](const std::vector<std::string>& keys) {
        QStringList out;
        for (const std::string& k : keys)
            out << qs(k).toHtmlEscaped();
        return out.join(QStringLiteral(", "));
    };
    QString html;
    if (!imp.read_keys.empty())
        html += tr("<b>Read:</b> %1<br>").arg(list(imp.read_keys));
    if (!imp.ignored_keys.empty())
        html += tr("<b style='color:#d62728'>Not modelled:</b> %1<br>").arg(list(imp.ignored_keys));
    if (!imp.unknown_keys.empty())
        html += tr("<b>Unknown keys:</b> %1<br>").arg(list(imp.unknown_keys));
    for (const std::string& n : imp.notes)
        html += tr("• %1<br>").arg(qs(n).toHtmlEscaped());
    if (html.isEmpty())
        html = tr("Seeded from the main window's RoPE scenario (no config keys read).");
    m_report->setHtml(html);
}

void ExplorerPanel::rebuildTarget()
{
    delete m_target;
    const double lo = static_cast<double>(m_model->trainedLength());
    LogSlider::Range r;
    r.min = std::max(1.0, lo);
    r.max = std::max(r.min * 2.0, std::min(static_cast<double>(kMaxSeqLen), r.min * 256.0));
    r.log_scale = true;
    r.integer = true;
    m_target = new LogSlider(r, this);
    m_target->setValue(static_cast<double>(m_model->targetLength()));
    m_target->setToolTips(tr("The context length every view aims at (tokens)"));
    m_targetBox->addWidget(m_target);
    connect(m_target, &LogSlider::valueEdited, this,
            [this](double v) { m_model->setTargetLength(static_cast<std::int64_t>(std::llround(v))); });
}

void ExplorerPanel::rebuildEditors()
{
    qDeleteAll(m_editors);
    m_editors.clear();
    const auto& variants = m_model->variants();
    for (int i = 0; i < static_cast<int>(variants.size()); ++i) {
        auto* e = new VariantEditor(variants[static_cast<std::size_t>(i)], m_model->canRemove(), this);
        m_editorBox->addWidget(e);
        m_editors << e;
        // The index is looked up at signal time: removing an earlier variant shifts the later ones.
        connect(e, &VariantEditor::paramsEdited, this, [this, e](const RopeParams& p) {
            m_model->setVariantParams(static_cast<int>(m_editors.indexOf(e)), p);
        });
        connect(e, &VariantEditor::message, this, &ExplorerPanel::errorMessage);
        connect(e, &VariantEditor::followTargetRequested, this,
                [this, e] { m_model->setFactorPinned(static_cast<int>(m_editors.indexOf(e)), false); });
        connect(e, &VariantEditor::removeRequested, this, [this, e] {
            const int index = static_cast<int>(m_editors.indexOf(e));
            // Deferred: the editor that emitted the signal is deleted by the rebuild.
            QMetaObject::invokeMethod(
                this, [this, index] { m_model->removeVariant(index); }, Qt::QueuedConnection);
        });
    }
    QMenu* menu = m_add->menu();
    menu->clear();
    for (VariantKind k : kAllVariantKinds) {
        QAction* a = menu->addAction(variant_kind_name(k), this, [this, k] { m_model->addVariant(k); });
        a->setEnabled(m_model->canAdd() && variant_available(k, m_model->modelParams()));
    }
    m_add->setEnabled(m_model->canAdd());
}

} // namespace posatlas::ui
