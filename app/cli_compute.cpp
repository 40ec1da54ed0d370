// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_compute.h"

#include "cli_quantities.h"
#include "methods/registry.h"

#include "analysis/attention_entropy.h"
#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_options.h"
#include "cli_progress.h"
#include "compute/attention_logits.h"
#include "io/model_config.h"
#include "io/number_text.h"
#include "io/presets.h"
#include "io/safe_write.h"
#include "methods/alibi/alibi.h"
#include "methods/deberta/deberta.h"
#include "methods/learned/learned.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "methods/sinusoidal/sinusoidal.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/validation.h"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <iomanip>
#include <map>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace posatlas::cli {
namespace {

using nlohmann::json;
using namespace quantity_kernels;

// ------------------------------------------------------------------ quantities

struct Quantity {
    std::string name;
    std::string summary;
    OptionTable options; // its own options (beside the model's, --format, --out, --quiet)
    std::function<void(const Options&, Scenario&, std::ostream&)> run;
    // The encoding it needs: the method whose descriptor lists it (registry.h), or none for `matrix`.
    std::optional<Method> method() const { return quantity_method(name); }
};

// ------------------------------------------------------------------ the options of the quantities
// Each declared once; a quantity lists the ones it reads.

const OptionSpec kFrom{.name = "from",
                       .type = ArgType::Int,
                       .help = translate("Cli", "First relative (or absolute) position."),
                       .lo = -1e9,
                       .hi = 1e9,
                       .required = true};
const OptionSpec kTo{.name = "to",
                     .type = ArgType::Int,
                     .help =
                         translate("Cli", "Last position (inclusive); --to - --from must be below 10000000."),
                     .lo = -1e9,
                     .hi = 1e9,
                     .required = true};
const OptionSpec kQueryPosition{.name = "query-position",
                                .type = ArgType::Real,
                                .help = translate("Cli", "Position m the query is rotated to (tokens)."),
                                .metavar = "M",
                                .default_value = "0",
                                .lo = -1e15,
                                .hi = 1e15};
const OptionSpec kKeyPosition{.name = "key-position",
                              .type = ArgType::Real,
                              .help = translate("Cli", "Position n the key is rotated to (tokens)."),
                              .metavar = "N",
                              .default_value = "0",
                              .lo = -1e15,
                              .hi = 1e15};

const OptionSpec kPosition{.name = "position",
                           .type = ArgType::Real,
                           .help = translate("Cli", "The token position m."),
                           .metavar = "M",
                           .lo = -1e15,
                           .hi = 1e15,
                           .required = true};
const OptionSpec kQueryPatch{
    .name = "query-patch",
    .type = ArgType::Int,
    .help = translate("Cli", "The query patch, numbered row by row (row P / W, column P mod W on a grid W "
                             "patches wide)."),
    .metavar = "P",
    .default_value = "0",
    .lo = -static_cast<double>(kMaxSeqLen),
    .hi = static_cast<double>(kMaxSeqLen),
    .allowed = translate("Cli", "an integer in [0, N), N the number of patches (--seq-len)")};
const OptionSpec kLength{.name = "length",
                         .type = ArgType::Int,
                         .help = translate("Cli", "Number of positions (rows), from 0."),
                         .lo = 1,
                         .hi = static_cast<double>(kMaxSeqLen),
                         .required = true};

std::string integer_text(std::int64_t v)
{
    return std::to_string(v);
}

// rope-decay: The largest distance, and how many distances are sampled.
OptionTable rope_decay_options()
{
    return {
        {.name = "max-distance",
         .type = ArgType::Int,
         .help = translate("Cli", "The largest relative distance R (tokens)."),
         .metavar = "R",
         .lo = 0,
         .hi = static_cast<double>(kMaxDistance),
         .required = true},
        {.name = "points",
         .type = ArgType::Int,
         .help = translate(
             "Cli",
             "Sample N log-spaced distances in [0, R] instead of every integer (needed for R >= 10000000)."),
         .default_text = translate("Cli", "every distance"),
         .lo = 2,
         .hi = 1e7}};
}

// rope-score: The query and key vectors and where they are rotated to.
OptionTable rope_score_options()
{
    return {
        {.name = "query",
         .type = ArgType::RealList,
         .help = translate(
             "Cli",
             "The query vector q, head-dim numbers (sets --head-dim when neither it nor a model is given)."),
         .metavar = "Q1,Q2,..",
         .required = true},
        {.name = "key",
         .type = ArgType::RealList,
         .help = translate("Cli", "The key vector k, head-dim numbers."),
         .metavar = "K1,K2,..",
         .required = true},
        kQueryPosition,
        kKeyPosition};
}

// rope-pairs: The trained and target context the table compares.
OptionTable rope_pairs_options()
{
    return {
        {.name = "trained-length",
         .type = ArgType::Int,
         .help = translate("Cli", "The context the model was trained on (tokens)."),
         .default_text = translate("Cli", "the model's original_max_position_embeddings"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "target-length",
         .type = ArgType::Int,
         .help = translate("Cli", "The context it is extended to (tokens)."),
         .default_text = translate("Cli", "the model's max_position_embeddings (trained length x factor)"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)}};
}

// attention-entropy: The context lengths, and the random draws averaged per length.
OptionTable attention_entropy_options()
{
    return {
        {.name = "lengths",
         .type = ArgType::RealList,
         .help = arg(translate("Cli", "Context lengths N (tokens), each an integer in [1, %1], at most %2 of "
                                      "them, adding up to at most %3 / --trials."),
                     {integer_text(kMaxSeqLen), integer_text(kMaxEntropyLengths),
                      integer_text(kMaxEntropyKeyTrials)}),
         .metavar = "N1,N2,..",
         .allowed = translate("Cli", "comma-separated integers"),
         .required = true},
        {.name = "trials",
         .type = ArgType::Int,
         .help = translate("Cli", "Random query/key draws averaged per length."),
         .default_value = "8",
         .lo = 1,
         .hi = 1024},
        {.name = "seed",
         .type = ArgType::Int,
         .help = translate("Cli", "Seed of the random queries and keys."),
         .default_value = "0",
         .lo = 0,
         .hi = kExactIntegerLimit},
        {.name = "query-scale",
         .type = ArgType::Choice,
         .help = translate("Cli", "A length-dependent scale of the last query, for the column "
                                  "entropy_with_query_scale_nats: logn (Qwen's use_logn_attn: log base L of "
                                  "the position past the trained length L) or llama4 (Llama 4's attention "
                                  "temperature, --floor-scale and --attn-scale)."),
         .default_value = "none",
         .choices = {"none", "logn", "llama4"}},
        {.name = "floor-scale",
         .type = ArgType::Real,
         .help = translate("Cli", "Llama 4's floor_scale (positions per step of the temperature)."),
         .default_value = "8192",
         .lo = 1,
         .hi = 1e9},
        {.name = "attn-scale",
         .type = ArgType::Real,
         .help = translate("Cli", "Llama 4's attn_scale (the temperature's slope per ln step)."),
         .default_value = "0.1",
         .lo = 0,
         .hi = 10}};
}

// matrix: The kind, the window of positions, its downsampling and the arithmetic.
OptionTable matrix_options()
{
    return {
        {.name = "kind",
         .type = ArgType::Text,
         .help = translate(
             "Cli",
             "Which matrix: logits, weights (the softmax of each row of the logits; --causal masks the "
             "keys "
             "after the query, --window sliding|chunked with --window-span narrows that mask, "
             "--text \"the dog bit the man\" makes the words the positions), "
             "encoding, bias, "
             "buckets, cope-positions or cope-gates, as the method offers them."),
         .metavar = "KIND",
         .default_text = translate("Cli", "the method's first (most telling) kind")},
        {.name = "row0",
         .type = ArgType::Int,
         .help = translate("Cli", "First row (query position) of the window."),
         .default_value = "0",
         .lo = 0,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "col0",
         .type = ArgType::Int,
         .help = translate("Cli", "First column (key position) of the window."),
         .default_value = "0",
         .lo = 0,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "rows",
         .type = ArgType::Int,
         .help = translate("Cli", "Rows of the window (positions)."),
         .default_text = translate("Cli", "up to --seq-len"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "cols",
         .type = ArgType::Int,
         .help = translate("Cli", "Columns of the window (positions)."),
         .default_text = translate("Cli", "up to --seq-len"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "out-rows",
         .type = ArgType::Int,
         .help = translate("Cli", "Downsample the window to this many rows."),
         .default_text = translate("Cli", "no downsampling"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "out-cols",
         .type = ArgType::Int,
         .help = translate("Cli", "Downsample the window to this many columns."),
         .default_text = translate("Cli", "no downsampling"),
         .lo = 1,
         .hi = static_cast<double>(kMaxSeqLen)},
        {.name = "sample",
         .type = ArgType::Choice,
         .help = translate(
             "Cli", "A downsampled cell is the exact mean of its block, or the single cell at its corner."),
         .default_value = "block-mean",
         .choices = {"block-mean", "point"}},
        {.name = "precision",
         .type = ArgType::Choice,
         .help = translate(
             "Cli", "Arithmetic of the product: single rounds its factors to float32 and writes the float32 "
                    "result "
                    "(faster, shorter numbers, within the bound in docs/benchmarks.md)."),
         .default_value = "double",
         .choices = {"double", "single"}}};
}

const std::vector<Quantity>& quantities()
{
    static const std::vector<Quantity> q{
        {"rope-frequencies",
         translate("Cli", "RoPE inverse frequencies, wavelengths, attention factor (and YaRN ramp)"),
         {},
         rope_frequencies},
        {"rope-decay", translate("Cli", "RoFormer long-term decay bound and mean cos(r theta) for r = 0..R"),
         rope_decay_options(), rope_decay},
        {"rope-score",
         translate("Cli", "q.k after rotating q to position m and k to position n (not divided by sqrt(d))"),
         rope_score_options(), rope_score},
        {"rope-angles",
         translate("Cli", "rotation angle of every pair at a position (radians, mod 2 pi)"),
         {kPosition},
         rope_angles_quantity},
        {"rope-pairs",
         translate(
             "Cli",
             "per-pair table: theta, wavelength, scaled theta, ratio, regime, max angles (trained/target)"),
         rope_pairs_options(), rope_pairs_quantity},
        {"attention-entropy",
         translate("Cli", "mean softmax entropy of the last query over N keys, with/without temperature"),
         attention_entropy_options(), attention_entropy_quantity},
        {"mrope-positions",
         translate("Cli",
                   "M-RoPE position ids (t, h, w) and kind of every token of --token-layout, then text up to "
                   "--seq-len (Qwen2-VL get_rope_index)"),
         {},
         mrope_positions_quantity},
        {"alibi-slopes",
         translate("Cli", "ALiBi head slopes (Press et al.; scaled with --alibi-scaling)"),
         {},
         alibi_slopes_quantity},
        {"t5-buckets",
         translate("Cli", "T5 relative position -> bucket (relative position = key - query)"),
         {kFrom, kTo},
         t5_buckets},
        {"deberta-buckets",
         translate("Cli", "DeBERTa log-bucketed relative positions"),
         {kFrom, kTo},
         deberta_buckets},
        {"sinusoidal",
         translate("Cli", "sinusoidal encoding matrix, positions x dimensions"),
         {kLength},
         sinusoidal_quantity},
        {"learned",
         translate(
             "Cli",
             "learned absolute embeddings of positions --from..--to: the seeded table, --table FILE, or "
             "--weights CHECKPOINT.safetensors [--tensor NAME] as stored (null beyond the trained length)"),
         {kFrom, kTo},
         learned_quantity},
        {"patch-grid",
         translate("Cli", "one query patch against every patch of an image-patch method's grid (rope2d, "
                          "rope-mixed: logits; swin: bias): patch, row, column, value"),
         {kQueryPatch},
         patch_grid_quantity},
        {"matrix",
         translate("Cli",
                   "a heatmap matrix of any method (--method, --kind logits|weights|bias|buckets|...)"),
         matrix_options(), matrix_quantity},
        {"scenario",
         translate(
             "Cli",
             "the model the options describe (preset or config, then each option), as a session's scenario"),
         {},
         scenario_quantity},
    };
    return q;
}

// Options every quantity has: how and where to write.
OptionTable output_options()
{
    return {
        {.name = "format",
         .type = ArgType::Choice,
         .help = translate("Cli", "Output format."),
         .default_text = translate("Cli", "csv when --out ends in .csv, else json"),
         .choices = {"json", "csv"}},
        {.name = "out",
         .type = ArgType::Path,
         .help = translate(
             "Cli", "Write to FILE (replaced whole, only on success; its name is then printed) instead of "
                    "standard output; - is standard output."),
         .metavar = "FILE|-",
         .default_value = "-",
         .allowed = translate("Cli", "a file name or -")},
        quiet_option()};
}

std::vector<HelpSection> quantity_sections(const Quantity& q)
{
    std::vector<HelpSection> sections{{arg(translate("Cli", "Options of %1"), {q.name}), q.options},
                                      {translate("Cli", "Output"), output_options()}};
    for (HelpSection& s : scenario_sections(q.method()))
        sections.push_back(std::move(s));
    if (q.method()) {
        // Every quantity accepts every model option, so that one option list serves several quantities
        // (`--causal` beside `alibi-slopes`); another method's parameters change nothing here.
        const OptionTable own = flatten(sections);
        HelpSection other{
            translate("Cli", "Other methods' parameters"),
            {},
            true,
            translate("Cli",
                      "Accepted and ignored (they belong to other methods; posatlas compute matrix --help "
                      "explains them):")};
        for (const OptionSpec& s : flatten(scenario_sections(std::nullopt)))
            if (std::none_of(own.begin(), own.end(), [&](const OptionSpec& o) { return o.name == s.name; }))
                other.options.push_back(s);
        sections.push_back(std::move(other));
    }
    sections.push_back({translate("Cli", "Help"), {help_option()}});
    return sections;
}

OptionTable quantity_table(const Quantity& q)
{
    return flatten(quantity_sections(q));
}

const Quantity* find_quantity(const std::string& name)
{
    for (const auto& q : quantities())
        if (q.name == name)
            return &q;
    return nullptr;
}

std::string quantity_usage(const Quantity& q)
{
    return usage_prefix() + "posatlas compute " + q.name +
           " [--preset NAME | --config FILE] [options] [--format json|csv] "
           "[--out FILE|-]";
}

// True when `path` is the file standard output already writes to: /dev/stdout, /proc/self/fd/1, a symlink
// to them, or `--out x.json > x.json`.
bool is_standard_output(const std::string& path)
{
    struct stat named {
    };
    struct stat out {
    };
    return ::stat(path.c_str(), &named) == 0 && ::fstat(STDOUT_FILENO, &out) == 0 &&
           named.st_dev == out.st_dev && named.st_ino == out.st_ino;
}

// Writes the quantity to --out: standard output (also when --out names it; then the path is not printed
// after the numbers), or a file through the one writer (io/safe_write.h: a regular file is replaced only
// when everything was written, a device or FIFO is written straight), followed by the path on stdout.
void write_quantity(const Quantity& q, const Options& o, Scenario& s, std::ostream& out)
{
    const std::string path = *o.text("out");
    if (path == "-" || is_standard_output(path))
        return q.run(o, s, out);
    try {
        SafeFileWriter file(path); // an exception before commit() removes the temporary file
        SafeWriterBuf buffer(file);
        std::ostream stream(&buffer);
        q.run(o, s, stream);
        buffer.finish();
        file.commit();
    } catch (const OutputFileError& e) {
        throw UsageError(std::string("--out: ") + e.what());
    }
    out << path << '\n';
}

} // namespace

std::string compute_usage()
{
    std::string u = usage_prefix() +
                    "posatlas compute QUANTITY [--preset NAME | --config FILE] [options] [--format json|csv] "
                    "[--out FILE|-]\n" +
                    translate("Cli", "Each quantity's options (meaning, default, allowed values): ") +
                    "posatlas compute QUANTITY --help\n\n" + translate("Cli", "quantities:") + '\n';
    for (const auto& q : quantities()) {
        std::string name = "  " + q.name;
        name.append(name.size() < 20 ? 20 - name.size() : 0, ' ');
        u += name + q.summary + '\n';
    }
    u += '\n';
    wrap(u,
         translate("Cli",
                   "Every quantity takes --format json|csv, --out FILE|- and --quiet, and the model options: "
                   "--preset or --config, then the parameters of its method (Hugging Face config keys with "
                   "dashes; matrix takes --method and the parameters of every method)."),
         0, 0);
    return u;
}

std::string compute_help(const std::string& quantity)
{
    const Quantity* q = find_quantity(quantity);
    if (!q)
        return compute_usage();
    return render_help(quantity_usage(*q), q->summary + translate("Cli", "."), quantity_sections(*q));
}

std::vector<std::string> quantity_names()
{
    std::vector<std::string> names;
    for (const auto& q : quantities())
        names.push_back(q.name);
    return names;
}

std::string quantity_summary(const std::string& quantity)
{
    const Quantity* q = find_quantity(quantity);
    return q ? q->summary : std::string();
}

std::vector<OptionSpec> quantity_own_options(const std::string& quantity)
{
    const Quantity* q = find_quantity(quantity);
    return q ? q->options : std::vector<OptionSpec>();
}

QuantityCall parse_quantity(const std::string& quantity, const std::vector<std::string>& args)
{
    const Quantity* q = find_quantity(quantity);
    if (!q) {
        const std::string names = join(quantities(), ", ", [](const Quantity& qq) { return qq.name; });
        throw UsageError(arg(translate("Cli", "unknown quantity '%1'; one of %2"), {quantity, names}));
    }
    // The table is built from the whole registry with its help texts (tens of milliseconds): once per
    // quantity, as a notebook reads a scenario's fields one by one.
    static std::mutex mutex;
    static std::map<std::string, OptionTable> tables;
    OptionTable table;
    {
        const std::lock_guard lock(mutex);
        auto it = tables.find(q->name);
        if (it == tables.end())
            it = tables.emplace(q->name, quantity_table(*q)).first;
        table = it->second;
    }
    Options o(args, std::move(table));
    if (o.help() || !o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'; options start with --"),
                             {o.help() ? std::string("--help") : o.positional().front()}));
    Scenario s = scenario_from_options(o, q->method(), q->name);
    return {std::move(o), std::move(s)};
}

int run_compute(const std::vector<std::string>& args, std::ostream& out)
{
    if (args.empty() || args.front() == "--help" || args.front() == "-h") {
        out << compute_usage();
        if (args.empty())
            throw UsageError(arg(translate("Cli", "compute needs a QUANTITY: one of %1"),
                                 {join(quantities(), ", ", [](const Quantity& qq) { return qq.name; })}));
        return 0;
    }
    const Quantity* q = find_quantity(args.front());
    if (!q) {
        const std::string names = join(quantities(), ", ", [](const Quantity& qq) { return qq.name; });
        throw UsageError(arg(translate("Cli", "unknown quantity '%1'; one of %2"), {args.front(), names}));
    }
    const Options o(std::vector<std::string>(args.begin() + 1, args.end()), quantity_table(*q));
    if (o.help()) {
        out << compute_help(q->name);
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'; options start with --"),
                             {o.positional().front()}));
    Scenario s = scenario_from_options(o, q->method(), q->name);
    try {
        write_quantity(*q, o, s, out);
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    return 0;
}

std::vector<std::pair<std::string, OptionSet>> compute_option_sets()
{
    std::vector<std::pair<std::string, OptionSet>> sets;
    for (const auto& q : quantities())
        sets.emplace_back(q.name, option_set(quantity_table(q)));
    return sets;
}

namespace {

OptionTable presets_table()
{
    return {{.name = "format",
             .type = ArgType::Choice,
             .help = translate("Cli",
                               "text: one line per preset (id, family, method, source); json: every field."),
             .default_value = "text",
             .choices = {"text", "json"}}};
}

} // namespace

OptionSet presets_option_set()
{
    return option_set(presets_table());
}

std::string presets_help()
{
    return render_help(
        usage_prefix() + "posatlas presets [--format text|json]",
        translate("Cli", "Lists the shipped model presets (for --preset NAME)."),
        {{translate("Cli", "Options"), presets_table()}, {translate("Cli", "Help"), {help_option()}}});
}

int run_presets(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, presets_table());
    if (o.help()) {
        out << presets_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError(arg(translate("Cli", "unexpected argument '%1'"), {o.positional().front()}));
    const auto format = *o.choice("format");

    const auto presets = list_presets();
    if (format == "json") {
        json list = json::array();
        for (const auto& p : presets)
            list.push_back({{"id", p.id},
                            {"name", p.name},
                            {"family", p.family},
                            {"method", std::string(method_id(p.method))},
                            {"source", p.source},
                            {"description", p.description}});
        write_json(out, json{{"presets", list}});
        return 0;
    }
    for (const auto& p : presets)
        out << std::left << std::setw(22) << p.id << std::setw(12) << p.family << std::setw(16)
            << method_id(p.method) << p.source << '\n';
    return 0;
}

} // namespace posatlas::cli
