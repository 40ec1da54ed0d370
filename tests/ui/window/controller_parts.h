// SPDX-License-Identifier: GPL-3.0-or-later
// The parts the main window's controllers are built from, without a MainWindow: a plain QMainWindow
// with the four views in docks, a scenario model, a job tracker, settings in a temporary folder, a
// status line and a notice area. Tests of one controller build it on these, which shows that it needs
// nothing else of the window.
#pragma once

#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "model/session.h"
#include "model/settings.h"
#include "views/curve_view.h"
#include "views/heatmap_view.h"
#include "views/rotation_view.h"
#include "views/spectrum_view.h"
#include "widgets/notice_area.h"
#include "window/session_actions.h"
#include "window/view_controller.h"
#include "window/window_status.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <memory>

namespace posatlas::test {

struct ControllerParts {
    // `settingsDir`: where the settings file goes (a fresh temporary folder when empty).
    explicit ControllerParts(const QString& settingsDir = {})
    {
        const QString dir = settingsDir.isEmpty() ? m_dir.path() : settingsDir;
        settings = std::make_unique<ui::Settings>(dir + QStringLiteral("/settings.ini"));
        model = new ui::ScenarioModel(&window);
        jobs = new ui::JobTracker(&window);
        status = new ui::WindowStatus(window.statusBar(), &window);
        notices = new ui::NoticeArea;
        window.setCentralWidget(notices);
        views.heatmap = new ui::HeatmapView;
        views.curves = new ui::CurveView;
        views.rotation = new ui::RotationView;
        views.rotationControls = new ui::RotationControls;
        views.spectrum = new ui::SpectrumView;
        auto* rotationBox = new QWidget;
        auto* layout = new QVBoxLayout(rotationBox);
        layout->addWidget(views.rotation, 1);
        layout->addWidget(views.rotationControls);
        const std::pair<ui::ViewKind, QWidget*> contents[] = {{ui::ViewKind::Heatmap, views.heatmap},
                                                              {ui::ViewKind::Curves, views.curves},
                                                              {ui::ViewKind::Rotation, rotationBox},
                                                              {ui::ViewKind::Spectrum, views.spectrum}};
        for (const auto& [kind, content] : contents) {
            auto* dock = new QDockWidget(ui::view_kind_id(kind), &window);
            dock->setObjectName(ui::view_kind_id(kind));
            dock->setWidget(content);
            window.addDockWidget(Qt::RightDockWidgetArea, dock);
            views.docks[static_cast<std::size_t>(kind)] = dock;
        }
        viewController = new ui::ViewController(model, jobs, settings.get(), status, views, &window);
        sessions = new ui::SessionActions(viewController, settings.get(), status, notices, &window);
    }
    ~ControllerParts()
    {
        // As ~MainWindow: the docks' last visibility changes and the heatmap's events reach nobody.
        for (QDockWidget* d : views.docks)
            QObject::disconnect(d, nullptr, viewController, nullptr);
        views.heatmap->removeEventFilter(viewController);
    }

    QDockWidget* dock(ui::ViewKind kind) const { return views.docks[static_cast<std::size_t>(kind)]; }

    QTemporaryDir m_dir;
    QMainWindow window;
    std::unique_ptr<ui::Settings> settings;
    ui::ScenarioModel* model = nullptr;
    ui::JobTracker* jobs = nullptr;
    ui::WindowStatus* status = nullptr;
    ui::NoticeArea* notices = nullptr;
    ui::ViewWidgets views;
    ui::ViewController* viewController = nullptr;
    ui::SessionActions* sessions = nullptr;
};

} // namespace posatlas::test
