// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/hub_cache_writer.h"

#include <QRandomGenerator>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace posatlas {

namespace fs = std::filesystem;

namespace {

// `doing` is a C string so that evaluating the arguments allocates nothing that could change errno.
[[noreturn]] void storage_error(const fs::path& path, const char* doing, int err)
{
    throw HubError(HubError::Kind::Storage, path.string() + ": cannot " + doing + " in the cache (" +
                                                std::strerror(err) + "); the cache was left as it was");
}

// Reads at most `max` bytes of `path` (following symlinks) into `out`; returns 0 or the errno.
int read_file(const fs::path& path, qsizetype max, QByteArray& out)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    out.clear();
    char chunk[65536];
    while (out.size() < max) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return err;
        }
        if (n == 0)
            break;
        out.append(chunk, static_cast<qsizetype>(n));
    }
    ::close(fd);
    return 0;
}

// True when `path` holds exactly `bytes` (read one byte more, so a longer file is not equal).
bool holds(const fs::path& path, const QByteArray& bytes, int& err)
{
    QByteArray content;
    err = read_file(path, bytes.size() + 1, content);
    return err == 0 && content == bytes;
}

// A name for a temporary file next to `target`, unique with a 64-bit random part.
fs::path temp_name(const fs::path& target)
{
    const quint64 r = QRandomGenerator::global()->generate64();
    return target.parent_path() /
           (target.filename().string() + "." + QByteArray::number(r, 16).toStdString() + ".incomplete");
}

} // namespace

HubCacheWriter::~HubCacheWriter()
{
    if (!m_committed)
        rollback();
}

void HubCacheWriter::make_folders(const fs::path& folder)
{
    fs::path at;
    for (const fs::path& part : folder) {
        at /= part;
        struct stat st {
        };
        if (::stat(at.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                storage_error(at, "create a folder", ENOTDIR);
            continue;
        }
        if (errno != ENOENT)
            storage_error(at, "create a folder", errno);
        if (::mkdir(at.c_str(), 0777) != 0) {
            if (errno != EEXIST)
                storage_error(at, "create a folder", errno);
            continue;
        }
        m_folders.push_back(at);
    }
}

int HubCacheWriter::open(const fs::path& target)
{
    make_folders(target.parent_path());
    for (int attempt = 0; attempt < 16; ++attempt) {
        const fs::path path = temp_name(target);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            m_temps.push_back({path, target, fd});
            return static_cast<int>(m_temps.size()) - 1;
        }
        if (errno != EEXIST)
            storage_error(target, "create a file", errno);
    }
    storage_error(target, "create a file", EEXIST);
}

void HubCacheWriter::write(int file, const char* data, std::size_t size)
{
    Temp& t = m_temps.at(static_cast<std::size_t>(file));
    while (size > 0) {
        const ssize_t n = ::write(t.fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            storage_error(t.target, "write", errno);
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

namespace {

// Syncs and closes a temporary file.
void close_temp(int& fd, const fs::path& target)
{
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        fd = -1;
        storage_error(target, "write", err);
    }
    const int rc = ::close(fd);
    fd = -1;
    if (rc != 0)
        storage_error(target, "write", errno);
}

} // namespace

void HubCacheWriter::finish(int file)
{
    Temp& t = m_temps.at(static_cast<std::size_t>(file));
    close_temp(t.fd, t.target);
    bool replaced = false;
    struct stat st {
    };
    if (::lstat(t.target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            storage_error(t.target, "write a file", EISDIR);
        // The file replaced stays reachable under another name until commit(), to be put back on undo.
        const fs::path backup = temp_name(t.target);
        if (::link(t.target.c_str(), backup.c_str()) != 0)
            storage_error(t.target, "keep the previous file", errno);
        m_backups.push_back(backup);
        m_replaced.push_back(t.target);
        replaced = true;
    } else if (errno != ENOENT) {
        storage_error(t.target, "write a file", errno);
    }
    if (::rename(t.path.c_str(), t.target.c_str()) != 0)
        storage_error(t.target, "rename the finished file to its name", errno);
    if (!replaced)
        m_created.push_back(t.target);
    t.path.clear();
}

void HubCacheWriter::write_file(const fs::path& target, const QByteArray& bytes)
{
    int err = 0;
    if (holds(target, bytes, err))
        return;
    const int file = open(target);
    write(file, bytes.constData(), static_cast<std::size_t>(bytes.size()));
    finish(file);
}

void HubCacheWriter::add_blob(const fs::path& target, const QByteArray& bytes)
{
    const auto refuse = [&] {
        throw HubError(HubError::Kind::BadResponse,
                       target.string() + ": the Hub names this blob by its ETag, but the cached blob holds " +
                           "other bytes; refused (a blob is never rewritten), the cache was left as it was");
    };
    struct stat st {
    };
    int err = 0;
    if (::lstat(target.c_str(), &st) == 0) {
        if (holds(target, bytes, err))
            return;
        if (err != 0)
            storage_error(target, "read the blob", err);
        refuse();
    }
    const int file = open(target);
    Temp& t = m_temps[static_cast<std::size_t>(file)];
    write(file, bytes.constData(), static_cast<std::size_t>(bytes.size()));
    close_temp(t.fd, t.target);
    if (!holds(t.path, bytes, err))
        storage_error(t.target, "read back the blob just written", err != 0 ? err : EIO);
    if (::link(t.path.c_str(), target.c_str()) != 0) {
        if (errno != EEXIST)
            storage_error(target, "name the blob", errno);
        if (!holds(target, bytes, err)) // another download made it meanwhile
            refuse();
    } else {
        m_created.push_back(target);
    }
    ::unlink(t.path.c_str());
    t.path.clear();
}

void HubCacheWriter::add_symlink(const fs::path& link, const fs::path& to, const QByteArray& bytes)
{
    make_folders(link.parent_path());
    struct stat st {
    };
    int err = 0;
    if (::lstat(link.c_str(), &st) == 0) {
        if (holds(link, bytes, err))
            return;
        if (err != ENOENT) // a symlink to a missing blob is replaced; anything else stays
            throw HubError(HubError::Kind::BadResponse,
                           link.string() + " is cached with other content than the Hub sends now for the "
                                           "same commit; refused, the cache was left as it was (delete that "
                                           "snapshot folder to fetch it again)");
    }
    const fs::path temp = temp_name(link);
    if (::symlink(to.c_str(), temp.c_str()) != 0)
        storage_error(link, "make a symlink", errno);
    m_temps.push_back({temp, link, -1});
    const int file = static_cast<int>(m_temps.size()) - 1;
    bool replaced = false;
    if (::lstat(link.c_str(), &st) == 0) {
        const fs::path backup = temp_name(link);
        if (::link(link.c_str(), backup.c_str()) != 0)
            storage_error(link, "keep the previous symlink", errno);
        m_backups.push_back(backup);
        m_replaced.push_back(link);
        replaced = true;
    }
    if (::rename(temp.c_str(), link.c_str()) != 0)
        storage_error(link, "make a symlink", errno);
    if (!replaced)
        m_created.push_back(link);
    m_temps[static_cast<std::size_t>(file)].path.clear();
}

void HubCacheWriter::commit()
{
    for (const fs::path& b : m_backups)
        ::unlink(b.c_str());
    m_committed = true;
}

void HubCacheWriter::rollback() noexcept
{
    for (Temp& t : m_temps) {
        if (t.fd >= 0)
            ::close(t.fd);
        if (!t.path.empty())
            ::unlink(t.path.c_str());
    }
    for (std::size_t i = m_replaced.size(); i-- > 0;) {
        ::rename(m_backups[i].c_str(), m_replaced[i].c_str());
        ::unlink(m_backups[i].c_str()); // left by rename(2) when the rename over it never happened
    }
    for (auto it = m_created.rbegin(); it != m_created.rend(); ++it)
        ::unlink(it->c_str());
    for (auto it = m_folders.rbegin(); it != m_folders.rend(); ++it)
        ::rmdir(it->c_str()); // only when empty: another download may have put files there meanwhile
}

} // namespace posatlas
