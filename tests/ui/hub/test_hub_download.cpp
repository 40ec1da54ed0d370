// SPDX-License-Identifier: GPL-3.0-or-later
// Downloads from the Hugging Face Hub (ui/hub/hub_download.h) against a fake Hub that this test serves on
// 127.0.0.1 with a QTcpServer: huggingface_hub's URL scheme ({endpoint}/{repo}/resolve/{rev}/{file}), the
// X-Repo-Commit and ETag headers, HTTP range requests (RFC 9110 14: 206 with Content-Range), the 302 the Hub
// answers for LFS files (to a CDN host, here "localhost" instead of "127.0.0.1"), 401, 404, a connection
// dropped midway, a server that never answers, a closed port. The cache is then checked file by file;
// nothing in this test reaches the network.
#include "fake_hub.h"
#include "hub/hub_download.h"
#include "io/hf_cache.h"
#include "io/safetensors.h"
#include "weights_fixtures.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include <unistd.h>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

// A GPT-2-like checkpoint: wpe.weight 12 x 2 in F16 (row p = [p, -p]) and a large wte that must not be
// fetched.
QByteArray gpt2_checkpoint()
{
    std::vector<std::uint16_t> wpe;
    const std::uint16_t ints[] = {0x0000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500,
                                  0x4600, 0x4700, 0x4800, 0x4880, 0x4900, 0x4980};
    for (int p = 0; p < 12; ++p) {
        wpe.push_back(ints[p]);
        wpe.push_back(static_cast<std::uint16_t>(ints[p] | 0x8000));
    }
    std::vector<float> wte(4096 * 8, 0.5f);
    const std::string bytes = test::safetensors_file(
        {test::u16_tensor("wpe.weight", "F16", {12, 2}, wpe), test::f32_tensor("wte.weight", 4096, 8, wte)},
        R"({"format":"pt"})");
    return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
}

// Every regular file and symlink under `dir`, relative.
QStringList cache_files(const fs::path& dir)
{
    QStringList out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (!it->is_directory())
            out << QString::fromStdString(it->path().lexically_relative(dir).generic_string());
    out.sort();
    return out;
}

} // namespace

class HubDownloadTest : public QObject
{
    Q_OBJECT

private:
    fs::path m_root;
    int m_case = 0;

    HubDownloadRequest request(const FakeHub& hub, const QString& repo = QStringLiteral("org/gpt2"))
    {
        m_root = fs::temp_directory_path() / ("posatlas_hub_tests_" + std::to_string(::getpid())) /
                 std::to_string(m_case++);
        fs::remove_all(m_root);
        HubDownloadRequest r;
        r.ref = parse_hf_model_ref(repo.toStdString());
        r.endpoint = hub.endpoint().toStdString();
        r.cache_root = m_root;
        r.timeout_ms = 5000;
        return r;
    }

    // Runs the download expecting `kind`; returns the message.
    static QString failure(const HubDownloadRequest& r, HubError::Kind kind,
                           const std::function<bool()>& cancelled = {})
    {
        try {
            download_hub_model(r, {}, cancelled);
        } catch (const HubError& e) {
            if (e.kind() != kind)
                qWarning() << "unexpected kind" << int(e.kind()) << e.what();
            return e.kind() == kind ? QString::fromStdString(e.what()) : QString();
        }
        return QString();
    }

    static void serve_gpt2(FakeHub& hub, const QByteArray& checkpoint)
    {
        hub.files["/org/gpt2/resolve/main/config.json"] =
            R"({"model_type":"gpt2","n_positions":12,"n_embd":2})";
        // model.safetensors is an LFS file: the Hub redirects to its CDN (another host) with the commit.
        hub.files["/cdn/model.safetensors"] = checkpoint;
        hub.special["/org/gpt2/resolve/" + hub.commit + "/model.safetensors"] = [&hub](const Seen&) {
            Answer a;
            a.status = 302;
            a.headers.push_back(
                {"Location",
                 QStringLiteral("http://localhost:%1/cdn/model.safetensors").arg(hub.port()).toUtf8()});
            a.headers.push_back({"X-Repo-Commit", hub.commit});
            a.headers.push_back({"X-Linked-Etag", "\"lfsetag\""});
            return a;
        };
    }

private slots:
    void fetchesConfigAndOnlyThePositionTensorBytesThroughTheCdnRedirect()
    {
        FakeHub hub;
        const QByteArray checkpoint = gpt2_checkpoint();
        serve_gpt2(hub, checkpoint);
        HubDownloadRequest r = request(hub);
        r.token = "secret";
        std::int64_t progress_calls = 0;
        const HubDownloadResult result =
            download_hub_model(r, [&](std::int64_t, std::int64_t, const std::string&) { ++progress_calls; });
        QCOMPARE(QString::fromStdString(result.commit), QString::fromUtf8(hub.commit));
        QCOMPARE(result.tensors, std::vector<std::string>{"wpe.weight"});
        QVERIFY(progress_calls > 0);
        // Only 8 + header + 48 bytes of wpe from the checkpoint (its wte alone is 128 KiB).
        QVERIFY2(result.bytes < 1024, std::to_string(result.bytes).c_str());
        QVERIFY(checkpoint.size() > 100000);

        // The token went to the Hub, never to the CDN; the CDN saw ranges only.
        for (const Seen& s : hub.seen) {
            if (s.path.startsWith("/cdn/")) {
                QVERIFY(s.authorization.isEmpty());
                QVERIFY2(s.range.startsWith("bytes="), s.path.constData());
            } else {
                QCOMPARE(s.authorization, QByteArray("Bearer secret"));
            }
        }
        QVERIFY(std::any_of(hub.seen.begin(), hub.seen.end(),
                            [](const Seen& s) { return s.range == "bytes=0-7"; }));

        // huggingface_hub's layout: blob named by the etag, relative symlink, refs/main = commit.
        const fs::path model = m_root / "models--org--gpt2";
        const QString commit = QString::fromUtf8(hub.commit);
        QCOMPARE(
            cache_files(model),
            QStringList({"blobs/" + QString::fromUtf8(FakeHub::etag("/org/gpt2/resolve/main/config.json")),
                         "refs/main", "snapshots/" + commit + "/config.json",
                         "snapshots/" + commit + "/posatlas-positions.safetensors"}));
        QVERIFY(fs::is_symlink(model / "snapshots" / hub.commit.toStdString() / "config.json"));
        std::ifstream ref(model / "refs" / "main");
        std::string ref_text;
        ref >> ref_text;
        QCOMPARE(QString::fromStdString(ref_text), commit);

        // The partial file is a valid safetensors of its own, its values the checkpoint's bit for bit.
        const SafetensorsCatalog cat = read_safetensors(result.positions.string());
        QCOMPARE(cat.tensors.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(cat.tensors[0].dtype), QStringLiteral("F16"));
        const std::vector<double> v = read_safetensors_values(cat.tensors[0], 1000);
        QCOMPARE(v.size(), std::size_t(24));
        for (int p = 0; p < 12; ++p) {
            QCOMPARE(v[static_cast<std::size_t>(2 * p)], double(p));
            QCOMPARE(v[static_cast<std::size_t>(2 * p + 1)], -double(p));
        }
        QCOMPARE(QString::fromStdString(cat.metadata.at("posatlas_source")),
                 "org/gpt2@" + commit + "/model.safetensors");

        // --model finds it: the cache resolves to the fetched config and the positions file.
        const HfResolvedModel m = resolve_hf_model(m_root, parse_hf_model_ref("org/gpt2"));
        QCOMPARE(m.weights, result.positions);
        QCOMPARE(m.config, result.config);
    }

    void readsShardedCheckpointsThroughTheirIndex()
    {
        FakeHub hub;
        hub.files["/org/big/resolve/main/config.json"] = "{}";
        hub.files["/org/big/resolve/" + hub.commit + "/model.safetensors.index.json"] =
            R"({"weight_map":{"wte.weight":"model-00001-of-00002.safetensors","wpe.weight":"model-00002-of-00002.safetensors"}})";
        hub.files["/org/big/resolve/" + hub.commit + "/model-00002-of-00002.safetensors"] = gpt2_checkpoint();
        const HubDownloadResult result = download_hub_model(request(hub, "org/big"));
        QCOMPARE(result.tensors, std::vector<std::string>{"wpe.weight"});
        // The first shard, which holds no position tensor, was never asked for.
        for (const Seen& s : hub.seen)
            QVERIFY(!s.path.contains("00001"));
    }

    void modelsWithoutKnownTensorsOrWeightsCacheTheConfigWithANote()
    {
        FakeHub hub;
        hub.files["/org/llama/resolve/main/config.json"] = R"({"model_type":"llama"})";
        const std::string bytes =
            test::safetensors_file({test::f32_tensor("lm_head.weight", 2, 2, {1, 2, 3, 4})});
        hub.files["/org/llama/resolve/" + hub.commit + "/model.safetensors"] =
            QByteArray::fromStdString(bytes);
        const HubDownloadResult result = download_hub_model(request(hub, "org/llama"));
        QVERIFY(result.positions.empty());
        QCOMPARE(result.notes.size(), std::size_t(1));
        QVERIFY(result.notes[0].find("no position tensor PosAtlas knows") != std::string::npos);
        QVERIFY(fs::exists(result.config));
    }

    void unauthorizedSaysToSetTheTokenAndCachesNothing()
    {
        FakeHub hub;
        hub.special["/org/gated/resolve/main/config.json"] = [](const Seen&) {
            return Answer{401, {}, "gated", -1, false, 0};
        };
        const HubDownloadRequest r = request(hub, "org/gated");
        const QString message = failure(r, HubError::Kind::Unauthorized);
        QVERIFY2(message.contains("HF_TOKEN") && message.contains("401") && message.contains("licence"),
                 qPrintable(message));
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void notFoundNamesTheModelAndCachesNothing()
    {
        FakeHub hub;
        const HubDownloadRequest r = request(hub, "org/absent@v2");
        const QString message = failure(r, HubError::Kind::NotFound);
        QVERIFY2(message.contains("org/absent@v2") && message.contains("no such model"), qPrintable(message));
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void aConnectionDroppedMidwayLeavesNoCachedFile()
    {
        FakeHub hub;
        const QByteArray checkpoint = gpt2_checkpoint();
        serve_gpt2(hub, checkpoint);
        // The CDN drops the connection halfway through the tensor's bytes (after its headers were read).
        hub.special["/cdn/model.safetensors"] = [&](const Seen& s) {
            Answer a = FakeHub::range_answer(checkpoint, s);
            if (s.range.mid(6).split('-').value(0).toLongLong() > 8 + 100) // past the header: the tensor data
                a.drop_after = a.body.size() / 2;
            return a;
        };
        const HubDownloadRequest r = request(hub);
        const QString message = failure(r, HubError::Kind::Interrupted);
        QVERIFY2(message.contains("nothing was cached"), qPrintable(message));
        QVERIFY2(cache_files(m_root).isEmpty(), qPrintable(cache_files(m_root).join(", ")));
    }

    void cancelAbortsAndCachesNothing()
    {
        FakeHub hub;
        serve_gpt2(hub, gpt2_checkpoint());
        const HubDownloadRequest r = request(hub);
        int polls = 0;
        QVERIFY(!failure(r, HubError::Kind::Cancelled, [&] { return ++polls > 1; }).isEmpty());
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void aSilentServerTimesOutAndAClosedPortIsOffline()
    {
        FakeHub hub;
        hub.special["/org/slow/resolve/main/config.json"] = [](const Seen&) {
            return Answer{200, {}, {}, -1, true, 0};
        };
        HubDownloadRequest r = request(hub, "org/slow");
        r.timeout_ms = 300;
        const QString slow = failure(r, HubError::Kind::Timeout);
        QVERIFY2(slow.contains("no data for"), qPrintable(slow));

        // A port that was just free: nothing listens there.
        quint16 closed = 0;
        {
            QTcpServer s;
            QVERIFY(s.listen(QHostAddress::LocalHost, 0));
            closed = s.serverPort();
        }
        r.endpoint = "http://127.0.0.1:" + std::to_string(closed);
        const QString offline = failure(r, HubError::Kind::Offline);
        QVERIFY2(offline.contains("cannot reach"), qPrintable(offline));
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void hostileHeadersAreRefused()
    {
        FakeHub hub;
        hub.files["/org/evil/resolve/main/config.json"] = "{}";
        // A header length of 2^40 bytes: refused before any allocation.
        hub.files["/org/evil/resolve/" + hub.commit + "/model.safetensors"] =
            QByteArray::fromStdString(test::le_bytes(std::uint64_t{1} << 40, 8)) + "{}";
        const QString message = failure(request(hub, "org/evil"), HubError::Kind::BadResponse);
        QVERIFY2(message.contains("header length"), qPrintable(message));
        QVERIFY(cache_files(m_root).isEmpty());
    }
};

QTEST_GUILESS_MAIN(HubDownloadTest)
#include "test_hub_download.moc"
