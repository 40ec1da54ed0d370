// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_compute.h"

#include "methods/registry.h"

#include "analysis/attention_entropy.h"
#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "cli_options.h"
#include "compute/attention_logits.h"
#include "io/model_config.h"
#include "io/number_text.h"
#include "io/presets.h"
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

namespace posatlas::cli {
namespace {

using nlohmann::json;

// ------------------------------------------------------------------ output helpers

enum class Format { Json, Csv };

Format format_of(const Options& o)
{
    return o.choice("format", {"json", "csv"}).value_or("json") == "csv" ? Format::Csv : Format::Json;
}

// Numbers in CSV follow core's one policy (number_text.h): integers as integers, else the shortest
// round trip; NaN is an empty cell.
std::string csv_number(double v) { return number_text(v); }

void write_csv(std::ostream& out, const std::vector<CsvColumn>& columns) { write_csv_columns(out, columns); }

template <typename T>
std::vector<double> to_doubles(const std::vector<T>& v)
{
    return std::vector<double>(v.begin(), v.end());
}

json matrix_json(const Eigen::MatrixXd& m)
{
    json rows = json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        json row = json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            const double v = m(r, c);
            row.push_back(std::isfinite(v) ? json(v) : json(nullptr));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

void write_matrix_csv(std::ostream& out, const Eigen::MatrixXd& m, const std::string& row_name,
                      const std::vector<std::int64_t>& row_index, const std::string& col_prefix,
                      const std::vector<std::int64_t>& col_index)
{
    out << row_name;
    for (Eigen::Index c = 0; c < m.cols(); ++c)
        out << ',' << col_prefix << col_index[static_cast<std::size_t>(c)];
    out << '\n';
    std::string line;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        line = std::to_string(row_index[static_cast<std::size_t>(r)]);
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            line += ',';
            append_number_text(line, m(r, c));
        }
        line += '\n';
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
}

void write_json(std::ostream& out, const json& j) { out << j.dump() << '\n'; }

std::pair<std::int64_t, std::int64_t> range_options(const Options& o)
{
    constexpr std::int64_t kLimit = 1'000'000'000;
    const auto from = o.integer("from", -kLimit, kLimit);
    const auto to = o.integer("to", -kLimit, kLimit);
    if (!from || !to)
        throw UsageError("--from and --to are required: the range of relative positions, e.g. --from -64 --to 64");
    if (*from > *to)
        throw UsageError("--to must be >= --from (got --from " + std::to_string(*from) + " --to "
                         + std::to_string(*to) + ")");
    if (*to - *from >= 10'000'000)
        throw UsageError("--to - --from must be < 10000000 (got " + std::to_string(*to - *from) + ")");
    return {*from, *to};
}

// ------------------------------------------------------------------ quantities

struct Quantity {
    std::string name;
    std::string summary;
    std::optional<Method> method; // the encoding it needs
    std::vector<std::string> options;
    std::vector<std::string> flags;
    bool tabular; // accepts --format csv
    std::function<void(const Options&, Scenario&, std::ostream&)> run;
};

json frequencies_json(const RopeFrequencies& f)
{
    json j;
    j["rope_type"] = std::string(rope_type_id(f.rope_type));
    j["rotary_dim"] = f.rotary_dim;
    j["base"] = f.base_used;
    j["factor"] = f.factor_used;
    j["inv_freq"] = f.inv_freq;
    j["inv_freq_original"] = f.inv_freq_original;
    j["attention_factor"] = f.attention_factor;
    j["wavelength"] = f.wavelength;
    if (!f.ramp.empty())
        j["ramp"] = f.ramp;
    std::vector<std::string> regime;
    for (auto r : f.regime)
        regime.emplace_back(pair_regime_id(r));
    j["regime"] = regime;
    return j;
}

void rope_frequencies(const Options& o, Scenario& s, std::ostream& out)
{
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    if (format_of(o) == Format::Json)
        return write_json(out, frequencies_json(f));
    std::vector<double> pair(f.inv_freq.size());
    for (std::size_t i = 0; i < pair.size(); ++i)
        pair[i] = static_cast<double>(i);
    std::vector<std::pair<std::string, std::vector<double>>> cols{
        {"pair", pair}, {"inv_freq_rad_per_token", f.inv_freq},
        {"inv_freq_original_rad_per_token", f.inv_freq_original}, {"wavelength_tokens", f.wavelength}};
    if (!f.ramp.empty())
        cols.emplace_back("ramp", f.ramp);
    write_csv(out, cols);
}

void rope_decay(const Options& o, Scenario& s, std::ostream& out)
{
    const auto max_distance = o.integer("max-distance", 0, kMaxDistance);
    if (!max_distance)
        throw UsageError("--max-distance is required: the largest relative distance r, in [0, "
                         + std::to_string(kMaxDistance) + "]");
    const auto points = o.integer("points", 2, 10'000'000);
    if (!points && *max_distance >= 10'000'000)
        throw UsageError("--max-distance above 9999999 needs --points N (a log-spaced sample of N distances)");
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    std::vector<double> distances;
    if (points) {
        distances = decay_distances(*max_distance, static_cast<std::size_t>(*points), true);
    } else {
        distances.resize(static_cast<std::size_t>(*max_distance + 1));
        for (std::size_t r = 0; r < distances.size(); ++r)
            distances[r] = static_cast<double>(r);
    }
    const auto bound = rope_decay_bound(f.inv_freq, distances);
    const auto mean_cos = rope_mean_cos(f.inv_freq, distances);
    if (format_of(o) == Format::Csv)
        return write_csv(out, {{"distance_tokens", distances}, {"bound", bound}, {"mean_cos", mean_cos}});
    json j;
    json d = json::array();
    for (double r : distances)
        d.push_back(static_cast<std::int64_t>(r));
    j["distance"] = std::move(d);
    j["bound"] = bound;
    j["mean_cos"] = mean_cos;
    write_json(out, j);
}

Eigen::VectorXd vector_option(const Options& o, const std::string& name)
{
    const auto v = o.real_list(name);
    if (!v)
        throw UsageError("--" + name + " is required: a comma-separated vector of head-dim numbers");
    return Eigen::Map<const Eigen::VectorXd>(v->data(), static_cast<Eigen::Index>(v->size()));
}

void rope_score(const Options& o, Scenario& s, std::ostream& out)
{
    const Eigen::VectorXd q = vector_option(o, "query");
    const Eigen::VectorXd k = vector_option(o, "key");
    if (!o.has("head-dim") && !o.has("preset") && !o.has("config")) {
        s.params<RopeParams>().head_dim = static_cast<int>(q.size());
        validate(s.params<RopeParams>());
    }
    if (q.size() != s.params<RopeParams>().head_dim || k.size() != s.params<RopeParams>().head_dim)
        throw UsageError("--query and --key must each have head-dim = " + std::to_string(s.params<RopeParams>().head_dim)
                         + " numbers (got " + std::to_string(q.size()) + " and " + std::to_string(k.size()) + ")");
    const auto m = o.real("query-position").value_or(0.0);
    const auto n = o.real("key-position").value_or(0.0);
    for (const auto& [name, v] : {std::pair{"query-position", m}, std::pair{"key-position", n}})
        if (std::abs(v) > 1e15)
            throw UsageError(std::string("--") + name + " must be in [-1e15, 1e15] (got " + format_number(v) + ")");
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    json j;
    j["score"] = posatlas::rope_score(f, q, k, m, n, s.params<RopeParams>().pairing);
    j["attention_factor"] = f.attention_factor;
    j["pairing"] = s.params<RopeParams>().pairing == RopePairing::Half ? "half" : "interleaved";
    write_json(out, j);
}

void rope_angles_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto position = o.real("position");
    if (!position)
        throw UsageError("--position is required: the token position m");
    if (std::abs(*position) > 1e15)
        throw UsageError("--position must be in [-1e15, 1e15] (got " + format_number(*position) + ")");
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    const auto angles = rope_angles(f, *position);
    if (format_of(o) == Format::Csv) {
        std::vector<double> pair(angles.size());
        for (std::size_t i = 0; i < pair.size(); ++i)
            pair[i] = static_cast<double>(i);
        return write_csv(out, {{"pair", pair}, {"angle_rad", angles}, {"inv_freq_rad_per_token", f.inv_freq}});
    }
    json j;
    j["position"] = *position;
    j["angle"] = angles;
    j["inv_freq"] = f.inv_freq;
    write_json(out, j);
}

void alibi_slopes_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto slopes = alibi_scaled_slopes(s.params<AlibiParams>());
    if (format_of(o) == Format::Csv) {
        std::vector<double> head(slopes.size());
        for (std::size_t h = 0; h < head.size(); ++h)
            head[h] = static_cast<double>(h);
        return write_csv(out, {{"head", head}, {"slope", slopes}});
    }
    json j;
    j["num_heads"] = s.params<AlibiParams>().num_heads;
    j["slopes"] = slopes;
    if (s.params<AlibiParams>().scaling != AlibiScaling::None || s.params<AlibiParams>().slope_scale != 1.0)
        j["reference_slopes"] = alibi_slopes(s.params<AlibiParams>().num_heads);
    write_json(out, j);
}

// Relative positions from..to and their buckets (core computes the series, validating once); an optional
// extra column (DeBERTa's clamped row) follows the bucket.
void write_buckets(const Options& o, std::ostream& out, const std::vector<std::int64_t>& rel,
                   const std::vector<std::int64_t>& bucket, const char* extra_name = nullptr,
                   const std::vector<std::int64_t>& extra = {})
{
    if (format_of(o) == Format::Csv) {
        std::vector<CsvColumn> columns{{"relative_position", to_doubles(rel)}, {"bucket", to_doubles(bucket)}};
        if (extra_name)
            columns.push_back({extra_name, to_doubles(extra)});
        return write_csv(out, columns);
    }
    json j;
    j["relative_position"] = rel;
    j["bucket"] = bucket;
    if (extra_name)
        j[extra_name] = extra;
    write_json(out, j);
}

std::vector<std::int64_t> relative_range(const Options& o)
{
    const auto [from, to] = range_options(o);
    std::vector<std::int64_t> rel(static_cast<std::size_t>(to - from + 1));
    for (std::size_t k = 0; k < rel.size(); ++k)
        rel[k] = from + static_cast<std::int64_t>(k);
    return rel;
}

void t5_buckets(const Options& o, Scenario& s, std::ostream& out)
{
    const std::vector<std::int64_t> rel = relative_range(o);
    const std::vector<int> bucket = t5_relative_position_buckets(s.params<T5Params>(), rel);
    write_buckets(o, out, rel, std::vector<std::int64_t>(bucket.begin(), bucket.end()));
}

void deberta_buckets(const Options& o, Scenario& s, std::ostream& out)
{
    const std::vector<std::int64_t> rel = relative_range(o);
    // bucket: the relative position delta (log-bucketed); bucket_used: the embedding row attention reads,
    // clamped to [-att_span, att_span - 1] (core deberta.h).
    const DebertaPositionSeries series = deberta_relative_positions(s.params<DebertaParams>(), rel);
    write_buckets(o, out, rel, series.delta, "bucket_used", series.delta_used);
}

void sinusoidal_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto length = o.integer("length", 1, kMaxSeqLen);
    if (!length)
        throw UsageError("--length is required: the number of positions, in [1, " + std::to_string(kMaxSeqLen) + "]");
    try {
        require_matrix_fits("length", *length, s.params<SinusoidalParams>().dim);
        require_within_budget("length", *length, s.params<SinusoidalParams>().dim * kBytesPerOutputNumber,
                              "the matrix and its text");
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    const Eigen::MatrixXd pe = sinusoidal_encoding(s.params<SinusoidalParams>(), 0, *length);
    if (format_of(o) == Format::Csv) {
        std::vector<std::int64_t> rows(static_cast<std::size_t>(pe.rows())), cols(static_cast<std::size_t>(pe.cols()));
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<std::int64_t>(i);
        for (std::size_t i = 0; i < cols.size(); ++i)
            cols[i] = static_cast<std::int64_t>(i);
        return write_matrix_csv(out, pe, "position", rows, "dim_", cols);
    }
    json j;
    j["layout"] = s.params<SinusoidalParams>().layout == SinusoidalLayout::Split ? "split" : "interleaved";
    j["base"] = s.params<SinusoidalParams>().base;
    j["matrix"] = matrix_json(pe);
    write_json(out, j);
}

void learned_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto [from, to] = range_options(o);
    if (from < 0)
        throw UsageError("--from must be >= 0 for absolute positions (got " + std::to_string(from) + ")");
    LearnedTable table = [&] {
        if (s.params<LearnedParams>().table_path.empty())
            return LearnedTable::seeded(s.params<LearnedParams>());
        try {
            return LearnedTable::load(s.params<LearnedParams>().table_path);
        } catch (const std::runtime_error& e) {
            throw UsageError(std::string("--table: ") + e.what());
        }
    }();
    // Rows that exist are printed with every dimension; the rest as null.
    const std::int64_t shown = std::max<std::int64_t>(0, std::min(to, table.trained_length() - 1) - from + 1);
    try {
        require_within_budget("to", from + shown, table.dim() * kBytesPerOutputNumber, "the embeddings as text");
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    json positions = json::array(), embeddings = json::array();
    for (std::int64_t p = from; p <= to; ++p) {
        positions.push_back(p);
        const auto e = table.embedding(p);
        if (e)
            embeddings.push_back(std::vector<double>(e->data(), e->data() + e->size()));
        else
            embeddings.push_back(nullptr);
    }
    json j;
    j["trained_length"] = table.trained_length();
    j["dim"] = table.dim();
    j["position"] = std::move(positions);
    j["embedding"] = std::move(embeddings);
    j["note"] = "positions >= trained_length have no learned embedding: null";
    write_json(out, j);
}

void matrix_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto kinds = matrix_kinds_for(s.method);
    MatrixKind kind = kinds.front();
    if (auto k = o.text("kind")) {
        const auto parsed = parse_matrix_kind(*k);
        if (!parsed || std::find(kinds.begin(), kinds.end(), *parsed) == kinds.end()) {
            const std::string allowed =
                join(kinds, "|", [](MatrixKind kk) { return std::string(matrix_kind_id(kk)); });
            throw UsageError("--kind must be one of " + allowed + " for method " + std::string(method_id(s.method))
                             + " (got '" + *k + "')");
        }
        kind = *parsed;
    }
    MatrixWindow w;
    constexpr std::int64_t kBig = kMaxSeqLen;
    w.row0 = o.integer("row0", 0, kBig).value_or(0);
    w.col0 = o.integer("col0", 0, kBig).value_or(0);
    w.rows = o.integer("rows", 1, kBig).value_or(0);
    w.cols = o.integer("cols", 1, kBig).value_or(0);
    w.out_rows = o.integer("out-rows", 1, kBig).value_or(0);
    w.out_cols = o.integer("out-cols", 1, kBig).value_or(0);
    // Downsampled cells are exact block means by default; --sample point gives one cell per block.
    w.sample = o.choice("sample", {"block-mean", "point"}).value_or("block-mean") == "point" ? SampleMode::Point
                                                                                           : SampleMode::BlockMean;
    w.precision = o.choice("precision", {"double", "single"}).value_or("double") == "single" ? Precision::Single
                                                                                             : Precision::Double;
    const MatrixResult r = compute_matrix(s, kind, w);
    // The matrix fits kMaxMatrixElements; its text is what would blow the budget. Refuse before writing.
    try {
        require_within_budget(o.has("out-rows") ? "out_rows" : o.has("rows") ? "rows" : "seq_len", r.values.rows(),
                              r.values.cols() * kBytesPerOutputNumber, "the matrix and its text");
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    if (format_of(o) == Format::Csv) {
        if (r.sampling != MatrixSampling::BlockMean)
            return write_matrix_csv(out, r.values, "row", r.row_index, "col_", r.col_index);
        // Block means: each row and column names its block of positions, first and last.
        out << "row_first,row_last";
        for (std::size_t c = 0; c < r.col_index.size(); ++c)
            out << ",col_" << r.col_index[c] << '-' << r.col_block_end[c] - 1;
        out << '\n';
        for (Eigen::Index row = 0; row < r.values.rows(); ++row) {
            const auto u = static_cast<std::size_t>(row);
            out << r.row_index[u] << ',' << r.row_block_end[u] - 1;
            for (Eigen::Index c = 0; c < r.values.cols(); ++c)
                out << ',' << csv_number(r.values(row, c));
            out << '\n';
        }
        return;
    }
    const auto last = [](const std::vector<std::int64_t>& end) {
        std::vector<std::int64_t> v(end);
        for (auto& x : v)
            --x;
        return v;
    };
    json j;
    j["method"] = std::string(method_id(s.method));
    j["kind"] = std::string(matrix_kind_id(kind));
    j["row_label"] = r.row_label;
    j["col_label"] = r.col_label;
    j["value_label"] = r.value_label;
    // "exact" (one cell per entry), "block-mean" (the mean over positions row_index[r] .. row_last[r]
    // x col_index[c] .. col_last[c]) or "point" (the single cell at row_index[r], col_index[c]).
    j["sampling"] = std::string(matrix_sampling_id(r.sampling));
    j["precision"] = w.precision == Precision::Single ? "single" : "double";
    j["row_index"] = r.row_index;
    j["row_last"] = last(r.row_block_end);
    j["col_index"] = r.col_index;
    j["col_last"] = last(r.col_block_end);
    j["used_toeplitz"] = r.used_toeplitz;
    j["matrix"] = matrix_json(r.values);
    write_json(out, j);
}

void rope_pairs_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto trained = o.integer("trained-length", 1, kMaxSeqLen).value_or(0);
    const auto target = o.integer("target-length", 1, kMaxSeqLen).value_or(0);
    const RopePairsTable t = rope_pairs(s.params<RopeParams>(), trained, target);
    if (format_of(o) == Format::Csv) {
        out << "index,theta (rad/token),wavelength (tokens),scaled_theta (rad/token),ratio,regime,"
               "trained_max_angle (rad),target_max_angle (rad)\n";
        for (const auto& r : t.rows)
            out << r.index << ',' << csv_number(r.theta) << ',' << csv_number(r.wavelength) << ','
                << csv_number(r.scaled_theta) << ',' << csv_number(r.ratio) << ',' << pair_regime_id(r.regime) << ','
                << csv_number(r.trained_max_angle) << ',' << csv_number(r.target_max_angle) << '\n';
        return;
    }
    json pairs = json::array();
    for (const auto& r : t.rows) {
        json row{{"index", r.index},
                 {"theta", r.theta},
                 {"wavelength", r.wavelength},
                 {"scaled_theta", r.scaled_theta},
                 {"scaled_wavelength", r.scaled_wavelength},
                 {"ratio", r.ratio},
                 {"regime", std::string(pair_regime_id(r.regime))},
                 {"trained_max_angle", r.trained_max_angle},
                 {"target_max_angle", r.target_max_angle},
                 {"unseen_rotation", r.unseen_rotation}};
        if (std::isfinite(r.ramp))
            row["ramp"] = r.ramp;
        pairs.push_back(std::move(row));
    }
    json boundaries = json::array();
    for (const auto& b : t.boundaries)
        boundaries.push_back({{"first_pair", b.first_pair},
                              {"last_pair", b.last_pair},
                              {"regime", std::string(pair_regime_id(b.regime))},
                              {"wavelength_first", b.wavelength_first},
                              {"wavelength_last", b.wavelength_last}});
    write_json(out, json{{"rope_type", std::string(rope_type_id(t.frequencies.rope_type))},
                         {"rotary_dim", t.frequencies.rotary_dim},
                         {"attention_factor", t.frequencies.attention_factor},
                         {"trained_length", t.trained_length},
                         {"target_length", t.target_length},
                         {"pairs", std::move(pairs)},
                         {"boundaries", std::move(boundaries)}});
}

void attention_entropy_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto list = o.real_list("lengths");
    if (!list)
        throw UsageError("--lengths is required: context lengths N, comma-separated, each in [1, "
                         + std::to_string(kMaxSeqLen) + "], e.g. 256,1024,4096");
    std::vector<std::int64_t> lengths;
    for (double v : *list) {
        if (v != std::floor(v) || v < 1 || v > static_cast<double>(kMaxSeqLen))
            throw UsageError("--lengths must be integers in [1, " + std::to_string(kMaxSeqLen) + "] (got "
                             + format_number(v) + ")");
        lengths.push_back(static_cast<std::int64_t>(v));
    }
    if (static_cast<std::int64_t>(lengths.size()) > kMaxEntropyLengths)
        throw UsageError("--lengths must list at most " + std::to_string(kMaxEntropyLengths) + " lengths (got "
                         + std::to_string(lengths.size()) + ")");
    const auto seed = o.integer("seed", 0, std::numeric_limits<std::int64_t>::max()).value_or(0);
    const auto trials = o.integer("trials", 1, 1024).value_or(8);
    // The command line shows no progress: bound the work (every key of every length, once per trial).
    std::int64_t keys = 0;
    for (std::int64_t n : lengths)
        keys += n;
    if (keys > kMaxEntropyKeyTrials / trials)
        throw UsageError("--lengths must add up to at most " + std::to_string(kMaxEntropyKeyTrials / trials)
                         + " with --trials " + std::to_string(trials) + " (got " + std::to_string(keys)
                         + "; the limit is " + std::to_string(kMaxEntropyKeyTrials)
                         + " keys x trials, about a minute)");
    const EntropyCurve c = attention_entropy(s.params<RopeParams>(), lengths, static_cast<std::uint64_t>(seed),
                                             static_cast<int>(trials));
    if (format_of(o) == Format::Csv)
        return write_csv(out, {{"length (tokens)", to_doubles(c.length)},
                               {"entropy (nats)", c.entropy},
                               {"entropy_with_temperature (nats)", c.entropy_with_temperature}});
    write_json(out, json{{"length", c.length},
                         {"entropy", c.entropy},
                         {"entropy_with_temperature", c.entropy_with_temperature},
                         {"attention_factor", compute_rope_frequencies(s.params<RopeParams>()).attention_factor},
                         {"trials", trials},
                         {"seed", seed}});
}

const std::vector<Quantity>& quantities()
{
    static const std::vector<Quantity> q{
        {"rope-frequencies", "RoPE inverse frequencies, wavelengths, attention factor (and YaRN ramp)",
         Method::RoPE, {}, {}, true, rope_frequencies},
        {"rope-decay", "RoFormer long-term decay bound and mean cos(r theta) for r = 0..R", Method::RoPE,
         {"max-distance", "points"}, {}, true, rope_decay},
        {"rope-score", "q.k after rotating q to position m and k to position n (not divided by sqrt(d))",
         Method::RoPE, {"query", "key", "query-position", "key-position"}, {}, false, rope_score},
        {"rope-angles", "rotation angle of every pair at a position (radians, mod 2 pi)", Method::RoPE,
         {"position"}, {}, true, rope_angles_quantity},
        {"rope-pairs", "per-pair table: theta, wavelength, scaled theta, ratio, regime, max angles (trained/target)",
         Method::RoPE, {}, {}, true, rope_pairs_quantity},
        {"attention-entropy", "mean softmax entropy of the last query over N keys, with/without temperature",
         Method::RoPE, {"lengths", "trials"}, {}, true, attention_entropy_quantity},
        {"alibi-slopes", "ALiBi head slopes (Press et al.; scaled with --alibi-scaling)", Method::ALiBi, {}, {},
         true, alibi_slopes_quantity},
        {"t5-buckets", "T5 relative position -> bucket (relative position = key - query)", Method::T5,
         {"from", "to"}, {}, true, t5_buckets},
        {"deberta-buckets", "DeBERTa log-bucketed relative positions", Method::DeBERTa, {"from", "to"}, {}, true,
         deberta_buckets},
        {"sinusoidal", "sinusoidal encoding matrix, positions x dimensions", Method::Sinusoidal, {"length"}, {},
         true, sinusoidal_quantity},
        {"learned", "learned absolute embeddings of positions --from..--to (null beyond the trained length)",
         Method::Learned, {"from", "to"}, {}, false, learned_quantity},
        {"matrix", "a heatmap matrix of any method (--method, --kind logits|bias|buckets|...)", std::nullopt,
         {"kind", "row0", "col0", "rows", "cols", "out-rows", "out-cols", "sample", "precision"}, {}, true,
         matrix_quantity},
    };
    return q;
}

OptionSet option_set(const Quantity& q)
{
    const auto scenario_values = scenario_value_options();
    const auto scenario_flags = scenario_flag_options();
    OptionSet set{{scenario_values.begin(), scenario_values.end()}, {scenario_flags.begin(), scenario_flags.end()}};
    set.values.insert(q.options.begin(), q.options.end());
    if (q.tabular)
        set.values.insert("format");
    set.flags.insert(q.flags.begin(), q.flags.end());
    return set;
}

const Quantity* find_quantity(const std::string& name)
{
    for (const auto& q : quantities())
        if (q.name == name)
            return &q;
    return nullptr;
}

} // namespace

std::string compute_usage()
{
    std::ostringstream u;
    u << "usage: posatlas compute QUANTITY [--preset NAME | --config config.json] [options] [--format json|csv]\n\n"
         "quantities:\n";
    for (const auto& q : quantities())
        u << "  " << std::left << std::setw(18) << q.name << q.summary << "\n";
    u << "\nRoPE options (Hugging Face config keys): --head-dim --rope-theta --partial-rotary-factor\n"
         "  --rope-type default|linear|ntk|dynamic|yarn|llama3|longrope --factor --max-position-embeddings\n"
         "  --original-max-position-embeddings --seq-len --beta-fast --beta-slow --mscale --mscale-all-dim\n"
         "  --attention-factor --truncate true|false --low-freq-factor --high-freq-factor --short-factor a,b,..\n"
         "  --long-factor a,b,.. --pairing interleaved|half\n"
         "other methods: --dim --base --layout interleaved|split --table FILE --max-relative-position\n"
         "  --num-buckets --max-distance --causal --position-buckets --max-relative-positions --no-c2p --no-p2c\n"
         "  --num-heads --slope-scale --alibi-bias causal|symmetric --alibi-scaling none|interpolate|ntk\n"
         "  --trained-length --target-length --npos-max --gate-scale --seed --initializer-range\n"
         "  --content ones|zero|fixed|random --content-seed --head --seq-len --method\n";
    return u.str();
}

int run_compute(const std::vector<std::string>& args, std::ostream& out)
{
    if (args.empty() || args.front() == "--help" || args.front() == "-h") {
        out << compute_usage();
        if (args.empty())
            throw UsageError("compute needs a QUANTITY: one of rope-frequencies, rope-pairs, rope-decay, rope-score, "
                             "rope-angles, attention-entropy, alibi-slopes, t5-buckets, deberta-buckets, sinusoidal, learned, matrix");
        return 0;
    }
    const Quantity* q = find_quantity(args.front());
    if (!q) {
        const std::string names = join(quantities(), ", ", [](const Quantity& qq) { return qq.name; });
        throw UsageError("unknown quantity '" + args.front() + "'; one of " + names);
    }
    const OptionSet set = option_set(*q);
    const Options o(std::vector<std::string>(args.begin() + 1, args.end()), set.values, set.flags);
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'; options start with --");
    Scenario s = scenario_from_options(o, q->method, q->name);
    try {
        q->run(o, s, out);
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    return 0;
}

std::vector<std::pair<std::string, OptionSet>> compute_option_sets()
{
    std::vector<std::pair<std::string, OptionSet>> sets;
    for (const auto& q : quantities())
        sets.emplace_back(q.name, option_set(q));
    return sets;
}

OptionSet presets_option_set() { return {{"format"}, {}}; }

int run_presets(const std::vector<std::string>& args, std::ostream& out)
{
    const OptionSet set = presets_option_set();
    const Options o(args, set.values, set.flags);
    if (!o.positional().empty())
        throw UsageError("unexpected argument '" + o.positional().front() + "'");
    const auto format = o.choice("format", {"text", "json"}).value_or("text");
    const auto presets = list_presets();
    if (format == "json") {
        json list = json::array();
        for (const auto& p : presets)
            list.push_back({{"id", p.id}, {"name", p.name}, {"family", p.family},
                            {"method", std::string(method_id(p.method))}, {"source", p.source},
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
