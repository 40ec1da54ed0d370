// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's public methods that belong to a controller: each one hands the call to the controller
// that owns the state (main_window.h lists them).
#include "window/import_controller.h"
#include "window/lesson_controller.h"
#include "window/main_window.h"
#include "window/view_controller.h"
#include "window/window_status.h"

namespace posatlas::ui {

// ---------------------------------------------------------------- views and jobs

const ViewSettings& MainWindow::viewSettings() const
{
    return m_views->settings();
}

void MainWindow::setViewSettings(const ViewSettings& settings, std::optional<ViewKind> kind)
{
    m_views->setSettings(settings, kind);
}

void MainWindow::setShowTimings(bool on)
{
    m_views->setShowTimings(on);
}

bool MainWindow::showTimings() const
{
    return m_views->showTimings();
}

ViewTimings* MainWindow::viewTimings() const
{
    return m_views->timings();
}

QLabel* MainWindow::timingsLabel() const
{
    return m_views->timingsLabel();
}

QString MainWindow::statusMessage() const
{
    return m_status->lastMessage();
}

// ---------------------------------------------------------------- import and weights

bool MainWindow::openConfig(const QString& path)
{
    return m_import->openConfig(path);
}

bool MainWindow::openFile(const QString& path)
{
    return m_import->openFile(path);
}

bool MainWindow::openCachedModel(const QString& ref)
{
    return m_import->openCachedModel(ref);
}

void MainWindow::openModelDialog()
{
    m_import->openModelDialog();
}

void MainWindow::openWeightsDialog(const QString& path)
{
    m_import->openWeightsDialog(path);
}

bool MainWindow::useWeights(const QString& path, const QString& tensor, const QString& target)
{
    return m_import->useWeights(path, tensor, target);
}

bool MainWindow::loadPreset(const QString& id)
{
    return m_import->loadPreset(id);
}

QString MainWindow::importReportText() const
{
    return m_import->reportText();
}

// ---------------------------------------------------------------- lessons

bool MainWindow::openLesson(const QString& path)
{
    return m_lessons->openLesson(path);
}

void MainWindow::openLessonDialog()
{
    m_lessons->openLessonDialog();
}

void MainWindow::showCourse()
{
    m_lessons->showCourse();
}

bool MainWindow::showStartPageOnce()
{
    return m_lessons->showStartPageOnce();
}

bool MainWindow::goToLessonStep(int index)
{
    return m_lessons->goToLessonStep(index);
}

void MainWindow::closeLesson()
{
    m_lessons->closeLesson();
}

const Lesson* MainWindow::currentLesson() const
{
    return m_lessons->currentLesson();
}

int MainWindow::currentLessonStep() const
{
    return m_lessons->currentLessonStep();
}

// ---------------------------------------------------------------- autosave and recovery

Autosave* MainWindow::autosave() const
{
    return m_autosave->autosave();
}

QByteArray MainWindow::autosaveSnapshot() const
{
    return m_autosave->snapshot();
}

void MainWindow::setRecoveryPrompt(RecoveryPrompt prompt)
{
    m_autosave->setRecoveryPrompt(std::move(prompt));
}

bool MainWindow::offerRecovery()
{
    return m_autosave->offerRecovery();
}

void MainWindow::replaceRecoveryFile(const QString& missing, const QString& replacement)
{
    m_autosave->replaceRecoveryFile(missing, replacement);
}

void MainWindow::retryAutosave()
{
    m_autosave->retry();
}

} // namespace posatlas::ui
