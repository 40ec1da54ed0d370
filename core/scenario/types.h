// SPDX-License-Identifier: GPL-3.0-or-later
// Common vocabulary of the numerics core: errors, cancellation and progress.
// No Qt here: the command line, the GUI and the tests all link this library.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace posatlas {

// Returns true when the caller no longer wants the result (a newer request superseded it).
// Kernels poll it between rows/chunks and throw Cancelled.
using CancelFn = std::function<bool()>;
// Receives the completed fraction in [0, 1]. May be called from the thread that runs the kernel
// (never from OpenMP worker threads).
using ProgressFn = std::function<void(double)>;

// Arithmetic of a kernel's last steps. For matrices (compute/gemm.h) the final product: Single rounds
// its two factors to float32 and accumulates in float32. For curves (analysis/decay.h, sinusoid sums)
// the products and running sums after exact angles. Angles, rotations, content and block sums are
// always double. Views use Single; `posatlas compute` keeps Double unless asked.
enum class Precision { Double, Single };

// A parameter outside its allowed range. `parameter()` is the Hugging Face config key
// (snake_case, e.g. "rope_theta"); the command line shows it as --rope-theta.
// The shape a method's table file must have (Shaw's a^K, DeBERTa's relative embeddings, ...):
// rows x cols, -1 = any; a vector (u, v of Transformer-XL) is 1 x cols and may be stored as cols x 1 too.
struct TableShape {
    std::int64_t rows = -1, cols = -1;
    bool vector = false;
    const char* meaning =
        ""; // "(2 max_relative_position + 1) x head_dim": how the shape follows the scenario
    // A .safetensors file without a tensor name: the first known position tensor of this method
    // (io/safetensors.h known_position_tensors: "deberta"); null: the tensor must be named.
    const char* known = nullptr;
};

class ParameterError : public std::invalid_argument
{
public:
    ParameterError(std::string parameter, std::string allowed, std::string got);
    const std::string& parameter() const noexcept { return m_parameter; }
    const std::string& allowed() const noexcept { return m_allowed; }
    const std::string& got() const noexcept { return m_got; }

private:
    std::string m_parameter;
    std::string m_allowed;
    std::string m_got;
};

// Thrown by a kernel when its CancelFn returned true. Not an error: the result is simply not wanted.
class Cancelled : public std::runtime_error
{
public:
    Cancelled() : std::runtime_error("computation cancelled") {}
};

// Throws Cancelled if `cancel` is set and returns true.
inline void check_cancel(const CancelFn& cancel)
{
    if (cancel && cancel())
        throw Cancelled();
}

inline void report_progress(const ProgressFn& progress, double fraction)
{
    if (progress)
        progress(fraction);
}

} // namespace posatlas
