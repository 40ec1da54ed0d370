// SPDX-License-Identifier: GPL-3.0-or-later
// Reading files the user hands us (model configs, sessions, settings, learned tables) without trusting
// them: one exception type for every bad input file, bounded reads of regular files only, JSON with a
// nesting limit, and quoting of untrusted bytes in messages.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace posatlas {

// Base of every error about the contents or the kind of an input file (ConfigError, ScenarioJsonError,
// the learned-table errors, ...). The command line prints what() and exits with status 2; the GUI
// shows it and keeps its state. The message is one line and never contains raw input bytes.
class InputFileError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Deepest nesting of arrays/objects accepted in any JSON input. Real configs and sessions nest 3 levels;
// nlohmann's DOM is destroyed and dumped recursively, so 10^5 levels overflow the stack.
inline constexpr int kMaxJsonDepth = 64;
// Most values (every number, string, array and object counts one) accepted in one JSON input. The parsed
// document costs up to ~100 bytes a value besides its strings, so this bounds its memory at ~200 MiB
// whatever the file holds. Real configs and sessions have hundreds; a safetensors header ~8 per tensor.
inline constexpr std::uint64_t kMaxJsonValues = std::uint64_t{1} << 21;

// Reads the whole file at `path`. Opens it without blocking (a FIFO must not hang us), refuses anything
// that is not a regular file after opening it (devices, FIFOs, directories, sockets: a symlink to
// /dev/zero is refused by fstat on the opened descriptor), and refuses files larger than max_bytes
// (reads at most max_bytes + 1 bytes, so a file that grows while read is caught too).
// Throws InputFileError "PATH: reason".
std::string read_input_file(const std::string& path, std::int64_t max_bytes);

// A regular file read by ranges, never whole (safetensors checkpoints, GGUF headers): opened with the
// same checks as read_input_file() (no blocking on a FIFO, regular files only). Every read names the
// path in its InputFileError; a range past the end of the file is reported as a truncated file.
class RangeFile
{
public:
    explicit RangeFile(const std::string& path); // InputFileError "PATH: reason"
    ~RangeFile();
    RangeFile(const RangeFile&) = delete;
    RangeFile& operator=(const RangeFile&) = delete;

    const std::string& path() const { return m_path; }
    std::uint64_t size() const { return m_size; }
    // Exactly `n` bytes at `offset` (pread); InputFileError when the range passes the end of the file.
    void read(std::uint64_t offset, void* dst, std::size_t n) const;
    std::string read(std::uint64_t offset, std::size_t n) const;

private:
    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
};

// Parses JSON text. Nesting deeper than kMaxJsonDepth is refused by a pre-scan before any DOM is built,
// more than max_values values while it is built. Errors are InputFileError in plain words, never the
// JSON library's: "not valid JSON at byte N (line L, column C): reason", "key 'K': the number 1e400 is
// out of range: ...". Callers add the file name.
nlohmann::json parse_json_input(std::string_view text, std::uint64_t max_values = kMaxJsonValues);

// `bytes` made safe to quote in a one-line message: printable ASCII and valid UTF-8 stay as they are;
// control characters become \n, \t, \r or \xNN, invalid UTF-8 bytes become \xNN, and the result is cut
// after `max_chars` characters of input with "...". The message never carries raw terminal escapes.
std::string quote_input(std::string_view bytes, std::size_t max_chars = 40);

// True when `s` ends with `suffix` (given in lower case), ignoring ASCII case: file types by extension.
bool ends_with_ci(std::string_view s, std::string_view suffix);

// The JSON type of a value, for messages ("a string", "an array", ...): never the value itself, which
// may be arbitrarily large or deep. Scalars may be shown with json_scalar_text().
std::string json_type_phrase(const nlohmann::json& v);
// A short, escaped text of a scalar JSON value ("-64", "\"abc\""); for arrays/objects only their type.
std::string json_value_for_message(const nlohmann::json& v);

} // namespace posatlas
