// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/job_tracker.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <exception>
#include <vector>

namespace posatlas::ui {

JobTracker::JobTracker(QObject* parent) : QObject(parent)
{
    // At least two workers: a superseded job may still be winding down while its successor starts.
    m_pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(0);
    connect(&m_debounce, &QTimer::timeout, this, &JobTracker::flush);
    m_progressDelay.setSingleShot(true);
    m_progressDelay.setInterval(300);
    connect(&m_progressDelay, &QTimer::timeout, this, [this] {
        if (m_busy && !m_progressShown) {
            m_progressShown = true;
            emit progressVisible(true);
        }
    });
}

JobTracker::~JobTracker()
{
    // Every cancel predicate turns true and progress stops posting to this object; results that
    // still arrive are dropped with it (Qt discards the queued calls to a destroyed object).
    m_shutdown->store(true);
    m_pool.waitForDone();
}

void JobTracker::setDebounceMs(int ms)
{
    m_debounceMs = std::max(0, ms);
}

void JobTracker::setProgressDelayMs(int ms)
{
    m_progressDelay.setInterval(std::max(0, ms));
}

void JobTracker::enqueue(int slot, Job job)
{
    const bool idle = !busy();
    m_slots[slot].pending = std::move(job);
    // Coalesce, do not postpone: never restart a running interval. From idle, no interval at all: the
    // next pass of the event loop (the other submissions of this change join before it).
    if (!m_debounce.isActive())
        m_debounce.start(idle ? 0 : m_debounceMs);
    updateBusy();
}

void JobTracker::flush()
{
    m_debounce.stop();
    std::vector<int> ready;
    for (const auto& [key, s] : m_slots)
        if (s.pending)
            ready.push_back(key);
    for (int key : ready)
        if (m_slots[key].pending) // (a busyChanged receiver may have cancelled it)
            start(key);
}

void JobTracker::cancel(int slot)
{
    const auto it = m_slots.find(slot);
    if (it == m_slots.end())
        return;
    Slot& s = it->second;
    s.pending.reset();
    s.awaiting = false;
    s.latest->store(++s.generation); // the running job is stale now: it stops, its result is dropped
    updateBusy();
}

bool JobTracker::busy() const
{
    return std::any_of(m_slots.begin(), m_slots.end(),
                       [](const auto& entry) { return entry.second.pending || entry.second.awaiting; });
}

bool JobTracker::busy(int slot) const
{
    const auto it = m_slots.find(slot);
    return it != m_slots.end() && (it->second.pending || it->second.awaiting);
}

double JobTracker::lastRunMs(int slot) const
{
    const auto it = m_slots.find(slot);
    return it == m_slots.end() ? -1.0 : it->second.lastRunMs;
}

quint64 JobTracker::generation(int slot) const
{
    const auto it = m_slots.find(slot);
    return it == m_slots.end() ? 0 : it->second.generation;
}

void JobTracker::start(int slot)
{
    Slot& s = m_slots[slot];
    Job job = std::move(*s.pending);
    s.pending.reset();
    s.awaiting = true;
    s.percent = 0;
    const quint64 gen = ++s.generation;
    s.latest->store(gen);

    auto latest = s.latest;
    auto shutdown = m_shutdown;
    JobControl control;
    control.cancel = [latest, shutdown, gen] { return shutdown->load() || latest->load() != gen; };
    // Progress goes to an atomic; when the whole percentage moves, a queued call carries it to the GUI
    // thread: at most ~100 events per job.
    auto reported = std::make_shared<std::atomic<int>>(-1);
    control.progress = [this, slot, latest, shutdown, gen, reported](double fraction) {
        const int p = std::isnan(fraction) ? 0 : static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100.0);
        if (shutdown->load() || latest->load() != gen || reported->exchange(p) == p)
            return;
        QMetaObject::invokeMethod(
            this, [this, slot, gen, p] { onProgress(slot, gen, p); }, Qt::QueuedConnection);
    };

    // The outcome is posted to this object, like the progress before it (so it arrives after the last
    // progress report), and never delivered from inside submit() or flush().
    m_pool.start([this, slot, gen, run = std::move(job.run), deliver = std::move(job.deliver),
                  control = std::move(control)]() {
        Outcome out;
        QElapsedTimer clock;
        clock.start();
        try {
            out.result = run(control);
        } catch (const Cancelled&) {
            out.cancelled = true;
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        } catch (...) {
            out.unknownError = true; // translated on the GUI thread
        }
        out.runMs = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
        QMetaObject::invokeMethod(
            this,
            [this, slot, gen, deliver, out = std::move(out)]() mutable {
                finish(slot, gen, deliver, std::move(out));
            },
            Qt::QueuedConnection);
    });
    updateBusy();
}

void JobTracker::finish(int slot, quint64 gen, const std::function<void(Result)>& deliver, Outcome outcome)
{
    Slot& s = m_slots[slot];
    if (gen != s.generation) {
        emit staleResultDropped(slot, gen);
        return;
    }
    s.awaiting = false;
    if (outcome.cancelled) {
        // Only a shutdown, or the job itself, cancels the newest generation: nothing to show.
    } else if (outcome.unknownError) {
        emit jobFailed(slot, tr("unknown error"));
    } else if (!outcome.error.isEmpty()) {
        emit jobFailed(slot, outcome.error);
    } else {
        s.lastRunMs = outcome.runMs;
        QElapsedTimer clock;
        clock.start();
        deliver(std::move(outcome.result));
        const double deliverMs = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
        emit resultTimed(slot, outcome.runMs, deliverMs);
        emit resultDelivered(slot, gen);
    }
    updateBusy();
}

void JobTracker::onProgress(int slot, quint64 gen, int percent)
{
    const auto it = m_slots.find(slot);
    if (it == m_slots.end() || it->second.generation != gen || !it->second.awaiting)
        return;
    it->second.percent = percent;
    emit progressChanged(slot, percent);
    int sum = 0, count = 0;
    for (const auto& [key, s] : m_slots)
        if (s.awaiting) {
            sum += s.percent;
            ++count;
        }
    const int total = count ? sum / count : 100;
    if (total != m_lastTotal) {
        m_lastTotal = total;
        emit totalProgressChanged(total);
    }
}

void JobTracker::updateBusy()
{
    const bool nowBusy = busy();
    if (nowBusy == m_busy)
        return;
    m_busy = nowBusy;
    if (m_busy) {
        m_lastTotal = -1;
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
