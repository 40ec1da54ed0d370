// SPDX-License-Identifier: GPL-3.0-or-later
// JobTracker (ui/jobs/job_tracker.h) on its own: the newest job of a slot wins, stale results are dropped,
// the cancel predicate reaches the job, progress and results arrive on the GUI thread, submissions are
// coalesced without starving a burst, failures are reported, and a tracker destroyed while its jobs run
// cancels and waits for them; the suites' waitIdle reports a job that runs past its timeout. Jobs
// synchronise through atomics and generous waits, never timings.
#include "gui_support.h"
#include "jobs/job_tracker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

constexpr int kWaitMs = 30000; // two shared cores, sanitizer builds: generous

// A job that runs until it is cancelled (it polls, as core's kernels do) or released by the test.
struct Gate {
    std::atomic<bool> started{false};
    std::atomic<bool> sawCancel{false};
    std::atomic<bool> release{false};
};

int waitUntilCancelled(Gate& gate, const JobControl& job, int value)
{
    gate.started = true;
    QElapsedTimer t;
    t.start();
    while (!gate.release && t.elapsed() < kWaitMs) {
        if (job.cancel()) {
            gate.sawCancel = true;
            throw Cancelled();
        }
        QThread::msleep(2);
    }
    return value;
}

} // namespace

class JobTrackerTest : public QObject
{
    Q_OBJECT

private slots:
    // The suites' waitIdle (tests/support/gui_support.h) is false while a job runs past its timeout (so
    // that the caller's QVERIFY fails rather than going on without results), true once the job is done.
    void waitIdleIsFalseWhileAJobRunsPastItsTimeout()
    {
        JobTracker tracker;
        Gate gate;
        bool shown = false;
        tracker.submit(
            4, [&gate](const JobControl& job) { return waitUntilCancelled(gate, job, 4); },
            [&shown](int) { shown = true; });
        tracker.flush();
        QTRY_VERIFY_WITH_TIMEOUT(gate.started.load(), kWaitMs);
        QVERIFY(!test::waitIdle(&tracker, 50, 0));
        QVERIFY(tracker.busy());
        gate.release = true;
        QVERIFY(test::waitIdle(&tracker, kWaitMs, 0));
        QVERIFY(shown);
    }

    void resultArrivesOnTheGuiThread()
    {
        JobTracker tracker;
        QSignalSpy delivered(&tracker, &JobTracker::resultDelivered);
        std::atomic<bool> ranOnGuiThread{true};
        QThread* gui = QThread::currentThread();
        QThread* deliveredOn = nullptr;
        std::string result;
        tracker.submit(
            7,
            [gui, &ranOnGuiThread](const JobControl&) {
                ranOnGuiThread = QThread::currentThread() == gui;
                return std::string("answer");
            },
            [&](std::string&& r) {
                deliveredOn = QThread::currentThread();
                result = std::move(r);
            });
        QVERIFY(tracker.busy());
        QVERIFY(tracker.busy(7));
        QVERIFY(!tracker.busy(8));
        QVERIFY(delivered.wait(kWaitMs));
        QVERIFY(!ranOnGuiThread.load());
        QCOMPARE(deliveredOn, gui);
        QCOMPARE(result, std::string("answer"));
        QCOMPARE(delivered.front().at(0).toInt(), 7);
        QCOMPARE(delivered.front().at(1).toULongLong(), quint64{1});
        QCOMPARE(tracker.generation(7), quint64{1});
        QVERIFY(!tracker.busy());
    }

    void staleResultIsDroppedAndNewerWins()
    {
        JobTracker tracker;
        // Generation 1 ignores cancellation and finishes only once generation 2 has been delivered:
        // its result arrives last and must be dropped.
        auto releaseOld = std::make_shared<std::atomic<bool>>(false);
        QStringList shown;
        QSignalSpy delivered(&tracker, &JobTracker::resultDelivered);
        QSignalSpy dropped(&tracker, &JobTracker::staleResultDropped);
        tracker.submit(
            0,
            [releaseOld](const JobControl&) {
                QElapsedTimer t;
                t.start();
                while (!*releaseOld && t.elapsed() < kWaitMs)
                    QThread::msleep(2);
                return QStringLiteral("old");
            },
            [&shown](QString&& s) { shown << s; });
        tracker.flush();
        tracker.submit(
            0, [](const JobControl&) { return QStringLiteral("new"); },
            [&shown](QString&& s) { shown << s; });
        tracker.flush();
        QCOMPARE(tracker.generation(0), quint64{2});
        QVERIFY(delivered.wait(kWaitMs));
        *releaseOld = true;
        QTRY_COMPARE_WITH_TIMEOUT(dropped.count(), 1, kWaitMs);
        QCOMPARE(shown, QStringList{QStringLiteral("new")});
        QCOMPARE(dropped.front().at(0).toInt(), 0);
        QCOMPARE(dropped.front().at(1).toULongLong(), quint64{1});
        QCOMPARE(delivered.count(), 1);
        QCOMPARE(delivered.front().at(1).toULongLong(), quint64{2});
        QVERIFY(!tracker.busy());
    }

    void newerJobCancelsTheRunningOne()
    {
        JobTracker tracker;
        Gate gate;
        std::atomic<bool> newRan{false};
        QList<int> shown;
        tracker.submit(
            1, [&gate](const JobControl& job) { return waitUntilCancelled(gate, job, 1); },
            [&shown](int v) { shown << v; });
        tracker.flush();
        QTRY_VERIFY_WITH_TIMEOUT(gate.started.load(), kWaitMs);
        QVERIFY(!gate.sawCancel.load());
        tracker.submit(
            1,
            [&newRan](const JobControl& job) {
                newRan = true;
                return job.cancel() ? -1 : 2; // the newest job's predicate stays false
            },
            [&shown](int v) { shown << v; });
        tracker.flush();
        QTRY_VERIFY_WITH_TIMEOUT(gate.sawCancel.load(), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.busy(), kWaitMs);
        QVERIFY(newRan.load());
        QCOMPARE(shown, QList<int>{2});
    }

    void slotsAreIndependent()
    {
        JobTracker tracker;
        Gate gate;
        QList<int> shown;
        tracker.submit(
            1, [&gate](const JobControl& job) { return waitUntilCancelled(gate, job, 1); },
            [&shown](int v) { shown << v; });
        tracker.flush();
        QTRY_VERIFY_WITH_TIMEOUT(gate.started.load(), kWaitMs);
        tracker.submit(
            2, [](const JobControl&) { return 2; }, [&shown](int v) { shown << v; });
        tracker.flush();
        QTRY_COMPARE_WITH_TIMEOUT(shown, QList<int>{2}, kWaitMs);
        QVERIFY(!gate.sawCancel.load()); // a job of another slot does not supersede it
        QVERIFY(tracker.busy());
        QVERIFY(tracker.busy(1));
        QVERIFY(!tracker.busy(2));
        gate.release = true;
        QTRY_COMPARE_WITH_TIMEOUT(shown, (QList<int>{2, 1}), kWaitMs);
        QVERIFY(!tracker.busy());
    }

    void cancelStopsTheJobAndDropsItsResult()
    {
        JobTracker tracker;
        Gate gate;
        bool shown = false;
        QSignalSpy busy(&tracker, &JobTracker::busyChanged);
        tracker.submit(
            3, [&gate](const JobControl& job) { return waitUntilCancelled(gate, job, 3); },
            [&shown](int) { shown = true; });
        tracker.flush();
        QTRY_VERIFY_WITH_TIMEOUT(gate.started.load(), kWaitMs);
        // A pending job of the same slot goes too.
        tracker.submit(
            3, [](const JobControl&) { return 4; }, [&shown](int) { shown = true; });
        QVERIFY(tracker.busy(3));
        tracker.cancel(3);
        QVERIFY(!tracker.busy());
        QCOMPARE(busy.count(), 2); // busy, then idle at once: nobody waits for a cancelled slot
        QCOMPARE(busy.back().front().toBool(), false);
        QTRY_VERIFY_WITH_TIMEOUT(gate.sawCancel.load(), kWaitMs);
        QVERIFY(tracker.waitForWorkers(kWaitMs));
        QCoreApplication::processEvents();
        QVERIFY(!shown);
        QCOMPARE(tracker.generation(3), quint64{2});
    }

    void progressArrivesOnTheGuiThread()
    {
        JobTracker tracker;
        QThread* gui = QThread::currentThread();
        QList<int> percents;
        bool allOnGui = true;
        connect(&tracker, &JobTracker::progressChanged, this, [&](int slot, int percent) {
            allOnGui = allOnGui && QThread::currentThread() == gui;
            if (slot == 5)
                percents << percent;
        });
        QSignalSpy total(&tracker, &JobTracker::totalProgressChanged);
        QSignalSpy delivered(&tracker, &JobTracker::resultDelivered);
        tracker.submit(
            5,
            [](const JobControl& job) {
                for (int i = 0; i <= 4; ++i)
                    for (int repeat = 0; repeat < 3; ++repeat) // repeats of a percentage are not sent
                        job.progress(i / 4.0);
                return 0;
            },
            [](int) {});
        QVERIFY(delivered.wait(kWaitMs));
        QVERIFY(allOnGui);
        // Queued before the result: every report has arrived, in order, each once.
        QCOMPARE(percents, (QList<int>{0, 25, 50, 75, 100}));
        QVERIFY(!total.isEmpty());
        QCOMPARE(total.back().front().toInt(), 100);
    }

    void progressShownOnlyForLongJobs()
    {
        JobTracker tracker;
        tracker.setProgressDelayMs(1000); // generous: a loaded machine still finishes the quick job first
        QSignalSpy visible(&tracker, &JobTracker::progressVisible);
        QSignalSpy total(&tracker, &JobTracker::totalProgressChanged);
        tracker.submit(
            0, [](const JobControl&) { return 0; }, [](int) {});
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.busy(), kWaitMs);
        QCOMPARE(visible.count(), 0); // a quick job never flashes a progress bar
        auto release = std::make_shared<std::atomic<bool>>(false);
        tracker.submit(
            0,
            [release](const JobControl& job) {
                for (int i = 0; !*release; i = (i + 1) % 100) {
                    job.progress(i / 100.0);
                    QThread::msleep(2);
                }
                return 0;
            },
            [](int) {});
        QTRY_COMPARE_WITH_TIMEOUT(visible.count(), 1, kWaitMs); // shown while it runs
        QCOMPARE(visible.at(0).front().toBool(), true);
        *release = true;
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.busy(), kWaitMs);
        QCOMPARE(visible.count(), 2); // then hidden
        QCOMPARE(visible.at(1).front().toBool(), false);
        QVERIFY(total.count() >= 2);
    }

    void debounceCoalescesABurst()
    {
        JobTracker tracker;
        tracker.setDebounceMs(50);
        std::atomic<int> runs{0};
        QList<int> shown;
        for (int i = 1; i <= 20; ++i)
            tracker.submit(
                0,
                [&runs, i](const JobControl&) {
                    ++runs;
                    return i;
                },
                [&shown](int v) { shown << v; });
        QVERIFY(tracker.busy(0));
        QCOMPARE(tracker.generation(0), quint64{0}); // nothing started before the interval ends
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.busy(), kWaitMs);
        QCOMPARE(runs.load(), 1);
        QCOMPARE(shown, QList<int>{20}); // the last submission is the one that runs
        QCOMPARE(tracker.generation(0), quint64{1});
    }

    void debounceDoesNotStarveAContinuousBurst()
    {
        // Submissions keep coming more often than the interval: if each restarted it, nothing would
        // ever start until the burst stops. The interval is counted from the first one instead. (The
        // first submission finds the tracker idle and starts at once; the job is kept running until a
        // few submissions have piled up behind it, so that those go through the interval.)
        JobTracker tracker;
        tracker.setDebounceMs(200);
        std::atomic<int> runs{0};
        auto hold = std::make_shared<std::atomic<bool>>(true);
        int submissions = 0;
        QElapsedTimer t;
        t.start();
        while (runs.load() < 2 && t.elapsed() < kWaitMs) {
            tracker.submit(
                0,
                [&runs, hold](const JobControl& job) {
                    ++runs;
                    while (*hold && !job.cancel())
                        QThread::msleep(1);
                    return 0;
                },
                [](int) {});
            ++submissions;
            QTest::qWait(10);
            if (submissions == 3)
                *hold = false;
        }
        QVERIFY(runs.load() >= 2); // jobs ran while the submissions went on
        QVERIFY(submissions > 2);  // coalesced: not one job per submission
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.busy(), kWaitMs);
        QVERIFY(runs.load() < submissions);
    }

    void aSubmissionFromIdleStartsWithoutTheInterval()
    {
        // A single change is not delayed by the interval: from idle the job starts on the next pass of
        // the event loop. While it runs, the next submission waits for the interval.
        JobTracker tracker;
        tracker.setDebounceMs(5000);
        auto release = std::make_shared<std::atomic<bool>>(false);
        std::atomic<int> runs{0};
        QList<int> shown;
        tracker.submit(
            0,
            [&runs, release](const JobControl&) {
                ++runs;
                while (!*release)
                    QThread::msleep(1);
                return 1;
            },
            [&shown](int v) { shown << v; });
        QCOMPARE(tracker.generation(0), quint64{0});     // not from inside submit()
        QTRY_COMPARE_WITH_TIMEOUT(runs.load(), 1, 2000); // well before the 5 s interval
        tracker.submit(
            0,
            [&runs](const JobControl&) {
                ++runs;
                return 2;
            },
            [&shown](int v) { shown << v; });
        QTest::qWait(200);
        QCOMPARE(tracker.generation(0), quint64{1}); // still waiting for the interval
        *release = true;
        tracker.cancel(0);
        QTRY_VERIFY_WITH_TIMEOUT(!tracker.busy(), kWaitMs);
        QCOMPARE(runs.load(), 1);
    }

    void failureReportedForTheNewestOnly()
    {
        JobTracker tracker;
        QSignalSpy failed(&tracker, &JobTracker::jobFailed);
        QSignalSpy dropped(&tracker, &JobTracker::staleResultDropped);
        auto releaseOld = std::make_shared<std::atomic<bool>>(false);
        bool shown = false;
        tracker.submit(
            4,
            [releaseOld](const JobControl&) -> int {
                while (!*releaseOld)
                    QThread::msleep(2);
                throw std::runtime_error("stale failure");
            },
            [&shown](int) { shown = true; });
        tracker.flush();
        tracker.submit(
            4, [](const JobControl&) -> int { throw std::runtime_error("bad parameter"); },
            [&shown](int) { shown = true; });
        tracker.flush();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kWaitMs);
        *releaseOld = true;
        QTRY_COMPARE_WITH_TIMEOUT(dropped.count(), 1, kWaitMs);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().at(0).toInt(), 4);
        QCOMPARE(failed.front().at(1).toString(), QStringLiteral("bad parameter"));
        QVERIFY(!shown);
        QVERIFY(!tracker.busy());
    }

    void destructionWhileAJobRunsCancelsAndWaits()
    {
        auto tracker = std::make_unique<JobTracker>();
        Gate gate;
        std::atomic<bool> returned{false};
        bool shown = false;
        tracker->submit(
            0,
            [&gate, &returned](const JobControl& job) {
                struct Mark {
                    std::atomic<bool>& flag;
                    ~Mark() { flag = true; }
                } mark{returned};
                gate.started = true;
                QElapsedTimer t;
                t.start();
                for (int i = 0; t.elapsed() < kWaitMs; ++i) {
                    job.progress((i % 100) / 100.0); // must not reach a destroyed tracker
                    if (job.cancel()) {
                        gate.sawCancel = true;
                        throw Cancelled();
                    }
                    QThread::msleep(1);
                }
                return 0;
            },
            [&shown](int) { shown = true; });
        tracker->submit(
            1, [](const JobControl&) { return 0; }, [&shown](int) { shown = true; });
        tracker->flush();
        // No event processing from here on: slot 1's result, once computed, stays queued.
        QElapsedTimer t;
        t.start();
        while (!gate.started && t.elapsed() < kWaitMs)
            QThread::msleep(2);
        QVERIFY(gate.started.load());
        tracker->submit(
            2, [](const JobControl&) { return 0; }, [&shown](int) { shown = true; });
        tracker.reset(); // a pending job, a running one, one finished or about to, none delivered
        QVERIFY(gate.sawCancel.load());
        QVERIFY(returned.load()); // the destructor waited for the worker
        QCoreApplication::processEvents();
        QTest::qWait(20);
        QVERIFY(!shown);
    }
};

QTEST_GUILESS_MAIN(JobTrackerTest)
#include "test_job_tracker.moc"
