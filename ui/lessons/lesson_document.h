// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson's Markdown in a QTextDocument, its formulas typeset by ui/math (formula.h) as images at the
// document's font size and the screen's device pixel ratio: displayed formulas centred on their own
// line, inline formulas on the text's baseline. Re-made whenever the font (presentation's font scale),
// the palette or the text changes, so formulas are as sharp and as large as the text around them.
#pragma once

#include "lessons/lesson.h"

#include <QColor>
#include <QString>

class QTextDocument;

namespace posatlas::ui {

struct LessonTextStyle {
    qreal pointSize = 11; // of the body text; formulas are typeset 10 % larger, as LaTeX's math looks
    QColor color = Qt::black;
    qreal devicePixelRatio = 1;
    // Displayed formulas wider than this (logical px) are broken into lines at their top-level \quad,
    // commas or relations, each line at the full size (a projector's narrow column must not cut an
    // equation off, nor shrink it below the text); a part that still does not fit is scaled down to the
    // width (never cut off behind a scroll bar). 0 = no limit.
    qreal maxDisplayWidth = 0;
};

// Replaces the document's content. Formulas that do not typeset (a lesson is checked when it is read,
// so only a bug gets here) are shown as their LaTeX source in monospace, never dropped.
void set_lesson_markdown(QTextDocument* document, const QString& markdown, const LessonTextStyle& style);

// The lesson reader's formula check: the typesetter's own parser (so a lesson that reads, typesets).
FormulaChecker typeset_checker();

// The number of formula images the last set_lesson_markdown() placed in `document`'s text (tests).
int lesson_formula_count(const QTextDocument* document);

} // namespace posatlas::ui
