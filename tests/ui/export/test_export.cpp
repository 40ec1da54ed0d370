// SPDX-License-Identifier: GPL-3.0-or-later
// Figure and data export, sessions and the command line's `posatlas export` against the GUI's own
// export, under QT_QPA_PLATFORM=offscreen.
#include "export/export_dialog.h"
#include "export/figure_export.h"
#include "gui_support.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImageReader>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The page box of a single-page PDF as written by QPdfWriter: "/MediaBox [0 0 w h]" in points.
QSizeF pdfMediaBox(const QByteArray& pdf)
{
    static const QRegularExpression re(
        QStringLiteral(R"(/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\])"));
    const auto m = re.match(QString::fromLatin1(pdf));
    if (!m.hasMatch())
        return {};
    return {m.captured(3).toDouble() - m.captured(1).toDouble(),
            m.captured(4).toDouble() - m.captured(2).toDouble()};
}

// Pixel comparison: number of pixels whose largest channel difference exceeds `tolerance`, and the
// largest channel difference seen.
struct PixelDiff {
    qint64 over = 0;
    int maxDiff = 0;
};
PixelDiff comparePixels(const QImage& a0, const QImage& b0, int tolerance)
{
    const QImage a = a0.convertToFormat(QImage::Format_ARGB32), b = b0.convertToFormat(QImage::Format_ARGB32);
    PixelDiff d;
    for (int y = 0; y < a.height(); ++y) {
        const auto* la = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* lb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int diff =
                std::max({std::abs(qRed(la[x]) - qRed(lb[x])), std::abs(qGreen(la[x]) - qGreen(lb[x])),
                          std::abs(qBlue(la[x]) - qBlue(lb[x])), std::abs(qAlpha(la[x]) - qAlpha(lb[x]))});
            d.maxDiff = std::max(d.maxDiff, diff);
            if (diff > tolerance)
                ++d.over;
        }
    }
    return d;
}

// A scenario far from the defaults, so that a session that forgot a field would show.
Scenario yarnScenario()
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 300;
    s.content.kind = ContentKind::Random;
    s.content.seed = 7;
    s.params<RopeParams>().head_dim = 64;
    s.params<RopeParams>().rope_theta = 500000.0;
    s.params<RopeParams>().rope_type = RopeType::Yarn;
    s.params<RopeParams>().factor = 4.0;
    s.params<RopeParams>().max_position_embeddings = 8192;
    s.params<RopeParams>().original_max_position_embeddings = 2048;
    return s;
}

} // namespace

class ExportTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

    // The yarn scenario plus view settings away from their defaults: a zoom window, matrix kind,
    // curve range, linear x, an overlay, rotation positions and pairs, a colour map and a closed dock.
    void customise(MainWindow& w)
    {
        QVERIFY(w.model()->setScenario(yarnScenario(), QStringLiteral("test")));
        QVERIFY(waitIdle(w.jobs()));
        ViewSettings v = w.viewSettings();
        v.matrix_kind = MatrixKind::Logits;
        v.row0 = 20;
        v.col0 = 8;
        v.rows = 150;
        v.cols = 200;
        v.max_distance = 30000;
        v.overlay = {Method::ALiBi, Method::Sinusoidal};
        v.query_position = 37.5;
        v.key_position = 9.0;
        v.pairs = {0, 5, 31};
        w.setViewSettings(v);          // every view
        w.curveView()->setLogX(false); // as the view's own check box: main window updates log_x
        auto* group = w.findChild<QActionGroup*>(QStringLiteral("colormapGroup"));
        QVERIFY(group);
        for (QAction* a : group->actions())
            if (a->data().toString() == QLatin1String("magma"))
                a->trigger();
        w.dock(ViewKind::Rotation)->hide();
        QVERIFY(waitIdle(w.jobs()));
        QVERIFY(!w.viewSettings().log_x);
        QCOMPARE(w.heatmapView()->colormap(), Colormap::Magma);
    }

    // Runs the command-line binary headless; returns its exit code (-1: did not run).
    int runCli(const QStringList& args, QByteArray* err = nullptr)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(POSATLAS_EXE), args);
        if (!p.waitForFinished(180000))
            return -1;
        if (err)
            *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    std::unique_ptr<MainWindow> m_window; // customised once, shared by the export tests

private slots:
    void initTestCase()
    {
        QVERIFY(initGuiSuite(m_dir));
        m_window = showMainWindow(m_dir, QStringLiteral("shared"));
        customise(*m_window);
    }

    void cleanupTestCase() { m_window.reset(); }

    // ------------------------------------------------------------ file formats

    void svgParsesWithTextAndMetadata()
    {
        FigureExportRequest r;
        r.views = {ViewKind::Heatmap, ViewKind::Curves, ViewKind::Rotation, ViewKind::Spectrum};
        r.path = path(QStringLiteral("all.svg"));
        r.options.size = QSizeF(900, 600);
        const QStringList written = m_window->sessionActions()->exportFigures(r);
        QCOMPARE(written.size(), 4);
        QCOMPARE(QFileInfo(written[1]).fileName(), QStringLiteral("all-curves.svg"));
        for (const QString& file : written) {
            const QByteArray svg = readAll(file);
            QSvgRenderer renderer(svg);
            QVERIFY2(renderer.isValid(), qPrintable(file));
            QVERIFY2(svg.contains("<text"), qPrintable(file)); // text stays text (vector, selectable)
            QVERIFY(svg.contains("<title>"));
            QVERIFY(svg.contains("<desc>"));
            // The description carries the scenario as JSON (the same text as the command line writes).
            QVERIFY2(svg.contains("PosAtlas scenario: {"), qPrintable(file));
            QVERIFY(svg.contains("500000"));
        }
        // Every text names a font list another machine can resolve: a CJK family for Chinese labels and
        // the generic family last, never fontconfig's alias alone.
        const QByteArray heat = readAll(written[0]);
        QVERIFY(!heat.contains("font-family=\"Sans Serif\""));
        QVERIFY2(heat.contains("'Noto Sans CJK SC'") && heat.contains("sans-serif\""),
                 heat.mid(heat.indexOf("font-family"), 160).constData());
        // The heatmap's title is the figure's own.
        QVERIFY(heat.contains(m_window->heatmapView()->figureTitle().toHtmlEscaped().toUtf8()));
    }

    void pdfHasRequestedPageSize()
    {
        const QList<QSize> sizes{{1000, 600}, {336, 252}};
        for (const QSize size : sizes) {
            FigureExportRequest r;
            r.views = {ViewKind::Curves};
            r.path = path(QStringLiteral("curves-%1.pdf").arg(size.width()));
            r.options.size = size;
            m_window->sessionActions()->exportFigures(r);
            const QByteArray pdf = readAll(r.path);
            QVERIFY(pdf.startsWith("%PDF"));
            // Page = figure size in CSS pixels (1/96 in) converted to points (1/72 in): exact up to
            // the writer's rounding of the box to 0.01 pt.
            const QSizeF box = pdfMediaBox(pdf);
            QVERIFY2(std::abs(box.width() - size.width() * 72.0 / 96.0) < 0.02,
                     qPrintable(QString::number(box.width())));
            QVERIFY2(std::abs(box.height() - size.height() * 72.0 / 96.0) < 0.02,
                     qPrintable(QString::number(box.height())));
            QVERIFY(pdf.contains("/Title"));
            QVERIFY(pdf.contains("PosAtlas scenario")); // XMP dc:description
        }
    }

    void pngHasRequestedPixelSize()
    {
        struct Case {
            QSize size;
            double dpi;
            QSize pixels; // round(size * dpi / 96)
        };
        const QList<Case> cases{{{1200, 800}, 192.0, {2400, 1600}},
                                {{500, 300}, 150.0, {781, 469}}, // 781.25, 468.75
                                {{640, 480}, 96.0, {640, 480}}};
        for (const Case& c : cases) {
            FigureExportRequest r;
            r.views = {ViewKind::Spectrum};
            r.path = path(QStringLiteral("spectrum-%1.png").arg(c.dpi));
            r.options.size = c.size;
            r.options.dpi = c.dpi;
            m_window->sessionActions()->exportFigures(r);
            QImageReader reader(r.path);
            QCOMPARE(reader.size(), c.pixels);
            QCOMPARE(reader.text(QStringLiteral("Title")), m_window->spectrumView()->figureTitle());
            QVERIFY(
                reader.text(QStringLiteral("Description")).contains(QStringLiteral("PosAtlas scenario: {")));
        }
    }

    void pngBelowScreenDpiIsTheWholeFigureScaledDown()
    {
        // A PNG under 96 dpi (a thumbnail, a small animation frame) shows the whole figure at the smaller
        // size, not the top-left corner of the 96-dpi layout. Reference: the 96-dpi export of the same
        // figure, scaled down smoothly to the same pixels; a corner crop differs from it almost everywhere.
        const auto exportAt = [&](double dpi) {
            FigureExportRequest r;
            r.views = {ViewKind::Spectrum};
            r.path = path(QStringLiteral("small-%1.png").arg(dpi));
            r.options.size = QSizeF(960, 540);
            r.options.dpi = dpi;
            m_window->sessionActions()->exportFigures(r);
            return QImage(r.path).convertToFormat(QImage::Format_RGB32);
        };
        const QImage small = exportAt(32.0);
        QCOMPARE(small.size(), QSize(320, 180));
        const QImage reference =
            exportAt(96.0).scaled(small.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        double squared = 0.0;
        for (int y = 0; y < small.height(); ++y)
            for (int x = 0; x < small.width(); ++x) {
                const QRgb a = small.pixel(x, y), b = reference.pixel(x, y);
                for (const int d : {qRed(a) - qRed(b), qGreen(a) - qGreen(b), qBlue(a) - qBlue(b)})
                    squared += double(d) * d;
            }
        const double mse = squared / (3.0 * small.width() * small.height());
        const double psnr = mse == 0.0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
        QVERIFY2(psnr >= 30.0,
                 qPrintable(QStringLiteral("PSNR %1 dB against the scaled 96-dpi figure").arg(psnr)));
    }

    void csvHasDocumentedHeader()
    {
        // figure_export.h: a header row naming each column and its unit, then tidy rows.
        const QString heat = path(QStringLiteral("heat.csv"));
        m_window->sessionActions()->exportNumbers(ViewKind::Heatmap, heat);
        QCOMPARE(readAll(heat).split('\n').front(), QByteArray("query_position,key_position,logits"));
        // The zoom window of the session: rows start at 20, columns at 8 (no downsampling at 150 x 200).
        QVERIFY(readAll(heat).split('\n').at(1).startsWith("20,8,"));

        const QString curves = path(QStringLiteral("curves.csv"));
        m_window->sessionActions()->exportNumbers(ViewKind::Curves, curves);
        const CurveData& cd = m_window->curveView()->data();
        QCOMPARE(cd.x_label, QStringLiteral("relative distance r (positions)"));
        // Machine names (columns.h), whatever the language: the series by id, the axes by column name.
        QCOMPARE(QString::fromUtf8(readAll(curves).split('\n').front()),
                 QStringLiteral("series,distance_tokens,%1").arg(cd.y_column));
        QVERIFY(!cd.y_column.isEmpty());
        for (const CurveSeries& s : cd.series)
            QVERIFY2(readAll(curves).contains("\n" + s.id.toUtf8() + ','), qPrintable(s.id));

        const QString spectrum = path(QStringLiteral("spectrum.csv"));
        m_window->sessionActions()->exportNumbers(ViewKind::Spectrum, spectrum);
        QCOMPARE(readAll(spectrum).split('\n').front(),
                 QByteArray(
                     "pair,inv_freq_original_rad_per_token,inv_freq_rad_per_token,wavelength_original_tokens,"
                     "wavelength_tokens,ratio_scaled_to_original,yarn_ramp"));
        // RoPE head_dim 64: 32 pairs, one row each.
        QCOMPARE(readAll(spectrum).trimmed().split('\n').size(), 1 + 32);

        const QString rotation = path(QStringLiteral("rotation.csv"));
        m_window->sessionActions()->exportNumbers(ViewKind::Rotation, rotation);
        QCOMPARE(readAll(rotation).split('\n').front(),
                 QByteArray("pair,inv_freq_rad_per_token,angle_query_rad,angle_key_rad,angle_relative_rad"));

        const QString json = path(QStringLiteral("spectrum.json"));
        m_window->sessionActions()->exportNumbers(ViewKind::Spectrum, json);
        QVERIFY(readAll(json).startsWith("{"));
        QVERIFY(readAll(json).contains("\"view\":\"spectrum\""));
    }

    void unwritablePathAndUnknownExtensionFail()
    {
        FigureExportRequest r;
        r.views = {ViewKind::Curves};
        r.options.size = QSizeF(400, 300);
        // Tests run as root: permissions do not stop root, a missing folder and /proc do.
        const QStringList unwritable{QStringLiteral("/proc/posatlas-test/x.png"),
                                     path(QStringLiteral("missing-folder/x.svg")),
                                     path(QStringLiteral("missing-folder/x.pdf"))};
        for (const QString& p : unwritable) {
            r.path = p;
            try {
                m_window->sessionActions()->exportFigures(r);
                QFAIL(qPrintable(QStringLiteral("no error for ") + p));
            } catch (const ExportError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(p), e.what()); // names the path
            }
            QVERIFY(!QFileInfo::exists(p));
        }
        QVERIFY_THROWS_EXCEPTION(ExportError,
                                 m_window->sessionActions()->exportNumbers(
                                     ViewKind::Heatmap, QStringLiteral("/proc/posatlas-test/x.csv")));

        // Unknown extension: refused before anything is written.
        r.path = path(QStringLiteral("figure.bmp"));
        try {
            m_window->sessionActions()->exportFigures(r);
            QFAIL("no error for .bmp");
        } catch (const ExportError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("png, svg or pdf")), e.what());
        }
        QVERIFY(!QFileInfo::exists(r.path));
        QVERIFY_THROWS_EXCEPTION(ExportError, m_window->sessionActions()->exportNumbers(
                                                  ViewKind::Curves, path(QStringLiteral("numbers.png"))));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("numbers.png"))));

        // An existing file is replaced whole or not at all: a failed export leaves the old bytes.
        const QString keep = path(QStringLiteral("keep.png"));
        {
            QFile f(keep);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old");
        }
        r.path = keep;
        r.options.dpi = 5000.0; // refused (24..1200 dpi)
        QVERIFY_THROWS_EXCEPTION(ExportError, m_window->sessionActions()->exportFigures(r));
        QCOMPARE(readAll(keep), QByteArray("old"));
    }

    // ------------------------------------------------------------ sessions

    void sessionRoundTrip()
    {
        const QString file = path(QStringLiteral("round.posatlas.json"));
        QVERIFY(m_window->sessionActions()->saveSession(file));
        const Session saved = load_session(file);
        QVERIFY((saved.scenario == yarnScenario()));

        auto fresh = showMainWindow(m_dir, QStringLiteral("fresh"));
        const int undoBefore = fresh->model()->undoStack()->count();
        QVERIFY(fresh->openFile(file)); // by name: a session, not a config.json
        QVERIFY(waitIdle(fresh->jobs()));
        QCOMPARE(Settings(path(QStringLiteral("fresh.ini"))).recentFiles().value(0),
                 QFileInfo(file).absoluteFilePath());
        QCOMPARE(fresh->model()->undoStack()->count(), undoBefore + 1); // one undo step
        QVERIFY((fresh->model()->scenario() == m_window->model()->scenario()));

        const ViewSettings a = m_window->viewSettings(), b = fresh->viewSettings();
        QCOMPARE(b.matrix_kind, a.matrix_kind);
        QCOMPARE(b.row0, a.row0);
        QCOMPARE(b.col0, a.col0);
        QCOMPARE(b.rows, a.rows);
        QCOMPARE(b.cols, a.cols);
        QCOMPARE(b.max_distance, a.max_distance);
        QCOMPARE(b.log_x, false);
        QCOMPARE(fresh->curveView()->logX(), false);
        QVERIFY(b.overlay == a.overlay);
        QCOMPARE(b.query_position, 37.5);
        QCOMPARE(b.key_position, 9.0);
        QVERIFY(b.pairs == a.pairs);
        QCOMPARE(fresh->heatmapView()->colormap(), Colormap::Magma);
        QVERIFY(fresh->dock(ViewKind::Rotation)->isHidden());
        QVERIFY(!fresh->dock(ViewKind::Heatmap)->isHidden());
        // The menus show the session's choices.
        auto* overlay = fresh->findChild<QMenu*>(QStringLiteral("overlayMenu"));
        QVERIFY(overlay);
        int checked = 0;
        for (QAction* act : overlay->actions())
            checked += act->isChecked() ? 1 : 0;
        QCOMPARE(checked, 2);

        // The same figures: both windows are 1280 x 720 with the default layout, so the heatmap
        // widgets have the same size and receive the same data.
        QCOMPARE(fresh->heatmapView()->size(), m_window->heatmapView()->size());
        const QImage h1 = renderToImage(*m_window->heatmapView()), h2 = renderToImage(*fresh->heatmapView());
        QCOMPARE(comparePixels(h1, h2, 0).over, 0);
        const QImage c1 = renderToImage(*m_window->curveView()), c2 = renderToImage(*fresh->curveView());
        QCOMPARE(comparePixels(c1, c2, 0).over, 0);
        // And the same exports.
        FigureExportRequest r;
        r.views = {ViewKind::Heatmap};
        r.options.size = QSizeF(600, 400);
        r.options.dpi = 96;
        r.path = path(QStringLiteral("round-a.png"));
        m_window->sessionActions()->exportFigures(r);
        r.path = path(QStringLiteral("round-b.png"));
        fresh->sessionActions()->exportFigures(r);
        QCOMPARE(comparePixels(QImage(path(QStringLiteral("round-a.png"))), QImage(r.path), 0).over, 0);

        auto* maps = fresh->findChild<QActionGroup*>(QStringLiteral("colormapGroup"));
        QVERIFY(maps && maps->checkedAction());
        QCOMPARE(maps->checkedAction()->data().toString(), QStringLiteral("magma"));
        // A session with the automatic colour map undoes an explicit choice (logits are signed:
        // the diverging map, colormap.h default_colormap).
        Session automatic = saved;
        automatic.colormap.reset();
        QVERIFY(fresh->sessionActions()->applySession(automatic, QStringLiteral("auto")));
        QCOMPARE(fresh->heatmapView()->colormap(), Colormap::Diverging);
        QVERIFY(!maps->checkedAction());
        QVERIFY(!fresh->sessionActions()->currentSession().colormap);

        // Undo takes the scenario back in one step.
        fresh->model()->undoStack()->undo();
        QVERIFY(!(fresh->model()->scenario() == yarnScenario()));
    }

    void badSessionsChangeNothing()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("bad"));
        const Scenario before = w->model()->scenario();
        const ViewSettings settingsBefore = w->viewSettings();
        const int undoBefore = w->model()->undoStack()->count();

        Session s;
        s.scenario = yarnScenario();
        QByteArray newer = session_to_json(s);
        newer.replace("\"version\": 1", "\"version\": 99");
        QVERIFY(newer.contains("\"version\": 99"));
        struct Case {
            const char* name;
            QByteArray bytes;
            const char* message; // part of the message the user sees
        };
        const QList<Case> cases{
            {"newer.posatlas.json", newer, "newer than this PosAtlas understands"},
            {"older.posatlas.json", QByteArray(newer).replace("\"version\": 99", "\"version\": 0"),
             "not valid"},
            {"other.posatlas.json", QByteArray(R"({"format": "something-else", "version": 1})"),
             "not a PosAtlas session"},
            {"broken.posatlas.json", QByteArray("{\"format\": "), "not valid JSON"},
        };
        for (const Case& c : cases) {
            const QString file = path(QString::fromLatin1(c.name));
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(c.bytes);
            f.close();
            QVERIFY(!w->openFile(file));
            QVERIFY2(w->statusMessage().contains(QString::fromLatin1(c.message)),
                     qPrintable(w->statusMessage()));
            QVERIFY(w->statusMessage().contains(file)); // names the file
        }
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY((w->model()->scenario() == before));
        QCOMPARE(w->model()->undoStack()->count(), undoBefore);
        QCOMPARE(w->viewSettings().query_position, settingsBefore.query_position);
        QVERIFY(!w->dock(ViewKind::Rotation)->isHidden());
        // The warning boxes are window-modal and non-blocking: close them.
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(top))
                box->close();
    }

    // ------------------------------------------------------------ the command line draws the same

    void cliExportMatchesGuiExport_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("dpi");
        QTest::addColumn<bool>("dark");
        QTest::newRow("heatmap") << "heatmap" << 900 << 600 << 150 << false;
        QTest::newRow("heatmap dark 2x") << "heatmap" << 640 << 480 << 192 << true;
        QTest::newRow("spectrum") << "spectrum" << 1000 << 640 << 120 << false;
        QTest::newRow("curves") << "curves" << 960 << 540 << 96 << false;
    }

    void cliExportMatchesGuiExport()
    {
        QFETCH(QString, view);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, dpi);
        QFETCH(bool, dark);
        const QString session = path(QStringLiteral("cli.posatlas.json"));
        QVERIFY(m_window->sessionActions()->saveSession(session));
        QVERIFY(waitIdle(m_window->jobs())); // the curves and spectrum come from the widgets

        FigureExportRequest r;
        r.views = {*parse_view_kind(view)};
        r.path = path(QStringLiteral("gui-%1.png").arg(QTest::currentDataTag()).replace(' ', '_'));
        r.options.size = QSizeF(width, height);
        r.options.dpi = dpi;
        r.options.render.dark = dark;
        m_window->sessionActions()->exportFigures(r);

        const QString cli = path(QStringLiteral("cli-%1.png").arg(QTest::currentDataTag()).replace(' ', '_'));
        QByteArray err;
        const int rc =
            runCli({QStringLiteral("export"), QStringLiteral("--session"), session, QStringLiteral("--view"),
                    view, QStringLiteral("--out"), cli, QStringLiteral("--width"), QString::number(width),
                    QStringLiteral("--height"), QString::number(height), QStringLiteral("--dpi"),
                    QString::number(dpi), QStringLiteral("--theme"),
                    dark ? QStringLiteral("dark") : QStringLiteral("light")},
                   &err);
        QVERIFY2(rc == 0, err.constData());

        const QImage gui(r.path), headless(cli);
        QCOMPARE(headless.size(), QSize(static_cast<int>(std::lround(width * dpi / 96.0)),
                                        static_cast<int>(std::lround(height * dpi / 96.0))));
        QCOMPARE(gui.size(), headless.size());
        // Expected pixel-identical: both paint the same data through the same renderFigure() with the
        // same fonts (same machine, same offscreen platform). Tolerance stated anyway for a future
        // platform whose text rasteriser differs between processes (font hinting caches): at most a
        // channel difference of 2 on fewer than 0.1% of the pixels. Today the test observes 0.
        const PixelDiff d = comparePixels(gui, headless, 2);
        QVERIFY2(d.over * 1000 < static_cast<qint64>(gui.width()) * gui.height(),
                 qPrintable(
                     QStringLiteral("%1 pixels differ by more than 2 (max %2)").arg(d.over).arg(d.maxDiff)));
        const PixelDiff exact = comparePixels(gui, headless, 0);
        if (exact.over > 0)
            qWarning("%s: %lld pixels differ (max channel difference %d)", QTest::currentDataTag(),
                     exact.over, exact.maxDiff);
        // The metadata is the same text as well.
        QCOMPARE(QImageReader(cli).text(QStringLiteral("Description")),
                 QImageReader(r.path).text(QStringLiteral("Description")));
        QCOMPARE(QImageReader(cli).text(QStringLiteral("Title")),
                 QImageReader(r.path).text(QStringLiteral("Title")));
    }

    void cliRefusesUnwritableAndUnknown()
    {
        const QString session = path(QStringLiteral("cli.posatlas.json"));
        QVERIFY(m_window->sessionActions()->saveSession(session));
        QByteArray err;
        QCOMPARE(runCli({QStringLiteral("export"), QStringLiteral("--session"), session,
                         QStringLiteral("--out"), QStringLiteral("/proc/posatlas-test/x.png")},
                        &err),
                 2);
        QVERIFY2(err.contains("/proc/posatlas-test/x.png"), err.constData());
        QCOMPARE(runCli({QStringLiteral("export"), QStringLiteral("--session"), session,
                         QStringLiteral("--out"), path(QStringLiteral("x.bmp"))},
                        &err),
                 2);
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("x.bmp"))));
    }

    // ------------------------------------------------------------ dialog and clipboard

    void exportDialogBuildsTheRequest()
    {
        ExportDialog dialog(ViewKind::Spectrum, QStringLiteral("RoPE · θ 500000"));
        QVERIFY(dialog.viewCheck(ViewKind::Spectrum)->isChecked());
        QVERIFY(!dialog.viewCheck(ViewKind::Heatmap)->isChecked());
        FigureExportRequest r = dialog.request();
        QCOMPARE(r.views, QList<ViewKind>{ViewKind::Spectrum});
        QVERIFY(r.path.endsWith(QStringLiteral("posatlas-spectrum.png")));
        QCOMPARE(r.options.size, QSizeF(1200, 800));
        QCOMPARE(r.options.dpi, 192.0); // 2x by default
        QVERIFY(r.options.render.caption.isEmpty());

        // A preset sets the size (and the font scale for slides); editing the size shows "Custom".
        const auto presets = figure_size_presets();
        int slide = -1;
        for (int i = 0; i < presets.size(); ++i)
            if (presets[i].width == 1280 && presets[i].height == 720)
                slide = i;
        QVERIFY(slide > 0);
        dialog.presetCombo()->setCurrentIndex(slide);
        emit dialog.presetCombo()->activated(slide);
        r = dialog.request();
        QCOMPARE(r.options.size, QSizeF(1280, 720));
        QCOMPARE(r.options.render.font_scale, 1.5);
        dialog.widthSpin()->setValue(1300);
        QCOMPARE(dialog.presetCombo()->currentIndex(), 0);

        // The format combo rewrites the extension; a typed extension picks the format.
        dialog.formatCombo()->setCurrentIndex(dialog.formatCombo()->findData(QStringLiteral("pdf")));
        QVERIFY(dialog.request().path.endsWith(QStringLiteral(".pdf")));
        QVERIFY(!dialog.dpiSpin()->isEnabled()); // dpi is for PNG only
        dialog.fileEdit()->setText(path(QStringLiteral("talk.svg")));
        emit dialog.fileEdit()->editingFinished();
        QCOMPARE(dialog.formatCombo()->currentData().toString(), QStringLiteral("svg"));
        dialog.fileEdit()->setText(path(QStringLiteral("talk")));
        QCOMPARE(dialog.request().path, path(QStringLiteral("talk.svg"))); // the format's extension

        // Several views: one file per view.
        dialog.viewCheck(ViewKind::Heatmap)->setChecked(true);
        dialog.captionCheck()->setChecked(true);
        dialog.themeCombo()->setCurrentIndex(1);
        r = dialog.request();
        QCOMPARE(r.views, (QList<ViewKind>{ViewKind::Heatmap, ViewKind::Spectrum}));
        QCOMPARE(figure_export_paths(r.path, r.views),
                 (QStringList{path(QStringLiteral("talk-heatmap.svg")),
                              path(QStringLiteral("talk-spectrum.svg"))}));
        QCOMPARE(r.options.render.caption, QStringLiteral("RoPE · θ 500000"));
        QVERIFY(r.options.render.dark);

        // setRequest restores a request.
        ExportDialog again(ViewKind::Heatmap, QString());
        again.setRequest(r);
        const FigureExportRequest r2 = again.request();
        QCOMPARE(r2.views, r.views);
        QCOMPARE(r2.path, r.path);
        QCOMPARE(r2.options.size, r.options.size);
        QCOMPARE(r2.options.render.dark, true);
    }

    // restoreChoices: last time's choices, with the caption (when it was on) describing today's scenario,
    // and no views for a single figure (a dock's).
    void restoreChoicesDescribesTodaysScenario()
    {
        FigureExportRequest last;
        last.views = {ViewKind::Curves};
        last.path = path(QStringLiteral("old.svg"));
        last.options.size = QSizeF(1280, 720);
        last.options.render.caption = QStringLiteral("RoPE · θ 10000");
        ExportDialog dialog(ViewKind::Heatmap, QStringLiteral("RoPE · θ 500000"));
        dialog.restoreChoices(last);
        FigureExportRequest r = dialog.request();
        QCOMPARE(r.views, QList<ViewKind>{ViewKind::Curves});
        QCOMPARE(r.path, last.path);
        QCOMPARE(r.options.size, QSizeF(1280, 720));
        QCOMPARE(r.options.render.caption, QStringLiteral("RoPE · θ 500000"));
        last.options.render.caption.clear(); // off last time: off again
        ExportDialog off(ViewKind::Heatmap, QStringLiteral("RoPE · θ 500000"));
        off.restoreChoices(last);
        QVERIFY(off.request().options.render.caption.isEmpty());
        ExportDialog single(ViewKind::Heatmap, QStringLiteral("2D RoPE"));
        single.setSingleFigure(QStringLiteral("Patch grid"), QStringLiteral("posatlas-patch-grid"));
        single.restoreChoices(last);
        QVERIFY(single.request().views.isEmpty());
    }

    // execUntilWritten: a write that fails shows its message and brings the dialog back with the same
    // choices; the next one that succeeds ends it and is returned. Cancelling returns nothing.
    void execUntilWrittenRetriesAfterAFailure()
    {
        ExportDialog dialog(ViewKind::Heatmap, QString());
        dialog.fileEdit()->setText(path(QStringLiteral("retry.png")));
        int warnings = 0, accepts = 2;
        QTimer answer; // the modal windows, answered as they come
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                ++warnings;
                box->accept();
            } else if (QApplication::activeModalWidget() == &dialog) {
                if (accepts-- > 0)
                    dialog.accept();
                else
                    dialog.reject();
            }
        });
        answer.start(20);
        QStringList writes;
        const auto written =
            dialog.execUntilWritten(QStringLiteral("failed"), [&](const FigureExportRequest& r) {
                writes << r.path;
                if (writes.size() == 1)
                    throw ExportError("the disk is full");
            });
        QVERIFY(written.has_value());
        QCOMPARE(written->path, path(QStringLiteral("retry.png")));
        QCOMPARE(writes, (QStringList{written->path, written->path}));
        QCOMPARE(warnings, 1);
        // Nothing accepted: nothing written, nothing returned.
        const auto cancelled =
            dialog.execUntilWritten(QStringLiteral("failed"),
                                    [&](const FigureExportRequest&) { writes << QStringLiteral("written"); });
        QVERIFY(!cancelled.has_value());
        QCOMPARE(writes.size(), 2);
    }

    void copyFigurePutsImageAndSvgOnTheClipboard()
    {
        m_window->sessionActions()->copyFigure();
        const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
        QVERIFY(mime);
        const QImage image = qvariant_cast<QImage>(mime->imageData());
        const QSize onScreen = m_window->dock(m_window->sessionActions()->currentView())->widget()->size();
        QCOMPARE(image.width(), 2 * std::clamp(onScreen.width(), 320, 4000)); // 2x
        QVERIFY(mime->hasFormat(QStringLiteral("image/svg+xml")));
        QVERIFY(QSvgRenderer(mime->data(QStringLiteral("image/svg+xml"))).isValid());
    }
};

QTEST_MAIN(ExportTest)
#include "test_export.moc"
