// SPDX-License-Identifier: GPL-3.0-or-later
// What a new user meets first: the window's proportions, the explorer on a small screen, typing into
// number boxes, Ctrl+Z from anywhere, scaling types that visibly scale, figures that say which θ they
// show, one number format, and dialogs and axes that do not crowd or jump.
#include "explorer/explorer_plot.h"
#include "explorer/explorer_window.h"
#include "export/export_dialog.h"
#include "gui_support.h"
#include "jobs/view_jobs.h"
#include "methods/deberta/deberta.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "views/heatmap_view.h"
#include "widgets/log_slider.h"
#include "widgets/parameter_panel.h"
#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

template <typename T> T job(ViewKind kind, const Scenario& s, ViewSettings v = {})
{
    return std::get<T>(run_view_job(kind, s, v, {}, {}));
}

int distinctColors(const QImage& image)
{
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

} // namespace

class UsabilityTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    // As a user opens it: only the visible views computed, and the tests go on while they compute.
    static constexpr WindowOptions kAsOpened{.computeHiddenViews = false, .waitForJobs = false};

private slots:
    void initTestCase() { QVERIFY(initGuiSuite(m_dir)); }

    // ------------------------------------------------------------ window proportions

    void wideWindowsWidenTheFigures_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1920x1080") << QSize(1920, 1080);
        QTest::newRow("2560x1440") << QSize(2560, 1440);
    }

    void wideWindowsWidenTheFigures()
    {
        QFETCH(QSize, size);
        // First start at 1280 px, then maximised: the width gained must go to the figures.
        auto w = showMainWindow(m_dir, QStringLiteral("wide%1").arg(size.width()), kAsOpened);
        QTest::qWait(50);
        w->resize(size);
        QTest::qWait(50);
        QCOMPARE(w->size(), size);
        int left = w->width(), right = 0;
        for (ViewKind k : kAllViewKinds) {
            const QDockWidget* d = w->dock(k);
            if (!d->isVisible() || d->widget()->visibleRegion().isEmpty())
                continue;
            left = std::min(left, d->geometry().left());
            right = std::max(right, d->geometry().right());
        }
        const double share = static_cast<double>(right - left) / w->width();
        QVERIFY2(share >= 0.65, qPrintable(QStringLiteral("views get %1 of the width").arg(share)));
        QVERIFY(w->parameterPanel()->width() <= MainWindow::kMaxPanelWidth);
    }

    void explorerFitsTheScreenAndRemembersItsGeometry()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        QRect chosen;
        {
            auto w = showMainWindow(m_dir, QStringLiteral("explorer"), kAsOpened);
            ExplorerWindow* e = w->openExplorer();
            // Within the screen, unless the window's own minimum is larger (the 800 x 600 offscreen screen).
            QVERIFY(e->width() <= std::max(available.width(), e->minimumSizeHint().width()));
            QVERIFY(e->height() <= std::max(available.height(), e->minimumSizeHint().height()));
            QVERIFY(e->height() < 900); // the old fixed height, taller than this screen
            chosen = QRect(available.topLeft() + QPoint(10, 20),
                           QSize(available.width() * 3 / 4, available.height() * 2 / 3));
            e->setGeometry(chosen);
            QTest::qWait(20);
            chosen = e->geometry();
            QVERIFY(w->close());
        }
        auto w = showMainWindow(m_dir, QStringLiteral("explorer"), kAsOpened);
        ExplorerWindow* e = w->openExplorer();
        QCOMPARE(e->size(), chosen.size());
    }

    void titleNamesTheApplicationOnce()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("title"), kAsOpened);
        QCOMPARE(w->windowTitle().count(QStringLiteral("PosAtlas")), 1);
        // Platforms that append the display name skip titles that already end with it.
        QVERIFY(w->windowTitle().endsWith(QStringLiteral("PosAtlas")));
    }

    // ------------------------------------------------------------ number boxes

    void typingAboveTheMaximumClampsVisibly()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("clamp"), kAsOpened);
        QVERIFY(w->model()->setMethod(Method::RoPE));
        LogSlider* slider = w->parameterPanel()->slider(param(Method::RoPE, "rope_theta"));
        QVERIFY(slider);
        QDoubleSpinBox* spin = slider->spinBox();
        const double max = spin->maximum();
        const QString typed = QString::number(static_cast<qint64>(max) * 10);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, typed);
        // Every digit was kept while typing (QDoubleSpinBox would have refused the last one).
        QCOMPARE(spin->cleanText(), typed);
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(w->model()->value(param(Method::RoPE, "rope_theta")), max);
        QTRY_VERIFY(w->statusMessage().contains(QStringLiteral("maximum")));
        QVERIFY(w->statusMessage().contains(spin->textFromValue(max)));
    }

    void numberBoxesUseOneFormatWhateverTheLocale()
    {
        const QLocale previous;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        LogSlider::Range r;
        r.min = 1;
        r.max = 1e7;
        r.integer = true;
        LogSlider s(r);
        s.setValue(2048);
        QCOMPARE(s.spinBox()->text(), QStringLiteral("2048"));
        LogSlider::Range real;
        real.max = 10;
        real.decimals = 2;
        LogSlider t(real);
        t.setValue(0.5);
        QCOMPARE(t.spinBox()->text(), QStringLiteral("0.50"));
        QLocale::setDefault(previous);
    }

    void undoWorksWhileANumberBoxHasFocus()
    {
        auto w = showMainWindow(m_dir, QStringLiteral("undo"), kAsOpened);
        QApplication::setActiveWindow(w.get());
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        LogSlider* slider = w->parameterPanel()->slider(param("seq_len"));
        QVERIFY(slider);
        const double before = w->model()->value(param("seq_len"));
        QVERIFY(w->model()->setValue(param("seq_len"), 333));
        slider->spinBox()->setFocus();
        QCOMPARE(QApplication::focusWidget(), slider->spinBox());
        QTest::keyClick(slider->spinBox(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w->model()->value(param("seq_len")), before);
        QTest::keyClick(slider->spinBox(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w->model()->value(param("seq_len")), 333.0);
    }

    // ------------------------------------------------------------ scaling that shows

    void choosingAScalingTypeGivesItAFactor()
    {
        ScenarioModel model;
        QVERIFY(model.setMethod(Method::RoPE));
        QCOMPARE(model.scenario().params<RopeParams>().factor, 1.0);
        const int steps = model.undoStack()->count();
        QVERIFY(model.setValue(param(Method::RoPE, "rope_type"), static_cast<int>(RopeType::Linear)));
        QCOMPARE(model.scenario().params<RopeParams>().factor, kDefaultScalingFactor);
        QCOMPARE(model.undoStack()->count(), steps + 1); // one step for both
        model.undoStack()->undo();
        QCOMPARE(model.scenario().params<RopeParams>().rope_type, RopeType::Default);
        QCOMPARE(model.scenario().params<RopeParams>().factor, 1.0);
        // A factor the user chose is kept.
        QVERIFY(model.setValue(param(Method::RoPE, "factor"), 2.0));
        QVERIFY(model.setValue(param(Method::RoPE, "rope_type"), static_cast<int>(RopeType::Ntk)));
        QCOMPARE(model.scenario().params<RopeParams>().factor, 2.0);
    }

    void anIdentityScalingSaysSo()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.params<RopeParams>().rope_type = RopeType::Linear;
        s.params<RopeParams>().factor = 1.0;
        QVERIFY(job<SpectrumData>(ViewKind::Spectrum, s).note.contains(QStringLiteral("identity")));
        QVERIFY(job<CurveData>(ViewKind::Curves, s).note.contains(QStringLiteral("identity")));
        s.params<RopeParams>().factor = 4.0;
        QVERIFY(!job<SpectrumData>(ViewKind::Spectrum, s).note.contains(QStringLiteral("identity")));
    }

    void dynamicNtkViewsShowTheSameThetaAndSayForWhichLength()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.params<RopeParams>().rope_type = RopeType::Dynamic;
        s.params<RopeParams>().factor = 4.0;
        s.params<RopeParams>().max_position_embeddings = 4096;
        const auto rotation = job<RotationData>(ViewKind::Rotation, s);
        const auto spectrum = job<SpectrumData>(ViewKind::Spectrum, s);
        QCOMPARE(rotation.theta.size(), spectrum.theta_scaled.size());
        for (std::size_t i = 0; i < rotation.theta.size(); ++i)
            QVERIFY(std::abs(rotation.theta[i] - spectrum.theta_scaled[i]) <=
                    1e-12 * spectrum.theta_scaled[i]);
        QVERIFY(rotation.theta.back() < spectrum.theta_original.back()); // scaled, not the unscaled θ
        const QString length = QString::number(static_cast<qint64>(spectrum.target_length));
        QVERIFY2(rotation.title.contains(length), qPrintable(rotation.title));
        QVERIFY2(spectrum.note.contains(length), qPrintable(spectrum.note));
    }

    void debertaCurveShowsTheClampedRow()
    {
        Scenario s;
        s.method = Method::DeBERTa;
        s.params<DebertaParams>().position_buckets = 256;
        s.params<DebertaParams>().max_relative_positions = 512;
        ViewSettings v;
        v.max_distance = 4000;
        v.log_x = false;
        const auto curves = job<CurveData>(ViewKind::Curves, s, v);
        QVERIFY(curves.series.size() >= 2);
        const std::int64_t span = deberta_att_span(s.params<DebertaParams>());
        const auto& used = curves.series[0];
        const auto& raw = curves.series[1];
        QVERIFY(raw.dashed);
        QCOMPARE(*std::max_element(used.y.begin(), used.y.end()), static_cast<double>(span - 1));
        QVERIFY(*std::max_element(raw.y.begin(), raw.y.end()) > static_cast<double>(span - 1));
        for (std::size_t i = 0; i < used.x.size(); ++i)
            QCOMPARE(used.y[i],
                     static_cast<double>(deberta_c2p_index(s.params<DebertaParams>(),
                                                           static_cast<std::int64_t>(used.x[i]), 0) -
                                         span));
    }

    void alibiHeadsEachGetAColourScale()
    {
        Scenario s;
        s.method = Method::ALiBi;
        s.params<AlibiParams>().num_heads = 8;
        s.seq_len = 64;
        ViewSettings v;
        v.small_multiples = true;
        v.pixel_width = v.pixel_height = 64;
        HeatmapView view;
        view.setData(job<HeatmapData>(ViewKind::Heatmap, s, v));
        const int n = static_cast<int>(view.data().panels.size());
        QVERIFY(n >= 4);
        // The slowest head (smallest slope, last panel) uses the whole colour table on its own scale ...
        QVERIFY(view.perPanelScales());
        const int own = distinctColors(view.panelImage(n - 1));
        QVERIFY2(own >= 15, qPrintable(QString::number(own))); // one per distance shown
        QVERIFY(view.note().contains(QStringLiteral("per panel")));
        // ... and only a corner of it on the shared one, which is still a choice.
        view.setPerPanelScales(false);
        QCOMPARE(view.panelRange(n - 1).lo, view.colorRange().lo);
        const int shared = distinctColors(view.panelImage(n - 1));
        QVERIFY2(shared * 2 <= own, qPrintable(QStringLiteral("%1 vs %2").arg(shared).arg(own)));
    }

    void colourChoicesTravelWithTheViewSettings()
    {
        // Through the settings (and so sessions, exports and the command line), not only the widget.
        ViewSettings v;
        v.per_panel_scales = false;
        v.subtract_mean = true;
        Session session;
        session.settings = v;
        const Session back = session_from_json(session_to_json(session));
        QCOMPARE(back.settings.per_panel_scales, false);
        QCOMPARE(back.settings.subtract_mean, true);
        Scenario s;
        s.method = Method::ALiBi;
        s.seq_len = 32;
        HeatmapView view;
        view.setData(job<HeatmapData>(ViewKind::Heatmap, s, v));
        QVERIFY(!view.perPanelScales());
        QVERIFY(view.subtractMean());
        // The window's View menu changes them in the settings its views are computed with.
        auto w = showMainWindow(m_dir, QStringLiteral("colourchoices"), kAsOpened);
        auto* shared = w->findChild<QAction*>(QStringLiteral("perPanelScalesAction"));
        auto* centre = w->findChild<QAction*>(QStringLiteral("subtractMeanAction"));
        QVERIFY(shared && centre);
        shared->trigger();
        centre->trigger();
        QVERIFY(!w->viewSettings().per_panel_scales);
        QVERIFY(w->viewSettings().subtract_mean);
    }

    void aTinySpreadIsFlaggedAndItsMeanCanBeSubtracted()
    {
        HeatmapData data;
        HeatmapPanel panel;
        panel.matrix.values = Eigen::MatrixXd::Constant(16, 16, 4.619);
        for (int i = 0; i < 16; ++i)
            panel.matrix.values(i, i) = 4.626;
        panel.matrix.values(0, 15) = 4.612;
        panel.matrix.min = 4.612;
        panel.matrix.max = 4.626;
        for (int i = 0; i < 16; ++i) {
            panel.matrix.row_index.push_back(i);
            panel.matrix.col_index.push_back(i);
        }
        data.panels.push_back(panel);
        HeatmapView view;
        view.setData(data);
        QVERIFY(view.spreadIsTiny());
        QVERIFY2(view.note().contains(QStringLiteral("spread")), qPrintable(view.note()));
        view.setSubtractMean(true);
        QVERIFY(view.colorRange().lo < 0 && view.colorRange().hi > 0);
        QVERIFY(view.note().contains(QStringLiteral("subtracted")));
        // A matrix with a healthy spread gets no note.
        Eigen::Map<Eigen::VectorXd>(data.panels[0].matrix.values.data(), 256).setLinSpaced(256, 0.0, 1.0);
        data.panels[0].matrix.min = 0.0;
        data.panels[0].matrix.max = 1.0;
        view.setSubtractMean(false);
        view.setData(data);
        QVERIFY(!view.spreadIsTiny());
        QVERIFY(view.note().isEmpty());
    }

    void figureNumbersUseCompactExponents()
    {
        Scenario s;
        s.method = Method::RoPE;
        s.params<RopeParams>().rope_theta = 1e6;
        const auto spectrum = job<SpectrumData>(ViewKind::Spectrum, s);
        QVERIFY2(!spectrum.title.contains(QStringLiteral("e+")), qPrintable(spectrum.title));
    }

    // ------------------------------------------------------------ axes and dialogs

    void plotAxesCarryAtMostADozenTicks_data()
    {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<bool>("log");
        QTest::newRow("temperature, tall plot") << 1.0 << 1.4 << false;
        QTest::newRow("lengths, log") << 1.0 << 1e7 << true;
        QTest::newRow("short log range") << 300.0 << 9000.0 << true;
    }

    void plotAxesCarryAtMostADozenTicks()
    {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(bool, log);
        const auto ticks = plot_axis_ticks(lo, hi, log, 40); // what a 900 px tall plot would ask for
        QVERIFY(ticks.size() >= 2);
        QVERIFY2(static_cast<int>(ticks.size()) <= kMaxPlotTicks + 2,
                 qPrintable(QString::number(ticks.size())));
    }

    void exportDialogDoesNotMoveWhenViewsAreTicked()
    {
        ExportDialog dialog(ViewKind::Heatmap, QStringLiteral("caption"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* buttons = dialog.findChild<QDialogButtonBox*>();
        QVERIFY(buttons);
        const QRect before = buttons->geometry();
        const QSize size = dialog.size();
        for (ViewKind k : kAllViewKinds)
            dialog.viewCheck(k)->setChecked(true);
        QTest::qWait(20);
        QCOMPARE(buttons->geometry(), before);
        QCOMPARE(dialog.size(), size);
    }
};

QTEST_MAIN(UsabilityTest)
#include "test_usability.moc"
