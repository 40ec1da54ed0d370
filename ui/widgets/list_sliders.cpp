// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/list_sliders.h"

#include "jobs/view_job_support.h"
#include "jobs/wording_text.h"
#include "widgets/log_slider.h"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

namespace {
QString numberText(double v)
{
    return QString::number(v, 'g', 6);
}

// The slope's name as the figures write it: m₀ for head index 0 (the heatmap's panels, the curves'
// legend, --head 0); the paper's h = 1.
QString slopeName(int k)
{
    return QStringLiteral("m") + view_job_support::subscript(k);
}

} // namespace

ListSliders::ListSliders(ScenarioModel* model, ParamId id, QWidget* parent)
    : QWidget(parent), m_model(model), m_id(id)
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);

    // The header folds the rows away: a click, or Space when it has the focus.
    m_header = new QToolButton(this);
    m_header->setText(paramText(id->label));
    m_header->setCheckable(true);
    m_header->setChecked(true);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setAutoRaise(true);
    m_header->setToolTip(
        paramText(id->tooltip) + QLatin1Char('\n') +
        QCoreApplication::translate("ParameterPanel", "Key: %1").arg(QString::fromStdString(id->key)));
    m_header->setAccessibleName(paramText(id->label));
    setToolTip(m_header->toolTip());
    connect(m_header, &QToolButton::toggled, this, &ListSliders::setExpanded);
    column->addWidget(m_header);

    m_body = new QWidget(this);
    auto* bodyColumn = new QVBoxLayout(m_body);
    bodyColumn->setContentsMargins(0, 0, 0, 0);
    auto* gridHolder = new QWidget(m_body);
    m_grid = new QGridLayout(gridHolder);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(0, 1);
    m_grid->setVerticalSpacing(2);
    bodyColumn->addWidget(gridHolder);

    m_more = new QLabel(m_body);
    m_more->setWordWrap(true);
    bodyColumn->addWidget(m_more);

    m_resetAll = new QPushButton(tr("Reset all"), m_body);
    m_resetAll->setToolTip(tr("Give every head the paper's slope 2^(-8h/n) again."));
    connect(m_resetAll, &QPushButton::clicked, this, [this] {
        if (!m_model->resetList(m_id))
            syncFromModel();
    });
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_resetAll);
    bodyColumn->addLayout(buttons);
    column->addWidget(m_body);
    setExpanded(true);
}

LogSlider* ListSliders::slider(int index) const
{
    return index >= 0 && index < rowCount() ? m_rows[static_cast<std::size_t>(index)].slider : nullptr;
}

QToolButton* ListSliders::resetButton(int index) const
{
    return index >= 0 && index < rowCount() ? m_rows[static_cast<std::size_t>(index)].reset : nullptr;
}

void ListSliders::setExpanded(bool on)
{
    m_header->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    m_body->setVisible(on);
}

void ListSliders::rebuildRows(int count)
{
    for (const Row& r : m_rows) {
        delete r.label;
        delete r.slider;
        delete r.reset;
    }
    m_rows.clear();
    const Field& spec = *m_id;
    QWidget* holder = m_grid->parentWidget();
    for (int k = 0; k < count; ++k) {
        Row row{};
        row.label = new QLabel(holder);
        LogSlider::Range range;
        range.min = spec.lo;
        range.max = spec.hi;
        range.log_scale = spec.log_scale;
        range.decimals = spec.decimals;
        range.step = spec.step;
        row.slider = new LogSlider(range, holder);
        const QString name = tr("Slope %1 of head %2").arg(slopeName(k)).arg(k);
        row.slider->setAccessibleName(name);
        // Heads are counted from 0 as in the figures (m₀ is the first head's slope); the paper's h is k + 1.
        row.slider->setToolTips(tr("Slope %1 of head %2: heads are counted from 0, as in the figures and "
                                   "--head %2 (the paper's h = %3)")
                                    .arg(slopeName(k))
                                    .arg(k)
                                    .arg(k + 1) +
                                QLatin1Char('\n') + paramText(spec.tooltip));
        row.label->setBuddy(row.slider->spinBox());
        row.label->setToolTip(name);
        row.reset = new QToolButton(holder);
        row.reset->setIcon(style()->standardIcon(QStyle::SP_DialogResetButton));
        row.reset->setText(tr("Reset"));
        row.reset->setAutoRaise(true);
        row.reset->setAccessibleName(tr("Reset the slope %1 of head %2").arg(slopeName(k)).arg(k));
        // Tab reaches it like the other editors (a tool button takes no focus by default).
        row.reset->setFocusPolicy(Qt::StrongFocus);
        connect(row.slider, &LogSlider::valueEdited, this, [this, k](double v) {
            if (!m_syncing && !m_model->setListElement(m_id, k, v))
                syncFromModel();
        });
        connect(row.slider, &LogSlider::valueClamped, this,
                [this, name](const QString& text) { emit message(tr("%1: %2").arg(name, text)); });
        connect(row.slider, &LogSlider::dragStarted, m_model, &ScenarioModel::beginInteractiveEdit);
        connect(row.slider, &LogSlider::dragFinished, m_model, &ScenarioModel::endInteractiveEdit);
        connect(row.reset, &QToolButton::clicked, this, [this, k] {
            if (!m_model->setListElement(m_id, k, std::nullopt))
                syncFromModel();
        });
        // Two lines per head, like the panel's other rows (labels above their editors): the name and
        // its reset button, then the slider with its spin box across the whole width, so that nothing
        // clips in a narrow dock or at a presentation font scale.
        m_grid->addWidget(row.label, 2 * k, 0);
        m_grid->addWidget(row.reset, 2 * k, 1, Qt::AlignRight);
        m_grid->addWidget(row.slider, 2 * k + 1, 0, 1, 2);
        m_rows.push_back(row);
    }
    // Tab order follows the rows: slider, its spin box, its reset button, then the next head.
    QWidget* previous = m_header;
    for (const Row& r : m_rows) {
        setTabOrder(previous, r.slider->slider());
        setTabOrder(r.slider->slider(), r.slider->spinBox());
        setTabOrder(r.slider->spinBox(), r.reset);
        previous = r.reset;
    }
    setTabOrder(previous, m_resetAll);
}

void ListSliders::syncFromModel()
{
    m_syncing = true;
    const Scenario& s = m_model->scenario();
    const Field& spec = *m_id;
    // Another method's list: its defaults may not be computable for this scenario; show nothing new.
    const auto method = param_method(m_id);
    if (method && *method != s.method) {
        m_syncing = false;
        return;
    }
    const std::vector<double> defaults = spec.list_defaults(s);
    const std::vector<double> values = spec.list_values(s);
    // The values the figures use, and why, when the field says they differ from the sliders' (ALiBi's
    // length scaling and slope scale change its slopes after the sliders).
    const DisplayedValues displayed = spec.displayed_values ? spec.displayed_values(s) : DisplayedValues{};
    const std::vector<double>& effective = spec.displayed_values ? displayed.values : values;
    const QString reason = wording_text(displayed.reasons, tr(", "));
    const int count = static_cast<int>(defaults.size());
    const int shown = std::min(count, kMaxRows);
    if (shown != rowCount())
        rebuildRows(shown);
    const std::size_t chosen = spec.get(s).size();
    for (int k = 0; k < shown; ++k) {
        const auto i = static_cast<std::size_t>(k);
        const Row& r = m_rows[i];
        if (r.slider->value() != values[i])
            r.slider->setValue(values[i]);
        const bool changed = values[i] != defaults[i];
        const double used = i < effective.size() ? effective[i] : values[i];
        // Short enough for one line of a narrow panel; the tooltip says it in full.
        if (used != values[i]) {
            r.label->setText(
                tr("Head %1: %2 → %3 (%4)").arg(k).arg(slopeName(k), QString::number(used, 'g', 3), reason));
            r.label->setToolTip(
                tr("The figures use %1 = %2: the slider's %3 under %4.")
                    .arg(slopeName(k), QString::number(used, 'g', 6), numberText(values[i]), reason));
        } else {
            r.label->setText(tr("Head %1: %2").arg(k).arg(slopeName(k)));
            r.label->setToolTip(r.slider->accessibleName());
        }
        // A chosen slope stands out from the paper's. Only the weight is the label's own: a copy of its
        // whole font would pin the size it had then (a presentation's) after the window's font changes.
        QFont font;
        font.setBold(true);
        r.label->setFont(changed ? font : QFont());
        r.reset->setEnabled(changed);
        r.reset->setToolTip(tr("Reset to the paper's slope 2^(-8h/n) with h = %1: %2")
                                .arg(k + 1)
                                .arg(numberText(defaults[i])));
    }
    if (count > shown) {
        int chosenBeyond = 0;
        for (std::size_t k = static_cast<std::size_t>(shown); k < chosen && k < defaults.size(); ++k)
            chosenBeyond += values[k] != defaults[k] ? 1 : 0;
        QString text = tr("Heads %1 to %2 are not shown here: they keep the paper's slope unless a session "
                          "or --slopes sets them.")
                           .arg(shown)
                           .arg(count - 1);
        if (chosenBeyond > 0)
            text += QLatin1Char(' ') + tr("%n of them have a chosen slope.", nullptr, chosenBeyond);
        m_more->setText(text);
    }
    m_more->setVisible(count > shown);
    m_resetAll->setEnabled(chosen > 0);
    m_syncing = false;
}

} // namespace posatlas::ui
