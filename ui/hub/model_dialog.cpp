// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/model_dialog.h"

#include "hub/hub_download.h"
#include "jobs/job_tracker.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace posatlas::ui {

namespace {

constexpr int kDownloadSlot = 0;

} // namespace

ModelDialog::ModelDialog(QWidget* parent) : QDialog(parent), m_root(hf_cache_root().path)
{
    setWindowTitle(tr("Open Model"));
    auto* layout = new QVBoxLayout(this);
    auto* where = new QLabel(
        tr("Models in the Hugging Face cache %1").arg(QString::fromStdString(m_root.string())), this);
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(where);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("cachedModelList"));
    layout->addWidget(m_list, 1);

    auto* row = new QHBoxLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("downloadModelName"));
    m_name->setPlaceholderText(tr("org/name or org/name@revision, e.g. openai-community/gpt2"));
    m_download = new QPushButton(tr("Download…"), this);
    m_download->setToolTip(tr("Fetch the model's config.json and only its position tensors from the Hub "
                              "($HF_ENDPOINT, token $HF_TOKEN) into the cache"));
    m_cancel = new QPushButton(tr("Cancel Download"), this);
    m_cancel->setObjectName(QStringLiteral("cancelDownload"));
    row->addWidget(m_name, 1);
    row->addWidget(m_download);
    row->addWidget(m_cancel);
    layout->addLayout(row);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("downloadProgress"));
    m_progress->setTextVisible(true);
    // Shown while a download runs (updateState): an idle, empty bar read as an empty text field.
    m_progress->hide();
    layout->addWidget(m_progress);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &ModelDialog::updateState);
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this] {
        if (!selectedModel().isEmpty())
            accept();
    });
    connect(m_name, &QLineEdit::textChanged, this, &ModelDialog::updateState);
    connect(m_name, &QLineEdit::returnPressed, this, [this] { startDownload(m_name->text()); });
    connect(m_download, &QPushButton::clicked, this, [this] { startDownload(m_name->text()); });
    connect(m_cancel, &QPushButton::clicked, this, &ModelDialog::cancelDownload);
    m_jobs = new JobTracker(this);
    connect(m_jobs, &JobTracker::progressChanged, this, [this](int, int percent) {
        m_progress->setRange(0, 100);
        m_progress->setValue(percent);
    });
    connect(m_jobs, &JobTracker::jobFailed, this,
            [this](int, const QString& message) { finishDownload(message); });
    refresh();
    resize(620, 420);
}

ModelDialog::~ModelDialog()
{
    // The download polls its cancel predicate; wait so that it never reports to a deleted dialog.
    m_jobs->cancel(kDownloadSlot);
    m_jobs->waitForWorkers(-1);
}

void ModelDialog::refresh()
{
    const QString keep = selectedModel();
    m_list->clear();
    for (const HfCachedModel& m : list_hf_cache(m_root))
        for (const HfSnapshot& s : m.snapshots) {
            QStringList files;
            if (s.has_config)
                files << QStringLiteral("config.json");
            if (s.has_index)
                files << QStringLiteral("model.safetensors.index.json");
            for (const std::string& f : s.safetensors)
                files << QString::fromStdString(f);
            if (s.has_positions)
                files << tr("position tensors");
            QStringList refs;
            for (const auto& [ref, commit] : m.refs)
                if (commit == s.commit)
                    refs << QString::fromStdString(ref);
            const QString id = QString::fromStdString(m.repo_id);
            auto* item = new QListWidgetItem(
                tr("%1 · %2 · %3")
                    .arg(refs.isEmpty() ? id : id + QLatin1Char('@') + refs.join(QLatin1Char(',')),
                         QString::fromStdString(s.commit).left(12), files.join(QStringLiteral(", "))),
                m_list);
            item->setData(Qt::UserRole, id + QLatin1Char('@') + QString::fromStdString(s.commit));
            if (!s.has_config) {
                item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
                item->setToolTip(tr("No config.json in this snapshot"));
            }
            if (item->data(Qt::UserRole).toString() == keep)
                m_list->setCurrentItem(item);
        }
    if (m_list->count() == 0)
        m_status->setText(tr("No models cached yet: type a model's name and press Download…"));
    updateState();
}

QString ModelDialog::selectedModel() const
{
    const QListWidgetItem* item = m_list->currentItem();
    return item && item->isSelected() && (item->flags() & Qt::ItemIsEnabled)
               ? item->data(Qt::UserRole).toString()
               : QString();
}

bool ModelDialog::startDownload(const QString& text)
{
    HfModelRef ref;
    try {
        ref = parse_hf_model_ref(text.trimmed().toStdString());
    } catch (const HfCacheError& e) {
        m_status->setText(QString::fromUtf8(e.what()));
        return false;
    }
    HubDownloadRequest request = hub_request_from_environment(ref);
    request.cache_root = m_root;
    m_pending = QString::fromStdString(ref.repo_id);
    m_progress->setRange(0, 0);
    m_progress->setFormat(QString());
    m_status->setText(tr("Downloading %1 from %2…").arg(m_pending, QString::fromStdString(request.endpoint)));
    QPointer<ModelDialog> self(this);
    // The tracker turns the bytes into the bar's percentage; the file being fetched names the bar.
    const auto work = [request, self](const JobControl& control) -> QString {
        const auto progress = [&control, self](std::int64_t done, std::int64_t total,
                                               const std::string& what) {
            if (control.cancel())
                return;
            if (total > 0)
                control.progress(static_cast<double>(done) / static_cast<double>(total));
            QMetaObject::invokeMethod(
                self.data(),
                [self, what] {
                    if (self && self->downloading())
                        self->m_progress->setFormat(QString::fromStdString(what) + QStringLiteral(" %p%"));
                },
                Qt::QueuedConnection);
        };
        try {
            download_hub_model(request, progress, control.cancel);
        } catch (const std::exception& e) {
            if (control.cancel())
                throw Cancelled(); // superseded or cancelled: nobody wants this result
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    m_jobs->submit(kDownloadSlot, work, [this](QString error) { finishDownload(error); });
    updateState();
    return true;
}

bool ModelDialog::downloading() const
{
    return m_jobs->busy(kDownloadSlot);
}

void ModelDialog::cancelDownload()
{
    if (!downloading())
        return;
    m_jobs->cancel(kDownloadSlot);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());
    m_status->setText(tr("Download of %1 cancelled.").arg(m_pending));
    updateState();
    // As a finished download reports: after the caller's call has returned.
    QTimer::singleShot(0, this, [this] { emit downloadFinished(false); });
}

QString ModelDialog::statusText() const
{
    return m_status->text();
}

void ModelDialog::finishDownload(const QString& error)
{
    m_progress->setRange(0, 1);
    m_progress->setValue(error.isEmpty() ? 1 : 0);
    m_progress->setFormat(QString());
    refresh();
    if (error.isEmpty()) {
        m_status->setText(tr("Downloaded %1.").arg(m_pending));
        for (int i = 0; i < m_list->count(); ++i)
            if (m_list->item(i)->data(Qt::UserRole).toString().startsWith(m_pending + QLatin1Char('@')))
                m_list->setCurrentRow(i);
    } else {
        m_status->setText(tr("Download failed: %1").arg(error));
    }
    updateState();
    emit downloadFinished(error.isEmpty());
}

void ModelDialog::updateState()
{
    const bool busy = downloading();
    // Enabled while a download runs: a new name supersedes it.
    m_download->setEnabled(!m_name->text().trimmed().isEmpty());
    m_cancel->setEnabled(busy);
    m_progress->setVisible(busy);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(!selectedModel().isEmpty());
}

} // namespace posatlas::ui
