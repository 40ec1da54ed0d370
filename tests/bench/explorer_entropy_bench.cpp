// SPDX-License-Identifier: GPL-3.0-or-later
// Wall time of the context-extension explorer's entropy job (explorer_jobs.h compute_explorer_entropy) for
// the default comparison of Llama 3.1 8B (the preset the main window opens the explorer with: Llama 3
// (model), PI, YaRN, dynamic NTK; target 131072), offscreen:
//   cold: every variant computed (an empty cache), the job called directly on this thread;
//   edit: one variant edited in the window (YaRN's beta_fast set to a new value) and the time from the edit
//         to the delivered entropy result, the job then recomputing that variant only.
// Beside each wall time, the process's CPU time over the same span (all threads; on a loaded machine the
// wall time says more about the neighbours than about the job).
// Median of --reps runs (default 5) for each content (repeated token, random q, k).
//
// usage: QT_QPA_PLATFORM=offscreen explorer_entropy_bench [--reps N]
#include "explorer/explorer_window.h"

#include <sys/resource.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double cpu_ms()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
            static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3);
}

const char* content_name(EntropyContent c)
{
    return c == EntropyContent::RepeatedToken ? "repeated token" : "random q, k";
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    int reps = 5;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--reps") == 0)
            reps = std::max(1, std::stoi(argv[i + 1]));

    ExplorerWindow w;
    if (!w.loadPreset(QStringLiteral("llama-3.1-8b"))) {
        std::fprintf(stderr, "cannot load the llama-3.1-8b preset\n");
        return 1;
    }
    auto idle = [&w] { return QTest::qWaitFor([&w] { return !w.jobs()->busy(); }, 600000); };
    int yarn = -1;
    for (std::size_t i = 0; i < w.model()->variants().size(); ++i)
        if (w.model()->variants()[i].kind == VariantKind::Yarn)
            yarn = static_cast<int>(i);
    if (yarn < 0 || !idle())
        return 1;

    int edits = 0;
    for (EntropyContent content : {EntropyContent::RepeatedToken, EntropyContent::RandomQK}) {
        w.setEntropyContent(content);
        idle();
        ExplorerInput in = explorer_input(*w.model());
        in.entropy_content = content;
        std::vector<double> cold, edit, run, cold_cpu, edit_cpu;
        for (int r = 0; r < reps; ++r) {
            EntropyCache cache;
            QElapsedTimer t;
            const double c0 = cpu_ms();
            t.start();
            const EntropyResult e = compute_explorer_entropy(in, &cache);
            cold.push_back(static_cast<double>(t.nsecsElapsed()) * 1e-6);
            cold_cpu.push_back(cpu_ms() - c0);
            if (e.computed != static_cast<int>(in.variants.size()))
                return 1;
        }
        for (int r = 0; r < reps; ++r) {
            RopeParams p = w.model()->variants()[static_cast<std::size_t>(yarn)].params;
            p.beta_fast = 32.0 + 0.25 * ++edits; // a value not seen before: not in the cache
            QElapsedTimer t;
            const double c0 = cpu_ms();
            t.start();
            w.model()->setVariantParams(yarn, p);
            if (!idle())
                return 1;
            edit.push_back(static_cast<double>(t.nsecsElapsed()) * 1e-6);
            edit_cpu.push_back(cpu_ms() - c0);
            run.push_back(w.jobs()->lastRunMs(ExplorerWindow::EntropyJob));
            if (w.entropyResult()->computed != 1) {
                std::fprintf(stderr, "the edit recomputed %d variants (rep %d, content %d, curves %zu)\n",
                             w.entropyResult()->computed, r, static_cast<int>(w.entropyResult()->content),
                             w.entropyResult()->curves.size());
                return 1;
            }
        }
        std::printf(
            "%-15s cold job (%zu variants): median %.0f ms wall, %.0f ms CPU | edit -> result: median "
            "%.0f ms wall (job %.0f ms), %.0f ms CPU\n",
            content_name(content), in.variants.size(), median(cold), median(cold_cpu), median(edit),
            median(run), median(edit_cpu));
        std::fflush(stdout);
    }
    return 0;
}
