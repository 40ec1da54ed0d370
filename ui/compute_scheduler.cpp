// SPDX-License-Identifier: GPL-3.0-or-later
#include "compute_scheduler.h"

#include <QFuture>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace posatlas::ui {

ComputeScheduler::ComputeScheduler(QObject* parent) : QObject(parent), m_job(&run_view_job)
{
    // Two workers per view kind at most: a superseded job may still be winding down while its
    // successor starts.
    m_pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(35);
    connect(&m_debounce, &QTimer::timeout, this, &ComputeScheduler::flush);
    m_progressDelay.setSingleShot(true);
    m_progressDelay.setInterval(300);
    connect(&m_progressDelay, &QTimer::timeout, this, [this] {
        if (m_busy && !m_progressShown) {
            m_progressShown = true;
            emit progressVisible(true);
        }
    });
}

ComputeScheduler::~ComputeScheduler()
{
    m_shutdown->store(true);
    for (auto& s : m_slots)
        s.latest->fetch_add(1); // every running job's generation is now stale: it cancels
    m_pool.waitForDone();
}

void ComputeScheduler::setJobFunction(JobFunction job)
{
    m_job = job ? std::move(job) : JobFunction(&run_view_job);
}
void ComputeScheduler::setDebounceMs(int ms)
{
    m_debounce.setInterval(std::max(0, ms));
}
void ComputeScheduler::setProgressDelayMs(int ms)
{
    m_progressDelay.setInterval(std::max(0, ms));
}

void ComputeScheduler::setViewEnabled(ViewKind kind, bool enabled)
{
    Slot& s = slot(kind);
    if (s.enabled == enabled)
        return;
    s.enabled = enabled;
    if (enabled) {
        request(kind);
    } else {
        // Nobody looks at it: stop waiting for it.
        s.latest->store(++s.generation);
        s.pending = s.awaiting = false;
        updateBusy();
    }
}

bool ComputeScheduler::viewEnabled(ViewKind kind) const
{
    return slot(kind).enabled;
}

void ComputeScheduler::setScenario(const Scenario& s)
{
    m_scenario = s;
    requestAll();
}

void ComputeScheduler::setViewSettings(const ViewSettings& settings, ViewKind kind)
{
    m_settings = settings;
    request(kind);
}

void ComputeScheduler::request(ViewKind kind)
{
    Slot& s = slot(kind);
    if (!s.enabled)
        return;
    s.pending = true;
    // Coalesce, do not postpone: restarting the timer on every event would starve a continuous drag
    // of any update until the mouse stops.
    if (!m_debounce.isActive())
        m_debounce.start();
    updateBusy();
}

void ComputeScheduler::requestAll()
{
    for (ViewKind k : kAllViewKinds)
        request(k);
}

void ComputeScheduler::flush()
{
    m_debounce.stop();
    for (ViewKind k : kAllViewKinds)
        if (slot(k).pending)
            start(k);
}

quint64 ComputeScheduler::generation(ViewKind kind) const
{
    return slot(kind).generation;
}

bool ComputeScheduler::busy() const
{
    return std::any_of(m_slots.begin(), m_slots.end(), [](const Slot& s) { return s.pending || s.awaiting; });
}

void ComputeScheduler::start(ViewKind kind)
{
    Slot& s = slot(kind);
    s.pending = false;
    s.awaiting = true;
    const quint64 gen = ++s.generation;
    s.latest->store(gen);
    s.progress->store(0);

    auto latest = s.latest;
    auto shutdown = m_shutdown;
    CancelFn cancel = [latest, shutdown, gen] { return shutdown->load() || latest->load() != gen; };

    // Progress is written to an atomic and, when the percentage moves, a queued call carries it to
    // the GUI thread. At most ~100 events per job; nothing from OpenMP threads (core guarantees that).
    auto percent = s.progress;
    ProgressFn progress = [this, percent, latest, gen](double fraction) {
        const int p = std::clamp(static_cast<int>(fraction * 100.0), 0, 100);
        if (latest->load() != gen || percent->exchange(p) == p)
            return;
        QMetaObject::invokeMethod(this, &ComputeScheduler::onProgressTick, Qt::QueuedConnection);
    };

    JobFunction job = m_job;
    const Scenario scenario = m_scenario;
    const ViewSettings settings = m_settings;
    QFuture<Outcome> future = QtConcurrent::run(&m_pool, [job, kind, scenario, settings, cancel, progress]() {
        Outcome out;
        try {
            out.result = job(kind, scenario, settings, cancel, progress);
        } catch (const Cancelled&) {
            out.cancelled = true;
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        } catch (...) {
            out.error = QStringLiteral("unknown error");
        }
        return out;
    });
    future.then(this, [this, kind, gen](Outcome outcome) { deliver(kind, gen, std::move(outcome)); });
    updateBusy();
}

void ComputeScheduler::deliver(ViewKind kind, quint64 gen, Outcome outcome)
{
    Slot& s = slot(kind);
    if (gen != s.generation || !s.enabled) {
        emit staleResultDropped(static_cast<int>(kind), gen);
        return;
    }
    s.awaiting = false;
    if (outcome.cancelled) {
        // Only a shutdown cancels the newest generation; nothing to show.
    } else if (!outcome.error.isEmpty()) {
        emit jobFailed(static_cast<int>(kind), outcome.error);
    } else if (outcome.result) {
        std::visit(
            [this](const auto& data) {
                using T = std::decay_t<decltype(data)>;
                if constexpr (std::is_same_v<T, HeatmapData>)
                    emit heatmapReady(data);
                else if constexpr (std::is_same_v<T, CurveData>)
                    emit curvesReady(data);
                else if constexpr (std::is_same_v<T, RotationData>)
                    emit rotationReady(data);
                else
                    emit spectrumReady(data);
            },
            *outcome.result);
        emit resultDelivered(static_cast<int>(kind), gen);
    }
    updateBusy();
}

void ComputeScheduler::onProgressTick()
{
    int sum = 0, count = 0;
    for (const Slot& s : m_slots)
        if (s.awaiting) {
            sum += s.progress->load();
            ++count;
        }
    const int percent = count ? sum / count : 100;
    if (percent != m_lastPercent) {
        m_lastPercent = percent;
        emit progressChanged(percent);
    }
}

void ComputeScheduler::updateBusy()
{
    const bool nowBusy = busy();
    if (nowBusy == m_busy)
        return;
    m_busy = nowBusy;
    if (m_busy) {
        m_lastPercent = -1;
        m_progressDelay.start();
    } else {
        m_progressDelay.stop();
        if (m_progressShown) {
            m_progressShown = false;
            emit progressVisible(false);
        }
    }
    emit busyChanged(m_busy);
}

} // namespace posatlas::ui
