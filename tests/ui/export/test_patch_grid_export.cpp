// SPDX-License-Identifier: GPL-3.0-or-later
// The patch grid as a figure and a file (views/patch_grid_view.h, export/patch_grid_export.h): the figure
// renders its grid, colour bar and numbers inside the frame at 1920 x 1080 and at the presentation sizes
// (slides 1280 x 720 at 1.5x text, 1024 x 768 at 1.4x, a paper column), for 2D RoPE, RoPE-Mixed and Swin;
// every format is written, the CSV has one row per patch and its values are core's patch_grid_row
// (analysis/patch_grid.h) exactly; the query patch goes through a session file and back, and a session
// without it still loads; a method without a grid and a query outside it are refused by name, leaving no
// file. With POSATLAS_PATCH_GRID_SHOTS set to a folder, the 16 x 16 2D RoPE and the Swin PNGs are kept
// there for review by eye.
#include "analysis/patch_grid.h"
#include "export/patch_grid_export.h"
#include "io/scenario_json.h"
#include "methods/rope2d/rope2d.h"
#include "methods/rope_mixed/rope_mixed.h"
#include "methods/swin/swin.h"
#include "model/session.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

Q_DECLARE_METATYPE(posatlas::Method)

namespace {

// The gallery's scenarios: a 16 x 16 grid of 2D RoPE (Pixtral), 14 x 14 of RoPE-Mixed, Swin's 7 x 7 window.
Scenario grid_scenario(Method m)
{
    Scenario s;
    s.method = m;
    s.seq_len = m == kRope2D ? 256 : m == kRopeMixed ? 196 : 49;
    return s;
}

std::int64_t centre(const Scenario& s)
{
    const PatchGrid g = *patch_grid(s);
    return (g.height / 2) * g.width + g.width / 2;
}

int colours(const QImage& image, const QRect& area)
{
    QSet<QRgb> seen;
    for (int y = area.top(); y <= area.bottom(); y += 2)
        for (int x = area.left(); x <= area.right(); x += 2)
            seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

QByteArray read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class PatchGridExportTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void figureFillsItsFrame_data()
    {
        QTest::addColumn<Method>("method");
        QTest::addColumn<QSizeF>("size");
        QTest::addColumn<double>("fontScale");
        for (Method m : {Method(kRope2D), Method(kRopeMixed), Method(kSwin)}) {
            const QByteArray id = QByteArray::fromStdString(std::string(m.id()));
            QTest::addRow("%s full hd", id.constData()) << m << QSizeF(1920, 1080) << 1.25;
            QTest::addRow("%s slide 16:9", id.constData()) << m << QSizeF(1280, 720) << 1.5;
            QTest::addRow("%s slide 4:3", id.constData()) << m << QSizeF(1024, 768) << 1.4;
            QTest::addRow("%s paper column", id.constData()) << m << QSizeF(336, 252) << 0.8;
            QTest::addRow("%s projector text", id.constData()) << m << QSizeF(1280, 720) << 2.5;
        }
    }

    // The grid holds the colours of its values, the title is drawn above it, and everything the figure
    // draws (grid, colour bar, its numbers) is inside the frame; the numbers do not overlap.
    void figureFillsItsFrame()
    {
        QFETCH(Method, method);
        QFETCH(QSizeF, size);
        QFETCH(double, fontScale);
        const Scenario s = grid_scenario(method);
        const std::unique_ptr<PatchGridView> view = patch_grid_figure(s, centre(s));
        QVERIFY(!view->figureTitle().isEmpty());
        FigureExportOptions options;
        options.size = size;
        options.dpi = 96;
        options.render.font_scale = fontScale;
        options.render.caption = scenario_caption(s);
        const QImage image = render_figure_image(*view, options);
        QCOMPARE(image.size(), size.toSize());
        const QRectF frame(QPointF(0, 0), size);
        const QRectF grid = view->gridRect(frame, options.render);
        const PatchGrid g = *patch_grid(s);
        QVERIFY2(
            grid.width() >= static_cast<double>(g.width) * 4,
            qPrintable(QStringLiteral("a patch is %1 px").arg(grid.width() / static_cast<double>(g.width))));
        QVERIFY2(frame.contains(view->contentRect(frame, options.render)), "clipped");
        QVERIFY(grid.top() > 10.0 * fontScale); // the title above it
        QVERIFY2(colours(image, grid.toAlignedRect().adjusted(2, 2, -2, -2)) > 8, "a blank grid");
        // The title's dark pixels above the grid.
        QVERIFY(colours(image, QRect(0, 0, image.width(), static_cast<int>(grid.top()) - 2)) > 2);
        const std::vector<QRectF> labels = view->colourBarLabelRects(frame, options.render);
        QVERIFY(labels.size() >= 2);
        for (std::size_t a = 0; a < labels.size(); ++a)
            for (std::size_t b = a + 1; b < labels.size(); ++b)
                QVERIFY2(!labels[a].intersects(labels[b]), "colour bar numbers overlap");
    }

    void everyFormatIsWritten_data()
    {
        QTest::addColumn<Method>("method");
        QTest::addRow("rope2d") << Method(kRope2D);
        QTest::addRow("rope-mixed") << Method(kRopeMixed);
        QTest::addRow("swin") << Method(kSwin);
    }

    // PNG, SVG, PDF of the figure with its title as metadata; CSV with one row per patch and JSON with
    // the metadata, both holding core's row exactly (the shortest text that reads back: tolerance 0).
    void everyFormatIsWritten()
    {
        QFETCH(Method, method);
        const Scenario s = grid_scenario(method);
        const std::int64_t query = centre(s);
        const PatchGridRow row = patch_grid_row(s, query);
        const QString id = QString::fromLatin1(method.id());
        const QString stem = m_dir.filePath(QStringLiteral("grid-") + id);
        FigureExportOptions options;
        options.size = QSizeF(800, 600);
        for (const char* ext : {"png", "svg", "pdf", "csv", "json"})
            export_patch_grid(s, query, stem + QLatin1Char('.') + QLatin1String(ext), options);

        QImage png;
        QVERIFY(png.load(stem + QStringLiteral(".png")));
        QCOMPARE(png.size(), QSize(1600, 1200)); // 192 dpi
        QVERIFY(png.text(QStringLiteral("Title")).contains(QString::number(query)));
        const QString folder = qEnvironmentVariable("POSATLAS_PATCH_GRID_SHOTS");
        if (!folder.isEmpty() && method != kRopeMixed) {
            QDir().mkpath(folder);
            QVERIFY(png.save(QDir(folder).filePath(QStringLiteral("export-%1.png").arg(id))));
        }
        QVERIFY(read(stem + QStringLiteral(".svg")).contains("<svg"));
        QVERIFY(read(stem + QStringLiteral(".pdf")).startsWith("%PDF"));

        const QList<QByteArray> lines = read(stem + QStringLiteral(".csv")).trimmed().split('\n');
        QCOMPARE(lines.front().trimmed(), QByteArray("patch,row,column,value"));
        const PatchGrid g = *patch_grid(s);
        QCOMPARE(static_cast<std::int64_t>(lines.size() - 1), g.width * g.height); // the grids are full
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> cells = lines[i].trimmed().split(',');
            QCOMPARE(cells.size(), 4);
            const std::int64_t p = cells[0].toLongLong();
            QCOMPARE(p, static_cast<std::int64_t>(i - 1));
            QCOMPARE(cells[1].toLongLong(), p / g.width);
            QCOMPARE(cells[2].toLongLong(), p % g.width);
            QCOMPARE(cells[3].toDouble(), row.values[static_cast<std::size_t>(p)]);
        }

        const auto j = nlohmann::json::parse(read(stem + QStringLiteral(".json")).toStdString());
        QCOMPARE(j["view"].get<std::string>(), std::string("patch-grid"));
        QCOMPARE(j["method"].get<std::string>(), std::string(method.id()));
        QCOMPARE(j["kind"].get<std::string>(), std::string(matrix_kind_id(row.kind)));
        QCOMPARE(j["query_patch"].get<std::int64_t>(), query);
        QCOMPARE(j["grid"]["rows"].get<std::int64_t>(), g.height);
        QCOMPARE(j["grid"]["columns"].get<std::int64_t>(), g.width);
        QCOMPARE(static_cast<std::int64_t>(j["value"].size()), s.seq_len);
        for (std::size_t p = 0; p < j["value"].size(); ++p)
            QCOMPARE(j["value"][p].get<double>(), row.values[p]);
    }

    // A method without a grid and a query outside it: refused by name, nothing written.
    void refusalsNameTheParameter()
    {
        const QString path = m_dir.filePath(QStringLiteral("refused.png"));
        Scenario rope;
        try {
            export_patch_grid(rope, 0, path, {});
            QFAIL("RoPE has no patch grid");
        } catch (const ParameterError& e) {
            QCOMPARE(QString::fromStdString(e.parameter()), QStringLiteral("method"));
        }
        const Scenario s = grid_scenario(kRope2D);
        try {
            export_patch_grid(s, 256, path, {});
            QFAIL("patch 256 is outside 16 x 16");
        } catch (const ParameterError& e) {
            QCOMPARE(QString::fromStdString(e.parameter()), QStringLiteral("query_patch"));
            QVERIFY(QString::fromStdString(e.allowed()).contains(QStringLiteral("255")));
        }
        QVERIFY(!QFile::exists(path));
        QVERIFY_THROWS_EXCEPTION(ExportError,
                                 export_patch_grid(s, 0, m_dir.filePath(QStringLiteral("x.bmp")), {}));
    }

    // views.settings.query_patch: written, read back; a session without it (older) reads patch 0; a
    // negative one is refused naming the key.
    void queryPatchRoundTripsThroughASession()
    {
        Session saved;
        saved.scenario = grid_scenario(kRope2D);
        saved.settings.query_patch = 137;
        const QString path = m_dir.filePath(QStringLiteral("grid.posatlas.json"));
        save_session(saved, path);
        QCOMPARE(load_session(path).settings.query_patch, std::int64_t{137});

        auto j = nlohmann::json::parse(session_to_json(saved).toStdString());
        j["views"]["settings"].erase("query_patch");
        const std::string older = j.dump();
        QCOMPARE(session_from_json(QByteArray::fromStdString(older)).settings.query_patch, std::int64_t{0});
        j["views"]["settings"]["query_patch"] = -3;
        try {
            session_from_json(QByteArray::fromStdString(j.dump()));
            QFAIL("a negative query patch was read");
        } catch (const SessionError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("query_patch")), e.what());
        }
    }
};

QTEST_MAIN(PatchGridExportTest)
#include "test_patch_grid_export.moc"
