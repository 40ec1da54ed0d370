// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenario_files.h"

#include "methods/registry.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <system_error>

namespace posatlas {

namespace {

void add_paths(const std::vector<Field>& fields, const Scenario& s, std::vector<std::string>& out)
{
    for (const Field& f : fields) {
        if (f.type != FieldType::Text || !f.path || !f.get)
            continue;
        const nlohmann::json v = f.get(s);
        if (v.is_string() && !v.get<std::string>().empty())
            out.push_back(v.get<std::string>());
    }
}

constexpr std::uintmax_t kMaxHashedBytes = std::uintmax_t{64} << 20;

std::string fingerprint(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(path);
    const std::uintmax_t size = fs::file_size(p, ec);
    if (ec)
        return path + "|unreadable;";
    const auto mtime = fs::last_write_time(p, ec);
    const auto ticks = ec ? 0 : mtime.time_since_epoch().count();
    std::string out = path + '|' + std::to_string(size) + '|' + std::to_string(ticks);
    // The hash of this size and modification time when it was read before.
    static std::mutex mutex;
    static std::map<std::string, std::string> hashes;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = hashes.find(out); it != hashes.end())
            return it->second;
    }
    std::string result = out;
    if (size <= kMaxHashedBytes) {
        std::ifstream in(p, std::ios::binary);
        std::uint64_t h = 14695981039346656037ull; // FNV-1a 64
        char buffer[1 << 16];
        while (in) {
            in.read(buffer, sizeof buffer);
            for (std::streamsize i = 0; i < in.gcount(); ++i) {
                h ^= static_cast<unsigned char>(buffer[i]);
                h *= 1099511628211ull;
            }
        }
        result += '|' + std::to_string(h);
    }
    result += ';';
    const std::lock_guard lock(mutex);
    if (hashes.size() > 256)
        hashes.clear();
    hashes[out] = result;
    return result;
}

} // namespace

std::vector<std::string> scenario_files(const Scenario& s, std::optional<Method> method, bool common)
{
    std::vector<std::string> out;
    if (common)
        add_paths(common_fields(), s, out);
    if (method)
        add_paths(descriptor(*method).fields, s, out);
    return out;
}

std::string scenario_files_fingerprint(const Scenario& s, std::optional<Method> method, bool common)
{
    std::string out;
    for (const std::string& path : scenario_files(s, method, common))
        out += fingerprint(path);
    return out;
}

} // namespace posatlas
