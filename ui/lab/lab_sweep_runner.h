// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a lab sweep (lab/lab_sweep.h) through posatlas-lab child processes (QProcess, asynchronous: the GUI
// thread never waits), one process at a time: for each (method, seed) `posatlas-lab train ... --progress
// jsonl` unless the run folder already holds a complete run (reused, so a cancelled sweep resumes), then
// `posatlas-lab eval --format json`, whose rows join the table as each evaluation finishes. At the end the
// table is written as sweep.csv and sweep.json, the files `posatlas lab sweep` writes. cancel() sends the
// child SIGINT: a training stops at its next step and keeps its last checkpoint (status cancelled).
// LibTorch is never loaded into this process (docs/lab.md, "Two processes").
#pragma once

#include "lab/lab_sweep.h"

#include <string>

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace posatlas::ui {

// The texts posatlas-lab prints (lab/lab_messages.h) in this process's language: the JSON object posatlas-lab
// reads from the environment variable lab::kLabMessagesVariable. `posatlas lab` hands it over too.
std::string lab_messages_catalogue();

struct LabSweepPlan {
    QString lab;           // posatlas-lab
    QString dir;           // the sweep's folder
    lab::SweepTable table; // task, train_len, methods, seeds, lengths, RoPE scaling; no rows
    QStringList training;  // the options every run's `train` gets but --method, --seed and --out
    int sequences = 256;   // test sequences per length
};

class LabSweepRunner : public QObject
{
    Q_OBJECT
public:
    enum class Outcome { Complete, Cancelled, Failed };

    explicit LabSweepRunner(QObject* parent = nullptr);
    // A child still running is sent SIGINT and waited for (a few seconds), then killed.
    ~LabSweepRunner() override;

    void start(const LabSweepPlan& plan);
    void cancel();
    bool running() const { return m_running; }
    const lab::SweepTable& table() const { return m_plan.table; }
    const LabSweepPlan& plan() const { return m_plan; }
    int runCount() const { return static_cast<int>(m_plan.table.methods.size()) * m_plan.table.seeds; }
    // The process id of the child running now, 0 when none.
    qint64 childPid() const;

signals:
    // Run `index` (0-based) of `count` begins: trained, or reused when its folder holds a complete run.
    void runStarted(int index, int count, const QString& method, int seed, bool reused);
    void evaluating(int index, int count, const QString& method, int seed);
    void trainingProgress(int step, int steps, double loss, double accuracy, double secondsLeft);
    // Rows were added to table().
    void tableChanged();
    // The sweep ended; `message` says why when it did not complete.
    void finished(posatlas::ui::LabSweepRunner::Outcome outcome, const QString& message);

private:
    enum class Phase { Train, Eval };
    void startRun();
    void startEval();
    void launch(const QStringList& args);
    void onStandardError();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void end(Outcome outcome, const QString& message);
    QString folder() const;
    QString method() const;
    int seed() const;

    LabSweepPlan m_plan;
    QProcess* m_process = nullptr;
    Phase m_phase = Phase::Train;
    int m_index = 0;
    bool m_running = false;
    bool m_cancelled = false;
    QByteArray m_errBuffer; // standard error not yet split into lines
    QString m_errText;      // standard error that is not progress (the child's messages)
};

} // namespace posatlas::ui
