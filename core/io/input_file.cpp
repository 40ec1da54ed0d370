// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/input_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace posatlas {
namespace {

// Closes the descriptor on every path out of read_input_file().
struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

const char* file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

// Length of the valid UTF-8 sequence starting at s[i] (2..4), or 0 when it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
        cp = b0 & 0x1Fu;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        cp = b0 & 0x0Fu;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        cp = b0 & 0x07u;
    } else {
        return 0;
    }
    if (i + n > s.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xC0u) != 0x80u)
            return 0;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    // Overlong forms, surrogates and code points beyond U+10FFFF are not valid UTF-8.
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    // C1 controls (U+0080..U+009F) act as terminal controls too.
    if (cp >= 0x80 && cp <= 0x9F)
        return 0;
    return n;
}

void append_hex(std::string& out, unsigned char b)
{
    static const char digits[] = "0123456789abcdef";
    out += "\\x";
    out += digits[b >> 4];
    out += digits[b & 0x0F];
}

} // namespace

std::string read_input_file(const std::string& path, std::int64_t max_bytes)
{
    Fd f;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f.fd < 0)
        throw InputFileError(path + ": cannot open the file (" + std::strerror(errno) + ")");
    struct stat st {
    };
    if (::fstat(f.fd, &st) != 0)
        throw InputFileError(path + ": cannot inspect the file (" + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode))
        throw InputFileError(path + ": " + file_kind(st.st_mode) +
                             ", not a regular file; only regular files " + "are read");
    if (st.st_size > max_bytes)
        throw InputFileError(path + ": the file has " + std::to_string(st.st_size) +
                             " bytes, more than the limit of " + std::to_string(max_bytes) +
                             " for this kind of file");
    // A regular file never blocks; clear O_NONBLOCK anyway so that reads behave as usual.
    ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
    std::string bytes;
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    // Read at most max_bytes + 1: a file that grows while we read is still refused, never read forever.
    const auto cap = static_cast<std::size_t>(max_bytes) + 1;
    while (got < cap) {
        if (bytes.size() < std::min(cap, got + 65536))
            bytes.resize(std::min(cap, got + 65536));
        const ssize_t n = ::read(f.fd, bytes.data() + got, bytes.size() - got);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw InputFileError(path + ": reading the file failed (" + std::strerror(errno) + ")");
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    if (got > static_cast<std::size_t>(max_bytes))
        throw InputFileError(path + ": the file is larger than the limit of " + std::to_string(max_bytes) +
                             " bytes for this kind of file");
    bytes.resize(got);
    return bytes;
}

RangeFile::RangeFile(const std::string& path) : m_path(path)
{
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    m_fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (m_fd < 0)
        throw InputFileError(path + ": cannot open the file (" + std::strerror(errno) + ")");
    struct stat st {
    };
    std::string why;
    if (::fstat(m_fd, &st) != 0)
        why = std::string("cannot inspect the file (") + std::strerror(errno) + ")";
    else if (!S_ISREG(st.st_mode))
        why = std::string(file_kind(st.st_mode)) + ", not a regular file; only regular files are read";
    if (!why.empty()) {
        ::close(m_fd);
        m_fd = -1;
        throw InputFileError(path + ": " + why);
    }
    ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK);
    m_size = static_cast<std::uint64_t>(st.st_size);
}

RangeFile::~RangeFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void RangeFile::read(std::uint64_t offset, void* dst, std::size_t n) const
{
    if (offset > m_size || n > m_size - offset)
        throw InputFileError(m_path + ": the file is truncated (needs bytes " + std::to_string(offset) +
                             ".." + std::to_string(offset + n) + ", the file has " + std::to_string(m_size) +
                             ")");
    auto* out = static_cast<char*>(dst);
    std::size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(m_fd, out + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            throw InputFileError(m_path + ": reading the file failed (" + std::strerror(errno) + ")");
        }
        if (r == 0) // the file shrank since it was opened
            throw InputFileError(m_path + ": the file is truncated (it ended at byte " +
                                 std::to_string(offset + got) + " while reading)");
        got += static_cast<std::size_t>(r);
    }
}

std::string RangeFile::read(std::uint64_t offset, std::size_t n) const
{
    std::string bytes(n, '\0');
    read(offset, bytes.data(), n);
    return bytes;
}

namespace {

using json = nlohmann::json;

// Builds the DOM the way nlohmann's own json_sax_dom_parser does, and on the way counts the values
// (refused beyond the limit, before they are allocated) and keeps the key path of the value being read,
// so that an error can name it.
class BoundedDomBuilder
{
public:
    BoundedDomBuilder(json& root, std::uint64_t max_values) : m_root(root), m_max_values(max_values) {}

    bool null() { return add(nullptr) != nullptr; }
    bool boolean(bool v) { return add(v) != nullptr; }
    bool number_integer(json::number_integer_t v) { return add(v) != nullptr; }
    bool number_unsigned(json::number_unsigned_t v) { return add(v) != nullptr; }
    bool number_float(json::number_float_t v, const json::string_t&) { return add(v) != nullptr; }
    bool string(json::string_t& v) { return add(std::move(v)) != nullptr; }
    bool binary(json::binary_t& v) { return add(std::move(v)) != nullptr; }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k)
    {
        Level& level = m_stack.back();
        level.key = k;
        level.member = &(*level.container)[k];
        return true;
    }
    bool parse_error(std::size_t position, const std::string& last_token, const json::exception& ex)
    {
        m_error_at = position;
        m_last_token = last_token;
        m_error_id = ex.id;
        m_error_what = ex.what();
        m_error_path = path();
        return false;
    }

    bool limit_hit() const { return m_limit_hit; }
    std::size_t error_at() const { return m_error_at; }
    const std::string& last_token() const { return m_last_token; }
    int error_id() const { return m_error_id; }
    const std::string& error_what() const { return m_error_what; }
    const std::string& error_path() const { return m_error_path; }

private:
    struct Level {
        json* container = nullptr;
        json* member = nullptr; // objects: the member whose value comes next
        std::string key;
    };

    json* add(json v)
    {
        if (++m_values > m_max_values) {
            m_limit_hit = true;
            m_error_path = path();
            return nullptr;
        }
        if (m_stack.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        Level& level = m_stack.back();
        if (level.container->is_array()) {
            level.container->push_back(std::move(v));
            return &level.container->back();
        }
        *level.member = std::move(v);
        return level.member;
    }
    bool open(json v)
    {
        json* j = add(std::move(v));
        if (!j)
            return false;
        m_stack.push_back({j, nullptr, {}});
        return true;
    }
    bool close()
    {
        m_stack.pop_back();
        return true;
    }
    // "rope_scaling.factor", "views.visible[2]": where the value being read sits ("" at the top).
    std::string path() const
    {
        std::string out;
        for (const Level& level : m_stack) {
            if (level.container->is_array()) {
                out += "[" + std::to_string(level.container->size()) + "]";
            } else if (level.member) {
                out += (out.empty() ? "" : ".") + level.key;
            }
        }
        return out;
    }

    json& m_root;
    std::uint64_t m_max_values;
    std::uint64_t m_values = 0;
    bool m_limit_hit = false;
    std::vector<Level> m_stack;
    std::size_t m_error_at = 0;
    std::string m_last_token;
    int m_error_id = 0;
    std::string m_error_what;
    std::string m_error_path;
};

// nlohmann's syntax message ("[json.exception.parse_error.101] parse error at line 1, column 5: syntax
// error while parsing value - invalid literal; last read: 'tru'") in plain words: the part after " - ",
// with the grammar's token names replaced.
std::string plain_syntax_reason(const std::string& what, const std::string& last_token)
{
    std::string body = what;
    if (const auto dash = body.find(" - "); dash != std::string::npos)
        body = body.substr(dash + 3);
    // What was read, when it is a short word ("tru"); the lexer's longer runs say less than the byte does.
    if (const auto last = body.find("; last read: '"); last != std::string::npos) {
        const bool word = last_token.size() <= 16 && last_token.find_first_of(" \t\r\n") == std::string::npos;
        body = body.substr(0, last) + (word ? " ('" + quote_input(last_token, 16) + "')" : std::string());
    }
    static const std::pair<const char*, const char*> kWords[] = {
        {"unexpected end of input", "the text ends too early"},
        {"expected end of input", "expected nothing more"},
        {"invalid literal",
         "not a JSON value (a value is a number, a quoted string, true, false, null, [...] or "
         "{...})"},
        {"'[', '{', or a literal", "a value"},
        {"string literal", "a quoted string"},
        {"number literal", "a number"},
        {"true literal", "true"},
        {"false literal", "false"},
        {"null literal", "null"},
        {"<parse error>", "something unreadable"},
        {"<uninitialized>", "nothing"},
        {"end of input", "the end of the text"},
        {"invalid string: ", "a string: "},
        {"invalid number; ", "a number: "},
        {"invalid BOM; must be 0xEF 0xBB 0xBF if given", "a broken byte-order mark"},
    };
    for (const auto& [from, to] : kWords)
        for (auto at = body.find(from); at != std::string::npos; at = body.find(from, at + std::strlen(to)))
            body.replace(at, std::strlen(from), to);
    return quote_input(body, 300);
}

std::string where_in_text(std::string_view text, std::size_t byte)
{
    // nlohmann counts the characters read, the offending one included (the end of the text too): byte N is
    // 1-based, at most the last byte.
    byte = std::min(byte, text.size());
    const std::size_t end = byte;
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i + 1 < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "byte " + std::to_string(byte) + ", line " + std::to_string(line) + ", column " +
           std::to_string(column);
}

} // namespace

nlohmann::json parse_json_input(std::string_view text, std::uint64_t max_values)
{
    // Pre-scan: bracket depth outside strings. Cheap (one pass) and it runs before any DOM exists.
    int depth = 0;
    bool in_string = false;
    bool escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw InputFileError("not accepted as JSON: arrays/objects nested deeper than " +
                                     std::to_string(kMaxJsonDepth) + " levels (at byte " +
                                     std::to_string(i + 1) + ")");
        } else if (c == ']' || c == '}') {
            --depth; // unbalanced brackets are the parser's to report
        }
    }
    json root;
    BoundedDomBuilder builder(root, max_values);
    if (json::sax_parse(text.begin(), text.end(), &builder))
        return root;
    const std::string in = builder.error_path().empty()
                               ? std::string()
                               : "key '" + quote_input(builder.error_path(), 120) + "': ";
    if (builder.limit_hit())
        throw InputFileError(in + "not accepted as JSON: more than " + std::to_string(max_values) +
                             " values (the limit for this file)");
    if (builder.error_id() == 406) { // a number such as 1e400, beyond the largest double; where it starts
        const std::size_t end = builder.error_at();
        const std::size_t length = builder.last_token().size();
        throw InputFileError(in + "the number " + quote_input(builder.last_token(), 40) +
                             " is out of range: a double holds at most about 1.8e308 (at " +
                             where_in_text(text, end >= length ? end - length + 1 : end) + ")");
    }
    const std::string at = where_in_text(text, builder.error_at());
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw InputFileError("not valid JSON: the text is empty");
    throw InputFileError("not valid JSON at " + at + ": " + (in.empty() ? "" : "near " + in) +
                         plain_syntax_reason(builder.error_what(), builder.last_token()));
}

std::string quote_input(std::string_view bytes, std::size_t max_chars)
{
    std::string out;
    std::size_t chars = 0;
    std::size_t i = 0;
    while (i < bytes.size()) {
        if (chars == max_chars) {
            out += "...";
            break;
        }
        const auto b = static_cast<unsigned char>(bytes[i]);
        if (b >= 0x20 && b < 0x7F) {
            out += static_cast<char>(b);
            ++i;
        } else if (b == '\n') {
            out += "\\n";
            ++i;
        } else if (b == '\t') {
            out += "\\t";
            ++i;
        } else if (b == '\r') {
            out += "\\r";
            ++i;
        } else if (b < 0x80) {
            append_hex(out, b); // other C0 controls and DEL
            ++i;
        } else if (const std::size_t n = utf8_sequence(bytes, i)) {
            out.append(bytes.substr(i, n));
            i += n;
        } else {
            append_hex(out, b);
            ++i;
        }
        ++chars;
    }
    return out;
}

std::string json_type_phrase(const nlohmann::json& v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
    default: return "a number";
    }
}

std::string json_value_for_message(const nlohmann::json& v)
{
    if (v.is_string())
        return "the string \"" + quote_input(v.get_ref<const std::string&>()) + "\"";
    if (v.is_primitive())
        return quote_input(v.dump());
    return json_type_phrase(v);
}

bool ends_with_ci(std::string_view s, std::string_view suffix)
{
    if (s.size() < suffix.size())
        return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        const char a = s[s.size() - suffix.size() + i];
        const char lower = (a >= 'A' && a <= 'Z') ? static_cast<char>(a - 'A' + 'a') : a;
        if (lower != suffix[i])
            return false;
    }
    return true;
}

} // namespace posatlas
