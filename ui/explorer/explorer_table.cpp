// SPDX-License-Identifier: GPL-3.0-or-later
#include "explorer/explorer_table.h"

#include "explorer/explorer_figures.h"
#include "io/number_text.h"
#include "io/rope_pairs_columns.h"
#include "views/figure_style.h"

#include <QBrush>

namespace posatlas::ui {

ExplorerTableModel::ExplorerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExplorerTableModel::setTables(const ExplorerTables& tables)
{
    beginResetModel();
    m_tables = tables;
    m_valid.clear();
    m_columns.clear();
    for (int f = 0; f < 3; ++f)
        m_columns.push_back({-1, f});
    for (std::size_t v = 0; v < m_tables.variants.size(); ++v) {
        if (!m_tables.variants[v].error.isEmpty())
            continue;
        m_valid.push_back(static_cast<int>(v));
        for (int f = 0; f < 3; ++f)
            m_columns.push_back({static_cast<int>(v), f});
    }
    endResetModel();
}

int ExplorerTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_tables.unscaled.rows.size());
}

int ExplorerTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant ExplorerTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Column& c = m_columns[static_cast<std::size_t>(index.column())];
    const auto row = static_cast<std::size_t>(index.row());
    if (c.variant < 0) {
        const RopePairRow& r = m_tables.unscaled.rows[row];
        const double v = c.field == 0 ? r.index : c.field == 1 ? r.theta : r.wavelength;
        if (role == Qt::DisplayRole)
            return c.field == 0 ? QVariant(r.index) : QVariant(format_number(v, 6));
        if (role == Qt::EditRole || role == Qt::UserRole)
            return v;
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    const VariantResult& vr = m_tables.variants[static_cast<std::size_t>(c.variant)];
    if (row >= vr.table.rows.size())
        return {};
    const RopePairRow& r = vr.table.rows[row];
    if (c.field == 2) {
        if (role == Qt::DisplayRole)
            return regime_name(r.regime);
        if (role == Qt::BackgroundRole)
            return QBrush(regime_color(r.regime, false));
        if (role == Qt::ForegroundRole)
            return QBrush(Qt::black); // the regime tints are light in both themes' table
        return {};
    }
    const double v = c.field == 0 ? r.scaled_theta : r.ratio;
    if (role == Qt::DisplayRole)
        return format_number(v, 6);
    if (role == Qt::EditRole || role == Qt::UserRole)
        return v;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ExplorerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section < 0 || section >= columnCount())
        return {};
    const Column& c = m_columns[static_cast<std::size_t>(section)];
    if (c.variant < 0) {
        const QString names[] = {tr("pair"), tr("θ (rad/token)"), tr("λ (tokens)")};
        return names[c.field];
    }
    const QString names[] = {tr("θ′"), tr("θ′/θ"), tr("regime")};
    return QStringLiteral("%1\n%2").arg(m_tables.variants[static_cast<std::size_t>(c.variant)].variant.label,
                                        names[c.field]);
}

QByteArray ExplorerTableModel::csv() const
{
    std::vector<std::string> names;
    std::vector<const RopePairsTable*> tables;
    for (int v : m_valid) {
        const VariantResult& vr = m_tables.variants[static_cast<std::size_t>(v)];
        names.push_back(vr.variant.label.toStdString());
        tables.push_back(&vr.table);
    }
    const std::string text = csv_text(rope_pairs_columns(names, tables));
    return QByteArray(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace posatlas::ui
