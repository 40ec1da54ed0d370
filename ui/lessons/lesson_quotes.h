// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers a lesson quotes, tied to what the app computes (resources/lessons/README.md, "Quoted numbers").
// A lesson writes
//     the weight on dog is [[0.034 = weights(2, 1)]]
//     in the other sentence [[0.008 = weights(2, 1) @ {"content": {"text": "the man bit the dog"}}]]
// and shows "0.034" and "0.008". The expression (analysis/quoted_value.h) is evaluated on the step's own
// scenario, with the JSON object after "@" merged into the block's "scenario" first; `posatlas lesson
// check` and the course test fail when the printed number and the computed value differ by more than
// the printed precision. [[15.2 = cited]] marks a number taken from a source, not computed (a seed
// article's table): shown as written, never checked.
#pragma once

#include "lessons/lesson.h"

#include <QImage>
#include <QString>

#include <optional>
#include <vector>

namespace posatlas::ui {

// The quotes of a piece of lesson text whose first line is file line `firstLine`. Checks each one's
// form (a printed number, a known expression, a JSON object after "@"); throws LessonError
// "<source>:<line>: …" for a malformed one.
std::vector<LessonQuote> find_lesson_quotes(const QString& text, const QString& source, int firstLine);

enum class QuoteForm {
    Text,  // Markdown text: U+2212 minus, "3.16 × 10⁻⁴"
    Latex, // inside a formula: "3.16 \times 10^{-4}"
};
// `text` with every quote replaced by its printed number.
QString show_lesson_quotes(const QString& text, QuoteForm form);

// A soft line break (one newline inside a paragraph) between two CJK characters is removed: Markdown
// turns it into a space, which Chinese text does not have ("平移就是 编码的旋转").
QString join_cjk_line_breaks(const QString& markdown);

// The scenario a quote is computed on: the step's block with the quote's patch merged into its
// "scenario" (RFC 7386 merge patch), read as a session is. Throws LessonError for a patch that makes
// the scenario invalid.
Scenario quote_scenario(const LessonStep& step, const LessonQuote& quote, const QString& source);

// A quote checked against the app.
struct CheckedQuote {
    LessonQuote quote;
    int step = 0;                // 0-based
    std::optional<double> value; // computed (nullopt for a cited number or an error)
    QString error;               // why it could not be computed ("" = none)
    bool matches = false;        // the printed number is the value at its printed precision (cited: true)
    QString update;              // the value printed like the quote (what `lesson check --update` writes)
};
// Every quote of every step (text, try, question, answer), in file order.
// The lab's figures a lesson shows: a Markdown image whose address is "lab-runs:" and a sweep's figure
// under the shipped results, found where the quoted lab numbers are (analysis/lab_results.h):
// ![Answer accuracy against length](lab-runs:copy/sweep.png). Drawn from that sweep's table
// (sweep.json, as `posatlas lab sweep` draws sweep.png) at `width` logical pixels (as high below 480,
// two thirds as high from 480)
// and `dpr` device pixels each, so that its text stays legible in a narrow column. Null when the address
// names no sweep or its table cannot be read.
inline constexpr auto kLabFigureScheme = "lab-runs:";
QImage lab_figure_image(const QString& address, qreal width = 480, qreal dpr = 1);
// Whether the address names a sweep whose table reads (what lesson reading checks; no painting, so that
// `posatlas lesson check` needs no GUI).
bool lab_figure_available(const QString& address);

std::vector<CheckedQuote> check_lesson_quotes(const Lesson& lesson);

} // namespace posatlas::ui
