// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/hf_cache.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>

namespace posatlas {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

// os.path.expanduser for a leading "~" (the Python code expands it in every variable).
fs::path expand_user(const std::string& p)
{
    if (!p.empty() && p.front() == '~' && (p.size() == 1 || p[1] == '/'))
        return fs::path(env("HOME")) / p.substr(p.size() > 1 ? 2 : 1);
    return fs::path(p);
}

bool valid_name_part(std::string_view part)
{
    if (part.empty() || part.size() > 96)
        return false;
    if (part.front() == '-' || part.front() == '.' || part.back() == '-' || part.back() == '.')
        return false;
    if (part.find("..") != std::string_view::npos || part.find("--") != std::string_view::npos)
        return false;
    return std::all_of(part.begin(), part.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
               c == '_' || c == '.';
    });
}

// Revisions are branch or tag names or commit hashes; they become a file name under refs/ and a URL
// path segment, so only the characters the Hub uses in them are allowed (no "..", no leading '/').
// A branch, tag or commit hash as git names them (git check-ref-format): parts separated by '/', none
// empty, none starting with '.' or ending in ".lock", no ".." anywhere. The revision becomes a path under
// refs/ in the cache, so "a/." or "a//b" must not pass.
bool valid_revision(std::string_view rev)
{
    if (rev.empty() || rev.size() > 200 || rev.find("..") != std::string_view::npos)
        return false;
    const bool chars_ok = std::all_of(rev.begin(), rev.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
               c == '_' || c == '.' || c == '/';
    });
    if (!chars_ok)
        return false;
    for (std::size_t start = 0; start <= rev.size();) {
        const std::size_t end = std::min(rev.find('/', start), rev.size());
        const std::string_view part = rev.substr(start, end - start);
        if (part.empty() || part.front() == '.' || part.ends_with(".lock"))
            return false;
        start = end + 1;
    }
    return true;
}

bool exists_file(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec); // follows the snapshot's symlink into blobs/
}

std::string read_small_text(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::string s(128, '\0');
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    s.resize(static_cast<std::size_t>(in.gcount()));
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

HfSnapshot read_snapshot(const fs::path& dir)
{
    HfSnapshot s;
    s.commit = dir.filename().string();
    s.dir = dir;
    s.has_config = exists_file(dir / "config.json");
    s.has_index = exists_file(dir / "model.safetensors.index.json");
    s.has_positions = exists_file(dir / kPartialWeightsFile);
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() > 12 && name.compare(name.size() - 12, 12, ".safetensors") == 0 &&
            name != kPartialWeightsFile && exists_file(it->path()))
            s.safetensors.push_back(name);
    }
    std::sort(s.safetensors.begin(), s.safetensors.end());
    return s;
}

// True when the index parses and every shard it maps to is in the snapshot.
bool index_complete(const fs::path& index, const HfSnapshot& s)
{
    std::ifstream in(index, std::ios::binary);
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
        return false;
    std::set<std::string> shards;
    for (const auto& [tensor, file] : j["weight_map"].items())
        if (file.is_string())
            shards.insert(file.get<std::string>());
    return !shards.empty() && std::all_of(shards.begin(), shards.end(), [&](const std::string& f) {
        return std::find(s.safetensors.begin(), s.safetensors.end(), f) != s.safetensors.end();
    });
}

} // namespace

HfCacheRoot hf_cache_root()
{
    if (const std::string v = env("HF_HUB_CACHE"); !v.empty())
        return {expand_user(v), "HF_HUB_CACHE"};
    if (const std::string v = env("HUGGINGFACE_HUB_CACHE"); !v.empty())
        return {expand_user(v), "HUGGINGFACE_HUB_CACHE"};
    if (const std::string v = env("HF_HOME"); !v.empty())
        return {expand_user(v) / "hub", "HF_HOME"};
    if (const std::string v = env("XDG_CACHE_HOME"); !v.empty())
        return {expand_user(v) / "huggingface" / "hub", "XDG_CACHE_HOME"};
    return {expand_user("~/.cache") / "huggingface" / "hub", "default"};
}

HfModelRef parse_hf_model_ref(std::string_view text)
{
    HfModelRef ref;
    std::string_view id = text;
    if (const auto at = text.find('@'); at != std::string_view::npos) {
        id = text.substr(0, at);
        ref.revision = std::string(text.substr(at + 1));
        if (!valid_revision(ref.revision))
            throw HfCacheError(
                "model '" + quote_input(std::string(text)) +
                "': the revision after '@' must be a branch, tag or commit hash (letters, digits, "
                "'-', '_', '.', '/'; parts between '/' not empty and not starting with '.')");
    }
    const auto slash = id.find('/');
    const bool ok = slash == std::string_view::npos
                        ? valid_name_part(id)
                        : valid_name_part(id.substr(0, slash)) && valid_name_part(id.substr(slash + 1));
    if (!ok)
        throw HfCacheError(
            "model '" + quote_input(std::string(text)) +
            "' is not a Hugging Face model name: give org/name or org/name@revision, each part "
            "1 to 96 letters, digits, '-', '_' or '.' (like openai-community/gpt2)");
    ref.repo_id = std::string(id);
    return ref;
}

std::string hf_repo_folder(std::string_view repo_id)
{
    std::string out = "models--";
    for (const char c : repo_id) {
        if (c == '/')
            out += "--";
        else
            out += c;
    }
    return out;
}

std::vector<HfCachedModel> list_hf_cache(const fs::path& root)
{
    std::vector<HfCachedModel> models;
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code dir_ec;
        if (name.rfind("models--", 0) != 0 || !it->is_directory(dir_ec))
            continue;
        HfCachedModel m;
        m.dir = it->path();
        // models--org--name -> org/name (names never contain "--": valid_name_part).
        std::string id = name.substr(8);
        if (const auto sep = id.find("--"); sep != std::string::npos)
            id.replace(sep, 2, "/");
        m.repo_id = id;
        std::error_code rec;
        for (fs::recursive_directory_iterator r(m.dir / "refs", rec), rend; !rec && r != rend;
             r.increment(rec))
            if (exists_file(r->path()))
                m.refs[r->path().lexically_relative(m.dir / "refs").generic_string()] =
                    read_small_text(r->path());
        std::error_code sec;
        for (fs::directory_iterator s(m.dir / "snapshots", sec), send; !sec && s != send; s.increment(sec)) {
            std::error_code d;
            if (s->is_directory(d))
                m.snapshots.push_back(read_snapshot(s->path()));
        }
        std::sort(m.snapshots.begin(), m.snapshots.end(),
                  [](const HfSnapshot& a, const HfSnapshot& b) { return a.commit < b.commit; });
        models.push_back(std::move(m));
    }
    std::sort(models.begin(), models.end(),
              [](const HfCachedModel& a, const HfCachedModel& b) { return a.repo_id < b.repo_id; });
    return models;
}

HfResolvedModel resolve_hf_model(const fs::path& root, const HfModelRef& ref)
{
    const std::string how =
        "; download it with `posatlas download " + ref.repo_id +
        (ref.revision == "main" ? std::string() : "@" + ref.revision) +
        "` (or File > Open Model... > Download), or set HF_HUB_CACHE / HF_HOME to the cache "
        "that holds it";
    const fs::path dir = root / hf_repo_folder(ref.repo_id);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw HfCacheError("model " + ref.repo_id + " is not in the Hugging Face cache " + root.string() +
                           how);
    std::string commit = ref.revision;
    if (const fs::path r = dir / "refs" / ref.revision; exists_file(r))
        commit = read_small_text(r);
    const fs::path snapshot = dir / "snapshots" / commit;
    if (commit.empty() || commit.find('/') != std::string::npos || !fs::is_directory(snapshot, ec))
        throw HfCacheError("model " + ref.repo_id + ": revision '" + ref.revision + "' is not in the cache " +
                           dir.string() + how);
    const HfSnapshot s = read_snapshot(snapshot);
    if (!s.has_config)
        throw HfCacheError("model " + ref.repo_id + ": the cached snapshot " + snapshot.string() +
                           " has no config.json" + how);
    HfResolvedModel m{ref.repo_id, commit, snapshot, snapshot / "config.json", {}};
    const auto has = [&](const std::string& f) {
        return std::find(s.safetensors.begin(), s.safetensors.end(), f) != s.safetensors.end();
    };
    if (s.has_index && index_complete(snapshot / "model.safetensors.index.json", s))
        m.weights = snapshot / "model.safetensors.index.json";
    else if (has("model.safetensors"))
        m.weights = snapshot / "model.safetensors";
    else if (s.safetensors.size() == 1)
        m.weights = snapshot / s.safetensors.front();
    else if (s.has_positions)
        m.weights = snapshot / std::string(kPartialWeightsFile);
    return m;
}

} // namespace posatlas
