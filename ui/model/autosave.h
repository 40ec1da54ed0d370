// SPDX-License-Identifier: GPL-3.0-or-later
// Autosave and crash recovery: the window's state (a session, see session.h: scenario, view settings,
// the view in front, the explorer) is written to the user's state folder a short delay after every
// change and checked periodically, atomically (io/safe_write.h). A clean close removes the file; a file
// found at the next start therefore means the previous run ended without one (a crash, kill -9), and
// the window offers to restore it.
//
// A QLockFile beside the autosave keeps two running instances from overwriting each other's file:
// the second instance neither autosaves nor offers a recovery. A lock left behind by a crashed process
// is recognised as stale by its process id, never by its age.
//
// The folder: POSATLAS_STATE_DIR when set, else QStandardPaths::AppLocalDataLocation.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QLockFile;
class QTimer;

namespace posatlas::ui {

class Autosave : public QObject
{
    Q_OBJECT
public:
    // The bytes to write (a session as JSON), asked for on every save.
    using Snapshot = std::function<QByteArray()>;

    explicit Autosave(Snapshot snapshot, QObject* parent = nullptr);
    ~Autosave() override;

    // POSATLAS_STATE_DIR when set, else the platform's application data folder.
    static QString defaultDirectory();
    static constexpr const char* kFileName = "autosave.posatlas.json";

    // Takes the folder (created if needed) and its lock; false when the folder cannot be made or
    // another running instance holds the lock (autosave then stays off). Reads any autosave left by a
    // previous run first (recoverable()).
    bool start(const QString& directory);
    bool active() const { return m_lock != nullptr; }
    QString directory() const { return m_dir; }
    QString filePath() const;

    // The content of an autosave that a previous run left behind (it ended without a clean close).
    std::optional<QByteArray> recoverable() const { return m_recoverable; }
    // The user answered the recovery offer: the autosave is forgotten (discard) or becomes the
    // current file (restored; its bytes count as written).
    void discardRecoverable();
    void acceptRecoverable();

    // Debounce delay after a change (default 2 s) and the periodic check (default 30 s).
    void setDelay(int ms);
    void setPeriod(int ms);
    // Something changed: save after the delay (restarted by further changes).
    void markDirty();
    // Writes now when the snapshot differs from the last file written. False, with errorString(),
    // when the file could not be written (the previous autosave, if any, is left intact).
    bool saveNow();
    QString errorString() const { return m_error; }
    int writeCount() const { return m_writes; }
    // Clean close: stops the timers, removes the autosave and releases the lock.
    void finish();

signals:
    void saveFailed(const QString& message);

private:
    Snapshot m_snapshot;
    QString m_dir;
    std::unique_ptr<QLockFile> m_lock;
    QTimer* m_debounce;
    QTimer* m_periodic;
    QByteArray m_lastWritten;
    std::optional<QByteArray> m_recoverable;
    QString m_error;
    int m_writes = 0;
};

} // namespace posatlas::ui
