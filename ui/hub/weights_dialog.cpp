// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/weights_dialog.h"

#include "io/checkpoint_adoption.h"
#include "methods/registry.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdint>

namespace posatlas::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// A learned table is a matrix: positions x dimensions.
bool usable(const SafetensorsTensor& t)
{
    const int size = safetensors_dtype_size(t.dtype);
    return t.matrix_shape() &&
           (t.dtype == "F32" || t.dtype == "F64" || t.dtype == "F16" || t.dtype == "BF16") && size > 0;
}

} // namespace

WeightsDialog::WeightsDialog(const SafetensorsCatalog& catalog, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Weights: %1").arg(QFileInfo(QString::fromStdString(catalog.path)).fileName()));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Choose the tensor that holds the position table: a learned table (positions × dimensions), "
           "T5's relative_attention_bias (buckets × heads) or one of a method's own tables (Use as). "
           "Known position tensors are marked; only the header has been read."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("weightsTensorList"));
    m_list->setHeaderLabels({tr("Tensor"), tr("Type"), tr("Shape"), tr("Position table")});
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->setTextElideMode(Qt::ElideMiddle); // the stack (encoder.…) and the kind (….weight) both show
    QTreeWidgetItem* preselect = nullptr;
    std::size_t preselect_rank = SIZE_MAX;
    for (const SafetensorsTensor& t : catalog.tensors) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(0, QString::fromStdString(t.name));
        item->setText(1, QString::fromStdString(t.dtype));
        item->setText(2, QString::fromStdString(t.shape_text()));
        if (const KnownPositionTensor* k = known_position_tensor(t.name)) {
            item->setText(3, tr("%1 (%2)").arg(qs(k->family), qs(k->method)));
            QFont bold = item->font(0);
            bold.setBold(true);
            for (int c = 0; c < 4; ++c)
                item->setFont(c, bold);
            // The first of known_position_tensors() order wins: a learned table, else T5's encoder table,
            // else another method's.
            const auto rank = static_cast<std::size_t>(k - known_position_tensors().data());
            if (usable(t) && rank < preselect_rank) {
                preselect = item;
                preselect_rank = rank;
            }
        }
        if (!usable(t)) {
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setToolTip(0, tr("Not a floating-point matrix: cannot be a position table"));
        }
    }
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_list->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    layout->addWidget(m_list, 1);
    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("weightsTarget"));
    // Every table a method declares (io/checkpoint_adoption.h), the ones that name themselves first.
    std::vector<TableTarget> targets = table_targets();
    std::stable_partition(targets.begin(), targets.end(),
                          [](const TableTarget& t) { return table_field(t).use_as != nullptr; });
    for (const TableTarget& t : targets) {
        const Field& f = table_field(t);
        m_target->addItem(f.use_as ? QCoreApplication::translate("TableAdoption", f.use_as)
                                   : tr("%1: %2").arg(QCoreApplication::translate(
                                                          "Method", descriptor(t.method).short_name),
                                                      QCoreApplication::translate("ParamSpec", f.label)),
                          QString::fromStdString(table_target_id(t)));
    }
    auto* form = new QFormLayout;
    form->addRow(tr("Use as:"), m_target);
    layout->addLayout(form);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, [this] {
        // A known tensor brings its use; the user may still change it.
        if (!tensor().isEmpty())
            setTarget(defaultTarget(tensor()));
        updateState();
    });
    connect(m_target, &QComboBox::currentIndexChanged, this, &WeightsDialog::updateState);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item && (item->flags() & Qt::ItemIsEnabled))
            accept();
    });
    layout->addWidget(m_buttons);
    if (preselect)
        m_list->setCurrentItem(preselect);
    updateState();
    resize(640, 420);
}

QString WeightsDialog::tensor() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    return item && item->isSelected() && (item->flags() & Qt::ItemIsEnabled) ? item->text(0) : QString();
}

void WeightsDialog::selectTensor(const QString& name)
{
    const auto found = m_list->findItems(name, Qt::MatchExactly, 0);
    if (!found.isEmpty())
        m_list->setCurrentItem(found.front());
}

QString WeightsDialog::target() const
{
    return m_target->currentData().toString();
}

void WeightsDialog::setTarget(const QString& target)
{
    const int index = m_target->findData(target);
    if (index >= 0)
        m_target->setCurrentIndex(index);
}

QString WeightsDialog::defaultTarget(const QString& tensor)
{
    return QString::fromStdString(table_target_id(default_table_target(tensor.toStdString())));
}

void WeightsDialog::updateState()
{
    const bool chosen = !tensor().isEmpty();
    const auto target = parse_table_target(this->target().toStdString());
    const Field* f = target ? &table_field(*target) : nullptr;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(chosen);
    m_buttons->button(QDialogButtonBox::Ok)
        ->setText(f && f->use_as_button ? QCoreApplication::translate("TableAdoption", f->use_as_button)
                                        : tr("Use as Method Table"));
    const QString use = m_target->currentText();
    if (!chosen)
        m_hint->setText(tr("Select a tensor of two dimensions (positions × dimensions)."));
    else if (f && f->use_as_hint)
        m_hint->setText(QCoreApplication::translate("TableAdoption", f->use_as_hint).arg(tensor()));
    else
        m_hint->setText(
            tr("%1 will be %2 instead of the seeded stand-in; the sizes the table fixes follow it "
               "(one undo step).")
                .arg(tensor(), use));
}

} // namespace posatlas::ui
