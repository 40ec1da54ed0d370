// The one place where every parameter is checked. Each validate() throws ParameterError naming the
// parameter (its Hugging Face key) and the allowed range; kernels call the matching validate() on
// entry, the command line and the GUI call it before they change any state.
#pragma once

#include "params.h"
#include "types.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace posatlas {

// Largest dense matrix a single request may allocate (elements of double: 64 Mi = 512 MiB).
inline constexpr std::int64_t kMaxMatrixElements = std::int64_t{1} << 26;
// Largest sequence length any view or command accepts.
inline constexpr std::int64_t kMaxSeqLen = 10'000'000;
// Largest relative distance for decay curves.
inline constexpr std::int64_t kMaxDistance = 100'000'000;

void validate(const SinusoidalParams& p);
void validate(const LearnedParams& p);
void validate(const ShawParams& p);
void validate(const TransformerXLParams& p);
void validate(const T5Params& p);
void validate(const DebertaParams& p);
void validate(const RopeParams& p);
void validate(const AlibiParams& p);
void validate(const CopeParams& p);
// Checks seq_len, head, and the parameters of the scenario's current method.
void validate(const Scenario& s);

// Primitives, also used by the command line for its own options. Bounds are inclusive.
void require_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi);
void require_even_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi);
// Finite, value > lo (or >= lo when lo_inclusive), value <= hi.
void require_real(std::string_view name, double value, double lo, double hi, bool lo_inclusive);
// rows * cols must fit kMaxMatrixElements.
void require_matrix_fits(std::string_view name, std::int64_t rows, std::int64_t cols);

// Shortest round-trip text of a number for messages ("1e+12", "0.5").
std::string format_number(double v);

} // namespace posatlas
