// SPDX-License-Identifier: GPL-3.0-or-later
// A fake Hugging Face Hub for tests, served on this machine by a QTcpServer on the thread that creates it:
// {endpoint}/{repo}/resolve/{rev}/{file} with the X-Repo-Commit and ETag headers, HTTP range requests
// (RFC 9110 14: 206 and Content-Range), and special answers per path (redirects, 401, 404, a connection
// dropped midway, no answer at all, a body dripped byte by byte). It records what it was asked. Two of them
// are two origins on one host (another port). Nothing reaches the network.
#pragma once

#include <QByteArray>
#include <QCryptographicHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace posatlas::test {

struct Seen {
    QByteArray path, range, authorization, host;
};

// One answer: status, headers, body; `drop_after` >= 0 sends only that many body bytes, then closes;
// `hang` sends nothing; `drip_ms` > 0 sends the body one byte every drip_ms milliseconds.
struct Answer {
    int status = 200;
    std::vector<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    qsizetype drop_after = -1;
    bool hang = false;
    int drip_ms = 0;
};

class FakeHub : public QObject
{
public:
    // Files served under /{repo}/resolve/{rev}/{file}, with ranges.
    std::map<QByteArray, QByteArray> files;
    // Paths answered specially (status codes, redirects, drops).
    std::map<QByteArray, std::function<Answer(const Seen&)>> special;
    QList<Seen> seen;
    QByteArray commit = "0123abcd0123abcd0123abcd0123abcd0123abcd";

    // The ETag served for `path`: the hex MD5 of the path (the Hub's are content hashes; any stable name
    // works).
    static QByteArray etag(const QByteArray& path)
    {
        return QCryptographicHash::hash(path, QCryptographicHash::Md5).toHex();
    }

    FakeHub()
    {
        if (!m_server.listen(QHostAddress::Any, 0))
            qFatal("fake Hub: cannot listen");
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection())
                connect(s, &QTcpSocket::readyRead, this, [this, s] { serve(s); });
        });
    }
    QString endpoint() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    quint16 port() const { return m_server.serverPort(); }

    // The answer to `req` for a file of `content`: 206 with its Content-Range for a range request, else 200.
    static Answer range_answer(const QByteArray& content, const Seen& req)
    {
        Answer a;
        if (req.range.startsWith("bytes=")) {
            const QList<QByteArray> r = req.range.mid(6).split('-');
            const qint64 first = r.value(0).toLongLong(),
                         last = qMin<qint64>(r.value(1).toLongLong(), content.size() - 1);
            a.status = 206;
            a.body = content.mid(first, last - first + 1);
            a.headers.push_back({"Content-Range", "bytes " + QByteArray::number(first) + "-" +
                                                      QByteArray::number(last) + "/" +
                                                      QByteArray::number(content.size())});
        } else {
            a.body = content;
        }
        return a;
    }

private:
    void serve(QTcpSocket* s)
    {
        QByteArray& buf = m_buffers[s];
        buf += s->readAll();
        const qsizetype end = buf.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buf.left(end).split('\n');
        buf.clear();
        Seen req;
        req.path = lines.value(0).split(' ').value(1);
        for (const QByteArray& l : lines.mid(1)) {
            const qsizetype colon = l.indexOf(':');
            const QByteArray key = l.left(colon).trimmed().toLower(), value = l.mid(colon + 1).trimmed();
            if (key == "range")
                req.range = value;
            else if (key == "authorization")
                req.authorization = value;
            else if (key == "host")
                req.host = value;
        }
        seen.append(req);
        Answer a = answer(req);
        if (a.hang)
            return;
        QByteArray head = "HTTP/1.1 " + QByteArray::number(a.status) +
                          " X\r\nContent-Length: " + QByteArray::number(a.body.size()) +
                          "\r\nConnection: close\r\n";
        for (const auto& [k, v] : a.headers)
            head += k + ": " + v + "\r\n";
        s->write(head + "\r\n");
        if (a.drip_ms > 0) {
            auto* timer = new QTimer(s);
            auto sent = std::make_shared<qsizetype>(0);
            connect(timer, &QTimer::timeout, s, [s, timer, sent, body = a.body] {
                if (s->state() != QAbstractSocket::ConnectedState || *sent >= body.size()) {
                    timer->stop();
                    s->disconnectFromHost();
                    return;
                }
                s->write(body.mid((*sent)++, 1));
                s->flush();
            });
            timer->start(a.drip_ms);
            return;
        }
        s->write(a.drop_after >= 0 ? a.body.left(a.drop_after) : a.body);
        s->flush();
        s->disconnectFromHost();
    }

    Answer answer(const Seen& req)
    {
        if (const auto it = special.find(req.path); it != special.end())
            return it->second(req);
        const auto f = files.find(req.path);
        if (f == files.end())
            return {404, {}, "Entry not found", -1, false, 0};
        Answer a = range_answer(f->second, req);
        a.headers.push_back({"X-Repo-Commit", commit});
        a.headers.push_back({"ETag", "\"" + etag(req.path) + "\""});
        return a;
    }

    QTcpServer m_server;
    std::map<QTcpSocket*, QByteArray> m_buffers;
};

} // namespace posatlas::test
