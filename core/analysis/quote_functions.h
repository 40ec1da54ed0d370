// SPDX-License-Identifier: GPL-3.0-or-later
// The function table of a lesson's quoted numbers (quoted_value.h), shared by the files that fill it:
// quoted_value.cpp (arithmetic, curves, RoPE, the lab's results, ALiBi, param) and
// quote_model_functions.cpp (the encodings of today's models: M-RoPE's ids, the attention temperature,
// a method's own curve family, MLA's softmax scale). Internal to core/analysis.
#pragma once

#include "analysis/quoted_value.h"
#include "methods/registry.h"
#include "scenario/params.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas::quote {

// An argument: a number, a list of numbers, or a string.
struct Value {
    enum class Kind { Number, List, String } kind = Kind::Number;
    double number = 0.0;
    std::vector<double> list;
    std::string text;
};

[[noreturn]] inline void fail(const std::string& what)
{
    throw QuoteError(what);
}

struct Function {
    int min_args = 0, max_args = 0; // max_args < 0: any number >= min_args
    std::function<double(const Scenario&, const std::vector<Value>&)> eval;
};

using FunctionTable = std::map<std::string, Function, std::less<>>;

inline double number_arg(const std::vector<Value>& a, std::size_t i, const char* fn)
{
    if (a[i].kind != Value::Kind::Number)
        fail(std::string(fn) + ": argument " + std::to_string(i + 1) + " must be a number");
    return a[i].number;
}

inline std::int64_t index_arg(const std::vector<Value>& a, std::size_t i, const char* fn)
{
    const double x = number_arg(a, i, fn);
    if (!(x >= 0) || x > 1e15 || x != std::floor(x))
        fail(std::string(fn) + ": argument " + std::to_string(i + 1) + " must be a whole number >= 0");
    return static_cast<std::int64_t>(x);
}

inline const std::string& string_arg(const std::vector<Value>& a, std::size_t i, const char* fn)
{
    if (a[i].kind != Value::Kind::String)
        fail(std::string(fn) + ": argument " + std::to_string(i + 1) + " must be a string (\"copy/rope\")");
    return a[i].text;
}

// The parameters of the method a function needs (P::kMethod): a RoPE step for θ, an ALiBi step for slopes.
template <typename P> const P& params_of(const Scenario& s, const char* fn)
{
    if (s.method != P::kMethod) {
        const std::string name = descriptor(P::kMethod).short_name;
        const bool vowel = std::string_view("AEIOU").find(name.front()) != std::string_view::npos;
        fail(std::string(fn) + (vowel ? " needs an " : " needs a ") + name +
             " scenario (this step's method is " + std::string(s.method.id()) + ")");
    }
    return s.params<P>();
}

// position_id, axis_pairs (M-RoPE), temperature, family_curve, mla_softmax_scale.
void add_model_functions(FunctionTable& t);

} // namespace posatlas::quote
