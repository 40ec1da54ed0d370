// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/parameter_panel.h"

#include "widgets/content_file_picker.h"
#include "widgets/field_slider.h"
#include "widgets/list_sliders.h"
#include "widgets/log_slider.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

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
ListSliders* ParameterPanel::listSliders(ParamId id) const
{
    return qobject_cast<ListSliders*>(editor(id));
}
QComboBox* ParameterPanel::methodCombo() const
{
    return m_methodCombo;
}

QWidget* ParameterPanel::makeEditor(ParamId id)
{
    const Field& spec = *id;
    const QString tip = field_tooltip(spec);
    switch (spec.type) {
    case FieldType::Bool: {
        auto* box = new QCheckBox(paramText(spec.label));
        box->setToolTip(tip);
        connect(box, &QCheckBox::toggled, this, [this, id](bool on) { edit(id, on ? 1.0 : 0.0); });
        return box;
    }
    case FieldType::Choice: {
        auto* combo = new QComboBox;
        for (const FieldChoice& c : spec.choices)
            combo->addItem(paramText(c.label));
        combo->setToolTip(tip);
        if (&spec == common_field("content")) {
            // The user's own queries and keys: one more entry after the seeded kinds (content_file_picker.h).
            combo->addItem(tr("From file…"));
            connect(combo, &QComboBox::activated, this,
                    [this, id, count = static_cast<int>(spec.choices.size())](int index) {
                        editContent(id, index, count);
                    });
            return combo;
        }
        connect(combo, &QComboBox::activated, this, [this, id](int index) { edit(id, index); });
        return combo;
    }
    case FieldType::Int:
    case FieldType::Seed:
    case FieldType::Real:
    case FieldType::OptionalReal: {
        auto* s = make_field_slider(spec);
        connect(s, &LogSlider::valueEdited, this, [this, id](double v) { edit(id, v); });
        connect(s, &LogSlider::valueClamped, this,
                [this, &spec](const QString& text) { emit message(field_clamp_message(spec, text)); });
        connect(s, &LogSlider::dragStarted, m_model, &ScenarioModel::beginInteractiveEdit);
        connect(s, &LogSlider::dragFinished, m_model, &ScenarioModel::endInteractiveEdit);
        return s;
    }
    case FieldType::Text:
        if (!spec.path) { // free text: the sentence, applied when editing finishes (Enter, focus out)
            auto* line = new QLineEdit;
            line->setToolTip(tip);
            line->setClearButtonEnabled(true);
            line->setPlaceholderText(tr("e.g. the dog bit the man"));
            line->setAccessibleName(paramText(spec.label));
            connect(line, &QLineEdit::editingFinished, this, [this, id, line] {
                if (!m_syncing && !m_model->setText(id, line->text()))
                    syncFromModel();
            });
            return line;
        }
        return nullptr; // a file name: not edited in the panel (panel = false)
    case FieldType::RealList: {
        if (!spec.list_defaults)
            return nullptr; // not edited in the panel (panel = false)
        // One slider per element (ALiBi's head slopes), folded under a header (widgets/list_sliders.h).
        auto* list = new ListSliders(m_model, id);
        connect(list, &ListSliders::message, this, &ParameterPanel::message);
        return list;
    }
    }
    return nullptr;
}

void ParameterPanel::build()
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    m_scroll = scroll;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Rows never narrower than the panel's minimum width (every method's fit: ui_parameter_panel_tests);
    // a dock squeezed below it (presenting beside a lesson at 250 %) scrolls instead of cutting them off.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    outer->addWidget(scroll);
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    scroll->setWidget(content);

    // Rows in a plain column, each a widget of its own with its label above its editor (long names with
    // units never clip in a narrow dock), shown and hidden as a whole. Not a QFormLayout: in Qt 6.4,
    // QFormLayout::setRowVisible() writes past the end of the layout's row array when a row's visibility
    // changes while its group is being shown (valgrind: "Invalid write of size 4" in QFormLayout::
    // setGeometry under setRowVisible), which corrupted the heap and crashed the window at random later.
    auto makeForm = [](QGroupBox* box) { return new QVBoxLayout(box); };
    const auto addToForm = [](QVBoxLayout* form, QWidget* label, QWidget* field) {
        auto* row = new QWidget;
        auto* rowLayout = new QVBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        rowLayout->setSpacing(2);
        if (label)
            rowLayout->addWidget(label);
        rowLayout->addWidget(field);
        form->addWidget(row);
        return row;
    };

    auto* common = new QGroupBox(tr("Scenario"), content);
    auto* commonForm = makeForm(common);
    column->addWidget(common);
    m_methodCombo = new QComboBox;
    for (const MethodDescriptor& d : methods())
        m_methodCombo->addItem(methodName(d.method));
    m_methodCombo->setToolTip(tr("The positional-encoding method whose matrices and curves are shown."));
    connect(m_methodCombo, &QComboBox::activated, this, [this](int index) {
        if (!m_syncing && index >= 0 && index < static_cast<int>(methods().size()))
            m_model->setMethod(methods()[static_cast<std::size_t>(index)].method);
    });
    auto* methodLabel = new QLabel(tr("&Method"));
    methodLabel->setBuddy(m_methodCombo);
    addToForm(commonForm, methodLabel, m_methodCombo);

    const auto addRow = [&](QVBoxLayout* form, const Field& spec) {
        if (!spec.panel)
            return;
        QWidget* editorWidget = makeEditor(&spec);
        if (!editorWidget)
            return;
        m_editors.insert(&spec, editorWidget);
        if (spec.type == FieldType::Bool || spec.type == FieldType::RealList) { // they carry their own label
            m_rows.insert(&spec, addToForm(form, nullptr, editorWidget));
        } else {
            auto* label = new QLabel(field_label(spec));
            label->setToolTip(field_tooltip(spec));
            label->setBuddy(editorWidget); // Alt+letter reaches the editor; screen readers name it
            m_labels.insert(&spec, label);
            m_rows.insert(&spec, addToForm(form, label, editorWidget));
        }
    };
    for (const Field& f : common_fields())
        addRow(commonForm, f);
    for (const MethodDescriptor& d : methods()) {
        // The heading is a wrapped label, not the box's title: a title never wraps, and the longest
        // ("Transformer-XL (Dai et al. 2019) parameters") made the column wider than the dock.
        auto* group = new QGroupBox(content);
        auto* form = makeForm(group);
        auto* heading = new QLabel(tr("%1 parameters").arg(methodName(d.method)));
        heading->setWordWrap(true);
        QFont bold = heading->font();
        bold.setBold(true);
        heading->setFont(bold);
        form->addWidget(heading);
        m_methodGroups.push_back(group);
        column->addWidget(group);
        for (const Field& f : d.fields)
            addRow(form, f);
        // Lists the panel shows but does not edit (LongRoPE's per-pair factors, which come from a config
        // or preset): one read-only label under the method's rows.
        QLabel* summary = nullptr;
        QStringList tips;
        for (const Field& f : d.fields)
            if (f.read_only_summary)
                tips << field_tooltip(f);
        if (!tips.isEmpty()) {
            summary = new QLabel;
            summary->setWordWrap(true);
            summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
            summary->setToolTip(tips.join(QLatin1Char('\n')));
            form->addWidget(summary);
        }
        m_summaryLabels.push_back(summary);
    }
    column->addStretch(1);
    // Choices with long names (methods, content sources) shrink and elide instead of widening the
    // column past the dock; the dock is then never narrower than its widest row, so no editor is cut
    // off at the right edge when other docks (a lesson) take the room.
    for (auto* combo : content->findChildren<QComboBox*>()) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(16);
    }
    setMinimumWidth(280);
}

int ParameterPanel::contentMinimumWidth() const
{
    const QWidget* content = m_scroll->widget();
    const int bar =
        m_scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_scroll->verticalScrollBar());
    const int frame = 2 * m_scroll->frameWidth();
    return std::max(minimumWidth(), content->minimumSizeHint().width() + bar + frame);
}

void ParameterPanel::editContent(ParamId id, int index, int seededKinds)
{
    if (m_syncing)
        return;
    const Scenario& s = m_model->scenario();
    if (index >= seededKinds) {
        if (const auto next = pick_content_files(this, s))
            m_model->setScenario(*next, tr("Content from files"));
        syncFromModel(); // cancelled or rejected: the combo shows the content in effect again
        return;
    }
    if (!s.content.from_files()) {
        edit(id, index);
        return;
    }
    // Back to seeded content: the files are let go in the same undo step.
    Scenario next = s;
    next.content.queries = {};
    next.content.keys = {};
    id->set_number(next, index);
    m_model->setScenario(next, tr("Content vectors"));
    syncFromModel();
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
    {
        const QSignalBlocker block(m_methodCombo);
        for (std::size_t i = 0; i < methods().size(); ++i)
            if (methods()[i].method == s.method)
                m_methodCombo->setCurrentIndex(static_cast<int>(i));
    }
    for (auto it = m_editors.constBegin(); it != m_editors.constEnd(); ++it) {
        QWidget* w = it.value();
        const double v = param_value(s, it.key());
        if (auto* box = qobject_cast<QCheckBox*>(w)) {
            const QSignalBlocker block(box);
            box->setChecked(v != 0.0);
        } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
            const QSignalBlocker block(combo);
            const bool files = it.key() == common_field("content") && s.content.from_files();
            combo->setCurrentIndex(files ? combo->count() - 1 : static_cast<int>(v));
            if (it.key() == common_field("content"))
                combo->setToolTip(files ? tr("Queries and keys from %1.").arg(content_files_text(s.content))
                                        : field_tooltip(*it.key()));
        } else if (auto* slider = qobject_cast<LogSlider*>(w)) {
            if (slider->value() != v)
                slider->setValue(v);
        } else if (auto* list = qobject_cast<ListSliders*>(w)) {
            list->syncFromModel();
        } else if (auto* line = qobject_cast<QLineEdit*>(w)) {
            const QString text = QString::fromStdString(it.key()->get(s).get<std::string>());
            if (line->text() != text) {
                const QSignalBlocker block(line);
                line->setText(text);
            }
        }
    }
    const auto summary = [](const std::vector<double>& f) {
        if (f.empty())
            return tr("none");
        QStringList parts;
        for (std::size_t i = 0; i < f.size() && i < 4; ++i)
            parts << QString::number(f[i], 'g', 4);
        return tr("%n values: %1%2", nullptr, static_cast<int>(f.size()))
            .arg(parts.join(QStringLiteral(", ")), f.size() > 4 ? QStringLiteral(", …") : QString());
    };
    for (std::size_t i = 0; i < m_summaryLabels.size(); ++i) {
        if (!m_summaryLabels[i] || methods()[i].method != s.method)
            continue;
        QStringList lines;
        for (const Field& f : methods()[i].fields)
            if (f.read_only_summary) // the values in effect where the field says (M-RoPE's sections)
                lines << QStringLiteral("%1: %2").arg(QString::fromStdString(f.key),
                                                      summary(f.displayed_values
                                                                  ? f.displayed_values(s).values
                                                                  : f.get(s).get<std::vector<double>>()));
        m_summaryLabels[i]->setText(lines.join(QLatin1Char('\n')));
    }
    updateVisibility();
    m_syncing = false;
}

bool ParameterPanel::isRowVisible(ParamId id) const
{
    const Scenario& s = m_model->scenario();
    const auto method = param_method(id);
    if (method && *method != s.method)
        return false;
    return !id->shown || id->shown(s);
}

void ParameterPanel::updateVisibility()
{
    const Scenario& s = m_model->scenario();
    for (std::size_t i = 0; i < m_methodGroups.size(); ++i)
        m_methodGroups[i]->setVisible(methods()[i].method == s.method);
    for (auto it = m_rows.constBegin(); it != m_rows.constEnd(); ++it)
        it.value()->setVisible(isRowVisible(it.key()));
    for (std::size_t i = 0; i < m_summaryLabels.size(); ++i) {
        if (!m_summaryLabels[i])
            continue;
        const MethodDescriptor& d = methods()[i];
        m_summaryLabels[i]->setVisible(d.method == s.method &&
                                       std::any_of(d.fields.begin(), d.fields.end(), [&](const Field& f) {
                                           return f.read_only_summary && (!f.shown || f.shown(s));
                                       }));
    }
}

} // namespace posatlas::ui
