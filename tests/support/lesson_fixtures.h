// SPDX-License-Identifier: GPL-3.0-or-later
// What the lesson suites share: a small lesson with every part of the format, and a count of formulas.
#pragma once

#include "lessons/lesson.h"

#include <QString>

namespace posatlas::test {

// Two steps: a title and summary, inline and display formulas, an escaped dollar, a posatlas block, a
// "try this" prompt, a question with its answer; the second step's block leaves out what takes defaults.
inline constexpr const char* kGood = R"(# A lesson

Its summary, with $x^2$.

## First step

Text with an inline formula $\theta_i = b^{-2i/d}$ and a dollar sign \$5.

$$
\frac{a}{b}
$$

```posatlas
{"scenario": {"method": "rope", "seq_len": 64, "rope": {"rope_theta": 500}},
 "views": {"current": "curves"}}
```

::: try
Move **Base**.
:::

::: question
Why $m - n$?
::: answer
Because.
:::

## Second step

`$not a formula$`

```posatlas
{"scenario": {"method": "alibi"}}
```
)";

// The formulas `markdown` holds, as the lesson reader splits them out.
inline int formulaCount(const QString& markdown)
{
    int n = 0;
    for (const ui::LessonPiece& p : ui::split_formulas(markdown, QStringLiteral("t"), 1))
        n += p.formula.has_value();
    return n;
}

} // namespace posatlas::test
