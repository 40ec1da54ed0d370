// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/weights_dialog.h"

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
    return t.shape.size() == 2 &&
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
            // The first of known_position_tensors() order wins: a learned table, else T5's encoder table.
            const auto rank = static_cast<std::size_t>(k - known_position_tensors().data());
            if ((k->method == "learned" || k->method == "t5") && usable(t) && rank < preselect_rank) {
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
    m_target->addItem(tr("Learned position table (positions × dimensions)"), QStringLiteral("learned"));
    m_target->addItem(tr("T5 bias table (buckets × heads)"), QStringLiteral("t5"));
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields)
            if (f.table_shape)
                m_target->addItem(tr("%1: %2").arg(QCoreApplication::translate("Method", d.short_name),
                                                   QCoreApplication::translate("ParamSpec", f.label)),
                                  tableTarget(d.method.id(), f.key));
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
    else // a checkpoint without a learned or T5 table: its first known tensor of another method
        for (int i = 0; i < m_list->topLevelItemCount(); ++i)
            if (QTreeWidgetItem* item = m_list->topLevelItem(i);
                known_position_tensor(item->text(0).toStdString()) && (item->flags() & Qt::ItemIsEnabled)) {
                m_list->setCurrentItem(item);
                break;
            }
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
    const KnownPositionTensor* known = known_position_tensor(tensor.toStdString());
    if (!known || known->method == "learned")
        return QStringLiteral("learned");
    if (known->method == "t5")
        return QStringLiteral("t5");
    // A known table of another method: its first table field (DeBERTa: rel_embeddings).
    if (const auto method = parse_method(known->method))
        for (const Field& f : descriptor(*method).fields)
            if (f.table_shape)
                return tableTarget(method->id(), f.key);
    return QStringLiteral("learned");
}

QString WeightsDialog::tableTarget(std::string_view method, const std::string& field)
{
    return qs(method) + QLatin1Char('/') + QString::fromStdString(field);
}

void WeightsDialog::updateState()
{
    const bool chosen = !tensor().isEmpty();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(chosen);
    m_buttons->button(QDialogButtonBox::Ok)
        ->setText(target() == QLatin1String("t5")        ? tr("Use as T5 Bias Table")
                  : target() == QLatin1String("learned") ? tr("Use as Learned Table")
                                                         : tr("Use as Method Table"));
    const QString use = m_target->currentText();
    if (!chosen)
        m_hint->setText(tr("Select a tensor of two dimensions (positions × dimensions)."));
    else if (target() == QLatin1String("t5"))
        m_hint->setText(
            tr("The T5 method will show %1 instead of its seeded stand-in; its bucket and head counts "
               "follow the table (one undo step).")
                .arg(tensor()));
    else if (target() == QLatin1String("learned"))
        m_hint->setText(tr("The learned method will show %1 instead of its seeded stand-in (one undo step).")
                            .arg(tensor()));
    else
        m_hint->setText(
            tr("%1 will be %2 instead of the seeded stand-in; the sizes the table fixes follow it "
               "(one undo step).")
                .arg(tensor(), use));
}

} // namespace posatlas::ui
