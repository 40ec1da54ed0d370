// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/autosave.h"

#include "io/safe_write.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QTimer>

#include <filesystem>
#include <system_error>

namespace posatlas::ui {

namespace {
constexpr qint64 kMaxAutosaveBytes = 64 * 1024 * 1024; // the session reader's limit

// Why nothing can be written in `dir`: the system's message for a small file created, written and
// flushed there ("No space left on device", "Permission denied"), or "" when that works.
QString writeProblem(const QString& dir)
{
    QTemporaryFile probe(QDir(dir).filePath(QStringLiteral(".autosave-probe-XXXXXX")));
    if (!probe.open())
        return probe.errorString();
    const QByteArray block(4096, '\0');
    if (probe.write(block) != block.size() || !probe.flush())
        return probe.errorString();
    return {};
}

} // namespace

Autosave::Autosave(Snapshot snapshot, QObject* parent)
    : QObject(parent), m_snapshot(std::move(snapshot)), m_debounce(new QTimer(this)),
      m_periodic(new QTimer(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(2000);
    m_periodic->setInterval(30000);
    connect(m_debounce, &QTimer::timeout, this, [this] { saveNow(); });
    // Catches changes that no signal reports (a dock moved, a rotation position typed): the file is
    // only rewritten when the snapshot differs.
    connect(m_periodic, &QTimer::timeout, this, [this] { saveNow(); });
}

Autosave::~Autosave() = default;

QString Autosave::defaultDirectory()
{
    const QString env = qEnvironmentVariable("POSATLAS_STATE_DIR");
    if (!env.isEmpty())
        return env;
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
}

QString Autosave::filePath() const
{
    return m_dir.isEmpty() ? QString() : QDir(m_dir).filePath(QLatin1String(kFileName));
}

void Autosave::setProblem(Problem problem, const QString& message)
{
    if (problem == m_problem && message == m_error)
        return;
    m_problem = problem;
    m_error = message;
    emit problemChanged();
}

bool Autosave::start(const QString& directory)
{
    finish();
    const QString shown = QDir::toNativeSeparators(directory);
    std::error_code made;
    if (!directory.isEmpty())
        std::filesystem::create_directories(QFile::encodeName(directory).toStdString(), made);
    if (directory.isEmpty() || made || !QFileInfo(directory).isDir()) {
        const QString reason = made ? QString::fromLocal8Bit(made.message()) : tr("not a folder");
        setProblem(Problem::CannotWrite, tr("cannot create the folder %1: %2").arg(shown, reason));
        return false;
    }
    const QString lockPath = QDir(directory).filePath(QStringLiteral("autosave.lock"));
    auto lock = std::make_unique<QLockFile>(lockPath);
    lock->setStaleLockTime(0); // stale only when its process is gone, never because it is old
    bool locked = lock->tryLock(0);
    qint64 pid = 0;
    QString host, app;
    if (!locked && lock->error() == QLockFile::LockFailedError && !lock->getLockInfo(&pid, &host, &app) &&
        QFileInfo(lockPath).lastModified().secsTo(QDateTime::currentDateTime()) > 5) {
        // A lock that names no process (empty or garbled: written on a full disk) cannot be anyone's.
        QFile::remove(lockPath);
        locked = lock->tryLock(0);
    }
    if (!locked) {
        if (lock->error() == QLockFile::LockFailedError) {
            const QString owner = lock->getLockInfo(&pid, &host, &app) ? QString::number(pid) : tr("unknown");
            setProblem(Problem::OtherInstance,
                       tr("another PosAtlas (process %1) is running and autosaving to %2; the work in this "
                          "window is not autosaved (Retry once it has closed)")
                           .arg(owner, shown));
        } else {
            // A full disk or a read-only folder: QLockFile says only that it failed, the system says why.
            QString reason = writeProblem(directory);
            if (reason.isEmpty())
                reason = lock->error() == QLockFile::PermissionError
                             ? tr("permission denied")
                             : tr("the lock file could not be written");
            setProblem(Problem::CannotWrite,
                       tr("cannot write to %1: %2").arg(QDir::toNativeSeparators(lockPath), reason));
        }
        return false;
    }
    m_lock = std::move(lock);
    m_dir = directory;
    setProblem(Problem::None, {});
    m_recoverable.reset();
    QFile previous(filePath());
    if (previous.exists() && previous.size() <= kMaxAutosaveBytes && previous.open(QIODevice::ReadOnly)) {
        const QByteArray bytes = previous.readAll();
        if (!bytes.isEmpty())
            m_recoverable = bytes;
    }
    if (!m_recoverable)
        m_lastWritten = m_snapshot(); // the state at start is nothing to recover
    m_periodic->start();
    return true;
}

QString Autosave::backupPath(const QString& path)
{
    QString candidate = path + QStringLiteral(".bak");
    for (int n = 2; QFileInfo::exists(candidate) || QFileInfo(candidate).isSymLink(); ++n)
        candidate = path + QStringLiteral(".%1.bak").arg(n);
    return candidate;
}

QString Autosave::setRecoverableAside()
{
    if (!m_recoverable)
        return {};
    const QString target = backupPath(filePath());
    if (!QFile::rename(filePath(), target))
        return {};
    m_recoverable.reset();
    m_lastWritten = m_snapshot();
    markDirty();
    return target;
}

QString Autosave::copyRecoverable() const
{
    if (!m_recoverable)
        return {};
    const QString target = backupPath(filePath());
    return QFile::copy(filePath(), target) ? target : QString();
}

void Autosave::discardRecoverable()
{
    if (!m_recoverable)
        return;
    m_recoverable.reset();
    QFile::remove(filePath());
    m_lastWritten = m_snapshot();
    markDirty();
}

void Autosave::acceptRecoverable()
{
    if (!m_recoverable)
        return;
    m_recoverable.reset();
    // The restored state is written again on the next change; until then the old file stays, so a
    // second crash before any edit still finds it.
    m_lastWritten = m_snapshot();
}

void Autosave::setDelay(int ms)
{
    m_debounce->setInterval(ms);
}

void Autosave::setPeriod(int ms)
{
    m_periodic->setInterval(ms);
}

void Autosave::markDirty()
{
    if (active())
        m_debounce->start();
}

void Autosave::markUnsaved()
{
    if (!active() || m_recoverable)
        return;
    m_lastWritten.clear();
    m_debounce->start();
}

bool Autosave::saveNow()
{
    // While a recovery is on offer the old file is the user's work: never overwrite it.
    if (!active() || m_recoverable)
        return true;
    const QByteArray bytes = m_snapshot();
    if (bytes == m_lastWritten)
        return true;
    // The program's own file: a symlink at its name is replaced, never followed (io/safe_write.h).
    try {
        posatlas::write_file_atomically(
            QFile::encodeName(filePath()).toStdString(),
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
            SafeWriteOptions{false});
    } catch (const OutputFileError& e) {
        const QString message =
            tr("Autosave to %1 failed: %2")
                .arg(QDir::toNativeSeparators(filePath()), QString::fromLocal8Bit(e.reason().c_str()));
        if (message != m_error) // once per distinct problem, not every two seconds
            emit saveFailed(message);
        setProblem(Problem::SaveFailed, message);
        return false;
    }
    setProblem(Problem::None, {});
    m_lastWritten = bytes;
    ++m_writes;
    return true;
}

void Autosave::finish()
{
    m_debounce->stop();
    m_periodic->stop();
    if (m_lock) {
        if (!m_recoverable) // an unanswered recovery offer keeps the old work for the next start
            QFile::remove(filePath());
        m_lock->unlock();
        m_lock.reset();
    }
    m_recoverable.reset();
    m_lastWritten.clear();
}

} // namespace posatlas::ui
