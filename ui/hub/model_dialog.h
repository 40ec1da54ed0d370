// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File > Open Model…: the models of the local Hugging Face cache (io/hf_cache.h), one line per snapshot
// with its files, and a Download… row for an ORG/NAME[@REV] the user types: the download
// (hub/hub_download.h) runs as a job of the dialog's JobTracker (jobs/job_tracker.h), like every other
// computation: on a worker thread, with progress and Cancel, and a newer request wins (the download it
// supersedes is cancelled and its result dropped). When it ends the list is read again and the new model
// selected.

#include "io/hf_cache.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace posatlas::ui {

class JobTracker;

class ModelDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ModelDialog(QWidget* parent = nullptr);
    ~ModelDialog() override;

    // The selected snapshot as ORG/NAME@COMMIT, empty when none.
    QString selectedModel() const;
    // Reads the cache again (after a download, or when another tool changed it).
    void refresh();
    // Starts downloading `text` (ORG/NAME[@REV]); false (and a message in the dialog) when it is not a name.
    // A download still running is superseded: cancelled, and only the new one reports.
    bool startDownload(const QString& text);
    bool downloading() const;
    // Cancels the running download; downloadFinished(false) follows on the next pass of the event loop.
    void cancelDownload();
    QString statusText() const;
    QListWidget* modelList() const { return m_list; }
    JobTracker* jobs() const { return m_jobs; }

signals:
    void downloadFinished(bool ok);

private:
    void updateState();
    void finishDownload(const QString& error);

    std::filesystem::path m_root;
    QListWidget* m_list = nullptr;
    QLineEdit* m_name = nullptr;
    QPushButton* m_download = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    JobTracker* m_jobs = nullptr; // the download's job: its result is "" on success, else the message
    QString m_pending;            // ORG/NAME of the newest download
};

} // namespace posatlas::ui
