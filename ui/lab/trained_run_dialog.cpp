// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/trained_run_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace posatlas::ui {

TrainedRunDialog::TrainedRunDialog(QWidget* parent) : QDialog(parent), m_probe(new TrainedRunProbe(this))
{
    setWindowTitle(tr("Open Trained Run"));
    auto* v = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("A trained model of the lab on one example input of any length: the heatmap "
                                "shows its own attention logits and weights, past the length it was trained "
                                "at too."),
                             this);
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto* form = new QFormLayout;
    auto* runRow = new QHBoxLayout;
    m_run = new QComboBox(this);
    m_run->setObjectName(QStringLiteral("trainedRunCombo"));
    m_run->setMinimumContentsLength(24);
    const QList<ShippedRunEntry> shipped = shipped_run_entries();
    for (const ShippedRunEntry& e : shipped)
        m_run->addItem(tr("Shipped runs: %1").arg(e.label), e.dir);
    runRow->addWidget(m_run, 1);
    auto* browseButton = new QPushButton(tr("&Browse…"), this);
    runRow->addWidget(browseButton);
    auto* runLabel = new QLabel(tr("&Run"), this); // a row of two widgets: the label needs its buddy
    runLabel->setBuddy(m_run);
    form->addRow(runLabel, runRow);
    m_runInfo = new QLabel(this);
    m_runInfo->setWordWrap(true);
    form->addRow(QString(), m_runInfo);
    m_length = new QSpinBox(this);
    m_length->setRange(2, 1 << 20);
    m_length->setSuffix(tr(" tokens"));
    m_length->setToolTip(tr("Tokens of the example: one test sequence of the run's task. Past the trained "
                            "length is the point."));
    form->addRow(tr("Example &length"), m_length);
    m_layer = new QSpinBox(this);
    form->addRow(tr("La&yer"), m_layer);
    m_head = new QSpinBox(this);
    form->addRow(tr("&Head"), m_head);
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 2147483647);
    m_seed->setValue(1000003);
    m_seed->setToolTip(tr("Seed of the example input (lab eval's test seed by default)."));
    form->addRow(tr("&Seed of the example"), m_seed);
    v->addLayout(form);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0); // busy: posatlas-lab reports no steps for a probe
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    v->addWidget(m_progress);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_status);
    auto* buttons = new QDialogButtonBox(this);
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    m_open->setDefault(true);
    m_cancel = buttons->addButton(tr("&Cancel"), QDialogButtonBox::ActionRole);
    m_cancel->setEnabled(false);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    v->addWidget(buttons);

    connect(m_open, &QPushButton::clicked, this, [this] { openRun(); });
    connect(m_cancel, &QPushButton::clicked, this, &TrainedRunDialog::cancelProbe);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);
    connect(browseButton, &QPushButton::clicked, this, &TrainedRunDialog::browse);
    connect(m_run, &QComboBox::currentIndexChanged, this, &TrainedRunDialog::onRunChanged);
    connect(m_layer, &QSpinBox::valueChanged, this, &TrainedRunDialog::onHeadOrLayerChanged);
    connect(m_head, &QSpinBox::valueChanged, this, &TrainedRunDialog::onHeadOrLayerChanged);

    connect(m_probe, &TrainedRunProbe::started, this, [this](const TrainedRunRequest& r) {
        setBusy(true);
        showStatus(tr("Running the model on %1 tokens, layer %2…").arg(r.length).arg(r.layer));
    });
    connect(
        m_probe, &TrainedRunProbe::ready, this, [this](const TrainedRunRequest& r, const QString& folder) {
            setBusy(false);
            m_opened = true;
            showStatus(tr("Opened: layer %1, head %2, %3 tokens.").arg(r.layer).arg(r.head).arg(r.length));
            emit opened(r, folder);
        });
    connect(m_probe, &TrainedRunProbe::failed, this,
            [this](const TrainedRunRequest&, const QString& message) {
                setBusy(false);
                refuse(message);
            });
    connect(m_probe, &TrainedRunProbe::cancelled, this, [this](const TrainedRunRequest&) {
        setBusy(m_probe->running()); // a newer request may be running already
        if (!m_probe->running())
            showStatus(tr("Cancelled; the main window is unchanged."));
    });

    onRunChanged();
}

QString TrainedRunDialog::run() const
{
    return m_run->currentData().toString();
}

TrainedRunRequest TrainedRunDialog::currentRequest() const
{
    TrainedRunRequest r;
    r.run = run();
    r.length = m_length->value();
    r.layer = m_layer->value();
    r.head = m_head->value();
    r.seed = static_cast<std::uint64_t>(m_seed->value());
    return r;
}

void TrainedRunDialog::setRun(const QString& dir)
{
    const QString path = QFileInfo(dir).absoluteFilePath();
    int index = -1;
    for (int i = 0; i < m_run->count(); ++i)
        if (!m_run->itemData(i).toString().isEmpty() &&
            QFileInfo(m_run->itemData(i).toString()).absoluteFilePath() == path)
            index = i;
    if (index < 0) {
        m_run->addItem(QDir::toNativeSeparators(path), path);
        index = m_run->count() - 1;
    }
    if (index == m_run->currentIndex())
        onRunChanged();
    else
        m_run->setCurrentIndex(index);
}

void TrainedRunDialog::onRunChanged()
{
    m_opened = false;
    const QString dir = run();
    m_runInfo->clear();
    if (dir.isEmpty())
        return;
    try {
        const lab::RunInfo info = lab::read_run_config(dir.toStdString());
        const lab::LabConfig& c = info.config;
        m_filling = true;
        m_layer->setRange(0, c.layers - 1);
        m_layer->setValue(0);
        m_head->setRange(0, c.heads - 1);
        m_head->setValue(0);
        std::int64_t length = 4 * c.train_len;
        if (c.method == "learned")
            length = std::min(length, c.learned_rows());
        length = std::min<std::int64_t>(length, lab::probe_max_length(c.heads));
        m_length->setValue(static_cast<int>(length));
        m_filling = false;
        const std::int64_t longest = c.method == "learned"
                                         ? std::min(c.learned_rows(), lab::probe_max_length(c.heads))
                                         : lab::probe_max_length(c.heads);
        m_runInfo->setText(tr("%1: trained at length %2; %3 layers, %4 heads, %5 steps. Examples up to %6 "
                              "tokens.")
                               .arg(trained_run_label(c))
                               .arg(c.train_len)
                               .arg(c.layers)
                               .arg(c.heads)
                               .arg(info.steps_done)
                               .arg(longest));
        m_runInfo->setToolTip(QDir::toNativeSeparators(dir));
    } catch (const std::exception& e) {
        m_filling = false;
        m_runInfo->setText(QString::fromUtf8(e.what()));
    }
}

void TrainedRunDialog::onHeadOrLayerChanged()
{
    // Once a request of this run is open, another head or layer follows without pressing Open: a head of a
    // probed layer is in the cache and opens at once.
    if (m_filling || !m_opened)
        return;
    openRun();
}

void TrainedRunDialog::browse()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a run folder"), run());
    if (!dir.isEmpty())
        setRun(dir);
}

bool TrainedRunDialog::openRun()
{
    QString error;
    if (!m_probe->request(currentRequest(), &error)) {
        refuse(error);
        return false;
    }
    return true;
}

void TrainedRunDialog::cancelProbe()
{
    m_probe->cancel();
}

void TrainedRunDialog::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancel->setEnabled(busy);
}

void TrainedRunDialog::refuse(const QString& message)
{
    showStatus(message);
    // Window-modal and opened without a nested event loop: never blocks the caller.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open the trained run"), message,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("trainedRunRefusal"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->show();
}

void TrainedRunDialog::showStatus(const QString& message)
{
    m_status->setText(message);
}

QString TrainedRunDialog::statusText() const
{
    return m_status->text();
}

} // namespace posatlas::ui
