// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_quantities.h"

#include "cli_output.h"

#include "cli_compute.h"
#include "cli_i18n.h"

#include "methods/registry.h"

#include "analysis/attention_entropy.h"
#include "analysis/decay.h"
#include "analysis/rope_compare.h"
#include "cli_options.h"
#include "cli_progress.h"
#include "compute/attention_logits.h"
#include "io/columns.h"
#include "io/model_config.h"
#include "io/mrope_columns.h"
#include "io/number_text.h"
#include "io/patch_grid_columns.h"
#include "io/rope_pairs_columns.h"
#include "io/scenario_json.h"
#include "methods/alibi/alibi.h"
#include "methods/deberta/deberta.h"
#include "methods/learned/learned.h"
#include "methods/mrope/mrope.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "methods/sinusoidal/sinusoidal.h"
#include "methods/t5/t5_buckets.h"
#include "scenario/validation.h"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

namespace posatlas::cli::quantity_kernels {

using nlohmann::json;

std::pair<std::int64_t, std::int64_t> range_options(const Options& o)
{
    const auto from = o.integer("from");
    const auto to = o.integer("to");
    if (!from || !to)
        throw UsageError(translate(
            "Cli", "--from and --to are required: the range of relative positions, e.g. --from -64 --to 64"));
    if (*from > *to)
        throw UsageError(arg(translate("Cli", "--to must be >= --from (got --from %1 --to %2)"),
                             {std::to_string(*from), std::to_string(*to)}));
    if (*to - *from >= 10'000'000)
        throw UsageError(arg(translate("Cli", "--to - --from must be < 10000000 (got %1)"),
                             {std::to_string(*to - *from)}));
    return {*from, *to};
}

json frequencies_json(const RopeFrequencies& f)
{
    json j;
    j["rope_type"] = std::string(rope_type_id(f.rope_type));
    j["rotary_dim"] = f.rotary_dim;
    j["base"] = f.base_used;
    j["factor"] = f.factor_used;
    j[columns::kInvFreq] = f.inv_freq;
    j[columns::kInvFreqOriginal] = f.inv_freq_original;
    j["attention_factor"] = f.attention_factor;
    // The attention module's extra softmax multiplier (DeepSeek's mscale^2) and what the logits get in all.
    j["softmax_scale"] = f.softmax_scale;
    j["logit_multiplier"] = f.logit_multiplier();
    j[columns::kWavelength] = f.wavelength;
    if (!f.ramp.empty())
        j[columns::kRamp] = f.ramp;
    std::vector<std::string> regime;
    for (auto r : f.regime)
        regime.emplace_back(pair_regime_id(r));
    j[columns::kRegime] = regime;
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
    std::vector<CsvColumn> cols{{columns::kPair, pair},
                                {columns::kInvFreq, f.inv_freq},
                                {columns::kInvFreqOriginal, f.inv_freq_original},
                                {columns::kWavelength, f.wavelength}};
    if (!f.ramp.empty())
        cols.push_back({columns::kRamp, f.ramp});
    write_csv_columns(out, cols);
}

void rope_decay(const Options& o, Scenario& s, std::ostream& out)
{
    const auto max_distance = o.integer("max-distance");
    if (!max_distance)
        throw UsageError(
            arg(translate("Cli", "--max-distance is required: the largest relative distance r, in [0, %1]"),
                {std::to_string(kMaxDistance)}));
    const auto points = o.integer("points");
    if (!points && *max_distance >= 10'000'000)
        throw UsageError(translate(
            "Cli", "--max-distance above 9999999 needs --points N (a log-spaced sample of N distances)"));
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    std::vector<double> distances;
    if (points) {
        distances = decay_distances(*max_distance, static_cast<std::size_t>(*points), true);
    } else {
        distances.resize(static_cast<std::size_t>(*max_distance + 1));
        for (std::size_t r = 0; r < distances.size(); ++r)
            distances[r] = static_cast<double>(r);
    }
    Progress progress("rope-decay", o.flag("quiet"));
    const auto bound = rope_decay_bound(f.inv_freq, distances, {}, progress.part(0.0, 0.5));
    const auto mean_cos = rope_mean_cos(f.inv_freq, distances, {}, progress.part(0.5, 1.0));
    progress.done();
    if (format_of(o) == Format::Csv)
        return write_csv_columns(
            out, {{columns::kDistance, distances}, {columns::kBound, bound}, {columns::kMeanCos, mean_cos}});
    // Streamed (10^7 rows need no document in memory); the same keys as the CSV's columns.
    write_json_columns(
        out, {{columns::kDistance, distances}, {columns::kBound, bound}, {columns::kMeanCos, mean_cos}});
}

Eigen::VectorXd vector_option(const Options& o, const std::string& name)
{
    const auto v = o.real_list(name);
    if (!v)
        throw UsageError(
            arg(translate("Cli", "--%1 is required: a comma-separated vector of head-dim numbers"), {name}));
    return Eigen::Map<const Eigen::VectorXd>(v->data(), static_cast<Eigen::Index>(v->size()));
}

void rope_score(const Options& o, Scenario& s, std::ostream& out)
{
    const Eigen::VectorXd q = vector_option(o, "query");
    const Eigen::VectorXd k = vector_option(o, "key");
    if (!o.has("head-dim") && !o.has("preset") && !o.has("config") && !o.has("model")) {
        s.params<RopeParams>().head_dim = static_cast<int>(q.size());
        validate(s.params<RopeParams>());
    }
    if (q.size() != s.params<RopeParams>().head_dim || k.size() != s.params<RopeParams>().head_dim)
        throw UsageError(
            arg(translate("Cli", "--query and --key must each have head-dim = %1 numbers (got %2 and %3)"),
                {std::to_string(s.params<RopeParams>().head_dim), std::to_string(q.size()),
                 std::to_string(k.size())}));
    const auto m = *o.real("query-position");
    const auto n = *o.real("key-position");
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    const double score = posatlas::rope_score(f, q, k, m, n, s.params<RopeParams>().pairing);
    // Finite entries can still overflow the dot product (1e200 * 1e200): refused, never printed as null.
    if (!std::isfinite(score))
        throw UsageError(
            translate("Cli", "--query and --key give a score that overflows a double: the product of their "
                             "lengths |q| * |k| must stay below about 1.8e308 (use smaller entries)"));
    if (format_of(o) == Format::Csv) {
        return write_csv_columns(out, {{"score", {score}},
                                       {"attention_factor", {f.attention_factor}},
                                       {"query_position", {m}},
                                       {"key_position", {n}}});
    }
    json j;
    j["score"] = score;
    j["attention_factor"] = f.attention_factor;
    j["softmax_scale"] = f.softmax_scale;
    j["logit_multiplier"] = f.logit_multiplier();
    j["pairing"] = s.params<RopeParams>().pairing == RopePairing::Half ? "half" : "interleaved";
    write_json(out, j);
}

void rope_angles_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto position = o.real("position");
    if (!position)
        throw UsageError(translate("Cli", "--position is required: the token position m"));
    const RopeFrequencies f = compute_rope_frequencies(s.params<RopeParams>());
    const auto angles = rope_angles(f, *position);
    if (format_of(o) == Format::Csv) {
        std::vector<double> pair(angles.size());
        for (std::size_t i = 0; i < pair.size(); ++i)
            pair[i] = static_cast<double>(i);
        return write_csv_columns(
            out, {{columns::kPair, pair}, {columns::kAngle, angles}, {columns::kInvFreq, f.inv_freq}});
    }
    json j;
    j[columns::kPosition] = *position;
    j[columns::kAngle] = angles;
    j[columns::kInvFreq] = f.inv_freq;
    write_json(out, j);
}

// M-RoPE: every token of the sequence (the layout, then text up to --seq-len) with its kind and (t, h, w).
void mrope_positions_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const MropeParams& p = s.params<MropeParams>();
    const std::vector<CsvColumn> ids = mrope_position_columns(p, s.seq_len);
    if (format_of(o) == Format::Csv)
        return write_csv_columns(out, ids);
    json j;
    j["layout"] = p.layout;
    j["variant"] = mrope_variant_id(p.variant);
    j["layout_tokens"] = MropePositions(p).layout_tokens();
    for (const CsvColumn& c : ids) // the columns but the token index, which the arrays' order gives
        if (c.name != columns::kPosition) {
            if (c.is_text())
                j[c.name] = c.texts;
            else
                j[c.name] = c.numbers;
        }
    write_json(out, j);
}

void patch_grid_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    PatchGridRow row;
    try {
        row = patch_grid_row(s, o.integer("query-patch").value_or(0));
    } catch (const ParameterError& e) {
        rethrow_as_usage(e); // --method, or --query-patch with the grid's range
    }
    if (format_of(o) == Format::Csv)
        return write_csv_columns(out, patch_grid_columns(s, row));
    write_json(out, patch_grid_json(s, row));
}

void alibi_slopes_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto slopes = alibi_scaled_slopes(s.params<AlibiParams>());
    if (format_of(o) == Format::Csv) {
        std::vector<double> head(slopes.size());
        for (std::size_t h = 0; h < head.size(); ++h)
            head[h] = static_cast<double>(h);
        return write_csv_columns(out, {{columns::kHead, head}, {columns::kSlope, slopes}});
    }
    json j;
    j["num_heads"] = s.params<AlibiParams>().num_heads;
    j["slopes"] = slopes;
    // The paper's slopes beside the ones in effect whenever they differ (a scaling, a slope scale, or
    // per-head slopes chosen with --slopes).
    if (s.params<AlibiParams>().scaling != AlibiScaling::None || s.params<AlibiParams>().slope_scale != 1.0 ||
        !s.params<AlibiParams>().slopes.empty())
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
        std::vector<CsvColumn> cols{{columns::kRelativePosition, to_doubles(rel)},
                                    {columns::kBucket, to_doubles(bucket)}};
        if (extra_name)
            cols.push_back({extra_name, to_doubles(extra)});
        return write_csv_columns(out, cols);
    }
    json j;
    j[columns::kRelativePosition] = rel;
    j[columns::kBucket] = bucket;
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
    write_buckets(o, out, rel, series.delta, columns::kBucketUsed, series.delta_used);
}

void sinusoidal_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto length = o.integer("length");
    if (!length)
        throw UsageError(arg(translate("Cli", "--length is required: the number of positions, in [1, %1]"),
                             {std::to_string(kMaxSeqLen)}));
    try {
        require_matrix_fits("length", *length, s.params<SinusoidalParams>().dim);
        require_within_budget("length", *length, s.params<SinusoidalParams>().dim * kBytesPerOutputNumber,
                              "the matrix and its text");
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    const Eigen::MatrixXd pe = sinusoidal_encoding(s.params<SinusoidalParams>(), 0, *length);
    if (format_of(o) == Format::Csv) {
        std::vector<std::int64_t> rows(static_cast<std::size_t>(pe.rows())),
            cols(static_cast<std::size_t>(pe.cols()));
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<std::int64_t>(i);
        for (std::size_t i = 0; i < cols.size(); ++i)
            cols[i] = static_cast<std::int64_t>(i);
        return write_matrix_csv(out, pe, columns::kPosition, rows, std::string(columns::kDimension) + '_',
                                cols);
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
        throw UsageError(arg(translate("Cli", "--from must be >= 0 for absolute positions (got %1)"),
                             {std::to_string(from)}));
    LearnedTable table = [&] {
        if (s.params<LearnedParams>().table_path.empty())
            return LearnedTable::seeded(s.params<LearnedParams>());
        try {
            return LearnedTable::load(s.params<LearnedParams>().table_path,
                                      s.params<LearnedParams>().table_tensor);
        } catch (const std::runtime_error& e) {
            // --weights is an alias of --table: name the option the way the user gave it.
            throw UsageError(std::string(o.has("weights") ? "--weights: " : "--table: ") + e.what());
        }
    }();
    // Rows that exist are printed with every dimension; the rest as null.
    const std::int64_t shown = std::max<std::int64_t>(0, std::min(to, table.trained_length() - 1) - from + 1);
    try {
        require_within_budget("to", from + shown, table.dim() * kBytesPerOutputNumber,
                              "the embeddings as text");
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    if (format_of(o) == Format::Csv) {
        // One row per position, dimension_0.. columns; empty cells beyond the trained length (JSON's null).
        std::string text = columns::kPosition;
        for (std::int64_t c = 0; c < table.dim(); ++c)
            text += std::string(",") + columns::kDimension + '_' + std::to_string(c);
        text += '\n';
        for (std::int64_t p = from; p <= to; ++p) {
            text += std::to_string(p);
            const auto e = table.embedding(p);
            for (std::int64_t c = 0; c < table.dim(); ++c) {
                text += ',';
                if (e)
                    append_number_text(text, (*e)[static_cast<Eigen::Index>(c)]);
            }
            text += '\n';
            if (text.size() > (1 << 16)) {
                out.write(text.data(), static_cast<std::streamsize>(text.size()));
                text.clear();
            }
        }
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return;
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
    if (!table.tensor().empty()) {
        j["tensor"] = table.tensor();
        // OPT: position p is the stored row p + 2 (HF OPTLearnedPositionalEmbedding).
        j["row_offset"] = table.row_offset();
    }
    j["note"] = "positions >= trained_length have no learned embedding: null";
    write_json(out, j);
}

// Block means as CSV: each row and column names its block of positions, first and last.
template <typename Matrix>
void write_block_mean_csv(std::ostream& out, const MatrixResult& r, const Matrix& values)
{
    out << r.row_name << "_first," << r.row_name << "_last";
    for (std::size_t c = 0; c < r.col_index.size(); ++c)
        out << ',' << r.col_name << '_' << r.col_index[c] << '-' << r.col_block_end[c] - 1;
    out << '\n';
    std::string line;
    for (Eigen::Index row = 0; row < values.rows(); ++row) {
        const auto u = static_cast<std::size_t>(row);
        line = std::to_string(r.row_index[u]) + ',' + std::to_string(r.row_block_end[u] - 1);
        for (Eigen::Index c = 0; c < values.cols(); ++c) {
            line += ',';
            append_cell(line, values(row, c));
        }
        line += '\n';
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
    }
}

template <typename Matrix>
void write_matrix_json(std::ostream& out, const Scenario& s, MatrixKind kind, const MatrixWindow& w,
                       const MatrixResult& r, const Matrix& values)
{
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
    if (!s.content.tokens.empty())
        j["tokens"] = s.content.tokens; // position p is tokens[p]
    if (kind == MatrixKind::Weights)
        j["causal"] = s.causal;
    if ((kind == MatrixKind::Weights || kind == MatrixKind::Logits) && s.causal &&
        s.window != LayerAttention::Global) { // the sliding window or chunks that masked these cells
        j["window"] = std::string(window_id(s.window));
        j["window_span"] = s.window_span;
    }
    j["matrix"] = matrix_json(values);
    write_json(out, j);
}

MatrixRequest matrix_request(const Options& o, const Scenario& s)
{
    const auto kinds = matrix_kinds_for(s.method);
    MatrixKind kind = kinds.front();
    if (auto k = o.text("kind")) {
        const auto parsed = parse_matrix_kind(*k);
        if (!parsed || std::find(kinds.begin(), kinds.end(), *parsed) == kinds.end()) {
            const std::string allowed =
                join(kinds, "|", [](MatrixKind kk) { return std::string(matrix_kind_id(kk)); });
            throw UsageError(arg(translate("Cli", "--kind must be one of %1 for method %2 (got '%3')"),
                                 {allowed, std::string(method_id(s.method)), *k}));
        }
        kind = *parsed;
    }
    MatrixWindow w;
    w.row0 = o.integer("row0").value_or(0);
    w.col0 = o.integer("col0").value_or(0);
    w.rows = o.integer("rows").value_or(0);
    w.cols = o.integer("cols").value_or(0);
    w.out_rows = o.integer("out-rows").value_or(0);
    w.out_cols = o.integer("out-cols").value_or(0);
    // Downsampled cells are exact block means by default; --sample point gives one cell per block.
    w.sample = *o.choice("sample") == "point" ? SampleMode::Point : SampleMode::BlockMean;
    w.precision = *o.choice("precision") == "single" ? Precision::Single : Precision::Double;
    // --precision single: the float32 result itself (half the memory, shorter numbers), not widened.
    w.single_result = w.precision == Precision::Single;
    return {kind, w};
}

void matrix_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto [kind, w] = matrix_request(o, s);
    const MatrixResult r = compute_matrix(s, kind, w);
    // The matrix fits kMaxMatrixElements; its text is what would blow the budget. Refuse before writing.
    try {
        require_within_budget(o.has("out-rows") ? "out_rows"
                              : o.has("rows")   ? "rows"
                                                : "seq_len",
                              r.rows(), r.cols() * kBytesPerOutputNumber, "the matrix and its text");
    } catch (const ParameterError& e) {
        rethrow_as_usage(e);
    }
    const auto write = [&](const auto& values) {
        if (format_of(o) == Format::Csv) {
            if (r.sampling != MatrixSampling::BlockMean)
                return write_matrix_csv(out, values, r.row_name, r.row_index, r.col_name + '_', r.col_index);
            write_block_mean_csv(out, r, values);
            return;
        }
        write_matrix_json(out, s, kind, w, r, values);
    };
    if (r.single())
        write(r.values_f);
    else
        write(r.values);
}

void rope_pairs_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto trained = o.integer("trained-length").value_or(0);
    const auto target = o.integer("target-length").value_or(0);
    const RopePairsTable t = rope_pairs(s.params<RopeParams>(), trained, target);
    if (format_of(o) == Format::Csv) {
        // The columns (and their order) of the spectrum view's export, then the table's own.
        write_csv_columns(out, rope_pairs_columns(t));
        return;
    }
    json pairs = json::array();
    for (const auto& r : t.rows) {
        json row{{columns::kPair, r.index},
                 {columns::kInvFreqOriginal, r.theta},
                 {columns::kInvFreq, r.scaled_theta},
                 {columns::kWavelengthOriginal, r.wavelength},
                 {columns::kWavelength, r.scaled_wavelength},
                 {columns::kRatio, r.ratio},
                 {columns::kRegime, std::string(pair_regime_id(r.regime))},
                 {columns::kTrainedMaxAngle, r.trained_max_angle},
                 {columns::kTargetMaxAngle, r.target_max_angle},
                 {columns::kUnseenRotation, r.unseen_rotation}};
        if (std::isfinite(r.ramp))
            row[columns::kRamp] = r.ramp;
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
                         {"logit_multiplier", t.frequencies.logit_multiplier()},
                         {"trained_length", t.trained_length},
                         // A linear / NTK config without an original length: the trained length is a guess
                         // (max_position_embeddings) that --original-max-position-embeddings corrects.
                         {"trained_length_assumed",
                          trained == 0 && trained_length_ambiguous(s.params<RopeParams>())},
                         {"target_length", t.target_length},
                         {"pairs", std::move(pairs)},
                         {"boundaries", std::move(boundaries)}});
}

void attention_entropy_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    const auto list = o.real_list("lengths");
    if (!list)
        throw UsageError(
            arg(translate("Cli",
                          "--lengths is required: context lengths N, comma-separated, each in [1, %1], e.g. "
                          "256,1024,4096"),
                {std::to_string(kMaxSeqLen)}));
    std::vector<std::int64_t> lengths;
    for (double v : *list) {
        if (v != std::floor(v) || v < 1 || v > static_cast<double>(kMaxSeqLen))
            throw UsageError(arg(translate("Cli", "--lengths must be integers in [1, %1] (got %2)"),
                                 {std::to_string(kMaxSeqLen), format_number(v)}));
        lengths.push_back(static_cast<std::int64_t>(v));
    }
    if (static_cast<std::int64_t>(lengths.size()) > kMaxEntropyLengths)
        throw UsageError(arg(translate("Cli", "--lengths must list at most %1 lengths (got %2)"),
                             {std::to_string(kMaxEntropyLengths), std::to_string(lengths.size())}));
    const auto seed = *o.integer("seed");
    const auto trials = *o.integer("trials");
    // The command line shows no progress: bound the work (every key of every length, once per trial).
    std::int64_t keys = 0;
    for (std::int64_t n : lengths)
        keys += n;
    if (keys > kMaxEntropyKeyTrials / trials)
        throw UsageError(
            arg(translate("Cli", "--lengths must add up to at most %1 with --trials %2 (got %3; the "
                                 "limit is %4 keys x trials, about a minute)"),
                {std::to_string(kMaxEntropyKeyTrials / trials), std::to_string(trials), std::to_string(keys),
                 std::to_string(kMaxEntropyKeyTrials)}));
    QueryScale scale;
    parse_query_scale_kind(*o.choice("query-scale"), &scale.kind);
    const RopeParams& rope = s.params<RopeParams>();
    scale.trained_length = rope.trained_length();
    scale.floor_scale = *o.real("floor-scale");
    scale.attn_scale = *o.real("attn-scale");
    const EntropyCurve c =
        attention_entropy(rope, EntropyContent::RandomQK, {}, lengths, static_cast<std::uint64_t>(seed),
                          static_cast<int>(trials), scale);
    const bool scaled = scale.kind != QueryScaleKind::None;
    if (format_of(o) == Format::Csv) {
        std::vector<CsvColumn> cols{{columns::kLength, to_doubles(c.length)},
                                    {columns::kEntropy, c.entropy},
                                    {columns::kEntropyWithTemperature, c.entropy_with_temperature}};
        if (scaled)
            cols.push_back({columns::kEntropyWithQueryScale, c.entropy_with_query_scale});
        return write_csv_columns(out, cols);
    }
    json query_scale{{"kind", std::string(query_scale_id(scale.kind))}};
    if (scale.kind == QueryScaleKind::LogN)
        query_scale["trained_length"] = scale.trained_length;
    if (scale.kind == QueryScaleKind::Llama4) {
        query_scale["floor_scale"] = scale.floor_scale;
        query_scale["attn_scale"] = scale.attn_scale;
    }
    std::vector<double> multipliers;
    for (std::int64_t n : c.length)
        multipliers.push_back(query_scale_at(scale, n - 1));
    json j{{columns::kLength, c.length},
           {columns::kEntropy, c.entropy},
           {columns::kEntropyWithTemperature, c.entropy_with_temperature},
           {"attention_factor", compute_rope_frequencies(rope).attention_factor},
           {"logit_multiplier", compute_rope_frequencies(rope).logit_multiplier()},
           {"trials", trials},
           {"seed", seed}};
    if (scaled) {
        j[columns::kEntropyWithQueryScale] = c.entropy_with_query_scale;
        j["query_scale"] = query_scale;
        j["query_multiplier"] = multipliers;
    }
    write_json(out, j);
}

void scenario_quantity(const Options& o, Scenario& s, std::ostream& out)
{
    // What the command line made of its options: the preset or config, then each option over it,
    // validated as every other quantity validates it. JSON: the "scenario" of a session file (so the
    // result can be saved and opened); CSV: one row per value, its dotted key and its JSON text.
    validate(s);
    const json j = scenario_to_json(s);
    if (format_of(o) == Format::Json)
        return write_json(out, j);
    std::string text = "key,value\n";
    const std::function<void(const std::string&, const json&)> add = [&](const std::string& key,
                                                                         const json& v) {
        if (v.is_object()) {
            for (const auto& [k, item] : v.items())
                add(key.empty() ? k : key + "." + k, item);
            return;
        }
        std::string value;
        if (v.is_string())
            value = v.get<std::string>();
        else
            append_json_text(value, v);
        const bool quote = value.find_first_of(",\"\n") != std::string::npos;
        if (quote) {
            std::string q = "\"";
            for (char c : value)
                q += c == '"' ? std::string("\"\"") : std::string(1, c);
            value = q + "\"";
        }
        text += key + "," + value + "\n";
    };
    add("", j);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace posatlas::cli::quantity_kernels
