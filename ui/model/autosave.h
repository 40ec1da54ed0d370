// SPDX-License-Identifier: GPL-3.0-or-later
// Autosave and crash recovery: the window's state (a session, see session.h: scenario, view settings,
// the view in front, the explorer) is written to the user's state folder a short delay after every
// change and checked periodically, atomically (io/safe_write.h). A clean close removes the file; a file
// found at the next start therefore means the previous run ended without one (a crash, kill -9), and
// the window offers to restore it.
//
// A QLockFile beside the autosave keeps two running instances from overwriting each other's file:
// the second instance neither autosaves nor offers a recovery. A lock left behind by a crashed process
// is recognised as stale by its process id, never by its age. A lock that cannot be taken for another
// reason (a full disk, a folder without write permission) is reported with the system's own words, not
// as another instance.
//
// An autosave is never deleted unless the user restored or discarded it: one that cannot be read is
// moved aside (setRecoverableAside()), one restored only in part is copied aside (copyRecoverable()).
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
    // written to, or another running instance holds the lock (autosave then stays off; problem() and
    // errorString() say which). Reads any autosave left by a previous run first (recoverable()).
    bool start(const QString& directory);
    enum class Problem {
        None,
        OtherInstance, // a live process holds the lock (its id in errorString())
        CannotWrite,   // the folder cannot be created or written to (the system's reason in errorString())
        SaveFailed,    // active, but the last write failed (errorString())
    };
    Problem problem() const { return m_problem; }
    bool active() const { return m_lock != nullptr; }
    QString directory() const { return m_dir; }
    QString filePath() const;

    // The content of an autosave that a previous run left behind (it ended without a clean close).
    std::optional<QByteArray> recoverable() const { return m_recoverable; }
    // The user answered the recovery offer: the autosave is forgotten (discard) or becomes the
    // current file (restored; its bytes count as written).
    void discardRecoverable();
    void acceptRecoverable();
    // The recoverable autosave cannot be read: it is renamed to a free "autosave.posatlas.json.bak"
    // (".2.bak", ... when taken) and forgotten. Returns the new path, or "" when it could not be moved
    // (it then stays recoverable, so that nothing overwrites it).
    QString setRecoverableAside();
    // A copy of the recoverable autosave under a free .bak name (the file stays): the path, or "".
    QString copyRecoverable() const;
    // A free "PATH.bak", else "PATH.2.bak", "PATH.3.bak", ...
    static QString backupPath(const QString& path);

    // Debounce delay after a change (default 2 s) and the periodic check (default 30 s).
    void setDelay(int ms);
    void setPeriod(int ms);
    // Something changed: save after the delay (restarted by further changes).
    void markDirty();
    // Work was done while autosave was off (another instance held it): the state now is not a baseline
    // but unsaved work, written after the delay even though start() took it as the state at start.
    void markUnsaved();
    // Writes now when the snapshot differs from the last file written. False, with errorString(),
    // when the file could not be written (the previous autosave, if any, is left intact).
    bool saveNow();
    QString errorString() const { return m_error; }
    int writeCount() const { return m_writes; }
    // Clean close: stops the timers, removes the autosave and releases the lock.
    void finish();

signals:
    void saveFailed(const QString& message);
    // problem() or errorString() changed (a failure, or its end).
    void problemChanged();

private:
    Snapshot m_snapshot;
    QString m_dir;
    std::unique_ptr<QLockFile> m_lock;
    QTimer* m_debounce;
    QTimer* m_periodic;
    QByteArray m_lastWritten;
    std::optional<QByteArray> m_recoverable;
    void setProblem(Problem problem, const QString& message);

    QString m_error;
    Problem m_problem = Problem::None;
    int m_writes = 0;
};

} // namespace posatlas::ui
