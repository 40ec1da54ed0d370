// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/quoted_value.h"

#include "analysis/quote_functions.h"

#include "analysis/curve_envelope.h"
#include "analysis/decay.h"
#include "analysis/lab_results.h"
#include "compute/attention_logits.h"
#include "io/scenario_json.h"
#include "methods/alibi/alibi.h"
#include "methods/registry.h"
#include "methods/rope/rope.h"
#include "scenario/validation.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <vector>

namespace posatlas {

struct QuoteExpression::Node {
    enum class Kind { Number, String, List, Call, Unary, Binary } kind = Kind::Number;
    double number = 0.0;
    std::string name; // function name, string literal, or operator
    std::vector<std::shared_ptr<const Node>> children;
};

namespace {

using Node = QuoteExpression::Node;
using NodePtr = std::shared_ptr<const Node>;

using quote::fail;
using quote::Function;
using quote::FunctionTable;
using quote::index_arg;
using quote::number_arg;
using quote::params_of;
using quote::string_arg;
using quote::Value;

const RopeParams& rope_of(const Scenario& s, const char* fn)
{
    return params_of<RopeParams>(s, fn);
}

const std::vector<double>& pair_values(const std::vector<double>& v, std::int64_t i, const char* fn)
{
    if (i >= static_cast<std::int64_t>(v.size()))
        fail(std::string(fn) + ": pair " + std::to_string(i) + " does not exist (the scenario has " +
             std::to_string(v.size()) + " pairs, 0 to " + std::to_string(v.size() - 1) + ")");
    return v;
}

double one_rope_curve(const Scenario& s, double r, bool bound, const char* fn)
{
    const RopeFrequencies f = compute_rope_frequencies(rope_of(s, fn));
    return bound ? rope_decay_bound(f.inv_freq, {r}).front() : rope_mean_cos(f.inv_freq, {r}).front();
}

double cell(const Scenario& s, MatrixKind kind, std::int64_t i, std::int64_t j)
{
    MatrixWindow w;
    w.row0 = i;
    w.col0 = j;
    w.rows = w.cols = w.out_rows = w.out_cols = 1;
    return compute_matrix(s, kind, w).values(0, 0);
}

double aggregate(const Scenario& s, MatrixKind kind, int which)
{
    if (s.seq_len > kMaxQuotedMatrix)
        fail("whole-matrix values need seq_len <= " + std::to_string(kMaxQuotedMatrix) +
             " (the scenario has " + std::to_string(s.seq_len) + ")");
    const MatrixResult m = compute_matrix(s, kind, MatrixWindow{});
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0.0;
    std::int64_t n = 0;
    for (Eigen::Index r = 0; r < m.values.rows(); ++r)
        for (Eigen::Index c = 0; c < m.values.cols(); ++c) {
            const double v = m.values(r, c);
            if (!std::isfinite(v))
                continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            sum += v;
            ++n;
        }
    if (n == 0)
        fail(std::string(kind.id()) + " has no finite cell");
    return which == 0 ? lo : which == 1 ? hi : sum / static_cast<double>(n);
}

double pure(double (*f)(double), const std::vector<Value>& a, const char* name)
{
    return f(number_arg(a, 0, name));
}

// Arithmetic: ln, log2, log10, exp, sqrt, abs, sin, cos, floor, round, pi, min, max.
void add_arithmetic(FunctionTable& t)
{
    const auto unary = [&t](const char* name, double (*f)(double)) {
        t[name] = {1, 1,
                   [f, name](const Scenario&, const std::vector<Value>& a) { return pure(f, a, name); }};
    };
    unary("ln", [](double x) { return std::log(x); });
    unary("log2", [](double x) { return std::log2(x); });
    unary("log10", [](double x) { return std::log10(x); });
    unary("exp", [](double x) { return std::exp(x); });
    unary("sqrt", [](double x) { return std::sqrt(x); });
    unary("abs", [](double x) { return std::fabs(x); });
    unary("sin", [](double x) { return std::sin(x); });
    unary("cos", [](double x) { return std::cos(x); });
    unary("floor", [](double x) { return std::floor(x); });
    unary("round", [](double x) { return std::round(x); });
    t["pi"] = {0, 0, [](const Scenario&, const std::vector<Value>&) { return std::numbers::pi; }};
    const auto extreme = [](bool lower) {
        return [lower](const Scenario&, const std::vector<Value>& a) {
            double best = number_arg(a, 0, lower ? "min" : "max");
            for (std::size_t i = 1; i < a.size(); ++i)
                best =
                    lower ? std::min(best, number_arg(a, i, "min")) : std::max(best, number_arg(a, i, "max"));
            return best;
        };
    };
    t["min"] = {1, -1, extreme(true)};
    t["max"] = {1, -1, extreme(false)};
}

// The logit curve of the last query against distance: one value, its least and its greatest.
void add_curve_functions(FunctionTable& t)
{
    t["curve"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                      return logit_at_distance(s, s.seq_len - 1, index_arg(a, 0, "curve"));
                  }};
    const auto curve_extreme = [](bool lower) {
        return [lower](const Scenario& s, const std::vector<Value>& a) {
            const char* fn = lower ? "curve_min" : "curve_max";
            const std::int64_t from = index_arg(a, 0, fn), to = index_arg(a, 1, fn);
            if (from > to || to - from > 1'000'000)
                fail(std::string(fn) + "(a, b): distances a <= b, at most 10^6 apart");
            double best =
                lower ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
            for (std::int64_t r = from; r <= to; ++r) {
                const double v = logit_at_distance(s, s.seq_len - 1, r);
                if (std::isfinite(v))
                    best = lower ? std::min(best, v) : std::max(best, v);
            }
            return best;
        };
    };
    t["curve_min"] = {2, 2, curve_extreme(true)};
    t["curve_max"] = {2, 2, curve_extreme(false)};
}

// RoPE: the frequencies, wavelengths and bands of the scaling, the decay bound, a rotated score.
void add_rope_functions(FunctionTable& t)
{
    t["theta"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                      const RopeFrequencies f = compute_rope_frequencies(rope_of(s, "theta"));
                      const std::int64_t i = index_arg(a, 0, "theta");
                      return pair_values(f.inv_freq, i, "theta")[static_cast<std::size_t>(i)];
                  }};
    t["theta_original"] = {
        1, 1, [](const Scenario& s, const std::vector<Value>& a) {
            const RopeFrequencies f = compute_rope_frequencies(rope_of(s, "theta_original"));
            const std::int64_t i = index_arg(a, 0, "theta_original");
            return pair_values(f.inv_freq_original, i, "theta_original")[static_cast<std::size_t>(i)];
        }};
    t["wavelength"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                           const RopeFrequencies f = compute_rope_frequencies(rope_of(s, "wavelength"));
                           const std::int64_t i = index_arg(a, 0, "wavelength");
                           return 2.0 * std::numbers::pi /
                                  pair_values(f.inv_freq, i, "wavelength")[static_cast<std::size_t>(i)];
                       }};
    t["base_used"] = {0, 0, [](const Scenario& s, const std::vector<Value>&) {
                          return compute_rope_frequencies(rope_of(s, "base_used")).base_used;
                      }};
    t["attention_factor"] = {
        0, 0, [](const Scenario& s, const std::vector<Value>&) {
            return compute_rope_frequencies(rope_of(s, "attention_factor")).attention_factor;
        }};
    t["rotary_pairs"] = {0, 0, [](const Scenario& s, const std::vector<Value>&) {
                             return static_cast<double>(
                                 compute_rope_frequencies(rope_of(s, "rotary_pairs")).inv_freq.size());
                         }};
    // Pairs whose scaled frequency equals the unscaled one (kept), or is the unscaled one divided by
    // the factor (divided), to 1e-12 relative: PI, YaRN and Llama 3's three bands.
    const auto band = [](bool kept) {
        return [kept](const Scenario& s, const std::vector<Value>&) {
            const RopeFrequencies f =
                compute_rope_frequencies(rope_of(s, kept ? "pairs_kept" : "pairs_divided"));
            double n = 0;
            for (std::size_t i = 0; i < f.inv_freq.size(); ++i) {
                const double ratio = f.inv_freq[i] / f.inv_freq_original[i];
                const double want = kept ? 1.0 : 1.0 / f.factor_used;
                n += std::fabs(ratio - want) <= 1e-12 * want ? 1 : 0;
            }
            return n;
        };
    };
    t["pairs_kept"] = {0, 0, band(true)};
    t["pairs_divided"] = {0, 0, band(false)};
    // The first pair whose (scaled) wavelength exceeds L: from it on, pairs never complete a turn
    // within L positions (`posatlas compute rope-pairs`); the pair count when none does.
    t["first_pair_longer_than"] = {
        1, 1, [](const Scenario& s, const std::vector<Value>& a) {
            const RopeFrequencies f = compute_rope_frequencies(rope_of(s, "first_pair_longer_than"));
            const double L = number_arg(a, 0, "first_pair_longer_than");
            std::size_t i = 0;
            while (i < f.inv_freq.size() && 2.0 * std::numbers::pi / f.inv_freq[i] <= L)
                ++i;
            return static_cast<double>(i);
        }};
    t["bound"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                      return one_rope_curve(s, number_arg(a, 0, "bound"), true, "bound");
                  }};
    t["bound_ratio"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                            return one_rope_curve(s, number_arg(a, 0, "bound_ratio"), true, "bound_ratio") /
                                   one_rope_curve(s, 0.0, true, "bound_ratio");
                        }};
    t["meancos"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                        return one_rope_curve(s, number_arg(a, 0, "meancos"), false, "meancos");
                    }};
    t["rope_score"] = {
        4, 4, [](const Scenario& s, const std::vector<Value>& a) {
            if (a[2].kind != Value::Kind::List || a[3].kind != Value::Kind::List ||
                a[2].list.size() != a[3].list.size())
                fail("rope_score(m, n, q, k): q and k must be lists of the same length ([1, 0])");
            RopeParams p = rope_of(s, "rope_score");
            p.head_dim = static_cast<int>(a[2].list.size());
            validate(p);
            const RopeFrequencies f = compute_rope_frequencies(p);
            const Eigen::Map<const Eigen::VectorXd> q(a[2].list.data(), p.head_dim);
            const Eigen::Map<const Eigen::VectorXd> k(a[3].list.data(), p.head_dim);
            return rope_score(f, q, k, number_arg(a, 0, "rope_score"), number_arg(a, 1, "rope_score"),
                              p.pairing);
        }};
}

// The lab's shipped results (analysis/lab_results.h): read from the files, never trained; the step's
// scenario plays no part.
void add_lab_functions(FunctionTable& t)
{
    const auto sweep = [](bool accuracy) {
        return [accuracy](const Scenario&, const std::vector<Value>& a) {
            const char* fn = accuracy ? "lab_accuracy" : "lab_loss";
            const std::string& name = string_arg(a, 0, fn);
            const std::int64_t length = index_arg(a, 1, fn);
            return accuracy ? lab_sweep_accuracy(name, length) : lab_sweep_loss(name, length);
        };
    };
    t["lab_accuracy"] = {2, 2, sweep(true)};
    t["lab_loss"] = {2, 2, sweep(false)};
    t["lab_sweep_methods"] = {1, 1, [](const Scenario&, const std::vector<Value>& a) {
                                  return lab_sweep_methods(string_arg(a, 0, "lab_sweep_methods"));
                              }};
    const auto eval = [](const char* fn, const char* field) {
        return [fn, field](const Scenario&, const std::vector<Value>& a) {
            return lab_eval_value(string_arg(a, 0, fn), index_arg(a, 1, fn), field);
        };
    };
    t["lab_eval_accuracy"] = {2, 2, eval("lab_eval_accuracy", "answer_accuracy")};
    t["lab_eval_loss"] = {2, 2, eval("lab_eval_loss", "loss")};
    t["lab_entropy"] = {3, 3, [](const Scenario&, const std::vector<Value>& a) {
                            return lab_eval_entropy(string_arg(a, 0, "lab_entropy"),
                                                    index_arg(a, 1, "lab_entropy"),
                                                    index_arg(a, 2, "lab_entropy"));
                        }};
    t["lab_finetune_loss"] = {1, 1, [](const Scenario&, const std::vector<Value>& a) {
                                  return lab_eval_finetune_loss(string_arg(a, 0, "lab_finetune_loss"));
                              }};
}

const std::map<std::string, Function, std::less<>>& functions()
{
    static const std::map<std::string, Function, std::less<>> table = [] {
        std::map<std::string, Function, std::less<>> t;
        add_arithmetic(t);
        add_curve_functions(t);
        add_rope_functions(t);
        add_lab_functions(t);
        quote::add_model_functions(t);
        const auto slope = [](bool scaled) {
            return [scaled](const Scenario& s, const std::vector<Value>& a) {
                const char* fn = scaled ? "slope" : "slope_unscaled";
                const AlibiParams& p = params_of<AlibiParams>(s, fn);
                const std::vector<double> v = scaled ? alibi_scaled_slopes(p) : alibi_slopes(p.num_heads);
                const std::int64_t h = index_arg(a, 0, fn);
                if (h >= static_cast<std::int64_t>(v.size()))
                    fail(std::string(fn) + ": head " + std::to_string(h) + " does not exist (heads 0 to " +
                         std::to_string(v.size() - 1) + ")");
                return v[static_cast<std::size_t>(h)];
            };
        };
        t["slope"] = {1, 1, slope(true)};
        t["slope_unscaled"] = {1, 1, slope(false)};
        t["param"] = {1, 1, [](const Scenario& s, const std::vector<Value>& a) {
                          if (a[0].kind != Value::Kind::String)
                              fail("param(\"a.b\") takes the field's name as a string");
                          nlohmann::json j = scenario_to_json(s);
                          std::string_view path = a[0].text;
                          while (true) {
                              const std::size_t dot = path.find('.');
                              const std::string key(path.substr(0, dot));
                              if (!j.is_object() || !j.contains(key))
                                  fail("param: the scenario has no field \"" + a[0].text + "\"");
                              j = j[key];
                              if (dot == std::string_view::npos)
                                  break;
                              path.remove_prefix(dot + 1);
                          }
                          if (!j.is_number())
                              fail("param: \"" + a[0].text + "\" is not a number");
                          return j.get<double>();
                      }};
        return t;
    }();
    return table;
}

// A matrix function: "logits", "cope_positions_mean", … -> the kind and which value (-1: a cell).
std::optional<std::pair<MatrixKind, int>> matrix_function(std::string_view name)
{
    int which = -1;
    for (const auto& [suffix, w] : {std::pair{std::string_view("_min"), 0}, {"_max", 1}, {"_mean", 2}})
        if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
            name.remove_suffix(suffix.size());
            which = w;
            break;
        }
    std::string id(name);
    for (char& c : id)
        if (c == '_')
            c = '-';
    const auto kind = parse_matrix_kind(id);
    if (!kind)
        return std::nullopt;
    return std::pair{*kind, which};
}

// ---------------------------------------------------------------- the parser

class Parser
{
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    NodePtr parse()
    {
        NodePtr n = expr();
        skip();
        if (m_pos != m_text.size())
            fail(error("unexpected \"" + std::string(m_text.substr(m_pos, 12)) + "\""));
        return n;
    }

private:
    std::string error(const std::string& what) const
    {
        return "column " + std::to_string(m_pos + 1) + ": " + what;
    }
    void skip()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    bool take(char c)
    {
        skip();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    void expect(char c)
    {
        if (!take(c))
            fail(error(std::string("expected \"") + c + "\""));
    }
    static NodePtr binary(std::string op, NodePtr a, NodePtr b)
    {
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::Binary;
        n->name = std::move(op);
        n->children = {std::move(a), std::move(b)};
        return n;
    }
    NodePtr expr()
    {
        if (++m_depth > 64)
            fail(error("the expression is nested too deeply"));
        NodePtr n = term();
        while (true) {
            if (take('+'))
                n = binary("+", n, term());
            else if (take('-'))
                n = binary("-", n, term());
            else
                break;
        }
        --m_depth;
        return n;
    }
    NodePtr term()
    {
        NodePtr n = unary();
        while (true) {
            if (take('*'))
                n = binary("*", n, unary());
            else if (take('/'))
                n = binary("/", n, unary());
            else
                break;
        }
        return n;
    }
    NodePtr unary()
    {
        if (take('-')) {
            if (++m_depth > 64)
                fail(error("the expression is nested too deeply"));
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::Unary;
            n->name = "-";
            n->children = {unary()};
            --m_depth;
            return n;
        }
        NodePtr base = primary();
        if (take('^'))
            return binary("^", base, unary());
        return base;
    }
    NodePtr primary()
    {
        skip();
        if (m_pos >= m_text.size())
            fail(error("the expression ends too early"));
        const char c = m_text[m_pos];
        auto n = std::make_shared<Node>();
        if (take('(')) {
            NodePtr inner = expr();
            expect(')');
            return inner;
        }
        if (take('[')) {
            n->kind = Node::Kind::List;
            do
                n->children.push_back(expr());
            while (take(','));
            expect(']');
            return n;
        }
        if (c == '"') {
            const std::size_t end = m_text.find('"', m_pos + 1);
            if (end == std::string_view::npos)
                fail(error("a string is not closed"));
            n->kind = Node::Kind::String;
            n->name = std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
            m_pos = end + 1;
            return n;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* first = m_text.data() + m_pos;
            const auto [end, ec] = std::from_chars(first, m_text.data() + m_text.size(), n->number);
            if (ec != std::errc())
                fail(error("not a number"));
            m_pos += static_cast<std::size_t>(end - first);
            return n;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                ++m_pos;
            n->kind = Node::Kind::Call;
            n->name = std::string(m_text.substr(start, m_pos - start));
            if (take('(') && !take(')')) {
                do
                    n->children.push_back(expr());
                while (take(','));
                expect(')');
            }
            check_call(*n, start);
            return n;
        }
        fail(error(std::string("unexpected \"") + c + "\""));
    }
    void check_call(const Node& n, std::size_t at) const
    {
        const int count = static_cast<int>(n.children.size());
        const std::string where = "column " + std::to_string(at + 1) + ": ";
        if (const auto f = functions().find(n.name); f != functions().end()) {
            const auto& fn = f->second;
            if (count < fn.min_args || (fn.max_args >= 0 && count > fn.max_args))
                fail(where + n.name + " takes " + std::to_string(fn.min_args) +
                     (fn.max_args == fn.min_args ? ""
                      : fn.max_args < 0          ? " or more"
                                                 : " to " + std::to_string(fn.max_args)) +
                     " arguments (got " + std::to_string(count) + ")");
            return;
        }
        if (const auto m = matrix_function(n.name)) {
            const int wanted = m->second < 0 ? 2 : 0;
            if (count != wanted)
                fail(where + n.name + " takes " + std::to_string(wanted) + " arguments (got " +
                     std::to_string(count) + ")");
            return;
        }
        fail(where + "unknown function \"" + n.name + "\"");
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_depth = 0;
};

Value evaluate_node(const Node& n, const Scenario& s)
{
    Value v;
    switch (n.kind) {
    case Node::Kind::Number: v.number = n.number; return v;
    case Node::Kind::String:
        v.kind = Value::Kind::String;
        v.text = n.name;
        return v;
    case Node::Kind::List:
        v.kind = Value::Kind::List;
        for (const NodePtr& c : n.children) {
            const Value e = evaluate_node(*c, s);
            if (e.kind != Value::Kind::Number)
                fail("a list holds numbers only");
            v.list.push_back(e.number);
        }
        return v;
    case Node::Kind::Unary:
    case Node::Kind::Binary: {
        std::vector<double> x;
        for (const NodePtr& c : n.children) {
            const Value e = evaluate_node(*c, s);
            if (e.kind != Value::Kind::Number)
                fail("\"" + n.name + "\" works on numbers only");
            x.push_back(e.number);
        }
        if (n.kind == Node::Kind::Unary)
            v.number = -x[0];
        else if (n.name == "+")
            v.number = x[0] + x[1];
        else if (n.name == "-")
            v.number = x[0] - x[1];
        else if (n.name == "*")
            v.number = x[0] * x[1];
        else if (n.name == "/")
            v.number = x[0] / x[1];
        else
            v.number = std::pow(x[0], x[1]);
        return v;
    }
    case Node::Kind::Call: break;
    }
    std::vector<Value> args;
    for (const NodePtr& c : n.children)
        args.push_back(evaluate_node(*c, s));
    try {
        if (const auto f = functions().find(n.name); f != functions().end()) {
            v.number = f->second.eval(s, args);
            return v;
        }
        const auto m = matrix_function(n.name);
        if (m->second >= 0)
            v.number = aggregate(s, m->first, m->second);
        else
            v.number =
                cell(s, m->first, index_arg(args, 0, n.name.c_str()), index_arg(args, 1, n.name.c_str()));
    } catch (const ParameterError& e) {
        fail(n.name + ": " + e.what());
    }
    return v;
}

} // namespace

QuoteExpression QuoteExpression::parse(std::string_view text)
{
    if (text.size() > 4096)
        throw QuoteError("the expression is longer than 4096 characters");
    QuoteExpression e;
    e.m_text = std::string(text);
    e.m_root = Parser(text).parse();
    return e;
}

double QuoteExpression::evaluate(const Scenario& s) const
{
    const Value v = evaluate_node(*m_root, s);
    if (v.kind != Value::Kind::Number)
        throw QuoteError("the expression's value must be a number");
    return v.number;
}

} // namespace posatlas
