// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File > Open Model…: the models of the local Hugging Face cache (io/hf_cache.h), one line per snapshot
// with its files, and a Download… row for an ORG/NAME[@REV] the user types: the download
// (hub/hub_download.h) runs on a worker thread with progress and Cancel; when it ends the list is read
// again and the new model selected.

#include "io/hf_cache.h"

#include <QDialog>
#include <QFutureWatcher>

#include <atomic>
#include <memory>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace posatlas::ui {

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
    bool startDownload(const QString& text);
    bool downloading() const;
    void cancelDownload();
    QString statusText() const;
    QListWidget* modelList() const { return m_list; }

signals:
    void downloadFinished(bool ok);

private:
    void updateState();
    void finishDownload();

    std::filesystem::path m_root;
    QListWidget* m_list = nullptr;
    QLineEdit* m_name = nullptr;
    QPushButton* m_download = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QFutureWatcher<QString>* m_watcher = nullptr; // the result: "" on success, else the message
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QString m_pending; // ORG/NAME of the running download
};

} // namespace posatlas::ui
