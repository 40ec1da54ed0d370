// SPDX-License-Identifier: GPL-3.0-or-later
// A soak test of the main window: a seeded random walk through what a user does (switch method, move
// parameters through the model, switch and hide views, undo and redo, load presets, toggle view
// options), bounded in time. It checks that nothing crashes or throws, that the window still computes
// at the end, and that memory levels off: the heap in use grows by less than kMaxSecondHalfGrowth
// during the second half of the walk, after the first half has filled caches and allocator pools.
#include "gui_support.h"
#include "io/presets.h"
#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <random>

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// The whole walk, in steps (POSATLAS_SOAK_STEPS for a longer run by hand): a fixed count, not a time
// box, so that the seeded walk does the same steps on a loaded machine (and a failure replays); about
// 20 s unloaded, several times that under the sanitizers.
const int kSteps = qEnvironmentVariableIntValue("POSATLAS_SOAK_STEPS") > 0
                       ? qEnvironmentVariableIntValue("POSATLAS_SOAK_STEPS")
                       : 800;
// Measured with the undo history cleared at each checkpoint (it grows by design). Observed: +0.2 to
// +4.0 MiB over ~600 steps of the second half, depending on the steps the walk took (then timed) (not
// yet explained: caches that level off, or a slow leak of a few KiB per step).
// The bound catches a leak of ~30 KiB per step without failing at random on what was observed.
constexpr double kMaxSecondHalfGrowth = 16.0 * 1024 * 1024; // bytes in use, in the canonical state below

// What the program holds on the heap: glibc's count of bytes in use in every arena plus its mmapped
// blocks (mallinfo2). The resident set also counts freed memory that an arena keeps for reuse, which
// varies with how many worker threads happened to allocate at once; that is not a leak, and made the
// RSS comparison fail at random. Elsewhere, the resident set.
double residentBytes()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 mi = mallinfo2();
    return static_cast<double>(mi.uordblks) + static_cast<double>(mi.hblkhd);
#else
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1.0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * static_cast<double>(sysconf(_SC_PAGESIZE)) : -1.0;
#endif
}

// The walk waits for the scheduler at most this long at a time, letting its debounce timer fire first.
constexpr int kIdleTimeoutMs = 30000, kSettleMs = 40;

} // namespace

class SoakTest : public QObject
{
    Q_OBJECT

private slots:
    void randomWalkLevelsOff()
    {
        if (!QFile::exists(QStringLiteral("/proc/self/statm")))
            QSKIP("needs /proc/self/statm (Linux)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w(dir.filePath(QStringLiteral("soak.ini")));
        w.setComputeHiddenViews(true);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(waitIdle(w.jobs(), kIdleTimeoutMs, kSettleMs));

        std::mt19937 rng(20261130); // seeded: a failure replays
        auto pick = [&rng](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
        const auto presets = list_presets();
        QAction* smallMultiples = w.findChild<QAction*>(QStringLiteral("smallMultiplesAction"));
        QVERIFY(smallMultiples);
        ScenarioModel* model = w.model();

        auto step = [&] {
            switch (pick(10)) {
            case 0:
                model->setMethod(
                    methods()[static_cast<std::size_t>(pick(static_cast<int>(methods().size())))].method);
                break;
            case 1:
            case 2:
            case 3: {
                // A numeric parameter of the current method (or a common one), anywhere in its range.
                std::vector<ParamId> numeric;
                for (ParamId id : all_params()) {
                    const auto owner = param_method(id);
                    if ((id->type == FieldType::Int || id->type == FieldType::Real) &&
                        (!owner || *owner == model->scenario().method))
                        numeric.push_back(id);
                }
                const Field& spec =
                    *numeric[static_cast<std::size_t>(pick(static_cast<int>(numeric.size())))];
                const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
                double v = spec.log_scale && spec.lo > 0
                               ? std::pow(10.0, std::log10(spec.lo) +
                                                    u * (std::log10(spec.hi) - std::log10(spec.lo)))
                               : spec.lo + u * (spec.hi - spec.lo);
                // Keep sizes moderate: the walk is about the GUI, not about a 10^6 matrix or a learned
                // table of 2^26 entries (the registry's ranges reach 65536 dimensions and 10^7 positions).
                if (spec.type == FieldType::Int)
                    v = std::min(v, 4096.0);
                if (spec.type == FieldType::Int)
                    v = std::round(v);
                model->setValue(&spec, v); // refusals are part of the walk
                break;
            }
            case 4: model->undoStack()->undo(); break;
            case 5: model->undoStack()->redo(); break;
            case 6:
                w.loadPreset(QString::fromStdString(
                    presets[static_cast<std::size_t>(pick(static_cast<int>(presets.size())))].id));
                break;
            case 7: w.dock(kAllViewKinds[static_cast<std::size_t>(pick(kViewKindCount))])->raise(); break;
            case 8: {
                QDockWidget* d = w.dock(kAllViewKinds[static_cast<std::size_t>(pick(kViewKindCount))]);
                d->setVisible(!d->isVisible());
                break;
            }
            case 9: smallMultiples->toggle(); break;
            }
            QTest::qWait(pick(3) == 0 ? 30 : 2); // sometimes long enough for jobs to start and finish
        };

        // RSS depends on what is shown (a 4096-position embedding of d = 4096 holds far more than a
        // 256 x 256 logit map), so memory is compared in one canonical state: the default scenario,
        // every view open, nothing computing.
        auto settle = [&] {
            for (ViewKind k : kAllViewKinds)
                w.dock(k)->show();
            if (smallMultiples->isChecked() != true)
                smallMultiples->toggle();
            model->setScenario(Scenario{}, QStringLiteral("soak checkpoint"));
            // The undo history grows by design (two scenarios per step, up to several KiB with LongRoPE
            // factor lists): measured without it, what is left growing is a leak.
            model->undoStack()->clear();
            // A timeout fails the test (the lambda cannot return at a QVERIFY): the reading is not of the
            // canonical state.
            if (!QTest::qVerify(waitIdle(w.jobs(), kIdleTimeoutMs, kSettleMs), "waitIdle(w.jobs())",
                                "the canonical state's jobs did not finish in time", __FILE__, __LINE__))
                return -1.0;
            // A superseded job can still be finishing on a worker (it stops at its next cancel check,
            // much later on a loaded machine) and holds its matrices until then: the job tracker no longer
            // waits for it, but the measurement must. Then wait for a steady reading.
            w.jobs()->waitForWorkers(60000);
            QCoreApplication::processEvents();
            double rss = residentBytes();
            for (int i = 0; i < 40; ++i) {
                QTest::qWait(250);
                const double again = residentBytes();
                const bool steady = std::abs(again - rss) < 512.0 * 1024;
                rss = again;
                if (steady)
                    break;
            }
            return rss;
        };

        int steps = 0;
        double rssHalf = -1.0;
        while (steps < kSteps) {
            step();
            ++steps;
            if (qEnvironmentVariableIsSet("POSATLAS_SOAK_TRACE") && steps % 100 == 0)
                qInfo("step %d: RSS %.1f MiB in the canonical state, undo %d", steps, settle() / 1048576.0,
                      model->undoStack()->count());
            if (steps == kSteps / 2)
                rssHalf = settle();
        }
        const double rssEnd = settle();
        qInfo("%d steps; heap in use at half time %.1f MiB, at the end %.1f MiB", steps, rssHalf / 1048576.0,
              rssEnd / 1048576.0);
#if defined(__SANITIZE_ADDRESS__)
        // AddressSanitizer keeps freed memory in its quarantine (256 MiB by default) on purpose: the
        // resident set then measures the quarantine, not what the program holds. It reports real leaks
        // itself (LeakSanitizer is on in that build), so only the crash and liveness checks run here.
        const bool measureMemory = false;
#else
        const bool measureMemory = true;
#endif
        if (measureMemory) {
            QVERIFY2(rssEnd - rssHalf < kMaxSecondHalfGrowth,
                     qPrintable(QStringLiteral("the heap in use grew by %1 MiB in the second half")
                                    .arg((rssEnd - rssHalf) / 1048576.0)));
        }

        // Still alive and computing: every view visible, one more change, results arrive.
        for (ViewKind k : kAllViewKinds)
            w.dock(k)->show();
        QVERIFY(model->setMethod(Method::RoPE));
        QVERIFY(waitIdle(w.jobs(), kIdleTimeoutMs, kSettleMs));
        QVERIFY(w.jobs()->generation(static_cast<int>(ViewKind::Heatmap)) > 0);
    }
};

QTEST_MAIN(SoakTest)
#include "test_soak.moc"
