// SPDX-License-Identifier: GPL-3.0-or-later
// Fetching a model from the Hugging Face Hub into the local cache, only when the user asks
// (`posatlas download`, File > Open Model... > Download). What is fetched:
//   - config.json: GET {endpoint}/{org}/{name}/resolve/{rev}/config.json (huggingface_hub hf_hub_url);
//   - the position tensors PosAtlas knows (io/safetensors.h known_position_tensors), never a whole
//   checkpoint:
//     the safetensors header by HTTP range requests (bytes 0-7 give its length N, then bytes 8..8+N-1),
//     then only each known tensor's byte range. A sharded checkpoint's model.safetensors.index.json says
//     which shard holds each tensor.
// Storage, in huggingface_hub's cache layout (io/hf_cache.h): config.json as blobs/ETAG with the symlink
// snapshots/COMMIT/config.json -> ../../blobs/ETAG and refs/REV = COMMIT (the X-Repo-Commit header);
// the tensors as snapshots/COMMIT/posatlas-positions.safetensors, a complete safetensors file holding only
// those tensors (bytes unchanged). It is deliberately not named model.safetensors: transformers and
// other tools would take it for the whole checkpoint and fail on the missing tensors.
// Every header is read before any tensor is fetched, so the limits below refuse a hostile header before
// any of its bytes is asked for; the tensors then stream to disk, never whole into memory. The cache is
// written all or nothing (hub_cache_writer.h): unique temporary files renamed when complete, an existing
// blob never rewritten, a new one checked against a sha256 ETag; a failed, interrupted or cancelled
// download leaves the cache as it was, and a storage error names the errno.
#pragma once

#include "io/hf_cache.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace posatlas {

class HubError : public InputFileError
{
public:
    enum class Kind {
        Offline,
        Unauthorized,
        NotFound,
        Interrupted,
        Timeout,
        BadResponse,
        Cancelled,
        Storage
    };
    HubError(Kind kind, const std::string& message) : InputFileError(message), m_kind(kind) {}
    Kind kind() const { return m_kind; }

private:
    Kind m_kind;
};

// The position tables PosAtlas knows are a few MB (GPT-2's wpe: 1024 x 768 F32 = 3 MB); the largest real
// one, OPT-175B's embed_positions (2050 x 12288), is 50 MB in F16 and 100 MB in F32. A header naming a
// larger one is not a position table, and is refused before any of its bytes is fetched.
inline constexpr std::int64_t kHubMaxPositionTensorBytes = std::int64_t{128} << 20;
// All the position tensors of one download, over every shard: two of the largest tables. Without it the
// known names times any number of shards would be unbounded.
inline constexpr std::int64_t kHubMaxPositionBytesTotal = std::int64_t{256} << 20;

// Whether a request to `url` carries the token meant for `endpoint`: only when scheme, host and port are
// the same (a redirect to another port, or from https to http on the same host, must not receive it).
bool hub_sends_token(const std::string& endpoint, const std::string& url);

struct HubDownloadRequest {
    HfModelRef ref;
    std::string endpoint = "https://huggingface.co"; // no trailing '/'
    std::string token;                               // sent as "Authorization: Bearer TOKEN" when not empty
    std::filesystem::path cache_root;
    bool weights = true;    // also fetch the known position tensors
    int timeout_ms = 30000; // without any byte received, or with fewer than kHubMinBytesPerSecond over it
};

// endpoint from $HF_ENDPOINT (huggingface_hub constants.py), token from $HF_TOKEN, cache from
// hf_cache_root().
HubDownloadRequest hub_request_from_environment(const HfModelRef& ref);

struct HubDownloadResult {
    std::string commit;
    std::filesystem::path snapshot;
    std::filesystem::path config;
    std::filesystem::path positions;  // empty when no known position tensor was found
    std::vector<std::string> tensors; // fetched tensor names
    std::uint64_t bytes = 0;          // bytes received
    std::vector<std::string> notes;   // sentences for the user (no weights on the Hub, no known tensor, ...)
};

// progress(done, total, what): bytes of the current request (total -1 when unknown). cancelled() is polled;
// when it returns true the request is aborted and HubError(Cancelled) thrown. Blocks while running a local
// event loop: call it from a worker thread in the GUI. Needs a QCoreApplication.
HubDownloadResult
download_hub_model(const HubDownloadRequest& request,
                   const std::function<void(std::int64_t, std::int64_t, const std::string&)>& progress = {},
                   const std::function<bool()>& cancelled = {});

} // namespace posatlas
