// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub/hub_fetcher.h"

#include <QEventLoop>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>
#include <exception>

namespace posatlas {

namespace {

constexpr int kMaxRedirects = 5;
constexpr std::int64_t kMaxErrorBytes = 1 << 20;

// The port a URL reaches: its own, else its scheme's default.
int effective_port(const QUrl& u)
{
    return u.port(u.scheme() == "https" ? 443 : u.scheme() == "http" ? 80 : -1);
}

std::string range_text(std::int64_t first, std::int64_t last)
{
    return std::to_string(first) + "-" + std::to_string(last);
}

} // namespace

bool hub_sends_token(const std::string& endpoint, const std::string& url)
{
    // QUrl lower-cases scheme and host.
    const QUrl e(QString::fromStdString(endpoint)), u(QString::fromStdString(url));
    return e.isValid() && u.isValid() && !e.host().isEmpty() && e.scheme() == u.scheme() &&
           e.host() == u.host() && effective_port(e) == effective_port(u);
}

bool hub_content_range_matches(const QByteArray& value, std::int64_t first, std::int64_t last)
{
    const QByteArray v = value.trimmed();
    if (!v.startsWith("bytes "))
        return false;
    const QByteArray spec = v.mid(6).trimmed();
    const qsizetype dash = spec.indexOf('-'), slash = spec.indexOf('/');
    if (dash <= 0 || slash <= dash + 1)
        return false;
    const auto digits = [](const QByteArray& s) {
        return !s.isEmpty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const QByteArray a = spec.left(dash), b = spec.mid(dash + 1, slash - dash - 1),
                     total = spec.mid(slash + 1);
    if (!digits(a) || !digits(b) || (total != "*" && !digits(total)))
        return false;
    return a.toLongLong() == first && b.toLongLong() == last && (total == "*" || total.toLongLong() > last);
}

HubResponse HubFetcher::get(const QUrl& start, const std::string& what, Range range, std::int64_t max_bytes,
                            const Sink& sink)
{
    QUrl url = start;
    QByteArray commit, etag; // of a redirect: the Hub sends them with its 302 to the CDN
    for (int hop = 0; hop <= kMaxRedirects; ++hop) {
        HubResponse r = run(url, what, range, max_bytes, sink);
        if (r.status >= 300 && r.status < 400) {
            const QUrl next = url.resolved(QUrl(QString::fromUtf8(m_last_location)));
            if (m_last_location.isEmpty() || !next.isValid() ||
                (next.scheme() != "http" && next.scheme() != "https"))
                throw HubError(HubError::Kind::BadResponse, what + ": the Hub redirected (HTTP " +
                                                                std::to_string(r.status) +
                                                                ") without a usable Location");
            if (!r.commit.isEmpty())
                commit = r.commit;
            if (!r.etag.isEmpty())
                etag = r.etag;
            url = next;
            continue;
        }
        if (r.commit.isEmpty())
            r.commit = commit;
        if (r.etag.isEmpty())
            r.etag = etag;
        if (r.status == 401 || r.status == 403)
            throw HubError(HubError::Kind::Unauthorized,
                           what + ": the Hub refused access (HTTP " + std::to_string(r.status) +
                               "); the model may be gated or private: accept its licence on its Hub page and "
                               "set HF_TOKEN to an access token of yours");
        if (r.status == 404)
            return r;
        const bool ok = range ? r.status == 206 : r.status == 200;
        if (!ok)
            throw HubError(HubError::Kind::BadResponse,
                           what + ": unexpected HTTP " + std::to_string(r.status) +
                               (range ? " to a range request (expected 206 Partial Content)" : ""));
        if (range && r.size != range->second - range->first + 1)
            throw HubError(HubError::Kind::Interrupted, what + ": the connection ended after " +
                                                            std::to_string(r.size) + " of " +
                                                            std::to_string(range->second - range->first + 1) +
                                                            " bytes; nothing was cached, try again");
        return r;
    }
    throw HubError(HubError::Kind::BadResponse,
                   what + ": more than " + std::to_string(kMaxRedirects) + " redirects");
}

HubResponse HubFetcher::run(const QUrl& url, const std::string& what, Range range, std::int64_t max_bytes,
                            const Sink& sink)
{
    if (m_cancelled && m_cancelled())
        throw HubError(HubError::Kind::Cancelled, "download cancelled");
    QNetworkRequest req(url);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setHeader(QNetworkRequest::UserAgentHeader, QByteArray("posatlas"));
    if (!m_request.token.empty() && hub_sends_token(m_request.endpoint, url.toString().toStdString()))
        req.setRawHeader("Authorization", "Bearer " + QByteArray::fromStdString(m_request.token));
    if (range)
        req.setRawHeader("Range",
                         QByteArray::fromStdString("bytes=" + range_text(range->first, range->second)));
    QNetworkReply* reply = m_manager.get(req);
    QEventLoop loop;
    QTimer idle, poll, pace;
    idle.setSingleShot(true);
    bool timed_out = false, cancelled = false, too_big = false, too_slow = false, bad_range = false;
    bool checked = false, content = false;
    std::exception_ptr sink_error;
    HubResponse r;
    std::int64_t bytes = 0, window_start = 0; // everything received, content or not
    QByteArray content_range;
    // Takes what arrived: to the sink or the body, after checking the status and Content-Range once.
    const auto drain = [&] {
        if (!checked) {
            checked = true;
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            content = range ? status == 206 : status == 200;
            content_range = reply->rawHeader("Content-Range");
            if (content && range && !hub_content_range_matches(content_range, range->first, range->second)) {
                bad_range = true;
                reply->abort();
                return;
            }
        }
        const QByteArray chunk = reply->readAll();
        bytes += chunk.size();
        // The limit is for the content asked for; an error page (404's "Entry not found") may be longer
        // than a range of 8 bytes, and only its status matters.
        if (bytes > (content ? max_bytes : std::max(max_bytes, kMaxErrorBytes))) {
            too_big = true;
            reply->abort();
            return;
        }
        if (content)
            r.size += chunk.size();
        if (content && sink && !chunk.isEmpty()) {
            try {
                sink(chunk.constData(), static_cast<std::size_t>(chunk.size()));
            } catch (...) {
                sink_error = std::current_exception();
                reply->abort();
            }
        } else {
            r.body += chunk;
        }
    };
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, drain);
    QObject::connect(&idle, &QTimer::timeout, &loop, [&] {
        timed_out = true;
        reply->abort();
    });
    QObject::connect(&pace, &QTimer::timeout, &loop, [&] {
        if (bytes - window_start < kHubMinBytesPerSecond * m_request.timeout_ms / 1000) {
            too_slow = true;
            reply->abort();
        }
        window_start = bytes;
    });
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (m_cancelled && m_cancelled()) {
            cancelled = true;
            reply->abort();
        }
    });
    QObject::connect(reply, &QNetworkReply::downloadProgress, &loop, [&](qint64 done, qint64 total) {
        idle.start(m_request.timeout_ms);
        if (m_progress)
            m_progress(done, total, what);
    });
    idle.start(m_request.timeout_ms);
    pace.start(m_request.timeout_ms);
    poll.start(50);
    if (!reply->isFinished())
        loop.exec();
    const bool aborted = timed_out || cancelled || too_big || too_slow || bad_range || sink_error;
    if (!aborted && reply->isOpen())
        drain();
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.commit = reply->rawHeader("X-Repo-Commit");
    r.etag =
        reply->hasRawHeader("X-Linked-Etag") ? reply->rawHeader("X-Linked-Etag") : reply->rawHeader("ETag");
    m_last_location = reply->rawHeader("Location");
    const QNetworkReply::NetworkError error = reply->error();
    const QString error_text = reply->errorString();
    reply->deleteLater();
    m_received += static_cast<std::uint64_t>(bytes);
    const std::string host = url.host().toStdString();
    if (sink_error)
        std::rethrow_exception(sink_error);
    if (cancelled)
        throw HubError(HubError::Kind::Cancelled, "download cancelled; nothing was cached");
    if (timed_out)
        throw HubError(HubError::Kind::Timeout, what + ": no data for " +
                                                    std::to_string(m_request.timeout_ms / 1000) + " s from " +
                                                    host + "; nothing was cached, try again");
    if (too_slow)
        throw HubError(HubError::Kind::Timeout, what + ": fewer than " +
                                                    std::to_string(kHubMinBytesPerSecond) + " bytes/s from " +
                                                    host + " (" + std::to_string(bytes - window_start) +
                                                    " bytes in " + std::to_string(m_request.timeout_ms) +
                                                    " ms, the timeout); nothing was cached, try again");
    if (too_big)
        throw HubError(HubError::Kind::BadResponse,
                       what + ": the answer is larger than " + std::to_string(max_bytes) + " bytes; refused");
    if (bad_range)
        throw HubError(HubError::Kind::BadResponse,
                       what + ": asked for bytes " + range_text(range->first, range->second) +
                           ", the server answered Content-Range '" +
                           QString::fromLatin1(content_range.left(100)).toStdString() +
                           "'; refused, nothing was cached");
    if (r.status == 0) {
        const bool offline =
            error == QNetworkReply::HostNotFoundError || error == QNetworkReply::ConnectionRefusedError ||
            error == QNetworkReply::TemporaryNetworkFailureError ||
            error == QNetworkReply::NetworkSessionFailedError || error == QNetworkReply::UnknownNetworkError;
        throw HubError(offline ? HubError::Kind::Offline : HubError::Kind::Interrupted,
                       what + ": " + (offline ? "cannot reach " : "the connection to ") + host +
                           (offline ? " (offline? HF_ENDPOINT set wrong?): " : " failed: ") +
                           error_text.toStdString() + "; nothing was cached");
    }
    // A status with a body cut short (Content-Length not reached) is an interrupted transfer.
    if (error == QNetworkReply::RemoteHostClosedError || error == QNetworkReply::ProtocolFailure ||
        error == QNetworkReply::UnknownContentError || error == QNetworkReply::OperationCanceledError)
        if (r.status == 200 || r.status == 206)
            throw HubError(HubError::Kind::Interrupted, what + ": the connection dropped after " +
                                                            std::to_string(r.size) +
                                                            " bytes; nothing was cached, try again");
    return r;
}

} // namespace posatlas
