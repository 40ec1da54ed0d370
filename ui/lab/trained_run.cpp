// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/trained_run.h"

#include "lab/lab_messages.h"
#include "lab/lab_sweep.h"
#include "lab/lab_sweep_runner.h"
#include "model/parameter_message.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <vector>

namespace posatlas::ui {

namespace {

struct TrainedRunText {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::TrainedRunProbe)
};

QString s(const std::string& t)
{
    return QString::fromStdString(t);
}

// What posatlas-lab wrote on standard error, without the program's name in front of each line.
QString childMessage(const QByteArray& err)
{
    QStringList lines;
    for (QString line : QString::fromUtf8(err).split(u'\n', Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1String("posatlas: ")))
            line.remove(0, 10);
        lines << line;
    }
    return lines.join(u'\n');
}

} // namespace

QString trained_run_label(const lab::LabConfig& c)
{
    return TrainedRunText::tr("%1/%2 seed %3").arg(s(c.task), s(c.method)).arg(c.seed);
}

QList<ShippedRunEntry> shipped_run_entries()
{
    QList<ShippedRunEntry> list;
    for (const lab::ShippedRun& r : lab::shipped_runs(lab::find_shipped_runs_dir()))
        list.push_back(
            {TrainedRunText::tr("%1/%2 seed %3").arg(s(r.task), s(r.method)).arg(r.seed), s(r.dir)});
    return list;
}

std::optional<lab::RunInfo> check_trained_run(const TrainedRunRequest& r, QString* error)
{
    const auto refuse = [&](const QString& message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (r.run.isEmpty())
        return refuse(
            TrainedRunText::tr("Choose a run folder: one written by lab train, lab sweep or the Lab "
                               "window (config.json and model.safetensors)."));
    lab::RunInfo info;
    try {
        info = lab::read_run_config(r.run.toStdString());
    } catch (const std::exception& e) {
        return refuse(QString::fromUtf8(e.what()));
    }
    const lab::LabConfig& c = info.config;
    if (r.length < 2)
        return refuse(TrainedRunText::tr("Example length must be at least 2 (got %1).").arg(r.length));
    if (c.method == "learned" && r.length > c.learned_rows())
        return refuse(TrainedRunText::tr("Example length must be at most %1 for this run: its learned table "
                                         "has %1 rows (got %2).")
                          .arg(c.learned_rows())
                          .arg(r.length));
    const std::int64_t largest = lab::probe_max_length(c.heads);
    if (r.length > largest)
        return refuse(
            TrainedRunText::tr("Example length must be at most %1 for a model with %2 heads: the "
                               "lab's memory budget of %3 GiB, as for --length of lab probe (got %4).")
                .arg(largest)
                .arg(c.heads)
                .arg(static_cast<int>(lab::kLabMemoryBudget / (1 << 30)))
                .arg(r.length));
    if (r.layer < 0 || r.layer >= c.layers)
        return refuse(
            TrainedRunText::tr("Layer must be an integer from 0 to %1: the run has %2 layers (got %3).")
                .arg(c.layers - 1)
                .arg(c.layers)
                .arg(r.layer));
    if (r.head < 0 || r.head >= c.heads)
        return refuse(
            TrainedRunText::tr("Head must be an integer from 0 to %1: the run has %2 heads (got %3).")
                .arg(c.heads - 1)
                .arg(c.heads)
                .arg(r.head));
    try { // anything else the command line checks (the same function)
        lab::ProbeRequest p;
        p.length = r.length;
        p.layer = r.layer;
        p.seed = r.seed;
        lab::check_probe(info, p, "");
    } catch (const ParameterError& e) {
        return refuse(
            TrainedRunText::tr("%1 must be %2 (got %3).")
                .arg(QStringLiteral("--") + s(e.parameter()), allowedText(e.allowed()), s(e.got())));
    } catch (const std::exception& e) {
        return refuse(QString::fromUtf8(e.what()));
    }
    return info;
}

qint64 trim_probe_cache(const QString& dir, qint64 limit, const QString& keep)
{
    struct Entry {
        QString path;
        QDateTime used;
        qint64 bytes = 0;
    };
    std::vector<Entry> entries;
    const QString kept = keep.isEmpty() ? QString() : QFileInfo(keep).absoluteFilePath();
    for (const QFileInfo& folder : QDir(dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (folder.fileName().contains(QLatin1String(".partial-")))
            continue;
        Entry e{folder.absoluteFilePath(), folder.lastModified(), 0};
        const QFileInfo stamp(QDir(e.path).filePath(QStringLiteral("used")));
        if (stamp.exists())
            e.used = stamp.lastModified();
        QDirIterator it(e.path, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            e.bytes += it.fileInfo().size();
        }
        entries.push_back(e);
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used > b.used; });
    qint64 total = 0;
    for (const Entry& e : entries)
        total += e.bytes;
    for (auto it = entries.rbegin(); it != entries.rend() && total > limit; ++it)
        if (it->path != kept && QDir(it->path).removeRecursively())
            total -= it->bytes;
    return total;
}

void mark_probe_used(const QString& folder)
{
    QFile stamp(QDir(folder).filePath(QStringLiteral("used")));
    if (stamp.open(QIODevice::WriteOnly | QIODevice::Truncate))
        stamp.close(); // its modification time is the probe's last use
}

TrainedRunProbe::TrainedRunProbe(QObject* parent) : QObject(parent), m_cacheDir(defaultCacheDir())
{
    m_lab = s(lab::find_lab_executable());
}

TrainedRunProbe::~TrainedRunProbe()
{
    stopChild();
}

QString TrainedRunProbe::defaultCacheDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/lab/probes");
}

QString TrainedRunProbe::folderFor(const TrainedRunRequest& r) const
{
    // The run's files as they are now (a run trained again at the same path is a new key), and the
    // request but its head: one probe holds every head of its layer.
    QCryptographicHash h(QCryptographicHash::Sha256);
    const QString dir = QFileInfo(r.run).absoluteFilePath();
    h.addData(dir.toUtf8());
    QFile config(QDir(dir).filePath(QStringLiteral("config.json")));
    if (config.open(QIODevice::ReadOnly))
        h.addData(config.read(1 << 20));
    const QFileInfo weights(QDir(dir).filePath(QStringLiteral("model.safetensors")));
    h.addData(QStringLiteral("|%1|%2|%3|%4|%5")
                  .arg(weights.size())
                  .arg(weights.lastModified().toMSecsSinceEpoch())
                  .arg(r.length)
                  .arg(r.layer)
                  .arg(r.seed)
                  .toUtf8());
    return QDir(m_cacheDir).filePath(QString::fromLatin1(h.result().toHex().left(32)));
}

bool TrainedRunProbe::cached(const TrainedRunRequest& r) const
{
    return QFileInfo::exists(
        QDir(folderFor(r)).filePath(QStringLiteral("head-%1.posatlas.json").arg(r.head)));
}

qint64 TrainedRunProbe::childPid() const
{
    return m_process && m_process->state() != QProcess::NotRunning ? m_process->processId() : 0;
}

void TrainedRunProbe::stopChild()
{
    if (!m_process)
        return;
    QProcess* p = m_process;
    m_process = nullptr;
    p->disconnect(this);
    if (p->state() != QProcess::NotRunning) {
        p->kill(); // a probe keeps nothing worth a clean stop: its partial folder is removed
        p->waitForFinished(3000);
    }
    p->deleteLater();
    if (!m_partial.isEmpty())
        QDir(m_partial).removeRecursively();
    m_partial.clear();
}

bool TrainedRunProbe::request(const TrainedRunRequest& r, QString* error)
{
    if (!check_trained_run(r, error))
        return false;
    if (cached(r)) {
        if (m_process) { // the newest request wins over a probe still running
            const TrainedRunRequest old = m_current;
            stopChild();
            emit cancelled(old);
        }
        m_current = r;
        const QString folder = folderFor(r);
        mark_probe_used(folder);
        QTimer::singleShot(0, this, [this, r, folder] { emit ready(r, folder); });
        return true;
    }
    if (m_lab.isEmpty() || !QFileInfo(m_lab).isExecutable()) {
        if (error)
            *error =
                TrainedRunText::tr("The lab is not installed: posatlas-lab was found neither beside posatlas "
                                   "nor in its libexec folder, so a trained run cannot be probed.");
        return false;
    }
    if (m_process) {
        const TrainedRunRequest old = m_current;
        stopChild();
        emit cancelled(old);
    }
    m_current = r;
    QDir().mkpath(m_cacheDir);
    m_partial = folderFor(r) +
                QStringLiteral(".partial-%1-%2").arg(QCoreApplication::applicationPid()).arg(++m_serial);
    QDir(m_partial).removeRecursively();
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, &TrainedRunProbe::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || !m_process)
            return;
        const TrainedRunRequest failedRequest = m_current;
        const QString message =
            TrainedRunText::tr("cannot start %1: %2").arg(m_lab, m_process->errorString());
        stopChild();
        emit failed(failedRequest, message);
    });
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QLatin1String(lab::kLabMessagesVariable), s(lab_messages_catalogue()));
    m_process->setProcessEnvironment(env);
    m_process->start(m_lab, {QStringLiteral("probe"), r.run, QStringLiteral("--length"),
                             QString::number(r.length), QStringLiteral("--layer"), QString::number(r.layer),
                             QStringLiteral("--seed"), QString::number(r.seed), QStringLiteral("--out"),
                             m_partial, QStringLiteral("--quiet")});
    emit started(r);
    return true;
}

void TrainedRunProbe::cancel()
{
    if (!m_process)
        return;
    const TrainedRunRequest old = m_current;
    stopChild();
    emit cancelled(old);
}

void TrainedRunProbe::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    const TrainedRunRequest r = m_current;
    const QByteArray err = m_process->readAllStandardError();
    if (status != QProcess::NormalExit || exitCode != 0) {
        stopChild();
        const QString text = childMessage(err);
        emit failed(r, text.isEmpty() ? TrainedRunText::tr("posatlas-lab stopped with status %1.")
                                            .arg(status == QProcess::NormalExit ? exitCode : -1)
                                      : text);
        return;
    }
    m_process->deleteLater();
    m_process = nullptr;
    const QString folder = folderFor(r);
    QDir(folder).removeRecursively(); // an older copy of the same key (a crash between write and rename)
    if (!QDir().rename(m_partial, folder)) {
        QDir(m_partial).removeRecursively();
        m_partial.clear();
        emit failed(r, TrainedRunText::tr("cannot write %1").arg(folder));
        return;
    }
    m_partial.clear();
    mark_probe_used(folder);
    trim_probe_cache(m_cacheDir, m_cacheLimit, folder);
    emit ready(r, folder);
}

} // namespace posatlas::ui
