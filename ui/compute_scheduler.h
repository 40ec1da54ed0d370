// SPDX-License-Identifier: GPL-3.0-or-later
// Runs the view jobs off the GUI thread (the Qt mandelbrot example's restart/abort, Hotspot's job
// tracker). Requests are coalesced for a few milliseconds so that a slider drag produces a steady
// trickle of recomputes rather than one per mouse event; each request bumps the view's generation
// counter, the running job's cancel predicate sees that and stops, and a result whose generation is
// no longer the newest is dropped. The GUI thread never waits: results come back through
// QFuture::then(this, ...).
#pragma once

#include "params.h"
#include "view_jobs.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <array>
#include <atomic>
#include <functional>
#include <memory>

namespace posatlas::ui {

class ComputeScheduler : public QObject
{
    Q_OBJECT
public:
    // The work of one view. Called on a worker thread with copies of the scenario and settings.
    using JobFunction = std::function<ViewResult(ViewKind, const Scenario&, const ViewSettings&,
                                                 const CancelFn&, const ProgressFn&)>;

    explicit ComputeScheduler(QObject* parent = nullptr);
    // Cancels every job and waits for the scheduler's own pool (jobs poll cancel, so this is short).
    ~ComputeScheduler() override;

    // Tests inject a job function (e.g. a slow one) here; default: run_view_job.
    void setJobFunction(JobFunction job);
    void setDebounceMs(int ms);
    // Jobs longer than this show progress (progressVisible(true)); shorter ones never flash a bar.
    void setProgressDelayMs(int ms);

    // Hidden views are not computed; enabling one schedules it.
    void setViewEnabled(ViewKind kind, bool enabled);
    bool viewEnabled(ViewKind kind) const;

    // The scenario to compute: schedules every enabled view.
    void setScenario(const Scenario& s);
    const Scenario& scenario() const { return m_scenario; }
    // View settings changed (zoom, pan, pixel size, curve axis, rotation position): schedules `kind`.
    const ViewSettings& viewSettings() const { return m_settings; }
    void setViewSettings(const ViewSettings& settings, ViewKind kind);

    // Debounced request of one view / all enabled views; flush() starts pending requests now.
    void request(ViewKind kind);
    void requestAll();
    void flush();

    // Generation of the newest request of `kind` (0 before the first).
    quint64 generation(ViewKind kind) const;
    // A job whose result is still awaited (running or debounced).
    bool busy() const;
    // Blocks until every worker has returned, superseded jobs included (those are no longer awaited by
    // busy()): for measurements and tests that need no job to hold memory. False on timeout.
    bool waitForWorkers(int msecs) { return m_pool.waitForDone(msecs); }

signals:
    void heatmapReady(const posatlas::ui::HeatmapData& data);
    void curvesReady(const posatlas::ui::CurveData& data);
    void rotationReady(const posatlas::ui::RotationData& data);
    void spectrumReady(const posatlas::ui::SpectrumData& data);
    // kind is a ViewKind. Emitted for the newest generation only.
    void jobFailed(int kind, const QString& message);
    void resultDelivered(int kind, quint64 generation);
    void staleResultDropped(int kind, quint64 generation);
    // Overall progress of the awaited jobs, 0..100.
    void progressChanged(int percent);
    void progressVisible(bool visible);
    // busy() changed; false means every enabled view shows the newest scenario.
    void busyChanged(bool busy);

private:
    struct Outcome {
        std::optional<ViewResult> result;
        QString error;
        bool cancelled = false;
    };
    struct Slot {
        bool enabled = true;
        bool pending = false;  // debounced, not started yet
        bool awaiting = false; // started; newest result not delivered
        quint64 generation = 0;
        // Read by the worker's cancel predicate: the newest generation requested.
        std::shared_ptr<std::atomic<quint64>> latest = std::make_shared<std::atomic<quint64>>(0);
        std::shared_ptr<std::atomic<int>> progress = std::make_shared<std::atomic<int>>(0);
    };

    void start(ViewKind kind);
    void deliver(ViewKind kind, quint64 generation, Outcome outcome);
    void updateBusy();
    void onProgressTick();
    Slot& slot(ViewKind kind) { return m_slots[static_cast<std::size_t>(kind)]; }
    const Slot& slot(ViewKind kind) const { return m_slots[static_cast<std::size_t>(kind)]; }

    Scenario m_scenario;
    ViewSettings m_settings;
    JobFunction m_job;
    std::array<Slot, kViewKindCount> m_slots;
    QThreadPool m_pool;
    QTimer m_debounce;
    QTimer m_progressDelay;
    bool m_busy = false;
    bool m_progressShown = false;
    int m_lastPercent = -1;
    std::shared_ptr<std::atomic<bool>> m_shutdown = std::make_shared<std::atomic<bool>>(false);
};

} // namespace posatlas::ui
