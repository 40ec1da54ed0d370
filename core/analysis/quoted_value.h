// SPDX-License-Identifier: GPL-3.0-or-later
// The numbers a lesson quotes, computed: a lesson writes [[0.034 = weights(2, 1)]] where its text
// says "the weight is 0.034", and `posatlas lesson check` and the course test evaluate the expression
// on the step's own scenario and compare it with the quoted text at the precision it is printed with.
// This file is the expression language (Qt-free; the lesson reader and the command line share it).
//
// Grammar: expr := term (('+' | '-') term)*;  term := unary (('*' | '/') unary)*;
//          unary := '-' unary | power;  power := primary ('^' unary)?;
//          primary := number | "string" | '[' expr (',' expr)* ']' | '(' expr ')' | name ['(' args ')'].
// Values are numbers, lists of numbers ([1, 0]) or strings ("rope.rope_theta").
//
// Functions of the scenario (each names what a view or `posatlas compute` shows):
//   K(i, j)            cell (query i, key j) of matrix kind K of the scenario's method, exactly as
//                      compute_matrix gives it (K: logits, weights, encoding, bias, buckets,
//                      cope_positions, cope_gates, … : a kind id with '-' written '_')
//   K_min(), K_max(), K_mean()   over the finite cells of the whole N x N matrix (N <= kMaxQuotedMatrix)
//   curve(r)           the logit curve: logit of the last query against the key at distance r
//   curve_min(a, b), curve_max(a, b)   its extremes over the distances a .. b
//   theta(i), theta_original(i), wavelength(i)   RoPE pair i's scaled / unscaled frequency, 2 pi / theta
//   base_used(), attention_factor()              RoPE's effective base and attention factor
//   rotary_pairs(), pairs_kept(), pairs_divided() how many pairs rotate; keep their frequency; are
//                                                divided by the factor (PI, YaRN, Llama 3 bands)
//   first_pair_longer_than(L)                    the first pair whose wavelength exceeds L
//   bound(r), bound_ratio(r), meancos(r)         RoFormer's decay bound (decay.h), bound(r) / bound(0),
//                                                the mean of cos(r theta_i)
//   rope_score(m, n, q, k)   (R(m) q) . (R(n) k) with head_dim = q's length (no 1/sqrt(d)), the
//                            scenario's RoPE parameters and pairing (`posatlas compute rope-score`)
//   slope(h), slope_unscaled(h)   ALiBi slope of head h (0-based) as the figures draw it / before scaling
//   param("a.b")       a scenario field as `posatlas compute scenario` prints it ("seq_len",
//   "rope.rope_theta")
//   position_id(i, axis), axis_pairs(axis)   M-RoPE: token i's id on axis 0 (t), 1 (h), 2 (w); the
//                      rotary pairs that turn by that axis (quote_model_functions.cpp)
//   temperature(i)     the factor of query i's logits (Llama 4's attention temperature tuning)
//   family_curve(r[, k])   series k (0) of the method's own curve family at distance r (MLA's rotary
//                      share, T5's buckets, ALiBi's factors)
//   mla_softmax_scale()    MLA's softmax scale with DeepSeek's mscale squared
// The lab's shipped results (analysis/lab_results.h; read from resources/lab-runs, not computed):
//   lab_accuracy("copy/rope", L), lab_loss("copy/rope", L)   sweep.json's answer accuracy (0..1) and
//                      loss of a method at length L, the mean over its seeds
//   lab_eval_accuracy("copy/rope/seed-0/evals/pi4", L), lab_eval_loss(…, L)   an evaluation file's row
//   lab_entropy(…, L, layer)   its mean attention entropy of that layer (nats)
//   lab_finetune_loss(…)       the answer loss of the last steps of its fine-tune
// Pure functions: ln, log2, log10, exp, sqrt, abs, sin, cos, floor, round, min(a, …), max(a, …), pi.
#pragma once

#include "scenario/params.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace posatlas {

// Largest N for the whole-matrix aggregates K_min / K_max / K_mean.
inline constexpr std::int64_t kMaxQuotedMatrix = 4096;

// A malformed expression, an unknown function, wrong arguments or a value the scenario does not have
// (a RoPE function on an ALiBi scenario, a cell outside the matrix). The message says which.
class QuoteError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class QuoteExpression
{
public:
    // Parses and checks names and argument counts; throws QuoteError.
    static QuoteExpression parse(std::string_view text);
    // The value on scenario s; throws QuoteError (ParameterError from core is reported as QuoteError).
    double evaluate(const Scenario& s) const;
    const std::string& text() const { return m_text; }

    struct Node;

private:
    std::string m_text;
    std::shared_ptr<const Node> m_root;
};

// A quoted number as printed: "0.034", "-1015.5", "3.16e-4", "11". Its value and the half unit of its
// last printed digit (the largest error the printed text can hide). nullopt when not such a number.
struct PrintedNumber {
    double value = 0.0;
    double half_unit = 0.0;
    int decimals = 0; // digits after the point of the mantissa
    int exponent = 0; // of an "e" form, else 0
};
std::optional<PrintedNumber> parse_printed_number(std::string_view text);
// True when `value` rounds to the printed number: |value - printed| <= half unit (plus 1e-9 relative,
// for values that sit exactly on a rounding boundary).
bool printed_number_matches(const PrintedNumber& printed, double value);
// `value` printed like `like` (same decimals, same exponent form): what an update writes.
std::string print_like(const PrintedNumber& like, double value);

} // namespace posatlas
