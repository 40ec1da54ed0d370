// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/safe_write.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace posatlas {
namespace {

// strerror() is not thread-safe (the Hub cache writes from a worker thread); the GNU strerror_r is.
std::string error_text(int error)
{
    char buffer[256];
    return ::strerror_r(error, buffer, sizeof buffer);
}

std::string folder_of(const std::string& path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where a chain of symlinks ends when its last target does not exist yet (a dangling link): the name
// the file will get. ELOOP after 40 links, as the kernel counts.
std::string dangling_end(std::string path)
{
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {
        };
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return path;
        std::string to(PATH_MAX, '\0');
        const ssize_t n = ::readlink(path.c_str(), to.data(), to.size());
        if (n < 0)
            return path;
        to.resize(static_cast<std::size_t>(n));
        path = to.front() == '/' ? to : folder_of(path) + "/" + to;
    }
    errno = ELOOP;
    return {};
}

// A name nobody has used: "<name>.posatlas-XXXXXX" with six random letters or digits.
std::string temp_name(const std::string& target)
{
    static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    thread_local std::mt19937_64 rng{std::random_device{}() ^ static_cast<std::uint64_t>(::getpid()) << 32};
    std::string name = name_of(target).substr(0, 200); // NAME_MAX is 255
    name += ".posatlas-";
    for (int i = 0; i < 6; ++i)
        name += kChars[rng() % (sizeof kChars - 1)];
    return folder_of(target) + "/" + name;
}

} // namespace

OutputFileError::OutputFileError(const std::string& path, const std::string& reason)
    : std::runtime_error("cannot write " + path + ": " + reason), m_path(path), m_reason(reason)
{
}

SafeFileWriter::SafeFileWriter(const std::string& path, SafeWriteOptions options) : m_path(path)
{
    if (path.empty())
        fail(ENOENT);
    struct stat st {
    };
    if (options.user_chosen) {
        // stat() follows symlinks: the kind of the file the user's path ends at.
        if (::stat(path.c_str(), &st) == 0) {
            if (S_ISDIR(st.st_mode))
                fail(EISDIR);
            if (!S_ISREG(st.st_mode)) {
                // A device, FIFO or terminal: written straight. No O_TRUNC, no O_CREAT, no rename; a FIFO
                // waits here for its reader, as `cat > fifo` does.
                m_straight = true;
                m_target = path;
                do
                    m_fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
                while (m_fd < 0 && errno == EINTR);
                if (m_fd < 0)
                    fail(errno);
                if (::fstat(m_fd, &st) != 0)
                    fail(errno);
                if (S_ISREG(st.st_mode)) // replaced by a regular file since stat(): never write into it
                    fail(EAGAIN, "the file changed while it was opened");
                return;
            }
            m_replaces = true;
            // The file a symlink points to gets the bytes; the link itself stays.
            struct stat link {
            };
            if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
                char* real = ::realpath(path.c_str(), nullptr);
                if (!real)
                    fail(errno);
                m_target = real;
                std::free(real);
            } else {
                m_target = path;
            }
        } else if (errno == ENOENT) {
            m_target = dangling_end(path); // a new file, or the missing end of a symlink chain
            if (m_target.empty())
                fail(errno);
        } else {
            fail(errno);
        }
    } else {
        m_target = path;
        if (::lstat(path.c_str(), &st) == 0) {
            if (S_ISREG(st.st_mode))
                m_replaces = true;
            else if (!S_ISLNK(st.st_mode)) // a symlink there is replaced by the rename
                fail(S_ISDIR(st.st_mode) ? EISDIR : EEXIST, "not a regular file");
        } else if (errno != ENOENT) {
            fail(errno);
        }
    }
    if (m_replaces) {
        m_mode = st.st_mode & 07777;
        m_uid = st.st_uid;
        m_gid = st.st_gid;
    }
    // O_EXCL | O_NOFOLLOW: never an existing file, never through a symlink planted at the name. A file
    // that replaces another starts private (0600) and gets that file's mode at commit(); a new file gets
    // 0666 less the umask (and the folder's default ACL) from the kernel, as any new file does.
    for (int attempt = 0; attempt < 100; ++attempt) {
        m_temp = temp_name(m_target);
        m_fd = ::open(m_temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
                      m_replaces ? 0600 : 0666);
        if (m_fd >= 0 || errno != EEXIST)
            break;
    }
    if (m_fd < 0) {
        const int error = errno;
        m_temp.clear(); // not ours: nothing to remove
        fail(error, "creating a temporary file in " + folder_of(m_target));
    }
}

SafeFileWriter::~SafeFileWriter()
{
    abort();
}

void SafeFileWriter::fail(int error, const std::string& what)
{
    abort();
    std::string reason = error_text(error);
    if (!what.empty())
        reason += " (" + what + ")";
    throw OutputFileError(m_path, reason);
}

void SafeFileWriter::write(const void* data, std::size_t size)
{
    if (m_fd < 0)
        fail(EBADF, "the file is already closed");
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(m_fd, p, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail(errno);
        }
        if (n == 0)
            fail(ENOSPC);
        p += n;
        size -= static_cast<std::size_t>(n);
    }
}

void SafeFileWriter::commit()
{
    if (m_fd < 0)
        fail(EBADF, "the file is already closed");
    if (!m_straight) {
        if (m_replaces) {
            // The owner (root writing another user's file) and the mode of the file being replaced. When
            // the owner cannot be kept, neither are set-user-ID / set-group-ID bits.
            struct stat st {
            };
            bool same_owner = ::fstat(m_fd, &st) == 0 && st.st_uid == m_uid && st.st_gid == m_gid;
            if (!same_owner)
                same_owner = ::fchown(m_fd, m_uid, m_gid) == 0;
            // A failing fchmod (a file system without modes) leaves the private 0600: the safe side.
            (void)::fchmod(m_fd, same_owner ? m_mode : (m_mode & 0777));
        }
        // ENOSPC and EIO may surface only here (delayed allocation, NFS). EINVAL: no fsync there.
        if (::fsync(m_fd) != 0 && errno != EINVAL)
            fail(errno);
    }
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0 && errno != EINTR)
        fail(errno);
    if (m_straight)
        return;
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0)
        fail(errno);
    m_temp.clear();
    // The rename itself reaches the disk with the folder's entry.
    const int dir = ::open(folder_of(m_target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

void SafeFileWriter::abort() noexcept
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_straight && !m_temp.empty()) {
        ::unlink(m_temp.c_str());
        m_temp.clear();
    }
}

void write_file_atomically(const std::string& path, std::string_view bytes, SafeWriteOptions options)
{
    SafeFileWriter writer(path, options);
    writer.write(bytes);
    writer.commit();
}

SafeWriterBuf::SafeWriterBuf(SafeFileWriter& writer) : m_writer(writer), m_buffer(64 * 1024)
{
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
}

bool SafeWriterBuf::drain()
{
    if (!m_error && pptr() > pbase()) {
        try {
            m_writer.write(pbase(), static_cast<std::size_t>(pptr() - pbase()));
        } catch (const OutputFileError&) {
            m_error = std::current_exception();
        }
    }
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
    return !m_error;
}

SafeWriterBuf::int_type SafeWriterBuf::overflow(int_type c)
{
    if (!drain())
        return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

std::streamsize SafeWriterBuf::xsputn(const char* s, std::streamsize n)
{
    if (n <= epptr() - pptr()) {
        std::memcpy(pptr(), s, static_cast<std::size_t>(n));
        pbump(static_cast<int>(n));
        return n;
    }
    // Larger than the room left: what is buffered, then these bytes, straight to the writer.
    if (!drain())
        return 0;
    try {
        m_writer.write(s, static_cast<std::size_t>(n));
    } catch (const OutputFileError&) {
        m_error = std::current_exception();
        return 0;
    }
    return n;
}

int SafeWriterBuf::sync()
{
    return drain() ? 0 : -1;
}

void SafeWriterBuf::finish()
{
    drain();
    if (m_error)
        std::rethrow_exception(m_error);
}

} // namespace posatlas
