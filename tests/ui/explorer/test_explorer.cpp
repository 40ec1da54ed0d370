// SPDX-License-Identifier: GPL-3.0-or-later
// QtTest for the context-extension explorer: adding and removing methods, a config.json import,
// the dynamic-NTK length slider, the per-pair table and its CSV, the Llama 3.1 regime boundary labels and
// offscreen rendering of every view. Reference numbers are computed with python3 re-implementing
// transformers modeling_rope_utils.py (v4.45+ _compute_llama3_parameters / _compute_dynamic_ntk_parameters),
// not with our code.
#include "explorer/explorer_figures.h"
#include "explorer/explorer_panel.h"
#include "explorer/explorer_plot.h"
#include "explorer/explorer_table.h"
#include "explorer/explorer_window.h"
#include "export/figure_export.h"
#include "model/session.h"
#include "widgets/log_slider.h"
#include "window/main_window.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSet>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

int distinct_colors(const QImage& image)
{
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            colors.insert(line[x]);
    }
    return static_cast<int>(colors.size());
}

QImage render(const Figure& figure, QSize size = {900, 600})
{
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::magenta);
    QPainter painter(&image);
    figure.renderFigure(painter, QRectF(QPointF(0, 0), QSizeF(size)), {});
    painter.end();
    return image;
}

// Waits for the tables and the dynamic-NTK job (the entropy job is slow in Debug builds and only the
// tests that look at it wait for it: wait_all).
bool wait_idle(ExplorerWindow& w, int ms = 60000)
{
    QCoreApplication::processEvents();
    return QTest::qWaitFor(
        [&w] {
            return !w.jobs()->busy(ExplorerWindow::TablesJob) && !w.jobs()->busy(ExplorerWindow::DynamicJob);
        },
        ms);
}

bool wait_all(ExplorerWindow& w, int ms = 400000)
{
    QCoreApplication::processEvents();
    return QTest::qWaitFor([&w] { return !w.jobs()->busy(); }, ms);
}

int index_of(const ExplorerWindow& w, VariantKind kind)
{
    const auto& v = w.model()->variants();
    for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i].kind == kind)
            return static_cast<int>(i);
    return -1;
}

} // namespace

class ExplorerTest : public QObject
{
    Q_OBJECT
private slots:
    void addRemoveChangesSeriesCount();
    void configImportAppliesValuesAndListsKeys();
    void dynamicSliderMovesCurves();
    void tableRowsAndCsvHeader();
    void llama31BoundaryLabels();
    void everyViewRenders();
    void llamaCppYarnAgreesWithHfForYarnLlama2();
    void invalidParametersReportedPerVariant();
    void mainWindowOpensOneExplorer();
    void nonRopeScenarioSeedsLlama31();
    void deepSeekV3ProbeAndLogitMultiplier();
    void targetDrivesUnpinnedFactors();
    void pinnedFactorsSurviveSessions();
    void openingAnotherModelKeepsTheMethods();
    void entropyRecomputesOnlyTheEditedVariant();
    void lengthDependentScalesBesideTheTemperature();
};

void ExplorerTest::addRemoveChangesSeriesCount()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_idle(w));
    QCOMPARE(w.model()->variantCount(), 4); // Llama 3 (model), PI, YaRN, Dynamic NTK
    QCOMPARE(plot_series_count(w.plots(ExplorerView::PerPair).front()->spec()), 4);
    QVERIFY(!w.model()->canAdd());
    QVERIFY(!w.model()->addVariant(VariantKind::Ntk)); // at most four

    // Remove through the editor's button (queued), then add through the model.
    QCOMPARE(w.panel()->editors().size(), 4);
    QTest::mouseClick(w.panel()->editors().at(1)->removeButton(), Qt::LeftButton);
    QTRY_COMPARE(w.model()->variantCount(), 3);
    QVERIFY(wait_idle(w));
    QCOMPARE(plot_series_count(w.plots(ExplorerView::PerPair).front()->spec()), 3);
    QCOMPARE(w.tableModel()->columnCount(), 3 + 3 * 3);
    // Slots are stable: the third variant keeps colour slot 2 after the second is gone.
    QCOMPARE(w.model()->variants()[1].slot, 2);

    QVERIFY(w.model()->removeVariant(0));
    QVERIFY(!w.model()->removeVariant(0)); // at least two
    QVERIFY(w.model()->addVariant(VariantKind::YarnLlamaCpp));
    QVERIFY(w.model()->addVariant(VariantKind::Ntk));
    QVERIFY(wait_idle(w));
    QCOMPARE(plot_series_count(w.plots(ExplorerView::PerPair).front()->spec()), 4);
    // New variants take the free slots 0 and 1.
    QCOMPARE(w.model()->variants()[2].slot, 0);
    QCOMPARE(w.model()->variants()[3].slot, 1);
    QVERIFY(!variant_available(VariantKind::LongRope, w.model()->modelParams())); // no factor lists
}

void ExplorerTest::configImportAppliesValuesAndListsKeys()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"model_type": "llama", "hidden_size": 2048, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "rope_theta": 500000.0,
        "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0,
                         "high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
        "sliding_window": 4096, "some_unknown_key": 1})");
    f.close();

    ExplorerWindow w;
    QVERIFY2(w.openConfig(path), qPrintable(w.statusText()));
    const RopeParams& p = w.model()->modelParams();
    QCOMPARE(p.head_dim, 64); // 2048 / 32
    QCOMPARE(p.rope_theta, 500000.0);
    QCOMPARE(p.rope_type, RopeType::Llama3);
    QCOMPARE(p.factor, 32.0);
    QCOMPARE(w.model()->trainedLength(), std::int64_t{8192});
    // The config's context (Llama 3.2's 131072 from 8192), not 8192 * 32: rope_default_target_length.
    QCOMPARE(w.model()->targetLength(), std::int64_t{131072});
    QCOMPARE(w.model()->variants().front().kind, VariantKind::Llama3);
    QCOMPARE(w.model()->variants().front().params.factor, 32.0);
    const QString report = w.panel()->importReportText();
    QVERIFY2(report.contains(QStringLiteral("rope_theta")), qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("rope_scaling.factor")), qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("Not modelled")) &&
                 report.contains(QStringLiteral("sliding_window")),
             qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("some_unknown_key")), qPrintable(report));
    QVERIFY(wait_idle(w));
    QCOMPARE(w.tableModel()->rowCount(), 32);

    // A non-RoPE config is refused with a message, the model stays.
    const QString bad = dir.filePath(QStringLiteral("bloom.json"));
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(R"({"model_type": "bloom", "n_head": 16, "hidden_size": 1024})");
    b.close();
    QVERIFY(!w.openConfig(bad));
    QVERIFY(w.statusText().contains(QStringLiteral("RoPE")));
    QCOMPARE(w.model()->modelParams().factor, 32.0);
}

void ExplorerTest::dynamicSliderMovesCurves()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_idle(w));
    const int dyn = index_of(w, VariantKind::Dynamic);
    QVERIFY(dyn >= 0);
    LogSlider* slider = w.lengthSlider();
    QVERIFY(slider);

    auto dynamic_base = [&w] {
        for (const DynamicEntry& e : w.dynamicResult()->entries)
            if (e.variant.kind == VariantKind::Dynamic)
                return e.frequencies.base_used;
        return 0.0;
    };
    // At N <= max_position_embeddings (8192) dynamic NTK is unscaled (HF returns the default inv_freq).
    slider->slider()->setValue(0);
    QVERIFY(wait_idle(w));
    QCOMPARE(w.model()->currentLength(), std::int64_t{8192});
    QCOMPARE(dynamic_base(), 500000.0);
    const QImage before = render(*w.figure(ExplorerView::Dynamic));
    const QString labelBefore = w.baseLabel()->text();
    QVERIFY2(labelBefore.contains(QStringLiteral("500000")), qPrintable(labelBefore));

    // Dynamic NTK scales from the config's max_position_embeddings M = 131072 (HF
    // _compute_dynamic_ntk_parameters reads config.max_position_embeddings, not the original 8192): still
    // unscaled at 65536. Its factor follows the target: s = T / L = 131072 / 8192 = 16.
    QCOMPARE(w.model()->variants()[static_cast<std::size_t>(dyn)].params.factor, 16.0);
    slider->spinBox()->setValue(65536);
    QVERIFY(wait_idle(w));
    QCOMPARE(dynamic_base(), 500000.0);
    // Through the spin box, an exact length beyond M: base' = 500000 * (16 * 196608 / 131072 - 15)^(128/126)
    // = 4659713.555022214 (python3, HF's formula in double); tolerance 1e-9 relative.
    slider->spinBox()->setValue(196608);
    QVERIFY(wait_idle(w));
    QCOMPARE(w.model()->currentLength(), std::int64_t{196608});
    QVERIFY(std::abs(dynamic_base() / 4659713.555022214 - 1.0) < 1e-9);
    QVERIFY2(w.baseLabel()->text() != labelBefore, qPrintable(w.baseLabel()->text()));
    const QImage after = render(*w.figure(ExplorerView::Dynamic));
    QVERIFY(before != after);

    // A slider drag to the far end also moves it (slider maps log10 length).
    slider->slider()->setValue(slider->slider()->maximum());
    QVERIFY(wait_idle(w));
    QCOMPARE(w.model()->currentLength(), 2 * w.model()->targetLength());
    QVERIFY(dynamic_base() > 4659713.555022214);
}

void ExplorerTest::tableRowsAndCsvHeader()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_idle(w));
    QCOMPARE(w.tableModel()->rowCount(), 64); // head_dim 128 -> 64 pairs
    QCOMPARE(w.tableModel()->columnCount(), 3 + 4 * 3);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pairs.csv"));
    QVERIFY(w.exportCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // Long format, `compute rope-pairs`'s columns after the variant's label (test_export_csv compares the
    // bytes); the ramp column because YaRN is among the variants.
    QCOMPARE(lines.size(), 1 + 4 * 64);
    QCOMPARE(lines.front(),
             QStringLiteral("series,pair,inv_freq_original_rad_per_token,inv_freq_rad_per_token,"
                            "wavelength_original_tokens,wavelength_tokens,ratio_scaled_to_original,"
                            "yarn_ramp,regime,trained_max_angle_rad,target_max_angle_rad,"
                            "unseen_rotation"));
    // Row of pair 63 of Llama 3 (the first variant): theta = 500000^(-126/128) (python3: 2.4130e-06 ->
    // 2.413003...e-06), interpolated (wavelength > 8192), no ramp; the same pair of PI: ratio 1/16
    // exactly (PI follows the target: s = T / L = 131072 / 8192).
    const QStringList last = lines[64].split(QLatin1Char(','));
    QCOMPARE(last[0], QStringLiteral("Llama 3 (model)"));
    QCOMPARE(last[1], QStringLiteral("63"));
    QVERIFY(std::abs(last[2].toDouble() / std::pow(500000.0, -126.0 / 128.0) - 1.0) < 1e-15);
    QCOMPARE(last[7], QString());
    QCOMPARE(last[8], QStringLiteral("interpolated"));
    const QStringList pi = lines[128].split(QLatin1Char(','));
    QCOMPARE(pi[0], QStringLiteral("PI (linear)"));
    QCOMPARE(pi[6], QStringLiteral("0.0625"));
    QCOMPARE(lines[1].split(QLatin1Char(','))[8], QStringLiteral("kept"));
}

void ExplorerTest::llama31BoundaryLabels()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_idle(w));
    // python3 (HF _compute_llama3_parameters): pairs 0-28 keep (lambda < 2048, pair 28: 1956.5), 29-34 blend,
    // 35-63 interpolate (pair 35: 8218.7 > 8192).
    const VariantResult& llama = w.tables()->variants.front();
    QCOMPARE(llama.variant.kind, VariantKind::Llama3);
    const QStringList labels = boundary_labels(llama.table);
    QCOMPARE(labels.size(), 2);
    QVERIFY2(labels[0].startsWith(QStringLiteral("28/29")) && labels[0].contains(QStringLiteral("1956")),
             qPrintable(labels[0]));
    QVERIFY2(labels[1].startsWith(QStringLiteral("34/35")) && labels[1].contains(QStringLiteral("8219")),
             qPrintable(labels[1]));
    // ... and the per-pair chart carries them as vertical line labels.
    QStringList shown;
    for (const PlotLine& l : w.plots(ExplorerView::PerPair).front()->spec().lines)
        if (l.vertical)
            shown << l.label;
    QCOMPARE(shown, labels);
    QCOMPARE(w.plots(ExplorerView::PerPair).front()->spec().bands.size(), 3);
}

void ExplorerTest::everyViewRenders()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("yarn-llama-2-7b-64k")));
    QElapsedTimer timer;
    timer.start();
    QVERIFY(wait_all(w));
    qInfo("all explorer jobs of yarn-llama-2-7b-64k: %lld ms", static_cast<long long>(timer.elapsed()));
    QVERIFY(w.entropyResult().has_value());
    QCOMPARE(w.entropyResult()->curves.size(), std::size_t{4}); // one per variant
    for (int v = 0; v < kExplorerViewCount; ++v) {
        const auto view = static_cast<ExplorerView>(v);
        const Figure* f = w.figure(view);
        if (view == ExplorerView::Table) {
            QVERIFY(!f);
            continue;
        }
        QVERIFY(f);
        const QImage img = render(*f);
        QVERIFY2(distinct_colors(img) > 40, qPrintable(explorer_view_name(view)));
        QVERIFY(!img.pixelColor(5, 5).operator==(QColor(Qt::magenta))); // background painted
        for (PlotWidget* p : w.plots(view))
            QVERIFY2(plot_series_count(p->spec()) >= 2, qPrintable(p->spec().title));
    }
}

void ExplorerTest::llamaCppYarnAgreesWithHfForYarnLlama2()
{
    // YaRN Llama 2 (factor 16, L 4096, d 128, beta 32/1): HF with truncate and llama.cpp both floor/ceil the
    // correction range, so their frequencies agree (rope_scaling.h); llama.cpp's temperature 1 + 0.1 ln 16
    // = 1.2772588722239781 (python3) equals HF get_mscale(16). Tolerance 1e-12 relative.
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("yarn-llama-2-7b-64k")));
    QVERIFY(wait_idle(w));
    const auto& vs = w.tables()->variants;
    QCOMPARE(vs[0].variant.kind, VariantKind::Yarn);
    QCOMPARE(vs[1].variant.kind, VariantKind::YarnLlamaCpp);
    for (std::size_t i = 0; i < vs[0].table.rows.size(); ++i)
        QVERIFY(std::abs(vs[0].table.rows[i].ratio / vs[1].table.rows[i].ratio - 1.0) < 1e-12);
    QVERIFY(std::abs(vs[1].temperature.used - 1.2772588722239781) < 1e-12);
    QVERIFY(std::abs(vs[0].temperature.used - 1.2772588722239781) < 1e-12);
}

void ExplorerTest::invalidParametersReportedPerVariant()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_idle(w));
    const int yarn = index_of(w, VariantKind::Yarn);
    QVERIFY(yarn >= 0);
    // Through the editor: beta_slow above beta_fast is rejected by validate(RopeParams) for that variant
    // only.
    VariantEditor* editor = w.panel()->editors().at(yarn);
    QVERIFY(editor->fieldSlider("beta_slow"));
    QDoubleSpinBox* betaSlow = editor->fieldSlider("beta_slow")->spinBox();
    betaSlow->setValue(64.0);
    QCOMPARE(w.model()->variants()[static_cast<std::size_t>(yarn)].params.beta_slow, 64.0);
    QVERIFY(wait_idle(w));
    QVERIFY(w.tables()->variants[static_cast<std::size_t>(yarn)].error.contains(QStringLiteral("beta_fast")));
    QCOMPARE(plot_series_count(w.plots(ExplorerView::PerPair).front()->spec()), 3);
    QVERIFY2(w.statusText().contains(QStringLiteral("beta_fast")), qPrintable(w.statusText()));
    QCOMPARE(w.tableModel()->columnCount(), 3 + 3 * 3);
    betaSlow->setValue(1.0);
    QVERIFY(wait_idle(w));
    QCOMPARE(plot_series_count(w.plots(ExplorerView::PerPair).front()->spec()), 4);
}

void ExplorerTest::mainWindowOpensOneExplorer()
{
    QTemporaryDir dir;
    MainWindow mw(dir.filePath(QStringLiteral("settings.ini")));
    QVERIFY(mw.loadPreset(QStringLiteral("yarn-llama-2-7b-64k")));
    QAction* action = nullptr;
    for (QAction* a : mw.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(QStringLiteral("Ctrl+Shift+E")))
            action = a;
    QVERIFY(action);
    action->trigger();
    ExplorerWindow* e = mw.findChild<ExplorerWindow*>();
    QVERIFY(e);
    QVERIFY(e->isVisible());
    // Seeded with the main window's RoPE scenario: YaRN, factor 16, L 4096.
    QCOMPARE(e->model()->modelParams().rope_type, RopeType::Yarn);
    QCOMPARE(e->model()->modelParams().factor, 16.0);
    QCOMPARE(e->model()->trainedLength(), std::int64_t{4096});
    QCOMPARE(mw.openExplorer(), e); // one instance
    QCOMPARE(mw.findChildren<ExplorerWindow*>().size(), 1);
    QVERIFY(wait_idle(*e));
    QCOMPARE(e->tableModel()->rowCount(), 64);
}

void ExplorerTest::nonRopeScenarioSeedsLlama31()
{
    QTemporaryDir dir;
    MainWindow mw(dir.filePath(QStringLiteral("settings.ini")));
    QVERIFY(mw.loadPreset(QStringLiteral("bert-base")));
    QVERIFY(mw.model()->scenario().method != Method::RoPE);
    ExplorerWindow* e = mw.openExplorer();
    QCOMPARE(e->model()->modelName(), QStringLiteral("Llama 3.1 8B"));
    QCOMPARE(e->model()->modelParams().rope_theta, 500000.0);
}

// DeepSeek-V3 (tests/data/configs/deepseek_v3.json): the dynamic-NTK probe is the config read as dynamic NTK,
// M = max_position_embeddings 163840 (HF _compute_dynamic_ntk_parameters; core dynamic_ntk_params, as
// `compute rope-frequencies --rope-type dynamic`), so at N = 163840 the base stays 10000 (it used to show
// 1.98e7 from M = 4096). Temperature and entropy use the effective logit multiplier: the rotary attention
// factor 1 times the softmax scale yarn_get_mscale(40, 1)^2 of DeepseekV3Attention.__init__ =
// 1.8738542070926265 (python3); tolerance 1e-12 relative.
void ExplorerTest::deepSeekV3ProbeAndLogitMultiplier()
{
    ExplorerWindow w;
    QVERIFY2(w.openConfig(QStringLiteral(POSATLAS_TEST_DATA "/configs/deepseek_v3.json")),
             qPrintable(w.statusText()));
    QVERIFY(wait_idle(w));
    QCOMPARE(index_of(w, VariantKind::Dynamic), -1); // so the view adds its probe
    w.model()->setCurrentLength(163840);
    QVERIFY(wait_idle(w));
    bool probe = false;
    for (const DynamicEntry& e : w.dynamicResult()->entries) {
        if (e.variant.slot >= 0)
            continue;
        probe = true;
        QCOMPARE(e.variant.params.max_position_embeddings, std::int64_t{163840});
        QCOMPARE(e.frequencies.base_used, 10000.0);
    }
    QVERIFY(probe);

    const double m2 = 1.8738542070926265;
    const auto& vs = w.tables()->variants;
    QCOMPARE(vs[0].variant.kind, VariantKind::Yarn);
    QCOMPARE(vs[0].temperature.used, 1.0);
    QVERIFY(std::abs(vs[0].temperature.logit_multiplier / m2 - 1.0) < 1e-12);
    QVERIFY(std::abs(vs[1].temperature.logit_multiplier / m2 - 1.0) < 1e-12); // llama.cpp: (1 + 0.1 ln 40)^2
    const QString summary = w.panel()->modelSummaryText();
    QVERIFY2(summary.contains(QStringLiteral("logits × 1.874")), qPrintable(summary));
    QVERIFY(wait_all(w));
    const auto& curves = w.entropyResult()->curves;
    QCOMPARE(curves.size(), w.model()->variants().size()); // one per variant
    QVERIFY(std::abs(curves[0].logit_multiplier / m2 - 1.0) < 1e-12);
    QVERIFY(std::abs(curves[1].logit_multiplier / m2 - 1.0) < 1e-12);
    QVERIFY(curves[0].label.contains(QStringLiteral("(model)")));
}

// The target T drives the factor of every method that follows it: s = T / L (PI's ratio is then 1 / s
// exactly, HF _compute_linear_scaling_parameters). A factor set by hand, or the model's own, stays pinned.
void ExplorerTest::targetDrivesUnpinnedFactors()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    const int llama = index_of(w, VariantKind::Llama3), pi = index_of(w, VariantKind::Linear),
              yarn = index_of(w, VariantKind::Yarn), dyn = index_of(w, VariantKind::Dynamic);
    QVERIFY(llama >= 0 && pi >= 0 && yarn >= 0 && dyn >= 0);
    auto variant = [&w](int i) { return w.model()->variants()[static_cast<std::size_t>(i)]; };
    // L = 8192, T = 131072: s = 16 for the followers; Llama 3 (model) keeps the model's 8, pinned.
    QCOMPARE(variant(pi).params.factor, 16.0);
    QVERIFY(!variant(pi).factor_pinned);
    QCOMPARE(variant(llama).params.factor, 8.0);
    QVERIFY(variant(llama).factor_pinned);
    QVERIFY(!w.panel()->editors().at(llama)->followButton()->isHidden());

    // YaRN's factor set by hand in its editor: pinned, with a way back.
    VariantEditor* yarnEditor = w.panel()->editors().at(yarn);
    QVERIFY(yarnEditor->followButton()->isHidden());
    QCOMPARE(yarnEditor->factorState()->text(), QStringLiteral("follows T: s = T / L"));
    yarnEditor->factorBox()->setValue(6.0);
    QVERIFY(variant(yarn).factor_pinned);
    QCOMPARE(yarnEditor->factorState()->text(), QStringLiteral("pinned"));
    QVERIFY(!yarnEditor->followButton()->isHidden());

    // T = 32768 through the panel's slider: s = 4 for PI and dynamic NTK, shown in their editors; the
    // pinned factors stay; the dynamic-NTK length, at the old target, follows.
    w.panel()->targetSlider()->spinBox()->setValue(32768);
    QCOMPARE(w.model()->targetLength(), std::int64_t{32768});
    QCOMPARE(variant(pi).params.factor, 4.0);
    QCOMPARE(variant(pi).params.max_position_embeddings, std::int64_t{32768});
    QCOMPARE(variant(dyn).params.factor, 4.0);
    QCOMPARE(variant(yarn).params.factor, 6.0);
    QCOMPARE(variant(llama).params.factor, 8.0);
    QCOMPARE(w.panel()->editors().at(pi)->factorBox()->value(), 4.0);
    QCOMPARE(w.model()->currentLength(), std::int64_t{32768});
    QVERIFY(wait_idle(w));
    QCOMPARE(w.tables()->variants[static_cast<std::size_t>(pi)].table.rows.back().ratio, 0.25);

    // "Follow T" releases YaRN's factor: s = 4 again.
    QTest::mouseClick(yarnEditor->followButton(), Qt::LeftButton);
    QVERIFY(!variant(yarn).factor_pinned);
    QCOMPARE(variant(yarn).params.factor, 4.0);
    QCOMPARE(yarnEditor->factorBox()->value(), 4.0);
    QVERIFY(yarnEditor->followButton()->isHidden());
    // A length the user moved the slider to stays when T changes.
    w.model()->setCurrentLength(20000);
    w.model()->setTargetLength(65536);
    QCOMPARE(w.model()->currentLength(), std::int64_t{20000});
    QCOMPARE(variant(yarn).params.factor, 8.0);
    // Editing another parameter leaves a factor the box rounds (T / L = 100000 / 8192 = 12.20703125) exact
    // and following.
    w.model()->setTargetLength(100000);
    QVERIFY(yarnEditor->fieldSlider("beta_fast"));
    QDoubleSpinBox* betaFast = yarnEditor->fieldSlider("beta_fast")->spinBox();
    betaFast->setValue(16.0);
    QCOMPARE(variant(yarn).params.beta_fast, 16.0);
    QCOMPARE(variant(yarn).params.factor, 12.20703125);
    QVERIFY(!variant(yarn).factor_pinned);
}

void ExplorerTest::pinnedFactorsSurviveSessions()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    const int pi = index_of(w, VariantKind::Linear), yarn = index_of(w, VariantKind::Yarn);
    RopeParams p = w.model()->variants()[static_cast<std::size_t>(pi)].params;
    p.factor = 5.0;
    w.model()->setVariantParams(pi, p);
    Session session;
    session.explorer = w.state();
    const Session loaded = session_from_json(session_to_json(session));
    QVERIFY(loaded.explorer);
    QCOMPARE(loaded.explorer->variants[static_cast<std::size_t>(pi)].factor_pinned,
             std::optional<bool>(true));
    QCOMPARE(loaded.explorer->variants[static_cast<std::size_t>(yarn)].factor_pinned,
             std::optional<bool>(false));

    ExplorerWindow restored;
    QVERIFY(restored.applyState(*loaded.explorer));
    auto factor = [&restored](int i) {
        return restored.model()->variants()[static_cast<std::size_t>(i)].params.factor;
    };
    restored.model()->setTargetLength(65536);
    QCOMPARE(factor(pi), 5.0);
    QCOMPARE(factor(yarn), 8.0);

    // A session written before factors followed the target has no factor_pinned: the factors that differ
    // from T / L stay as saved, the others follow.
    ExplorerState old = *loaded.explorer;
    for (auto& v : old.variants)
        v.factor_pinned.reset();
    ExplorerWindow legacy;
    QVERIFY(legacy.applyState(old));
    QCOMPARE(legacy.model()->variants()[static_cast<std::size_t>(pi)].params.factor, 5.0);
    QVERIFY(legacy.model()->variants()[static_cast<std::size_t>(pi)].factor_pinned);
    QVERIFY(!legacy.model()->variants()[static_cast<std::size_t>(yarn)].factor_pinned);
    legacy.model()->setTargetLength(65536);
    QCOMPARE(legacy.model()->variants()[static_cast<std::size_t>(pi)].params.factor, 5.0);
    QCOMPARE(legacy.model()->variants()[static_cast<std::size_t>(yarn)].params.factor, 8.0);
}

// Opening another model keeps the compared kinds and what was set by hand; the factors that follow the
// target are re-derived from the new model's lengths (Qwen2.5 7B: unscaled, L = 32768, T = 4 L).
void ExplorerTest::openingAnotherModelKeepsTheMethods()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(w.model()->removeVariant(index_of(w, VariantKind::Dynamic)));
    QVERIFY(w.model()->addVariant(VariantKind::YarnLlamaCpp));
    const int pi = index_of(w, VariantKind::Linear), yarn = index_of(w, VariantKind::Yarn);
    RopeParams p = w.model()->variants()[static_cast<std::size_t>(pi)].params;
    p.factor = 5.0; // pinned
    w.model()->setVariantParams(pi, p);
    p = w.model()->variants()[static_cast<std::size_t>(yarn)].params;
    p.beta_fast = 16.0; // set by hand, the factor still follows T
    w.model()->setVariantParams(yarn, p);
    std::vector<int> slot_of;
    for (const ExplorerVariant& v : w.model()->variants())
        slot_of.push_back(v.slot);

    QVERIFY2(w.openConfig(QStringLiteral(POSATLAS_TEST_DATA "/configs/qwen2.5_7b_instruct.json")),
             qPrintable(w.statusText()));
    QCOMPARE(w.model()->trainedLength(), std::int64_t{32768});
    QCOMPARE(w.model()->targetLength(), std::int64_t{131072});
    const auto& vs = w.model()->variants();
    QCOMPARE(vs.size(), std::size_t{4});
    const VariantKind kinds[] = {VariantKind::Llama3, VariantKind::Linear, VariantKind::Yarn,
                                 VariantKind::YarnLlamaCpp};
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(vs[i].kind, kinds[i]);
        QCOMPARE(vs[i].slot, slot_of[i]); // colours stay
        QCOMPARE(vs[i].params.rope_theta, 1e6);
        QCOMPARE(vs[i].params.head_dim, 128); // 3584 / 28
    }
    // Llama 3 was the model's own (factor 8): now a compared method following T, s = 4.
    QCOMPARE(vs[0].label, QStringLiteral("Llama 3"));
    QCOMPARE(vs[0].params.factor, 4.0);
    QVERIFY(!vs[0].factor_pinned);
    QCOMPARE(vs[0].params.original_max_position_embeddings, std::int64_t{32768});
    QCOMPARE(vs[1].params.factor, 5.0);
    QVERIFY(vs[1].factor_pinned);
    QCOMPARE(vs[2].params.factor, 4.0);
    QCOMPARE(vs[2].params.beta_fast, 16.0);
    QCOMPARE(vs[3].params.beta_fast, 32.0); // not set by hand: the standard
    QVERIFY(wait_idle(w));
    QCOMPARE(w.tableModel()->rowCount(), 64);

    // A preset the same way; its own scaling (YaRN, factor 16) shows as the model's.
    QVERIFY(w.loadPreset(QStringLiteral("yarn-llama-2-7b-64k")));
    QCOMPARE(w.model()->variants()[2].label, QStringLiteral("YaRN (model)"));
    QCOMPARE(w.model()->variants()[2].params.factor, 16.0);
    QCOMPARE(w.model()->variants()[1].params.factor, 5.0);
}

// The entropy view is incremental: its curves are cached per variant by the variant's full parameters
// and the content (EntropyCache), so an edit of one variant makes core compute that variant's curve only,
// and going back to a content seen before computes nothing. With the default content (the repeated token,
// attention_entropy.h) the methods' curves differ: Llama 3 (model, factor 8) and PI (factor 16) by more
// than 0.2 nats somewhere (at N = 16 the core prototype gives 3.30 against 3.95 for PI at N = 64).
void ExplorerTest::entropyRecomputesOnlyTheEditedVariant()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_all(w));
    QCOMPARE(w.entropyContent(), EntropyContent::RepeatedToken);
    const EntropyResult before = *w.entropyResult();
    QCOMPARE(before.content, EntropyContent::RepeatedToken);
    QCOMPARE(before.curves.size(), std::size_t{4});
    const int llama = index_of(w, VariantKind::Llama3), pi = index_of(w, VariantKind::Linear),
              yarn = index_of(w, VariantKind::Yarn);
    double widest = 0.0;
    for (std::size_t i = 0; i < before.lengths.size(); ++i)
        widest =
            std::max(widest, std::abs(before.curves[static_cast<std::size_t>(llama)].with_temperature[i] -
                                      before.curves[static_cast<std::size_t>(pi)].with_temperature[i]));
    QVERIFY2(widest > 0.2, qPrintable(QString::number(widest)));

    // Edit YaRN's beta_fast: one core call, the other three curves reused bit for bit.
    const int calls = w.entropyCache().coreCalls();
    RopeParams p = w.model()->variants()[static_cast<std::size_t>(yarn)].params;
    p.beta_fast = 16.0;
    w.model()->setVariantParams(yarn, p);
    QVERIFY(wait_all(w));
    QCOMPARE(w.entropyCache().coreCalls(), calls + 1);
    QCOMPARE(w.entropyResult()->computed, 1);
    const EntropyResult after = *w.entropyResult();
    for (std::size_t v = 0; v < after.curves.size(); ++v) {
        if (static_cast<int>(v) == yarn)
            QVERIFY(after.curves[v].with_temperature != before.curves[v].with_temperature);
        else
            QCOMPARE(after.curves[v].with_temperature, before.curves[v].with_temperature);
    }

    // Random q, k computes four curves (with a shorter list of lengths); coming back computes none.
    w.setEntropyContent(EntropyContent::RandomQK);
    QVERIFY(wait_all(w));
    QCOMPARE(w.entropyResult()->content, EntropyContent::RandomQK);
    QCOMPARE(w.entropyCache().coreCalls(), calls + 5);
    QCOMPARE(w.plots(ExplorerView::Temperature)[1]->spec().title,
             QStringLiteral("Attention entropy against context (random q, k)"));
    w.setEntropyContent(EntropyContent::RepeatedToken);
    QVERIFY(wait_all(w));
    QCOMPARE(w.entropyCache().coreCalls(), calls + 5);
    QCOMPARE(w.entropyResult()->computed, 0);
    QCOMPARE(w.entropyResult()->curves[static_cast<std::size_t>(yarn)].with_temperature,
             after.curves[static_cast<std::size_t>(yarn)].with_temperature);
}

// Saves the explorer's temperature-and-entropy page for review by eye when POSATLAS_EXPLORER_SHOTS names a
// folder (explorer-NAME.png); nothing otherwise.
static void save_shot(ExplorerWindow& w, const QString& name)
{
    const QString folder = qEnvironmentVariable("POSATLAS_EXPLORER_SHOTS");
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    w.resize(1600, 900);
    auto* tabs = w.findChild<QTabWidget*>();
    QVERIFY(tabs);
    tabs->setCurrentIndex(static_cast<int>(ExplorerView::Temperature));
    w.show();
    QTest::qWait(300);
    QVERIFY(w.grab().save(QDir(folder).filePath(QStringLiteral("explorer-%1.png").arg(name))));
}

// Qwen's log-n and Llama 4's temperature (query_scale.h) beside the scalings' temperatures. Softmax entropy
// falls strictly as every logit is multiplied by m > 1 (its derivative in m is -m Var(l) < 0 unless all
// logits are equal), and is unchanged where m = 1: exact comparisons, the same core pass computes both.
void ExplorerTest::lengthDependentScalesBesideTheTemperature()
{
    ExplorerWindow w;
    QVERIFY(w.loadPreset(QStringLiteral("llama-3.1-8b")));
    QVERIFY(wait_all(w));
    const std::int64_t trained = w.model()->trainedLength();
    w.setQueryScaleKind(QueryScaleKind::LogN);
    QVERIFY(wait_all(w));
    save_shot(w, QStringLiteral("logn"));
    const EntropyResult logn = *w.entropyResult();
    QCOMPARE(logn.query_scale.kind, QueryScaleKind::LogN);
    QCOMPARE(logn.query_scale.trained_length, trained);
    QCOMPARE(logn.curves.size(), w.model()->variants().size());
    QVERIFY(logn.lengths.back() > trained);
    for (const EntropyResult::Curve& c : logn.curves) {
        QCOMPARE(c.with_query_scale.size(), logn.lengths.size());
        for (std::size_t i = 0; i < logn.lengths.size(); ++i) {
            if (logn.lengths[i] <= trained)
                QCOMPARE(c.with_query_scale[i], c.with_temperature[i]);
            else
                QVERIFY2(c.with_query_scale[i] < c.with_temperature[i], qPrintable(c.label));
        }
    }
    // The temperature plot: the query's multiplier at p + 1 = s L, as core computes it.
    const PlotSpec temperature = w.plots(ExplorerView::Temperature)[0]->spec();
    const auto series = std::find_if(temperature.series.begin(), temperature.series.end(),
                                     [](const PlotSeries& x) { return x.name.startsWith("Qwen log-n"); });
    QVERIFY(series != temperature.series.end());
    for (std::size_t i = 0; i < series->x.size(); ++i) {
        const auto p =
            std::max<std::int64_t>(0, std::llround(series->x[i] * static_cast<double>(trained)) - 1);
        QCOMPARE(series->y[i], logn_query_scale(p, trained));
    }

    // Llama 4's temperature acts on a NoPE layer: one more curve, the variants' curves without it. A repeated
    // token gives a NoPE layer equal logits, ln N whatever the temperature (1e-12 nats: rounding of ln).
    w.setQueryScaleKind(QueryScaleKind::Llama4);
    QVERIFY(wait_all(w));
    const EntropyResult llama4 = *w.entropyResult();
    QCOMPARE(llama4.curves.size(), w.model()->variants().size() + 1);
    const EntropyResult::Curve& nope = llama4.curves.back();
    QCOMPARE(nope.slot, EntropyResult::kNopeSlot);
    for (std::size_t v = 0; v + 1 < llama4.curves.size(); ++v)
        QVERIFY(llama4.curves[v].with_query_scale.empty());
    for (std::size_t i = 0; i < llama4.lengths.size(); ++i) {
        const double ln_n = std::log(static_cast<double>(llama4.lengths[i]));
        QVERIFY(std::abs(nope.with_temperature[i] - ln_n) < 1e-12);
        QVERIFY(std::abs(nope.with_query_scale[i] - ln_n) < 1e-12);
    }
    // With random q, k the temperature sharpens the NoPE layer from position floor_scale - 1 on (8192).
    w.setEntropyContent(EntropyContent::RandomQK);
    QVERIFY(wait_all(w));
    save_shot(w, QStringLiteral("llama4-random"));
    const EntropyResult random = *w.entropyResult();
    const EntropyResult::Curve& nope_random = random.curves.back();
    QCOMPARE(nope_random.slot, EntropyResult::kNopeSlot);
    for (std::size_t i = 0; i < random.lengths.size(); ++i) {
        if (random.lengths[i] < 8192)
            QCOMPARE(nope_random.with_query_scale[i], nope_random.with_temperature[i]);
        else
            QVERIFY(nope_random.with_query_scale[i] < nope_random.with_temperature[i]);
    }
    w.setQueryScaleKind(QueryScaleKind::None);
    QVERIFY(wait_all(w));
    QCOMPARE(w.entropyResult()->curves.size(), w.model()->variants().size());
    QVERIFY(w.entropyResult()->curves.front().with_query_scale.empty());
}

QTEST_MAIN(ExplorerTest)
#include "test_explorer.moc"
