// SPDX-License-Identifier: GPL-3.0-or-later
// Runs computations off the GUI thread and hands back only the newest result of each slot (Hotspot's
// JobTracker, the Qt mandelbrot example's restart/abort). The main window computes its views with it,
// the context-extension explorer its tables, dynamic-NTK frequencies and entropy.
//
// A job is submitted to a slot, an int the caller chooses (a view, an explorer computation). Submitting
// does not start it: submissions are coalesced for the debounce interval, so that a slider drag
// produces a steady trickle of recomputes rather than one per mouse event, and a newer submission to
// the same slot replaces a pending one. The interval is not restarted by later submissions (that would
// starve a continuous drag of any update until the mouse stops). Leading edge: a submission that
// finds the tracker idle (nothing pending, nothing running) starts on the next pass of the event loop
// instead, so that a single change (a click, a key, the first step of a drag) costs no debounce; the
// submissions of that pass (one per view) still go together, and whatever arrives while they run waits
// for the interval as before. When a job starts it becomes its
// slot's newest generation: the job it supersedes sees its cancel predicate turn true and stops at its
// next poll; its result, should it still arrive, is dropped. (Until then the older job runs on, and a
// result it delivers while its successor is pending is shown: a drag keeps getting updates.)
// Results, failures and progress reach the GUI thread through queued calls; the GUI thread never waits
// for a job, except that the destructor cancels every job and waits for the tracker's own pool (jobs
// poll cancel, so that is short).
#pragma once

#include "scenario/types.h"

#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace posatlas::ui {

// What a running job gets, to be used on its worker thread: `cancel` turns true once the job is no
// longer wanted (poll it, or check_cancel(cancel), and throw Cancelled); `progress` takes the done
// fraction 0..1 and is cheap to call often (only a change of the whole percentage reaches the GUI).
struct JobControl {
    CancelFn cancel;
    ProgressFn progress;
};

class JobTracker : public QObject
{
    Q_OBJECT
public:
    explicit JobTracker(QObject* parent = nullptr);
    ~JobTracker() override;

    // Coalescing interval of submissions while jobs run (default 0: the job starts on the next pass of
    // the event loop). From idle, a submission always starts on the next pass (see above).
    void setDebounceMs(int ms);
    // Jobs longer than this show progress (progressVisible(true)); shorter ones never flash a bar.
    void setProgressDelayMs(int ms);

    // Runs work(const JobControl&) -> R on a worker thread (give it copies: the GUI goes on meanwhile)
    // and calls deliver(R&&) on the GUI thread if the job is still its slot's newest generation
    // then. A job that throws Cancelled delivers nothing; any other exception becomes jobFailed. The
    // tracker must not outlive what `deliver` uses (make it a child of the receiver).
    template <class Work, class Deliver> void submit(int slot, Work work, Deliver deliver);

    // Starts every pending job now.
    void flush();
    // Nobody wants the slot's result any more: drops its pending job, cancels the running one and drops
    // its result. The slot's generation moves on.
    void cancel(int slot);

    // A job whose result is still awaited (pending, or running and not superseded).
    bool busy() const;
    bool busy(int slot) const;
    // Generation of the slot's newest started job (0 before the first); cancel() also moves it on.
    quint64 generation(int slot) const;
    // Blocks until every worker has returned, superseded jobs included (those are no longer awaited by
    // busy()): for measurements and tests that need no job to hold memory. False on timeout.
    bool waitForWorkers(int msecs) { return m_pool.waitForDone(msecs); }
    // Run time (ms, measured on the worker thread around the work itself, queueing excluded) of the
    // slot's last delivered result; negative before the first (View > Show timings).
    double lastRunMs(int slot) const;

signals:
    // Emitted for the slot's newest generation only.
    void jobFailed(int slot, const QString& message);
    // After deliver() of the newest generation has returned.
    void resultDelivered(int slot, quint64 generation);
    // With resultDelivered (just before it): how long the job ran on its worker, and how long deliver()
    // took on the GUI thread (e.g. a view's image build), in milliseconds.
    void resultTimed(int slot, double runMs, double deliverMs);
    void staleResultDropped(int slot, quint64 generation);
    // Progress of the newest job of a slot, 0..100.
    void progressChanged(int slot, int percent);
    // Mean progress of every awaited job, 0..100.
    void totalProgressChanged(int percent);
    void progressVisible(bool visible);
    // busy() changed; false means every slot shows its newest result.
    void busyChanged(bool busy);

private:
    using Result = std::shared_ptr<void>; // the job's R, type-erased between submit and deliver
    struct Job {
        std::function<Result(const JobControl&)> run;
        std::function<void(Result)> deliver;
    };
    struct Outcome {
        Result result;
        QString error;
        bool cancelled = false;
        bool unknownError = false;
        double runMs = 0; // the work's wall time on its worker
    };
    struct Slot {
        std::optional<Job> pending; // submitted, waiting for the debounce interval
        bool awaiting = false;      // started; its result not delivered yet
        quint64 generation = 0;
        int percent = 0;       // last progress of the awaited job
        double lastRunMs = -1; // of the last delivered result
        // Read by the workers' cancel predicates: the newest generation of the slot.
        std::shared_ptr<std::atomic<quint64>> latest = std::make_shared<std::atomic<quint64>>(0);
    };

    void enqueue(int slot, Job job);
    void start(int slot);
    void finish(int slot, quint64 generation, const std::function<void(Result)>& deliver, Outcome outcome);
    void onProgress(int slot, quint64 generation, int percent);
    void updateBusy();

    std::map<int, Slot> m_slots; // std::map: a Slot& stays valid while callbacks add slots
    QThreadPool m_pool;
    QTimer m_debounce;
    int m_debounceMs = 0;
    QTimer m_progressDelay;
    bool m_busy = false;
    bool m_progressShown = false;
    int m_lastTotal = -1;
    std::shared_ptr<std::atomic<bool>> m_shutdown = std::make_shared<std::atomic<bool>>(false);
};

template <class Work, class Deliver> void JobTracker::submit(int slot, Work work, Deliver deliver)
{
    using R = std::decay_t<std::invoke_result_t<const Work&, const JobControl&>>;
    static_assert(!std::is_void_v<R>, "a job returns the result it computed");
    Job job;
    job.run = [work = std::move(work)](const JobControl& control) -> Result {
        return std::make_shared<R>(work(control));
    };
    job.deliver = [deliver = std::move(deliver)](Result result) {
        deliver(std::move(*std::static_pointer_cast<R>(result)));
    };
    enqueue(slot, std::move(job));
}

} // namespace posatlas::ui
