// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/t5/t5_buckets.h"

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

T5Bucketer::T5Bucketer(const T5Params& params) : m_params(params) { validate(params); }

int T5Bucketer::operator()(std::int64_t relative_position) const
{
    return bucket_unchecked(relative_position, m_params.bidirectional, m_params.num_buckets, m_params.max_distance);
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

Eigen::MatrixXd t5_bias_table(const T5Params& params)
{
    validate(params);
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
