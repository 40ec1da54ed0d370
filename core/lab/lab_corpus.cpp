// SPDX-License-Identifier: GPL-3.0-or-later
// The lm task's corpus: UTF-8 text read into character ids, split into training and held-out text (lab.h).
#include "lab/lab.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unistd.h>

namespace posatlas::lab {

namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kCorpusBytes = 64ull << 20;

[[noreturn]] void refuse(const std::string& allowed, const std::string& got)
{
    throw ParameterError("corpus", allowed, got);
}

// The code points of UTF-8 text; refuses overlong forms, surrogates and values past U+10FFFF, as a
// strict decoder does.
std::vector<char32_t> decode_utf8(const std::string& bytes, const std::string& file)
{
    std::vector<char32_t> out;
    out.reserve(bytes.size());
    std::size_t i = 0;
    const auto bad = [&] { refuse("UTF-8 text", file + ": not UTF-8 at byte " + std::to_string(i)); };
    while (i < bytes.size()) {
        const auto b0 = static_cast<unsigned char>(bytes[i]);
        int extra = 0;
        char32_t cp = 0, least = 0;
        if (b0 < 0x80) {
            cp = b0;
        } else if ((b0 & 0xE0) == 0xC0) {
            extra = 1, cp = b0 & 0x1F, least = 0x80;
        } else if ((b0 & 0xF0) == 0xE0) {
            extra = 2, cp = b0 & 0x0F, least = 0x800;
        } else if ((b0 & 0xF8) == 0xF0) {
            extra = 3, cp = b0 & 0x07, least = 0x10000;
        } else {
            bad();
        }
        if (i + static_cast<std::size_t>(extra) >= bytes.size())
            bad(); // a sequence cut short by the end of the file
        for (int k = 1; k <= extra; ++k) {
            const auto b = static_cast<unsigned char>(bytes[i + static_cast<std::size_t>(k)]);
            if ((b & 0xC0) != 0x80)
                bad();
            cp = (cp << 6) | (b & 0x3F);
        }
        if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            bad();
        out.push_back(cp);
        i += static_cast<std::size_t>(extra) + 1;
    }
    return out;
}

std::string read_bytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in)
        refuse("a readable text file or folder", p.string() + ": cannot be read");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool corpus_file(const fs::path& p)
{
    const std::string ext = p.extension().string();
    return (ext == ".md" || ext == ".txt") && p.filename() != "README.md";
}

std::string hex64(std::uint64_t v)
{
    static const char* digits = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        s[static_cast<std::size_t>(i)] = digits[v & 15];
    return s;
}

void fnv1a(std::uint64_t& h, const std::string& bytes)
{
    for (const char ch : bytes) {
        h ^= static_cast<unsigned char>(ch);
        h *= 0x100000001b3ull;
    }
}

} // namespace

std::int64_t Corpus::token(char32_t c) const
{
    const auto it = std::lower_bound(characters.begin(), characters.end(), c);
    return it != characters.end() && *it == c ? 1 + (it - characters.begin()) : 0;
}

Corpus load_corpus(const std::string& path)
{
    const std::string allowed = "a UTF-8 text file or a folder of .md/.txt files";
    std::error_code ec;
    const fs::path root(path);
    if (path.empty() || !fs::exists(root, ec))
        refuse(allowed, path.empty() ? "none" : path + " (not found)");
    // (relative name, full path) in byte order of the relative names.
    std::vector<std::pair<std::string, fs::path>> files;
    if (fs::is_directory(root, ec)) {
        for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec) && corpus_file(it->path()))
                files.emplace_back(fs::relative(it->path(), root, ec).generic_string(), it->path());
        if (ec)
            refuse(allowed, path + ": " + ec.message());
        std::sort(files.begin(), files.end());
    } else {
        files.emplace_back(root.filename().string(), root);
    }
    if (files.empty())
        refuse(allowed, path + " (no .md or .txt file)");
    Corpus c;
    c.path = fs::weakly_canonical(fs::absolute(root, ec), ec).string(); // a run finds it from anywhere
    if (c.path.empty())
        c.path = path;
    std::uint64_t hash = 0xcbf29ce484222325ull;
    std::uintmax_t total = 0;
    std::vector<std::vector<char32_t>> texts;
    std::set<char32_t> seen;
    for (const auto& [name, full] : files) {
        total += fs::file_size(full, ec);
        if (ec || total > kCorpusBytes)
            refuse(allowed + " of at most 64 MiB", path + (ec ? ": " + ec.message() : " (larger)"));
        const std::string bytes = read_bytes(full);
        fnv1a(hash, name);
        fnv1a(hash, std::string(1, '\0'));
        fnv1a(hash, bytes);
        fnv1a(hash, std::string(1, '\0'));
        texts.push_back(decode_utf8(bytes, name));
        seen.insert(texts.back().begin(), texts.back().end());
        c.id.files.push_back(name);
        c.id.characters += static_cast<std::int64_t>(texts.back().size());
    }
    if (c.id.characters == 0)
        refuse(allowed, path + " (no characters)");
    c.characters.assign(seen.begin(), seen.end());
    c.id.hash = hex64(hash);
    c.id.vocabulary = static_cast<int>(c.characters.size()) + 1;
    for (const std::vector<char32_t>& t : texts) {
        const std::size_t held =
            static_cast<std::size_t>(std::floor(static_cast<double>(t.size()) * kHeldOutFraction));
        for (std::size_t i = 0; i < t.size(); ++i)
            (i + held < t.size() ? c.training : c.held_out).push_back(c.token(t[i]));
    }
    return c;
}

std::string default_corpus()
{
    std::vector<fs::path> candidates;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        const fs::path exe_dir = fs::path(std::string(buf, static_cast<std::size_t>(n))).parent_path();
        candidates.push_back(exe_dir / ".." / "share" / "posatlas" / "lessons");
        candidates.push_back(exe_dir / ".." / ".." / "share" / "posatlas" / "lessons");
    }
#ifdef POSATLAS_SOURCE_LESSONS
    candidates.emplace_back(POSATLAS_SOURCE_LESSONS);
#endif
    std::error_code ec;
    for (const fs::path& p : candidates)
        if (fs::is_directory(p, ec))
            return fs::weakly_canonical(p, ec).string();
    return "";
}

void fit_corpus(LabConfig& c, const Corpus& corpus)
{
    if (!c.language_model())
        return;
    c.corpus = corpus.path;
    c.corpus_id = corpus.id;
    const int needed = corpus.id.vocabulary;
    if (c.vocab_size == 0)
        c.vocab_size = needed;
    if (c.vocab_size < needed)
        throw ParameterError("vocab",
                             "at least " + std::to_string(needed) + " for this corpus (its " +
                                 std::to_string(needed - 1) + " characters and the unknown id)",
                             std::to_string(c.vocab_size));
    const std::int64_t text = static_cast<std::int64_t>(corpus.training.size());
    if (c.train_len + 1 > text)
        throw ParameterError("train-len",
                             "at most " + std::to_string(text - 1) + " (the corpus's training text)",
                             std::to_string(c.train_len));
}

Corpus run_corpus(const LabConfig& c, const std::string& path)
{
    Corpus corpus = load_corpus(path.empty() ? c.corpus : path);
    if (!(corpus.id == c.corpus_id))
        throw ParameterError(
            "corpus",
            "the run's corpus (" + std::to_string(c.corpus_id.files.size()) + " files, hash " +
                c.corpus_id.hash + ", " + std::to_string(c.corpus_id.characters) + " characters)",
            corpus.path + " (" + std::to_string(corpus.id.files.size()) + " files, hash " + corpus.id.hash +
                ", " + std::to_string(corpus.id.characters) + " characters)");
    if (corpus.id.vocabulary > c.vocab_size)
        throw ParameterError("corpus", "a corpus of at most " + std::to_string(c.vocab_size) + " ids",
                             std::to_string(corpus.id.vocabulary));
    return corpus;
}

} // namespace posatlas::lab
