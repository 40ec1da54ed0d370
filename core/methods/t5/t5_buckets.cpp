// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/t5/t5_buckets.h"

#include "io/input_file.h"
#include "io/safetensors.h"
#include "methods/learned/learned.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace posatlas {

namespace {

// The bucket formula for parameters validate(T5Params) accepts; no check, so that loops call it freely.
int bucket_unchecked(std::int64_t relative_position, bool bidirectional, int num_buckets, int max_distance)
{
    // Beyond max_distance every distance lands in the last bucket; clamping first keeps -n defined.
    constexpr std::int64_t kFar = std::int64_t{1} << 62;
    relative_position = std::clamp(relative_position, -kFar, kFar);
    std::int64_t bucket = 0;
    std::int64_t n = 0;
    if (bidirectional) {
        num_buckets /= 2;
        if (relative_position > 0)
            bucket += num_buckets;
        n = relative_position < 0 ? -relative_position : relative_position;
    } else {
        n = relative_position < 0 ? -relative_position : 0;
    }
    const int max_exact = num_buckets / 2;
    if (n < max_exact)
        return static_cast<int>(bucket + n);

    // float32 throughout, as HF (see the header). On x86-64 (SSE, FLT_EVAL_METHOD == 0) float
    // expressions are evaluated in float, with no wider intermediate.
    const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
    const float log_ratio = std::log(ratio);
    const auto denom = static_cast<float>(std::log(static_cast<double>(max_distance) / max_exact));
    const float scaled = log_ratio / denom * static_cast<float>(num_buckets - max_exact);
    // .to(torch.long) truncates toward zero; scaled >= 0 here since n >= max_exact.
    const auto large = static_cast<std::int64_t>(max_exact) + static_cast<std::int64_t>(scaled);
    return static_cast<int>(bucket + std::min<std::int64_t>(large, num_buckets - 1));
}

} // namespace

int t5_relative_position_bucket(std::int64_t relative_position, bool bidirectional, int num_buckets,
                                int max_distance)
{
    T5Params p;
    p.num_buckets = num_buckets;
    p.max_distance = max_distance;
    p.bidirectional = bidirectional;
    validate(p);
    return bucket_unchecked(relative_position, bidirectional, num_buckets, max_distance);
}

T5Bucketer::T5Bucketer(const T5Params& params) : m_params(params)
{
    validate(params);
}

int T5Bucketer::operator()(std::int64_t relative_position) const
{
    return bucket_unchecked(relative_position, m_params.bidirectional, m_params.num_buckets,
                            m_params.max_distance);
}

std::vector<int> t5_relative_position_buckets(const T5Params& params,
                                              const std::vector<std::int64_t>& relative_positions)
{
    validate(params);
    std::vector<int> out(relative_positions.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = bucket_unchecked(relative_positions[i], params.bidirectional, params.num_buckets,
                                  params.max_distance);
    return out;
}

T5DistanceBuckets t5_distance_buckets(const T5Params& params, const std::vector<std::int64_t>& distances)
{
    validate(params);
    T5DistanceBuckets out;
    out.before.resize(distances.size());
    if (params.bidirectional)
        out.after.resize(distances.size());
    for (std::size_t i = 0; i < distances.size(); ++i) {
        // Distances are magnitudes: a negative one counts as its absolute value (kFar clamps first).
        constexpr std::int64_t kFar = std::int64_t{1} << 62;
        const std::int64_t r = std::clamp(distances[i], -kFar, kFar);
        const std::int64_t d = r < 0 ? -r : r;
        out.before[i] = bucket_unchecked(-d, params.bidirectional, params.num_buckets, params.max_distance);
        if (params.bidirectional)
            out.after[i] = bucket_unchecked(d, true, params.num_buckets, params.max_distance);
    }
    return out;
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem)
{
    throw LearnedTableError(path + ": " + problem);
}

constexpr std::int64_t kMaxBuckets = 4096; // validate(T5Params): relative_attention_num_buckets
constexpr std::int64_t kMaxHeads = 1024;   // validate(T5Params): num_heads

void check_bias_shape(const std::string& path, const std::string& who, std::int64_t rows, std::int64_t cols)
{
    if (rows < 2 || rows > kMaxBuckets || cols < 1 || cols > kMaxHeads)
        fail(path, who + " is " + std::to_string(rows) + "x" + std::to_string(cols) +
                       "; a T5 bias table is buckets x heads, with 2 to " + std::to_string(kMaxBuckets) +
                       " buckets and 1 to " + std::to_string(kMaxHeads) + " heads");
}

} // namespace

T5TrainedBias t5_trained_bias(const std::string& path, const std::string& tensor)
{
    T5TrainedBias out;
    std::string name = tensor;
    if (ends_with_ci(path, ".safetensors") || ends_with_ci(path, ".json")) {
        // The header first: pick the tensor and check its shape before any value is read.
        SafetensorsCatalog cat;
        try {
            cat = read_safetensors(path);
        } catch (const SafetensorsError& e) {
            throw LearnedTableError(std::string("cannot load T5 bias table: ") + e.what());
        }
        const SafetensorsTensor* t = nullptr;
        if (name.empty()) {
            if (!(t = find_known_tensor(cat, "t5")))
                fail(path,
                     "no T5 relative_attention_bias (encoder.block.0.layer.0.SelfAttention."
                     "relative_attention_bias.weight, or the decoder's). Name one with --tensor; tensors: " +
                         cat.listing());
            name = t->name;
        } else if (!(t = cat.find(name))) {
            fail(path, "no tensor '" + quote_input(name, 120) + "'; tensors: " + cat.listing());
        }
        const std::string who = "tensor '" + quote_input(t->name, 120) + "'";
        if (t->shape.size() != 2)
            fail(path, who + " has shape " + t->shape_text() + "; a T5 bias table is 2-D (buckets x heads)");
        check_bias_shape(path, who, t->shape[0], t->shape[1]);
        out.tensor = t->name;
        out.decoder = t->name.rfind("decoder.", 0) == 0 || t->name.find(".decoder.") != std::string::npos;
    }
    LearnedTable table = LearnedTable::load(path, name); // the exact values, finite, or LearnedTableError
    if (out.tensor.empty())
        check_bias_shape(path, "the table", table.trained_length(), table.dim());
    out.table = table.table();
    return out;
}

T5TrainedBias t5_use_trained_bias(T5Params& params, const std::string& path, const std::string& tensor)
{
    T5TrainedBias t = t5_trained_bias(path, tensor);
    params.bias_path = path;
    params.bias_tensor = t.tensor; // the tensor found when none was named: sessions name it
    params.num_buckets = static_cast<int>(t.table.rows());
    params.num_heads = static_cast<int>(t.table.cols());
    if (!t.tensor.empty())
        params.bidirectional = !t.decoder;
    return t;
}

bool t5_use_checkpoint_bias(T5Params& params, const std::string& checkpoint)
{
    SafetensorsCatalog cat;
    try {
        cat = read_safetensors(checkpoint);
    } catch (const SafetensorsError& e) {
        throw LearnedTableError(std::string("cannot load T5 bias table: ") + e.what());
    }
    if (!find_known_tensor(cat, "t5"))
        return false;
    t5_use_trained_bias(params, checkpoint);
    return true;
}

Eigen::MatrixXd t5_bias_table(const T5Params& params)
{
    validate(params);
    if (!params.bias_path.empty())
        return t5_trained_bias(params.bias_path, params.bias_tensor).table;
    Eigen::MatrixXd table(params.num_buckets, params.num_heads);
    for (int b = 0; b < params.num_buckets; ++b)
        for (int h = 0; h < params.num_heads; ++h)
            table(b, h) =
                rng::normal(params.seed, rng::kT5Bias, static_cast<std::uint64_t>(b) * params.num_heads + h) *
                params.stddev;
    return table;
}

double t5_bias(const Eigen::MatrixXd& table, const T5Params& params, std::int64_t query_pos,
               std::int64_t key_pos, int head)
{
    validate(params);
    require_int("head", head, 0, params.num_heads - 1);
    if (table.rows() != params.num_buckets || table.cols() != params.num_heads)
        throw std::invalid_argument(
            "t5_bias: the table is " + std::to_string(table.rows()) + " x " + std::to_string(table.cols()) +
            ", expected num_buckets x num_heads = " + std::to_string(params.num_buckets) + " x " +
            std::to_string(params.num_heads));
    const int bucket = t5_relative_position_bucket(key_pos - query_pos, params.bidirectional,
                                                   params.num_buckets, params.max_distance);
    return table(bucket, head);
}

} // namespace posatlas
