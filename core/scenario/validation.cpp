// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/validation.h"

#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/content_file.h"

#include <cmath>
#include <string>

namespace posatlas {

ParameterError::ParameterError(std::string parameter, std::string allowed, std::string got)
    : std::invalid_argument(parameter + " must be " + allowed + " (got " + got + ")"),
      m_parameter(std::move(parameter)), m_allowed(std::move(allowed)), m_got(std::move(got))
{
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
                             std::string(lo_inclusive ? ">= " : "> ") + format_number(lo) +
                                 " and <= " + format_number(hi),
                             format_number(value));
}

void require_within_budget(std::string_view name, std::int64_t units, std::int64_t bytes_per_unit,
                           std::string_view what)
{
    if (bytes_per_unit < 1)
        bytes_per_unit = 1;
    const std::int64_t largest = kMemoryBudgetBytes / bytes_per_unit;
    if (units > largest) {
        const double mib =
            static_cast<double>(units) * static_cast<double>(bytes_per_unit) / (1024.0 * 1024.0);
        throw ParameterError(std::string(name),
                             "at most " + std::to_string(largest) + " (" + std::string(what) + ": " +
                                 std::to_string(static_cast<std::int64_t>(mib)) + " MiB would exceed the " +
                                 std::to_string(kMemoryBudgetBytes >> 20) + " MiB memory budget)",
                             std::to_string(units));
    }
}

void require_matrix_fits(std::string_view name, std::int64_t rows, std::int64_t cols)
{
    if (rows < 1 || cols < 1 || rows > kMaxMatrixElements / cols)
        throw ParameterError(std::string(name),
                             "small enough that the matrix (" + std::to_string(rows) + " x " +
                                 std::to_string(cols) + ") has at most " +
                                 std::to_string(kMaxMatrixElements) + " elements",
                             std::to_string(rows) + " x " + std::to_string(cols));
}

void validate_method(const Scenario& s, Method m)
{
    const MethodDescriptor& d = descriptor(m);
    for (const Field& f : d.fields)
        f.check(f.get(s));
    if (d.check)
        d.check(s);
}

void validate(const Scenario& s)
{
    for (const Field& f : common_fields())
        f.check(f.get(s));
    if (!s.content.tokens.empty()) {
        const auto tokens = static_cast<std::int64_t>(s.content.tokens.size());
        if (tokens > kMaxTextTokens)
            throw ParameterError("text",
                                 "a sentence of at most " + std::to_string(kMaxTextTokens) + " tokens",
                                 std::to_string(tokens) + " tokens");
        // The sentence is the sequence: one position per token.
        if (s.seq_len != tokens)
            throw ParameterError("seq_len", std::to_string(tokens) + ", the number of tokens of the sentence",
                                 std::to_string(s.seq_len));
    }
    const MethodDescriptor& d = descriptor(s.method);
    validate_method(s, s.method);
    validate_content_files(s); // after the method's own fields: its head dimension is known to be valid
    // The shown head matters to per-head methods only (others keep whatever head was last shown).
    if (d.heads)
        require_int("head", s.head, 0, d.heads(s) - 1);
}

} // namespace posatlas
