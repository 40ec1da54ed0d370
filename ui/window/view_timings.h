// SPDX-License-Identifier: GPL-3.0-or-later
// Where the time of each view goes (View > Show Timings): compute = the view job's run time
// on its worker (JobTracker::resultTimed), paint = the GUI thread's share, i.e. handing the result to
// the view (image build, chart series) plus the last repaint of the view's widgets. Measured, never
// estimated: paints are timed by an event filter around the widgets' own paint events.
#pragma once

#include "jobs/view_jobs.h"

#include <QObject>
#include <QPointer>

#include <array>
#include <vector>

class QWidget;

namespace posatlas::ui {

class JobTracker;

class ViewTimings : public QObject
{
    Q_OBJECT
public:
    // Listens to `jobs` (slot = static_cast<int>(ViewKind)).
    explicit ViewTimings(JobTracker* jobs, QObject* parent = nullptr);

    // Times the paint events of `widget` (and of the viewports of the chart views inside it) as `kind`'s.
    void watch(ViewKind kind, QWidget* widget);

    struct Timing {
        double computeMs = -1; // last delivered job's run time; negative before the first
        double deliverMs = 0;  // handing that result to the view, on the GUI thread
        double paintMs = -1;   // the view's last repaint (all its timed widgets in one pass)
        quint64 paints = 0;    // repaint passes so far
        quint64 deliveries = 0;
        // Repaint passes completed after the last delivery (0: the newest result is not on screen yet).
        quint64 paintsSinceDelivery = 0;
    };
    const Timing& timing(ViewKind kind) const { return m_timing[static_cast<std::size_t>(kind)]; }
    // "Heatmap: compute 12 ms · paint 3 ms" for each kind in `kinds` with a timing, joined by " | ";
    // `names` gives each kind's name (the dock titles).
    QString text(const std::vector<ViewKind>& kinds, const std::array<QString, kViewKindCount>& names) const;

signals:
    void changed(ViewKind kind);
    // A repaint pass of `kind`'s widgets finished (after its paint events of one event-loop pass).
    void painted(ViewKind kind);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void commitPaint(std::size_t index);

    std::array<Timing, kViewKindCount> m_timing{};
    std::array<double, kViewKindCount> m_pendingPaintMs{}; // this pass's paints, committed after it
    std::array<bool, kViewKindCount> m_commitQueued{};
    std::vector<std::pair<QPointer<QObject>, ViewKind>> m_watched;
    bool m_inPaint = false;
};

} // namespace posatlas::ui
