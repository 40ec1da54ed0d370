// SPDX-License-Identifier: GPL-3.0-or-later
// Writing one download into the Hugging Face cache, all or nothing (ui/hub/hub_download.h).
//   - Every file is written to a temporary file of a unique name in its own folder ("<name>.<random>
//     .incomplete", O_EXCL), synced, and renamed to its name only when complete: a reader never sees part
//     of a file and two downloads never share a temporary file.
//   - A blob (blobs/ETAG) is never rewritten: an existing one must hold the same bytes, else the download
//     is refused; a new one is read back and checked before it gets its name, and gets it by link(2), which
//     fails rather than replace a blob another process made meanwhile.
//   - Everything created (files, symlinks, folders) is remembered and removed again, and every file
//     replaced is put back, unless commit() is called: a failed download leaves the cache as it was.
// Errors are HubError(Storage) naming the path and the errno's text (strerror), never "Success".
// Linux/POSIX only, like the rest of the cache code.
#pragma once

#include "hub/hub_download.h"

#include <QByteArray>

#include <cstddef>
#include <filesystem>
#include <vector>

namespace posatlas {

class HubCacheWriter
{
public:
    HubCacheWriter() = default;
    ~HubCacheWriter(); // undoes everything unless committed
    HubCacheWriter(const HubCacheWriter&) = delete;
    HubCacheWriter& operator=(const HubCacheWriter&) = delete;

    // Starts the file `target`: a new temporary file in its folder (folders are created as needed). Returns
    // a handle for write() and finish().
    int open(const std::filesystem::path& target);
    void write(int file, const char* data, std::size_t size);
    // Syncs and closes the file and renames it to its target, replacing a file there (put back on undo).
    void finish(int file);

    // `target` holding `bytes`, unless it already holds them.
    void write_file(const std::filesystem::path& target, const QByteArray& bytes);
    // The blob `target` holding `bytes` (see above). Throws HubError(BadResponse) when a blob of that name
    // holds other bytes.
    void add_blob(const std::filesystem::path& target, const QByteArray& bytes);
    // The symlink `link` -> `to` (relative), unless something at `link` already reads as `bytes`. Throws
    // HubError(BadResponse) when it reads as other bytes: a snapshot never changes.
    void add_symlink(const std::filesystem::path& link, const std::filesystem::path& to,
                     const QByteArray& bytes);

    void commit();

private:
    struct Temp {
        std::filesystem::path path, target;
        int fd = -1;
    };
    void make_folders(const std::filesystem::path& folder);
    void rollback() noexcept;

    std::vector<Temp> m_temps;
    std::vector<std::filesystem::path> m_created;  // files and symlinks, in order
    std::vector<std::filesystem::path> m_folders;  // created, in order
    std::vector<std::filesystem::path> m_backups;  // hard links to replaced files, parallel to m_replaced
    std::vector<std::filesystem::path> m_replaced; // targets renamed over an existing file
    bool m_committed = false;
};

} // namespace posatlas
