// SPDX-License-Identifier: GPL-3.0-or-later
// The one place where every parameter is checked. Each validate() throws ParameterError naming the
// parameter (its Hugging Face key) and the allowed range; kernels call the matching validate() on
// entry, the command line and the GUI call it before they change any state.
#pragma once

#include "scenario/params.h"
#include "scenario/types.h"

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace posatlas {

// Largest dense matrix a single request may allocate (elements of double: 64 Mi = 512 MiB).
inline constexpr std::int64_t kMaxMatrixElements = std::int64_t{1} << 26;
// Memory budget of one request: the output it produces and the working memory it needs on the way
// (a matrix, its JSON or CSV text, a raster image and its encoded file). Anything larger is refused before
// it is allocated, with the largest allowed value of the option that sized it.
inline constexpr std::int64_t kMemoryBudgetBytes = std::int64_t{1} << 30; // 1 GiB
// What one number costs on its way out of the command line: 8 bytes in the matrix, 16 in the JSON
// document, ~24 as text (measured: a 2^26-element sinusoidal matrix as JSON took 3.6 GB, ~54 B/number).
inline constexpr std::int64_t kBytesPerOutputNumber = 56;
// Largest number of lengths one attention-entropy request evaluates, and the most keys the command line
// (which shows no progress and cannot be cancelled but by a signal) scores in one request: sum of the
// lengths x trials, 2^23 ~ one minute. The GUI's explorer computes longer, cancellable, with progress.
inline constexpr std::int64_t kMaxEntropyLengths = 64;
inline constexpr std::int64_t kMaxEntropyKeyTrials = std::int64_t{1} << 23;
// Largest sequence length any view or command accepts.
inline constexpr std::int64_t kMaxSeqLen = 10'000'000;
// Largest relative distance for decay curves.
inline constexpr std::int64_t kMaxDistance = 100'000'000;

// Checks every field of method m (its range, from the registry) and the method's cross-field rules.
// Validation happens once per scenario: validate() remembers the last few scenarios it validated (with
// what their files hold, scenario_files.h), and a later validate() of an equal scenario, or a
// validate_method() / validate(P) of the same parameters of a remembered scenario's method, returns at
// once. So the GUI's model validates an edit, and the kernels its views then call ask again for free.
void validate_method(const Scenario& s, Method m);
// The same for a method's parameter struct on its own (the explorer's RopeParams, a kernel's entry):
// P::kMethod names the method whose fields and rules apply.
template <typename P>
requires std::same_as<decltype(P::kMethod), const Method>
void validate(const P& p)
{
    Scenario s;
    s.method = P::kMethod;
    s.params<P>() = p;
    validate_method(s, P::kMethod);
}
// Checks seq_len, head, the content, and the parameters of the scenario's current method.
void validate(const Scenario& s);

// Primitives, also used by the command line for its own options. Bounds are inclusive.
void require_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi);
void require_even_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi);
// Finite, value > lo (or >= lo when lo_inclusive), value <= hi.
void require_real(std::string_view name, double value, double lo, double hi, bool lo_inclusive);
// rows * cols must fit kMaxMatrixElements.
void require_matrix_fits(std::string_view name, std::int64_t rows, std::int64_t cols);
// units * bytes_per_unit must fit kMemoryBudgetBytes. Throws ParameterError(name, "at most L (what: N MiB
// would exceed the 1 GiB memory budget)", units), where L = the largest `units` that fits.
void require_within_budget(std::string_view name, std::int64_t units, std::int64_t bytes_per_unit,
                           std::string_view what);

// Shortest round-trip text of a number for messages ("1e+12", "0.5").
std::string format_number(double v);

} // namespace posatlas
