// SPDX-License-Identifier: GPL-3.0-or-later
// GUI latency benchmark ("Latency the user feels"): the main window at 1920x1080 (offscreen),
// parameter changes driven through ScenarioModel exactly as a slider drives them (setValue: one undo
// step, the debounced view jobs, the results delivered and painted), and for each view x method x N x
// content the time from the change to the view's repainted figure: the view's job has delivered the
// change's result and a repaint pass of the view's widgets has finished after it (ViewTimings, the
// same measurement as View > Show Timings). Prints p50 and p95 per row and flags the rows over the
// issue's targets: p95 <= 50 ms at N <= 10^6 with ones, zero or fixed content, <= 150 ms with random
// content at 10^6, <= 250 ms at 10^7.
// After the views, the docks of image and multimodal positions (rows "patchgrid" and "tokens"): the
// patch grid of each method that has one on a 64 x 64 grid, and M-RoPE's token layout at N = 4096 and
// 10^6, timed from the change to the dock's result delivered and its figure repainted (run_dock_rows);
// `--filter patchgrid` or `--filter tokens` runs them alone.
//
// The moved parameter is the method's first log-scale slider, else its first real, else its first
// integer field of the parameter panel (RoPE: rope_theta, ALiBi: slope_scale, T5: the bucket count),
// alternated between its value and a neighbour 5 % (or one step) away, so
// that every change is a real one. Each change is made once the previous one is painted, as a click, a
// key press or the first step of a drag: the job tracker then starts the jobs at once (its leading
// edge); the 35 ms coalescing interval applies only to changes that arrive while jobs run (the rest of a
// drag), which this benchmark does not measure.
//
// usage: gui_latency [--quick] [--reps N] [--filter SUBSTRING] [--timeout-ms MS] [--preset ID]
//                    [--undecimated-curves] [--grab DIR] [--repaints K]
//   --quick: RoPE, ALiBi and T5 at N = 4096 and 10^6, 3 changes each
//   --preset: every row starts from that model preset's scenario (`posatlas presets`) instead of the
//     window's default, e.g. llama-3.1-8b: RoPE with a scaling, whose curves add the unscaled θ dashed
//   --repaints K: after each row, K repaints of the curves chart alone (nothing recomputed, nothing handed
//     over): their median in ms, a line "repaint50" under the row (a quieter measure of the paint)
//   --grab DIR: after each row, the curves view as on screen to DIR/curves_<method>_<N>_<content>.png
//   --undecimated-curves: the curves chart gets every point of the job's bins (ViewSettings::
//     curve_plot_width stays 0) instead of at most four per pixel column: the same build before and after
// Columns: p50 / p95 of change -> repainted figure; compute50 / paint50: medians of the view job's run
// time and of the GUI thread's share (View > Show Timings' two numbers).
//   --filter: only rows whose "method N content" text contains SUBSTRING (e.g. "rope", "1000000 fixed")
#include "analysis/patch_grid.h"
#include "io/presets.h"
#include "methods/mrope/mrope.h"
#include "methods/registry.h"
#include "methods/rope2d/rope2d.h"
#include "methods/rope_mixed/rope_mixed.h"
#include "methods/swin/swin.h"
#include "model/scenario_model.h"
#include "scenario/validation.h"
#include "views/curve_view.h"
#include "views/token_layout_view.h"
#include "window/main_window.h"
#include "window/patch_grid_panel.h"
#include "window/token_layout_controller.h"
#include "window/view_timings.h"

#include "compute/memory_reuse.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace posatlas;
using namespace posatlas::ui;

namespace {

struct Options {
    bool quick = false;
    int reps = 0; // 0: by N (7 at N <= 10^6, 3 at 10^7)
    std::string filter;
    int timeoutMs = 30000;
    std::string preset;
    bool undecimatedCurves = false;
    QString grabDir;
    int repaints = 0;
};

const char* view_name(ViewKind k)
{
    switch (k) {
    case ViewKind::Heatmap: return "heatmap";
    case ViewKind::Curves: return "curves";
    case ViewKind::Rotation: return "rotation";
    case ViewKind::Spectrum: return "spectrum";
    }
    return "?";
}

// The target for a row, in ms.
double target_ms(std::int64_t n, ContentKind c)
{
    if (n > 1'000'000)
        return 250.0;
    return c == ContentKind::Random && n >= 1'000'000 ? 150.0 : 50.0;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    // Nearest rank: the smallest value with at least p of the samples at or below it.
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

// The method's first numeric parameter of the panel that the scenario shows, and a neighbour value.
std::optional<std::pair<ParamId, double>> moved_param(const Scenario& s)
{
    // Log-scale sliders first (RoPE's base, ALiBi's slope scale), then other reals, then integers.
    std::vector<const Field*> order;
    for (int pass = 0; pass < 3; ++pass)
        for (const Field& f : descriptor(s.method).fields) {
            const bool wanted = pass == 0   ? f.type == FieldType::Real && f.log_scale
                                : pass == 1 ? f.type == FieldType::Real && !f.log_scale
                                            : f.type == FieldType::Int;
            if (wanted)
                order.push_back(&f);
        }
    for (const Field* fp : order) {
        const Field& f = *fp;
        if (!f.panel || (f.shown && !f.shown(s)))
            continue;
        ParamId id = param(s.method, f.key);
        if (!id)
            continue;
        const double v = param_value(s, id);
        // The nearest neighbour value that validation accepts (some integers must be even, ...).
        const std::vector<double> candidates = f.type == FieldType::Real
                                                   ? std::vector<double>{v * 1.05, v * 0.95}
                                                   : std::vector<double>{v + 1, v - 1, v + 2, v - 2};
        std::optional<double> ok;
        for (double to : candidates) {
            Scenario t = s;
            set_param_value(t, id, to);
            try {
                validate_for(t, id);
            } catch (const std::exception&) {
                continue;
            }
            if (param_value(t, id) != v) {
                ok = to;
                break;
            }
        }
        if (!ok)
            continue;
        const double to = *ok;
        return std::make_pair(id, to);
    }
    return std::nullopt;
}

// Runs the event loop until every shown view has delivered a result newer than `deliveries` and
// painted it; returns each view's ms since `clock` started (negative: not measured, e.g. it failed).
std::array<double, kViewKindCount> wait_painted(MainWindow& w, const std::array<bool, kViewKindCount>& shown,
                                                const std::array<quint64, kViewKindCount>& deliveries,
                                                const QElapsedTimer& clock, int timeoutMs, int& failures,
                                                std::array<int, kViewKindCount>& unchanged)
{
    std::array<double, kViewKindCount> ms;
    ms.fill(-1.0);
    auto done = [&] {
        for (ViewKind k : kAllViewKinds) {
            const auto i = static_cast<std::size_t>(k);
            if (shown[i] && ms[i] < 0)
                return false;
        }
        return true;
    };
    QMetaObject::Connection painted =
        QObject::connect(w.viewTimings(), &ViewTimings::painted, [&](ViewKind k) {
            const auto i = static_cast<std::size_t>(k);
            const ViewTimings::Timing& t = w.viewTimings()->timing(k);
            if (ms[i] < 0 && t.deliveries > deliveries[i] && !w.jobs()->busy(static_cast<int>(k)))
                ms[i] = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
        });
    // A result that changes nothing on screen (e.g. a curve that does not depend on the moved
    // parameter) needs no repaint: 1 s after its delivery without one, the delivery time counts (and the
    // row says how many changes ended so).
    std::array<double, kViewKindCount> deliveredAt;
    deliveredAt.fill(-1.0);
    QMetaObject::Connection delivered =
        QObject::connect(w.jobs(), &JobTracker::resultDelivered, [&](int slot, quint64) {
            const auto i = static_cast<std::size_t>(slot);
            if (i < kViewKindCount &&
                w.viewTimings()->timing(static_cast<ViewKind>(slot)).deliveries > deliveries[i] &&
                !w.jobs()->busy(slot))
                deliveredAt[i] = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
        });
    QMetaObject::Connection failed =
        QObject::connect(w.jobs(), &JobTracker::jobFailed, [&](int slot, const QString& m) {
            std::fprintf(stderr, "  %s failed: %s\n", view_name(static_cast<ViewKind>(slot)), qPrintable(m));
            ms[static_cast<std::size_t>(slot)] = -2.0;
            ++failures;
        });
    // A real event loop, as the application's: the GUI thread sleeps until an event comes. (Polling
    // processEvents in a loop spun the GUI thread at 100 % and left the view jobs one core of the two:
    // the RoPE curves' compute at 10^6 read 185 ms here against 85 ms alone.) A coarse timer checks the
    // timeout and the "no repaint needed" rule below; a repaint or a failure ends the loop at once.
    QEventLoop loop;
    const auto check = [&] {
        const double now = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
        for (std::size_t i = 0; i < kViewKindCount; ++i)
            if (ms[i] == -1.0 && deliveredAt[i] >= 0 && now - deliveredAt[i] > 1000.0) {
                ms[i] = deliveredAt[i];
                ++unchanged[i];
            }
        if (done() || clock.elapsed() >= timeoutMs)
            loop.quit();
    };
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &loop, check);
    const QMetaObject::Connection paintedCheck =
        QObject::connect(w.viewTimings(), &ViewTimings::painted, &loop, check, Qt::QueuedConnection);
    const QMetaObject::Connection failedCheck =
        QObject::connect(w.jobs(), &JobTracker::jobFailed, &loop, check, Qt::QueuedConnection);
    poll.start();
    if (!done())
        loop.exec();
    poll.stop();
    QObject::disconnect(paintedCheck);
    QObject::disconnect(failedCheck);
    QObject::disconnect(delivered);
    QObject::disconnect(painted);
    QObject::disconnect(failed);
    for (ViewKind k : kAllViewKinds)
        if (const auto i = static_cast<std::size_t>(k); shown[i] && ms[i] == -1.0) {
            const ViewTimings::Timing& t = w.viewTimings()->timing(k);
            std::fprintf(stderr,
                         "  %s: nothing painted within %d ms (results %llu -> %llu, paints since %llu%s)\n",
                         view_name(k), timeoutMs, static_cast<unsigned long long>(deliveries[i]),
                         static_cast<unsigned long long>(t.deliveries),
                         static_cast<unsigned long long>(t.paintsSinceDelivery),
                         w.jobs()->busy(static_cast<int>(k)) ? ", busy" : "");
        }
    return ms;
}

std::array<bool, kViewKindCount> shown_views(MainWindow& w)
{
    std::array<bool, kViewKindCount> shown{};
    for (ViewKind k : kAllViewKinds) {
        QDockWidget* d = w.dock(k);
        shown[static_cast<std::size_t>(k)] = d->isVisible() && !d->widget()->visibleRegion().isEmpty();
    }
    return shown;
}

std::array<quint64, kViewKindCount> delivered(MainWindow& w)
{
    std::array<quint64, kViewKindCount> d{};
    for (ViewKind k : kAllViewKinds)
        d[static_cast<std::size_t>(k)] = w.viewTimings()->timing(k).deliveries;
    return d;
}

// Runs the event loop (sleeping between events, not polling) until no job is busy and at least 100 ms
// have passed, or the timeout.
bool settle(MainWindow& w, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if ((!w.jobs()->busy() && t.elapsed() >= 100) || t.elapsed() >= timeoutMs)
            loop.quit();
    });
    poll.start();
    loop.exec();
    return !w.jobs()->busy();
}

// A dock's figure (the patch grid's, the token layout's): the time from the change to its job's result
// delivered on the GUI thread and the dock's figure repainted (a synchronous repaint() right after the
// delivery, as the event loop would paint it next). Returns ms, -1 when nothing came within the timeout,
// -2 when the job failed; runMs gets the job's time on its worker.
double wait_dock(MainWindow& w, int slot, QWidget* figure, const QElapsedTimer& clock, int timeoutMs,
                 double& runMs)
{
    double ms = -1.0;
    runMs = std::nan("");
    QEventLoop loop;
    const QMetaObject::Connection timed =
        QObject::connect(w.jobs(), &JobTracker::resultTimed, [&](int s, double run, double) {
            if (s == slot)
                runMs = run;
        });
    const QMetaObject::Connection delivered =
        QObject::connect(w.jobs(), &JobTracker::resultDelivered, [&](int s, quint64) {
            if (s != slot || w.jobs()->busy(slot) || ms >= 0)
                return;
            figure->repaint();
            ms = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
            loop.quit();
        });
    const QMetaObject::Connection failed =
        QObject::connect(w.jobs(), &JobTracker::jobFailed, [&](int s, const QString& m) {
            if (s != slot)
                return;
            std::fprintf(stderr, "  dock job failed: %s\n", qPrintable(m));
            ms = -2.0;
            loop.quit();
        });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(timed);
    QObject::disconnect(delivered);
    QObject::disconnect(failed);
    return ms;
}

// The docks' rows: the patch grid of 2D RoPE, RoPE-Mixed and Swin on a 64 x 64 grid (Swin: one window of
// 64 x 64 patches), and M-RoPE's token layout (16 text tokens, a 128 x 128-patch image merged to 64 x 64,
// 16 text tokens, then text up to N) at N = 4096 and 10^6. The same moves and percentiles as the views'.
struct DockCase {
    const char* dock;
    Method method;
    std::int64_t n;
};

int run_dock_rows(MainWindow& w, const Scenario& base, const Options& o, int& over, int& rows)
{
    std::vector<DockCase> cases;
    for (const MethodDescriptor& d : methods()) {
        Scenario probe = base;
        probe.method = d.method;
        if (patch_grid(probe))
            cases.push_back({"patchgrid", d.method, 4096});
    }
    cases.push_back({"tokens", kMRoPE, 4096});
    cases.push_back({"tokens", kMRoPE, 1'000'000});
    const ContentKind contents[] = {ContentKind::Ones, ContentKind::Fixed, ContentKind::Random};
    int failures = 0;
    for (const DockCase& dc : cases)
        for (ContentKind c : contents) {
            const std::string row = std::string(dc.dock) + " " + std::string(method_id(dc.method)) + " " +
                                    std::to_string(dc.n) + " " + std::string(content_kind_id(c));
            if (!o.filter.empty() && row.find(o.filter) == std::string::npos)
                continue;
            Scenario s = base;
            s.method = dc.method;
            s.content.kind = c;
            const bool grid = std::string_view(dc.dock) == "patchgrid";
            if (s.method == kRope2D) {
                s.params<Rope2dParams>().grid_height = 64;
                s.params<Rope2dParams>().grid_width = 64;
            } else if (s.method == kRopeMixed) {
                s.params<RopeMixedParams>().grid_height = 64;
                s.params<RopeMixedParams>().grid_width = 64;
            } else if (s.method == kSwin) {
                s.params<SwinParams>().window_size = 64;
            } else if (s.method == kMRoPE) {
                s.params<MropeParams>().layout = "text:16,image:1x128x128,text:16";
            }
            s.seq_len = dc.n;
            if (!w.model()->setScenario(s, QStringLiteral("benchmark"))) {
                std::fprintf(stderr, "  %s: refused (%s)\n", row.c_str(), qPrintable(w.statusMessage()));
                continue;
            }
            if (!settle(w, o.timeoutMs)) {
                std::fprintf(stderr, "  %s: no result within %d ms, skipped\n", row.c_str(), o.timeoutMs);
                continue;
            }
            QDockWidget* dock = grid ? w.patchGridDock() : w.tokenLayoutDock();
            QWidget* figure = grid ? static_cast<QWidget*>(w.patchGridPanel()) : w.tokenLayoutView();
            const int slot = grid ? TokenLayoutController::kSlot + 1 : TokenLayoutController::kSlot;
            if (!dock->isVisible()) {
                std::fprintf(stderr, "  %s: the dock is not shown, skipped\n", row.c_str());
                continue;
            }
            const auto moved = moved_param(w.model()->scenario());
            if (!moved) {
                std::fprintf(stderr, "  %s: no numeric parameter to move, skipped\n", row.c_str());
                continue;
            }
            const double from = param_value(w.model()->scenario(), moved->first);
            std::fprintf(stderr, "  %s: moving %s between %g and %g\n", row.c_str(),
                         moved->first->key.c_str(), from, moved->second);
            const int reps = o.reps > 0 ? o.reps : o.quick ? 3 : 7;
            std::vector<double> times, runs;
            for (int r = 0; r < reps; ++r) {
                QElapsedTimer clock;
                clock.start();
                if (!w.model()->setValue(moved->first, r % 2 == 0 ? moved->second : from))
                    break;
                double run = 0.0;
                const double t = wait_dock(w, slot, figure, clock, o.timeoutMs, run);
                if (t == -2.0)
                    ++failures;
                if (t >= 0) {
                    times.push_back(t);
                    runs.push_back(run);
                }
                settle(w, o.timeoutMs);
            }
            if (times.empty()) {
                std::printf("%-9s %-16s %9lld %-7s %8s %8s %5d  no result measured\n", dc.dock,
                            std::string(method_id(dc.method)).c_str(), static_cast<long long>(dc.n),
                            std::string(content_kind_id(c)).c_str(), "-", "-", 0);
                continue;
            }
            const double p50 = percentile(times, 0.5), p95 = percentile(times, 0.95);
            const double target = target_ms(dc.n, c);
            const bool miss = !(p95 <= target);
            over += miss;
            ++rows;
            std::printf("%-9s %-16s %9lld %-7s %8.1f %8.1f %5zu %10.1f %8s  %s%.0f\n", dc.dock,
                        std::string(method_id(dc.method)).c_str(), static_cast<long long>(dc.n),
                        std::string(content_kind_id(c)).c_str(), p50, p95, times.size(),
                        percentile(runs, 0.5), "-", miss ? "OVER " : "ok <= ", target);
            std::fflush(stdout);
        }
    return failures;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    posatlas::keep_freed_memory_for_reuse(); // as app/main.cpp does: measure the application's policy
    QApplication app(argc, argv);
    Options o;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == QLatin1String("--quick"))
            o.quick = true;
        else if (a == QLatin1String("--reps") && hasValue)
            o.reps = args[++i].toInt();
        else if (a == QLatin1String("--filter") && hasValue)
            o.filter = args[++i].toLower().toStdString();
        else if (a == QLatin1String("--timeout-ms") && hasValue)
            o.timeoutMs = args[++i].toInt();
        else if (a == QLatin1String("--repaints") && hasValue)
            o.repaints = args[++i].toInt();
        else if (a == QLatin1String("--grab") && hasValue)
            o.grabDir = args[++i];
        else if (a == QLatin1String("--undecimated-curves"))
            o.undecimatedCurves = true;
        else if (a == QLatin1String("--preset") && hasValue)
            o.preset = args[++i].toStdString();
        else {
            std::fprintf(stderr,
                         "gui_latency: unknown or incomplete option '%s'\n"
                         "usage: gui_latency [--quick] [--reps N (1..100)] [--filter SUBSTRING] "
                         "[--timeout-ms MS (1000..600000)] [--preset ID] [--undecimated-curves] [--grab DIR] "
                         "[--repaints K]\n",
                         qPrintable(a));
            return 2;
        }
    }
    if (o.reps < 0 || o.reps > 100 || o.timeoutMs < 1000 || o.timeoutMs > 600000) {
        std::fprintf(stderr, "gui_latency: --reps must be 1..100 and --timeout-ms 1000..600000\n");
        return 2;
    }

    QTemporaryDir dir;
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    w.resize(1920, 1080);
    if (o.undecimatedCurves) {
        // The main window would pass the chart's plot area to the curves job: not here.
        QObject::disconnect(w.curveView(), &CurveView::plotAreaChanged, &w, nullptr);
        ViewSettings v = w.viewSettings();
        v.curve_plot_width = 0.0;
        w.setViewSettings(v, ViewKind::Curves);
    }
    w.show();
    settle(w, o.timeoutMs);

    Scenario base = w.model()->scenario();
    if (!o.preset.empty()) {
        if (!find_preset(o.preset)) {
            std::fprintf(stderr, "gui_latency: no preset '%s' (posatlas presets lists them)\n",
                         o.preset.c_str());
            return 2;
        }
        base = load_preset(o.preset, base).scenario;
    }
    std::vector<Method> ms;
    for (const MethodDescriptor& d : methods())
        if (!o.quick || d.method == Method::RoPE || d.method == Method::ALiBi || d.method == Method::T5)
            ms.push_back(d.method);
    const std::vector<std::int64_t> ns = o.quick ? std::vector<std::int64_t>{4096, 1'000'000}
                                                 : std::vector<std::int64_t>{4096, 1'000'000, 10'000'000};
    const ContentKind contents[] = {ContentKind::Ones, ContentKind::Fixed, ContentKind::Random};

    std::printf("%-9s %-16s %9s %-7s %8s %8s %5s %10s %8s  %s\n", "view", "method", "N", "content", "p50 ms",
                "p95 ms", "reps", "compute50", "paint50", "target");
    std::fflush(stdout);
    int over = 0, failures = 0, rows = 0;
    for (Method m : ms)
        for (std::int64_t n : ns)
            for (ContentKind c : contents) {
                const std::string row = std::string(method_id(m)) + " " + std::to_string(n) + " " +
                                        std::string(content_kind_id(c));
                if (!o.filter.empty() && row.find(o.filter) == std::string::npos)
                    continue;
                Scenario s = base; // every row starts from the same scenario: no drift between rows
                s.method = m;
                s.seq_len = n;
                s.content.kind = c;
                if (!w.model()->setScenario(s, QStringLiteral("benchmark"))) {
                    std::fprintf(stderr, "  %s: refused (%s)\n", row.c_str(), qPrintable(w.statusMessage()));
                    continue;
                }
                if (!settle(w, o.timeoutMs)) {
                    std::fprintf(stderr, "  %s: no result within %d ms, skipped\n", row.c_str(), o.timeoutMs);
                    continue;
                }
                const auto moved = moved_param(w.model()->scenario());
                if (!moved) {
                    std::fprintf(stderr, "  %s: no numeric parameter to move, skipped\n", row.c_str());
                    continue;
                }
                const double from = param_value(w.model()->scenario(), moved->first);
                std::fprintf(stderr, "  %s: moving %s between %g and %g\n", row.c_str(),
                             moved->first->key.c_str(), from, moved->second);
                const int reps = o.reps > 0 ? o.reps : o.quick ? 3 : n > 1'000'000 ? 3 : 7;
                std::array<std::vector<double>, kViewKindCount> times, compute, paint;
                std::array<int, kViewKindCount> unchanged{};
                const auto shown = shown_views(w);
                for (int r = 0; r < reps; ++r) {
                    const auto before = delivered(w);
                    QElapsedTimer clock;
                    clock.start();
                    if (!w.model()->setValue(moved->first, r % 2 == 0 ? moved->second : from)) {
                        std::fprintf(stderr, "  %s: %s refused: %s\n", row.c_str(), moved->first->key.c_str(),
                                     qPrintable(w.statusMessage()));
                        break;
                    }
                    const auto t = wait_painted(w, shown, before, clock, o.timeoutMs, failures, unchanged);
                    for (ViewKind k : kAllViewKinds)
                        if (const auto i = static_cast<std::size_t>(k); shown[i] && t[i] >= 0) {
                            times[i].push_back(t[i]);
                            const ViewTimings::Timing& vt = w.viewTimings()->timing(k);
                            compute[i].push_back(vt.computeMs);
                            paint[i].push_back(vt.deliverMs + std::max(0.0, vt.paintMs));
                        }
                    settle(w, o.timeoutMs); // nothing of this change left running into the next
                }
                for (ViewKind k : kAllViewKinds) {
                    const auto i = static_cast<std::size_t>(k);
                    if (!shown[i])
                        continue;
                    const double p50 = percentile(times[i], 0.5), p95 = percentile(times[i], 0.95);
                    const double target = target_ms(n, c);
                    if (times[i].empty()) {
                        std::printf("%-9s %-16s %9lld %-7s %8s %8s %5d  no repaint measured\n", view_name(k),
                                    std::string(method_id(m)).c_str(), static_cast<long long>(n),
                                    std::string(content_kind_id(c)).c_str(), "-", "-", 0);
                        continue;
                    }
                    const bool miss = !(p95 <= target);
                    over += miss;
                    ++rows;
                    std::printf("%-9s %-16s %9lld %-7s %8.1f %8.1f %5zu %10.1f %8.1f  %s%.0f%s\n",
                                view_name(k), std::string(method_id(m)).c_str(), static_cast<long long>(n),
                                std::string(content_kind_id(c)).c_str(), p50, p95, times[i].size(),
                                percentile(compute[i], 0.5), percentile(paint[i], 0.5),
                                miss ? "OVER " : "ok <= ", target,
                                unchanged[i]
                                    ? qPrintable(QStringLiteral(" (%1 without repaint)").arg(unchanged[i]))
                                    : "");
                }
                std::fflush(stdout);
                if (o.repaints > 0 && shown[static_cast<std::size_t>(ViewKind::Curves)]) {
                    QWidget* viewport = w.curveView()->chartView()->viewport();
                    std::vector<double> ms;
                    for (int r = 0; r < o.repaints; ++r) {
                        QElapsedTimer t;
                        t.start();
                        viewport->repaint();
                        ms.push_back(static_cast<double>(t.nsecsElapsed()) * 1e-6);
                    }
                    std::printf(
                        "%-9s %-16s %9lld %-7s repaint50 %.1f ms (median of %d repaints of the chart)\n",
                        "curves", std::string(method_id(m)).c_str(), static_cast<long long>(n),
                        std::string(content_kind_id(c)).c_str(), percentile(ms, 0.5), o.repaints);
                    std::fflush(stdout);
                }
                if (!o.grabDir.isEmpty()) {
                    QString name = QString::fromStdString("curves_" + row + ".png");
                    name.replace(QLatin1Char(' '), QLatin1Char('_'));
                    if (!w.curveView()->grab().save(QDir(o.grabDir).filePath(name)))
                        std::fprintf(stderr, "  could not write %s\n", qPrintable(name));
                }
            }
    failures += run_dock_rows(w, base, o, over, rows);
    std::printf("\n%d rows, %d over their target, %d failed jobs; %s%s (p95 nearest rank; each change from "
                "idle: no debounce)\n",
                rows, over, failures, o.quick ? "quick run" : "full run",
                o.undecimatedCurves ? ", curves undecimated" : "");
    return 0;
}
