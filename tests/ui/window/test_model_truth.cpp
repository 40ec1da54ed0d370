// SPDX-License-Identifier: GPL-3.0-or-later
// What the screen shows is what the model computes: a preset or a model config loaded in the main window
// gives the same scenario as on the command line (`--preset`, `--config`), whatever was loaded before,
// and the views mark the context lengths that core (and so `posatlas compute rope-pairs`) reports.
#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "compute/attention_logits.h"
#include "explorer/explorer_jobs.h"
#include "explorer/explorer_model.h"
#include "export/figure_export.h"
#include "gui_support.h"
#include "io/model_config.h"
#include "io/presets.h"
#include "io/scenario_json.h"
#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "methods/rope/rope_scaling.h"
#include "model/scenario_model.h"
#include "views/curve_chart.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "widgets/parameter_panel.h"
#include "window/main_window.h"
#include "window/session_actions.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

const char* const kShippedConfigs[] = {
    "llama_tiny.json",       "gemma3_12b.json",          "gemma3_tiny_v5.json", "qwen2_vl_7b.json",
    "qwen2.5_7b_yarn4.json", "qwen2.5_7b_instruct.json", "deepseek_v3.json"};

QString configPath(const char* name)
{
    return QStringLiteral(POSATLAS_TEST_DATA "/configs/") + QString::fromLatin1(name);
}

// The scenario the command line builds for a model: the model alone, on the window's viewing choices.
Scenario viewingChoices(const Scenario& current)
{
    Scenario s;
    s.seq_len = current.seq_len;
    s.content = current.content;
    s.head = current.head;
    return s;
}

QByteArray dump(const Scenario& s)
{
    return QByteArray::fromStdString(scenario_to_json(s).dump());
}

} // namespace

class ModelTruthTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

private slots:
    void initTestCase()
    {
        QVERIFY(initGuiSuite(m_dir));
        m_window = showMainWindow(m_dir, QStringLiteral("truth"));
    }

    // Every preset after every other preset: the scenario equals loading it alone.
    void presetAfterPresetEqualsPresetAlone()
    {
        MainWindow* w = m_window.get();
        const auto presets = list_presets();
        for (const PresetInfo& b : presets) {
            for (const PresetInfo& a : presets) {
                QVERIFY(w->loadPreset(QString::fromStdString(a.id)));
                QVERIFY(w->loadPreset(QString::fromStdString(b.id)));
                const Scenario& shown = w->model()->scenario();
                const Scenario alone = load_preset(b.id, viewingChoices(shown)).scenario;
                QVERIFY2(dump(shown) == dump(alone), (a.id + " then " + b.id).c_str());
            }
        }
    }

    // Every shipped config after every preset: the scenario equals importing it alone.
    void configAfterPresetEqualsConfigAlone()
    {
        MainWindow* w = m_window.get();
        for (const char* name : kShippedConfigs) {
            for (const PresetInfo& a : list_presets()) {
                QVERIFY(w->loadPreset(QString::fromStdString(a.id)));
                QVERIFY2(w->openConfig(configPath(name)), name);
                const Scenario& shown = w->model()->scenario();
                const Scenario alone =
                    load_model_config(configPath(name).toStdString(), viewingChoices(shown)).scenario;
                QVERIFY2(dump(shown) == dump(alone), (a.id + " then " + name).c_str());
            }
        }
    }

    // The trained and target lengths that Spectrum and Curves mark are core's (the command line's),
    // for every RoPE preset and config, each loaded after a model with a different context (DeepSeek's
    // YaRN x40 from 4096 and Phi-3's LongRoPE lists are the worst previous states).
    void viewsMarkTheCommandLinesContextLengths_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("isConfig");
        for (const char* before : {"deepseek-v2-lite", "phi-3-mini-128k"}) {
            for (const PresetInfo& p : list_presets())
                if (p.method == Method::RoPE)
                    QTest::newRow((std::string(before) + " then " + p.id).c_str())
                        << QString::fromLatin1(before) << QString::fromStdString(p.id) << false;
            for (const char* name : kShippedConfigs)
                // The RoPE configs (a Qwen2-VL config with mrope_section imports as M-RoPE).
                if (load_model_config(configPath(name).toStdString()).scenario.method == Method::RoPE)
                    QTest::newRow((std::string(before) + " then " + name).c_str())
                        << QString::fromLatin1(before) << configPath(name) << true;
        }
    }
    void viewsMarkTheCommandLinesContextLengths()
    {
        QFETCH(QString, before);
        QFETCH(QString, model);
        QFETCH(bool, isConfig);
        MainWindow* w = m_window.get();
        QVERIFY(w->loadPreset(before));
        QVERIFY(isConfig ? w->openConfig(model) : w->loadPreset(model));
        QVERIFY(waitIdle(w->jobs()));
        const Scenario& s = w->model()->scenario();
        QCOMPARE(s.method, Method::RoPE);
        // What `posatlas compute rope-pairs --preset/--config` reports (it prints this table).
        const RopePairsTable cli =
            rope_pairs(isConfig ? load_model_config(model.toStdString()).scenario.params<RopeParams>()
                                : load_preset(model.toStdString()).scenario.params<RopeParams>());
        const SpectrumData& spectrum = w->spectrumView()->data();
        QCOMPARE(spectrum.trained_length, static_cast<double>(cli.trained_length));
        QCOMPARE(spectrum.target_length, static_cast<double>(cli.target_length));
        QList<double> marked;
        for (const CurveMarker& m : w->curveView()->data().markers)
            marked.push_back(m.value);
        QVERIFY2(marked.contains(static_cast<double>(cli.trained_length)), "trained length marked on Curves");
        if (cli.target_length != cli.trained_length)
            QVERIFY2(marked.contains(static_cast<double>(cli.target_length)),
                     "target length marked on Curves");
    }

    // Curves keep their peaks: with fewer samples than distances, the decay curves are the exact
    // envelope (min and max over every integer r of each bin), checked against core at every integer
    // r of the whole range (as `posatlas compute rope-decay` prints them); the crosshair reads the exact
    // value at the integer under the cursor, not an interpolation between samples.
    void decayCurvesAreEnvelopesAndTheCrosshairIsExact()
    {
        const Scenario s = load_preset("llama-2-7b").scenario; // context 4096: distances 0 .. 16384
        ViewSettings v;
        v.curve_points = 300;
        const CurveData data = curve_job(s, v);
        const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
        const double bound0 = rope_decay_bound(f.inv_freq, {0.0}).front();
        std::vector<double> every;
        for (const CurveSeries& series : data.series) {
            QVERIFY(series.envelope);
            QVERIFY(series.value_at);
            const double maxR = series.x.back();
            every.resize(static_cast<std::size_t>(maxR) + 1);
            for (std::size_t r = 0; r < every.size(); ++r)
                every[r] = static_cast<double>(r);
            const bool isBound = series.name.contains(QStringLiteral("bound"));
            std::vector<double> exact =
                isBound ? rope_decay_bound(f.inv_freq, every) : rope_mean_cos(f.inv_freq, every);
            for (double& y : exact)
                y /= isBound ? bound0 : 1.0;
            // Group the series' points by bin (points at the same x) and compare with every integer in
            // [x_b, x_{b+1}). The view sums in float32 from exact angles: tolerance the bound
            // analysis/decay_single.h states, (P + 4)^2 2^-24 / bound(0) for the bound (relative to
            // bound(0), as drawn) and (P + 4) 2^-24 for the mean cosine, P = d/2 pairs.
            const double pairs = static_cast<double>(f.inv_freq.size());
            const double tolerance =
                isBound ? (pairs + 4) * (pairs + 4) * 0x1p-24 / bound0 : (pairs + 4) * 0x1p-24;
            std::size_t i = 0;
            int wide = 0;
            while (i < series.x.size()) {
                const double x0 = series.x[i];
                double lo = series.y[i], hi = series.y[i];
                std::size_t j = i + 1;
                for (; j < series.x.size() && series.x[j] == x0; ++j) {
                    lo = std::min(lo, series.y[j]);
                    hi = std::max(hi, series.y[j]);
                }
                const auto first = static_cast<std::size_t>(x0);
                const std::size_t last =
                    j < series.x.size() ? static_cast<std::size_t>(series.x[j]) : exact.size();
                const auto [mn, mx] = std::minmax_element(exact.begin() + static_cast<std::ptrdiff_t>(first),
                                                          exact.begin() + static_cast<std::ptrdiff_t>(last));
                QVERIFY2(std::abs(lo - *mn) <= tolerance && std::abs(hi - *mx) <= tolerance,
                         qPrintable(series.name + QStringLiteral(" bin at r = %1").arg(x0)));
                wide += last - first > 1 ? 1 : 0;
                i = j;
            }
            QVERIFY(wide > 100); // the test exercised real envelopes, not one sample per bin
            // The crosshair: exact at integers between samples, and the readout snaps to the integer.
            for (double r : {6015.0, 9999.0, 12345.0}) {
                QCOMPARE(series.value_at(r + 0.3), exact[static_cast<std::size_t>(r)]);
            }
        }
        CurveChart chart;
        chart.setCurveData(data);
        const QString readout = chart.readoutAt(6015.4);
        QVERIFY2(readout.contains(QStringLiteral("= 6015")), qPrintable(readout));
        const double want = rope_decay_bound(f.inv_freq, {6015.0}).front() / bound0;
        QVERIFY2(readout.contains(format_number(want)),
                 qPrintable(readout + QStringLiteral(" lacks ") + format_number(want)));
    }

    // GPT-2 at N > 1024: positions >= 1024 have no learned embedding. The curve shows the defined part
    // (from query 1023) and says why, instead of an empty chart.
    void learnedCurveBeyondTheTableShowsTheDefinedPart()
    {
        Scenario s = load_preset("gpt2").scenario;
        s.seq_len = 2048;
        s.content.kind = ContentKind::Zero; // position terms only: p_i . p_j / sqrt(d)
        ViewSettings v;
        v.log_x = false;
        v.curve_points = 4096; // every distance
        const CurveData data = curve_job(s, v);
        QCOMPARE(data.series.size(), 1);
        const CurveSeries& c = data.series.front();
        QCOMPARE(c.x.size(), std::size_t{1024});
        QCOMPARE(c.x.back(), 1023.0);
        QVERIFY2(data.note.contains(QStringLiteral("1024")) && data.note.contains(QStringLiteral("1023")),
                 qPrintable(data.note));
        // The values are core's logits of query 1023.
        MatrixWindow w;
        w.row0 = 1023;
        w.rows = 1;
        w.cols = 1024;
        const MatrixResult m = compute_matrix(s, MatrixKind::Logits, w);
        for (std::size_t i = 0; i < c.x.size(); i += 97) {
            const auto j = static_cast<Eigen::Index>(1023 - c.x[i]);
            QCOMPARE(c.y[i], m.values(0, j));
        }
    }

    // An overlay draws every method in one unit: the logit of the last query against distance, the
    // main method's included (not RoPE's "relative size" beside ALiBi's raw logits).
    void overlayUsesOneUnit()
    {
        Scenario s; // RoPE, N 256
        ViewSettings v;
        v.log_x = false;
        v.overlay = {Method::ALiBi};
        const CurveData data = curve_job(s, v);
        QCOMPARE(data.y_label, QStringLiteral("logit"));
        QCOMPARE(data.series.size(), 2);
        MatrixWindow w;
        w.row0 = s.seq_len - 1;
        w.rows = 1;
        const MatrixResult rope = compute_matrix(s, MatrixKind::Logits, w);
        Scenario a = s;
        a.method = Method::ALiBi;
        const MatrixResult alibi = compute_matrix(a, MatrixKind::Logits, w);
        for (int k = 0; k < 2; ++k) {
            const CurveSeries& c = data.series[k];
            const MatrixResult& m = k == 0 ? rope : alibi;
            QVERIFY(!c.x.empty());
            for (std::size_t i = 0; i < c.x.size(); i += 17)
                QCOMPARE(c.y[i], m.values(0, static_cast<Eigen::Index>(s.seq_len - 1 - c.x[i])));
        }
        QVERIFY(data.series[1].dashed);
    }

    // PNG, SVG and PDF of a view at the same size share one layout in physical units: the PNG at 192 dpi
    // and the PDF rasterised at 192 dpi by poppler (pdftoppm) have the same text sizes and positions.
    // Compared on 8 x 8 blocks of grey levels (text rendering differs in the last pixels between Qt and
    // poppler): mean absolute difference under 1 % of full scale (measured: 0.15-0.3 %), no block off by
    // more than 30 % (measured: at most 11 %). With the PNG's text scaled twice (the old dots-per-metre
    // bug) the heatmap's mean was 13 % and its worst block 87 %.
    void pngAndPdfHaveTheSameLayout()
    {
        const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
        QVERIFY2(!pdftoppm.isEmpty(), "pdftoppm (poppler-utils, in the Makefile's package list) is required");
        MainWindow* w = m_window.get();
        QVERIFY(w->loadPreset(QStringLiteral("llama-3.1-8b")));
        QVERIFY(waitIdle(w->jobs()));
        const std::pair<const char*, const Figure*> views[] = {{"heatmap", w->heatmapView()},
                                                               {"curves", w->curveView()},
                                                               {"rotation", w->rotationView()},
                                                               {"spectrum", w->spectrumView()}};
        FigureExportOptions o;
        o.size = QSizeF(800, 500);
        o.dpi = 192;
        for (const auto& [name, figure] : views) {
            const QString png = m_dir.filePath(QStringLiteral("%1.png").arg(QLatin1String(name)));
            const QString pdf = m_dir.filePath(QStringLiteral("%1.pdf").arg(QLatin1String(name)));
            export_figure(*figure, png, o);
            export_figure(*figure, pdf, o);
            const QString raster = m_dir.filePath(QStringLiteral("%1-pdf").arg(QLatin1String(name)));
            QCOMPARE(QProcess::execute(pdftoppm,
                                       {QStringLiteral("-r"), QStringLiteral("192"), QStringLiteral("-png"),
                                        QStringLiteral("-singlefile"), pdf, raster}),
                     0);
            const QImage a = QImage(png).convertToFormat(QImage::Format_Grayscale8);
            const QImage b =
                QImage(raster + QStringLiteral(".png")).convertToFormat(QImage::Format_Grayscale8);
            QCOMPARE(a.size(), QSize(1600, 1000));
            QCOMPARE(b.size(), a.size());
            double sum = 0.0, worst = 0.0;
            int blocks = 0;
            for (int by = 0; by + 8 <= a.height(); by += 8) {
                for (int bx = 0; bx + 8 <= a.width(); bx += 8) {
                    double ma = 0.0, mb = 0.0;
                    for (int y = by; y < by + 8; ++y) {
                        const uchar* ra = a.constScanLine(y);
                        const uchar* rb = b.constScanLine(y);
                        for (int x = bx; x < bx + 8; ++x) {
                            ma += ra[x];
                            mb += rb[x];
                        }
                    }
                    const double d = std::abs(ma - mb) / (64.0 * 255.0);
                    sum += d;
                    worst = std::max(worst, d);
                    ++blocks;
                }
            }
            const double mean = sum / blocks;
            QVERIFY2(mean < 0.01 && worst < 0.3, qPrintable(QStringLiteral("%1: mean %2, worst block %3")
                                                                .arg(QLatin1String(name))
                                                                .arg(mean)
                                                                .arg(worst)));
        }
    }

    // Export Data of a heatmap writes what the view shows: its grid, with every cell's positions (the
    // diagonal included, so the maxima agree), not a grid sampled for some export size. On request,
    // every cell of the visible window; beyond the documented cap, a message and no file.
    void heatmapDataExportIsTheViewsGrid()
    {
        MainWindow* w = m_window.get();
        QVERIFY(w->loadPreset(QStringLiteral("llama-2-7b")));
        QVERIFY(w->model()->setValue(param("seq_len"), 6000));
        QVERIFY(waitIdle(w->jobs()));
        const HeatmapData& shown = w->heatmapView()->data();
        QCOMPARE(shown.panels.size(), 1);
        const MatrixResult& m = shown.panels.front().matrix;
        QVERIFY(m.values.rows() < 6000); // the view is downsampled: a real test of "the view's grid"
        const QString path = m_dir.filePath(QStringLiteral("grid.csv"));
        w->sessionActions()->exportNumbers(ViewKind::Heatmap, path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        // Header, one line per cell, a final empty string after the last newline.
        QCOMPARE(lines.size() - 2, static_cast<qsizetype>(m.values.rows() * m.values.cols()));
        double maxCsv = -std::numeric_limits<double>::infinity();
        QSet<qint64> rows;
        for (qsizetype i = 1; i + 1 < lines.size(); ++i) {
            const QList<QByteArray> cells = lines[i].split(',');
            QCOMPARE(cells.size(), 3);
            rows.insert(cells[0].toLongLong());
            bool ok = false;
            const double v = cells[2].toDouble(&ok);
            if (ok)
                maxCsv = std::max(maxCsv, v);
        }
        QCOMPARE(maxCsv, m.max);
        QCOMPARE(rows.size(), static_cast<qsizetype>(m.row_index.size()));
        QVERIFY(rows.contains(m.row_index.front()) && rows.contains(m.row_index.back()));

        // Every cell of a small window.
        QVERIFY(w->model()->setValue(param("seq_len"), 300));
        QVERIFY(waitIdle(w->jobs()));
        const QString full = m_dir.filePath(QStringLiteral("full.csv"));
        w->sessionActions()->exportNumbers(ViewKind::Heatmap, full,
                                           SessionActions::NumbersExtent::FullWindow);
        QFile g(full);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QCOMPARE(g.readAll().count('\n') - 1, 300 * 300);

        // Beyond the cap: refused, nothing written.
        QVERIFY(w->model()->setValue(param("seq_len"), 5000));
        const QString big = m_dir.filePath(QStringLiteral("big.csv"));
        QVERIFY_THROWS_EXCEPTION(
            ExportError, w->sessionActions()->exportNumbers(ViewKind::Heatmap, big,
                                                            SessionActions::NumbersExtent::FullWindow));
        QVERIFY(!QFile::exists(big));
    }

    // A user's learned table sets the encoding's width, as core reads it (compute_matrix loads the table),
    // not the dim parameter, which describes only the seeded stand-in: tests/data/learned_4x3.csv (4
    // positions x 3 dimensions, entry (p, c) = p + 0.25 c) with dim 8. A window the parameter would allow
    // clamps to the table's 3 columns, as a window of rows clamps to the sequence.
    void heatmapEncodingTakesTheTablesWidth()
    {
        Scenario s;
        s.method = Method::Learned;
        s.seq_len = 4;
        s.params<LearnedParams>().dim = 8;
        s.params<LearnedParams>().table_path = POSATLAS_TEST_DATA "/learned_4x3.csv";
        ViewSettings v;
        v.matrix_kind = MatrixKind::Encoding;
        v.cols = 8; // the parameter's width
        HeatmapData d = heatmap_job(s, v);
        QCOMPARE(d.panels.size(), 1);
        const MatrixResult* m = &d.panels.front().matrix;
        QCOMPARE(m->values.rows(), 4);
        QCOMPARE(m->values.cols(), 3);
        for (Eigen::Index p = 0; p < 4; ++p)
            for (Eigen::Index c = 0; c < 3; ++c)
                QCOMPARE(m->values(p, c),
                         static_cast<double>(p) + 0.25 * static_cast<double>(c)); // exact in binary
        // A window starting past the table (column 5 < dim 8) clamps to its last column.
        v.col0 = 5;
        v.cols = 2;
        d = heatmap_job(s, v);
        m = &d.panels.front().matrix;
        QCOMPARE(m->col_index, std::vector<std::int64_t>{2});
        QCOMPARE(m->values(3, 0), 3.5);
    }

    // One target length for the explorer and the views, core's (rope_compare.h): Qwen2.5-7B + YaRN x4, whose
    // max_position_embeddings equals its original length (32768), aims at 4 x 32768 = 131072 in the
    // explorer's model and tables, the spectrum, the curves' marker and `compute rope-pairs`.
    void explorerAndViewsShareTheTargetLength()
    {
        const ConfigImport imp = load_model_config(configPath("qwen2.5_7b_yarn4.json").toStdString());
        const Scenario& s = imp.scenario;
        QCOMPARE(s.params<RopeParams>().max_position_embeddings, std::int64_t{32768});
        QCOMPARE(s.params<RopeParams>().trained_length(), std::int64_t{32768});
        constexpr std::int64_t kTarget = 131072;
        QCOMPARE(rope_pairs(s.params<RopeParams>()).target_length, kTarget);
        ExplorerModel explorer;
        explorer.setModel(s.params<RopeParams>(), QStringLiteral("qwen2.5_7b_yarn4"), imp);
        QCOMPARE(explorer.targetLength(), kTarget);
        const ExplorerTables tables = compute_explorer_tables(explorer_input(explorer), {});
        QCOMPARE(tables.target, kTarget);
        QVERIFY(!tables.variants.empty());
        for (const VariantResult& r : tables.variants)
            if (r.error.isEmpty())
                QCOMPARE(r.table.target_length, kTarget);
        QCOMPARE(spectrum_job(s, ViewSettings{}).target_length, static_cast<double>(kTarget));
        QList<double> marked;
        for (const CurveMarker& m : curve_job(s, ViewSettings{}).markers)
            marked.push_back(m.value);
        QVERIFY(marked.contains(static_cast<double>(kTarget)));

        // A default-type config whose original length exceeds max_position_embeddings: the target is
        // never short of the trained context, in the views and the command line alike (the curves
        // once marked 2048 here while the spectrum showed 4096).
        Scenario d;
        d.params<RopeParams>().max_position_embeddings = 2048;
        d.params<RopeParams>().original_max_position_embeddings = 4096;
        QCOMPARE(rope_pairs(d.params<RopeParams>()).target_length, std::int64_t{4096});
        QCOMPARE(spectrum_job(d, ViewSettings{}).target_length, 4096.0);
        for (const CurveMarker& m : curve_job(d, ViewSettings{}).markers)
            QVERIFY2(m.value != 2048.0, qPrintable(m.label));
    }

    // Gemma 3 12B (linear x8, max_position_embeddings 131072): pre-trained at 32768 (Gemma 3 Technical
    // Report), so the views mark trained 32768 and target 131072, not 131072 -> 1048576. A linear config
    // without an original length and no documented value (llama_tiny: x2 on 1024) is shown with the trained
    // length assumed, said on screen under the spectrum and the curves, until the user sets it.
    void linearTrainedLengthOnScreen()
    {
        const Scenario gemma = load_model_config(configPath("gemma3_12b.json").toStdString()).scenario;
        const SpectrumData g = spectrum_job(gemma, ViewSettings{});
        QCOMPARE(g.trained_length, 32768.0);
        QCOMPARE(g.target_length, 131072.0);
        QVERIFY2(!g.note.contains(QStringLiteral("assumed")), qPrintable(g.note));

        Scenario tiny = load_model_config(configPath("llama_tiny.json").toStdString()).scenario;
        QVERIFY2(
            spectrum_job(tiny, ViewSettings{}).note.contains(QStringLiteral("trained length 1024 assumed")),
            qPrintable(spectrum_job(tiny, ViewSettings{}).note));
        QVERIFY(curve_job(tiny, ViewSettings{}).note.contains(QStringLiteral("trained length 1024 assumed")));
        tiny.params<RopeParams>().original_max_position_embeddings = 512; // the user sets it
        const SpectrumData t = spectrum_job(tiny, ViewSettings{});
        QVERIFY2(!t.note.contains(QStringLiteral("assumed")), qPrintable(t.note));
        QCOMPARE(t.trained_length, 512.0);
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(ModelTruthTest)
#include "test_model_truth.moc"
