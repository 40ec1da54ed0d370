// SPDX-License-Identifier: GPL-3.0-or-later
// The patch-grid dock of the image-patch methods (2D RoPE, RoPE-Mixed, Swin, ViT): choosing the method shows
// it; its image holds exactly the row of compute_matrix (core, attention_logits.h) for the query patch;
// a click on a patch and the arrow keys move the query; the value under the mouse is written out. In
// English and Chinese, at 100 % and in presentation mode at 150, 200 and 250 %. With
// POSATLAS_PATCH_GRID_SHOTS set to a folder, each state is saved there as a PNG for review by eye
// (patch-grid-METHOD-LANGUAGE-PERCENT.png).
#include "analysis/patch_grid.h"
#include "compute/attention_logits.h"
#include "io/safetensors_write.h"
#include "jobs/figure_numbers.h"
#include "jobs/job_tracker.h"
#include "methods/rope2d/rope2d.h"
#include "methods/rope_mixed/rope_mixed.h"
#include "methods/swin/swin.h"
#include "methods/vit/vit.h"
#include "model/session.h"
#include "views/colormap.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/patch_grid_panel.h"
#include "window/presentation.h"
#include "window/session_actions.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

Q_DECLARE_METATYPE(posatlas::Method)

class PatchGridWindowTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static void save(QWidget* w, const QString& name)
    {
        const QString folder = qEnvironmentVariable("POSATLAS_PATCH_GRID_SHOTS");
        if (folder.isEmpty())
            return;
        QDir().mkpath(folder);
        QVERIFY(w->grab().save(QDir(folder).filePath(name + QStringLiteral(".png"))));
    }

    static void settle(MainWindow& w)
    {
        QTest::qWait(100); // the debounce of the requests
        QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), 300000);
        QTest::qWait(50);
    }

    // The panel's row for `query` is compute_matrix's row, cell for cell (exact: the same double), and
    // each image pixel is that value's colour.
    static void checkRow(MainWindow& w, std::int64_t query)
    {
        PatchGridPanel* panel = w.patchGridPanel();
        QVERIFY(panel->shown().has_value());
        const PatchGridRow& row = *panel->shown();
        QCOMPARE(row.query, query);
        const Scenario& s = w.model()->scenario();
        MatrixWindow window;
        window.row0 = query;
        window.rows = 1;
        const MatrixResult m = compute_matrix(s, patch_grid_kind(s), window);
        QCOMPARE(static_cast<std::int64_t>(m.cols()), s.seq_len);
        const QImage& image = panel->canvas()->image();
        QCOMPARE(static_cast<std::int64_t>(image.width()), row.grid.width);
        QCOMPARE(static_cast<std::int64_t>(image.height()), row.grid.height);
        const Colormap map = default_colormap(row.is_signed);
        const QVector<QRgb> table = colormap_table(map);
        const ColorRange range = color_range(map, row.min, row.max);
        int finite = 0;
        for (std::int64_t j = 0; j < s.seq_len; ++j) {
            const double expected = m.at(0, j), shown = row.values[static_cast<std::size_t>(j)];
            if (std::isnan(expected)) {
                QVERIFY2(std::isnan(shown), qPrintable(QStringLiteral("patch %1").arg(j)));
                continue;
            }
            ++finite;
            QVERIFY2(shown == expected, qPrintable(QStringLiteral("patch %1: %2 against core's %3")
                                                       .arg(j)
                                                       .arg(shown, 0, 'g', 17)
                                                       .arg(expected, 0, 'g', 17)));
            const QRgb pixel =
                image.pixel(static_cast<int>(j % row.grid.width), static_cast<int>(j / row.grid.width));
            QCOMPARE(pixel, table[colormap_index(expected, range)]);
        }
        QVERIFY(finite > 0);
    }

private slots:
    void cleanup() { installLanguage(QStringLiteral("en")); }

    void gridShowsCoreRowAndFollowsClicksAndKeys_data()
    {
        QTest::addColumn<Method>("method");
        QTest::addColumn<QString>("language");
        for (const char* language : {"en", "zh_CN"}) {
            QTest::addRow("axial rope in %s", language) << Method(kRope2D) << QString::fromLatin1(language);
            QTest::addRow("rope mixed in %s", language)
                << Method(kRopeMixed) << QString::fromLatin1(language);
            QTest::addRow("swin in %s", language) << Method(kSwin) << QString::fromLatin1(language);
            QTest::addRow("vit in %s", language) << Method(kVit) << QString::fromLatin1(language);
        }
    }

    void gridShowsCoreRowAndFollowsClicksAndKeys()
    {
        QFETCH(Method, method);
        QFETCH(QString, language);
        QVERIFY(installLanguage(language));
        MainWindow w(m_dir.filePath(QStringLiteral("patch_grid.ini")));
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.patchGridDock()->isHidden()); // the default method is a 1D sequence
        QVERIFY(w.model()->setMethod(method));
        QVERIFY(!w.patchGridDock()->isHidden());
        PatchGridPanel* panel = w.patchGridPanel();
        QVERIFY(panel->applies());
        settle(w);
        const PatchGrid grid = *patch_grid(w.model()->scenario());
        QVERIFY(grid.width >= 3 && grid.height >= 3);

        // A chosen query patch: row 2, column 1.
        const std::int64_t chosen = 2 * grid.width + 1;
        panel->setQuery(chosen);
        settle(w);
        checkRow(w, chosen);
        QVERIFY(panel->queryText().contains(QStringLiteral("2")));

        // A click on patch (1, 2) makes it the query.
        PatchGridView* canvas = panel->canvas();
        const QRectF cell = canvas->cellRect(1, 2);
        QVERIFY(canvas->rect().contains(cell.toAlignedRect()));
        QTest::mouseClick(canvas, Qt::LeftButton, {}, cell.center().toPoint());
        const std::int64_t clicked = grid.width + 2;
        QCOMPARE(panel->query(), clicked);
        settle(w);
        checkRow(w, clicked);

        // Arrow keys: one column right, one row down.
        QTest::keyClick(canvas, Qt::Key_Right);
        QCOMPARE(panel->query(), clicked + 1);
        QTest::keyClick(canvas, Qt::Key_Down);
        QCOMPARE(panel->query(), clicked + 1 + grid.width);
        settle(w);
        checkRow(w, clicked + 1 + grid.width);

        // The value under the mouse: patch (0, 0), reached from another patch (a move to where the pointer
        // already is sends no event).
        QTest::mouseMove(canvas, canvas->cellRect(1, 1).center().toPoint());
        QTest::qWait(50); // the readout's new text may move the canvas
        QTest::mouseMove(canvas, canvas->cellRect(0, 0).center().toPoint());
        QTRY_VERIFY(!panel->hoverText().isEmpty());
        const double v = panel->shown()->values[0];
        QVERIFY2(panel->hoverText().contains(std::isnan(v) ? QString() : format_number(v)),
                 qPrintable(panel->hoverText()));

        const QString name = QString::fromLatin1(method.id()) + QLatin1Char('-') + language;
        save(&w, QStringLiteral("patch-grid-%1-100").arg(name));
        save(panel, QStringLiteral("patch-grid-panel-%1-100").arg(name));
        const double normalCell = canvas->cellRect(0, 0).width();

        QVERIFY(normalCell > 0);
        QVERIFY2(canvas->rect().contains(canvas->contentRect().toAlignedRect()), "clipped at 100 %");

        // Presentation mode at the projector's sizes: the image, the colour bar and its numbers stay
        // inside the canvas, and the numbers grow with the text.
        Presentation* p = w.presentation();
        const int normalText = canvas->fontMetrics().height();
        p->enter();
        for (int percent : {150, 200, 250}) {
            p->setFontScale(percent / 100.0);
            w.patchGridDock()->show();
            w.patchGridDock()->raise();
            settle(w);
            QVERIFY(panel->isVisible());
            checkRow(w, clicked + 1 + grid.width);
            QVERIFY(canvas->fontMetrics().height() >= normalText * (percent - 10) / 100);
            QVERIFY(canvas->cellRect(0, 0).width() > 0);
            QVERIFY2(canvas->rect().contains(canvas->contentRect().toAlignedRect()),
                     qPrintable(QStringLiteral("clipped at %1 %: %2 x %3 canvas, content %4 %5 %6 x %7")
                                    .arg(percent)
                                    .arg(canvas->width())
                                    .arg(canvas->height())
                                    .arg(canvas->contentRect().x())
                                    .arg(canvas->contentRect().y())
                                    .arg(canvas->contentRect().width())
                                    .arg(canvas->contentRect().height())));
            const std::vector<QRectF> labels = canvas->colourBarLabelRects();
            QVERIFY(labels.size() >= 2);
            for (std::size_t a = 0; a < labels.size(); ++a) {
                for (std::size_t b = a + 1; b < labels.size(); ++b)
                    QVERIFY2(!labels[a].intersects(labels[b]),
                             qPrintable(QStringLiteral(
                                            "colour bar numbers overlap at %1 %: %2 x %3 canvas, cell %4, "
                                            "numbers at %5,%6 %7x%8 and %9,%10")
                                            .arg(percent)
                                            .arg(canvas->width())
                                            .arg(canvas->height())
                                            .arg(canvas->cellRect(0, 0).width())
                                            .arg(labels[a].x())
                                            .arg(labels[a].y())
                                            .arg(labels[a].width())
                                            .arg(labels[a].height())
                                            .arg(labels[b].x())
                                            .arg(labels[b].y())));
            }
            save(&w, QStringLiteral("patch-grid-%1-%2").arg(name).arg(percent));
            save(panel, QStringLiteral("patch-grid-panel-%1-%2").arg(name).arg(percent));
        }
        p->leave();
        p->setFontScale(1.0);

        // Back to a 1D method: the dock goes.
        QVERIFY(w.model()->setMethod(Method::RoPE));
        QVERIFY(w.patchGridDock()->isHidden());
    }

    // ViT with a smooth trained-like table (MAE's 2D sin-cos positions, util/pos_embed.py
    // get_2d_sincos_pos_embed: half the width the row's 1D sin-cos embedding, half the column's) read from a
    // [1, 1 + 8·8, 64] safetensors tensor: the dock shows its 8 × 8 grid without the CLS row, the row is
    // core's, and a patch is more alike to its neighbours than to the far corner (the paper's Fig. 7).
    void vitTableFromFileShowsTheNeighbourhood()
    {
        constexpr int side = 8, width = 64, quarter = width / 4;
        std::vector<float> values(static_cast<std::size_t>((1 + side * side) * width), 0.0f); // CLS: zeros
        for (int p = 0; p < side * side; ++p)
            for (int axis = 0; axis < 2; ++axis) {
                const double coordinate = axis == 0 ? p / side : p % side;
                for (int k = 0; k < quarter; ++k) {
                    const double angle = coordinate / std::pow(10000.0, static_cast<double>(k) / quarter);
                    const std::size_t at = static_cast<std::size_t>((1 + p) * width + axis * 2 * quarter + k);
                    values[at] = static_cast<float>(std::sin(angle));
                    values[at + quarter] = static_cast<float>(std::cos(angle));
                }
            }
        const std::string path = m_dir.filePath(QStringLiteral("sincos.safetensors")).toStdString();
        write_safetensors(path,
                          {{"vit.embeddings.position_embeddings", {1, 1 + side * side, width}, values}});

        MainWindow w(m_dir.filePath(QStringLiteral("patch_grid_vit.ini")));
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Scenario s = w.model()->scenario();
        s.method = kVit;
        s.seq_len = side * side;
        s.params<VitParams>().position_table = path;
        QVERIFY(w.model()->setScenario(s, QStringLiteral("ViT table")));
        QVERIFY(!w.patchGridDock()->isHidden());
        PatchGridPanel* panel = w.patchGridPanel();
        const std::int64_t query = 3 * side + 4;
        panel->setQuery(query);
        settle(w);
        const PatchGrid grid = *patch_grid(w.model()->scenario());
        QCOMPARE(grid.width, std::int64_t{side});
        QCOMPARE(grid.height, std::int64_t{side});
        QVERIFY(grid.cls_left_out);
        checkRow(w, query);
        const std::vector<double>& row = panel->shown()->values;
        QVERIFY(std::abs(row[static_cast<std::size_t>(query)] - 1.0) < 1e-12); // a unit vector with itself
        const double neighbour = row[static_cast<std::size_t>(query + 1)];
        const double above = row[static_cast<std::size_t>(query - side)];
        const double corner = row[static_cast<std::size_t>(side * side - 1)];
        QVERIFY2(neighbour > corner && above > corner,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(neighbour).arg(above).arg(corner)));
        save(&w, QStringLiteral("patch-grid-vit-sincos-100"));
        save(panel, QStringLiteral("patch-grid-panel-vit-sincos-100"));
    }

    // The query patch goes into a saved session and comes back when it is opened; the dock's export
    // writes the figure and the numbers of that query (CSV: one row per patch).
    void queryPatchRoundTripsAndExports()
    {
        MainWindow w(m_dir.filePath(QStringLiteral("patch_grid_session.ini")));
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.model()->setMethod(kRope2D));
        PatchGridPanel* panel = w.patchGridPanel();
        panel->setQuery(37);
        settle(w);
        QVERIFY(panel->exportButton()->isEnabled());
        const QString path = m_dir.filePath(QStringLiteral("grid.posatlas.json"));
        QVERIFY(w.sessionActions()->saveSession(path));
        QCOMPARE(load_session(path).settings.query_patch, std::int64_t{37});

        panel->setQuery(3);
        QVERIFY(w.sessionActions()->openSession(path));
        QCOMPARE(panel->query(), std::int64_t{37});
        settle(w);
        checkRow(w, 37);

        const QString csv = m_dir.filePath(QStringLiteral("grid.csv"));
        const QString png = m_dir.filePath(QStringLiteral("grid.png"));
        FigureExportOptions options;
        options.size = QSizeF(900, 700);
        panel->exportTo(csv, options);
        panel->exportTo(png, options);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(static_cast<std::int64_t>(lines.size() - 1), w.model()->scenario().seq_len);
        QImage image;
        QVERIFY(image.load(png));
        QVERIFY(image.text(QStringLiteral("Title")).contains(QStringLiteral("37")));
        save(panel, QStringLiteral("patch-grid-panel-export"));
    }
};

QTEST_MAIN(PatchGridWindowTest)
#include "test_patch_grid_window.moc"
