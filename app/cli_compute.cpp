// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_compute.h"

#include "cli_quantities.h"
#include "methods/registry.h"

#include "analysis/attention_entropy.h"
#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "cli_help.h"
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
                       .help = "First relative (or absolute) position.",
                       .lo = -1e9,
                       .hi = 1e9,
                       .required = true};
const OptionSpec kTo{.name = "to",
                     .type = ArgType::Int,
                     .help = "Last position (inclusive); --to - --from must be below 10000000.",
                     .lo = -1e9,
                     .hi = 1e9,
                     .required = true};
const OptionSpec kQueryPosition{.name = "query-position",
                                .type = ArgType::Real,
                                .help = "Position m the query is rotated to (tokens).",
                                .metavar = "M",
                                .default_value = "0",
                                .lo = -1e15,
                                .hi = 1e15};
const OptionSpec kKeyPosition{.name = "key-position",
                              .type = ArgType::Real,
                              .help = "Position n the key is rotated to (tokens).",
                              .metavar = "N",
                              .default_value = "0",
                              .lo = -1e15,
                              .hi = 1e15};

std::string integer_text(std::int64_t v)
{
    return std::to_string(v);
}

const std::vector<Quantity>& quantities()
{
    static const std::vector<Quantity> q{
        {"rope-frequencies",
         "RoPE inverse frequencies, wavelengths, attention factor (and YaRN ramp)",
         {},
         rope_frequencies},
        {"rope-decay",
         "RoFormer long-term decay bound and mean cos(r theta) for r = 0..R",
         {{.name = "max-distance",
           .type = ArgType::Int,
           .help = "The largest relative distance R (tokens).",
           .metavar = "R",
           .lo = 0,
           .hi = static_cast<double>(kMaxDistance),
           .required = true},
          {.name = "points",
           .type = ArgType::Int,
           .help =
               "Sample N log-spaced distances in [0, R] instead of every integer (needed for R >= 10000000).",
           .default_text = "every distance",
           .lo = 2,
           .hi = 1e7}},
         rope_decay},
        {"rope-score",
         "q.k after rotating q to position m and k to position n (not divided by sqrt(d))",
         {{.name = "query",
           .type = ArgType::RealList,
           .help =
               "The query vector q, head-dim numbers (sets --head-dim when neither it nor a model is given).",
           .metavar = "Q1,Q2,..",
           .required = true},
          {.name = "key",
           .type = ArgType::RealList,
           .help = "The key vector k, head-dim numbers.",
           .metavar = "K1,K2,..",
           .required = true},
          kQueryPosition,
          kKeyPosition},
         rope_score},
        {"rope-angles",
         "rotation angle of every pair at a position (radians, mod 2 pi)",
         {{.name = "position",
           .type = ArgType::Real,
           .help = "The token position m.",
           .metavar = "M",
           .lo = -1e15,
           .hi = 1e15,
           .required = true}},
         rope_angles_quantity},
        {"rope-pairs",
         "per-pair table: theta, wavelength, scaled theta, ratio, regime, max angles (trained/target)",
         {{.name = "trained-length",
           .type = ArgType::Int,
           .help = "The context the model was trained on (tokens).",
           .default_text = "the model's original_max_position_embeddings",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "target-length",
           .type = ArgType::Int,
           .help = "The context it is extended to (tokens).",
           .default_text = "the model's max_position_embeddings (trained length x factor)",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen)}},
         rope_pairs_quantity},
        {"attention-entropy",
         "mean softmax entropy of the last query over N keys, with/without temperature",
         {{.name = "lengths",
           .type = ArgType::RealList,
           .help = "Context lengths N (tokens), each an integer in [1, " + integer_text(kMaxSeqLen) +
                   "], at most " + integer_text(kMaxEntropyLengths) + " of them, adding up to at most " +
                   integer_text(kMaxEntropyKeyTrials) + " / --trials.",
           .metavar = "N1,N2,..",
           .allowed = "comma-separated integers",
           .required = true},
          {.name = "trials",
           .type = ArgType::Int,
           .help = "Random query/key draws averaged per length.",
           .default_value = "8",
           .lo = 1,
           .hi = 1024},
          {.name = "seed",
           .type = ArgType::Int,
           .help = "Seed of the random queries and keys.",
           .default_value = "0",
           .lo = 0,
           .hi = kExactIntegerLimit}},
         attention_entropy_quantity},
        {"alibi-slopes",
         "ALiBi head slopes (Press et al.; scaled with --alibi-scaling)",
         {},
         alibi_slopes_quantity},
        {"t5-buckets",
         "T5 relative position -> bucket (relative position = key - query)",
         {kFrom, kTo},
         t5_buckets},
        {"deberta-buckets", "DeBERTa log-bucketed relative positions", {kFrom, kTo}, deberta_buckets},
        {"sinusoidal",
         "sinusoidal encoding matrix, positions x dimensions",
         {{.name = "length",
           .type = ArgType::Int,
           .help = "Number of positions (rows), from 0.",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen),
           .required = true}},
         sinusoidal_quantity},
        {"learned",
         "learned absolute embeddings of positions --from..--to: the seeded table, --table FILE, or "
         "--weights CHECKPOINT.safetensors [--tensor NAME] as stored (null beyond the trained length)",
         {kFrom, kTo},
         learned_quantity},
        {"matrix",
         "a heatmap matrix of any method (--method, --kind logits|weights|bias|buckets|...)",
         {{.name = "kind",
           .type = ArgType::Text,
           .help = "Which matrix: logits, weights (the softmax of each row of the logits; --causal masks the "
                   "keys "
                   "after the query, --text \"the dog bit the man\" makes the words the positions), "
                   "encoding, bias, "
                   "buckets, cope-positions or cope-gates, as the method offers them.",
           .metavar = "KIND",
           .default_text = "the method's first (most telling) kind"},
          {.name = "row0",
           .type = ArgType::Int,
           .help = "First row (query position) of the window.",
           .default_value = "0",
           .lo = 0,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "col0",
           .type = ArgType::Int,
           .help = "First column (key position) of the window.",
           .default_value = "0",
           .lo = 0,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "rows",
           .type = ArgType::Int,
           .help = "Rows of the window (positions).",
           .default_text = "up to --seq-len",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "cols",
           .type = ArgType::Int,
           .help = "Columns of the window (positions).",
           .default_text = "up to --seq-len",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "out-rows",
           .type = ArgType::Int,
           .help = "Downsample the window to this many rows.",
           .default_text = "no downsampling",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "out-cols",
           .type = ArgType::Int,
           .help = "Downsample the window to this many columns.",
           .default_text = "no downsampling",
           .lo = 1,
           .hi = static_cast<double>(kMaxSeqLen)},
          {.name = "sample",
           .type = ArgType::Choice,
           .help = "A downsampled cell is the exact mean of its block, or the single cell at its corner.",
           .default_value = "block-mean",
           .choices = {"block-mean", "point"}},
          {.name = "precision",
           .type = ArgType::Choice,
           .help = "Arithmetic of the product: single rounds its factors to float32 and writes the float32 "
                   "result "
                   "(faster, shorter numbers, within the bound in docs/benchmarks.md).",
           .default_value = "double",
           .choices = {"double", "single"}}},
         matrix_quantity},
        {"scenario",
         "the model the options describe (preset or config, then each option), as a session's scenario",
         {},
         scenario_quantity},
    };
    return q;
}

// Options every quantity has: how and where to write.
OptionTable output_options()
{
    return {{.name = "format",
             .type = ArgType::Choice,
             .help = "Output format.",
             .default_text = "csv when --out ends in .csv, else json",
             .choices = {"json", "csv"}},
            {.name = "out",
             .type = ArgType::Path,
             .help = "Write to FILE (replaced whole, only on success; its name is then printed) instead of "
                     "standard output; - is standard output.",
             .metavar = "FILE|-",
             .default_value = "-",
             .allowed = "a file name or -"},
            quiet_option()};
}

std::vector<HelpSection> quantity_sections(const Quantity& q)
{
    std::vector<HelpSection> sections{{"Options of " + q.name, q.options}, {"Output", output_options()}};
    for (HelpSection& s : scenario_sections(q.method()))
        sections.push_back(std::move(s));
    if (q.method()) {
        // Every quantity accepts every model option, so that one option list serves several quantities
        // (`--causal` beside `alibi-slopes`); another method's parameters change nothing here.
        const OptionTable own = flatten(sections);
        HelpSection other{
            "Other methods' parameters",
            {},
            true,
            "Accepted and ignored (they belong to other methods; posatlas compute matrix --help "
            "explains them):"};
        for (const OptionSpec& s : flatten(scenario_sections(std::nullopt)))
            if (std::none_of(own.begin(), own.end(), [&](const OptionSpec& o) { return o.name == s.name; }))
                other.options.push_back(s);
        sections.push_back(std::move(other));
    }
    sections.push_back({"Help", {help_option()}});
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
    return "usage: posatlas compute " + q.name +
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
    std::ostringstream u;
    u << "usage: posatlas compute QUANTITY [--preset NAME | --config FILE] [options] [--format json|csv] "
         "[--out FILE|-]\n"
         "Each quantity's options (meaning, default, allowed values): posatlas compute QUANTITY --help\n\n"
         "quantities:\n";
    for (const auto& q : quantities())
        u << "  " << std::left << std::setw(18) << q.name << q.summary << "\n";
    u << "\nEvery quantity takes --format json|csv, --out FILE|- and --quiet, and the model options: "
         "--preset or\n"
         "--config, then the parameters of its method (Hugging Face config keys with dashes; matrix takes\n"
         "--method and the parameters of every method).\n";
    return u.str();
}

std::string compute_help(const std::string& quantity)
{
    const Quantity* q = find_quantity(quantity);
    if (!q)
        return compute_usage();
    return render_help(quantity_usage(*q), q->summary + ".", quantity_sections(*q));
}

std::vector<std::string> quantity_names()
{
    std::vector<std::string> names;
    for (const auto& q : quantities())
        names.push_back(q.name);
    return names;
}

int run_compute(const std::vector<std::string>& args, std::ostream& out)
{
    if (args.empty() || args.front() == "--help" || args.front() == "-h") {
        out << compute_usage();
        if (args.empty())
            throw UsageError("compute needs a QUANTITY: one of " +
                             join(quantities(), ", ", [](const Quantity& qq) { return qq.name; }));
        return 0;
    }
    const Quantity* q = find_quantity(args.front());
    if (!q) {
        const std::string names = join(quantities(), ", ", [](const Quantity& qq) { return qq.name; });
        throw UsageError("unknown quantity '" + args.front() + "'; one of " + names);
    }
    const Options o(std::vector<std::string>(args.begin() + 1, args.end()), quantity_table(*q));
    if (o.help()) {
        out << compute_help(q->name);
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'; options start with --");
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
             .help = "text: one line per preset (id, family, method, source); json: every field.",
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
    return render_help("usage: posatlas presets [--format text|json]",
                       "Lists the shipped model presets (for --preset NAME).",
                       {{"Options", presets_table()}, {"Help", {help_option()}}});
}

int run_presets(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, presets_table());
    if (o.help()) {
        out << presets_help();
        return 0;
    }
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'");
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
