// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lab.h"

#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_options.h"
#include "io/number_text.h"
#include "lab/lab.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ostream>
#include <unistd.h>

namespace posatlas::cli {

namespace {

OptionTable train_table()
{
    const lab::LabConfig d;
    const auto methods = lab::lab_methods();
    const auto tasks = lab::lab_tasks();
    const auto num = [](double v) { return format_number(v); };
    return {{.name = "out",
             .type = ArgType::Path,
             .help = translate("Cli", "The run folder to create (it must not hold a run)."),
             .required = true},
            {.name = "task",
             .type = ArgType::Choice,
             .help = translate("Cli", "The synthetic task: copy a string, recall the value of a key, or "
                                      "complete an induction pattern."),
             .default_value = d.task,
             .choices = tasks},
            {.name = "method",
             .type = ArgType::Choice,
             .help = translate("Cli", "The positional encoding, as core defines it."),
             .default_value = d.method,
             .choices = methods},
            {.name = "train-len",
             .type = ArgType::Int,
             .help = translate("Cli", "Tokens per training sequence."),
             .default_value = num(static_cast<double>(d.train_len)),
             .lo = 4,
             .hi = 65536},
            {.name = "steps",
             .type = ArgType::Int,
             .help = translate("Cli", "Optimizer steps."),
             .default_value = num(d.steps),
             .lo = 1,
             .hi = 10000000},
            {.name = "seed",
             .type = ArgType::Int,
             .help = translate("Cli", "Seed of the initial weights and of the training sequences."),
             .default_value = "0",
             .lo = 0,
             .hi = 9007199254740992.0},
            {.name = "layers",
             .type = ArgType::Int,
             .help = translate("Cli", "Transformer blocks."),
             .default_value = num(d.layers),
             .lo = 1,
             .hi = 12},
            {.name = "d-model",
             .type = ArgType::Int,
             .help = translate("Cli", "Width of the residual stream."),
             .default_value = num(d.d_model),
             .lo = 8,
             .hi = 1024},
            {.name = "heads",
             .type = ArgType::Int,
             .help = translate("Cli", "Attention heads (they divide --d-model)."),
             .default_value = num(d.heads),
             .lo = 1,
             .hi = 64},
            {.name = "mlp-ratio",
             .type = ArgType::Int,
             .help = translate("Cli", "Hidden width of the MLP in multiples of --d-model."),
             .default_value = num(d.mlp_ratio),
             .lo = 1,
             .hi = 8},
            {.name = "alphabet",
             .type = ArgType::Int,
             .help = translate("Cli", "Letters of the task."),
             .default_value = num(d.alphabet),
             .lo = 2,
             .hi = 1000},
            {.name = "batch",
             .type = ArgType::Int,
             .help = translate("Cli", "Sequences per step."),
             .default_value = num(d.batch),
             .lo = 1,
             .hi = 4096},
            {.name = "lr",
             .type = ArgType::Real,
             .help = translate("Cli", "Peak learning rate of AdamW."),
             .default_value = num(d.lr),
             .lo = 1e-6,
             .hi = 1.0},
            {.name = "warmup",
             .type = ArgType::Int,
             .help = translate("Cli", "Steps of linear warm-up before the cosine decay."),
             .default_value = num(d.warmup),
             .lo = 0,
             .hi = 10000000},
            {.name = "weight-decay",
             .type = ArgType::Real,
             .help = translate("Cli", "AdamW weight decay of the matrices."),
             .default_value = num(d.weight_decay),
             .lo = 0,
             .hi = 1},
            {.name = "threads",
             .type = ArgType::Int,
             .help = translate("Cli", "CPU threads (the same seed and thread count give the same metrics)."),
             .default_value = num(d.threads),
             .lo = 1,
             .hi = 256},
            {.name = "log-every",
             .type = ArgType::Int,
             .help = translate("Cli", "Steps per line of metrics.jsonl."),
             .default_value = num(d.log_every),
             .lo = 1,
             .hi = 1000000},
            {.name = "checkpoint-every",
             .type = ArgType::Int,
             .help = translate("Cli", "Steps between checkpoints (model.safetensors)."),
             .default_value = num(d.checkpoint_every),
             .lo = 1,
             .hi = 10000000},
            {.name = "rope-theta",
             .type = ArgType::Real,
             .help = translate("Cli", "RoPE and xPos base."),
             .default_value = num(d.rope_theta),
             .lo = 2,
             .hi = 1e9},
            {.name = "pairing",
             .type = ArgType::Choice,
             .help = translate(
                 "Cli", "RoPE pairing: half (GPT-NeoX, Hugging Face) or interleaved (RoFormer, GPT-J)."),
             .default_value = "half",
             .choices = {"half", "interleaved"}},
            {.name = "partial-rotary-factor",
             .type = ArgType::Real,
             .help = translate("Cli", "Fraction of each head's components that RoPE rotates."),
             .default_value = "1",
             .lo = 0,
             .hi = 1},
            {.name = "max-positions",
             .type = ArgType::Int,
             .help = translate("Cli", "Rows of the learned table (0: --train-len)."),
             .default_value = "0",
             .lo = 0,
             .hi = 1 << 20},
            {.name = "t5-num-buckets",
             .type = ArgType::Int,
             .help = translate("Cli", "T5 relative buckets."),
             .default_value = num(d.t5_num_buckets),
             .lo = 2,
             .hi = 4096},
            {.name = "t5-max-distance",
             .type = ArgType::Int,
             .help = translate("Cli", "T5 distance of the last bucket."),
             .default_value = num(d.t5_max_distance),
             .lo = 2,
             .hi = 1 << 20},
            {.name = "xpos-scale-base",
             .type = ArgType::Real,
             .help = translate("Cli", "xPos gamma."),
             .default_value = num(d.xpos_scale_base),
             .lo = 1,
             .hi = 1e9},
            {.name = "cope-npos-max",
             .type = ArgType::Int,
             .help = translate("Cli", "CoPE position embeddings per layer."),
             .default_value = num(d.cope_npos_max),
             .lo = 2,
             .hi = 65536},
            quiet_option()};
}

OptionTable eval_table()
{
    return {{.name = "lengths",
             .type = ArgType::RealList,
             .help = translate("Cli", "Sequence lengths to evaluate, comma-separated."),
             .default_value = "32,48,64,128,256,512"},
            {.name = "sequences",
             .type = ArgType::Int,
             .help = translate("Cli", "Test sequences per length."),
             .default_value = "256",
             .lo = 1,
             .hi = 100000},
            {.name = "seed",
             .type = ArgType::Int,
             .help = translate("Cli", "Seed of the test sequences."),
             .default_value = "1000003",
             .lo = 0,
             .hi = 9007199254740992.0},
            {.name = "rope-type",
             .type = ArgType::Choice,
             .help = translate("Cli", "RoPE scaling applied at test time (RoPE runs only); the trained "
                                      "length is original_max_position_embeddings."),
             .default_value = "default",
             .choices = {"default", "linear", "dynamic", "yarn", "llama3"}},
            {.name = "factor",
             .type = ArgType::Real,
             .help = translate("Cli", "Scaling factor of --rope-type."),
             .default_value = "4",
             .lo = 1,
             .hi = 1024},
            {.name = "alibi-scaling",
             .type = ArgType::Choice,
             .help = translate("Cli", "ALiBi scaling at test time (ALiBi runs only)."),
             .default_value = "none",
             .choices = {"none", "interpolate", "ntk"}},
            {.name = "threads",
             .type = ArgType::Int,
             .help = translate("Cli", "CPU threads."),
             .default_value = "1",
             .lo = 1,
             .hi = 256},
            {.name = "format",
             .type = ArgType::Choice,
             .help = translate("Cli", "Output format."),
             .default_value = "text",
             .choices = {"text", "json"}},
            quiet_option()};
}

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

int run_train(const Options& o, const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    lab::LabConfig c;
    c.task = *o.choice("task");
    c.method = *o.choice("method");
    c.train_len = *o.integer("train-len");
    c.steps = static_cast<int>(*o.integer("steps"));
    c.seed = static_cast<std::uint64_t>(*o.integer("seed"));
    c.layers = static_cast<int>(*o.integer("layers"));
    c.d_model = static_cast<int>(*o.integer("d-model"));
    c.heads = static_cast<int>(*o.integer("heads"));
    c.mlp_ratio = static_cast<int>(*o.integer("mlp-ratio"));
    c.alphabet = static_cast<int>(*o.integer("alphabet"));
    c.batch = static_cast<int>(*o.integer("batch"));
    c.lr = *o.real("lr");
    c.warmup = static_cast<int>(o.has("warmup") ? *o.integer("warmup")
                                                : std::min<std::int64_t>(c.warmup, c.steps / 10));
    c.weight_decay = *o.real("weight-decay");
    c.threads = static_cast<int>(*o.integer("threads"));
    c.log_every = static_cast<int>(*o.integer("log-every"));
    c.checkpoint_every = static_cast<int>(*o.integer("checkpoint-every"));
    c.rope_theta = *o.real("rope-theta");
    c.rope_pairing = *o.choice("pairing") == "half" ? RopePairing::Half : RopePairing::Interleaved;
    c.partial_rotary_factor = *o.real("partial-rotary-factor");
    c.max_positions = *o.integer("max-positions");
    c.t5_num_buckets = static_cast<int>(*o.integer("t5-num-buckets"));
    c.t5_max_distance = static_cast<int>(*o.integer("t5-max-distance"));
    c.xpos_scale_base = *o.real("xpos-scale-base");
    c.cope_npos_max = static_cast<int>(*o.integer("cope-npos-max"));
    lab::validate(c); // ParameterError naming the option, before anything is written
    const std::string dir = *o.text("out");
    std::string command = "posatlas";
    for (const std::string& a : args) {
        const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`;&|<>*?()[]{}") == std::string::npos;
        command += ' ' + (plain ? a : "'" + a + "'");
    }
    const bool shown = !o.flag("quiet") && ::isatty(STDERR_FILENO) == 1;
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    lab::TrainHooks hooks;
    hooks.cancel = [] { return g_interrupted.load(); };
    hooks.progress = [&](const lab::TrainProgress& p) {
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
    g_interrupted = false;
    struct sigaction sa {
    }, old_int{}, old_term{};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    struct Restore {
        struct sigaction i, t;
        ~Restore()
        {
            sigaction(SIGINT, &i, nullptr);
            sigaction(SIGTERM, &t, nullptr);
        }
    } restore{old_int, old_term};
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
    char summary[160];
    std::snprintf(summary, sizeof summary,
                  "%d steps in %.1f s (%.1f steps/s), loss %.4f, answer accuracy %.2f%%", c.steps, s.seconds,
                  s.steps_per_second, s.loss, 100 * s.accuracy);
    out << dir << ": " << summary << '\n';
    return 0;
}

int run_eval(const Options& o, const std::string& dir, std::ostream& out)
{
    lab::EvalOptions e;
    const std::vector<double> lengths = *o.real_list("lengths");
    for (double v : lengths) {
        if (v != std::floor(v) || v < 4 || v > 1 << 20)
            throw ParameterError("lengths", "integers in [4, 1048576]", format_number(v));
        e.lengths.push_back(static_cast<std::int64_t>(v));
    }
    e.sequences = static_cast<int>(*o.integer("sequences"));
    e.seed = static_cast<std::uint64_t>(*o.integer("seed"));
    e.threads = static_cast<int>(*o.integer("threads"));
    const std::string rope = *o.choice("rope-type");
    e.scaling.rope_type = *parse_rope_type(rope);
    e.scaling.factor = *o.real("factor");
    const std::string alibi = *o.choice("alibi-scaling");
    e.scaling.alibi = alibi == "ntk"           ? AlibiScaling::Ntk
                      : alibi == "interpolate" ? AlibiScaling::Interpolate
                                               : AlibiScaling::None;
    const lab::RunInfo info = lab::read_run_config(dir); // LabRunError: exit 2, nothing written
    if (rope != "default" && info.config.method != "rope")
        throw ParameterError("rope-type", "default for a " + info.config.method + " run (RoPE runs only)",
                             rope);
    if (alibi != "none" && info.config.method != "alibi")
        throw ParameterError("alibi-scaling", "none for a " + info.config.method + " run (ALiBi runs only)",
                             alibi);
    const std::vector<lab::EvalRow> rows = lab::evaluate_run(dir, e);
    if (*o.choice("format") == "json") {
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
        for (const lab::EvalRow& r : rows)
            j["lengths"].push_back(
                r.defined
                    ? nlohmann::json{{"length", r.length}, {"answer_accuracy", r.accuracy}, {"loss", r.loss}}
                    : nlohmann::json{{"length", r.length}, {"defined", false}});
        out << j.dump(2) << '\n';
        return 0;
    }
    if (info.status != "complete")
        out << arg(translate("Cli", "note: the run is %1 (step %2 of %3); its last checkpoint is evaluated"),
                   {info.status, std::to_string(info.steps_done), std::to_string(info.config.steps)})
            << '\n';
    out << translate("Cli", "length") << '\t' << translate("Cli", "answer accuracy") << '\t'
        << translate("Cli", "loss") << '\n';
    for (const lab::EvalRow& r : rows) {
        char line[96];
        if (r.defined)
            std::snprintf(line, sizeof line, "%lld\t%.2f%%\t%.4f", static_cast<long long>(r.length),
                          100 * r.accuracy, r.loss);
        else
            std::snprintf(line, sizeof line, "%lld\t%s", static_cast<long long>(r.length),
                          translate("Cli", "not defined (beyond the learned table)").c_str());
        out << line << '\n';
    }
    return 0;
}

} // namespace

OptionSet lab_option_set()
{
    OptionTable all = train_table();
    for (const OptionSpec& s : eval_table())
        if (std::none_of(all.begin(), all.end(), [&](const OptionSpec& a) { return a.name == s.name; }))
            all.push_back(s);
    return option_set(all);
}

std::string lab_help()
{
    return render_help(
        usage_prefix() + "posatlas lab train --out DIR [options]\n       posatlas lab eval DIR [options]",
        translate(
            "Cli",
            "The extrapolation lab: train trains a small decoder-only transformer (pre-LayerNorm, causal, "
            "AdamW with warm-up and cosine decay) on a synthetic task with one positional encoding and "
            "writes the run folder (model.safetensors, config.json, metrics.jsonl, command.txt), showing "
            "loss and time left on a terminal; Ctrl+C keeps the last checkpoint. eval measures a run's "
            "answer accuracy at other lengths, optionally with a RoPE or ALiBi scaling applied at test "
            "time; a length beyond a learned table is reported as not defined. docs/lab.md explains "
            "the lab."),
        {{translate("Cli", "Training options (lab train)"), train_table()},
         {translate("Cli", "Evaluation options (lab eval)"), eval_table()},
         {translate("Cli", "Help"), {help_option()}}});
}

int run_lab(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string action = args.empty() ? "" : args.front();
    if (action == "--help" || action == "-h") {
        out << lab_help();
        return 0;
    }
    if (action != "train" && action != "eval")
        throw UsageError(
            translate("Cli", "lab takes the action 'train' or 'eval' (see posatlas lab --help)"));
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const Options o(rest, action == "train" ? train_table() : eval_table());
    if (o.help()) {
        out << lab_help();
        return 0;
    }
    if (action == "train") {
        if (!o.positional().empty())
            throw UsageError(translate("Cli", "lab train takes no run folder argument; name it with --out"));
        std::vector<std::string> full{"lab"};
        full.insert(full.end(), args.begin(), args.end());
        return run_train(o, full, out, err);
    }
    if (o.positional().size() != 1)
        throw UsageError(translate("Cli", "lab eval takes one run folder (posatlas lab eval DIR)"));
    return run_eval(o, o.positional().front(), out);
}

} // namespace posatlas::cli
