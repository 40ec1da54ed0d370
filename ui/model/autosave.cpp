// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/autosave.h"

#include "io/safe_write.h"

#include <QDir>
#include <QFile>
#include <QLockFile>
#include <QStandardPaths>
#include <QTimer>

namespace posatlas::ui {

namespace {
constexpr qint64 kMaxAutosaveBytes = 64 * 1024 * 1024; // the session reader's limit
}

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

bool Autosave::start(const QString& directory)
{
    finish();
    if (directory.isEmpty() || !QDir().mkpath(directory)) {
        m_error = tr("cannot create the folder %1").arg(QDir::toNativeSeparators(directory));
        return false;
    }
    auto lock = std::make_unique<QLockFile>(QDir(directory).filePath(QStringLiteral("autosave.lock")));
    lock->setStaleLockTime(0); // stale only when its process is gone, never because it is old
    if (!lock->tryLock(0)) {
        m_error =
            tr("another PosAtlas is running and autosaving to %1").arg(QDir::toNativeSeparators(directory));
        return false;
    }
    m_lock = std::move(lock);
    m_dir = directory;
    m_error.clear();
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
        m_error = message;
        return false;
    }
    m_error.clear();
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
