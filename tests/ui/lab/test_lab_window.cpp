// SPDX-License-Identifier: GPL-3.0-or-later
// QtTest for the Lab window (Tools > Lab…): it builds in English and Chinese; invalid input (lengths not
// increasing, no encoding, a folder that is not a sweep, a training beyond the memory budget) is refused
// with a message naming the field and what it allows, nothing started; a tiny sweep runs end to end
// through posatlas-lab child processes and its curves are the runs' own evaluation (sweep.json, and
// `posatlas-lab eval` run again on each run folder: the same numbers bit for bit, the test sequences being
// seeded); Cancel stops the child with SIGINT and the window is ready again; without posatlas-lab (or with
// a lab that fails) Run is disabled or the failure is reported, never a crash.
#include "lab/lab.h"
#include "lab/lab_sweep.h"
#include "lab/lab_window.h"
#include "views/curve_chart.h"
#include "window/language.h"
#include "window/main_window.h"

#include "gui_support.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <utility>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

#ifdef POSATLAS_LAB_EXE
const QString kLab = QStringLiteral(POSATLAS_LAB_EXE);
#else
const QString kLab;
#endif

QString slurp(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// A tiny sweep: the tiny model, `methods` only, train length 8, `steps` steps, one seed, lengths 8 and 16.
void setTiny(LabWindow& w, const QStringList& methods, int steps, const QString& folder)
{
    for (const std::string& m : lab::lab_methods())
        w.methodBox(QString::fromStdString(m))->setChecked(methods.contains(QString::fromStdString(m)));
    w.modelCombo()->setCurrentIndex(1);
    w.trainLenSpin()->setValue(8);
    w.stepsSpin()->setValue(steps);
    w.seedsSpin()->setValue(1);
    w.lengthsEdit()->setText(QStringLiteral("8,16"));
    w.folderEdit()->setText(folder);
}

// The window as it is on screen, saved where POSATLAS_LAB_WINDOW_PNG_DIR says (for a person to look at).
void keepScreenshot(LabWindow& w, const QString& name)
{
    const QString dir = qEnvironmentVariable("POSATLAS_LAB_WINDOW_PNG_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    QTest::qWait(200); // the chart lays out its new axes and labels in the event loop
    QVERIFY(w.grab().save(dir + u'/' + name));
}

} // namespace

class LabWindowTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(test::initGuiSuite(m_dir, test::UserSettings::InFolder)); }
    void cleanup() { installLanguage(QStringLiteral("en")); }

    void buildsInEnglishAndChinese()
    {
        QVERIFY(installLanguage(QStringLiteral("en")));
        LabWindow en;
        QCOMPARE(en.windowTitle(), QStringLiteral("Lab: train and measure positional encodings"));
        QCOMPARE(en.runButton()->text(), QStringLiteral("R&un"));
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        LabWindow zh;
        QVERIFY(zh.windowTitle() != en.windowTitle());
        QVERIFY(zh.runButton()->text() != en.runButton()->text());
        QVERIFY(zh.runButton()->text().contains(QStringLiteral("(&U)")));
        QVERIFY(zh.figure().figureTitle() != en.figure().figureTitle());
        for (QAction* a : zh.menuBar()->actions())
            QVERIFY2(!a->text().contains(QStringLiteral("File")), qPrintable(a->text()));
    }

    // The lm task is offered in both languages; an lm sweep's figure shows held-out perplexity, exp of
    // each run's mean loss (here ln 20 and ln 40: 20 and 40 within 1e-12 relative), the others accuracy.
    void offersTheLanguageModelTaskAndItsFigureShowsPerplexity()
    {
        LabWindow en;
        const int lm = en.taskCombo()->findData(QStringLiteral("lm"));
        QVERIFY(lm >= 0);
        QVERIFY2(en.taskCombo()->itemText(lm).contains(QStringLiteral("perplexity")),
                 qPrintable(en.taskCombo()->itemText(lm)));
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        LabWindow zh;
        QVERIFY(zh.taskCombo()->itemText(lm) != en.taskCombo()->itemText(lm));
        QVERIFY(installLanguage(QStringLiteral("en")));

        lab::SweepTable t;
        t.task = "lm";
        t.train_len = 8;
        t.methods = {"rope"};
        t.lengths = {8, 16};
        t.rows = {{"rope", 0, 8, true, 0.3, std::log(20.0)}, {"rope", 0, 16, true, 0.2, std::log(40.0)}};
        const CurveData d = lab_sweep_curves(t);
        QCOMPARE(d.y_label, QStringLiteral("perplexity"));
        QCOMPARE(d.y_column, QStringLiteral("perplexity"));
        QCOMPARE(d.series.size(), 1);
        QVERIFY(d.series[0].y.size() == 2);
        QVERIFY(std::fabs(d.series[0].y[0] / 20.0 - 1) < 1e-12);
        QVERIFY(std::fabs(d.series[0].y[1] / 40.0 - 1) < 1e-12);
        QVERIFY(!d.fixed_ranges); // perplexity: fitted to the data
        t.task = "copy";
        const CurveData accuracy = lab_sweep_curves(t);
        QCOMPARE(accuracy.series[0].y[0], 0.3);
        // Accuracy on its whole scale, over the lengths measured.
        QVERIFY(accuracy.fixed_ranges);
        QCOMPARE(*accuracy.fixed_ranges, (CurveRanges{8.0, 16.0, 0.0, 1.0}));
    }

    void refusesInvalidInputNamingTheField()
    {
        LabWindow w;
        w.setLabExecutable(kLab.isEmpty() ? QStringLiteral("/bin/true") : kLab);
        const QString folder = m_dir.filePath(QStringLiteral("refused"));
        setTiny(w, {QStringLiteral("rope")}, 20, folder);

        w.lengthsEdit()->setText(QStringLiteral("16,8"));
        QVERIFY(!w.run());
        QVERIFY2(w.statusText().contains(QStringLiteral("Evaluation lengths must be increasing integers in "
                                                        "[4, 1048576] (got 16,8)")),
                 qPrintable(w.statusText()));
        w.lengthsEdit()->setText(QStringLiteral("8,sixteen"));
        QVERIFY(!w.run());
        QVERIFY(w.statusText().contains(QStringLiteral("Evaluation lengths")));
        w.lengthsEdit()->setText(QStringLiteral("8,16"));

        w.methodBox(QStringLiteral("rope"))->setChecked(false);
        QVERIFY(!w.run());
        QVERIFY2(
            w.statusText().startsWith(QStringLiteral("Encodings must be a comma-separated list of distinct "
                                                     "nope|sinusoidal|learned|t5|alibi|rope|xpos|cope")),
            qPrintable(w.statusText()));
        w.methodBox(QStringLiteral("rope"))->setChecked(true);

        // A training beyond the memory budget: the lab's own check names the train length and its limit.
        w.modelCombo()->setCurrentIndex(0);
        w.trainLenSpin()->setValue(65536);
        QVERIFY(!w.run());
        QVERIFY2(w.statusText().startsWith(QStringLiteral("Train length must be at most")),
                 qPrintable(w.statusText()));
        w.modelCombo()->setCurrentIndex(1);
        w.trainLenSpin()->setValue(8);
        w.folderEdit()->setText(folder);

        const QString other = m_dir.filePath(QStringLiteral("not-a-sweep"));
        QVERIFY(QDir().mkpath(other));
        QFile notes(other + QStringLiteral("/notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.close();
        w.folderEdit()->setText(other);
        QVERIFY(!w.run());
        QVERIFY2(
            w.statusText().contains(QStringLiteral("Output folder must be a new folder, an empty folder or "
                                                   "a sweep's folder")),
            qPrintable(w.statusText()));
        QVERIFY(!QFileInfo::exists(other + QStringLiteral("/rope")));

        // The same refusal in Chinese.
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        LabWindow zh;
        zh.setLabExecutable(w.labExecutable());
        setTiny(zh, {QStringLiteral("rope")}, 20, folder);
        zh.lengthsEdit()->setText(QStringLiteral("16,8"));
        QVERIFY(!zh.run());
        QVERIFY2(zh.statusText().contains(QStringLiteral("[4, 1048576]")) &&
                     !zh.statusText().contains(QStringLiteral("Evaluation lengths")),
                 qPrintable(zh.statusText()));
        QVERIFY(!w.isRunning() && !zh.isRunning());
        QVERIFY(!QFileInfo::exists(folder));
    }

    void tinySweepFillsTheCurvesWithTheRunsOwnEvaluation()
    {
        if (kLab.isEmpty())
            QSKIP("built without the lab (POSATLAS_LAB=OFF)");
        const QString folder = m_dir.filePath(QStringLiteral("sweep"));
        LabWindow w;
        w.setLabExecutable(kLab);
        w.resize(1200, 760);
        w.show();
        setTiny(w, {QStringLiteral("nope"), QStringLiteral("rope")}, 20, folder);
        int tableChanges = 0;
        connect(w.runner(), &LabSweepRunner::tableChanged, this, [&] { ++tableChanges; });
        QVERIFY(w.run());
        QVERIFY(w.isRunning());
        QVERIFY(!w.runButton()->isEnabled());
        QVERIFY(w.cancelButton()->isEnabled());
        QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 300000));
        QVERIFY2(w.statusText().startsWith(QStringLiteral("Wrote sweep.csv and sweep.json")),
                 qPrintable(w.statusText()));
        QVERIFY(w.runButton()->isEnabled());
        QCOMPARE(tableChanges, 3); // cleared at the start, then once per run's evaluation
        keepScreenshot(w, QStringLiteral("lab-window-en.png"));

        const QString jsonPath = folder + QStringLiteral("/sweep.json");
        const lab::SweepTable table =
            lab::read_sweep_json(slurp(jsonPath).toStdString(), jsonPath.toStdString());
        QCOMPARE(table.rows.size(), std::size_t{4}); // 2 methods x 1 seed x 2 lengths
        const CurveData& curves = w.chart()->curveData();
        QCOMPARE(curves.series.size(), 2);
        QCOMPARE(curves.markers.size(), 1);
        QCOMPARE(curves.markers[0].value, 8.0);
        for (const CurveSeries& s : curves.series) {
            QCOMPARE(s.x, (std::vector<double>{8.0, 16.0}));
            // The run folder evaluated again by posatlas-lab itself (the same seeded test sequences).
            QProcess eval;
            eval.start(kLab, {QStringLiteral("eval"), folder + u'/' + s.id + QStringLiteral("/seed-0"),
                              QStringLiteral("--lengths"), QStringLiteral("8,16"), QStringLiteral("--format"),
                              QStringLiteral("json"), QStringLiteral("--quiet")});
            QVERIFY(eval.waitForFinished(120000));
            QCOMPARE(eval.exitCode(), 0);
            const std::vector<lab::SweepRow> own =
                lab::sweep_rows_from_eval(s.id.toStdString(), 0, eval.readAllStandardOutput().toStdString());
            QCOMPARE(own.size(), std::size_t{2});
            for (std::size_t i = 0; i < 2; ++i) {
                // One seed: the mean is that seed's value, exactly (tolerance 0: the same doubles).
                QVERIFY(s.y[i] == own[i].accuracy);
                const auto row =
                    std::find_if(table.rows.begin(), table.rows.end(), [&](const lab::SweepRow& r) {
                        return r.method == s.id.toStdString() && r.length == own[i].length;
                    });
                QVERIFY(row != table.rows.end());
                QVERIFY(row->accuracy == own[i].accuracy);
            }
        }
        QVERIFY(w.exportFigure(m_dir.filePath(QStringLiteral("lab.svg"))));
        QVERIFY(slurp(m_dir.filePath(QStringLiteral("lab.svg"))).contains(QStringLiteral("<polyline")));
        QVERIFY(w.exportTable(m_dir.filePath(QStringLiteral("lab.csv"))));
        QCOMPARE(slurp(m_dir.filePath(QStringLiteral("lab.csv"))),
                 slurp(folder + QStringLiteral("/sweep.csv")));

        // In Chinese, the same folder: the complete runs are reused (only evaluated), the figure in Chinese.
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        LabWindow zh;
        zh.setLabExecutable(kLab);
        zh.resize(1200, 760);
        zh.show();
        setTiny(zh, {QStringLiteral("nope"), QStringLiteral("rope")}, 20, folder);
        const QString weights = folder + QStringLiteral("/rope/seed-0/model.safetensors");
        const QDateTime written = QFileInfo(weights).lastModified();
        QVERIFY(zh.run());
        QVERIFY(QTest::qWaitFor([&] { return !zh.isRunning(); }, 300000));
        QCOMPARE(QFileInfo(weights).lastModified(), written);
        QCOMPARE(zh.chart()->curveData().series.size(), 2);
        QVERIFY(zh.chart()->curveData().series[1].y == curves.series[1].y); // exactly: the same runs
        keepScreenshot(zh, QStringLiteral("lab-window-zh_CN.png"));
    }

    // Two seeds: each encoding's mean line with the lowest and highest seed dashed in its colour, and the
    // mean between them (the figure of `posatlas lab sweep`).
    void twoSeedsShowTheirSpreadDashed()
    {
        if (kLab.isEmpty())
            QSKIP("built without the lab (POSATLAS_LAB=OFF)");
        LabWindow w;
        w.setLabExecutable(kLab);
        w.resize(1200, 760);
        w.show();
        setTiny(w, {QStringLiteral("nope"), QStringLiteral("alibi"), QStringLiteral("rope")}, 150,
                m_dir.filePath(QStringLiteral("spread")));
        w.seedsSpin()->setValue(2);
        w.lengthsEdit()->setText(QStringLiteral("8,16,32"));
        QVERIFY(w.run());
        QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 600000));
        QVERIFY2(w.statusText().startsWith(QStringLiteral("Wrote")), qPrintable(w.statusText()));
        const CurveData& d = w.chart()->curveData();
        QCOMPARE(d.series.size(), 9); // mean, lowest, highest for each of three encodings
        for (int m = 0; m < 3; ++m) {
            const CurveSeries& mean = d.series[3 * m];
            const CurveSeries& lo = d.series[3 * m + 1];
            const CurveSeries& hi = d.series[3 * m + 2];
            QVERIFY(!mean.dashed && lo.dashed && hi.dashed);
            QCOMPARE(lo.color_index, mean.color_index);
            QCOMPARE(mean.x.size(), std::size_t{3});
            for (std::size_t i = 0; i < mean.y.size(); ++i) {
                QVERIFY(lo.y[i] <= mean.y[i] && mean.y[i] <= hi.y[i]);
                // Two seeds: the mean is their midpoint (tolerance: one rounding of the sum and halving).
                QVERIFY(std::abs(mean.y[i] - (lo.y[i] + hi.y[i]) / 2) <= 1e-15);
            }
        }
        keepScreenshot(w, QStringLiteral("lab-window-spread-en.png"));
    }

    // A RoPE scaling at test time: the rope run is evaluated with it (as `posatlas-lab eval --rope-type yarn
    // --factor 2` evaluates it, the same numbers), the other encodings without; the legend names it.
    void ropeScalingIsAppliedToTheRopeRunsOnly()
    {
        if (kLab.isEmpty())
            QSKIP("built without the lab (POSATLAS_LAB=OFF)");
        const QString folder = m_dir.filePath(QStringLiteral("yarn"));
        LabWindow w;
        w.setLabExecutable(kLab);
        setTiny(w, {QStringLiteral("nope"), QStringLiteral("rope")}, 20, folder);
        w.ropeScalingCombo()->setCurrentIndex(w.ropeScalingCombo()->findData(QStringLiteral("yarn")));
        QVERIFY(w.factorSpin()->isEnabled());
        w.factorSpin()->setValue(2);
        QVERIFY(w.run());
        QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 300000));
        QVERIFY2(w.statusText().startsWith(QStringLiteral("Wrote")), qPrintable(w.statusText()));
        const CurveData& d = w.chart()->curveData();
        QCOMPARE(d.series.size(), 2);
        QCOMPARE(d.series[0].name, QStringLiteral("nope"));
        QCOMPARE(d.series[1].name, QStringLiteral("rope with yarn ×2"));
        for (const auto& [method, scaled] :
             {std::pair{QStringLiteral("nope"), false}, {QStringLiteral("rope"), true}}) {
            QStringList args{QStringLiteral("eval"),      folder + u'/' + method + QStringLiteral("/seed-0"),
                             QStringLiteral("--lengths"), QStringLiteral("8,16"),
                             QStringLiteral("--format"),  QStringLiteral("json"),
                             QStringLiteral("--quiet")};
            if (scaled)
                args << QStringLiteral("--rope-type") << QStringLiteral("yarn") << QStringLiteral("--factor")
                     << QStringLiteral("2");
            QProcess eval;
            eval.start(kLab, args);
            QVERIFY(eval.waitForFinished(120000));
            QCOMPARE(eval.exitCode(), 0);
            const std::vector<lab::SweepRow> own = lab::sweep_rows_from_eval(
                method.toStdString(), 0, eval.readAllStandardOutput().toStdString());
            const CurveSeries& s = d.series[scaled ? 1 : 0];
            QCOMPARE(s.y.size(), own.size());
            for (std::size_t i = 0; i < own.size(); ++i)
                QVERIFY(s.y[i] == own[i].accuracy); // tolerance 0: the same seeded test sequences
            // The loss too (it tells the scaled evaluation from the unscaled one where the accuracies tie).
            const std::string json = slurp(folder + QStringLiteral("/sweep.json")).toStdString();
            for (const lab::SweepRow& r : lab::read_sweep_json(json, "sweep.json").rows) {
                for (const lab::SweepRow& o : own) {
                    if (r.method == method.toStdString() && r.length == o.length) {
                        QVERIFY(r.loss == o.loss);
                    }
                }
            }
        }
        const std::string json = slurp(folder + QStringLiteral("/sweep.json")).toStdString();
        const lab::SweepTable t = lab::read_sweep_json(json, "sweep.json");
        QCOMPARE(t.rope_type, std::string("yarn"));
        QCOMPARE(t.factor, 2.0);
    }

    void cancelStopsTheChildAndTheWindowIsReadyAgain()
    {
        if (kLab.isEmpty())
            QSKIP("built without the lab (POSATLAS_LAB=OFF)");
        const QString folder = m_dir.filePath(QStringLiteral("cancelled"));
        LabWindow w;
        w.setLabExecutable(kLab);
        setTiny(w, {QStringLiteral("rope")}, 1000000, folder);
        int progress = 0;
        connect(w.runner(), &LabSweepRunner::trainingProgress, this, [&] { ++progress; });
        QVERIFY(w.run());
        QVERIFY(QTest::qWaitFor([&] { return progress > 0; }, 120000)); // training: a first logged step
        QVERIFY2(w.progressText().contains(QStringLiteral("Run 1 of 1: rope, seed 0 · step")),
                 qPrintable(w.progressText()));
        const qint64 pid = w.runner()->childPid();
        QVERIFY(pid > 0);
        w.resize(1200, 760);
        w.show();
        keepScreenshot(w, QStringLiteral("lab-window-running-en.png"));
        w.cancelButton()->click();
        QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 60000));
        QVERIFY(::kill(static_cast<pid_t>(pid), 0) != 0); // the child has ended (and was reaped)
        QVERIFY2(w.statusText().contains(QStringLiteral("keeps its last checkpoint")),
                 qPrintable(w.statusText()));
        QCOMPARE(lab::read_run_config((folder + QStringLiteral("/rope/seed-0")).toStdString()).status,
                 std::string("cancelled"));
        QVERIFY(w.runButton()->isEnabled());
        QVERIFY(!w.cancelButton()->isEnabled());
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/sweep.json")));
    }

    void toolsMenuOpensOneLabWindow()
    {
        QTemporaryDir dir;
        MainWindow mw(dir.filePath(QStringLiteral("settings.ini")));
        QAction* action = mw.findChild<QAction*>(QStringLiteral("labAction"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("&Lab…"));
        action->trigger();
        LabWindow* lab = mw.findChild<LabWindow*>();
        QVERIFY(lab);
        QVERIFY(lab->isVisible());
        QCOMPARE(mw.openLab(), lab); // one instance
    }

    // posatlas-lab has no translations of its own: the window hands it its texts in the window's language
    // (lab/lab_messages.h), as `posatlas lab` does. A stand-in lab prints what it was given and fails.
    void labTextsAreHandedOverInTheWindowsLanguage()
    {
        const QString fake = m_dir.filePath(QStringLiteral("fake-lab"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nprintf '%s\\n' \"$POSATLAS_LAB_MESSAGES\" >&2\nexit 3\n");
        script.close();
        QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        const QString loss = QCoreApplication::translate("Cli", "loss");
        QVERIFY(loss != QStringLiteral("loss"));
        LabWindow w;
        w.setLabExecutable(fake);
        setTiny(w, {QStringLiteral("rope")}, 20, m_dir.filePath(QStringLiteral("handed-over")));
        QVERIFY(w.run());
        QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 30000));
        QVERIFY2(w.statusText().contains(QStringLiteral("posatlas-lab")) && w.statusText().contains(loss),
                 qPrintable(w.statusText()));
        QVERIFY(w.runButton()->isEnabled());
    }

    void withoutTheLabRunIsDisabledAndNothingCrashes()
    {
        LabWindow w;
        w.setLabExecutable(QString());
        QVERIFY(!w.labInstalled());
        QVERIFY(!w.runButton()->isEnabled());
        QVERIFY(w.installedLabel()->isVisibleTo(&w));
        QVERIFY(w.installedLabel()->text().contains(QStringLiteral("not installed")));
        w.resize(1200, 760);
        w.show();
        keepScreenshot(w, QStringLiteral("lab-window-not-installed.png"));
        QVERIFY(!w.run());
        w.cancel();
        w.setLabExecutable(m_dir.filePath(QStringLiteral("no-such/posatlas-lab")));
        QVERIFY(!w.labInstalled());
        QVERIFY(!w.run());

        // A lab process that fails at once: reported, the window ready again.
        w.setLabExecutable(QStringLiteral("/bin/false"));
        QVERIFY(w.runButton()->isEnabled());
        setTiny(w, {QStringLiteral("rope")}, 20, m_dir.filePath(QStringLiteral("failing")));
        QVERIFY(w.run());
        QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 30000));
        QVERIFY2(w.statusText().startsWith(QStringLiteral("posatlas-lab stopped with status 1")),
                 qPrintable(w.statusText()));
        QVERIFY(w.runButton()->isEnabled());
    }
};

QTEST_MAIN(LabWindowTest)
#include "test_lab_window.moc"
