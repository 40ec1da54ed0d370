// SPDX-License-Identifier: GPL-3.0-or-later
// The Lab window (Tools > Lab…): a sweep of the extrapolation lab (docs/lab.md) from the GUI. The user
// chooses the task, the encodings, the model size, the training length, steps and seeds, the evaluation
// lengths, a RoPE scaling applied at test time and the output folder; Run checks everything (the lab's own
// checks, lab/lab_sweep.h and lab::validate: a refusal names the field and what it allows, nothing starts)
// and runs the sweep through posatlas-lab child processes (lab_sweep_runner.h), one at a time, with its
// progress; Cancel stops the child with SIGINT, which keeps its last checkpoint, and a later Run resumes.
// The figure (lab_sweep_figure.h) fills in as each run's evaluation finishes and exports like every figure
// (PNG / SVG / PDF), the table as CSV / JSON (sweep.csv / sweep.json's bytes). Trained runs (the shipped
// ones and those of the output folder) open in the main window: "Open in Main Window…" asks it to (File >
// Open Trained Run…). Without posatlas-lab (a build without LibTorch) the window says so and Run stays
// disabled.
#pragma once

#include "lab/lab_sweep_figure.h"
#include "lab/lab_sweep_runner.h"

#include <QMainWindow>

#include <map>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSpinBox;

namespace posatlas::ui {

class CurveChart;
class CurveChartView;

class LabWindow : public QMainWindow
{
    Q_OBJECT
public:
    // Finds posatlas-lab as the command line does (lab_sweep.h find_lab_executable).
    explicit LabWindow(QWidget* parent = nullptr);
    ~LabWindow() override;

    // Uses `path` as posatlas-lab ("" or a path that is not an executable file: the lab is not installed).
    void setLabExecutable(const QString& path);
    QString labExecutable() const { return m_lab; }
    bool labInstalled() const { return !m_lab.isEmpty(); }

    // The sweep the fields describe, checked; nullopt with the message shown (statusText) when refused.
    std::optional<LabSweepPlan> plan();
    // Checks and starts the sweep (what Run does). False when refused or the lab is not installed.
    bool run();
    void cancel();
    bool isRunning() const { return m_runner->running(); }

    // Writes the figure (png, svg, pdf) or the table (csv, json) as the extension says. False and the reason
    // in the status on failure.
    bool exportFigure(const QString& path);
    bool exportTable(const QString& path);

    QString statusText() const;
    QString progressText() const;
    const LabSweepFigure& figure() const { return m_figure; }
    LabSweepRunner* runner() const { return m_runner; }
    CurveChart* chart() const { return m_chart; }

    QComboBox* taskCombo() const { return m_task; }
    QCheckBox* methodBox(const QString& method) const { return m_methods.at(method); }
    QComboBox* modelCombo() const { return m_model; }
    QSpinBox* trainLenSpin() const { return m_trainLen; }
    QSpinBox* stepsSpin() const { return m_steps; }
    QSpinBox* seedsSpin() const { return m_seeds; }
    QLineEdit* lengthsEdit() const { return m_lengths; }
    QComboBox* ropeScalingCombo() const { return m_ropeScaling; }
    QDoubleSpinBox* factorSpin() const { return m_factor; }
    QLineEdit* folderEdit() const { return m_folder; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* installedLabel() const { return m_installed; }
    // Trained runs: the shipped runs, then the complete runs of the output folder.
    QComboBox* trainedRunCombo() const { return m_trainedRuns; }
    QPushButton* openRunButton() const { return m_openRun; }
    // Lists the trained runs again (the output folder may hold new ones).
    void updateTrainedRuns();

signals:
    // "Open in Main Window…" on a selected run: the main window opens it (File > Open Trained Run…).
    void openRunRequested(const QString& run);

public:
    // The default output folder: <the user's data location>/lab/sweep-TASK-LENGTH-STEPS.
    static QString defaultFolder(const QString& task, int trainLen, int steps);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void restyle();
    QWidget* buildControls();
    void updateButtons();
    void updateDefaultFolder();
    void updateFigure();
    void showStatus(const QString& message, bool error = false);
    void onRunStarted(int index, int count, const QString& method, int seed, bool reused);
    void onProgress(int step, int steps, double loss, double accuracy, double secondsLeft);
    void onFinished(LabSweepRunner::Outcome outcome, const QString& message);
    QString fieldName(const std::string& option) const;
    QString errorColor() const;

    QString m_lab;
    LabSweepRunner* m_runner;
    LabSweepFigure m_figure{CurveData{}};
    CurveChart* m_chart = nullptr;
    CurveChartView* m_chartView = nullptr;
    QScrollArea* m_scroll = nullptr;
    QComboBox* m_task = nullptr;
    std::map<QString, QCheckBox*> m_methods;
    QComboBox* m_model = nullptr;
    QSpinBox* m_trainLen = nullptr;
    QSpinBox* m_steps = nullptr;
    QSpinBox* m_seeds = nullptr;
    QLineEdit* m_lengths = nullptr;
    QComboBox* m_ropeScaling = nullptr;
    QDoubleSpinBox* m_factor = nullptr;
    QLineEdit* m_folder = nullptr;
    QString m_autoFolder; // the folder last filled in by default (replaced while the user has not edited it)
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_installed = nullptr;
    QComboBox* m_trainedRuns = nullptr;
    QPushButton* m_openRun = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QString m_statusText; // as given (the label shows it with break opportunities in paths)
    bool m_statusError = false;
    int m_runIndex = 0, m_runCount = 0;
};

} // namespace posatlas::ui
