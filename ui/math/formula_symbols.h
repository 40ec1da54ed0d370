// SPDX-License-Identifier: GPL-3.0-or-later
// The parser's tables: symbols, Greek letters, big operators and operator names by command name, with
// their Unicode code points (as in unicode-math's table, unimath-symbols.pdf) and atom classes.
#pragma once

#include "math/formula_tree.h"

namespace posatlas::ui::math::detail {

struct SymbolInfo {
    const char* name;
    char16_t code;
    Cls cls;
};

// Symbols by command name (Unicode code points as in unicode-math's table, unimath-symbols.pdf).
inline const SymbolInfo kSymbols[] = {
    {"le", 0x2264, Cls::Rel},
    {"leq", 0x2264, Cls::Rel},
    {"ge", 0x2265, Cls::Rel},
    {"geq", 0x2265, Cls::Rel},
    {"ne", 0x2260, Cls::Rel},
    {"neq", 0x2260, Cls::Rel},
    {"approx", 0x2248, Cls::Rel},
    {"equiv", 0x2261, Cls::Rel},
    {"in", 0x2208, Cls::Rel},
    {"notin", 0x2209, Cls::Rel},
    {"ni", 0x220B, Cls::Rel},
    {"to", 0x2192, Cls::Rel},
    {"rightarrow", 0x2192, Cls::Rel},
    {"leftarrow", 0x2190, Cls::Rel},
    {"gets", 0x2190, Cls::Rel},
    {"leftrightarrow", 0x2194, Cls::Rel},
    {"Rightarrow", 0x21D2, Cls::Rel},
    {"Leftarrow", 0x21D0, Cls::Rel},
    {"Leftrightarrow", 0x21D4, Cls::Rel},
    {"implies", 0x27F9, Cls::Rel},
    {"iff", 0x27FA, Cls::Rel},
    {"mapsto", 0x21A6, Cls::Rel},
    {"longrightarrow", 0x27F6, Cls::Rel},
    {"propto", 0x221D, Cls::Rel},
    {"sim", 0x223C, Cls::Rel},
    {"simeq", 0x2243, Cls::Rel},
    {"cong", 0x2245, Cls::Rel},
    {"ll", 0x226A, Cls::Rel},
    {"gg", 0x226B, Cls::Rel},
    {"subset", 0x2282, Cls::Rel},
    {"supset", 0x2283, Cls::Rel},
    {"subseteq", 0x2286, Cls::Rel},
    {"supseteq", 0x2287, Cls::Rel},
    {"mid", 0x2223, Cls::Rel},
    {"perp", 0x27C2, Cls::Rel},
    {"parallel", 0x2225, Cls::Rel},
    {"coloneqq", 0x2254, Cls::Rel},
    {"triangleq", 0x225C, Cls::Rel},
    {"uparrow", 0x2191, Cls::Rel},
    {"downarrow", 0x2193, Cls::Rel},
    {"cdot", 0x22C5, Cls::Bin},
    {"times", 0x00D7, Cls::Bin},
    {"pm", 0x00B1, Cls::Bin},
    {"mp", 0x2213, Cls::Bin},
    {"div", 0x00F7, Cls::Bin},
    {"circ", 0x2218, Cls::Bin},
    {"ast", 0x2217, Cls::Bin},
    {"star", 0x22C6, Cls::Bin},
    {"bullet", 0x2219, Cls::Bin},
    {"otimes", 0x2297, Cls::Bin},
    {"oplus", 0x2295, Cls::Bin},
    {"odot", 0x2299, Cls::Bin},
    {"cap", 0x2229, Cls::Bin},
    {"cup", 0x222A, Cls::Bin},
    {"wedge", 0x2227, Cls::Bin},
    {"land", 0x2227, Cls::Bin},
    {"vee", 0x2228, Cls::Bin},
    {"lor", 0x2228, Cls::Bin},
    {"setminus", 0x2216, Cls::Bin},
    {"infty", 0x221E, Cls::Ord},
    {"partial", 0x2202, Cls::Ord},
    {"nabla", 0x2207, Cls::Ord},
    {"ldots", 0x2026, Cls::Inner},
    {"dots", 0x2026, Cls::Inner},
    {"cdots", 0x22EF, Cls::Inner},
    {"vdots", 0x22EE, Cls::Ord},
    {"ddots", 0x22F1, Cls::Inner},
    {"forall", 0x2200, Cls::Ord},
    {"exists", 0x2203, Cls::Ord},
    {"emptyset", 0x2205, Cls::Ord},
    {"varnothing", 0x2205, Cls::Ord},
    {"neg", 0x00AC, Cls::Ord},
    {"lnot", 0x00AC, Cls::Ord},
    {"top", 0x22A4, Cls::Ord},
    {"bot", 0x22A5, Cls::Ord},
    {"dagger", 0x2020, Cls::Ord},
    {"prime", 0x2032, Cls::Ord},
    {"ell", 0x2113, Cls::Ord},
    {"hbar", 0x210F, Cls::Ord},
    {"Re", 0x211C, Cls::Ord},
    {"Im", 0x2111, Cls::Ord},
    {"angle", 0x2220, Cls::Ord},
    {"triangle", 0x25B3, Cls::Ord},
    {"backslash", 0x005C, Cls::Ord},
    {"vert", 0x007C, Cls::Ord},
    {"Vert", 0x2016, Cls::Ord},
    {"|", 0x2016, Cls::Ord},
    {"lfloor", 0x230A, Cls::Open},
    {"rfloor", 0x230B, Cls::Close},
    {"lceil", 0x2308, Cls::Open},
    {"rceil", 0x2309, Cls::Close},
    {"langle", 0x27E8, Cls::Open},
    {"rangle", 0x27E9, Cls::Close},
    {"lvert", 0x007C, Cls::Open},
    {"rvert", 0x007C, Cls::Close},
    {"lVert", 0x2016, Cls::Open},
    {"rVert", 0x2016, Cls::Close},
    {"{", 0x007B, Cls::Open},
    {"}", 0x007D, Cls::Close},
    {"lbrace", 0x007B, Cls::Open},
    {"rbrace", 0x007D, Cls::Close},
    {"colon", 0x003A, Cls::Punct},
    {"#", 0x0023, Cls::Ord},
    {"%", 0x0025, Cls::Ord},
    {"&", 0x0026, Cls::Ord},
    {"_", 0x005F, Cls::Ord},
    {"$", 0x0024, Cls::Ord},
};

struct GreekInfo {
    const char* name;
    char16_t code;
};
inline const GreekInfo kGreek[] = {
    {"alpha", 0x03B1},
    {"beta", 0x03B2},
    {"gamma", 0x03B3},
    {"delta", 0x03B4},
    {"epsilon", 0x03F5},
    {"varepsilon", 0x03B5},
    {"zeta", 0x03B6},
    {"eta", 0x03B7},
    {"theta", 0x03B8},
    {"vartheta", 0x03D1},
    {"iota", 0x03B9},
    {"kappa", 0x03BA},
    {"lambda", 0x03BB},
    {"mu", 0x03BC},
    {"nu", 0x03BD},
    {"xi", 0x03BE},
    {"pi", 0x03C0},
    {"varpi", 0x03D6},
    {"rho", 0x03C1},
    {"varrho", 0x03F1},
    {"sigma", 0x03C3},
    {"varsigma", 0x03C2},
    {"tau", 0x03C4},
    {"upsilon", 0x03C5},
    {"phi", 0x03D5},
    {"varphi", 0x03C6},
    {"chi", 0x03C7},
    {"psi", 0x03C8},
    {"omega", 0x03C9},
    // Capitals are upright in TeX.
    {"Gamma", 0x0393},
    {"Delta", 0x0394},
    {"Theta", 0x0398},
    {"Lambda", 0x039B},
    {"Xi", 0x039E},
    {"Pi", 0x03A0},
    {"Sigma", 0x03A3},
    {"Upsilon", 0x03A5},
    {"Phi", 0x03A6},
    {"Psi", 0x03A8},
    {"Omega", 0x03A9},
};

struct BigOpInfo {
    const char* name;
    char16_t code;
    bool limits;
};
inline const BigOpInfo kBigOps[] = {
    {"sum", 0x2211, true},       {"prod", 0x220F, true},   {"coprod", 0x2210, true},
    {"int", 0x222B, false},      {"iint", 0x222C, false},  {"oint", 0x222E, false},
    {"bigcup", 0x22C3, true},    {"bigcap", 0x22C2, true}, {"bigoplus", 0x2A01, true},
    {"bigotimes", 0x2A02, true}, {"bigvee", 0x22C1, true}, {"bigwedge", 0x22C0, true},
};

// Operator names set upright (amsmath's \DeclareMathOperator list); the second set takes limits.
inline const char* const kOperatorNames[] = {
    "sin",  "cos",  "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh",
    "tanh", "coth", "log", "ln",  "lg",  "exp", "dim",    "ker",    "deg",    "arg",  "hom"};
inline const char* const kLimitOperatorNames[] = {"lim", "limsup", "liminf", "max", "min",    "sup",
                                                  "inf", "det",    "Pr",     "gcd", "argmax", "argmin"};

} // namespace posatlas::ui::math::detail
