// SPDX-License-Identifier: GPL-3.0-or-later
// Downloads from the Hugging Face Hub (ui/hub/hub_download.h) against a hostile server on 127.0.0.1 (the
// fake Hub of tests/support/fake_hub.h, scripted per path): a redirect to another port on the same host, a
// header naming huge tensors, an index naming other shards than the ones that hold a tensor, a 206 whose
// Content-Range is not the range asked for, a body dripped byte by byte, an ETag naming a blob already
// cached, a cache that cannot be written. The download must refuse, stay within its limits and leave the
// cache as it was. Nothing in this test reaches the network.
#include "fake_hub.h"
#include "hub/hub_download.h"
#include "io/hf_cache.h"
#include "io/safetensors.h"
#include "weights_fixtures.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QTest>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

QByteArray bytes_of(const std::string& s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
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

std::string read_text(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A safetensors file of which only the header exists: its ranges are served, any range in the data after
// it is counted in `*data_requests` and refused with 416 (the data would be hundreds of MiB).
std::function<Answer(const Seen&)> header_only(const FakeHub& hub, const std::string& header,
                                               int* data_requests)
{
    const QByteArray file = bytes_of(le_bytes(header.size(), 8) + header);
    return [file, data_requests, commit = hub.commit](const Seen& s) {
        const qint64 first = s.range.mid(6).split('-').value(0).toLongLong();
        if (first >= file.size()) {
            ++*data_requests;
            return Answer{416, {}, {}, -1, false, 0};
        }
        Answer a = FakeHub::range_answer(file, s);
        a.headers.push_back({"X-Repo-Commit", commit});
        return a;
    };
}

// A header entry for `name`: F32 [rows, cols] at data offset `at`.
std::string f32_entry(const std::string& name, std::int64_t rows, std::int64_t cols, std::int64_t at)
{
    return "\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(rows) + "," +
           std::to_string(cols) + "],\"data_offsets\":[" + std::to_string(at) + "," +
           std::to_string(at + rows * cols * 4) + "]}";
}

// Makes writes past `bytes` fail with EFBIG ("File too large") in this process, like a full disk, and
// undoes it when destroyed. Root is not exempt, unlike from file permissions.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit l = m_old;
        l.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &l);
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_handler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_old{};
    void (*m_handler)(int) = nullptr;
};

} // namespace

class HubHostileTest : public QObject
{
    Q_OBJECT

private:
    fs::path m_root;
    int m_case = 0;

    HubDownloadRequest request(const FakeHub& hub, const QString& repo = QStringLiteral("org/gpt2"))
    {
        m_root = fs::temp_directory_path() / ("posatlas_hub_hostile_" + std::to_string(::getpid())) /
                 std::to_string(m_case++);
        fs::remove_all(m_root);
        HubDownloadRequest r;
        r.ref = parse_hf_model_ref(repo.toStdString());
        r.endpoint = hub.endpoint().toStdString();
        r.cache_root = m_root;
        r.timeout_ms = 5000;
        return r;
    }

    // Runs the download expecting `kind`; returns the message (empty when it succeeded or failed otherwise).
    static QString failure(const HubDownloadRequest& r, HubError::Kind kind)
    {
        try {
            download_hub_model(r);
        } catch (const HubError& e) {
            if (e.kind() != kind)
                qWarning() << "unexpected kind" << int(e.kind()) << e.what();
            return e.kind() == kind ? QString::fromStdString(e.what()) : QString();
        }
        qWarning() << "the download succeeded";
        return QString();
    }

    static void serve_config(FakeHub& hub, const QByteArray& repo = "org/gpt2")
    {
        hub.files["/" + repo + "/resolve/main/config.json"] = R"({"model_type":"gpt2"})";
    }

private slots:
    void theTokenIsNotSentToAnotherPortOfTheSameHost()
    {
        FakeHub hub, other;
        hub.special["/org/gpt2/resolve/main/config.json"] = [&](const Seen&) {
            Answer a;
            a.status = 302;
            a.headers.push_back(
                {"Location", (other.endpoint() + "/org/gpt2/resolve/main/config.json").toUtf8()});
            a.headers.push_back({"X-Repo-Commit", hub.commit});
            return a;
        };
        serve_config(other);
        HubDownloadRequest r = request(hub);
        r.token = "secret";
        r.weights = false;
        download_hub_model(r);
        QCOMPARE(hub.seen.value(0).authorization, QByteArray("Bearer secret"));
        QCOMPARE(other.seen.size(), 1);
        QVERIFY2(other.seen[0].authorization.isEmpty(), other.seen[0].authorization.constData());
    }

    void theTokenGoesOnlyToTheEndpointsSchemeHostAndPort_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("sent");
        QTest::newRow("same origin") << "https://huggingface.co"
                                     << "https://huggingface.co/a/resolve/main/x" << true;
        QTest::newRow("explicit default port") << "https://huggingface.co"
                                               << "https://huggingface.co:443/x" << true;
        QTest::newRow("host case") << "https://huggingface.co"
                                   << "https://HuggingFace.co/x" << true;
        QTest::newRow("https to http") << "https://huggingface.co"
                                       << "http://huggingface.co/x" << false;
        QTest::newRow("http to https") << "http://127.0.0.1:8080"
                                       << "https://127.0.0.1:8080/x" << false;
        QTest::newRow("other port") << "http://127.0.0.1:18090"
                                    << "http://127.0.0.1:18091/x" << false;
        QTest::newRow("default to other port") << "https://huggingface.co"
                                               << "https://huggingface.co:8443/x" << false;
        QTest::newRow("other host") << "https://huggingface.co"
                                    << "https://cdn-lfs.hf.co/x" << false;
        QTest::newRow("suffix host") << "https://huggingface.co"
                                     << "https://huggingface.co.evil/x" << false;
    }

    void theTokenGoesOnlyToTheEndpointsSchemeHostAndPort()
    {
        QFETCH(QString, endpoint);
        QFETCH(QString, url);
        QFETCH(bool, sent);
        QCOMPARE(hub_sends_token(endpoint.toStdString(), url.toStdString()), sent);
    }

    void twoHugeTensorsAreRefusedFromTheHeaderAlone()
    {
        FakeHub hub;
        serve_config(hub);
        int data_requests = 0;
        // Two known names of 512 MiB each (F32 131072 x 1024).
        const std::string header =
            "{" + f32_entry("wpe.weight", 131072, 1024, 0) + "," +
            f32_entry("transformer.wpe.weight", 131072, 1024, std::int64_t{512} << 20) + "}";
        hub.special["/org/gpt2/resolve/" + hub.commit + "/model.safetensors"] =
            header_only(hub, header, &data_requests);
        const QString message = failure(request(hub), HubError::Kind::BadResponse);
        QVERIFY2(message.contains("536870912") &&
                     message.contains(QString::number(kHubMaxPositionTensorBytes)),
                 qPrintable(message));
        QCOMPARE(data_requests, 0);
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void theTotalCapHoldsAcrossShardsBeforeAnyTensorIsFetched()
    {
        FakeHub hub;
        serve_config(hub);
        const QByteArray at = "/org/gpt2/resolve/" + hub.commit + "/";
        hub.files[at + "model.safetensors.index.json"] =
            R"({"weight_map":{"wpe.weight":"s1.safetensors","embeddings.position_embeddings.weight":"s2.safetensors","decoder.embed_positions.weight":"s3.safetensors"}})";
        int data_requests = 0;
        // Each 100 MiB (F32 25600 x 1024), below the limit of one tensor; 300 MiB together.
        const std::int64_t rows = 25600;
        hub.special[at + "s1.safetensors"] =
            header_only(hub, "{" + f32_entry("wpe.weight", rows, 1024, 0) + "}", &data_requests);
        hub.special[at + "s2.safetensors"] =
            header_only(hub, "{" + f32_entry("embeddings.position_embeddings.weight", rows, 1024, 0) + "}",
                        &data_requests);
        hub.special[at + "s3.safetensors"] = header_only(
            hub, "{" + f32_entry("decoder.embed_positions.weight", rows, 1024, 0) + "}", &data_requests);
        QVERIFY(3 * rows * 1024 * 4 > kHubMaxPositionBytesTotal &&
                rows * 1024 * 4 <= kHubMaxPositionTensorBytes);
        const QString message = failure(request(hub), HubError::Kind::BadResponse);
        QVERIFY2(message.contains(QString::number(3 * rows * 1024 * 4)) &&
                     message.contains(QString::number(kHubMaxPositionBytesTotal)),
                 qPrintable(message));
        QCOMPARE(data_requests, 0);
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void eachTensorComesFromTheShardTheIndexNames()
    {
        FakeHub hub;
        serve_config(hub);
        const QByteArray at = "/org/gpt2/resolve/" + hub.commit + "/";
        hub.files[at + "model.safetensors.index.json"] =
            R"({"weight_map":{"wpe.weight":"a.safetensors","transformer.wpe.weight":"b.safetensors"}})";
        hub.files[at + "a.safetensors"] =
            bytes_of(safetensors_file({f32_tensor("wpe.weight", 2, 2, {1, 2, 3, 4})}));
        // b holds a stale copy of wpe.weight too; the index says a's is the one.
        hub.files[at + "b.safetensors"] =
            bytes_of(safetensors_file({f32_tensor("transformer.wpe.weight", 2, 2, {5, 6, 7, 8}),
                                       f32_tensor("wpe.weight", 2, 2, {9, 9, 9, 9})}));
        const HubDownloadResult result = download_hub_model(request(hub));
        const SafetensorsCatalog cat = read_safetensors(result.positions.string());
        QCOMPARE(cat.tensors.size(), std::size_t(2));
        QCOMPARE(read_safetensors_values(*cat.find("wpe.weight"), 10), (std::vector<double>{1, 2, 3, 4}));
        QCOMPARE(read_safetensors_values(*cat.find("transformer.wpe.weight"), 10),
                 (std::vector<double>{5, 6, 7, 8}));
    }

    void aContentRangeOtherThanTheRangeAskedForIsRefused_data()
    {
        QTest::addColumn<QByteArray>("content_range");
        QTest::newRow("other bytes") << QByteArray("shifted");
        QTest::newRow("none") << QByteArray();
        QTest::newRow("garbage") << QByteArray("bytes zero-seven/*");
    }

    void aContentRangeOtherThanTheRangeAskedForIsRefused()
    {
        QFETCH(QByteArray, content_range);
        FakeHub hub;
        serve_config(hub);
        const std::vector<StTensor> tensors = {f32_tensor("wpe.weight", 2, 2, {1, 2, 3, 4}),
                                               f32_tensor("wte.weight", 2, 2, {6, 6, 6, 6})};
        const QByteArray file = bytes_of(safetensors_file(tensors));
        const qint64 data_start = 8 + static_cast<qint64>(safetensors_header(tensors).size());
        // The tensor's range is answered with the bytes (and Content-Range) of the next tensor, same length.
        hub.special["/org/gpt2/resolve/" + hub.commit + "/model.safetensors"] = [=](const Seen& s) {
            const QList<QByteArray> r = s.range.mid(6).split('-');
            const qint64 first = r.value(0).toLongLong(), last = r.value(1).toLongLong();
            if (first < data_start)
                return FakeHub::range_answer(file, s);
            const qint64 shift = 16;
            Answer a{206, {}, file.mid(first + shift, last - first + 1), -1, false, 0};
            if (content_range == "shifted")
                a.headers.push_back({"Content-Range", "bytes " + QByteArray::number(first + shift) + "-" +
                                                          QByteArray::number(last + shift) + "/" +
                                                          QByteArray::number(file.size())});
            else if (!content_range.isEmpty())
                a.headers.push_back({"Content-Range", content_range});
            return a;
        };
        const QString message = failure(request(hub), HubError::Kind::BadResponse);
        QVERIFY2(message.contains("Content-Range"), qPrintable(message));
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void aBodyDrippedByteByByteEndsWithinTheTimeout()
    {
        FakeHub hub;
        // 120 bytes, one every 50 ms: 6 s in all, never 500 ms without a byte.
        hub.special["/org/gpt2/resolve/main/config.json"] = [&](const Seen&) {
            Answer a;
            a.body = "{\"model_type\":\"" + QByteArray(100, 'x') + "\"}";
            a.body += QByteArray(120 - a.body.size(), ' ');
            a.headers.push_back({"X-Repo-Commit", hub.commit});
            a.drip_ms = 50;
            return a;
        };
        HubDownloadRequest r = request(hub);
        r.timeout_ms = 500;
        QElapsedTimer clock;
        clock.start();
        const QString message = failure(r, HubError::Kind::Timeout);
        const qint64 elapsed = clock.elapsed();
        QVERIFY2(message.contains("bytes/s"), qPrintable(message));
        QVERIFY2(elapsed < 3000, qPrintable(QString::number(elapsed) + " ms"));
        QVERIFY(cache_files(m_root).isEmpty());
    }

    void anEtagNamingACachedBlobOfOtherContentIsRefused()
    {
        FakeHub hub;
        const QByteArray etag = "5eed5eed";
        hub.special["/org/gpt2/resolve/main/config.json"] = [&](const Seen&) {
            Answer a;
            a.body = R"({"model_type":"gpt2","n_positions":9})";
            a.headers.push_back({"X-Repo-Commit", hub.commit});
            a.headers.push_back({"ETag", "\"" + etag + "\""});
            return a;
        };
        HubDownloadRequest r = request(hub);
        r.weights = false;
        // A pinned snapshot of the model whose config.json is the blob the ETag names.
        const fs::path model = m_root / "models--org--gpt2";
        fs::create_directories(model / "blobs");
        fs::create_directories(model / "snapshots" / "pinned");
        std::ofstream(model / "blobs" / etag.toStdString()) << R"({"model_type":"gpt2","n_positions":1024})";
        fs::create_symlink(fs::path("../../blobs") / etag.toStdString(),
                           model / "snapshots/pinned/config.json");
        const QStringList before = cache_files(model);

        const QString message = failure(r, HubError::Kind::BadResponse);
        QVERIFY2(message.contains(QString::fromUtf8(etag)), qPrintable(message));
        QCOMPARE(read_text(model / "snapshots/pinned/config.json"),
                 std::string(R"({"model_type":"gpt2","n_positions":1024})"));
        QCOMPARE(cache_files(model), before);
    }

    void anEtagNamingACachedBlobOfTheSameContentReusesIt()
    {
        FakeHub hub;
        serve_config(hub);
        HubDownloadRequest r = request(hub);
        r.weights = false;
        const fs::path model = m_root / "models--org--gpt2";
        const fs::path blob =
            model / "blobs" / FakeHub::etag("/org/gpt2/resolve/main/config.json").toStdString();
        fs::create_directories(blob.parent_path());
        std::ofstream(blob) << R"({"model_type":"gpt2"})";
        struct stat before {
        };
        QCOMPARE(::stat(blob.c_str(), &before), 0);
        const HubDownloadResult result = download_hub_model(r);
        struct stat after {
        };
        QCOMPARE(::stat(blob.c_str(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino); // the same file, not a new one renamed over it
        QCOMPARE(fs::canonical(result.config), fs::canonical(blob));
    }

    void aSha256EtagIsCheckedAgainstTheContent()
    {
        FakeHub hub;
        const QByteArray body = R"({"model_type":"gpt2"})";
        QByteArray etag = QCryptographicHash::hash("other content", QCryptographicHash::Sha256).toHex();
        hub.special["/org/gpt2/resolve/main/config.json"] = [&](const Seen&) {
            Answer a;
            a.body = body;
            a.headers.push_back({"X-Repo-Commit", hub.commit});
            a.headers.push_back({"ETag", "\"" + etag + "\""});
            return a;
        };
        HubDownloadRequest r = request(hub);
        r.weights = false;
        const QString message = failure(r, HubError::Kind::BadResponse);
        QVERIFY2(message.contains("sha256"), qPrintable(message));
        QVERIFY(cache_files(m_root).isEmpty());

        etag = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex();
        const HubDownloadResult result = download_hub_model(r);
        QCOMPARE(fs::read_symlink(result.config), fs::path("../../blobs") / etag.toStdString());
    }

    void aFullDiskNamesTheErrnoAndLeavesNothing()
    {
        FakeHub hub;
        serve_config(hub);
        // wpe.weight 64 x 32 F32: 8 KiB, past a limit of 4 KiB per file.
        hub.files["/org/gpt2/resolve/" + hub.commit + "/model.safetensors"] = bytes_of(
            safetensors_file({f32_tensor("wpe.weight", 64, 32, std::vector<float>(64 * 32, 0.25f))}));
        const HubDownloadRequest r = request(hub);
        QString message;
        {
            const FileSizeLimit full(4096);
            message = failure(r, HubError::Kind::Storage);
        }
        QVERIFY2(message.contains(QString::fromLocal8Bit(std::strerror(EFBIG))), qPrintable(message));
        QVERIFY2(cache_files(m_root).isEmpty(), qPrintable(cache_files(m_root).join(", ")));
    }

    void aFileInTheWayNamesTheErrnoAndLeavesNothing()
    {
        FakeHub hub;
        serve_config(hub);
        HubDownloadRequest r = request(hub);
        r.weights = false;
        // refs/ is a file: config.json's blob and symlink come first, refs/main last.
        const fs::path model = m_root / "models--org--gpt2";
        fs::create_directories(model);
        std::ofstream(model / "refs") << "not a folder";
        const QString message = failure(r, HubError::Kind::Storage);
        QVERIFY2(message.contains(QString::fromLocal8Bit(std::strerror(ENOTDIR))), qPrintable(message));
        QCOMPARE(cache_files(model), QStringList{"refs"});
    }

    void aFailureAtTheLastStepPutsBackTheRefItReplaced()
    {
        FakeHub hub;
        serve_config(hub);
        hub.files["/org/gpt2/resolve/" + hub.commit + "/model.safetensors"] =
            bytes_of(safetensors_file({f32_tensor("wpe.weight", 2, 2, {1, 2, 3, 4})}));
        const HubDownloadRequest r = request(hub);
        // refs/main names an older commit; the tensors' file, renamed last, has a folder in its place.
        const fs::path model = m_root / "models--org--gpt2";
        fs::create_directories(model / "refs");
        std::ofstream(model / "refs/main") << "older";
        const fs::path positions = model / "snapshots" / hub.commit.toStdString() / kPartialWeightsFile;
        fs::create_directories(positions / "in-the-way");
        const QString message = failure(r, HubError::Kind::Storage);
        QVERIFY2(message.contains(QString::fromLocal8Bit(std::strerror(EISDIR))), qPrintable(message));
        QCOMPARE(read_text(model / "refs/main"), std::string("older"));
        QCOMPARE(cache_files(model), QStringList{"refs/main"});

        // Without the folder the same download replaces the ref and leaves no temporary file.
        fs::remove_all(positions);
        download_hub_model(r);
        QCOMPARE(read_text(model / "refs/main"), hub.commit.toStdString());
        for (const QString& f : cache_files(model))
            QVERIFY2(!f.contains("incomplete"), qPrintable(f));
        QCOMPARE(cache_files(model).size(), 4);
    }

    void aRevisionThatIsNoFileNameNamesTheErrnoAndLeavesNothing()
    {
        FakeHub hub;
        hub.files["/org/good/resolve/a/./config.json"] = "{}";
        hub.files["/org/good/resolve/a/config.json"] = "{}";
        HubDownloadRequest r = request(hub, "org/good");
        r.ref.revision = "a/."; // refs/a/. is the folder refs/a
        r.weights = false;
        const QString message = failure(r, HubError::Kind::Storage);
        QVERIFY2(!message.isEmpty() && !message.contains("Success") && !message.contains("Unknown error"),
                 qPrintable(message));
        QVERIFY2(message.contains(QString::fromLocal8Bit(std::strerror(EISDIR))), qPrintable(message));
        QVERIFY2(cache_files(m_root).isEmpty(), qPrintable(cache_files(m_root).join(", ")));
    }
};

QTEST_GUILESS_MAIN(HubHostileTest)
#include "test_hub_hostile.moc"
