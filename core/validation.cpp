// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace posatlas {

ParameterError::ParameterError(std::string parameter, std::string allowed, std::string got)
    : std::invalid_argument(parameter + " must be " + allowed + " (got " + got + ")"),
      m_parameter(std::move(parameter)), m_allowed(std::move(allowed)), m_got(std::move(got))
{
}

std::string format_number(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buf[64];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

void require_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi)
{
    if (value < lo || value > hi)
        throw ParameterError(std::string(name),
                             "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                             std::to_string(value));
}

void require_even_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi)
{
    if (value < lo || value > hi || value % 2 != 0)
        throw ParameterError(std::string(name),
                             "an even integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                             std::to_string(value));
}

void require_real(std::string_view name, double value, double lo, double hi, bool lo_inclusive)
{
    const bool ok = std::isfinite(value) && (lo_inclusive ? value >= lo : value > lo) && value <= hi;
    if (!ok)
        throw ParameterError(std::string(name),
                             std::string(lo_inclusive ? ">= " : "> ") + format_number(lo) + " and <= "
                                 + format_number(hi),
                             format_number(value));
}

void require_within_budget(std::string_view name, std::int64_t units, std::int64_t bytes_per_unit,
                           std::string_view what)
{
    if (bytes_per_unit < 1)
        bytes_per_unit = 1;
    const std::int64_t largest = kMemoryBudgetBytes / bytes_per_unit;
    if (units > largest) {
        const double mib = static_cast<double>(units) * static_cast<double>(bytes_per_unit) / (1024.0 * 1024.0);
        throw ParameterError(std::string(name),
                             "at most " + std::to_string(largest) + " (" + std::string(what) + ": "
                                 + std::to_string(static_cast<std::int64_t>(mib)) + " MiB would exceed the "
                                 + std::to_string(kMemoryBudgetBytes >> 20) + " MiB memory budget)",
                             std::to_string(units));
    }
}

void require_matrix_fits(std::string_view name, std::int64_t rows, std::int64_t cols)
{
    if (rows < 1 || cols < 1 || rows > kMaxMatrixElements / cols)
        throw ParameterError(std::string(name),
                             "small enough that the matrix (" + std::to_string(rows) + " x "
                                 + std::to_string(cols) + ") has at most "
                                 + std::to_string(kMaxMatrixElements) + " elements",
                             std::to_string(rows) + " x " + std::to_string(cols));
}

void validate(const SinusoidalParams& p)
{
    require_even_int("dim", p.dim, 2, 65536);
    require_real("base", p.base, 1.0, 1e12, false);
}

void validate(const LearnedParams& p)
{
    require_int("dim", p.dim, 1, 65536);
    require_int("max_position_embeddings", p.trained_length, 1, kMaxSeqLen);
    require_real("initializer_range", p.stddev, 0.0, 1e3, false);
    if (p.table_path.empty())
        require_matrix_fits("max_position_embeddings", p.trained_length, p.dim);
}

void validate(const ShawParams& p)
{
    require_int("head_dim", p.head_dim, 1, 4096);
    require_int("max_relative_position", p.max_relative_position, 1, 1'000'000);
    require_real("initializer_range", p.stddev, 0.0, 1e3, false);
}

void validate(const TransformerXLParams& p)
{
    require_even_int("head_dim", p.head_dim, 2, 4096);
    require_real("base", p.base, 1.0, 1e12, false);
    require_real("initializer_range", p.stddev, 0.0, 1e3, false);
}

void validate(const T5Params& p)
{
    // HF T5Attention._relative_position_bucket halves num_buckets when bidirectional and needs
    // max_exact = num_buckets / 2 >= 1 and max_distance > max_exact for its log branch.
    if (p.bidirectional)
        require_even_int("relative_attention_num_buckets", p.num_buckets, 4, 4096);
    else
        require_int("relative_attention_num_buckets", p.num_buckets, 2, 4096);
    const int half = p.bidirectional ? p.num_buckets / 2 : p.num_buckets;
    const int max_exact = half / 2;
    require_int("relative_attention_max_distance", p.max_distance, max_exact + 1, 1'000'000'000);
    require_int("num_heads", p.num_heads, 1, 1024);
    require_real("initializer_range", p.stddev, 0.0, 1e3, false);
}

void validate(const DebertaParams& p)
{
    require_int("head_dim", p.head_dim, 1, 4096);
    require_int("max_relative_positions", p.max_relative_positions, 2, 1'000'000'000);
    if (p.position_buckets > 0) {
        // make_log_bucket_position: mid = buckets / 2 >= 1 and log((max_position - 1) / mid) > 0.
        require_int("position_buckets", p.position_buckets, 2, 65536);
        if (p.max_relative_positions - 1 <= p.position_buckets / 2)
            throw ParameterError("max_relative_positions",
                                 "> position_buckets / 2 + 1 = " + std::to_string(p.position_buckets / 2 + 1),
                                 std::to_string(p.max_relative_positions));
    }
    require_real("initializer_range", p.stddev, 0.0, 1e3, false);
}

void validate(const RopeParams& p)
{
    require_even_int("head_dim", p.head_dim, 2, 8192);
    require_real("rope_theta", p.rope_theta, 1.0, 1e12, false);
    require_real("partial_rotary_factor", p.partial_rotary_factor, 0.0, 1.0, false);
    const int rd = p.rotary_dim();
    if (rd < 2 || rd % 2 != 0)
        throw ParameterError("partial_rotary_factor",
                             "such that int(head_dim * partial_rotary_factor) is even and >= 2",
                             format_number(p.partial_rotary_factor) + ", rotary_dim " + std::to_string(rd));
    require_real("factor", p.factor, 1.0, 1e6, true);
    require_int("max_position_embeddings", p.max_position_embeddings, 1, 1'000'000'000);
    require_int("original_max_position_embeddings", p.original_max_position_embeddings, 0, 1'000'000'000);
    require_int("seq_len", p.seq_len, 0, 1'000'000'000);
    require_real("beta_slow", p.beta_slow, 0.0, 1e6, false);
    require_real("beta_fast", p.beta_fast, p.beta_slow, 1e6, false);
    if (p.mscale)
        require_real("mscale", *p.mscale, 0.0, 1e3, false);
    if (p.mscale_all_dim)
        require_real("mscale_all_dim", *p.mscale_all_dim, 0.0, 1e3, true);
    if (p.attention_factor)
        require_real("attention_factor", *p.attention_factor, 0.0, 1e3, false);
    require_real("low_freq_factor", p.low_freq_factor, 0.0, 1e6, false);
    require_real("high_freq_factor", p.high_freq_factor, p.low_freq_factor, 1e6, false);
    if (p.rope_type == RopeType::LongRope) {
        const auto pairs = static_cast<std::size_t>(rd / 2);
        for (const auto* list : {&p.short_factor, &p.long_factor}) {
            const char* name = list == &p.short_factor ? "short_factor" : "long_factor";
            if (list->size() != pairs)
                throw ParameterError(name, "a list of rotary_dim / 2 = " + std::to_string(pairs) + " numbers",
                                     std::to_string(list->size()) + " numbers");
            for (double v : *list)
                require_real(name, v, 0.0, 1e6, false);
        }
    }
}

void validate(const AlibiParams& p)
{
    require_int("num_heads", p.num_heads, 1, 1024);
    require_real("slope_scale", p.slope_scale, 0.0, 1e3, false);
    if (p.scaling != AlibiScaling::None) {
        require_int("trained_length", p.trained_length, 1, kMaxSeqLen);
        require_int("target_length", p.target_length, p.trained_length, kMaxSeqLen);
    }
}

void validate(const CopeParams& p)
{
    require_int("head_dim", p.head_dim, 1, 4096);
    require_int("npos_max", p.npos_max, 1, 1'000'000);
    require_real("gate_scale", p.gate_scale, -1e3, 1e3, true);
    require_real("initializer_range", p.stddev, 0.0, 1e3, false);
}

void validate(const Scenario& s)
{
    require_int("seq_len", s.seq_len, 1, kMaxSeqLen);
    switch (s.method) {
    case Method::Sinusoidal: validate(s.params<SinusoidalParams>()); break;
    case Method::Learned: validate(s.params<LearnedParams>()); break;
    case Method::Shaw: validate(s.params<ShawParams>()); break;
    case Method::TransformerXL: validate(s.params<TransformerXLParams>()); break;
    case Method::T5:
        validate(s.params<T5Params>());
        require_int("head", s.head, 0, s.params<T5Params>().num_heads - 1);
        break;
    case Method::DeBERTa: validate(s.params<DebertaParams>()); break;
    case Method::RoPE: validate(s.params<RopeParams>()); break;
    case Method::ALiBi:
        validate(s.params<AlibiParams>());
        require_int("head", s.head, 0, s.params<AlibiParams>().num_heads - 1);
        break;
    case Method::CoPE: validate(s.params<CopeParams>()); break;
    }
}

} // namespace posatlas
