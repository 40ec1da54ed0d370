// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/hub_download.h"

#include "hub/hub_cache_writer.h"
#include "hub/hub_fetcher.h"
#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QUrl>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace posatlas {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kMaxConfigBytes = 16 << 20;

// A header value usable as a file name (commit hashes, etags): letters, digits, '-', '_' only.
std::string safe_name(QByteArray v)
{
    v = v.trimmed();
    if (v.startsWith("W/"))
        v = v.mid(2);
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
        v = v.mid(1, v.size() - 2);
    if (v.isEmpty() || v.size() > 128)
        return {};
    for (const char c : v)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              c == '_'))
            return {};
    return v.toStdString();
}

// An ETag that is a sha256 (64 hex digits): the Hub's ETag of an LFS file, and the name huggingface_hub
// gives a blob; the content must hash to it.
bool is_sha256(const std::string& etag)
{
    return etag.size() == 64 && std::all_of(etag.begin(), etag.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// One known position tensor to fetch: its entry in the header of `file` and its bytes there.
struct PlannedTensor {
    std::string name, dtype, file;
    std::vector<std::int64_t> shape;
    std::int64_t first = 0, size = 0; // absolute byte range [first, first + size) in `file`
};

QUrl file_url(const HubDownloadRequest& r, const std::string& commit_or_rev, const std::string& file)
{
    return QUrl(
        QString::fromStdString(r.endpoint + "/" + r.ref.repo_id + "/resolve/" + commit_or_rev + "/" + file));
}

// Reads one file's safetensors header by ranges and plans the tensors of `names` in it; with `required`
// (the index says the file holds them) each must be there. Refuses, from the header alone, a tensor that
// cannot be a position table.
void plan_file(HubFetcher& f, const HubDownloadRequest& r, const std::string& rev, const std::string& file,
               const std::set<std::string>& names, bool required, std::vector<PlannedTensor>& out)
{
    const QUrl url = file_url(r, rev, file);
    const HubResponse len = f.get(url, file + " (header length)", std::make_pair(0, 7), 8);
    if (len.status == 404)
        throw HubError(HubError::Kind::NotFound, file + ": not found on the Hub");
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(len.body[i]);
    if (n < 2 || n > kMaxSafetensorsHeaderBytes)
        throw HubError(HubError::Kind::BadResponse, file + ": header length " + std::to_string(n) +
                                                        " is not a safetensors header (at most " +
                                                        std::to_string(kMaxSafetensorsHeaderBytes) +
                                                        " bytes)");
    const HubResponse head = f.get(url, file + " (header)",
                                   std::make_pair(std::int64_t{8}, std::int64_t(8 + n - 1)), std::int64_t(n));
    if (head.status == 404)
        throw HubError(HubError::Kind::NotFound, file + ": not found on the Hub");
    const nlohmann::json j = nlohmann::json::parse(head.body.constData(),
                                                   head.body.constData() + head.body.size(), nullptr, false);
    if (!j.is_object())
        throw HubError(HubError::Kind::BadResponse, file + ": the safetensors header is not a JSON object");
    for (const std::string& name : names) {
        const auto it = j.find(name);
        if (it == j.end() || !it->is_object()) {
            if (required)
                throw HubError(HubError::Kind::BadResponse, "model.safetensors.index.json puts '" + name +
                                                                "' in " + file +
                                                                ", whose header has no such tensor");
            continue;
        }
        try {
            const std::string dtype = it->at("dtype").get<std::string>();
            const auto shape = it->at("shape").get<std::vector<std::int64_t>>();
            const auto offsets = it->at("data_offsets").get<std::vector<std::uint64_t>>();
            const int element = safetensors_dtype_size(dtype);
            if (element == 0 || offsets.size() != 2 || offsets[1] < offsets[0])
                throw std::invalid_argument("offsets");
            // Bytes the shape says, saturated just past the limit (the product of hostile dimensions
            // overflows).
            const auto limit = static_cast<std::uint64_t>(kHubMaxPositionTensorBytes);
            std::uint64_t bytes = static_cast<std::uint64_t>(element);
            for (const std::int64_t d : shape) {
                if (d < 0)
                    throw std::invalid_argument("shape");
                const auto ud = static_cast<std::uint64_t>(d);
                bytes = ud != 0 && bytes > (limit + 1) / ud ? limit + 1 : std::min(bytes * ud, limit + 1);
            }
            SafetensorsTensor probe;
            probe.shape = shape;
            if (!probe.matrix_shape())
                throw HubError(HubError::Kind::BadResponse,
                               file + ": tensor '" + name + "' has " + std::to_string(shape.size()) +
                                   " dimensions; a position table has 2 (positions x width), after leading "
                                   "dimensions of 1; refused");
            if (bytes > limit) {
                const std::uint64_t said = offsets[1] - offsets[0];
                throw HubError(
                    HubError::Kind::BadResponse,
                    file + ": tensor '" + name + "' takes " +
                        (said > limit ? std::to_string(said) : "more than " + std::to_string(limit)) +
                        " bytes; a position table takes 0 to " + std::to_string(limit) +
                        " bytes (kHubMaxPositionTensorBytes; real ones are a few MB); refused "
                        "before fetching it");
            }
            if (offsets[1] - offsets[0] != bytes || offsets[1] > std::uint64_t{1} << 62)
                throw std::invalid_argument("offsets");
            out.push_back({name, dtype, file, shape, static_cast<std::int64_t>(8 + n + offsets[0]),
                           static_cast<std::int64_t>(bytes)});
        } catch (const nlohmann::json::exception&) {
            throw HubError(HubError::Kind::BadResponse,
                           file + ": tensor '" + name + "' has a malformed header entry");
        } catch (const std::invalid_argument&) {
            throw HubError(HubError::Kind::BadResponse,
                           file + ": tensor '" + name +
                               "' has a dtype, shape or data_offsets that do not agree");
        }
    }
}

// The start of the safetensors file of `plan` (huggingface/safetensors README "Format"): the 8-byte
// length and the header, padded with spaces to a multiple of 8 bytes as the reference writer does; the
// tensors' bytes follow in plan order.
QByteArray safetensors_head(const std::vector<PlannedTensor>& plan, const std::string& source)
{
    nlohmann::json header = nlohmann::json::object();
    std::uint64_t at = 0;
    for (const PlannedTensor& t : plan) {
        const auto size = static_cast<std::uint64_t>(t.size);
        header[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {at, at + size}}};
        at += size;
    }
    header["__metadata__"] = {{"format", "pt"}, {"posatlas_source", source}};
    std::string text = header.dump();
    while (text.size() % 8 != 0)
        text += ' ';
    QByteArray out;
    for (int i = 0; i < 8; ++i)
        out.append(static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xFF));
    out.append(text.data(), static_cast<qsizetype>(text.size()));
    return out;
}

// Plans the known position tensors of the model at `commit`: from model.safetensors, else from the shards
// its index names, each tensor only from the shard the index puts it in. Returns the file they come from
// (empty when the model has no safetensors weights).
std::string plan_positions(HubFetcher& f, const HubDownloadRequest& request, const std::string& commit,
                           std::vector<PlannedTensor>& plan, HubDownloadResult& result)
{
    std::set<std::string> wanted;
    for (const KnownPositionTensor& k : known_position_tensors())
        wanted.insert(std::string(k.name));
    try {
        plan_file(f, request, commit, "model.safetensors", wanted, false, plan);
        return "model.safetensors";
    } catch (const HubError& e) {
        if (e.kind() != HubError::Kind::NotFound)
            throw;
    }
    const HubResponse index = f.get(file_url(request, commit, "model.safetensors.index.json"),
                                    "model.safetensors.index.json", std::nullopt, kMaxConfigBytes);
    if (index.status == 404) {
        result.notes.push_back("the model has no model.safetensors on the Hub; only config.json was fetched");
        return {};
    }
    const nlohmann::json j = nlohmann::json::parse(
        index.body.constData(), index.body.constData() + index.body.size(), nullptr, false);
    if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
        throw HubError(HubError::Kind::BadResponse, "model.safetensors.index.json has no weight_map");
    std::map<std::string, std::set<std::string>> shards; // shard -> the known tensors the index puts there
    for (const auto& [name, file] : j["weight_map"].items())
        if (wanted.count(name) && file.is_string())
            shards[file.get<std::string>()].insert(name);
    for (const auto& [shard, names] : shards) {
        if (shard.empty() || shard.find('/') != std::string::npos || shard.find("..") != std::string::npos)
            throw HubError(HubError::Kind::BadResponse,
                           "model.safetensors.index.json names shard '" + shard + "' outside the model");
        plan_file(f, request, commit, shard, names, true, plan);
    }
    return "model.safetensors.index.json";
}

} // namespace

HubDownloadRequest hub_request_from_environment(const HfModelRef& ref)
{
    HubDownloadRequest r;
    r.ref = ref;
    if (const char* e = std::getenv("HF_ENDPOINT"); e && *e) {
        r.endpoint = e;
        while (!r.endpoint.empty() && r.endpoint.back() == '/')
            r.endpoint.pop_back();
    }
    if (const char* t = std::getenv("HF_TOKEN"); t && *t)
        r.token = t;
    r.cache_root = hf_cache_root().path;
    return r;
}

HubDownloadResult
download_hub_model(const HubDownloadRequest& request,
                   const std::function<void(std::int64_t, std::int64_t, const std::string&)>& progress,
                   const std::function<bool()>& cancelled)
{
    const QUrl endpoint(QString::fromStdString(request.endpoint));
    if (!endpoint.isValid() || (endpoint.scheme() != "http" && endpoint.scheme() != "https") ||
        endpoint.host().isEmpty())
        throw HubError(HubError::Kind::Offline,
                       "HF_ENDPOINT '" + request.endpoint +
                           "' is not an http(s) address like https://huggingface.co");
    HubFetcher f(request, progress, cancelled);
    HubDownloadResult result;

    // 1. config.json, which also names the commit the revision points at.
    const HubResponse config = f.get(file_url(request, request.ref.revision, "config.json"), "config.json",
                                     std::nullopt, kMaxConfigBytes);
    if (config.status == 404)
        throw HubError(HubError::Kind::NotFound,
                       request.ref.repo_id + "@" + request.ref.revision + ": no such model or revision on " +
                           request.endpoint + " (or it is private: set HF_TOKEN), or it has no config.json");
    if (!nlohmann::json::accept(config.body.constData(), config.body.constData() + config.body.size()))
        throw HubError(HubError::Kind::BadResponse, "config.json from " + request.endpoint + " is not JSON");
    std::string commit = safe_name(config.commit);
    if (commit.empty())
        commit = safe_name(QByteArray::fromStdString(request.ref.revision));
    if (commit.empty())
        throw HubError(HubError::Kind::BadResponse, "the Hub did not say which commit '" +
                                                        request.ref.revision +
                                                        "' is (no X-Repo-Commit header)");
    const std::string config_sha256 =
        QCryptographicHash::hash(config.body, QCryptographicHash::Sha256).toHex().toStdString();
    std::string blob = safe_name(config.etag);
    if (blob.empty())
        blob = config_sha256;
    if (is_sha256(blob) && blob != config_sha256)
        throw HubError(HubError::Kind::BadResponse, "config.json: its sha256 is " + config_sha256 +
                                                        ", not the ETag " + blob +
                                                        " the Hub sent; refused, nothing was cached");

    // 2. The position tensors: every header first, so that the limits hold before any tensor is fetched.
    std::vector<PlannedTensor> plan;
    std::string weights_source;
    if (request.weights) {
        weights_source = plan_positions(f, request, commit, plan, result);
        if (!weights_source.empty() && plan.empty())
            result.notes.push_back(weights_source +
                                   " has no position tensor PosAtlas knows (the model computes its "
                                   "positions, like RoPE or ALiBi); only config.json was fetched");
        std::int64_t total = 0;
        std::string names;
        for (const PlannedTensor& t : plan) {
            total += t.size;
            names += (names.empty() ? "" : ", ") + t.name;
        }
        if (total > kHubMaxPositionBytesTotal)
            throw HubError(HubError::Kind::BadResponse,
                           weights_source + ": the position tensors " + names + " take " +
                               std::to_string(total) + " bytes in all; one download fetches 0 to " +
                               std::to_string(kHubMaxPositionBytesTotal) +
                               " bytes (kHubMaxPositionBytesTotal: two of the largest real tables); refused "
                               "before fetching them");
    }

    // 3. The cache, all or nothing (hub_cache_writer.h): the tensors stream into a temporary file next to
    // their place; config.json's blob and symlink, the ref, then the tensors' file get their names only
    // when every request succeeded. Any failure removes what this download wrote.
    const fs::path model = request.cache_root / hf_repo_folder(request.ref.repo_id);
    result.commit = commit;
    result.snapshot = model / "snapshots" / commit;
    HubCacheWriter cache;
    int positions = -1;
    if (!plan.empty()) {
        result.positions = result.snapshot / std::string(kPartialWeightsFile);
        positions = cache.open(result.positions);
        const QByteArray head =
            safetensors_head(plan, request.ref.repo_id + "@" + commit + "/" + weights_source);
        cache.write(positions, head.constData(), static_cast<std::size_t>(head.size()));
        for (const PlannedTensor& t : plan) {
            if (t.size > 0 && f.get(file_url(request, commit, t.file), t.file + " (" + t.name + ")",
                                    std::make_pair(t.first, t.first + t.size - 1), t.size,
                                    [&](const char* data, std::size_t n) {
                                        cache.write(positions, data, n);
                                    }).status == 404)
                throw HubError(HubError::Kind::NotFound, t.file + ": not found on the Hub");
            result.tensors.push_back(t.name);
        }
    }
    cache.add_blob(model / "blobs" / blob, config.body);
    cache.add_symlink(result.snapshot / "config.json", fs::path("../../blobs") / blob, config.body);
    result.config = result.snapshot / "config.json";
    if (commit != request.ref.revision)
        cache.write_file(model / "refs" / request.ref.revision, QByteArray::fromStdString(commit));
    if (positions >= 0)
        cache.finish(positions);
    cache.commit();
    result.bytes = f.received();
    return result;
}

} // namespace posatlas
