// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/hub_download.h"

#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <QCryptographicHash>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>

namespace posatlas {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kMaxConfigBytes = 16 << 20;
// The position tables PosAtlas knows are a few MB (GPT-2's wpe: 1024 x 768 F32 = 3 MB); a hostile header
// cannot make us fetch more than this.
constexpr std::int64_t kMaxTensorBytes = std::int64_t{512} << 20;
constexpr int kMaxRedirects = 5;
constexpr std::int64_t kMaxErrorBytes = 1 << 20;

struct Response {
    int status = 0;
    QByteArray body;
    QUrl url;          // after redirects
    QByteArray commit; // X-Repo-Commit
    QByteArray etag;   // X-Linked-Etag (LFS files), else ETag
};

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

class Fetcher
{
public:
    Fetcher(const HubDownloadRequest& r,
            const std::function<void(std::int64_t, std::int64_t, const std::string&)>& p,
            const std::function<bool()>& c)
        : m_request(r), m_progress(p), m_cancelled(c)
    {
    }

    std::uint64_t received() const { return m_received; }

    // GET `url` (optionally bytes [first, last]); follows up to kMaxRedirects redirects itself, dropping the
    // token when the host changes (the Hub answers LFS files with a 302 to its CDN, as huggingface_hub
    // does for its own requests). 404 returns the status; other failures throw.
    Response get(const QUrl& start, const std::string& what,
                 std::optional<std::pair<std::int64_t, std::int64_t>> range, std::int64_t max_bytes)
    {
        QUrl url = start;
        for (int hop = 0; hop <= kMaxRedirects; ++hop) {
            QNetworkRequest req(url);
            req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
            req.setHeader(QNetworkRequest::UserAgentHeader, QByteArray("posatlas"));
            if (!m_request.token.empty() &&
                url.host() == QUrl(QString::fromStdString(m_request.endpoint)).host())
                req.setRawHeader("Authorization", "Bearer " + QByteArray::fromStdString(m_request.token));
            if (range)
                req.setRawHeader("Range", QByteArray("bytes=") + QByteArray::number(qint64(range->first)) +
                                              '-' + QByteArray::number(qint64(range->second)));
            Response r = run(req, what, max_bytes);
            if (r.status >= 300 && r.status < 400) {
                const QUrl next = url.resolved(QUrl(QString::fromUtf8(m_last_location)));
                if (m_last_location.isEmpty() || !next.isValid() ||
                    (next.scheme() != "http" && next.scheme() != "https"))
                    throw HubError(HubError::Kind::BadResponse, what + ": the Hub redirected (HTTP " +
                                                                    std::to_string(r.status) +
                                                                    ") without a usable Location");
                if (!r.commit.isEmpty())
                    m_commit = r.commit;
                if (!r.etag.isEmpty())
                    m_etag = r.etag;
                url = next;
                continue;
            }
            if (r.commit.isEmpty())
                r.commit = m_commit;
            if (r.etag.isEmpty())
                r.etag = m_etag;
            m_commit.clear();
            m_etag.clear();
            if (r.status == 401 || r.status == 403)
                throw HubError(
                    HubError::Kind::Unauthorized,
                    what + ": the Hub refused access (HTTP " + std::to_string(r.status) +
                        "); the model may be gated or private: accept its licence on its Hub page and set "
                        "HF_TOKEN to an access token of yours");
            if (r.status == 404)
                return r;
            const bool ok = range ? r.status == 206 : r.status == 200;
            if (!ok)
                throw HubError(HubError::Kind::BadResponse,
                               what + ": unexpected HTTP " + std::to_string(r.status) +
                                   (range ? " to a range request (expected 206 Partial Content)" : ""));
            if (range && r.body.size() != range->second - range->first + 1)
                throw HubError(HubError::Kind::Interrupted,
                               what + ": the connection ended after " + std::to_string(r.body.size()) +
                                   " of " + std::to_string(range->second - range->first + 1) +
                                   " bytes; nothing was cached, try again");
            return r;
        }
        throw HubError(HubError::Kind::BadResponse,
                       what + ": more than " + std::to_string(kMaxRedirects) + " redirects");
    }

private:
    Response run(const QNetworkRequest& req, const std::string& what, std::int64_t max_bytes)
    {
        if (m_cancelled && m_cancelled())
            throw HubError(HubError::Kind::Cancelled, "download cancelled");
        QNetworkReply* reply = m_manager.get(req);
        QEventLoop loop;
        QTimer idle, poll;
        idle.setSingleShot(true);
        bool timed_out = false, cancelled = false, too_big = false;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QObject::connect(&idle, &QTimer::timeout, &loop, [&] {
            timed_out = true;
            reply->abort();
        });
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (m_cancelled && m_cancelled()) {
                cancelled = true;
                reply->abort();
            }
        });
        QObject::connect(reply, &QNetworkReply::downloadProgress, &loop, [&](qint64 done, qint64 total) {
            idle.start(m_request.timeout_ms);
            // The limit is for the content asked for; an error page (404's "Entry not found") may be
            // longer than a range of 8 bytes, and only its status matters.
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const bool content = status == 200 || status == 206;
            if (done > (content ? max_bytes : std::max<std::int64_t>(max_bytes, kMaxErrorBytes))) {
                too_big = true;
                reply->abort();
                return;
            }
            if (m_progress)
                m_progress(done, total, what);
        });
        idle.start(m_request.timeout_ms);
        poll.start(50);
        if (!reply->isFinished())
            loop.exec();
        Response r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->isOpen())
            r.body = reply->readAll();
        r.url = reply->url();
        r.commit = reply->rawHeader("X-Repo-Commit");
        r.etag = reply->hasRawHeader("X-Linked-Etag") ? reply->rawHeader("X-Linked-Etag")
                                                      : reply->rawHeader("ETag");
        m_last_location = reply->rawHeader("Location");
        const QNetworkReply::NetworkError error = reply->error();
        const QString error_text = reply->errorString();
        reply->deleteLater();
        m_received += static_cast<std::uint64_t>(r.body.size());
        if (cancelled)
            throw HubError(HubError::Kind::Cancelled, "download cancelled; nothing was cached");
        if (timed_out)
            throw HubError(HubError::Kind::Timeout, what + ": no data for " +
                                                        std::to_string(m_request.timeout_ms / 1000) +
                                                        " s from " + req.url().host().toStdString() +
                                                        "; nothing was cached, try again");
        if (too_big)
            throw HubError(HubError::Kind::BadResponse, what + ": the answer is larger than " +
                                                            std::to_string(max_bytes) + " bytes; refused");
        if (r.status == 0) {
            const bool offline = error == QNetworkReply::HostNotFoundError ||
                                 error == QNetworkReply::ConnectionRefusedError ||
                                 error == QNetworkReply::TemporaryNetworkFailureError ||
                                 error == QNetworkReply::NetworkSessionFailedError ||
                                 error == QNetworkReply::UnknownNetworkError;
            throw HubError(offline ? HubError::Kind::Offline : HubError::Kind::Interrupted,
                           what + ": " + (offline ? "cannot reach " : "the connection to ") +
                               req.url().host().toStdString() +
                               (offline ? " (offline? HF_ENDPOINT set wrong?): " : " failed: ") +
                               error_text.toStdString() + "; nothing was cached");
        }
        // A status with a body cut short (Content-Length not reached) is an interrupted transfer.
        if (error == QNetworkReply::RemoteHostClosedError || error == QNetworkReply::ProtocolFailure ||
            error == QNetworkReply::UnknownContentError || error == QNetworkReply::OperationCanceledError)
            if (r.status == 200 || r.status == 206)
                throw HubError(HubError::Kind::Interrupted, what + ": the connection dropped after " +
                                                                std::to_string(r.body.size()) +
                                                                " bytes; nothing was cached, try again");
        return r;
    }

    const HubDownloadRequest& m_request;
    const std::function<void(std::int64_t, std::int64_t, const std::string&)>& m_progress;
    const std::function<bool()>& m_cancelled;
    QNetworkAccessManager m_manager;
    QByteArray m_last_location, m_commit, m_etag;
    std::uint64_t m_received = 0;
};

struct FetchedTensor {
    std::string name, dtype;
    std::vector<std::int64_t> shape;
    QByteArray bytes;
};

QUrl file_url(const HubDownloadRequest& r, const std::string& commit_or_rev, const std::string& file)
{
    return QUrl(
        QString::fromStdString(r.endpoint + "/" + r.ref.repo_id + "/resolve/" + commit_or_rev + "/" + file));
}

// Reads one shard's header by ranges and fetches the bytes of the known position tensors in it.
void fetch_positions(Fetcher& f, const HubDownloadRequest& r, const std::string& rev, const std::string& file,
                     const std::set<std::string>& wanted, std::vector<FetchedTensor>& out)
{
    const QUrl url = file_url(r, rev, file);
    const Response len = f.get(url, file + " (header length)", std::make_pair(0, 7), 8);
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
    const Response head = f.get(url, file + " (header)",
                                std::make_pair(std::int64_t{8}, std::int64_t(8 + n - 1)), std::int64_t(n));
    const nlohmann::json j = nlohmann::json::parse(head.body.constData(),
                                                   head.body.constData() + head.body.size(), nullptr, false);
    if (!j.is_object())
        throw HubError(HubError::Kind::BadResponse, file + ": the safetensors header is not a JSON object");
    for (const auto& [name, t] : j.items()) {
        if (!wanted.count(name) || !t.is_object())
            continue;
        try {
            const std::string dtype = t.at("dtype").get<std::string>();
            const auto shape = t.at("shape").get<std::vector<std::int64_t>>();
            const auto offsets = t.at("data_offsets").get<std::vector<std::uint64_t>>();
            std::int64_t elements = 1;
            for (const std::int64_t d : shape) {
                if (d < 0 || d > kMaxTensorBytes)
                    throw std::invalid_argument("shape");
                elements *= d;
                if (elements > kMaxTensorBytes)
                    throw std::invalid_argument("shape");
            }
            const int size = safetensors_dtype_size(dtype);
            if (size == 0 || offsets.size() != 2 || offsets[1] < offsets[0] ||
                offsets[1] - offsets[0] !=
                    static_cast<std::uint64_t>(elements) * static_cast<std::uint64_t>(size) ||
                offsets[1] - offsets[0] > static_cast<std::uint64_t>(kMaxTensorBytes))
                throw std::invalid_argument("offsets");
            FetchedTensor ft{name, dtype, shape, {}};
            if (offsets[1] > offsets[0]) {
                const auto first = static_cast<std::int64_t>(8 + n + offsets[0]);
                const Response data = f.get(
                    url, file + " (" + name + ")",
                    std::make_pair(first, first + static_cast<std::int64_t>(offsets[1] - offsets[0]) - 1),
                    static_cast<std::int64_t>(offsets[1] - offsets[0]));
                if (data.status == 404)
                    throw HubError(HubError::Kind::NotFound, file + ": not found on the Hub");
                ft.bytes = data.body;
            }
            out.push_back(std::move(ft));
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

// The safetensors file of `tensors` (huggingface/safetensors README "Format"), the header padded with
// spaces to a multiple of 8 bytes as the reference writer does.
QByteArray safetensors_bytes(const std::vector<FetchedTensor>& tensors, const std::string& source)
{
    nlohmann::json header = nlohmann::json::object();
    std::uint64_t at = 0;
    for (const FetchedTensor& t : tensors) {
        header[t.name] = {{"dtype", t.dtype},
                          {"shape", t.shape},
                          {"data_offsets", {at, at + static_cast<std::uint64_t>(t.bytes.size())}}};
        at += static_cast<std::uint64_t>(t.bytes.size());
    }
    header["__metadata__"] = {{"format", "pt"}, {"posatlas_source", source}};
    std::string text = header.dump();
    while (text.size() % 8 != 0)
        text += ' ';
    QByteArray out;
    for (int i = 0; i < 8; ++i)
        out.append(static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xFF));
    out.append(text.data(), static_cast<qsizetype>(text.size()));
    for (const FetchedTensor& t : tensors)
        out.append(t.bytes);
    return out;
}

// Writes `bytes` to `target` through "<target>.incomplete" (huggingface_hub's suffix for blobs being
// downloaded), renamed when complete.
void write_atomically(const fs::path& target, const QByteArray& bytes)
{
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    const fs::path temp = target.string() + ".incomplete";
    QFile file(QString::fromStdString(temp.string()));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size() ||
        !file.flush()) {
        const std::string why = file.errorString().toStdString();
        file.close();
        fs::remove(temp, ec);
        throw HubError(HubError::Kind::Storage, target.string() + ": cannot write the cache: " + why);
    }
    file.close();
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw HubError(HubError::Kind::Storage,
                       target.string() + ": cannot write the cache: " + ec.message());
    }
}

void replace_symlink(const fs::path& link, const fs::path& to)
{
    std::error_code ec;
    fs::create_directories(link.parent_path(), ec);
    const fs::path temp = link.string() + ".incomplete";
    fs::remove(temp, ec);
    fs::create_symlink(to, temp, ec);
    if (!ec)
        fs::rename(temp, link, ec);
    if (ec)
        throw HubError(HubError::Kind::Storage, link.string() + ": cannot write the cache: " + ec.message());
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
    Fetcher f(request, progress, cancelled);
    HubDownloadResult result;

    // 1. config.json, which also names the commit the revision points at.
    const Response config = f.get(file_url(request, request.ref.revision, "config.json"), "config.json",
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

    // 2. The position tensors, by ranges: model.safetensors, else the shards the index names.
    std::vector<FetchedTensor> tensors;
    std::string weights_source;
    if (request.weights) {
        std::set<std::string> wanted;
        for (const KnownPositionTensor& k : known_position_tensors())
            wanted.insert(std::string(k.name));
        try {
            fetch_positions(f, request, commit, "model.safetensors", wanted, tensors);
            weights_source = "model.safetensors";
        } catch (const HubError& e) {
            if (e.kind() != HubError::Kind::NotFound)
                throw;
            const Response index = f.get(file_url(request, commit, "model.safetensors.index.json"),
                                         "model.safetensors.index.json", std::nullopt, kMaxConfigBytes);
            if (index.status == 404) {
                result.notes.push_back(
                    "the model has no model.safetensors on the Hub; only config.json was fetched");
            } else {
                const nlohmann::json j = nlohmann::json::parse(
                    index.body.constData(), index.body.constData() + index.body.size(), nullptr, false);
                if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
                    throw HubError(HubError::Kind::BadResponse,
                                   "model.safetensors.index.json has no weight_map");
                std::set<std::string> shards;
                for (const auto& [name, file] : j["weight_map"].items())
                    if (wanted.count(name) && file.is_string())
                        shards.insert(file.get<std::string>());
                for (const std::string& shard : shards) {
                    if (shard.find('/') != std::string::npos || shard.find("..") != std::string::npos)
                        throw HubError(HubError::Kind::BadResponse,
                                       "model.safetensors.index.json names shard '" + shard +
                                           "' outside the model");
                    fetch_positions(f, request, commit, shard, wanted, tensors);
                }
                weights_source = "model.safetensors.index.json";
            }
        }
        if (!weights_source.empty() && tensors.empty())
            result.notes.push_back(weights_source +
                                   " has no position tensor PosAtlas knows (the model computes its "
                                   "positions, like RoPE or ALiBi); only config.json was fetched");
    }

    // 3. Only now, with every byte in hand, the cache: nothing of an interrupted download is kept.
    const fs::path model = request.cache_root / hf_repo_folder(request.ref.repo_id);
    result.commit = commit;
    result.snapshot = model / "snapshots" / commit;
    std::string blob = safe_name(config.etag);
    if (blob.empty())
        blob = QCryptographicHash::hash(config.body, QCryptographicHash::Sha256).toHex().toStdString();
    write_atomically(model / "blobs" / blob, config.body);
    replace_symlink(result.snapshot / "config.json", fs::path("../../blobs") / blob);
    result.config = result.snapshot / "config.json";
    if (!tensors.empty()) {
        result.positions = result.snapshot / std::string(kPartialWeightsFile);
        write_atomically(result.positions, safetensors_bytes(tensors, request.ref.repo_id + "@" + commit +
                                                                          "/" + weights_source));
        for (const FetchedTensor& t : tensors)
            result.tensors.push_back(t.name);
    }
    if (commit != request.ref.revision)
        write_atomically(model / "refs" / request.ref.revision, QByteArray::fromStdString(commit));
    result.bytes = f.received();
    return result;
}

} // namespace posatlas
