// SPDX-License-Identifier: GPL-3.0-or-later
// The one way PosAtlas writes a file (compute --out, export, sessions, autosave, the Hub cache), so that
// a write never lands where it should not:
//   - a regular or missing target is written to a temporary file of a unique name in the target's folder
//     (created with O_EXCL | O_NOFOLLOW: a symlink planted there is never followed), flushed to disk,
//     given the mode of the file it replaces (0666 less the umask for a new file) and renamed over the
//     target only when every byte is written; a failure removes it and leaves the old file as it was,
//     and two writers of the same target each leave a complete file (the last rename wins);
//   - a symlink the user named is followed: the file it points to gets the bytes, the link stays;
//   - a device, FIFO or terminal (/dev/null, /dev/stdout, a named pipe) is written straight, never
//     truncated by replacing it, so a device node never becomes a regular file;
//   - every failing call is checked; the error names the path and the system's reason ("No space left on
//     device"), never "Unknown error".
#pragma once

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// A file that could not be written. what(): "cannot write PATH: REASON", REASON the system's message
// for the failing call (strerror). The command line prints it and exits with status 2.
class OutputFileError : public std::runtime_error
{
public:
    OutputFileError(const std::string& path, const std::string& reason);
    const std::string& path() const { return m_path; }
    const std::string& reason() const { return m_reason; }

private:
    std::string m_path;
    std::string m_reason;
};

struct SafeWriteOptions {
    // true: a path the user typed. A symlink there is followed and a device, FIFO or terminal is written
    // straight. false: a file the program owns (the autosave, the Hub cache): the name itself is replaced
    // (a symlink there is replaced, not followed) and anything but a regular file there is refused.
    bool user_chosen = true;
};

// Writes one file: open, write chunks, then commit() (or abort(), or let it go out of scope: the
// temporary file is removed and the target is left as it was). Every member throws OutputFileError.
class SafeFileWriter
{
public:
    explicit SafeFileWriter(const std::string& path, SafeWriteOptions options = {});
    ~SafeFileWriter();
    SafeFileWriter(const SafeFileWriter&) = delete;
    SafeFileWriter& operator=(const SafeFileWriter&) = delete;

    void write(const void* data, std::size_t size);
    void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
    // Flushes to disk, sets the mode and renames the temporary file over the target (for a device or
    // FIFO: closes it and reports a failed close). Nothing may be written after it.
    void commit();
    // Removes the temporary file (a device or FIFO: closes it). Never throws; safe to call twice.
    void abort() noexcept;

    const std::string& path() const { return m_path; } // as given, for messages
    // The file that gets the bytes: the path, or the file a symlink there points to.
    const std::string& target() const { return m_target; }
    bool writes_straight() const { return m_straight; } // a device, FIFO or terminal

private:
    [[noreturn]] void fail(int error, const std::string& what = {});

    std::string m_path;
    std::string m_target;
    std::string m_temp; // empty when writing straight, and once renamed or removed
    int m_fd = -1;
    bool m_straight = false;
    bool m_replaces = false; // a regular file is at m_target: keep its mode and owner
    unsigned m_mode = 0;     // that file's mode bits
    unsigned m_uid = 0, m_gid = 0;
};

// The whole of `bytes` to `path` through a SafeFileWriter. Throws OutputFileError.
void write_file_atomically(const std::string& path, std::string_view bytes, SafeWriteOptions options = {});

// A std::streambuf over a SafeFileWriter, for code that prints to a std::ostream. A write error does not
// throw through the stream (iostreams would swallow it into badbit): the stream fails, and finish()
// rethrows the first error. Call finish() before the writer's commit().
class SafeWriterBuf : public std::streambuf
{
public:
    explicit SafeWriterBuf(SafeFileWriter& writer);
    void finish(); // writes what is buffered; throws the first OutputFileError

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool drain();

    SafeFileWriter& m_writer;
    std::vector<char> m_buffer;
    std::exception_ptr m_error;
};

} // namespace posatlas
