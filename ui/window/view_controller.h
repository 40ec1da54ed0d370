// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's views and their jobs: the view settings (zoom window, pixel size, curve axis,
// rotation positions…), which views are computed (hidden or tabbed-away views are not), the jobs
// submitted to the tracker (job_tracker.h: one slot per view, the scenario and settings copied into
// the job, the result shown only when it is the newest of its view) and View > Show Timings
// (view_timings.h). The window gives it the widgets and docks it lays out; it owns the settings.
#pragma once

#include "jobs/view_jobs.h"
#include "scenario/params.h"

#include <QLabel>
#include <QObject>
#include <QPointer>

#include <array>
#include <optional>

class QDockWidget;

namespace posatlas::ui {

class CurveView;
class HeatmapView;
class JobTracker;
class RotationControls;
class RotationView;
class ScenarioModel;
class Settings;
class SpectrumView;
class ViewTimings;
class WindowStatus;

// The view widgets and the docks that hold them (one per ViewKind, in kAllViewKinds' order).
struct ViewWidgets {
    HeatmapView* heatmap = nullptr;
    CurveView* curves = nullptr;
    RotationView* rotation = nullptr;
    RotationControls* rotationControls = nullptr;
    SpectrumView* spectrum = nullptr;
    std::array<QDockWidget*, kViewKindCount> docks{};
};

class ViewController : public QObject
{
    Q_OBJECT
public:
    ViewController(ScenarioModel* model, JobTracker* jobs, Settings* settings, WindowStatus* status,
                   const ViewWidgets& views, QObject* parent = nullptr);
    ~ViewController() override;

    ScenarioModel* model() const { return m_model; }
    JobTracker* jobs() const { return m_jobs; }
    const ViewWidgets& widgets() const { return m_views; }
    QDockWidget* dock(ViewKind kind) const { return m_views.docks[static_cast<std::size_t>(kind)]; }

    const ViewSettings& settings() const { return m_settings; }
    // Replaces the settings as they are, computing nothing (the window's saved state, read before its
    // first scenario is shown).
    void restoreSettings(const ViewSettings& settings) { m_settings = settings; }
    // Replaces the settings (normalised for the scenario: never a kind the method lacks nor a window
    // outside the matrix), emits settingsChanged, then recomputes `kind`, or every view (nullopt).
    void setSettings(const ViewSettings& settings, std::optional<ViewKind> kind = std::nullopt);
    // The heatmap colours the visible window or the whole matrix: its data has both scales, so no recompute.
    void setFitColorsToView(bool on) { m_settings.fit_colors_to_view = on; }
    // After a scenario change: the settings follow it (a kind the method lacks dropped, the zoom window
    // reset when the method or the length changed, the rotation slider's range). Returns true when the
    // method changed (the window rebuilds its matrix kind menu). Computes nothing: requestAllViews does.
    bool followScenario();
    // The restored rotation positions within the slider's range (after followScenario set it).
    void clampRotationPositions();

    // Whether `kind` is computed: shown on screen, or every view with setComputeHidden(true).
    bool isEnabled(ViewKind kind) const { return m_enabled[static_cast<std::size_t>(kind)]; }
    void setComputeHidden(bool on);
    // Recomputes which views are on screen (a dock shown, hidden or tabbed), and the heatmap's pixel size.
    void updateEnabled();
    // Submits `kind` with the current scenario and settings (when enabled), or every view.
    void requestView(ViewKind kind);
    void requestAllViews();

    // View > Show Timings (persisted in the settings): the label beside the status bar's other widgets.
    void setShowTimings(bool on);
    bool showTimings() const { return m_showTimings; }
    ViewTimings* timings() const { return m_timings; }
    QLabel* timingsLabel() const { return m_timingsLabel; }

signals:
    // The settings changed (the window's title and explanations follow), before the views recompute.
    void settingsChanged();
    void showTimingsChanged(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void setEnabled(ViewKind kind, bool enabled);
    void showResult(const ViewResult& result);
    void updateHeatmapPixelSize();
    void updateTimingsLabel();
    void connectViews();

    ScenarioModel* m_model;
    JobTracker* m_jobs;
    Settings* m_store;
    WindowStatus* m_status;
    ViewWidgets m_views;
    ViewSettings m_settings;
    std::array<bool, kViewKindCount> m_enabled{true, true, true, true};
    bool m_computeHidden = false;
    bool m_showTimings = false;
    ViewTimings* m_timings = nullptr;
    QPointer<QLabel> m_timingsLabel; // placed in the status bar by the window
    // Scenario fields that invalidate the heatmap's zoom window when they change.
    Method m_lastMethod = Scenario{}.method;
    std::int64_t m_lastSeqLen = 0;
};

} // namespace posatlas::ui
