// SPDX-License-Identifier: GPL-3.0-or-later
// A trained lab run opened in the main window (File > Open Trained Run…, the Lab window's "Open in Main
// Window"): its real queries and keys on one example input of any length, through `posatlas-lab probe`
// (lab.h write_probe) in a child process, so that LibTorch never enters this process and the GUI thread
// never waits. The probe of one (run, length, layer, seed) holds every head of that layer
// (head-H.posatlas.json beside probe.safetensors); it is kept in a cache folder keyed by the run's files and
// the request, so that another head, or a request made before, opens at once without running the model again.
#pragma once

#include "lab/lab.h"

#include <QObject>
#include <QProcess>
#include <QString>

#include <cstdint>
#include <optional>

namespace posatlas::ui {

struct TrainedRunRequest {
    QString run; // the run folder (config.json, model.safetensors)
    std::int64_t length = 128;
    int layer = 0, head = 0;
    std::uint64_t seed = 1000003; // lab eval's test seed: the example is one of its test sequences
    bool operator==(const TrainedRunRequest&) const = default;
};

// "copy/rope seed 0": the run's task, method and training seed.
QString trained_run_label(const lab::LabConfig& c);
// The shipped runs (lab_sweep.h shipped_runs of find_shipped_runs_dir): label and folder.
struct ShippedRunEntry {
    QString label, dir;
};
QList<ShippedRunEntry> shipped_run_entries();

// The request checked in this process, LibTorch-free: the run's config.json read as the command line
// reads it (LabRunError naming the file), then the example length (at least 2; at most the learned table's
// rows; at most probe_max_length for the run's heads, the limit of `lab probe --length`), the layer and the
// head. nullopt and the translated refusal in `error` when refused.
std::optional<lab::RunInfo> check_trained_run(const TrainedRunRequest& r, QString* error);

// The probe cache's bound: at most `limit` bytes of probes under `dir`, the least recently used removed
// first (a probe's use is the time of its "used" file, else of its folder); `keep` (a probe's folder, the
// one on screen) always stays. Partial folders of running probes are left alone. Returns the bytes left.
inline constexpr qint64 kProbeCacheBytes = qint64(1) << 30;
qint64 trim_probe_cache(const QString& dir, qint64 limit, const QString& keep);
// Marks a probe's folder as just used (trim_probe_cache keeps the most recently used).
void mark_probe_used(const QString& folder);

class TrainedRunProbe : public QObject
{
    Q_OBJECT
public:
    explicit TrainedRunProbe(QObject* parent = nullptr);
    // A child still running is killed (its partial folder is removed).
    ~TrainedRunProbe() override;

    void setLabExecutable(const QString& path) { m_lab = path; }
    QString labExecutable() const { return m_lab; }
    // Where probes are kept (default: <the user's data location>/lab/probes).
    void setCacheDir(const QString& dir) { m_cacheDir = dir; }
    void setCacheLimit(qint64 bytes) { m_cacheLimit = bytes; }
    QString cacheDir() const { return m_cacheDir; }
    static QString defaultCacheDir();

    // The folder that holds (or will hold) the probe of r's run, length, layer and seed (not its head).
    QString folderFor(const TrainedRunRequest& r) const;
    bool cached(const TrainedRunRequest& r) const;

    // Checks r (check_trained_run) and returns false with the refusal in `error` when refused: nothing
    // starts and a probe already running goes on. Otherwise a probe already in the cache is ready at once
    // (ready() is emitted from the event loop), else posatlas-lab probe starts; a probe still running for
    // an older request is killed first: the newest request wins.
    bool request(const TrainedRunRequest& r, QString* error);
    // Stops the running probe (nothing is kept); cancelled() follows.
    void cancel();
    bool running() const { return m_process != nullptr; }
    qint64 childPid() const;

signals:
    void started(const posatlas::ui::TrainedRunRequest& request);
    // The probe's folder holds head-H.posatlas.json for every head of the request's layer.
    void ready(const posatlas::ui::TrainedRunRequest& request, const QString& folder);
    // posatlas-lab refused or failed (a damaged model.safetensors is found there): its message.
    void failed(const posatlas::ui::TrainedRunRequest& request, const QString& message);
    void cancelled(const posatlas::ui::TrainedRunRequest& request);

private:
    void stopChild();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QString m_lab;
    QString m_cacheDir;
    qint64 m_cacheLimit = kProbeCacheBytes;
    QProcess* m_process = nullptr;
    TrainedRunRequest m_current;
    QString m_partial; // the folder the child writes into, renamed to folderFor() when it succeeds
    quint64 m_serial = 0;
};

} // namespace posatlas::ui
