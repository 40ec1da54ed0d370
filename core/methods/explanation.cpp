// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/explanation.h"

#include "scenario/content.h"

namespace posatlas {

ExplanationArg ExplanationArg::real(double v, int digits)
{
    ExplanationArg a(0);
    a.type = Type::Number;
    a.number = v;
    a.digits = digits;
    return a;
}

ExplanationArg ExplanationArg::choice(std::string_view key)
{
    ExplanationArg a(0);
    a.type = Type::Choice;
    a.field = key;
    return a;
}

ExplanationText& ExplanationText::add(const char* text, std::vector<ExplanationArg> args)
{
    parts.push_back({text, std::move(args)});
    return *this;
}

ExplanationText& ExplanationText::add(const ExplanationText& more)
{
    parts.insert(parts.end(), more.parts.begin(), more.parts.end());
    notes.insert(notes.end(), more.notes.begin(), more.notes.end());
    return *this;
}

ExplanationText& ExplanationText::note(const char* text, std::vector<ExplanationArg> args)
{
    notes.push_back({text, std::move(args)});
    return *this;
}

bool explained_constant_content(const Scenario& s)
{
    return content_is_position_independent(s.content) && s.content.kind != ContentKind::Zero;
}

bool explained_zero_content(const Scenario& s)
{
    return !s.content.from_files() && s.content.tokens.empty() && s.content.kind == ContentKind::Zero;
}

ExplanationText weights_explanation()
{
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation", "Each row is the softmax of that row of logits: the weights lie between 0 "
                       "and 1 and add up to 1 per row. Bright cells are the keys this query "
                       "mostly reads."));
}

ExplanationText logit_curve_explanation()
{
    return ExplanationText().add(QT_TRANSLATE_NOOP(
        "Explanation",
        "The y axis is the logit of the last query against a key r positions before it. A flat line "
        "means the method sees no distance here; a falling one, a preference for near keys."));
}

} // namespace posatlas
