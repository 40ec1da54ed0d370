// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File > Open Weights… (and a .safetensors dropped on the window): the tensors of a checkpoint or of a
// sharded index, with dtype and shape; the position tensors PosAtlas knows are marked with their
// architecture, and the first learned table among them is preselected. Only the header is read.

#include "io/safetensors.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QTreeWidget;

namespace posatlas::ui {

class WeightsDialog : public QDialog
{
    Q_OBJECT
public:
    // `catalog` from read_safetensors (the caller reports its errors).
    explicit WeightsDialog(const SafetensorsCatalog& catalog, QWidget* parent = nullptr);

    // The selected tensor's name, empty when none.
    QString tensor() const;
    void selectTensor(const QString& name);
    QTreeWidget* tensorList() const { return m_list; }

private:
    void updateState();

    QTreeWidget* m_list = nullptr;
    QLabel* m_hint = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace posatlas::ui
