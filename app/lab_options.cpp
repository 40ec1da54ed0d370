// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab_options.h"

#include "cli_help.h"
#include "cli_i18n.h"
#include "io/number_text.h"

#include <algorithm>
#include <cmath>

namespace posatlas::cli {

namespace {

// Every encoding the lab trains, joined by `separator`.
std::string method_list(const char* separator)
{
    std::string s;
    for (const std::string& m : lab::lab_methods()) {
        if (!s.empty())
            s += separator;
        s += m;
    }
    return s;
}

} // namespace

OptionTable lab_train_table()
{
    const lab::LabConfig d;
    const auto methods = lab::lab_methods();
    const auto tasks = lab::lab_tasks();
    const auto num = [](double v) { return format_number(v); };
    return {
        {.name = "out",
         .type = ArgType::Path,
         .help = translate("Cli", "The run folder to create (it must not hold a run)."),
         .required = true},
        {.name = "task",
         .type = ArgType::Choice,
         .help = translate("Cli", "The task: copy a string, recall the value of a key, complete an "
                                  "induction pattern (synthetic), or lm: predict the next character of "
                                  "a text corpus (--corpus), reported as perplexity."),
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
        {.name = "corpus",
         .type = ArgType::Path,
         .help = translate("Cli", "lm: the text, a UTF-8 file or a folder of .md and .txt files (README.md "
                                  "excepted); the last tenth of each file is held out for evaluation."),
         .default_value = "",
         .default_text = translate("Cli", "the built-in course (resources/lessons)")},
        {.name = "vocab",
         .type = ArgType::Int,
         .help = translate("Cli", "lm: the model's vocabulary size; 0 takes the corpus's characters and "
                                  "one id for unknown characters."),
         .default_value = "0",
         .lo = 0,
         .hi = 65536},
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
         .help = translate("Cli",
                           "RoPE pairing: half (GPT-NeoX, Hugging Face) or interleaved (RoFormer, GPT-J)."),
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
        {.name = "shaw-max-relative-position",
         .type = ArgType::Int,
         .help = translate("Cli", "Shaw clip distance k: relative positions beyond +-k share one table row."),
         .default_value = num(d.shaw_max_relative_position),
         .lo = 1,
         .hi = 65536},
        {.name = "deberta-position-buckets",
         .type = ArgType::Int,
         .help =
             translate("Cli", "DeBERTa position buckets (att_span): exact relative positions up to half of "
                              "them, log buckets beyond."),
         .default_value = num(d.deberta_position_buckets),
         .lo = 2,
         .hi = 65536},
        {.name = "deberta-max-relative-positions",
         .type = ArgType::Int,
         .help = translate("Cli", "DeBERTa distance the log buckets reach their last row at."),
         .default_value = num(d.deberta_max_relative_positions),
         .lo = 2,
         .hi = 1 << 20},
        {.name = "progress",
         .type = ArgType::Choice,
         .help = translate("Cli", "How the training shows its progress on standard error: bar (on a "
                                  "terminal) or jsonl (one JSON object per logged step: step, steps, "
                                  "loss, accuracy, seconds, seconds_left; for programs)."),
         .default_value = "bar",
         .choices = {"bar", "jsonl"}},
        quiet_option()};
}

Options lab_action_options(const std::string& action, const std::vector<std::string>& rest)
{
    Options o(rest, action == "train"   ? lab_train_table()
                    : action == "probe" ? lab_probe_table()
                                        : lab_eval_table());
    if (o.help())
        return o;
    if (action == "train" && !o.positional().empty())
        throw UsageError(translate("Cli", "lab train takes no run folder argument; name it with --out"));
    if (action == "probe" && o.positional().size() != 1)
        throw UsageError(
            translate("Cli", "lab probe takes one run folder (posatlas lab probe DIR --out DIR)"));
    if (action != "train" && o.positional().size() != 1)
        throw UsageError(translate("Cli", "lab eval takes one run folder (posatlas lab eval DIR)"));
    return o;
}

OptionTable lab_eval_table()
{
    return {
        {.name = "lengths",
         .type = ArgType::RealList,
         .help = translate("Cli", "Sequence lengths to evaluate, comma-separated."),
         .default_value = "32,48,64,128,256,512"},
        {.name = "sequences",
         .type = ArgType::Int,
         .help = translate("Cli", "Test sequences per length."),
         .default_value = "256",
         .lo = 1,
         .hi = 100000},
        {.name = "corpus",
         .type = ArgType::Path,
         .help = translate("Cli", "lm runs: where to read the run's corpus (the same files: config.json "
                                  "records their names and hash; another corpus is refused)."),
         .default_value = "",
         .default_text = translate("Cli", "the run's own (config.json)")},
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
         .choices = {"default", "linear", "dynamic", "yarn", "llama3", "longrope"}},
        {.name = "factor",
         .type = ArgType::Real,
         .help = translate("Cli", "Scaling factor of --rope-type (longrope: max_position_embeddings = "
                                  "trained length x factor, which sets the attention factor)."),
         .default_value = "4",
         .lo = 1,
         .hi = 1024},
        {.name = "long-factor",
         .type = ArgType::RealList,
         .help = translate("Cli", "LongRoPE (--rope-type longrope): one divisor per rotary frequency pair "
                                  "of the run's model (rotary dimensions / 2), used at lengths beyond the "
                                  "trained length."),
         .default_value = ""},
        {.name = "short-factor",
         .type = ArgType::RealList,
         .help = translate("Cli", "LongRoPE: one divisor per rotary frequency pair, used up to the trained "
                                  "length."),
         .default_value = "",
         .default_text = translate("Cli", "1 for every pair")},
        {.name = "alibi-scaling",
         .type = ArgType::Choice,
         .help = translate("Cli", "ALiBi scaling at test time (ALiBi runs only)."),
         .default_value = "none",
         .choices = {"none", "interpolate", "ntk"}},
        {.name = "finetune-steps",
         .type = ArgType::Int,
         .help = translate("Cli", "Fine-tune the run for this many steps at --finetune-len before the "
                                  "evaluation, with the test-time scaling active (as the PI and YaRN "
                                  "papers do); in memory, the run folder is not changed."),
         .default_value = "",
         .lo = 1,
         .hi = 1000000},
        {.name = "finetune-len",
         .type = ArgType::Int,
         .help = translate("Cli", "Tokens per fine-tune sequence, in batches of the run's --batch (within "
                                  "the memory budget)."),
         .default_value = "",
         .lo = 4,
         .hi = 65536},
        {.name = "finetune-lr",
         .type = ArgType::Real,
         .help = translate("Cli", "Peak learning rate of the fine-tune (AdamW as in training, warm-up "
                                  "over a tenth of the steps but at most the run's --warmup, cosine decay "
                                  "to 0)."),
         .default_value = "",
         .default_text = translate("Cli", "the run's --lr / 15, the PI paper's ratio"),
         .lo = 1e-7,
         .hi = 1},
        {.name = "finetune-out",
         .type = ArgType::Path,
         .help = translate("Cli", "Also save the fine-tuned model as a new run folder (it must not hold a "
                                  "run)."),
         .default_value = ""},
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

OptionTable lab_sweep_table()
{
    OptionTable t{
        {.name = "out",
         .type = ArgType::Path,
         .help = translate("Cli", "The sweep's folder: one run folder per method and seed, the "
                                  "table (sweep.csv, sweep.json) and the figure (sweep.png, sweep.svg)."),
         .required = true},
        {.name = "methods",
         .type = ArgType::Text,
         .help = translate("Cli", "The positional encodings, comma-separated."),
         .default_value = method_list(",")},
        {.name = "seeds",
         .type = ArgType::Int,
         .help = translate("Cli", "Runs per method, with seeds 0, 1, ..."),
         .default_value = "3",
         .lo = 1,
         .hi = 1000},
        {.name = "lengths",
         .type = ArgType::RealList,
         .help = translate("Cli", "Sequence lengths to evaluate, increasing, comma-separated."),
         .default_value = "32,48,64,128"},
        {.name = "sequences",
         .type = ArgType::Int,
         .help = translate("Cli", "Test sequences per length."),
         .default_value = "256",
         .lo = 1,
         .hi = 100000}};
    // The training options of lab train, but the run folder, the method and the seed, which the sweep sets.
    for (const OptionSpec& s : lab_train_table())
        if (s.name != "out" && s.name != "method" && s.name != "seed")
            t.push_back(s);
    return t;
}

lab::LabConfig lab_config_from(const Options& o)
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
    c.vocab_size = static_cast<int>(*o.integer("vocab"));
    c.batch = static_cast<int>(*o.integer("batch"));
    c.lr = *o.real("lr");
    c.warmup = o.has("warmup") ? static_cast<int>(*o.integer("warmup")) : lab::default_warmup(c.steps);
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
    c.shaw_max_relative_position = static_cast<int>(*o.integer("shaw-max-relative-position"));
    c.deberta_position_buckets = static_cast<int>(*o.integer("deberta-position-buckets"));
    c.deberta_max_relative_positions = static_cast<int>(*o.integer("deberta-max-relative-positions"));
    lab::validate(c); // ParameterError naming the option, before anything is written
    if (c.language_model()) {
        c.corpus = o.has("corpus") ? *o.text("corpus") : lab::default_corpus();
        if (c.corpus.empty())
            throw ParameterError("corpus", "a text file or folder (the built-in course was not found)",
                                 "none");
        lab::fit_corpus(c, lab::load_corpus(c.corpus)); // ParameterError naming --corpus or --vocab
        lab::validate(c);
    } else
        for (const char* name : {"corpus", "vocab"})
            if (o.has(name))
                throw ParameterError(name, "given only with --task lm", *o.text(name));
    return c;
}

LabEvalRequest lab_eval_from(const Options& o)
{
    LabEvalRequest r;
    lab::EvalOptions& e = r.options;
    const std::vector<double> lengths = *o.real_list("lengths");
    for (double v : lengths) {
        if (v != std::floor(v) || v < 4 || v > 1 << 20)
            throw ParameterError("lengths", "integers in [4, 1048576]", format_number(v));
        e.lengths.push_back(static_cast<std::int64_t>(v));
    }
    e.sequences = static_cast<int>(*o.integer("sequences"));
    if (o.has("corpus"))
        e.corpus = *o.text("corpus");
    e.seed = static_cast<std::uint64_t>(*o.integer("seed"));
    e.threads = static_cast<int>(*o.integer("threads"));
    r.rope_type = *o.choice("rope-type");
    e.scaling.rope_type = *parse_rope_type(r.rope_type);
    e.scaling.factor = *o.real("factor");
    r.alibi_scaling = *o.choice("alibi-scaling");
    e.scaling.alibi = r.alibi_scaling == "ntk"           ? AlibiScaling::Ntk
                      : r.alibi_scaling == "interpolate" ? AlibiScaling::Interpolate
                                                         : AlibiScaling::None;
    if (o.has("long-factor"))
        e.scaling.long_factor = *o.real_list("long-factor");
    if (o.has("short-factor"))
        e.scaling.short_factor = *o.real_list("short-factor");
    r.format = *o.choice("format");
    lab::FineTune& f = e.finetune;
    if (o.has("finetune-steps")) {
        if (!o.has("finetune-len"))
            throw ParameterError("finetune-len", "given with --finetune-steps (the fine-tune's length)",
                                 "none");
        f.steps = static_cast<int>(*o.integer("finetune-steps"));
        f.length = *o.integer("finetune-len");
        if (o.has("finetune-lr"))
            f.lr = *o.real("finetune-lr");
        if (o.has("finetune-out"))
            f.out = *o.text("finetune-out");
    } else
        for (const char* name : {"finetune-len", "finetune-lr", "finetune-out"})
            if (o.has(name))
                throw ParameterError(name, "given only with --finetune-steps", *o.text(name));
    return r;
}

void LabEvalRequest::check(const lab::RunInfo& info) const
{
    if (rope_type != "default" && info.config.method != "rope")
        throw ParameterError("rope-type", "default for a " + info.config.method + " run (RoPE runs only)",
                             rope_type);
    if (alibi_scaling != "none" && info.config.method != "alibi")
        throw ParameterError("alibi-scaling", "none for a " + info.config.method + " run (ALiBi runs only)",
                             alibi_scaling);
    // LongRoPE's lists: one divisor per rotary frequency pair of the run's model, as core's rope_check
    // and HF _compute_longrope_parameters require.
    const lab::TestScaling& s = options.scaling;
    const int rotary_dim = static_cast<int>(info.config.head_dim() * info.config.partial_rotary_factor);
    const std::string pairs = std::to_string(rotary_dim / 2);
    const auto list_text = [](const std::vector<double>& v) {
        std::string t;
        for (double x : v) { // appended piece by piece: "," + string&& makes GCC 12 warn -Wrestrict here
            if (!t.empty())
                t += ',';
            t += format_number(x);
        }
        return t;
    };
    for (const auto& [name, list] :
         {std::pair<const char*, const std::vector<double>*>{"long-factor", &s.long_factor},
          {"short-factor", &s.short_factor}}) {
        if (list->empty())
            continue;
        if (info.config.method != "rope")
            throw ParameterError(name, "absent for a " + info.config.method + " run (RoPE runs only)",
                                 list_text(*list));
        if (rope_type != "longrope")
            throw ParameterError(name, "given only with --rope-type longrope", list_text(*list));
        if (list->size() != static_cast<std::size_t>(rotary_dim / 2))
            throw ParameterError(name,
                                 "a list of " + pairs +
                                     " numbers, one per rotary frequency pair (rotary "
                                     "dimensions " +
                                     std::to_string(rotary_dim) + " / 2)",
                                 std::to_string(list->size()) + " numbers");
        for (double x : *list)
            if (!std::isfinite(x) || x <= 0 || x > 1e6)
                throw ParameterError(name, "numbers in (0, 1000000]", format_number(x));
    }
    if (rope_type == "longrope" && s.long_factor.empty())
        throw ParameterError("long-factor",
                             "a list of " + pairs +
                                 " numbers with --rope-type longrope, one per rotary "
                                 "frequency pair",
                             "none");
    lab::check_finetune(info.config, options.finetune);
}

OptionTable lab_probe_table()
{
    OptionTable t{
        {.name = "out",
         .type = ArgType::Path,
         .help = translate("Cli", "The folder to write the probe into (new or empty): "
                                  "probe.safetensors and one session per head, "
                                  "head-H.posatlas.json, to open in the app."),
         .required = true},
        {.name = "length",
         .type = ArgType::Int,
         .help = translate("Cli", "Tokens of the input: one evaluation sequence of the run's task."),
         .default_value = "128",
         .lo = 2,
         .hi = 1 << 20},
        {.name = "layer",
         .type = ArgType::Int,
         .help = translate("Cli", "The attention layer, from 0."),
         .default_value = "0",
         .lo = 0,
         .hi = 11}};
    // The evaluation's test seed and test-time scalings, the same options.
    for (const OptionSpec& s : lab_eval_table())
        if (s.name == "seed" || s.name == "corpus" || s.name == "rope-type" || s.name == "factor" ||
            s.name == "long-factor" || s.name == "short-factor" || s.name == "alibi-scaling" ||
            s.name == "quiet")
            t.push_back(s);
    return t;
}

LabProbeRequest lab_probe_from(const Options& o)
{
    LabProbeRequest r;
    r.out = *o.text("out");
    r.probe.length = *o.integer("length");
    r.probe.layer = static_cast<int>(*o.integer("layer"));
    r.probe.seed = static_cast<std::uint64_t>(*o.integer("seed"));
    if (o.has("corpus"))
        r.probe.corpus = *o.text("corpus");
    r.rope_type = *o.choice("rope-type");
    r.probe.scaling.rope_type = *parse_rope_type(r.rope_type);
    r.probe.scaling.factor = *o.real("factor");
    if (o.has("long-factor"))
        r.probe.scaling.long_factor = *o.real_list("long-factor");
    if (o.has("short-factor"))
        r.probe.scaling.short_factor = *o.real_list("short-factor");
    r.alibi_scaling = *o.choice("alibi-scaling");
    r.probe.scaling.alibi = r.alibi_scaling == "ntk"           ? AlibiScaling::Ntk
                            : r.alibi_scaling == "interpolate" ? AlibiScaling::Interpolate
                                                               : AlibiScaling::None;
    return r;
}

void LabProbeRequest::check(const lab::RunInfo& info) const
{
    LabEvalRequest scaling;
    scaling.rope_type = rope_type;
    scaling.alibi_scaling = alibi_scaling;
    scaling.options.scaling = probe.scaling;
    scaling.check(info);
    lab::check_probe(info, probe, out);
}

OptionSet lab_option_set()
{
    OptionTable all = lab_train_table();
    for (const OptionTable& table : {lab_eval_table(), lab_probe_table()})
        for (const OptionSpec& s : table)
            if (std::none_of(all.begin(), all.end(), [&](const OptionSpec& a) { return a.name == s.name; }))
                all.push_back(s);
    return option_set(all);
}

std::string lab_help()
{
    const OptionTable sweep = lab_sweep_table(), probe = lab_probe_table();
    return render_help(
        usage_prefix() + "posatlas lab train --out DIR [options]\n       posatlas lab eval DIR [options]\n" +
            "       posatlas lab sweep --out DIR [options]\n       posatlas lab probe DIR --out DIR "
            "[options]",
        translate(
            "Cli",
            "The extrapolation lab: train trains a small decoder-only transformer (pre-LayerNorm, causal, "
            "AdamW with warm-up and cosine decay) on a synthetic task, or on a text corpus's characters "
            "(lm, measured as perplexity), with one positional encoding and writes the run folder "
            "(model.safetensors, config.json, metrics.jsonl, command.txt), showing "
            "loss and time left on a terminal; Ctrl+C keeps the last checkpoint. eval measures a run's "
            "answer accuracy (lm: held-out perplexity) at other lengths, optionally with a RoPE or ALiBi "
            "scaling applied at test "
            "time (LongRoPE with --long-factor) and after a short fine-tune at a longer length with that "
            "scaling active (--finetune-steps, --finetune-len); a length beyond a learned table is reported "
            "as not defined. probe writes a run's attention on one input of any length as sessions for the "
            "app: opened there, every view shows the trained model's own queries, keys and logits. "
            "docs/lab.md explains the lab."),
        {{translate("Cli", "Training options (lab train)"), lab_train_table()},
         {translate("Cli", "Evaluation options (lab eval)"), lab_eval_table()},
         {translate("Cli",
                    "Sweep options (lab sweep; the training options of lab train too, but --method and "
                    "--seed)"),
          OptionTable(sweep.begin(), sweep.begin() + 5)},
         {translate("Cli", "Probe options (lab probe; --seed and the scalings of lab eval too)"),
          OptionTable(probe.begin(), probe.begin() + 3)},
         {translate("Cli", "Help"), {help_option()}}});
}

} // namespace posatlas::cli
