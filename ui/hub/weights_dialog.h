// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File > Open Weights… (and a .safetensors dropped on the window): the tensors of a checkpoint or of a
// sharded index, with dtype and shape; the position tensors PosAtlas knows are marked with their
// architecture, and the first learned table among them is preselected. Only the header is read. "Use as"
// says what the tensor becomes: the learned table, T5's bias table, or one of a method's own tables
// (every registry field with a table shape: Shaw's a^K, DeBERTa's relative embeddings, ...), preset
// from the known tensor's method.

#include "io/safetensors.h"

#include <QDialog>

#include <string>
#include <string_view>

class QDialogButtonBox;
class QComboBox;
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
    // What the tensor is used as: a table field, "METHOD/FIELD" ("learned/table_path",
    // "deberta/rel_embeddings"; io/checkpoint_adoption.h table_target_id).
    QString target() const;
    void setTarget(const QString& target);
    QComboBox* targetBox() const { return m_target; }
    // The target a known tensor goes to by default (the learned table for an unknown one).
    static QString defaultTarget(const QString& tensor);

private:
    void updateState();

    QTreeWidget* m_list = nullptr;
    QComboBox* m_target = nullptr;
    QLabel* m_hint = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace posatlas::ui
