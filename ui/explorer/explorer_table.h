// SPDX-License-Identifier: GPL-3.0-or-later
// The explorer's per-pair table: one row per rotary pair; columns index, theta, wavelength (the model's
// unscaled values), then for each variant its scaled theta, ratio theta'/theta and regime, all at the
// target length (rope_pairs). The CSV export writes every variant's whole table in long format, as
// `posatlas compute rope-pairs` writes one (rope_pairs_columns.h): a series column (the variant's label),
// then that command's columns, by the same writer and number policy (number_text.h).
#pragma once

#include "explorer/explorer_jobs.h"

#include <QAbstractTableModel>
#include <QByteArray>

namespace posatlas::ui {

class ExplorerTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit ExplorerTableModel(QObject* parent = nullptr);

    void setTables(const ExplorerTables& tables);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The variants without error, one after another: rope_pairs_columns(labels, tables) as CSV. For each
    // variant, every line is "label," followed by the line `compute rope-pairs` writes for its
    // parameters (apart from the ramp column, there when any variant has one).
    QByteArray csv() const;

private:
    struct Column {
        int variant = -1; // -1: a model column
        int field = 0;    // model: 0 index, 1 theta, 2 wavelength; variant: 0 scaled theta, 1 ratio, 2 regime
    };
    std::vector<Column> m_columns;
    ExplorerTables m_tables;
    std::vector<int> m_valid; // indices of the variants without error
};

} // namespace posatlas::ui
