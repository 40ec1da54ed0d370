// SPDX-License-Identifier: GPL-3.0-or-later
// "What am I looking at?" as a method tells it: the sentences beside the heatmap of each matrix kind it
// offers and beside its curves (MethodDescriptor::explain, explain_curves). They are translatable source
// texts (QT_TRANSLATE_NOOP, context "Explanation") with their arguments, numbers from the scenario; the GUI
// translates them, fills the arguments and puts them between the parts every method shares (the axes,
// the colour scale, the notes on the content: ui/views/explanations.cpp). Core stays Qt-free.
#pragma once

#include "methods/method.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace posatlas {

struct Scenario;

// The translation context of every text here.
inline constexpr const char* kExplanationContext = "Explanation";

// The value of a %N in a text: a whole number; a number with a few significant digits, as the figures
// print it (no group separator); or the current choice of one of the method's Choice fields, named as the
// figure captions name it ("YaRN" for rope_type = yarn).
struct ExplanationArg {
    enum class Type { Integer, Number, Choice };
    Type type = Type::Integer;
    std::int64_t integer = 0;
    double number = 0.0;
    int digits = 4;           // Number: significant digits
    std::string_view field{}; // Choice: the field's key

    // Implicit from a whole number, so that a part's arguments read {p.num_heads, p.max_distance}.
    ExplanationArg(std::int64_t v) : integer(v) {}
    ExplanationArg(int v) : integer(v) {}
    static ExplanationArg real(double v, int digits = 4);
    static ExplanationArg choice(std::string_view key);
};

// One sentence or a few: a source text (context kExplanationContext) whose %1, %2, ... are `args` in order.
struct ExplanationPart {
    const char* text = "";
    std::vector<ExplanationArg> args;
};

struct ExplanationText {
    std::vector<ExplanationPart> parts; // one paragraph: the parts joined by a space
    std::vector<ExplanationPart> notes; // paragraphs of their own, after the view's notes on the content

    ExplanationText& add(const char* text, std::vector<ExplanationArg> args = {});
    ExplanationText& add(const ExplanationText& more); // its parts and its notes after these
    ExplanationText& note(const char* text, std::vector<ExplanationArg> args = {});
    bool empty() const { return parts.empty() && notes.empty(); }
};

// The content as the texts tell it apart: the same nonzero vector at every position (the diagonals of a
// relative method are constant), or zero everywhere (only the positional part is left).
bool explained_constant_content(const Scenario& s);
bool explained_zero_content(const Scenario& s);

// The Weights kind of every method (the registry adds it): a softmax per row.
ExplanationText weights_explanation();
// The curves view's logit against distance, for a method whose curves are that (registry's default).
ExplanationText logit_curve_explanation();

} // namespace posatlas
