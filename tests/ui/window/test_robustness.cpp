// SPDX-License-Identifier: GPL-3.0-or-later
// Reliability of the UI library under hostile input: tick placement for degenerate ranges (which used
// to loop forever), writers on a full disk (which used to report success and truncate the file), session
// and settings files that are too deep, devices, FIFOs, or carry out-of-range values, and raster budgets.
#include "export/figure_export.h"
#include "model/session.h"
#include "model/settings.h"
#include "scenario/validation.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace posatlas;
using namespace posatlas::ui;

class RobustnessTest : public QObject
{
    Q_OBJECT
private slots:
    void niceTicksProperties_data();
    void niceTicksProperties();
    void niceTicksRandomRanges();
    void widenDegenerateRange();
    void degenerateChartsRender_data();
    void degenerateChartsRender();
    void degenerateHeatmapColourBar();
    void writerReportsFlushFailure();
    void fullDiskKeepsThePreviousFile();
    void devicesAreWrittenStraight();
    void pngBudgetNamesTheLargestDpi();
    void sessionDeepNestingIsRefused();
    void sessionVersionMustFit32Bits();
    void sessionIntegersMustFit();
    void sessionFromDeviceOrFifoIsRefused();
    void sessionNamesFileAndKeyOfBadValue();
    void sessionTablePathIsRelativeToTheSession();
    void settingsIgnoreDeepScenario();
    void settingsFileThatIsAFifoIsNotRead();

private:
    QTemporaryDir m_dir;
};

namespace {

// Every property nice_ticks() promises, for any input.
void check_ticks(double lo, double hi, int max_ticks, const char* what)
{
    QElapsedTimer t;
    t.start();
    const std::vector<double> ticks = nice_ticks(lo, hi, max_ticks);
    QVERIFY2(t.elapsed() < 1000, what);
    QVERIFY2(ticks.size() <= static_cast<std::size_t>(kMaxTicks), what);
    if (!std::isfinite(lo) || !std::isfinite(hi) || max_ticks < 1) {
        QVERIFY2(ticks.empty(), what);
        return;
    }
    QVERIFY2(!ticks.empty(), what); // a finite range always gets at least its midpoint
    const double a = std::min(lo, hi), b = std::max(lo, hi);
    // Tolerance: ticks may sit 1e-9 of a step outside the range (the snap), never further.
    const double slack =
        std::max(std::abs(b * 0.5 - a * 0.5) * 1e-6, std::numeric_limits<double>::denorm_min());
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        QVERIFY2(std::isfinite(ticks[i]), what);
        QVERIFY2(ticks[i] >= a - slack && ticks[i] <= b + slack, what);
        if (i > 0)
            QVERIFY2(ticks[i] > ticks[i - 1], what);
    }
    // For ordinary ranges the count respects the request (nice steps may add one or two).
    if (b * 0.5 - a * 0.5 > std::max(std::abs(a), std::abs(b)) * 1e-9)
        QVERIFY2(ticks.size() <= static_cast<std::size_t>(std::min(max_ticks, kMaxTicks)) + 2, what);
}

CurveData flat_curve(double y0, double y1, bool log_y)
{
    CurveData d;
    d.title = QStringLiteral("θ′/θ");
    d.log_y = log_y;
    CurveSeries s;
    s.name = QStringLiteral("ratio");
    for (int i = 0; i < 64; ++i) {
        s.x.push_back(i);
        s.y.push_back(i % 2 ? y1 : y0);
    }
    d.series = {s};
    return d;
}

} // namespace

void RobustnessTest::niceTicksProperties_data()
{
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("maxTicks");
    const double eps = std::numeric_limits<double>::epsilon();
    const double sub = std::numeric_limits<double>::denorm_min();
    QTest::newRow("1 - 1e-16 .. 1 + 1e-16") << 1.0 - 1e-16 << 1.0 + 2 * eps << 6;
    QTest::newRow("equal") << 3.0 << 3.0 << 6;
    QTest::newRow("one ulp apart") << 1.0 << std::nextafter(1.0, 2.0) << 8;
    QTest::newRow("1e15 + 1 ulp") << 1e15 << std::nextafter(1e15, 1e16) << 8;
    QTest::newRow("+-1e300") << -1e300 << 1e300 << 7;
    QTest::newRow("+-max") << -std::numeric_limits<double>::max() << std::numeric_limits<double>::max() << 7;
    QTest::newRow("0 .. max") << 0.0 << std::numeric_limits<double>::max() << 7;
    QTest::newRow("subnormal") << sub << 1000 * sub << 6;
    QTest::newRow("two subnormals") << sub << 2 * sub << 6;
    QTest::newRow("0 .. denorm_min") << 0.0 << sub << 6;
    QTest::newRow("tiny") << 1e-300 << 3e-300 << 6;
    QTest::newRow("reversed") << 10.0 << -10.0 << 5;
    QTest::newRow("ordinary") << 0.0 << 1.0 << 6;
    QTest::newRow("max_ticks huge") << 0.0 << 1.0 << 1000000;
    QTest::newRow("max_ticks 1") << 0.0 << 1.0 << 1;
    QTest::newRow("max_ticks 0") << 0.0 << 1.0 << 0;
    QTest::newRow("nan") << std::nan("") << 1.0 << 6;
    QTest::newRow("inf") << 0.0 << std::numeric_limits<double>::infinity() << 6;
}

void RobustnessTest::niceTicksProperties()
{
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, maxTicks);
    check_ticks(lo, hi, maxTicks, QTest::currentDataTag());
    // Known answers: the ordinary range gets 0, 0.2, ..., 1 (step 0.2 exactly as k * 0.2).
    if (QByteArray(QTest::currentDataTag()) == "ordinary") {
        const auto t = nice_ticks(lo, hi, maxTicks);
        QCOMPARE(t.size(), std::size_t{6});
        QCOMPARE(t.front(), 0.0);
        QCOMPARE(t.back(), 1.0);
    }
    if (QByteArray(QTest::currentDataTag()) == "1 - 1e-16 .. 1 + 1e-16")
        QCOMPARE(nice_ticks(lo, hi, maxTicks).size(), std::size_t{1});
}

void RobustnessTest::niceTicksRandomRanges()
{
    // Seeded: centres across the whole exponent range, widths from 0 to 1e6 times the centre, and raw
    // bit patterns (subnormals included). Every call must end and keep the properties.
    std::mt19937_64 rng(20240601);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> exponent(-320, 307);
    std::uniform_int_distribution<int> ticks(1, 100);
    for (int i = 0; i < 20000; ++i) {
        double lo = 0, hi = 0;
        if (i % 4 == 3) {
            const std::uint64_t a = rng(), b = rng();
            std::memcpy(&lo, &a, sizeof lo);
            std::memcpy(&hi, &b, sizeof hi);
        } else {
            const double centre =
                (unit(rng) < 0.5 ? -1 : 1) * std::pow(10.0, exponent(rng)) * (1 + unit(rng));
            const double rel = i % 4 == 0 ? 0.0 : std::pow(10.0, -17 + 23 * unit(rng));
            lo = centre - std::abs(centre) * rel;
            hi = centre + std::abs(centre) * rel * unit(rng);
        }
        const QByteArray what = QByteArray::number(lo, 'g', 17) + " .. " + QByteArray::number(hi, 'g', 17);
        check_ticks(lo, hi, ticks(rng), what.constData());
        if (QTest::currentTestFailed())
            return;
    }
}

void RobustnessTest::widenDegenerateRange()
{
    double lo = 1.0 - 1e-16, hi = 1.0 + 2e-16;
    widen_degenerate_range(lo, hi);
    QCOMPARE(lo, 0.5); // mid 1 +- 0.5, within 1e-15
    QVERIFY(std::abs(hi - 1.5) < 1e-15);
    lo = -1e300;
    hi = 1e300;
    widen_degenerate_range(lo, hi);
    QVERIFY(std::isfinite(hi - lo));
    lo = 0.0;
    hi = 1.0; // ordinary: unchanged
    widen_degenerate_range(lo, hi);
    QCOMPARE(lo, 0.0);
    QCOMPARE(hi, 1.0);
}

void RobustnessTest::degenerateChartsRender_data()
{
    QTest::addColumn<double>("y0");
    QTest::addColumn<double>("y1");
    QTest::addColumn<bool>("logY");
    QTest::newRow("ratio 1 +- 1e-16") << 1.0 - 1e-16 << 1.0 + 2.2e-16 << false;
    QTest::newRow("ratio 1 +- 1e-16, log") << 1.0 - 1e-16 << 1.0 + 2.2e-16 << true;
    QTest::newRow("10 and next, log") << 10.0 << std::nextafter(10.0, 11.0) << true;
    QTest::newRow("+-1e300") << -1e300 << 1e300 << false;
    QTest::newRow("subnormal") << 5e-324 << 1e-322 << false;
    QTest::newRow("constant") << 2.0 << 2.0 << false;
}

void RobustnessTest::degenerateChartsRender()
{
    // The spectrum's θ′/θ for llama3 with factor 1 is 1 +- 1e-16: Qt Charts stepped from tick to tick
    // with a step that rounded to nothing and never stopped.
    QFETCH(double, y0);
    QFETCH(double, y1);
    QFETCH(bool, logY);
    CurveView view;
    view.setData(flat_curve(y0, y1, logY));
    FigureExportOptions o;
    o.size = QSizeF(400, 300);
    o.dpi = 96;
    QElapsedTimer t;
    t.start();
    const QImage image = render_figure_image(view, o);
    QVERIFY(!image.isNull());
    QVERIFY2(t.elapsed() < 20000, "rendering a degenerate range must finish");
}

void RobustnessTest::degenerateHeatmapColourBar()
{
    for (const auto& [a, b] :
         {std::pair{1.0 - 1e-16, 1.0 + 2.2e-16}, std::pair{-1e300, 1e300}, std::pair{5e-324, 1e-322}}) {
        HeatmapData d;
        HeatmapPanel p;
        p.matrix.values = Eigen::MatrixXd(2, 2);
        p.matrix.values << a, b, b, a;
        p.matrix.row_index = {0, 1};
        p.matrix.col_index = {0, 1};
        p.matrix.min = a;
        p.matrix.max = b;
        p.matrix.value_label = "ratio";
        d.panels = {p};
        HeatmapView view;
        view.setData(d);
        FigureExportOptions o;
        o.size = QSizeF(400, 300);
        o.dpi = 96;
        QElapsedTimer t;
        t.start();
        QVERIFY(!render_figure_image(view, o).isNull());
        QVERIFY(t.elapsed() < 20000);
    }
}

void RobustnessTest::writerReportsFlushFailure()
{
    // /dev/full accepts buffered writes and fails when the buffer goes out (ENOSPC): exactly the error
    // Qt 6.4's QSaveFile::commit() drops. No privileges needed, and nothing is renamed over it.
    QFile full(QStringLiteral("/dev/full"));
    if (!full.open(QIODevice::WriteOnly))
        QSKIP("/dev/full cannot be opened here");
    try {
        write_all_checked(full, QByteArray(100, 'x'));
        QFAIL("a write to /dev/full was reported as written");
    } catch (const ExportError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("space"), Qt::CaseInsensitive),
                 e.what());
    }
    // An ordinary file: everything written, no error.
    QFile ok(m_dir.filePath(QStringLiteral("ok.bin")));
    QVERIFY(ok.open(QIODevice::WriteOnly));
    write_all_checked(ok, QByteArray(100, 'y'));
    ok.close();
    QCOMPARE(QFileInfo(ok.fileName()).size(), 100);
}

void RobustnessTest::fullDiskKeepsThePreviousFile()
{
    // A real full disk: a 64 kB tmpfs. Needs mount privileges (root in CI); skipped with the reason
    // otherwise. writerReportsFlushFailure covers the same writer without privileges.
    const QString mnt = m_dir.filePath(QStringLiteral("tiny"));
    QVERIFY(QDir().mkpath(mnt));
    if (::mount("tmpfs", QFile::encodeName(mnt).constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP("cannot mount a 64 kB tmpfs here (needs CAP_SYS_ADMIN): full-disk test skipped");
    struct Unmount {
        QString path;
        ~Unmount() { ::umount2(QFile::encodeName(path).constData(), MNT_DETACH); }
    } unmount{mnt};
    const QString target = QDir(mnt).filePath(QStringLiteral("figure.csv"));
    const QByteArray good = "good contents\n";
    write_file_atomically(target, good);
    bool threw = false;
    try {
        write_file_atomically(target, QByteArray(200 * 1024, 'x')); // larger than the whole file system
    } catch (const ExportError& e) {
        threw = true;
        QVERIFY2(QString::fromUtf8(e.what()).contains(target), e.what());
    }
    QVERIFY2(threw, "a write larger than the disk was reported as a success");
    QFile f(target);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), good);
    QCOMPARE(QDir(mnt).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary file left behind
    // A session on a full disk: the same writer.
    Session s;
    const QString session = QDir(mnt).filePath(QStringLiteral("a.posatlas.json"));
    // Fill the disk: what is left (at most one 4 kB page) cannot hold a session (~3 kB) and its page.
    try {
        write_file_atomically(QDir(mnt).filePath(QStringLiteral("filler")), QByteArray(59 * 1024, 'f'));
    } catch (const ExportError&) {
    }
    for (int i = 0; i < 8; ++i) {
        try {
            write_file_atomically(QDir(mnt).filePath(QStringLiteral("pad%1").arg(i)), QByteArray(4096, 'p'));
        } catch (const ExportError&) {
            break;
        }
    }
    QVERIFY_THROWS_EXCEPTION(SessionError, save_session(s, session));
    QVERIFY(!QFileInfo::exists(session));
}

void RobustnessTest::devicesAreWrittenStraight()
{
    // Copies of /dev/null and /dev/full made with mknod (the tests run as root): an export or a session
    // written there goes straight to the device, which stays a device; a full one names the reason.
    const QString dir = m_dir.filePath(QStringLiteral("devices"));
    QVERIFY(QDir().mkpath(dir));
    const auto device = [&](const QString& name, unsigned minor) {
        const QString path = QDir(dir).filePath(name);
        QFile::remove(path);
        if (::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0666, makedev(1, minor)) != 0)
            qFatal("mknod %s: %s", qPrintable(path), std::strerror(errno));
        return path;
    };
    const auto is_device = [](const QString& path) {
        struct stat st {
        };
        return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISCHR(st.st_mode);
    };
    const QString null = device(QStringLiteral("null.csv"), 3);
    write_file_atomically(null, QByteArray("a,b\n1,2\n"));
    QVERIFY(is_device(null));
    const QString nullSession = device(QStringLiteral("null.posatlas.json"), 3);
    save_session(Session{}, nullSession);
    QVERIFY(is_device(nullSession));

    const QString full = device(QStringLiteral("good.csv"), 7);
    try {
        write_file_atomically(full, QByteArray("a,b\n1,2\n"));
        QFAIL("a write to a full device was reported as written");
    } catch (const ExportError& e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral("cannot write %1: No space left on device").arg(full));
    }
    QVERIFY(is_device(full));
    const QString fullSession = device(QStringLiteral("full.posatlas.json"), 7);
    try {
        save_session(Session{}, fullSession);
        QFAIL("a session written to a full device was reported as saved");
    } catch (const SessionError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("No space left on device")), e.what());
    }
    QVERIFY(is_device(fullSession));
    QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::System | QDir::Hidden).size(), 4); // no temporary files
}

void RobustnessTest::pngBudgetNamesTheLargestDpi()
{
    // 20000 x 20000 at 96 dpi was a 1.6 GB raster.
    CurveView view;
    view.setData(flat_curve(0, 1, false));
    FigureExportOptions o;
    o.size = QSizeF(20000, 20000);
    o.dpi = 96;
    try {
        export_figure(view, m_dir.filePath(QStringLiteral("huge.png")), o);
        QFAIL("a 1.6 GB raster was accepted");
    } catch (const ExportError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(QStringLiteral("dpi must be at most 55")) ||
                     what.contains(QStringLiteral("at most")),
                 e.what());
        QVERIFY2(what.contains(QStringLiteral("1024 MiB")), e.what());
    }
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("huge.png"))));
    // Vector formats carry no raster of that size: allowed.
    o.size = QSizeF(20000, 20000);
    export_figure(view, m_dir.filePath(QStringLiteral("huge.svg")), o);
    QVERIFY(QFileInfo(m_dir.filePath(QStringLiteral("huge.svg"))).size() > 0);
}

void RobustnessTest::sessionDeepNestingIsRefused()
{
    QByteArray deep = R"({"format":"posatlas-session","version":1,"scenario":{"rope":{"rope_theta":)";
    deep += QByteArray(100000, '[') + "1" + QByteArray(100000, ']') + "}}}";
    try {
        session_from_json(deep);
        QFAIL("accepted");
    } catch (const SessionError& e) {
        QVERIFY2(QByteArray(e.what()).contains("nested deeper than 64"), e.what());
        QVERIFY(std::strlen(e.what()) < 200);
    }
    // As a file too (the GUI's File > Open and `export --session` read files).
    const QString path = m_dir.filePath(QStringLiteral("deep.posatlas.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(deep);
    f.close();
    QVERIFY_THROWS_EXCEPTION(SessionError, load_session(path));
}

void RobustnessTest::sessionVersionMustFit32Bits()
{
    // 4294967297 = 2^32 + 1 used to wrap to version 1 and be accepted.
    for (const QByteArray& v :
         {QByteArray("4294967297"), QByteArray("-4294967295"), QByteArray("18446744073709551615")}) {
        try {
            session_from_json(R"({"format":"posatlas-session","version":)" + v + "}");
            QFAIL(v.constData());
        } catch (const SessionError& e) {
            QVERIFY2(QByteArray(e.what()).contains("version"), e.what());
            QVERIFY2(QByteArray(e.what()).contains("32-bit"), e.what());
        }
    }
    QVERIFY_THROWS_EXCEPTION(SessionError, session_from_json(R"({"format":"posatlas-session","version":2})"));
    session_from_json(R"({"format":"posatlas-session","version":1})");
}

void RobustnessTest::sessionIntegersMustFit()
{
    // An int field given 2^32 + 16 used to wrap to 16 (a valid pixel width).
    const QByteArray text =
        R"({"format":"posatlas-session","version":1,"views":{"settings":{"pixel_width":4294967312}}})";
    try {
        session_from_json(text);
        QFAIL("wrapped");
    } catch (const SessionError& e) {
        QVERIFY2(QByteArray(e.what()).contains("views.settings.pixel_width: expected an integer in ["),
                 e.what());
    }
    // A negative seed: the message says what is allowed, and shows the value.
    try {
        session_from_json(R"({"format":"posatlas-session","version":1,"scenario":{"learned":{"seed":-5}}})");
        QFAIL("accepted a negative seed");
    } catch (const SessionError& e) {
        QVERIFY2(
            QByteArray(e.what()).contains("scenario.learned.seed: expected a non-negative integer, got -5"),
            e.what());
    }
}

void RobustnessTest::sessionFromDeviceOrFifoIsRefused()
{
    const QString zero = m_dir.filePath(QStringLiteral("z.posatlas.json"));
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), zero));
    QElapsedTimer t;
    t.start();
    QVERIFY_THROWS_EXCEPTION(SessionError, load_session(zero));
    const QString fifo = m_dir.filePath(QStringLiteral("f.posatlas.json"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    try {
        load_session(fifo);
        QFAIL("read a FIFO");
    } catch (const SessionError& e) {
        QVERIFY2(QByteArray(e.what()).contains("FIFO"), e.what());
    }
    QVERIFY(t.elapsed() < 5000);
}

void RobustnessTest::sessionNamesFileAndKeyOfBadValue()
{
    const QString path = m_dir.filePath(QStringLiteral("bad.posatlas.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        R"({"format":"posatlas-session","version":1,"scenario":{"method":"rope","rope":{"head_dim":-64}}})");
    f.close();
    try {
        load_session(path);
        QFAIL("accepted");
    } catch (const SessionError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.startsWith(
                     path + QStringLiteral(
                                ": scenario.rope.head_dim must be an even integer in [2, 8192] (got -64)")),
                 e.what());
    }
}

void RobustnessTest::sessionTablePathIsRelativeToTheSession()
{
    const QString sub = m_dir.filePath(QStringLiteral("project"));
    QVERIFY(QDir().mkpath(sub));
    const QString path = QDir(sub).filePath(QStringLiteral("t.posatlas.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        R"({"format":"posatlas-session","version":1,"scenario":{"method":"learned","learned":{"table_path":"tables/pos.csv"}}})");
    f.close();
    const Session s = load_session(path);
    QCOMPARE(QString::fromStdString(s.scenario.params<LearnedParams>().table_path),
             QDir(sub).filePath(QStringLiteral("tables/pos.csv")));
    // An absolute path stays as it is.
    const Session a = session_from_json(
        R"({"format":"posatlas-session","version":1,"scenario":{"learned":{"table_path":"/abs/t.csv"}}})",
        sub);
    QCOMPARE(QString::fromStdString(a.scenario.params<LearnedParams>().table_path),
             QStringLiteral("/abs/t.csv"));
}

void RobustnessTest::settingsIgnoreDeepScenario()
{
    const QString ini = m_dir.filePath(QStringLiteral("settings.ini"));
    {
        QSettings raw(ini, QSettings::IniFormat);
        raw.setValue(QStringLiteral("scenario/last"), QByteArray(100000, '[') + QByteArray(100000, ']'));
    }
    Settings settings(ini);
    QVERIFY(!settings.lastScenario().has_value());
}

void RobustnessTest::settingsFileThatIsAFifoIsNotRead()
{
    // QSettings reads its file on construction with a blocking read: a FIFO hung the start of the app.
    const QString fifo = m_dir.filePath(QStringLiteral("settings_fifo.ini"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QElapsedTimer t;
    t.start();
    Settings settings(fifo);
    settings.setColormap(QStringLiteral("magma")); // usable for this run
    QCOMPARE(settings.colormap(), QStringLiteral("magma"));
    QVERIFY(t.elapsed() < 5000);
}

QTEST_MAIN(RobustnessTest)
#include "test_robustness.moc"
