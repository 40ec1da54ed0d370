// SPDX-License-Identifier: GPL-3.0-or-later
// GUI behaviour under QT_QPA_PLATFORM=offscreen: model + undo, the views' jobs, the parameter
// panel and the main window with its docks, presets and config import.
#include "gui_support.h"
#include "io/presets.h"
#include "jobs/job_tracker.h"
#include "jobs/view_jobs.h"
#include "methods/alibi/alibi.h"
#include "methods/t5/t5_buckets.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/figure_style.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "widgets/log_slider.h"
#include "widgets/parameter_panel.h"
#include "window/main_window.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUndoStack>

#include <atomic>
#include <cmath>
#include <numbers>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// Number of distinct colours, capped: "not one colour" and "has real content" checks.
int distinctColors(const QImage& image, int cap = 64)
{
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 2) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); x += 2) {
            seen.insert(line[x]);
            if (seen.size() >= cap)
                return cap;
        }
    }
    return static_cast<int>(seen.size());
}

} // namespace

class GuiTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString settingsPath(const QString& name) const { return m_dir.filePath(name + QStringLiteral(".ini")); }

    // Shows a main window with every view computed, waits for the first results.
    std::unique_ptr<MainWindow> makeWindow(const QString& settingsName)
    {
        return showMainWindow(settingsPath(settingsName));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QApplication::setOrganizationName(QStringLiteral("PosAtlasTest"));
        QApplication::setApplicationName(QStringLiteral("ui_gui_tests"));
    }

    // ------------------------------------------------------------ parameter table and model

    void paramIndicesAreStableAndDistinct()
    {
        const auto all = all_params();
        QVERIFY(all.size() > 40);
        for (std::size_t i = 0; i < all.size(); ++i)
            QCOMPARE(param_index(all[i]), static_cast<int>(i));
    }

    void everyParameterRoundTrips()
    {
        // Setting a parameter to its own value through the table leaves the scenario equal, and the
        // default scenario passes core validation for its method.
        const Scenario s;
        for (ParamId id : all_params()) {
            if (id->type == FieldType::RealList || id->type == FieldType::Text)
                continue; // not numbers: the session round trip covers them
            Scenario t = s;
            set_param_value(t, id, param_value(s, id));
            QVERIFY2(s == t, id->key.c_str());
        }
        validate_for(s);
    }

    void invalidParameterLeavesStateAndEmitsMessage()
    {
        ScenarioModel model;
        QSignalSpy rejected(&model, &ScenarioModel::parameterRejected);
        QSignalSpy changed(&model, &ScenarioModel::scenarioChanged);
        const Scenario before = model.scenario();
        // core: rope_theta must be > 1 (validation.cpp validate(RopeParams)).
        QVERIFY(!model.setValue(param(Method::RoPE, "rope_theta"), 0.5));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(rejected.front().front().toString().contains(QStringLiteral("rope_theta")));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(model.undoStack()->count(), 0);
        QVERIFY((before == model.scenario()));
        // beta_fast must be >= beta_slow: a cross-field rule also leaves the state alone.
        QVERIFY(!model.setValue(param(Method::RoPE, "beta_fast"), 0.6));
        QCOMPARE(rejected.count(), 2);
        QVERIFY((before == model.scenario()));
    }

    void unchangedValueDoesNothing()
    {
        ScenarioModel model;
        QSignalSpy changed(&model, &ScenarioModel::scenarioChanged);
        QVERIFY(model.setValue(param(Method::RoPE, "rope_theta"),
                               model.scenario().params<RopeParams>().rope_theta));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(model.undoStack()->count(), 0);
    }

    void oneSignalPerChangeAndUndoRedo()
    {
        ScenarioModel model;
        QSignalSpy changed(&model, &ScenarioModel::scenarioChanged);
        QVERIFY(model.setValue(param(Method::RoPE, "rope_theta"), 500000.0));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 500000.0);
        model.undoStack()->undo();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 10000.0);
        model.undoStack()->redo();
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 500000.0);
    }

    void dragIsOneUndoEntry()
    {
        ScenarioModel model;
        ParameterPanel panel(&model);
        LogSlider* base = panel.slider(param(Method::RoPE, "rope_theta"));
        QVERIFY(base);
        QSlider* s = base->slider();
        const int start = s->value();
        s->setSliderDown(true); // emits sliderPressed: the drag begins
        for (int k = 1; k <= 40; ++k)
            s->setValue(start + 5 * k);
        s->setSliderDown(false); // sliderReleased
        QCOMPARE(model.undoStack()->count(), 1);
        QVERIFY(model.scenario().params<RopeParams>().rope_theta > 10000.0);
        QCOMPARE(base->value(), model.scenario().params<RopeParams>().rope_theta);
        model.undoStack()->undo();
        QCOMPARE(model.scenario().params<RopeParams>().rope_theta, 10000.0);
        QCOMPARE(base->value(), 10000.0); // the panel follows the model

        // A second drag is a second entry; a drag back to the start leaves no entry at all.
        s->setSliderDown(true);
        s->setValue(s->value() + 30);
        s->setSliderDown(false);
        QCOMPARE(model.undoStack()->count(), 1); // the undone entry was replaced
        const int index = model.undoStack()->index();
        s->setSliderDown(true);
        s->setValue(s->value() + 30);
        s->setValue(s->value() - 30);
        s->setSliderDown(false);
        QCOMPARE(model.undoStack()->index(), index);
    }

    // The sentence: a line edit in the panel, one undo step, the positions follow it and
    // the rows it replaces (sequence length, content kind) are hidden while it is set.
    void sentenceFieldSetsTheTokens()
    {
        ScenarioModel model;
        ParameterPanel panel(&model);
        panel.show();
        auto* line = qobject_cast<QLineEdit*>(panel.editor(param("text")));
        QVERIFY(line);
        QVERIFY(panel.isRowVisible(param("seq_len")));
        line->setText(QStringLiteral("今天天气很好"));
        emit line->editingFinished();
        QCOMPARE(model.scenario().content.text, std::string("今天天气很好"));
        QCOMPARE(model.scenario().seq_len, std::int64_t{6});
        QCOMPARE(model.undoStack()->count(), 1);
        QVERIFY(!panel.isRowVisible(param("seq_len")));
        QVERIFY(!panel.isRowVisible(param("content")));
        QVERIFY(panel.isRowVisible(param("content_seed")));
        model.undoStack()->undo();
        QVERIFY(model.scenario().content.text.empty());
        QCOMPARE(line->text(), QString()); // the panel follows the model
        QVERIFY(panel.isRowVisible(param("seq_len")));
        // The weights kind is offered beside the logits.
        const auto kinds = matrix_kinds_for(model.scenario().method);
        QVERIFY(std::find(kinds.begin(), kinds.end(), MatrixKind::Weights) != kinds.end());
    }

    void presetIsOneUndoStepAndMethodSwitchKeepsHeadValid()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::T5));
        QVERIFY(model.setValue(param("head"), 11));
        // ALiBi has 8 heads by default: the shown head is clamped rather than the switch rejected.
        QVERIFY(model.setMethod(Method::ALiBi));
        QCOMPARE(model.scenario().head, 7);
        const int before = model.undoStack()->count();
        const ConfigImport imp = load_preset("llama-3.1-8b", model.scenario());
        QVERIFY(model.setScenario(imp.scenario, QStringLiteral("Preset")));
        QCOMPARE(model.undoStack()->count(), before + 1);
        QCOMPARE(model.scenario().method, Method::RoPE);
        model.undoStack()->undo();
        QCOMPARE(model.scenario().method, Method::ALiBi);
    }

    // ------------------------------------------------------------ widgets

    void logSliderMapping_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<bool>("log");
        QTest::addColumn<bool>("integer");
        QTest::newRow("rope base") << 10.0 << 1e8 << true << false;
        QTest::newRow("factor") << 1.0 << 128.0 << true << false;
        QTest::newRow("seq len") << 8.0 << 1e6 << true << true;
        QTest::newRow("original ctx (0 = unset)") << 0.0 << 1e7 << true << true;
        QTest::newRow("linear int") << 0.0 << 63.0 << false << true;
    }
    void logSliderMapping()
    {
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(bool, log);
        QFETCH(bool, integer);
        LogSlider::Range r;
        r.min = min;
        r.max = max;
        r.log_scale = log;
        r.integer = integer;
        r.decimals = 2;
        LogSlider s(r);
        QCOMPARE(s.valueForPosition(0), min);
        QCOMPARE(s.valueForPosition(s.sliderSteps()), max);
        // Monotone, and position -> value -> position is the identity (rounding never skips a tick back).
        double last = -1e300;
        for (int p = 0; p <= s.sliderSteps(); ++p) {
            const double v = s.valueForPosition(p);
            QVERIFY(v >= last);
            last = v;
        }
        if (log && min > 0) {
            // Equal travel per decade: the middle tick is the geometric mean (to the 3 significant
            // digits the slider rounds to, and one tick of 1000).
            const double mid = s.valueForPosition(s.sliderSteps() / 2);
            QVERIFY(std::abs(std::log10(mid) - 0.5 * (std::log10(min) + std::log10(max))) < 0.01);
        }
    }

    void panelShowsExactlyTheMethodsParameters()
    {
        ScenarioModel model;
        ParameterPanel panel(&model);
        panel.resize(340, 800);
        panel.show();
        QVERIFY(panel.isRowVisible(param(Method::RoPE, "rope_theta")));
        QVERIFY(!panel.isRowVisible(param(Method::ALiBi, "num_heads")));
        QVERIFY(!panel.isRowVisible(param(Method::RoPE, "beta_fast"))); // default RoPE: no YaRN rows
        QVERIFY(!panel.isRowVisible(param(Method::RoPE, "factor")));
        QVERIFY(model.setValue(param(Method::RoPE, "rope_type"), static_cast<int>(RopeType::Yarn)));
        QVERIFY(panel.isRowVisible(param(Method::RoPE, "beta_fast")));
        QVERIFY(panel.isRowVisible(param(Method::RoPE, "factor")));
        QVERIFY(!panel.isRowVisible(param(Method::RoPE, "low_freq_factor")));
        QVERIFY(panel.editor(param(Method::RoPE, "beta_fast"))->isVisible());
        QVERIFY(!panel.editor(param(Method::RoPE, "low_freq_factor"))->isVisible());
        // Method selector drives the groups.
        QComboBox* combo = panel.methodCombo();
        QCOMPARE(combo->count(), static_cast<int>(methods().size()));
        combo->setCurrentIndex(7);
        emit combo->activated(7); // what a user's selection emits
        QCOMPARE(model.scenario().method, Method::ALiBi);
        QVERIFY(panel.editor(param(Method::ALiBi, "num_heads"))->isVisible());
        QVERIFY(!panel.editor(param(Method::RoPE, "rope_theta"))->isVisible());
        // A hidden row takes its label along (the row is one widget), and the label of a shown row shows.
        QVERIFY(!panel.label(param(Method::RoPE, "rope_theta"))->isVisible());
        QVERIFY(panel.label(param(Method::ALiBi, "num_heads"))->isVisible());
        // No QFormLayout: Qt 6.4's QFormLayout::setRowVisible() writes past its row array when rows are
        // shown and hidden while their group is being shown (valgrind, issue of the random crashes in
        // this suite); rows are plain widgets in box layouts instead.
        QVERIFY(panel.findChildren<QFormLayout*>().isEmpty());
        // Every editor has a tooltip.
        for (ParamId id : all_params())
            if (id->panel)
                QVERIFY2(!panel.editor(id)->toolTip().isEmpty() || qobject_cast<LogSlider*>(panel.editor(id)),
                         id->key.c_str());
    }

    void keyboardAdjustsSlider()
    {
        ScenarioModel model;
        ParameterPanel panel(&model);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSlider* s = panel.slider(param(Method::RoPE, "rope_theta"))->slider();
        s->setFocus();
        QTest::keyClick(s, Qt::Key_PageUp);
        QVERIFY(model.scenario().params<RopeParams>().rope_theta > 10000.0);
        const double afterPage = model.scenario().params<RopeParams>().rope_theta;
        QTest::keyClick(s, Qt::Key_Left);
        QVERIFY(model.scenario().params<RopeParams>().rope_theta < afterPage);
    }

    // ------------------------------------------------------------ view jobs

    void heatmapJobComputesOnlyWhatIsShown()
    {
        Scenario s;
        s.seq_len = 1'000'000; // a million positions: never N x N, only the view's pixels
        ViewSettings v;
        v.pixel_width = 200;
        v.pixel_height = 150;
        const HeatmapData d = heatmap_job(s, v);
        QCOMPARE(d.panels.size(), 1);
        // The view's panel area is 200 x 150: the N x N heatmap keeps its square aspect there, as the
        // view paints it (heatmap_grid), so 150 x 150 pixels.
        QCOMPARE(d.panels.front().matrix.values.rows(), 150);
        QCOMPARE(d.panels.front().matrix.values.cols(), 150);
        QVERIFY(d.panels.front().matrix.row_index.back() > 990'000);
        // A zoomed window asks for exactly those positions.
        v.row0 = 1000;
        v.col0 = 2000;
        v.rows = v.cols = 50;
        const HeatmapData z = heatmap_job(s, v);
        QCOMPARE(z.panels.front().matrix.values.rows(), 50);
        QCOMPARE(z.panels.front().matrix.row_index.front(), std::int64_t{1000});
        QCOMPARE(z.panels.front().matrix.col_index.front(), std::int64_t{2000});
    }

    void perHeadSmallMultiplesCarryTheSlope()
    {
        Scenario s;
        s.method = Method::ALiBi;
        s.params<AlibiParams>().num_heads = 8;
        ViewSettings v;
        v.matrix_kind = MatrixKind::Bias;
        const HeatmapData d = heatmap_job(s, v);
        QCOMPARE(d.panels.size(), 8);
        // Slopes from core (alibi_scaled_slopes); for 8 heads 2^-1 .. 2^-8 (Press et al. 2022, sec. 3).
        const std::vector<double> slopes = alibi_scaled_slopes(s.params<AlibiParams>());
        for (int h = 0; h < 8; ++h)
            QVERIFY2(d.panels[h].label.endsWith(QStringLiteral("=") +
                                                QString::number(slopes[static_cast<std::size_t>(h)], 'g', 3)),
                     qPrintable(d.panels[h].label));
        QVERIFY(d.panels[7].label.endsWith(QStringLiteral("=0.00391"))); // 2^-8 to 3 digits
        // More heads than panels: sampled, first and last always shown.
        s.params<AlibiParams>().num_heads = 64;
        v.max_panels = 16;
        const HeatmapData many = heatmap_job(s, v);
        QCOMPARE(many.panels.size(), 16);
        QVERIFY(many.title.contains(QStringLiteral("16")) && many.title.contains(QStringLiteral("64")));
    }

    void curveJobs()
    {
        Scenario s; // RoPE
        ViewSettings v;
        v.max_distance = 1'000'000;
        v.curve_points = 500;
        const CurveData c = curve_job(s, v);
        QVERIFY(c.log_x);
        QVERIFY(c.series.size() >= 2);
        QCOMPARE(c.series.front().x.back(), 1e6);
        // An envelope: at most the min and the max of each of the <= 501 bins.
        QVERIFY(c.series.front().envelope);
        QVERIFY(c.series.front().x.size() <= 2 * 501);
        QVERIFY(c.series.front().x.front() > 0.0); // log axis: r = 0 dropped
        // T5: the step plot is core's bucket function at each distance.
        s.method = Method::T5;
        v.max_distance = 300;
        const CurveData t = curve_job(s, v);
        QCOMPARE(t.series.size(), 2); // bidirectional: both sides
        QVERIFY(t.series.front().step);
        for (std::size_t i = 0; i < t.series.front().x.size(); ++i)
            QCOMPARE(t.series.front().y[i],
                     double(t5_relative_position_bucket(static_cast<std::int64_t>(t.series.front().x[i]),
                                                        true, 32, 128)));
        // Overlay: another method's logit curve joins, dashed.
        s.method = Method::RoPE;
        v.overlay = {Method::ALiBi, Method::Sinusoidal};
        const CurveData o = curve_job(s, v);
        QCOMPARE(
            std::count_if(o.series.begin(), o.series.end(), [](const CurveSeries& x) { return x.dashed; }),
            2);
    }

    void rotationAndSpectrumExplainOtherMethods()
    {
        Scenario s;
        s.method = Method::T5;
        const RotationData r = rotation_job(s, ViewSettings{});
        QVERIFY(r.theta.empty());
        QVERIFY(r.title.contains(QStringLiteral("RoPE")));
        const SpectrumData sp = spectrum_job(s, ViewSettings{});
        QVERIFY(sp.pair.empty());
        QVERIFY(sp.title.contains(QStringLiteral("RoPE")));
        s.method = Method::RoPE;
        const RotationData rr = rotation_job(s, ViewSettings{});
        QCOMPARE(rr.theta.size(), std::size_t{64});
        QCOMPARE(rr.shown_pairs, (std::vector<int>{0, 16, 32, 63}));
    }

    // ------------------------------------------------------------ view jobs
    // (the job tracker itself: test_job_tracker.cpp)

    void hiddenViewIsComputedOnlyOnceShown()
    {
        auto w = makeWindow(QStringLiteral("hidden"));
        w->setComputeHiddenViews(false);
        w->dock(ViewKind::Spectrum)->hide();
        QVERIFY(waitIdle(w->jobs()));
        const int spectrum = static_cast<int>(ViewKind::Spectrum);
        const quint64 before = w->jobs()->generation(spectrum);
        QSignalSpy delivered(w->jobs(), &JobTracker::resultDelivered);
        QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 5000.0));
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(!delivered.isEmpty()); // the visible views follow the change
        for (const QList<QVariant>& d : delivered)
            QVERIFY(d.front().toInt() != spectrum);
        QCOMPARE(w->jobs()->generation(spectrum), before);

        delivered.clear();
        w->setComputeHiddenViews(true); // enabled again: computed with the current scenario
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY(w->jobs()->generation(spectrum) > before);
        // Other hidden views may be delivered too, in any order; the spectrum's last delivery is current.
        QStringList order;
        quint64 last = 0;
        for (const QList<QVariant>& d : delivered) {
            order << QString::number(d.front().toInt());
            if (d.front().toInt() == spectrum)
                last = d.back().toULongLong();
        }
        QVERIFY2(last != 0, qPrintable(order.join(QLatin1Char(' '))));
        QCOMPARE(last, w->jobs()->generation(spectrum));
        QVERIFY2(w->spectrumView()->data().title.contains(QStringLiteral("θ 5000")),
                 qPrintable(w->spectrumView()->data().title));
    }

    // ------------------------------------------------------------ main window

    void sliderChangesHeatmapAndUndoRestoresIt()
    {
        auto w = makeWindow(QStringLiteral("slider"));
        QVERIFY(!w->heatmapView()->data().panels.isEmpty());
        const QImage before = renderToImage(*w->heatmapView());
        QVERIFY(distinctColors(before) > 8);

        QSlider* s = w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"))->slider();
        s->setFocus();
        QTest::keyClick(s, Qt::Key_PageDown); // a smaller base: faster rotations, a different picture
        QVERIFY(w->model()->scenario().params<RopeParams>().rope_theta < 10000.0);
        QVERIFY(waitIdle(w->jobs()));
        const QImage changed = renderToImage(*w->heatmapView());
        QVERIFY(changed != before);

        w->model()->undoStack()->undo();
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_theta, 10000.0);
        QVERIFY(waitIdle(w->jobs()));
        const QImage restored = renderToImage(*w->heatmapView());
        QVERIFY(restored == before);
        // Every view shows the restored scenario, not the one before the undo.
        QVERIFY2(w->curveView()->data().title.contains(QStringLiteral("θ 10000")),
                 qPrintable(w->curveView()->data().title));
    }

    void everyPresetLoadsAndRendersEveryView_data()
    {
        QTest::addColumn<QString>("id");
        for (const PresetInfo& p : list_presets())
            QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
    }
    void everyPresetLoadsAndRendersEveryView()
    {
        QFETCH(QString, id);
        if (!m_presetWindow)
            m_presetWindow = makeWindow(QStringLiteral("presets"));
        MainWindow* w = m_presetWindow.get();
        QSignalSpy failed(w->jobs(), &JobTracker::jobFailed);
        const int steps = w->model()->undoStack()->count();
        const int index = w->model()->undoStack()->index();
        QVERIFY2(w->loadPreset(id), qPrintable(w->statusMessage()));
        // One undo step (none when the scenario already was this preset).
        QVERIFY(w->model()->undoStack()->index() <= index + 1);
        QVERIFY(w->model()->undoStack()->count() <= steps + 1);
        QVERIFY(waitIdle(w->jobs()));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        const Figure* figures[] = {w->heatmapView(), w->curveView(), w->rotationView(), w->spectrumView()};
        for (const Figure* f : figures) {
            const QImage image = renderToImage(*f);
            QVERIFY2(distinctColors(image) > 4, qPrintable(f->figureTitle()));
        }
        if (w->model()->scenario().method == Method::RoPE) {
            QVERIFY(!w->rotationView()->data().theta.empty());
            QVERIFY(!w->spectrumView()->data().pair.empty());
        }
    }

    void configImportAppliesValues()
    {
        auto w = makeWindow(QStringLiteral("import"));
        // A Llama 3.1 style config (keys as in meta-llama/Llama-3.1-8B config.json).
        const QString path = m_dir.filePath(QStringLiteral("config.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                    "max_position_embeddings": 131072, "rope_theta": 500000.0, "sliding_window": null,
                    "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                     "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})");
        f.close();
        const int index = w->model()->undoStack()->index();
        QVERIFY2(w->openConfig(path), qPrintable(w->statusMessage()));
        const Scenario& s = w->model()->scenario();
        QCOMPARE(s.method, Method::RoPE);
        QCOMPARE(s.params<RopeParams>().rope_theta, 500000.0);
        QCOMPARE(s.params<RopeParams>().rope_type, RopeType::Llama3);
        QCOMPARE(s.params<RopeParams>().factor, 8.0);
        QCOMPARE(s.params<RopeParams>().head_dim, 128); // 4096 / 32
        QCOMPARE(s.params<RopeParams>().original_max_position_embeddings, std::int64_t{8192});
        QCOMPARE(w->model()->undoStack()->index(), index + 1);
        QVERIFY(w->importDock()->isVisible());
        QVERIFY(w->importReportText().contains(QStringLiteral("rope_theta")));
        // The panel shows the imported values.
        QCOMPARE(w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"))->value(), 500000.0);
        QVERIFY(w->parameterPanel()->isRowVisible(param(Method::RoPE, "low_freq_factor")));
        QVERIFY(waitIdle(w->jobs()));
        // One undo step takes all of it back.
        w->model()->undoStack()->undo();
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_theta, 10000.0);
        QCOMPARE(w->model()->scenario().params<RopeParams>().rope_type, RopeType::Default);

        // A broken file: a message, no state change.
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("{ not json");
        b.close();
        const int count = w->model()->undoStack()->count();
        QVERIFY(!w->openConfig(bad));
        QVERIFY(!w->statusMessage().isEmpty());
        QCOMPARE(w->model()->undoStack()->count(), count);
    }

    void keyPositionControlMovesTheRotationDiagram()
    {
        // The key position n is a control of its own: editing it re-runs the rotation job and the key's
        // angles become n * theta_i (mod 2 pi) as core's rope_angles computes them.
        auto w = makeWindow(QStringLiteral("keypos"));
        QVERIFY(waitIdle(w->jobs()));
        auto* controls = w->findChild<RotationControls*>();
        QVERIFY(controls);
        QCOMPARE(controls->keyPosition(), w->rotationView()->data().key_position);
        auto* spin = controls->findChild<QDoubleSpinBox*>(QStringLiteral("keyPosition"));
        QVERIFY(spin);
        QSignalSpy spy(controls, &RotationControls::keyPositionChanged);
        spin->setValue(9.0);
        QCOMPARE(spy.count(), 1);
        QVERIFY(waitIdle(w->jobs()));
        const RotationData& d = w->rotationView()->data();
        QCOMPARE(d.key_position, 9.0);
        // Pair 0 has theta_0 = 1 (default RoPE): its key angle is 9 mod 2 pi. Tolerance 1e-12 rad.
        QVERIFY(std::abs(d.angle_k[0] - std::fmod(9.0, 2.0 * std::numbers::pi)) < 1e-12);
        controls->setKeyPosition(3.0); // programmatic updates do not echo
        QCOMPARE(spy.count(), 1);
    }

    void invalidEditShowsStatusMessage()
    {
        auto w = makeWindow(QStringLiteral("invalid"));
        QVERIFY(!w->model()->setValue(param(Method::RoPE, "head_dim"), 7)); // head_dim must be even
        QVERIFY(w->statusMessage().contains(QStringLiteral("head_dim")));
        QCOMPARE(w->model()->scenario().params<RopeParams>().head_dim, 128);
    }

    // The status bar's hover readout describes the figure under the cursor; after any change of the
    // scenario that figure is gone, so the readout goes too (a logit read at base 10000 must not stay
    // beside the map at base 20000, nor a RoPE cell's beside an ALiBi map).
    void hoverReadoutClearsWhenTheScenarioChanges()
    {
        auto w = makeWindow(QStringLiteral("readout"));
        const QString readout = QStringLiteral("query position i = 12 · key position j = 40 · logit = 0.53");
        emit w->heatmapView()->hovered(readout);
        auto showing = [&] {
            for (QLabel* l : w->statusBar()->findChildren<QLabel*>())
                if (l->text() == readout)
                    return true;
            return false;
        };
        QVERIFY(showing());
        QVERIFY(w->model()->setValue(param(Method::RoPE, "rope_theta"), 20000.0));
        QVERIFY(!showing());
        emit w->heatmapView()->hovered(readout);
        QVERIFY(showing());
        QVERIFY(w->model()->setMethod(Method::ALiBi));
        QVERIFY(!showing());
    }

    void settingsRestoreAfterRestart()
    {
        const QString name = QStringLiteral("restart");
        {
            auto w = makeWindow(name);
            QVERIFY(w->model()->setMethod(Method::ALiBi));
            QVERIFY(w->model()->setValue(param(Method::ALiBi, "num_heads"), 12));
            w->dock(ViewKind::Spectrum)->hide();
            w->close(); // saves
        }
        {
            auto w = makeWindow(name);
            QCOMPARE(w->model()->scenario().method, Method::ALiBi);
            QCOMPARE(w->model()->scenario().params<AlibiParams>().num_heads, 12);
            QVERIFY(!w->dock(ViewKind::Spectrum)->isVisible());
            QCOMPARE(w->model()->undoStack()->count(), 0); // a restore is not an edit
            w->close();
        }
        Settings settings(settingsPath(QStringLiteral("recent")));
        for (int i = 0; i < 10; ++i)
            settings.addRecentFile(m_dir.filePath(QStringLiteral("c%1.json").arg(i)));
        settings.addRecentFile(m_dir.filePath(QStringLiteral("c5.json")));
        const QStringList recent = settings.recentFiles();
        QCOMPARE(recent.size(), Settings::kMaxRecentFiles);
        QVERIFY(recent.front().endsWith(QStringLiteral("c5.json")));
        QCOMPARE(recent.filter(QStringLiteral("c5.json")).size(), 1);
    }

    void scenarioJsonRoundTrip()
    {
        Scenario s;
        s.method = Method::CoPE;
        s.seq_len = 4096;
        s.params<RopeParams>().rope_type = RopeType::LongRope;
        s.params<RopeParams>().short_factor = {1.0, 1.5, 2.0};
        s.params<RopeParams>().long_factor = {4.0, 8.0, 16.0};
        s.params<RopeParams>().mscale = 0.707;
        s.params<T5Params>().bidirectional = false;
        s.params<CopeParams>().gate_scale = -2.5;
        s.content.kind = ContentKind::Random;
        s.content.seed = 123456789;
        {
            Settings settings(settingsPath(QStringLiteral("scenario-json")));
            settings.setLastScenario(s);
            settings.sync();
        }
        const auto back = Settings(settingsPath(QStringLiteral("scenario-json"))).lastScenario();
        QVERIFY(back);
        QVERIFY((s == *back));
    }

    // View > Dark Theme darkens the application and the figures, and the next start is dark too.
    void darkThemeDarkensTheFiguresAndIsRemembered()
    {
        {
            auto w = makeWindow(QStringLiteral("dark"));
            w->setDarkTheme(true);
            QVERIFY(waitIdle(w->jobs()));
            QVERIFY(palette_is_dark(QApplication::palette()));
            QVERIFY(palette_is_dark(w->heatmapView()->palette()));
            const QImage shown = w->heatmapView()->grab().toImage();
            QCOMPARE(shown.pixelColor(1, 1), figure_colors(true).background);
        }
        QApplication::setPalette(QApplication::style()->standardPalette());
        QVERIFY(!palette_is_dark(QApplication::palette()));
        auto again = makeWindow(QStringLiteral("dark"));
        QVERIFY(palette_is_dark(QApplication::palette()));
        again->setDarkTheme(false);
        QVERIFY(!palette_is_dark(QApplication::palette()));
    }

    void cleanupTestCase() { m_presetWindow.reset(); }

private:
    std::unique_ptr<MainWindow> m_presetWindow;
};

QTEST_MAIN(GuiTest)
#include "test_gui.moc"
