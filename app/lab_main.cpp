// SPDX-License-Identifier: GPL-3.0-or-later
// posatlas-lab: the extrapolation lab's process (`posatlas lab train|eval` runs it). It links LibTorch and
// no Qt: Debian's libtorch_cpu needs OpenCV's highgui, which loads Qt 5, so the lab cannot share a process
// with the Qt 6 program. The program checks the command line first (in the user's language); this process
// parses it again, trains or evaluates, and prints its texts as lab/lab_messages.h describes.
#include "cli_errors.h"
#include "cli_i18n.h"
#include "cli_options.h"
#include "io/input_file.h"
#include "io/safe_write.h"
#include "lab/lab.h"
#include "lab_options.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <malloc.h>
#include <ostream>
#include <unistd.h>

namespace posatlas::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int)
{
    g_interrupted = true;
}

std::string minutes(double s)
{
    const long t = static_cast<long>(s + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
    return buf;
}

// SIGINT and SIGTERM set g_interrupted while it lives (the lab polls it every step); the previous handlers
// are restored at its end.
class InterruptGuard
{
public:
    InterruptGuard()
    {
        g_interrupted = false;
        struct sigaction sa {
        };
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &m_int);
        sigaction(SIGTERM, &sa, &m_term);
    }
    ~InterruptGuard()
    {
        sigaction(SIGINT, &m_int, nullptr);
        sigaction(SIGTERM, &m_term, nullptr);
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    struct sigaction m_int {
    }, m_term{};
};

std::string command_text(const std::vector<std::string>& args)
{
    std::string command = "posatlas";
    for (const std::string& a : args) {
        const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`;&|<>*?()[]{}") == std::string::npos;
        command += ' ' + (plain ? a : "'" + a + "'");
    }
    return command;
}

int run_train(const Options& o, const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const lab::LabConfig c = lab_config_from(o);
    const std::string dir = *o.text("out");
    const std::string command = command_text(args);
    const bool jsonl = !o.flag("quiet") && *o.choice("progress") == "jsonl";
    const bool shown = !o.flag("quiet") && !jsonl && ::isatty(STDERR_FILENO) == 1;
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    lab::TrainHooks hooks;
    hooks.cancel = [] { return g_interrupted.load(); };
    hooks.progress = [&](const lab::TrainProgress& p) {
        if (jsonl && (p.step % c.log_every == 0 || p.step == p.steps)) {
            // For a program that drives the lab (the GUI's Lab window): one object per logged step.
            const double left = p.step > 0 ? p.seconds * (p.steps - p.step) / p.step : 0.0;
            err << nlohmann::json{{"step", p.step},         {"steps", p.steps},     {"loss", p.loss},
                                  {"accuracy", p.accuracy}, {"seconds", p.seconds}, {"seconds_left", left}}
                       .dump()
                << std::endl;
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!shown || (now - last < std::chrono::milliseconds(100) && p.step < p.steps))
            return;
        last = now;
        const int width = 24, filled = static_cast<int>(width * static_cast<double>(p.step) / p.steps);
        const double eta = p.step > 0 ? p.seconds * (p.steps - p.step) / p.step : 0.0;
        char line[200];
        std::snprintf(line, sizeof line, "\r%s/%s [%s%s] %d/%d  %s %.4f  %s %.1f%%  ETA %s\033[K",
                      c.method.c_str(), c.task.c_str(), std::string(filled, '#').c_str(),
                      std::string(width - filled, '.').c_str(), p.step, p.steps,
                      translate("Cli", "loss").c_str(), p.loss, translate("Cli", "accuracy").c_str(),
                      100 * p.accuracy, minutes(eta).c_str());
        err << line << std::flush;
    };
    const InterruptGuard interrupts;
    const lab::TrainSummary s = lab::train_run(c, dir, command, hooks);
    if (shown)
        err << "\r\033[K" << std::flush;
    if (!s.complete) {
        err << "posatlas: "
            << arg(translate("Cli", "cancelled; %1 holds the last checkpoint, step %2 of %3"),
                   {dir, std::to_string(s.steps_done), std::to_string(c.steps)})
            << '\n';
        return 1;
    }
    char summary[200];
    std::snprintf(summary, sizeof summary,
                  "%d steps in %.1f s (%.1f steps/s), loss %.4f, answer accuracy %.2f%%", c.steps, s.seconds,
                  s.steps_per_second, s.loss, 100 * s.accuracy);
    out << dir << ": " << summary;
    if (c.language_model())
        out << ", " << translate("Cli", "training perplexity") << ' ' << std::exp(s.loss);
    out << '\n';
    return 0;
}

int run_eval(const Options& o, const std::string& dir, const std::vector<std::string>& args,
             std::ostream& out)
{
    LabEvalRequest request = lab_eval_from(o);
    request.options.finetune.command = command_text(args);
    const lab::EvalOptions& e = request.options;
    const std::string& rope = request.rope_type;
    const std::string& alibi = request.alibi_scaling;
    const lab::RunInfo info = lab::read_run_config(dir); // LabRunError: exit 2, nothing written
    request.check(info);
    double finetune_loss = 0.0;
    std::vector<lab::EvalRow> rows;
    {
        const InterruptGuard interrupts; // Ctrl+C stops a fine-tune or evaluation at its next step
        rows = lab::evaluate_run(
            dir, e, [] { return g_interrupted.load(); }, &finetune_loss);
    }
    const lab::FineTune& f = e.finetune;
    if (request.format == "json") {
        nlohmann::json j{{"run", dir},
                         {"method", info.config.method},
                         {"task", info.config.task},
                         {"train_len", info.config.train_len},
                         {"status", info.status},
                         {"steps_done", info.steps_done},
                         {"rope_type", rope},
                         {"factor", e.scaling.factor},
                         {"alibi_scaling", alibi},
                         {"sequences", e.sequences},
                         {"seed", e.seed}};
        if (rope == "longrope") {
            j["long_factor"] = e.scaling.long_factor;
            j["short_factor"] = e.scaling.short_factor.empty()
                                    ? std::vector<double>(e.scaling.long_factor.size(), 1.0)
                                    : e.scaling.short_factor;
        }
        j["finetune"] =
            f.active() ? nlohmann::json{{"steps", f.steps},
                                        {"length", f.length},
                                        {"lr", lab::finetune_lr(info.config, f)},
                                        {"warmup", lab::finetune_warmup(info.config, f)},
                                        {"final_loss", finetune_loss},
                                        {"out", f.out.empty() ? nlohmann::json() : nlohmann::json(f.out)}}
                       : nlohmann::json();
        if (info.config.language_model())
            j["corpus"] = {{"path", info.config.corpus},
                           {"hash", info.config.corpus_id.hash},
                           {"held_out", "the last 10 % of each file's characters"},
                           {"loss", "mean cross-entropy in nats over every position of each window"}};
        for (const lab::EvalRow& r : rows) {
            nlohmann::json row = r.defined ? nlohmann::json{{"length", r.length},
                                                            {"answer_accuracy", r.accuracy},
                                                            {"loss", r.loss},
                                                            {"attention_entropy", r.attention_entropy}}
                                           : nlohmann::json{{"length", r.length}, {"defined", false}};
            if (r.defined && info.config.language_model()) {
                row["perplexity"] = r.perplexity();
                row["bits_per_character"] = r.bits_per_character();
            }
            j["lengths"].push_back(row);
        }
        out << j.dump(2) << '\n';
        return 0;
    }
    if (info.status != "complete")
        out << arg(translate("Cli", "note: the run is %1 (step %2 of %3); its last checkpoint is evaluated"),
                   {info.status, std::to_string(info.steps_done), std::to_string(info.config.steps)})
            << '\n';
    if (f.active()) {
        char lr[32], loss[32];
        std::snprintf(lr, sizeof lr, "%g", lab::finetune_lr(info.config, f));
        std::snprintf(loss, sizeof loss, "%.4f", finetune_loss);
        out << arg(translate("Cli",
                             "fine-tuned before evaluation: %1 steps at length %2 (peak lr %3, loss of "
                             "the last steps %4); the run folder is unchanged"),
                   {std::to_string(f.steps), std::to_string(f.length), lr, loss})
            << '\n';
        if (!f.out.empty())
            out << arg(translate("Cli", "the fine-tuned model is in %1"), {f.out}) << '\n';
    }
    const bool lm = info.config.language_model();
    out << translate("Cli", "length") << '\t' << translate("Cli", "answer accuracy") << '\t'
        << translate("Cli", "loss");
    if (lm)
        out << '\t' << translate("Cli", "perplexity") << '\t' << translate("Cli", "bits per character");
    out << '\n';
    for (const lab::EvalRow& r : rows) {
        char line[160];
        if (r.defined && lm)
            std::snprintf(line, sizeof line, "%lld\t%.2f%%\t%.4f\t%.3f\t%.4f",
                          static_cast<long long>(r.length), 100 * r.accuracy, r.loss, r.perplexity(),
                          r.bits_per_character());
        else if (r.defined)
            std::snprintf(line, sizeof line, "%lld\t%.2f%%\t%.4f", static_cast<long long>(r.length),
                          100 * r.accuracy, r.loss);
        else
            std::snprintf(line, sizeof line, "%lld\t%s", static_cast<long long>(r.length),
                          translate("Cli", "not defined (beyond the learned table)").c_str());
        out << line << '\n';
    }
    return 0;
}

int run_probe(const Options& o, const std::string& dir, std::ostream& out)
{
    const LabProbeRequest request = lab_probe_from(o);
    request.check(lab::read_run_config(dir)); // exit 2, nothing written
    const lab::ProbeSummary s = lab::write_probe(dir, request.probe, request.out);
    for (const std::string& session : s.sessions)
        out << (std::filesystem::path(request.out) / session).string() << '\n';
    char difference[32];
    std::snprintf(difference, sizeof difference, "%.1e", s.largest_difference);
    out << arg(translate("Cli",
                         "core's logits from these sessions equal the model's scores within %1 "
                         "(relative, float32 rounding); open a session in the app: File > Open Session"),
               {difference})
        << '\n';
    return 0;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    try {
        const std::string action = args.empty() ? "" : args.front();
        if (action == "--help" || action == "-h") {
            out << lab_help();
            return 0;
        }
        if (action != "train" && action != "eval" && action != "probe")
            throw UsageError(
                "posatlas-lab takes the action 'train', 'eval' or 'probe' (see posatlas lab --help)");
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        const Options o = lab_action_options(action, rest);
        if (o.help()) {
            out << lab_help();
            return 0;
        }
        if (action == "train") {
            std::vector<std::string> full{"lab"};
            full.insert(full.end(), args.begin(), args.end());
            return run_train(o, full, out, err);
        }
        if (action == "probe")
            return run_probe(o, o.positional().front(), out);
        std::vector<std::string> full{"lab"};
        full.insert(full.end(), args.begin(), args.end());
        return run_eval(o, o.positional().front(), full, out);
    } catch (...) {
        return report_command_error(err);
    }
}

} // namespace

} // namespace posatlas::cli

int main(int argc, char** argv)
{
    // LibTorch's CPU tensors come from malloc. An evaluation's attention tensors (sequences x heads x
    // length^2) are tens of MB each, above glibc's mmap threshold: each was a fresh mapping whose pages
    // the kernel faulted in and zeroed at every use, and returned at every free (5.4 s of system time in
    // a 10.3 s evaluation, 3 million page faults). Kept in the heap and not trimmed, they are reused:
    // docs/benchmarks.md, "Lab". The process is short-lived; its peak memory grows by about 40 %.
    ::mallopt(M_MMAP_MAX, 0);
    ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
    posatlas::cli::choose_language();
    const int status =
        posatlas::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
    std::cout.flush();
    return std::cout ? status : 2;
}
