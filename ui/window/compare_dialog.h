// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// View > Compare Methods…: pick 2 to 4 methods to show side by side (heatmap panels, overlaid curves)
// and whether their heatmaps share one colour scale. Checkboxes, so it works from the keyboard (Tab,
// Space); OK is enabled only for 2 to 4 methods, and a line says why it is not.

#include "methods/method.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QDialogButtonBox;
class QLabel;

namespace posatlas::ui {

class CompareDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CompareDialog(QWidget* parent = nullptr);

    // Checked methods in the registry's order.
    std::vector<Method> methods() const;
    void setMethods(const std::vector<Method>& list);
    bool perPanelScales() const;
    void setPerPanelScales(bool on);

private:
    void updateState();

    std::vector<std::pair<Method, QCheckBox*>> m_boxes;
    QCheckBox* m_perPanel = nullptr;
    QLabel* m_hint = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace posatlas::ui
