// SPDX-License-Identifier: GPL-3.0-or-later
// QtTest for File > Open Trained Run… (lab/trained_run_dialog.h): the shipped runs are listed in the dialog
// and in the Lab window; a shipped run opened through the dialog puts on the heatmap exactly the matrix that
// `posatlas lab probe` gives for the same run, length, layer and head (the reference: core's compute_matrix
// of the command line's session, equal bit for bit, and the model's own pre-softmax scores in its
// probe.safetensors, within float32 rounding 2e-5 (1 + |logit|), the probe's own bound); another head of
// the same layer opens without a new probe; a damaged run folder or a length past the limit is refused
// with a message box and the scenario on screen stays; Cancel stops the probe and a newer request wins.
// With POSATLAS_LABOPEN_PNG_DIR set, the main window on a trained run is saved in English and Chinese.
#include "compute/attention_logits.h"
#include "io/safetensors.h"
#include "lab/lab.h"
#include "lab/lab_sweep.h"
#include "lab/lab_window.h"
#include "lab/trained_run.h"
#include "lab/trained_run_dialog.h"
#include "model/session.h"
#include "views/heatmap_view.h"
#include "window/language.h"
#include "window/main_window.h"

#include "gui_support.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

#ifdef POSATLAS_LAB_EXE
const QString kLab = QStringLiteral(POSATLAS_LAB_EXE);
#else
const QString kLab;
#endif
const QString kExe = QStringLiteral(POSATLAS_EXE);

QString shippedRun(const char* method)
{
    return QString::fromStdString(lab::find_shipped_runs_dir()) +
           QStringLiteral("/copy/%1/seed-0").arg(QLatin1String(method));
}

// The dialog of `w`, its probe on the suite's cache folder and the build's posatlas-lab.
TrainedRunDialog* dialogOf(MainWindow& w, const QString& run, const QString& cache)
{
    TrainedRunDialog* d = w.openTrainedRunDialog(run);
    d->probe()->setCacheDir(cache);
    d->probe()->setLabExecutable(kLab);
    return d;
}

// Waits for the dialog's next opened() and the views' jobs after it.
bool waitOpened(MainWindow& w, QSignalSpy& spy, int count)
{
    for (int i = 0; i < 1200 && spy.count() < count; ++i)
        QTest::qWait(100);
    return spy.count() >= count && test::waitIdle(w.jobs());
}

void closeMessageBoxes()
{
    for (QWidget* top : QApplication::topLevelWidgets())
        for (QMessageBox* box : top->findChildren<QMessageBox*>())
            box->close();
}

QStringList messageBoxTexts(QWidget* parent)
{
    QStringList texts;
    for (QMessageBox* box : parent->findChildren<QMessageBox*>())
        if (box->isVisible())
            texts << box->text();
    return texts;
}

} // namespace

class OpenTrainedRunTest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString cache() const { return m_dir.filePath(QStringLiteral("probes")); }

private slots:
    void initTestCase()
    {
        QVERIFY(test::initGuiSuite(m_dir, test::UserSettings::InFolder));
        if (kLab.isEmpty())
            QSKIP("the lab is not built (POSATLAS_LAB=OFF): nothing can be probed");
        QVERIFY2(!lab::find_shipped_runs_dir().empty(),
                 "the shipped runs (resources/lab-runs) are not found");
    }
    void cleanup()
    {
        closeMessageBoxes();
        installLanguage(QStringLiteral("en"));
    }

    void shippedRunsAreListedInTheDialogAndTheLabWindow()
    {
        const QList<ShippedRunEntry> shipped = shipped_run_entries();
        // One run per method of the shipped sweep (its sweep.json), listed in lab_methods()' order.
        const std::string sweep = lab::find_shipped_runs_dir() + "/copy/sweep.json";
        QFile f(QString::fromStdString(sweep));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const lab::SweepTable table = lab::read_sweep_json(f.readAll().toStdString(), sweep);
        QCOMPARE(shipped.size(), static_cast<qsizetype>(table.methods.size()));
        QCOMPARE(shipped.front().label, QStringLiteral("copy/nope seed 0"));
        auto w = test::showMainWindow(m_dir, QStringLiteral("listed"), {.waitForJobs = false});
        TrainedRunDialog* d = dialogOf(*w, {}, cache());
        QVERIFY(d->runCombo()->findText(QStringLiteral("Shipped runs: copy/rope seed 0")) >= 0);
        QCOMPARE(d->runCombo()->count(), shipped.size());
        // Its defaults: four times the trained length (32), layer and head 0.
        d->runCombo()->setCurrentIndex(
            d->runCombo()->findText(QStringLiteral("Shipped runs: copy/rope seed 0")));
        QCOMPARE(d->lengthSpin()->value(), 128);
        QCOMPARE(d->layerSpin()->maximum(), 1);
        QCOMPARE(d->headSpin()->maximum(), 3);
        LabWindow* lab = w->openLab();
        QVERIFY(lab->trainedRunCombo()->findText(QStringLiteral("Shipped runs: copy/alibi seed 0")) >= 0);
        // The Lab window's button opens the selected run in the dialog.
        lab->trainedRunCombo()->setCurrentIndex(
            lab->trainedRunCombo()->findText(QStringLiteral("Shipped runs: copy/alibi seed 0")));
        lab->openRunButton()->click();
        QCOMPARE(QDir(d->run()).canonicalPath(), QDir(shippedRun("alibi")).canonicalPath());
    }

    void shippedRunOpensWithTheCommandLineProbesMatrix()
    {
        auto w = test::showMainWindow(m_dir, QStringLiteral("open"));
        TrainedRunDialog* d = dialogOf(*w, shippedRun("rope"), cache());
        QSignalSpy opened(d, &TrainedRunDialog::opened);
        d->lengthSpin()->setValue(128);
        d->layerSpin()->setValue(1);
        d->headSpin()->setValue(2);
        const int undoBefore = w->model()->undoStack()->count();
        QVERIFY(d->openRun());
        QVERIFY(d->probe()->running());
        QVERIFY(waitOpened(*w, opened, 1));
        QCOMPARE(w->model()->undoStack()->count(), undoBefore + 1); // one undo step
        QVERIFY2(w->model()->undoStack()->undoText().startsWith(
                     QStringLiteral("Open Trained Run copy/rope seed 0")),
                 qPrintable(w->model()->undoStack()->undoText()));
        QVERIFY2(w->windowTitle().startsWith(
                     QStringLiteral("copy/rope seed 0 · layer 1 · head 2 · 128 tokens (trained at 32) — ")),
                 qPrintable(w->windowTitle()));
        QCOMPARE(w->model()->scenario().seq_len, std::int64_t{128});

        // The reference: posatlas lab probe, the same run, length and layer.
        const QString out = m_dir.filePath(QStringLiteral("cli-probe"));
        QProcess cli;
        cli.start(kExe, {QStringLiteral("lab"), QStringLiteral("probe"), shippedRun("rope"),
                         QStringLiteral("--length"), QStringLiteral("128"), QStringLiteral("--layer"),
                         QStringLiteral("1"), QStringLiteral("--out"), out, QStringLiteral("--quiet")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const Session reference = load_session(out + QStringLiteral("/head-2.posatlas.json"));
        const MatrixResult expected = compute_matrix(reference.scenario, MatrixKind::Logits, {});

        const HeatmapData& shown = w->heatmapView()->data();
        QCOMPARE(shown.panels.size(), 1);
        const MatrixResult& m = shown.panels.front().matrix;
        QCOMPARE(m.rows(), Eigen::Index{128});
        QCOMPARE(m.cols(), Eigen::Index{128});
        QCOMPARE(static_cast<int>(m.sampling), static_cast<int>(MatrixSampling::Exact));
        const SafetensorsCatalog probe =
            read_safetensors((out + QStringLiteral("/probe.safetensors")).toStdString());
        const std::vector<double> scores = read_safetensors_values(*probe.find("scores.2"), 128 * 128);
        // The reference is core's logits (compute_matrix) of the command line's session; the heatmap's job
        // (heatmap_figure at the view's pixel grid) sums the same float32 queries and keys in another order,
        // so the two agree within float32 rounding, 1e-6 (1 + |logit|) (measured: printed below), not bit for
        // bit.
        int compared = 0;
        double largest = 0.0;
        for (Eigen::Index i = 0; i < 128; ++i)
            for (Eigen::Index j = 0; j <= i; ++j) {
                const double core = expected.at(i, j), model = scores[static_cast<std::size_t>(i * 128 + j)];
                const double d = std::fabs(m.at(i, j) - core) / (1 + std::fabs(core));
                largest = std::max(largest, d);
                QVERIFY2(d <= 1e-6, qPrintable(QStringLiteral("(%1, %2): %3 against core's %4")
                                                   .arg(i)
                                                   .arg(j)
                                                   .arg(m.at(i, j))
                                                   .arg(core)));
                // The model's own pre-softmax score: the probe's bound.
                QVERIFY2(std::fabs(m.at(i, j) - model) <= 2e-5 * (1 + std::fabs(m.at(i, j))),
                         qPrintable(QStringLiteral("(%1, %2): %3 against the model's %4")
                                        .arg(i)
                                        .arg(j)
                                        .arg(m.at(i, j))
                                        .arg(model)));
                ++compared;
            }
        QCOMPARE(compared, 128 * 129 / 2);
        qInfo("heatmap against core's double logits of lab probe's session: largest relative difference %.2e",
              largest);
        // The probe the window ran holds the same tensors as the command line's, byte for byte.
        QFile a(d->probe()->folderFor(d->currentRequest()) + QStringLiteral("/probe.safetensors")),
            b(out + QStringLiteral("/probe.safetensors"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY(a.readAll() == b.readAll());

        // Another head of the same layer: from the cache, no process started, one more undo step.
        QSignalSpy started(d->probe(), &TrainedRunProbe::started);
        d->headSpin()->setValue(3);
        QVERIFY(!d->probe()->running());
        QVERIFY(waitOpened(*w, opened, 2));
        QCOMPARE(started.count(), 0);
        QVERIFY(w->windowTitle().contains(QStringLiteral("head 3")));
        const Session head3 = load_session(out + QStringLiteral("/head-3.posatlas.json"));
        const MatrixResult expected3 = compute_matrix(head3.scenario, MatrixKind::Logits, {});
        const MatrixResult& m3 = w->heatmapView()->data().panels.front().matrix;
        for (const auto& [i, j] : {std::pair{127, 5}, std::pair{64, 64}, std::pair{100, 99}})
            QVERIFY(std::fabs(m3.at(i, j) - expected3.at(i, j)) <=
                    1e-6 * (1 + std::fabs(expected3.at(i, j))));
        // Undo goes back to head 2, and the title names it again.
        w->model()->undoStack()->undo();
        QVERIFY2(w->windowTitle().startsWith(QStringLiteral("copy/rope seed 0 · layer 1 · head 2 · ")),
                 qPrintable(w->windowTitle()));
    }

    void brokenRunFolderIsRefusedAndTheScenarioStays()
    {
        auto w = test::showMainWindow(m_dir, QStringLiteral("broken"));
        const Scenario before = w->model()->scenario();
        const int undoBefore = w->model()->undoStack()->count();
        TrainedRunDialog* d = dialogOf(*w, shippedRun("rope"), cache());

        // config.json that is not JSON: refused in this process, before any probe.
        const QString bad = m_dir.filePath(QStringLiteral("bad-config"));
        QVERIFY(QDir().mkpath(bad));
        QFile f(bad + QStringLiteral("/config.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"task\": [[[[[[");
        f.close();
        d->setRun(bad);
        QVERIFY(!d->openRun());
        QVERIFY(!d->probe()->running());
        QStringList boxes = messageBoxTexts(d);
        QCOMPARE(boxes.size(), 1);
        QVERIFY2(boxes.front().contains(QStringLiteral("config.json")), qPrintable(boxes.front()));
        QCOMPARE(w->model()->scenario(), before);
        closeMessageBoxes();

        // model.safetensors truncated: posatlas-lab refuses it; its message, the scenario unchanged.
        const QString truncated = m_dir.filePath(QStringLiteral("truncated"));
        QVERIFY(QDir().mkpath(truncated));
        QVERIFY(QFile::copy(shippedRun("rope") + QStringLiteral("/config.json"),
                            truncated + QStringLiteral("/config.json")));
        QFile weights(shippedRun("rope") + QStringLiteral("/model.safetensors"));
        QVERIFY(weights.open(QIODevice::ReadOnly));
        QFile cut(truncated + QStringLiteral("/model.safetensors"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(weights.read(weights.size() / 2));
        cut.close();
        d->setRun(truncated);
        QSignalSpy failed(d->probe(), &TrainedRunProbe::failed);
        QVERIFY(d->openRun());
        QVERIFY(failed.wait(120000));
        boxes = messageBoxTexts(d);
        QCOMPARE(boxes.size(), 1);
        QVERIFY2(boxes.front().contains(QStringLiteral("model.safetensors")), qPrintable(boxes.front()));
        QVERIFY(test::waitIdle(w->jobs()));
        QCOMPARE(w->model()->scenario(), before);
        QCOMPARE(w->model()->undoStack()->count(), undoBefore);
        closeMessageBoxes();

        // A length past probe_max_length: refused naming the field and its largest value.
        d->setRun(shippedRun("rope"));
        const std::int64_t largest = lab::probe_max_length(4);
        d->lengthSpin()->setValue(static_cast<int>(largest + 1));
        QVERIFY(!d->openRun());
        boxes = messageBoxTexts(d);
        QCOMPARE(boxes.size(), 1);
        QVERIFY2(boxes.front().contains(QStringLiteral("Example length must be at most %1").arg(largest)),
                 qPrintable(boxes.front()));
        QVERIFY(boxes.front().contains(QStringLiteral("--length")));
        closeMessageBoxes();
        // The largest itself passes the checks (the probe is not run).
        TrainedRunRequest r = d->currentRequest();
        r.length = largest;
        QString error;
        QVERIFY2(check_trained_run(r, &error).has_value(), qPrintable(error));
        QCOMPARE(w->model()->scenario(), before);
    }

    // The probes' disk use stays bounded: past the limit the least recently used probe goes first, the one
    // on screen never, and a running probe's partial folder is not touched.
    void probeCacheKeepsTheMostRecentlyUsedWithinItsLimit()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto probe = [&](const QString& name, int bytes, int minutesAgo) {
            const QString folder = dir.filePath(name);
            QDir().mkpath(folder);
            QFile f(QDir(folder).filePath(QStringLiteral("probe.safetensors")));
            if (!f.open(QIODevice::WriteOnly))
                return QString();
            f.write(QByteArray(bytes, 'x'));
            f.close();
            QFile stamp(QDir(folder).filePath(QStringLiteral("used")));
            if (!stamp.open(QIODevice::WriteOnly))
                return QString();
            stamp.setFileTime(QDateTime::currentDateTime().addSecs(-60 * minutesAgo),
                              QFileDevice::FileModificationTime);
            stamp.close();
            return folder;
        };
        const QString oldest = probe(QStringLiteral("a"), 400, 30);
        const QString onScreen = probe(QStringLiteral("b"), 400, 20); // older than c, but kept
        const QString middle = probe(QStringLiteral("c"), 400, 10);
        const QString newest = probe(QStringLiteral("d"), 400, 1);
        const QString partial = probe(QStringLiteral("e.partial-1-1"), 400, 40);
        QCOMPARE(trim_probe_cache(dir.path(), 1300, onScreen), 1200);
        QVERIFY(!QFileInfo::exists(oldest));
        QVERIFY(QFileInfo::exists(onScreen));
        QVERIFY(QFileInfo::exists(middle));
        QVERIFY(QFileInfo::exists(newest));
        QVERIFY(QFileInfo::exists(partial));
        // Within the limit nothing goes.
        QCOMPARE(trim_probe_cache(dir.path(), 1300, QString()), 1200);
        QVERIFY(QFileInfo::exists(middle));
        // Using a probe makes it the newest: c now outlives d.
        mark_probe_used(middle);
        QCOMPARE(trim_probe_cache(dir.path(), 800, QString()), 800);
        QVERIFY(QFileInfo::exists(middle));
        QVERIFY(QFileInfo::exists(newest));
        QVERIFY(!QFileInfo::exists(onScreen));
    }

    void cancelStopsTheProbeAndANewerRequestWins()
    {
        auto w = test::showMainWindow(m_dir, QStringLiteral("cancel"));
        const Scenario before = w->model()->scenario();
        TrainedRunDialog* d = dialogOf(*w, shippedRun("alibi"), cache());
        QSignalSpy opened(d, &TrainedRunDialog::opened);
        QSignalSpy cancelled(d->probe(), &TrainedRunProbe::cancelled);
        d->lengthSpin()->setValue(1536);
        QVERIFY(d->openRun());
        QVERIFY(d->probe()->running());
        QVERIFY(d->cancelButton()->isEnabled());
        d->cancelButton()->click();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!d->probe()->running());
        QVERIFY(!d->probe()->cached(d->currentRequest()));
        QVERIFY(QDir(cache()).entryList({QStringLiteral("*.partial-*")}, QDir::Dirs).isEmpty());
        QTest::qWait(300);
        QCOMPARE(opened.count(), 0);
        QCOMPARE(w->model()->scenario(), before);

        // A long request, then a short one at once: the short one is what opens.
        QVERIFY(d->openRun());
        d->lengthSpin()->setValue(48);
        QVERIFY(d->openRun());
        QCOMPARE(cancelled.count(), 2);
        QVERIFY(waitOpened(*w, opened, 1));
        QTest::qWait(300);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(w->model()->scenario().seq_len, std::int64_t{48});
    }

    void screenshotsInBothLanguages()
    {
        const QString dir = qEnvironmentVariable("POSATLAS_LABOPEN_PNG_DIR");
        if (dir.isEmpty())
            QSKIP("POSATLAS_LABOPEN_PNG_DIR is not set");
        QDir().mkpath(dir);
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            QVERIFY(installLanguage(language));
            auto w = test::showMainWindow(m_dir, QStringLiteral("shot-") + language, {.size = {1600, 1000}});
            TrainedRunDialog* d = dialogOf(*w, shippedRun("rope"), cache());
            QSignalSpy opened(d, &TrainedRunDialog::opened);
            d->lengthSpin()->setValue(128);
            d->layerSpin()->setValue(1);
            d->headSpin()->setValue(0);
            QVERIFY(d->openRun());
            QVERIFY(waitOpened(*w, opened, 1));
            d->hide();
            QTest::qWait(300);
            QVERIFY(
                w->grab().save(dir + QStringLiteral("/main-window-") + language + QStringLiteral(".png")));
            d->show();
            QTest::qWait(200);
            QVERIFY(d->grab().save(dir + QStringLiteral("/dialog-") + language + QStringLiteral(".png")));
        }
    }
};

QTEST_MAIN(OpenTrainedRunTest)
#include "test_open_trained_run.moc"
