// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/view_controller.h"

#include "analysis/rope_compare.h"
#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "model/settings.h"
#include "scenario/validation.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "window/view_timings.h"
#include "window/window_status.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QEvent>
#include <QLabel>

#include <cmath>
#include <type_traits>
#include <variant>

namespace posatlas::ui {

ViewController::ViewController(ScenarioModel* model, JobTracker* jobs, Settings* settings,
                               WindowStatus* status, const ViewWidgets& views, QObject* parent)
    : QObject(parent), m_model(model), m_jobs(jobs), m_store(settings), m_status(status), m_views(views)
{
    // A slider drag produces a steady trickle of recomputes rather than one per mouse event.
    m_jobs->setDebounceMs(35);
    connect(m_jobs, &JobTracker::jobFailed, this, [this](int kind, const QString& message) {
        if (kind < 0 || kind >= kViewKindCount)
            return; // another panel's slot on the same tracker (token layout, patch grid): it shows its own
                    // failure
        m_status->showError(QCoreApplication::translate("posatlas::ui::MainWindow", "%1: %2")
                                .arg(dock(static_cast<ViewKind>(kind))->windowTitle(), message));
    });
    // View > Show Timings: measured per view (view_timings.h), shown for the visible ones.
    m_timings = new ViewTimings(m_jobs, this);
    m_timings->watch(ViewKind::Heatmap, m_views.heatmap);
    m_timings->watch(ViewKind::Curves, m_views.curves);
    m_timings->watch(ViewKind::Rotation, m_views.rotation);
    m_timings->watch(ViewKind::Spectrum, m_views.spectrum);
    m_timingsLabel = new QLabel;
    m_timingsLabel->setObjectName(QStringLiteral("timingsLabel"));
    m_timingsLabel->setTextFormat(Qt::PlainText);
    m_timingsLabel->hide();
    connect(m_timings, &ViewTimings::changed, this, &ViewController::updateTimingsLabel);
    connectViews();
}

ViewController::~ViewController()
{
    // The label belongs to whoever placed it (the status bar); one never placed is ours.
    if (m_timingsLabel && !m_timingsLabel->parent())
        delete m_timingsLabel;
}

void ViewController::connectViews()
{
    for (ViewKind k : kAllViewKinds)
        connect(dock(k), &QDockWidget::visibilityChanged, this, &ViewController::updateEnabled);
    m_views.heatmap->installEventFilter(this);
    connect(m_views.heatmap, &HeatmapView::viewportRequested, this,
            [this](std::int64_t row0, std::int64_t col0, std::int64_t rows, std::int64_t cols) {
                ViewSettings v = m_settings;
                v.row0 = row0;
                v.col0 = col0;
                v.rows = rows;
                v.cols = cols;
                setSettings(v, ViewKind::Heatmap);
            });
    connect(m_views.curves, &CurveView::logXChanged, this, [this](bool on) {
        m_store->setCurveLogX(on);
        ViewSettings v = m_settings;
        v.log_x = on;
        setSettings(v, ViewKind::Curves);
    });
    // The curves are decimated for the chart's plot area (ViewSettings::curve_plot_left / width): a new
    // area (a resized dock, other tick labels) gets curves for it; meanwhile the chart draws every point.
    connect(m_views.curves, &CurveView::plotAreaChanged, this, [this] {
        const QRectF px = m_views.curves->chart()->plotPixels();
        if (px.width() < 8)
            return;
        ViewSettings v = m_settings;
        if (std::abs(px.left() - v.curve_plot_left) <= 0.5 &&
            std::abs(px.width() - v.curve_plot_width) <= 0.5)
            return;
        v.curve_plot_left = px.left();
        v.curve_plot_width = px.width();
        setSettings(v, ViewKind::Curves);
    });
    connect(m_views.rotationControls, &RotationControls::positionChanged, this, [this](double m) {
        ViewSettings v = m_settings;
        v.query_position = m;
        setSettings(v, ViewKind::Rotation);
    });
    connect(m_views.rotationControls, &RotationControls::keyPositionChanged, this, [this](double n) {
        ViewSettings v = m_settings;
        v.key_position = n;
        setSettings(v, ViewKind::Rotation);
    });
    m_views.rotationControls->setPosition(m_settings.query_position);
    m_views.rotationControls->setKeyPosition(m_settings.key_position);
}

// ---------------------------------------------------------------- settings

void ViewController::setSettings(const ViewSettings& settings, std::optional<ViewKind> kind)
{
    // Never a kind the method lacks nor a window outside the matrix: what is kept here is what a
    // session saves and what an export computes.
    m_settings = normalized_view_settings(m_model->scenario(), settings);
    emit settingsChanged(); // the window's title; the heatmap's text follows its matrix kind
    if (kind)
        requestView(*kind);
    else
        requestAllViews();
}

bool ViewController::followScenario()
{
    const Scenario& s = m_model->scenario();
    // The settings follow the scenario: a matrix kind the new method lacks is dropped (its most
    // telling kind is shown), a window outside the new matrix is clamped into it.
    m_settings = normalized_view_settings(s, m_settings);
    // The zoom window belongs to the previous matrix shape.
    if (s.method != m_lastMethod || s.seq_len != m_lastSeqLen) {
        ViewSettings v = m_settings;
        v.row0 = v.col0 = v.rows = v.cols = 0;
        setSettings(v, ViewKind::Heatmap);
    }
    const bool methodChanged = s.method != m_lastMethod;
    m_lastMethod = s.method;
    m_lastSeqLen = s.seq_len;

    // The rotation slider covers the positions the model knows.
    const std::optional<RopeParams> rotary = rotary_params(s);
    const double maxPos = rotary
                              ? static_cast<double>(std::clamp<std::int64_t>(
                                    std::max(s.seq_len, rope_default_target_length(*rotary)), 16, kMaxSeqLen))
                              : static_cast<double>(s.seq_len);
    m_views.rotationControls->setRange(0.0, maxPos);
    return methodChanged;
}

void ViewController::clampRotationPositions()
{
    // After followScenario set the slider's range: m as the slider shows it.
    m_views.rotationControls->setPosition(m_settings.query_position);
    m_views.rotationControls->setKeyPosition(m_settings.key_position);
    m_settings.query_position = m_views.rotationControls->position();
    m_settings.key_position = m_views.rotationControls->keyPosition();
}

// ---------------------------------------------------------------- which views compute

void ViewController::setComputeHidden(bool on)
{
    m_computeHidden = on;
    updateEnabled();
}

void ViewController::updateEnabled()
{
    for (ViewKind k : kAllViewKinds) {
        QDockWidget* d = dock(k);
        // visibleRegion is empty for a dock tabbed away behind another one.
        const bool shown = d->isVisible() && !d->widget()->visibleRegion().isEmpty();
        setEnabled(k, m_computeHidden || shown);
    }
    updateHeatmapPixelSize();
}

void ViewController::setEnabled(ViewKind kind, bool enabled)
{
    bool& on = m_enabled[static_cast<std::size_t>(kind)];
    if (on == enabled)
        return;
    on = enabled;
    if (enabled)
        requestView(kind);
    else
        m_jobs->cancel(static_cast<int>(kind)); // nobody looks at it: stop waiting for it
}

void ViewController::updateHeatmapPixelSize()
{
    const QSize px = m_views.heatmap->heatmapPixelSize();
    if (px.width() < 8 || px.height() < 8)
        return;
    ViewSettings v = m_settings;
    const PanelChrome chrome = m_views.heatmap->heatmapPanelChrome();
    // Small changes (a one-pixel splitter nudge) are not worth a recompute: cells are scaled anyway. The
    // chrome changes with the data (captions appear, a second line): a pixel of it moves every panel.
    const auto same = [](double a, double b, double tolerance) { return std::abs(a - b) < tolerance; };
    if (same(px.width(), v.pixel_width, 16) && same(px.height(), v.pixel_height, 16) &&
        same(chrome.gap, v.panel_chrome.gap, 1) && same(chrome.tick_width, v.panel_chrome.tick_width, 1) &&
        same(chrome.tick_height, v.panel_chrome.tick_height, 1) &&
        same(chrome.caption_height, v.panel_chrome.caption_height, 1))
        return;
    v.pixel_width = px.width();
    v.pixel_height = px.height();
    v.panel_chrome = chrome;
    setSettings(v, ViewKind::Heatmap);
}

bool ViewController::eventFilter(QObject* watched, QEvent* event)
{
    // The font too: it sizes the titles and tick labels around the panels (presentation mode's text
    // size), so the panels' pixel size changes with it, and back when presenting ends.
    if (watched == m_views.heatmap && (event->type() == QEvent::Resize || event->type() == QEvent::Show ||
                                       event->type() == QEvent::FontChange))
        updateHeatmapPixelSize();
    return QObject::eventFilter(watched, event);
}

// ---------------------------------------------------------------- jobs

void ViewController::requestView(ViewKind kind)
{
    if (!isEnabled(kind))
        return;
    m_jobs->submit(
        static_cast<int>(kind),
        [kind, scenario = m_model->scenario(), settings = m_settings](const JobControl& job) {
            return run_view_job(kind, scenario, settings, job.cancel, job.progress);
        },
        [this](ViewResult&& result) { showResult(result); });
}

void ViewController::requestAllViews()
{
    for (ViewKind k : kAllViewKinds)
        requestView(k);
}

void ViewController::showResult(const ViewResult& result)
{
    std::visit(
        [this](const auto& data) {
            using T = std::decay_t<decltype(data)>;
            if constexpr (std::is_same_v<T, HeatmapData>) {
                m_views.heatmap->setData(data);
                updateHeatmapPixelSize(); // its panels' chrome, measured on the new data
            } else if constexpr (std::is_same_v<T, CurveData>)
                m_views.curves->setData(data);
            else if constexpr (std::is_same_v<T, RotationData>)
                m_views.rotation->setData(data);
            else
                m_views.spectrum->setData(data);
        },
        result);
}

// ---------------------------------------------------------------- timings

void ViewController::setShowTimings(bool on)
{
    m_store->setShowTimings(on);
    const bool changed = m_showTimings != on;
    m_showTimings = on;
    m_timingsLabel->setVisible(on);
    updateTimingsLabel();
    if (changed)
        emit showTimingsChanged(on);
}

void ViewController::updateTimingsLabel()
{
    if (!m_showTimings)
        return;
    std::vector<ViewKind> visible;
    std::array<QString, kViewKindCount> names;
    for (ViewKind k : kAllViewKinds) {
        names[static_cast<std::size_t>(k)] = dock(k)->windowTitle();
        // Views on screen only (a tabbed-away dock has an empty visible region).
        if (dock(k)->isVisible() && !dock(k)->widget()->visibleRegion().isEmpty())
            visible.push_back(k);
    }
    const QString text = m_timings->text(visible, names);
    m_timingsLabel->setText(text.isEmpty()
                                ? QCoreApplication::translate("posatlas::ui::MainWindow",
                                                              "timings: waiting for a view to compute")
                                : text);
}

} // namespace posatlas::ui
