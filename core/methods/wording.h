// SPDX-License-Identifier: GPL-3.0-or-later
// Words a view shows that a method composes in core (its curves' titles, legend entries and notes, why
// the figures use other values than the panel's): a translatable source text with %1, %2, ... and the
// values that fill them. Core is Qt-free and formats nothing for display: the GUI translates `text` in
// `context` (lupdate reads the QT_TRANSLATE_NOOP beside it) and formats each argument by the figures'
// number policy, so that a method's words live in its folder and the GUI only draws them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace posatlas {

struct Field;

struct WordingArg {
    enum class Kind {
        Integer,     // `integer`, in full ("4096")
        Subscript,   // `integer` as Unicode subscript digits (head 15: "₁₅")
        Number,      // `value` by the figures' number policy with `digits` significant digits
        Significant, // `value` in %g with `digits` significant digits
        Text,        // `text` as it is (a tensor name)
        Choice,      // the caption's name of choice `integer` of `field` ("YaRN")
    };
    Kind kind = Kind::Integer;
    std::int64_t integer = 0;
    double value = 0.0;
    int digits = 6;
    std::string text;
    const Field* field = nullptr;

    static WordingArg whole(std::int64_t n) { return {Kind::Integer, n}; }
    static WordingArg subscript(std::int64_t n) { return {Kind::Subscript, n}; }
    static WordingArg number(double v, int digits = 6) { return {Kind::Number, 0, v, digits}; }
    static WordingArg significant(double v, int digits) { return {Kind::Significant, 0, v, digits}; }
    static WordingArg plain(std::string s) { return {Kind::Text, 0, 0.0, 0, std::move(s)}; }
    static WordingArg choice(const Field& f, int index) { return {Kind::Choice, index, 0.0, 0, {}, &f}; }
};

struct Wording {
    const char* context = ""; // the translation context ("Curves")
    const char* text = "";    // the English source, marked with QT_TRANSLATE_NOOP(context, ...)
    std::vector<WordingArg> args;

    bool empty() const { return !text || !*text; }
};

} // namespace posatlas
