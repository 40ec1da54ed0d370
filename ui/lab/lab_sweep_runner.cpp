// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/lab_sweep_runner.h"

#include "io/safe_write.h"
#include "lab/lab_messages.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <csignal>
#include <filesystem>

namespace posatlas::ui {

namespace {

struct LabRunnerText {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::LabSweepRunner)
};

} // namespace

std::string lab_messages_catalogue()
{
    QJsonObject j;
    for (const auto& [context, source] : lab::kLabMessages) {
        const QString t = QCoreApplication::translate(context, source);
        if (t != QLatin1String(source))
            j.insert(QLatin1String(context) + QChar(4) + QLatin1String(source), t);
    }
    return QJsonDocument(j).toJson(QJsonDocument::Compact).toStdString();
}

LabSweepRunner::LabSweepRunner(QObject* parent) : QObject(parent) {}

LabSweepRunner::~LabSweepRunner()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->disconnect(this);
        ::kill(static_cast<pid_t>(m_process->processId()), SIGINT);
        if (!m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
}

qint64 LabSweepRunner::childPid() const
{
    return m_process && m_process->state() != QProcess::NotRunning ? m_process->processId() : 0;
}

QString LabSweepRunner::method() const
{
    return QString::fromStdString(
        m_plan.table.methods[static_cast<std::size_t>(m_index / m_plan.table.seeds)]);
}

int LabSweepRunner::seed() const
{
    return m_index % m_plan.table.seeds;
}

QString LabSweepRunner::folder() const
{
    return QString::fromStdString(
        lab::sweep_run_folder(m_plan.dir.toStdString(), method().toStdString(), seed()));
}

void LabSweepRunner::start(const LabSweepPlan& plan)
{
    if (m_running)
        return;
    m_plan = plan;
    m_plan.table.rows.clear();
    m_index = 0;
    m_cancelled = false;
    m_running = true;
    emit tableChanged();
    startRun();
}

void LabSweepRunner::cancel()
{
    if (!m_running)
        return;
    m_cancelled = true;
    if (const qint64 pid = childPid(); pid > 0)
        ::kill(static_cast<pid_t>(pid), SIGINT); // training: stops at its next step, checkpoint kept
    else
        end(Outcome::Cancelled, LabRunnerText::tr("Cancelled."));
}

void LabSweepRunner::startRun()
{
    if (m_index >= runCount()) {
        try {
            const std::filesystem::path dir(m_plan.dir.toStdString());
            write_file_atomically((dir / "sweep.csv").string(), lab::sweep_csv(m_plan.table));
            write_file_atomically((dir / "sweep.json").string(), lab::sweep_json(m_plan.table));
        } catch (const std::exception& e) {
            end(Outcome::Failed, QString::fromUtf8(e.what()));
            return;
        }
        end(Outcome::Complete, {});
        return;
    }
    const QString run = folder();
    if (lab::sweep_run_complete(run.toStdString())) {
        emit runStarted(m_index, runCount(), method(), seed(), true);
        startEval();
        return;
    }
    emit runStarted(m_index, runCount(), method(), seed(), false);
    // A run stopped before its end is trained again from the start (as `posatlas lab sweep` does).
    std::error_code ec;
    std::filesystem::remove_all(run.toStdString(), ec);
    QDir().mkpath(QFileInfo(run).absolutePath());
    m_phase = Phase::Train;
    QStringList args{QStringLiteral("train"), QStringLiteral("--method"), method(), QStringLiteral("--seed"),
                     QString::number(seed()), QStringLiteral("--out"),    run};
    args += m_plan.training;
    args += {QStringLiteral("--progress"), QStringLiteral("jsonl")};
    launch(args);
}

void LabSweepRunner::startEval()
{
    emit evaluating(m_index, runCount(), method(), seed());
    m_phase = Phase::Eval;
    QStringList lengths;
    for (const std::int64_t l : m_plan.table.lengths)
        lengths << QString::number(l);
    QStringList args{QStringLiteral("eval"),        folder(),
                     QStringLiteral("--lengths"),   lengths.join(u','),
                     QStringLiteral("--sequences"), QString::number(m_plan.sequences),
                     QStringLiteral("--format"),    QStringLiteral("json"),
                     QStringLiteral("--quiet")};
    if (method() == QLatin1String("rope") && m_plan.table.rope_type != "default")
        args += {QStringLiteral("--rope-type"), QString::fromStdString(m_plan.table.rope_type),
                 QStringLiteral("--factor"), QString::number(m_plan.table.factor, 'g', 17)};
    launch(args);
}

void LabSweepRunner::launch(const QStringList& args)
{
    if (m_cancelled) {
        end(Outcome::Cancelled, LabRunnerText::tr("Cancelled."));
        return;
    }
    if (m_process) { // possibly the sender of the finished() being handled: deleted once it returns
        m_process->disconnect(this);
        m_process->deleteLater();
    }
    m_process = new QProcess(this);
    m_errBuffer.clear();
    m_errText.clear();
    connect(m_process, &QProcess::readyReadStandardError, this, &LabSweepRunner::onStandardError);
    connect(m_process, &QProcess::finished, this, &LabSweepRunner::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &LabSweepRunner::onError);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QLatin1String(lab::kLabMessagesVariable), QString::fromStdString(lab_messages_catalogue()));
    m_process->setProcessEnvironment(env);
    m_process->start(m_plan.lab, args);
}

void LabSweepRunner::onStandardError()
{
    m_errBuffer += m_process->readAllStandardError();
    for (qsizetype nl; (nl = m_errBuffer.indexOf('\n')) >= 0;) {
        const QByteArray line = m_errBuffer.left(nl);
        m_errBuffer.remove(0, nl + 1);
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (doc.isObject() && doc.object().contains(QLatin1String("step"))) {
            const QJsonObject o = doc.object();
            emit trainingProgress(
                o.value(QLatin1String("step")).toInt(), o.value(QLatin1String("steps")).toInt(),
                o.value(QLatin1String("loss")).toDouble(), o.value(QLatin1String("accuracy")).toDouble(),
                o.value(QLatin1String("seconds_left")).toDouble());
        } else {
            m_errText += QString::fromUtf8(line) + u'\n';
        }
    }
}

void LabSweepRunner::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_running)
        return;
    onStandardError();
    m_errText += QString::fromUtf8(m_errBuffer);
    if (m_cancelled) {
        end(Outcome::Cancelled,
            m_phase == Phase::Train
                ? LabRunnerText::tr("Cancelled; %1 keeps its last checkpoint. Run again to "
                                    "resume: complete runs are reused.")
                      .arg(folder())
                : LabRunnerText::tr("Cancelled."));
        return;
    }
    if (status != QProcess::NormalExit || exitCode != 0) {
        end(Outcome::Failed, LabRunnerText::tr("posatlas-lab stopped with status %1: %2")
                                 .arg(status == QProcess::NormalExit ? exitCode : -1)
                                 .arg(m_errText.trimmed()));
        return;
    }
    if (m_phase == Phase::Train) {
        startEval();
        return;
    }
    try {
        const std::vector<lab::SweepRow> rows = lab::sweep_rows_from_eval(
            method().toStdString(), seed(), m_process->readAllStandardOutput().toStdString());
        m_plan.table.rows.insert(m_plan.table.rows.end(), rows.begin(), rows.end());
    } catch (const std::exception& e) {
        end(Outcome::Failed, QString::fromUtf8(e.what()));
        return;
    }
    emit tableChanged();
    ++m_index;
    startRun();
}

void LabSweepRunner::onError(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart && m_running)
        end(Outcome::Failed,
            LabRunnerText::tr("cannot start %1: %2").arg(m_plan.lab, m_process->errorString()));
}

void LabSweepRunner::end(Outcome outcome, const QString& message)
{
    if (!m_running)
        return;
    m_running = false;
    emit finished(outcome, message);
}

} // namespace posatlas::ui
