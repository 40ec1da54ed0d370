// SPDX-License-Identifier: GPL-3.0-or-later
// Lessons: Markdown files with one ```posatlas block per step (the format is documented in
// resources/lessons/README.md). The built-in course is embedded as :/posatlas/lessons/<language>/*.md;
// a teacher's own lesson is read from disk (File > Open Lesson…).
//
// Reading is strict, like a session file: every problem is a LessonError "<file>:<line>: what is
// wrong", the lesson is never half read, and nothing the file says can make the reader allocate more than
// the file's size (at most kMaxLessonBytes) or run longer than linear time in it.
#pragma once

#include "export/animation_export.h"
#include "io/input_file.h"
#include "model/session.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace posatlas::ui {

inline constexpr qint64 kMaxLessonBytes = qint64{1} << 20;
inline constexpr int kMaxLessonSteps = 200;

class LessonError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// Throws LessonError "<source>:<line>: <what>", the form of every lesson message.
[[noreturn]] void throw_lesson_error(const QString& source, int line, const QString& what);

// A formula as written in a lesson: the LaTeX between the dollars, displayed ($$…$$) or inline ($…$),
// and the 1-based line of the file its opening dollar is on.
struct LessonFormula {
    QString latex;
    bool display = false;
    int line = 0;
};

// A piece of step text: Markdown, or a formula.
struct LessonPiece {
    QString markdown;                     // when !formula
    std::optional<LessonFormula> formula; // a formula
};

// A number the step's text quotes, tied to a computed value (lessons/lesson_quotes.h).
struct LessonQuote {
    QString printed;                  // "0.034", "-1015.5", "3.16e-4", as written
    QString expression;               // "weights(2, 1)", or "cited"
    QString patch;                    // the JSON object after "@" ("" = none)
    int line = 0;                     // of the file
    qsizetype offset = 0, length = 0; // of the whole [[…]] in the text it was found in

    bool cited() const { return expression == QLatin1String("cited"); }
};

// A step's animation: the block's "animate" text, "FIELD=FROM:TO[:log|:linear] [frames=N] [fps=N]"
// (the sweep as `posatlas export --animate` takes it, then the frame count and rate).
struct LessonAnimation {
    QString text; // as written
    SweepSpec sweep;
    int fps = kLessonAnimationFps;
    static constexpr int kLessonAnimationFps = 12;
    static constexpr int kLessonAnimationFrames = 40;
};
// Reads an "animate" text. Throws ParameterError naming "animate", "frames" or "fps".
LessonAnimation parse_lesson_animation(const QString& text);

struct LessonStep {
    QString title;
    int line = 0;             // of the "## " heading
    QString text;             // Markdown with its formulas, as written (without the block, try, question)
    QString tryThis;          // the "::: try" block's Markdown ("" = none)
    QString question, answer; // "::: question" / "::: answer" ("" = none)
    QByteArray block;         // the ```posatlas block's JSON, verbatim
    Session session;          // the block read as a session (defaults for what it leaves out);
                              // its current_view ("": the view in front stays) is brought to the front
    std::vector<LessonQuote> quotes;          // in its text, try, question and answer, in file order
    std::optional<LessonAnimation> animation; // the block's "animate" (none: the step has no animation)
};

// The request of a step's animation: the step's scenario, view settings and colour map, its view
// (`fallback` when the step leaves the view in front), the default animation figure
// (default_animation_figure, export/animation_dialog.h) and its sweep and rate. The step must have one.
AnimationRequest lesson_animation_request(const LessonStep& step, ViewKind fallback);

struct Lesson {
    QString source; // the file name messages use (a path, or ":/posatlas/lessons/en/01-….md")
    QString title;
    QString summary; // Markdown between the title and the first step
    std::vector<LessonStep> steps;
};

// Checks one formula; returns "" when it typesets, else what is wrong ("column 4: unknown command
// \foo"). The reader calls it for every formula of a lesson (LessonError names the line).
using FormulaChecker = std::function<QString(const QString& latex)>;

// Reads a lesson from its text. `source` names it in messages. Throws LessonError.
Lesson parse_lesson(const QString& text, const QString& source, const FormulaChecker& check = {});
// Reads a file or resource (at most kMaxLessonBytes, UTF-8). Throws LessonError (InputFileError's
// messages for unreadable files).
Lesson load_lesson(const QString& path, const FormulaChecker& check = {});

// Splits Markdown into text and formulas: $$…$$ (may span lines) and $…$ (within one line); \$ is a
// literal dollar; nothing inside `code` spans or fenced code blocks is a formula. `firstLine` is the
// file line of the text's first line. Throws LessonError for an unclosed or empty formula.
std::vector<LessonPiece> split_formulas(const QString& markdown, const QString& source, int firstLine);

// The course's lessons in `language` ("en", "zh_CN"), as resource paths in file-name order; English
// when the language has none.
QStringList course_lessons(const QString& language);
// "zh_CN" for Chinese UI languages, else "en".
QString course_language(const QString& uiLanguage);

} // namespace posatlas::ui
