// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/view_timings.h"

#include "jobs/job_tracker.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QLocale>
#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace posatlas::ui {

namespace {
constexpr std::size_t kCount = kViewKindCount;
}

ViewTimings::ViewTimings(JobTracker* jobs, QObject* parent) : QObject(parent)
{
    connect(jobs, &JobTracker::resultTimed, this, [this](int slot, double runMs, double deliverMs) {
        if (slot < 0 || slot >= kViewKindCount)
            return;
        Timing& t = m_timing[static_cast<std::size_t>(slot)];
        t.computeMs = runMs;
        t.deliverMs = deliverMs;
        ++t.deliveries;
        t.paintsSinceDelivery = 0;
        emit changed(static_cast<ViewKind>(slot));
    });
}

void ViewTimings::watch(ViewKind kind, QWidget* widget)
{
    auto add = [&](QObject* o) {
        o->installEventFilter(this);
        m_watched.emplace_back(o, kind);
    };
    add(widget);
    // Chart views paint their scene into their viewport, a child widget with its own paint events.
    for (QAbstractScrollArea* area : widget->findChildren<QAbstractScrollArea*>())
        add(area->viewport());
}

bool ViewTimings::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Paint || m_inPaint)
        return QObject::eventFilter(watched, event);
    std::size_t index = kCount;
    for (const auto& [object, kind] : m_watched)
        if (object == watched)
            index = static_cast<std::size_t>(kind);
    if (index == kCount)
        return QObject::eventFilter(watched, event);
    // Deliver the paint event from here, inside the paint context the repaint manager has set up, to
    // time the widget's own painting. sendEvent passes it through the other filters too (a chart
    // view's viewport is painted by its scroll area's filter); this one lets it pass while m_inPaint,
    // and returning true keeps the original delivery from painting a second time.
    m_inPaint = true;
    QElapsedTimer clock;
    clock.start();
    QCoreApplication::sendEvent(watched, event);
    m_pendingPaintMs[index] += static_cast<double>(clock.nsecsElapsed()) * 1e-6;
    m_inPaint = false;
    // A repaint pass paints every dirty widget of the window in one go: commit once it is over.
    if (!m_commitQueued[index]) {
        m_commitQueued[index] = true;
        QTimer::singleShot(0, this, [this, index] { commitPaint(index); });
    }
    return true;
}

void ViewTimings::commitPaint(std::size_t index)
{
    m_commitQueued[index] = false;
    Timing& t = m_timing[index];
    t.paintMs = m_pendingPaintMs[index];
    m_pendingPaintMs[index] = 0;
    ++t.paints;
    ++t.paintsSinceDelivery;
    emit painted(static_cast<ViewKind>(index));
    emit changed(static_cast<ViewKind>(index));
}

QString ViewTimings::text(const std::vector<ViewKind>& kinds,
                          const std::array<QString, kViewKindCount>& names) const
{
    const QLocale c = QLocale::c(); // one number format under any locale, like the readouts
    auto ms = [&](double v) { return c.toString(v, 'f', v < 10 ? 1 : 0); };
    QStringList parts;
    for (ViewKind k : kinds) {
        const Timing& t = timing(k);
        if (t.computeMs < 0)
            continue;
        const double paint = t.deliverMs + std::max(0.0, t.paintMs);
        parts << tr("%1: compute %2 ms · paint %3 ms")
                     .arg(names[static_cast<std::size_t>(k)], ms(t.computeMs), ms(paint));
    }
    return parts.join(QStringLiteral(" | "));
}

} // namespace posatlas::ui
