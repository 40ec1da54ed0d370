// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/content_file.h"

#include "methods/learned/learned.h"
#include "methods/registry.h"
#include "scenario/validation.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <tuple>

namespace posatlas {
namespace {

struct CacheEntry {
    std::string path, tensor;
    std::int64_t mtime_ns = 0;
    std::int64_t size = 0;
    std::shared_ptr<const ContentMatrix> matrix;
};

// A few files at most (queries and keys of the current and the previous scenario): a loaded matrix can be
// 512 MiB, so old entries go as soon as they are not the most recent ones. Methods' own tables (Shaw's
// a^K, DeBERTa's relative embeddings, ...) have a cache of their own, so that reading them never evicts
// the queries and keys a running job reads through content_file_matrix().
struct FileCache {
    std::size_t capacity;
    std::mutex mutex;
    std::list<CacheEntry> entries; // most recent first
};
FileCache g_content{4, {}, {}};
FileCache g_tables{8, {}, {}};

std::string option_of(const char* role)
{
    return std::string("--") + role;
}

[[noreturn]] void fail(const char* role, const ContentFile& f, const std::string& what)
{
    throw ContentFileError("cannot load " + std::string(role) + " file (" + option_of(role) + ") '" +
                           quote_input(f.path, 200) + "': " + what);
}

std::shared_ptr<const ContentMatrix> read_matrix(const ContentFile& f, const char* role)
{
    const bool safetensors = ends_with_ci(f.path, ".safetensors") || ends_with_ci(f.path, ".json");
    if (safetensors && f.tensor.empty())
        fail(role, f,
             "a .safetensors file holds many tensors; name the " + std::string(role) + " one with " +
                 option_of(role) + "-tensor");
    if (!safetensors && !f.tensor.empty())
        fail(role, f, "a tensor name ('" + quote_input(f.tensor) + "') applies only to a .safetensors file");
    if (!safetensors && !ends_with_ci(f.path, ".npy") && !ends_with_ci(f.path, ".csv"))
        fail(role, f, "unknown file type; expected .npy (float16/32/64), .csv or .safetensors");
    try {
        const LearnedTable t = LearnedTable::load(f.path, f.tensor);
        auto m = std::make_shared<ContentMatrix>();
        m->values = t.table();
        m->source = f.tensor.empty() ? f.path : f.path + ":" + f.tensor;
        return m;
    } catch (const LearnedTableError& e) {
        // The readers speak of a "position table"; say which option's file it is instead.
        std::string what = e.what();
        for (const std::string prefix : {"cannot load position table: ", "cannot load position table '"}) {
            if (what.rfind(prefix, 0) == 0) {
                what = what.substr(prefix.size());
                if (prefix.back() == '\'') { // "PATH': reason"
                    const auto end = what.find("': ");
                    if (end != std::string::npos)
                        what = what.substr(end + 3);
                }
                break;
            }
        }
        fail(role, f, what);
    }
}

} // namespace

namespace {

std::shared_ptr<const ContentMatrix> load_cached(FileCache& cache, const ContentFile& f, const char* role)
{
    struct stat st {
    };
    if (::stat(f.path.c_str(), &st) != 0)
        fail(role, f, "no such file (or it cannot be read)");
    const std::int64_t mtime_ns =
        static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    const auto size = static_cast<std::int64_t>(st.st_size);
    {
        const std::lock_guard lock(cache.mutex);
        for (auto it = cache.entries.begin(); it != cache.entries.end(); ++it)
            if (it->path == f.path && it->tensor == f.tensor && it->mtime_ns == mtime_ns &&
                it->size == size) {
                cache.entries.splice(cache.entries.begin(), cache.entries, it);
                return cache.entries.front().matrix;
            }
    }
    // Read outside the lock: another thread may read another file meanwhile.
    auto matrix = read_matrix(f, role);
    const std::lock_guard lock(cache.mutex);
    cache.entries.remove_if([&](const CacheEntry& e) { return e.path == f.path && e.tensor == f.tensor; });
    cache.entries.push_front({f.path, f.tensor, mtime_ns, size, matrix});
    while (cache.entries.size() > cache.capacity)
        cache.entries.pop_back();
    return matrix;
}

} // namespace

std::shared_ptr<const ContentMatrix> load_content_file(const ContentFile& f, const char* role)
{
    return load_cached(g_content, f, role);
}

std::shared_ptr<const ContentMatrix> load_table_file(const ContentFile& f, const char* role)
{
    return load_cached(g_tables, f, role);
}

void resolve_content_files(ContentParams& c)
{
    if (!c.queries.empty())
        c.queries.data = load_content_file(c.queries, "queries");
    if (!c.keys.empty())
        c.keys.data = load_content_file(c.keys, "keys");
}

const ContentMatrix& content_file_matrix(const ContentFile& f, bool key)
{
    if (f.data)
        return *f.data;
    {
        // The matrix validate() loaded, without looking at the file again.
        const std::lock_guard lock(g_content.mutex);
        for (const CacheEntry& e : g_content.entries)
            if (e.path == f.path && e.tensor == f.tensor)
                return *e.matrix; // kept alive by the cache until 4 newer files are read
    }
    return *load_content_file(f, key ? "keys" : "queries");
}

void content_file_row_into(const ContentParams& c, bool key, int dim, std::int64_t position, double* out)
{
    const ContentMatrix& m = content_file_matrix(key ? c.keys : c.queries, key);
    const double* row = m.row(position);
    const int n = std::min(dim, m.dim());
    std::copy(row, row + n, out);
    std::fill(out + n, out + dim, 0.0);
}

int content_width(const ContentParams& c, int fallback)
{
    if (c.queries.empty())
        return fallback;
    return content_file_matrix(c.queries, false).dim();
}

void validate_content_files(const Scenario& s)
{
    const ContentParams& c = s.content;
    if (!c.from_files())
        return;
    if (c.queries.empty())
        throw ParameterError("queries", "a file as well when keys is given (both or neither)", "none");
    if (c.keys.empty())
        throw ParameterError("keys", "a file as well when queries is given (both or neither)", "none");
    if (!c.tokens.empty())
        throw ParameterError("text",
                             "empty when queries and keys come from files (the files are the content)",
                             "'" + quote_input(c.text, 60) + "'");
    const MethodDescriptor& d = descriptor(s.method);
    const int dim = d.content_dim ? d.content_dim(s) : 0;
    for (const auto& [f, role] : {std::pair{&c.queries, "queries"}, std::pair{&c.keys, "keys"}}) {
        // A file that cannot be read is a bad value of its parameter, like any other: every caller (command
        // line, GUI edits, sessions) already reports ParameterError, and none is surprised by another type.
        std::shared_ptr<const ContentMatrix> m = f->data;
        if (!m) {
            try {
                m = load_content_file(*f, role);
            } catch (const ContentFileError& e) {
                throw ParameterError(role, "a readable .npy (float16/32/64), .csv or .safetensors file",
                                     e.what());
            }
        }
        if (s.seq_len > m->rows())
            throw ParameterError("seq_len",
                                 "an integer in [1, " + std::to_string(m->rows()) + "] (the rows of the " +
                                     role + " file '" + quote_input(m->source, 120) + "', one per position)",
                                 std::to_string(s.seq_len));
        if (dim > 0 && m->dim() != dim)
            throw ParameterError(role,
                                 "a file of " + std::to_string(dim) + " columns, d = " + std::to_string(dim) +
                                     ", the head dimension " + d.noun + " use for queries and keys",
                                 "'" + quote_input(m->source, 120) + "' with " + std::to_string(m->dim()) +
                                     " columns");
    }
}

void clear_content_file_cache()
{
    for (FileCache* cache : {&g_content, &g_tables}) {
        const std::lock_guard lock(cache->mutex);
        cache->entries.clear();
    }
}

} // namespace posatlas
