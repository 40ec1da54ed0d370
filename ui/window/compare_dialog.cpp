// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/compare_dialog.h"

#include "jobs/view_jobs.h"
#include "methods/registry.h"
#include "model/scenario_model.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

CompareDialog::CompareDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Compare Methods"));
    setObjectName(QStringLiteral("compareDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Show %1 to %2 methods side by side on the current sequence, each with its own "
                      "parameters: one heatmap panel per method and their curves on shared axes.")
                       .arg(kMinCompared)
                       .arg(kMaxCompared));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* group = new QGroupBox(tr("Methods"));
    auto* grid = new QGridLayout(group);
    int i = 0;
    for (const MethodDescriptor& d : posatlas::methods()) { // the registry, not this dialog's methods()
        auto* box = new QCheckBox(methodName(d.method));
        box->setObjectName(
            QStringLiteral("compare_") +
            QString::fromLatin1(d.method.id().data(), static_cast<qsizetype>(d.method.id().size())));
        connect(box, &QCheckBox::toggled, this, &CompareDialog::updateState);
        grid->addWidget(box, i / 2, i % 2);
        m_boxes.emplace_back(d.method, box);
        ++i;
    }
    layout->addWidget(group);
    m_perPanel = new QCheckBox(tr("One colour scale &per panel (off: one scale shared by all methods)"));
    m_perPanel->setObjectName(QStringLiteral("comparePerPanel"));
    m_perPanel->setChecked(true);
    layout->addWidget(m_perPanel);
    m_hint = new QLabel;
    m_hint->setObjectName(QStringLiteral("compareHint"));
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    updateState();
}

std::vector<Method> CompareDialog::methods() const
{
    std::vector<Method> out;
    for (const auto& [m, box] : m_boxes)
        if (box->isChecked())
            out.push_back(m);
    return out;
}

void CompareDialog::setMethods(const std::vector<Method>& list)
{
    for (const auto& [m, box] : m_boxes)
        box->setChecked(std::find(list.begin(), list.end(), m) != list.end());
    updateState();
}

bool CompareDialog::perPanelScales() const
{
    return m_perPanel->isChecked();
}

void CompareDialog::setPerPanelScales(bool on)
{
    m_perPanel->setChecked(on);
}

void CompareDialog::updateState()
{
    const int n = static_cast<int>(methods().size());
    const bool ok = n >= kMinCompared && n <= kMaxCompared;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
    m_hint->setText(
        ok ? tr("Methods chosen: %1.").arg(n)
           : tr("Choose %1 to %2 methods (%3 chosen).").arg(kMinCompared).arg(kMaxCompared).arg(n));
}

} // namespace posatlas::ui
