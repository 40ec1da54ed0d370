// SPDX-License-Identifier: GPL-3.0-or-later
// One HTTP GET to the Hub for ui/hub/hub_download.cpp, with everything a hostile server could abuse
// bounded: redirects followed by hand (at most kMaxRedirects, the token only to the endpoint's own scheme,
// host and port: hub_sends_token), the answer's size (max_bytes), a 206's Content-Range checked against the
// range asked for before any byte is used, no byte for the timeout, and a minimum rate over each timeout
// period (a server dripping one byte per period would otherwise never time out). The content may be
// streamed to a sink (a cache file) instead of memory.
#pragma once

#include "hub/hub_download.h"

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QUrl>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace posatlas {

// The idle timeout alone lets a server send a byte just before each timeout for ever; over each timeout
// period a transfer must also bring this many bytes per second on average (any link the Hub is used over
// is a thousand times faster).
inline constexpr std::int64_t kHubMinBytesPerSecond = 1024;

struct HubResponse {
    int status = 0;
    QByteArray body;       // the content, unless it went to the sink; an error page
    std::int64_t size = 0; // content bytes received
    QByteArray commit;     // X-Repo-Commit
    QByteArray etag;       // X-Linked-Etag (LFS files), else ETag
};

// Whether `value` (a Content-Range header) says the bytes first..last (RFC 9110 14.4: "bytes
// first-last/complete-length", the length a number or "*").
bool hub_content_range_matches(const QByteArray& value, std::int64_t first, std::int64_t last);

class HubFetcher
{
public:
    using Progress = std::function<void(std::int64_t, std::int64_t, const std::string&)>;
    using Sink = std::function<void(const char*, std::size_t)>;
    using Range = std::optional<std::pair<std::int64_t, std::int64_t>>;

    HubFetcher(const HubDownloadRequest& r, const Progress& p, const std::function<bool()>& c)
        : m_request(r), m_progress(p), m_cancelled(c)
    {
    }

    std::uint64_t received() const { return m_received; }

    // GET `url` (optionally bytes [first, last]); 404 returns the status, other failures throw HubError.
    // With a sink, the content (the 200, or the 206 whose Content-Range matches) goes there as it arrives
    // and body stays empty; a sink's exception aborts the request and is rethrown.
    HubResponse get(const QUrl& url, const std::string& what, Range range, std::int64_t max_bytes,
                    const Sink& sink = {});

private:
    HubResponse run(const QUrl& url, const std::string& what, Range range, std::int64_t max_bytes,
                    const Sink& sink);

    const HubDownloadRequest& m_request;
    const Progress& m_progress;
    const std::function<bool()>& m_cancelled;
    QNetworkAccessManager m_manager;
    QByteArray m_last_location;
    std::uint64_t m_received = 0;
};

} // namespace posatlas
