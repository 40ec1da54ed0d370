// SPDX-License-Identifier: GPL-3.0-or-later
// Lessons (lessons/lesson.h, lesson_panel.h, window/main_window_lessons.cpp): the file format's reader
// and every message it gives (file, line, what); formulas found and typeset; the built-in course in
// both languages (same steps, same scenarios, every formula typesets, every step rendered offscreen
// with its figure); steps applied, restored and undone; closing returns to the scenario before the
// lesson; presentation mode steps through the lesson.
//
// Screenshots: with POSATLAS_SCREENSHOT_DIR set, everyStepRendersInBothLanguages() also saves the window
// (1600x1000) at every lesson's first step there, with the interface in the lesson's language.
#include "gui_support.h"
#include "jobs/view_jobs.h"
#include "lessons/lesson.h"
#include "lessons/lesson_document.h"
#include "lessons/lesson_panel.h"
#include "lessons/lesson_quotes.h"
#include "math/formula.h"
#include "model/scenario_model.h"
#include "views/heatmap_view.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QUndoStack>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

// A posatlas block without its scenario's example sentence (content.text), as compact JSON.
QString withoutSentence(const QByteArray& block)
{
    QJsonObject o = QJsonDocument::fromJson(block).object();
    QJsonObject scenario = o.value(QStringLiteral("scenario")).toObject();
    QJsonObject content = scenario.value(QStringLiteral("content")).toObject();
    content.remove(QStringLiteral("text"));
    content.remove(QStringLiteral("permuted")); // the sentence's permutation, in the same language
    scenario[QStringLiteral("content")] = content;
    o[QStringLiteral("scenario")] = scenario;
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// A lesson part's prose: its Markdown without formulas, quoted numbers and code spans (blanked out).
QString lessonProse(const QString& part, const QString& path)
{
    QString prose;
    for (const LessonPiece& piece : split_formulas(part, path, 1))
        if (!piece.formula)
            prose += piece.markdown;
    for (const LessonQuote& q : find_lesson_quotes(prose, path, 1))
        prose.replace(q.offset, q.length, QString(q.length, QLatin1Char(' ')));
    static const QRegularExpression code(QStringLiteral("`[^`]*`"));
    return prose.replace(code, QStringLiteral(" "));
}

const char* kGood = R"(# A lesson

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

QString lessonWith(const QString& step)
{
    return QStringLiteral("# L\n\n## S\n\n") + step;
}

QString errorOf(const QString& text, const FormulaChecker& check = {})
{
    try {
        parse_lesson(text, QStringLiteral("x.md"), check);
    } catch (const LessonError& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

int formulaCount(const QString& markdown)
{
    int n = 0;
    for (const LessonPiece& p : split_formulas(markdown, QStringLiteral("t"), 1))
        n += p.formula.has_value();
    return n;
}

} // namespace

class LessonTests : public QObject
{
    Q_OBJECT

private slots:
    void readsSteps();
    void splitsFormulas_data();
    void splitsFormulas();
    void refusesBadLessons_data();
    void refusesBadLessons();
    void namesFormulaErrors();
    void typesetsFormulas();
    void displayFormulasKeepTheTextSize();
    void courseInBothLanguages();
    void readsQuotedNumbers();
    void quotedNumbersAreCheckedAtTheirPrecision();
    void everyQuotedNumberIsTheAppsNumber();
    void noUntiedNumbersInTheCourse();
    void chineseLineBreaksAddNoSpace();
    void chineseCourseUsesTheClassTerms();
    void everyStepRendersInBothLanguages();
    void stepsApplyRestoreAndClose();
    void eachStepChoosesTheFiguresInFront();
    void badLessonFileKeepsState();
    void presentationStepsThroughLesson();
    void startPageOnce();
};

void LessonTests::readsSteps()
{
    const Lesson l = parse_lesson(QString::fromUtf8(kGood), QStringLiteral("good.md"));
    QCOMPARE(l.title, QStringLiteral("A lesson"));
    QCOMPARE(l.summary, QStringLiteral("Its summary, with $x^2$."));
    QCOMPARE(l.steps.size(), std::size_t{2});
    const LessonStep& s = l.steps[0];
    QCOMPARE(s.title, QStringLiteral("First step"));
    QCOMPARE(s.line, 5);
    QVERIFY(s.text.startsWith(QStringLiteral("Text with an inline")));
    QVERIFY(!s.text.contains(QStringLiteral("posatlas"))); // the block is not text
    QCOMPARE(s.tryThis, QStringLiteral("Move **Base**."));
    QCOMPARE(s.question, QStringLiteral("Why $m - n$?"));
    QCOMPARE(s.answer, QStringLiteral("Because."));
    QCOMPARE(s.session.scenario.method, Method::RoPE);
    QCOMPARE(s.session.scenario.seq_len, std::int64_t{64});
    QCOMPARE(s.session.scenario.params<RopeParams>().rope_theta, 500.0);
    QCOMPARE(s.session.current_view, QStringLiteral("curves"));
    // What the block leaves out takes the defaults, not the previous step's values.
    const LessonStep& t = l.steps[1];
    QCOMPARE(t.session.scenario.method, Method::ALiBi);
    QCOMPARE(t.session.scenario.seq_len, Scenario{}.seq_len);
    QCOMPARE(t.session.scenario.params<RopeParams>().rope_theta, RopeParams{}.rope_theta);
    QVERIFY(t.tryThis.isEmpty() && t.question.isEmpty());
    QCOMPARE(t.session.current_view, QString());
}

void LessonTests::splitsFormulas_data()
{
    QTest::addColumn<QString>("markdown");
    QTest::addColumn<int>("formulas");
    QTest::addColumn<QString>("firstLatex");
    QTest::addColumn<bool>("display");
    QTest::addColumn<int>("line");
    QTest::newRow("inline") << "a $x_1$ b $y$" << 2 << "x_1" << false << 1;
    QTest::newRow("display over lines")
        << "a\n\n$$\n\\frac{1}{2}\n$$\nb $z$" << 2 << "\\frac{1}{2}" << true << 3;
    QTest::newRow("escaped dollar") << "costs \\$5 and \\$6" << 0 << "" << false << 0;
    QTest::newRow("code span") << "`$a$` then $b$" << 1 << "b" << false << 1;
    QTest::newRow("fenced code") << "x\n```\n$a$\n```\n\n$c$" << 1 << "c" << false << 6;
    QTest::newRow("display on one line") << "\n\n$$ a^2 $$" << 1 << "a^2" << true << 3;
}

void LessonTests::splitsFormulas()
{
    QFETCH(QString, markdown);
    QFETCH(int, formulas);
    QFETCH(QString, firstLatex);
    QFETCH(bool, display);
    QFETCH(int, line);
    const auto pieces = split_formulas(markdown, QStringLiteral("t"), 1);
    QCOMPARE(formulaCount(markdown), formulas);
    QString text;
    for (const LessonPiece& p : pieces) {
        if (p.formula) {
            QCOMPARE(p.formula->latex, firstLatex);
            QCOMPARE(p.formula->display, display);
            QCOMPARE(p.formula->line, line);
            break;
        }
        text += p.markdown;
    }
    if (!formulas) // nothing lost: the text comes back as written
        QCOMPARE(text, markdown);
}

void LessonTests::refusesBadLessons_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    const QString block = QStringLiteral("```posatlas\n{}\n```\n");
    QTest::newRow("empty") << ""
                           << "x.md:1:"
                           << "empty";
    QTest::newRow("no title") << "## S\n"
                              << "x.md:1:"
                              << "# Title";
    QTest::newRow("no steps") << "# L\n\ntext\n"
                              << "x.md:"
                              << "no steps";
    QTest::newRow("step without block") << "# L\n\n## S\n\ntext\n"
                                        << "x.md:3:"
                                        << "no ```posatlas block";
    QTest::newRow("two blocks") << lessonWith(block + block) << "x.md:8:"
                                << "second ```posatlas";
    QTest::newRow("bad json") << lessonWith("```posatlas\n{\"scenario\":\n {\"method\": }\n}\n```\n")
                              << "x.md:7:"
                              << "not valid JSON";
    QTest::newRow("not an object") << lessonWith("```posatlas\n[1]\n```\n") << "x.md:5:"
                                   << "JSON object";
    QTest::newRow("unknown key") << lessonWith("```posatlas\n{\"scenery\": {}}\n```\n") << "x.md:5:"
                                 << "unknown key \"scenery\"";
    // Wrong keys are errors at every level, as the format's README says, naming the nearest valid one.
    QTest::newRow("nested unknown key")
        << lessonWith("```posatlas\n{\"scenario\": {\"rope\": {\"rope_thta\": 500}}}\n```\n") << "x.md:5:"
        << "unknown key scenario.rope.rope_thta (did you mean rope_theta?)";
    QTest::newRow("unknown view setting")
        << lessonWith("```posatlas\n{\"views\": {\"settings\": {\"matrix_knd\": \"logits\"}}}\n```\n")
        << "x.md:5:"
        << "unknown key views.settings.matrix_knd (did you mean matrix_kind?)";
    QTest::newRow("out of range") << lessonWith("```posatlas\n{\"scenario\": {\"seq_len\": 0}}\n```\n")
                                  << "x.md:5:"
                                  << "seq_len";
    QTest::newRow("unknown method") << lessonWith(
                                           "```posatlas\n{\"scenario\": {\"method\": \"ropey\"}}\n```\n")
                                    << "x.md:5:"
                                    << "ropey";
    QTest::newRow("unknown view") << lessonWith("```posatlas\n{\"views\": {\"current\": \"table\"}}\n```\n")
                                  << "x.md:5:"
                                  << "views.current";
    QTest::newRow("unclosed block") << lessonWith("```posatlas\n{}\n") << "x.md:5:"
                                    << "not closed";
    QTest::newRow("unclosed try") << lessonWith(block + "::: try\nmove\n") << "x.md:8:"
                                  << "::: try";
    QTest::newRow("try across steps") << lessonWith(block + "::: try\nmove\n## T\n" + block) << "x.md:8:"
                                      << "before the next step";
    QTest::newRow("question without answer") << lessonWith(block + "::: question\nwhy?\n:::\n") << "x.md:8:"
                                             << "no answer";
    QTest::newRow("answer alone") << lessonWith(block + "::: answer\nx\n:::\n") << "x.md:8:"
                                  << "must follow";
    QTest::newRow("unknown container") << lessonWith(block + "::: hint\nx\n:::\n") << "x.md:8:"
                                       << "::: hint";
    QTest::newRow("stray close") << lessonWith(block + ":::\n") << "x.md:8:"
                                 << "closes nothing";
    QTest::newRow("second title") << lessonWith(block + "# Again\n") << "x.md:8:"
                                  << "one title";
    QTest::newRow("unclosed formula") << lessonWith("a $x\n" + block) << "x.md:5:"
                                      << "not closed";
    QTest::newRow("unclosed display") << lessonWith("$$ x\n\n" + block) << "x.md:5:"
                                      << "$$";
    QTest::newRow("empty formula") << lessonWith("$$ $$\n" + block) << "x.md:5:"
                                   << "empty formula";
    QTest::newRow("block before steps") << QStringLiteral("# L\n") + block << "x.md:2:"
                                        << "before the first step";
    QTest::newRow("empty step title") << "# L\n\n## \n"
                                      << "x.md:3:"
                                      << "title";
    QTest::newRow("quote without =") << lessonWith(block + "a [[0.5 theta(0)]]\n") << "x.md:8:"
                                     << "\"=\" is missing";
    QTest::newRow("quote not a number") << lessonWith(block + "a [[half = theta(0)]]\n") << "x.md:8:"
                                        << "not a number";
    QTest::newRow("quote unknown function") << lessonWith(block + "\nb [[0.5 = tehta(0)]]\n") << "x.md:9:"
                                            << "unknown function \"tehta\"";
    QTest::newRow("quote not closed") << lessonWith(block + "a [[0.5 = theta(0)\n\nmore\n") << "x.md:8:"
                                      << "not closed";
    QTest::newRow("quote bad patch") << lessonWith(block + "a [[0.5 = theta(0) @ {\"seq_len\": ]]\n")
                                     << "x.md:8:"
                                     << "JSON";
    QTest::newRow("quote in summary")
        << QStringLiteral("# L\n\n[[1 = theta(0)]]\n\n## S\n\n") + block << "x.md:3:"
        << "belongs in a step";
}

void LessonTests::refusesBadLessons()
{
    QFETCH(QString, text);
    QFETCH(QString, where);
    QFETCH(QString, what);
    const QString error = errorOf(text);
    QVERIFY2(error.startsWith(where), qPrintable(error));
    QVERIFY2(error.contains(what), qPrintable(error));
}

void LessonTests::namesFormulaErrors()
{
    const QString text = lessonWith("fine $x$\n\nbroken $\\frac{a}$ here\n\n```posatlas\n{}\n```\n");
    const QString error = errorOf(text, typeset_checker());
    QVERIFY2(error.startsWith(QStringLiteral("x.md:7: formula \\frac{a}")), qPrintable(error));
    QVERIFY(
        errorOf(lessonWith("fine $\\frac{a}{b}$\n\n```posatlas\n{}\n```\n"), typeset_checker()).isEmpty());
}

void LessonTests::typesetsFormulas()
{
    QTextDocument doc;
    LessonTextStyle style;
    style.pointSize = 12;
    set_lesson_markdown(&doc, QStringLiteral("Inline $x^2$ and\n\n$$\\sum_{i=0}^{n} i$$\n\nend \\$1"), style);
    QCOMPARE(lesson_formula_count(&doc), 2);
    // The images are in the text (Qt's Markdown reader drops an image without alternative text).
    int images = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            images += it.fragment().charFormat().isImageFormat();
    QCOMPARE(images, 2);
    QVERIFY(doc.toPlainText().contains(QStringLiteral("Inline")));
    QVERIFY(doc.toPlainText().contains(QStringLiteral("end $1"))); // \$ is a dollar sign
    QVERIFY(!doc.toPlainText().contains(QStringLiteral("x^2")));   // typeset, not shown as source
    // A larger font typesets larger formulas (presentation's font scale reaches them).
    const QImage small =
        doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:1")))
            .value<QImage>();
    style.pointSize = 24;
    set_lesson_markdown(&doc, QStringLiteral("Inline $x^2$ and\n\n$$\\sum_{i=0}^{n} i$$"), style);
    const QImage large =
        doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:1")))
            .value<QImage>();
    QVERIFY(!small.isNull() && !large.isNull());
    QVERIFY2(large.height() > small.height() * 3 / 2,
             qPrintable(QStringLiteral("%1 vs %2").arg(large.height()).arg(small.height())));
}

// A displayed formula wider than the column is broken into lines at its top-level \quad (then commas,
// then relations), each line at the full formula size, never typeset smaller than the text; one without
// a place to break keeps its size and scrolls sideways in the lesson panel. Lesson 2's sinusoidal PE
// formula was shrunk to half size (about 6 px letters) in a narrow panel.
void LessonTests::displayFormulasKeepTheTextSize()
{
    const Lesson sinusoidal = load_lesson(course_lessons(QStringLiteral("en")).value(1), typeset_checker());
    QString latex;
    for (const LessonPiece& p : split_formulas(sinusoidal.steps[0].text, QStringLiteral("t"), 1))
        if (p.formula && p.formula->display && latex.isEmpty())
            latex = p.formula->latex;
    QVERIFY2(latex.contains(QStringLiteral("\\omega_i")), qPrintable(latex));
    LessonTextStyle style;
    style.pointSize = 12;
    style.maxDisplayWidth = 260;
    math::FormulaStyle full;
    full.pointSize = style.pointSize * 1.1; // as set_lesson_markdown typesets
    const math::Formula line = math::Formula::parse(latex, full);
    QVERIFY(line.size().width() > 1.5 * style.maxDisplayWidth); // too wide for the column at full size
    QTextDocument doc;
    set_lesson_markdown(&doc, QStringLiteral("Before\n\n$$\n") + latex + QStringLiteral("\n$$\n\nafter"),
                        style);
    const QImage wrapped =
        doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:0")))
            .value<QImage>();
    QVERIFY(!wrapped.isNull());
    const QSizeF logical = wrapped.deviceIndependentSize();
    // Lines at the full size: at least two lines tall, none wider than the column.
    QVERIFY2(
        logical.height() >= 1.8 * line.size().height(),
        qPrintable(QStringLiteral("%1 px for a %2 px line").arg(logical.height()).arg(line.size().height())));
    QVERIFY2(logical.width() <= style.maxDisplayWidth + 4, qPrintable(QString::number(logical.width())));

    // Nowhere to break: the full size, wider than the column, and the panel scrolls to it.
    const QString unbreakable =
        QStringLiteral("\\frac{q_{1} k_{1} + q_{2} k_{2} + q_{3} k_{3} + q_{4} k_{4} + q_{5} k_{5} "
                       "+ q_{6} k_{6} + q_{7} k_{7} + q_{8} k_{8}}{\\sqrt{d}}");
    const math::Formula one = math::Formula::parse(unbreakable, full);
    set_lesson_markdown(&doc, QStringLiteral("$$\n") + unbreakable + QStringLiteral("\n$$"), style);
    const QImage wide = doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:0")))
                            .value<QImage>();
    QVERIFY(wide.deviceIndependentSize().width() >= one.size().width());
    QVERIFY(wide.deviceIndependentSize().width() > style.maxDisplayWidth);

    const Lesson lesson =
        parse_lesson(QStringLiteral("# L\n\n## S\n\nText.\n\n$$\n") + unbreakable +
                         QStringLiteral("\n$$\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n"),
                     QStringLiteral("x.md"), typeset_checker());
    LessonPanel panel;
    panel.resize(300, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showLesson(&lesson, 0);
    QCoreApplication::processEvents();
    QScrollBar* sideways = panel.textBrowser()->horizontalScrollBar();
    QVERIFY2(sideways->maximum() > 0, "the wide formula scrolls in the panel");
}

void LessonTests::courseInBothLanguages()
{
    const QStringList en = course_lessons(QStringLiteral("en"));
    const QStringList zh = course_lessons(QStringLiteral("zh_CN"));
    QVERIFY2(en.size() >= 11, qPrintable(QString::number(en.size())));
    QCOMPARE(zh.size(), en.size());
    for (int i = 0; i < en.size(); ++i) {
        QCOMPARE(QFileInfo(zh[i]).fileName(), QFileInfo(en[i]).fileName());
        const Lesson a = load_lesson(en[i], typeset_checker()); // throws (and fails) on any error
        const Lesson b = load_lesson(zh[i], typeset_checker());
        QVERIFY2(a.steps.size() >= 2, qPrintable(en[i]));
        QCOMPARE(b.steps.size(), a.steps.size());
        QVERIFY(!a.summary.isEmpty() && !b.summary.isEmpty());
        for (std::size_t s = 0; s < a.steps.size(); ++s) {
            // The same figures in both languages: the blocks are identical, but for the example sentence
            // and its permutation (a Chinese class reads 狗咬人 / 人咬狗 where an English one reads "the dog
            // bit the man" / "the man bit the dog").
            QVERIFY2(withoutSentence(a.steps[s].block) == withoutSentence(b.steps[s].block),
                     qPrintable(QStringLiteral("%1 step %2").arg(zh[i]).arg(s + 1)));
            QVERIFY2(!a.steps[s].text.isEmpty() && !b.steps[s].text.isEmpty(), qPrintable(en[i]));
            QCOMPARE(b.steps[s].tryThis.isEmpty(), a.steps[s].tryThis.isEmpty());
            QCOMPARE(b.steps[s].question.isEmpty(), a.steps[s].question.isEmpty());
            QCOMPARE(formulaCount(b.steps[s].text) > 0, formulaCount(a.steps[s].text) > 0);
        }
        // Lesson 12 opens on the methods side by side (the comparison layout), in both languages.
        if (en[i].contains(QStringLiteral("12-choosing"))) {
            const std::vector<Method> classic{Method::Sinusoidal, Method::RoPE, Method::ALiBi};
            QVERIFY(a.steps[0].session.settings.compare == classic);
        }
        // The Chinese lesson is in Chinese: CJK characters in its title.
        QVERIFY2(std::any_of(b.title.begin(), b.title.end(),
                             [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; }),
                 qPrintable(b.title));
    }
}

void LessonTests::readsQuotedNumbers()
{
    const Lesson lesson =
        parse_lesson(lessonWith(QStringLiteral(
                         "```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n"
                         "Pair 0 turns [[1 = theta(0)]] rad,\nthe last $[[1.15e-4 = theta(63)]]$ rad;\n"
                         "at base 500 [[0.0 = theta(63) @ {\"rope\": {\"rope_theta\": 500}}]].\n"
                         "::: question\nq [[-0.5 = -1/2]]\n::: answer\na [[15.2 = cited]]\n:::\n")),
                     QStringLiteral("x.md"));
    const std::vector<LessonQuote>& q = lesson.steps.at(0).quotes;
    QCOMPARE(q.size(), std::size_t{5});
    QCOMPARE(q[0].printed, QStringLiteral("1"));
    QCOMPARE(q[0].expression, QStringLiteral("theta(0)"));
    QCOMPARE(q[0].line, 8);
    QCOMPARE(q[1].line, 9);
    QCOMPARE(q[2].patch, QStringLiteral("{\"rope\": {\"rope_theta\": 500}}"));
    QCOMPARE(q[2].line, 10);
    QCOMPARE(q[3].line, 12); // in the question
    QVERIFY(q[4].cited());
    // Shown as the printed number: a Unicode minus and "× 10⁻⁴" in text, LaTeX in formulas.
    QCOMPARE(
        show_lesson_quotes(QStringLiteral("a [[-0.5 = -1/2]] b [[1.15e-4 = theta(63)]]"), QuoteForm::Text),
        QStringLiteral("a \u22120.5 b 1.15 × 10\u207B\u2074"));
    QCOMPARE(show_lesson_quotes(QStringLiteral("[[1.15e-4 = theta(63)]]"), QuoteForm::Latex),
             QStringLiteral("1.15 \\times 10^{-4}"));
    QCOMPARE(
        show_lesson_quotes(QStringLiteral("[[0.5 = weights(0, 1) @ {\"content\": {\"text\": \"a b\"}}]]!"),
                           QuoteForm::Text),
        QStringLiteral("0.5!"));
}

void LessonTests::quotedNumbersAreCheckedAtTheirPrecision()
{
    // theta(63) at d = 128, base 10000 is 1.1548e-4; 0.0 at base 500 is 6.0e-6 (rounds to 0.0).
    const Lesson lesson =
        parse_lesson(lessonWith(QStringLiteral("```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n"
                                               "[[1.15e-4 = theta(63)]] [[1.16e-4 = theta(63)]] [[0.0 = "
                                               "theta(63) @ {\"rope\": {\"rope_theta\": 500}}]]\n"
                                               "[[0.5 = theta(0)]] [[1 = slope(0)]] [[9.9 = cited]]\n"
                                               "[[0.0 = theta(63) @ {\"rope\": {\"rope_thta\": 500}}]]\n")),
                     QStringLiteral("x.md"));
    const std::vector<CheckedQuote> c = check_lesson_quotes(lesson);
    QCOMPARE(c.size(), std::size_t{7});
    QVERIFY(c[0].matches);
    QVERIFY(!c[1].matches);
    QCOMPARE(c[1].update, QStringLiteral("1.15e-4"));
    QVERIFY2(c[2].matches, qPrintable(QString::number(c[2].value.value_or(-1))));
    QVERIFY(!c[3].matches);
    QCOMPARE(c[3].update, QStringLiteral("1.0"));
    QVERIFY(!c[4].matches); // slope() on a RoPE step: an error, named
    QVERIFY2(c[4].error.contains(QStringLiteral("ALiBi")), qPrintable(c[4].error));
    QVERIFY(c[5].matches && !c[5].value);
    // A misspelt key in a quote's scenario is an error, not base 10000 in disguise.
    QVERIFY(!c[6].matches);
    QVERIFY2(
        c[6].error.contains(QStringLiteral("unknown key scenario.rope.rope_thta (did you mean rope_theta?)")),
        qPrintable(c[6].error));
}

// Every number the course quotes, in every lesson and both languages, is what the app computes on that
// step's scenario, to the printed precision; the two languages quote as many numbers in each step.
void LessonTests::everyQuotedNumberIsTheAppsNumber()
{
    const QStringList en = course_lessons(QStringLiteral("en"));
    const QStringList zh = course_lessons(QStringLiteral("zh_CN"));
    QCOMPARE(zh.size(), en.size());
    int checked = 0;
    for (int i = 0; i < en.size(); ++i) {
        const Lesson a = load_lesson(en[i]);
        const Lesson b = load_lesson(zh[i]);
        QCOMPARE(b.steps.size(), a.steps.size());
        for (std::size_t s = 0; s < a.steps.size(); ++s)
            QVERIFY2(a.steps[s].quotes.size() == b.steps[s].quotes.size(),
                     qPrintable(QStringLiteral("%1 step %2: %3 quoted numbers in English, %4 in Chinese")
                                    .arg(zh[i])
                                    .arg(s + 1)
                                    .arg(a.steps[s].quotes.size())
                                    .arg(b.steps[s].quotes.size())));
        for (const Lesson* lesson : {&a, &b})
            for (const CheckedQuote& c : check_lesson_quotes(*lesson)) {
                QVERIFY2(
                    c.matches,
                    qPrintable(
                        QStringLiteral("%1:%2: %3 = %4 is %5 (%6)")
                            .arg(lesson->source)
                            .arg(c.quote.line)
                            .arg(c.quote.printed, c.quote.expression)
                            .arg(c.value ? QString::number(*c.value, 'g', 9) : QStringLiteral("not computed"))
                            .arg(c.error.isEmpty() ? QStringLiteral("prints as ") + c.update : c.error)));
                ++checked;
            }
    }
    QVERIFY2(checked >= 150, qPrintable(QString::number(checked)));
}

// A decimal number in a lesson's prose is a quoted number: [[…]] ties it to the app (or marks it cited).
// Not counted: numbers inside formulas and code spans (the formulas' own constants, 0.1 ln s + 1, and
// commands), the values a "try this" prompt tells the reader to set, and model names (Llama 3.1).
void LessonTests::noUntiedNumbersInTheCourse()
{
    static const QRegularExpression decimal(QStringLiteral("(?<![\\w.])(?<!Llama )\\d+\\.\\d+(?![\\w.])"));
    QStringList untied;
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")})
        for (const QString& path : course_lessons(language)) {
            const Lesson lesson = load_lesson(path);
            for (const LessonStep& step : lesson.steps)
                for (const QString& part : {step.text, step.question, step.answer}) {
                    const QString prose = lessonProse(part, path);
                    auto it = decimal.globalMatch(prose);
                    while (it.hasNext()) {
                        const auto m = it.next();
                        untied << QStringLiteral("%1 \"%2\": %3")
                                      .arg(QFileInfo(path).fileName(), step.title, m.captured());
                    }
                }
        }
    QVERIFY2(untied.isEmpty(), qPrintable(untied.join(QLatin1Char('\n'))));
}

void LessonTests::chineseLineBreaksAddNoSpace()
{
    QCOMPARE(join_cjk_line_breaks(QStringLiteral("平移就是\n编码的旋转")),
             QStringLiteral("平移就是编码的旋转"));
    QCOMPARE(join_cjk_line_breaks(QStringLiteral("权重，\n“注意力”")), QStringLiteral("权重，“注意力”"));
    QCOMPARE(join_cjk_line_breaks(QStringLiteral("the dog\nbit")), QStringLiteral("the dog\nbit"));
    QCOMPARE(join_cjk_line_breaks(QStringLiteral("编码\n\n旋转")),
             QStringLiteral("编码\n\n旋转")); // a paragraph
    QCOMPARE(join_cjk_line_breaks(QStringLiteral("编码\nRoPE")), QStringLiteral("编码\nRoPE"));
    // What the lesson panel shows: no space between the two characters.
    QTextDocument document;
    set_lesson_markdown(&document, QStringLiteral("平移就是\n编码的旋转 [[0.5 = 1/2]]"), LessonTextStyle{});
    QCOMPARE(document.toPlainText(), QStringLiteral("平移就是编码的旋转 0.5"));
}

// The Chinese course says what a Chinese class expects (resources/translations/translations.py AVOID has
// the interface's list): 注意力分数 / 注意力权重, 词袋, 频谱; full-width quotes in its prose.
void LessonTests::chineseCourseUsesTheClassTerms()
{
    QStringList found;
    for (const QString& path : course_lessons(QStringLiteral("zh_CN"))) {
        const Lesson lesson = load_lesson(path);
        for (const LessonStep& step : lesson.steps)
            for (const QString& part : {step.text, step.tryThis, step.question, step.answer}) {
                const QString prose = lessonProse(part, path);
                for (const char* word : {"得分", "一袋词", "频率谱", "键词", "按比例弯折"})
                    if (prose.contains(QString::fromUtf8(word)))
                        found << QStringLiteral("%1 \"%2\": %3")
                                     .arg(QFileInfo(path).fileName(), step.title, QString::fromUtf8(word));
                if (prose.contains(QLatin1Char('"')))
                    found << QStringLiteral("%1 \"%2\": ASCII quotes (write “…”)")
                                 .arg(QFileInfo(path).fileName(), step.title);
            }
    }
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
}

void LessonTests::everyStepRendersInBothLanguages()
{
    const QString shots = qEnvironmentVariable("POSATLAS_SCREENSHOT_DIR");
    QTemporaryDir dir;
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(installLanguage(lang));
        MainWindow w(dir.filePath(QStringLiteral("settings-%1.ini").arg(lang)));
        w.resize(1600, 1000);
        w.show();
        w.setComputeHiddenViews(true);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const QString& path : course_lessons(lang)) {
            QVERIFY2(w.openLesson(path), qPrintable(w.statusMessage()));
            const Lesson* lesson = w.currentLesson();
            QVERIFY(lesson);
            for (int s = 0; s < static_cast<int>(lesson->steps.size()); ++s) {
                const QString where = QStringLiteral("%1 step %2").arg(path).arg(s + 1);
                QVERIFY2(w.goToLessonStep(s), qPrintable(where));
                QVERIFY2(waitIdle(w.jobs()), qPrintable(where));
                const LessonStep& step = lesson->steps[static_cast<std::size_t>(s)];
                QVERIFY2(w.model()->scenario() == step.session.scenario, qPrintable(where));
                // Every formula of the step's text and prompts became an image in the panel.
                const int expected =
                    formulaCount(step.text) + formulaCount(step.tryThis) + formulaCount(step.question);
                QCOMPARE(lesson_formula_count(w.lessonPanel()->textBrowser()->document()), expected);
                // The panel and the figure are painted: the panel's text is not empty, the heatmap has ink.
                QVERIFY2(w.lessonPanel()->textBrowser()->document()->toPlainText().contains(step.title),
                         qPrintable(where));
                const QImage heatmap = renderToImage(*w.heatmapView(), {400, 300});
                QVERIFY2(!heatmap.isNull(), qPrintable(where));
                if (!shots.isEmpty() && s == 0)
                    w.grab().save(QDir(shots).filePath(
                        QStringLiteral("lesson-%1-%2.png").arg(lang, QFileInfo(path).completeBaseName())));
                if (step.question.size()) {
                    w.lessonPanel()->answerButton()->click();
                    QVERIFY(w.lessonPanel()->answerShown());
                    QCOMPARE(lesson_formula_count(w.lessonPanel()->textBrowser()->document()),
                             expected + formulaCount(step.answer));
                }
            }
        }
    }
    installLanguage(QStringLiteral("en"));
}

void LessonTests::stepsApplyRestoreAndClose()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("good.md")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kGood);
    file.close();
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    w.show();
    QVERIFY(w.model()->setValue(param("seq_len"), 100));
    const Scenario before = w.model()->scenario();
    QVERIFY(w.openLesson(file.fileName()));
    QVERIFY(w.lessonDock()->isVisible());
    QCOMPARE(w.currentLessonStep(), 0);
    const Scenario step0 = w.currentLesson()->steps[0].session.scenario;
    QCOMPARE(w.model()->scenario(), step0);
    // The live controls work inside a lesson; "Restore this step" and coming back put the step back.
    QVERIFY(w.model()->setValue(param("seq_len"), 80));
    QVERIFY(w.model()->scenario() != step0);
    w.lessonPanel()->restoreButton()->click();
    QCOMPARE(w.model()->scenario(), step0);
    QVERIFY(w.model()->setValue(param("seq_len"), 80));
    w.lessonPanel()->nextButton()->click();
    QCOMPARE(w.currentLessonStep(), 1);
    QCOMPARE(w.model()->scenario().method, Method::ALiBi);
    QCOMPARE(w.lessonPanel()->stepBox()->currentIndex(), 1);
    QVERIFY(!w.lessonPanel()->nextButton()->isEnabled());
    w.lessonPanel()->previousButton()->click();
    QCOMPARE(w.model()->scenario(), step0);
    // Each step is one undo step.
    w.model()->undoStack()->undo();
    QCOMPARE(w.model()->scenario().method, Method::ALiBi);
    // Closing returns to what was on screen before the lesson, and the course page shows.
    w.closeLesson();
    QVERIFY(!w.currentLesson());
    QCOMPARE(w.model()->scenario(), before);
    QVERIFY(w.lessonPanel()->isCoursePageShown());
}

// A step on ALiBi after a RoPE step that showed the spectrum: the spectrum's group shows the curves again
// (the spectrum only says "applies to RoPE" there). Back to the list leaves the lesson.
void LessonTests::eachStepChoosesTheFiguresInFront()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("docks.md")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("# Docks\n\n## RoPE spectrum\n\ntext\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}, "
               "\"views\": "
               "{\"current\": \"spectrum\"}}\n```\n\n## ALiBi heatmap\n\ntext\n\n```posatlas\n{\"scenario\": "
               "{\"method\": \"alibi\"}, \"views\": {\"current\": \"heatmap\"}}\n```\n");
    file.close();
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const Scenario before = w.model()->scenario();
    QVERIFY(w.openLesson(file.fileName()));
    QTest::qWait(50);
    const auto inFront = [&](ViewKind k) {
        return w.dock(k)->isVisible() && !w.dock(k)->widget()->visibleRegion().isEmpty();
    };
    QVERIFY(inFront(ViewKind::Spectrum));
    QVERIFY(inFront(ViewKind::Heatmap));
    QVERIFY(w.goToLessonStep(1));
    QTest::qWait(50);
    QVERIFY(inFront(ViewKind::Heatmap));
    QVERIFY(inFront(ViewKind::Curves));
    QVERIFY(!inFront(ViewKind::Spectrum));
    // The list button: the lesson closes and the figures return to the scenario before it.
    w.lessonPanel()->findChild<QToolButton*>(QStringLiteral("lessonCourseButton"))->click();
    QVERIFY(!w.currentLesson());
    QCOMPARE(w.model()->scenario(), before);
    QVERIFY(w.lessonPanel()->isCoursePageShown());
}

void LessonTests::badLessonFileKeepsState()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.md"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("# Broken\n\n## Step\n\n```posatlas\n{\"scenario\": {\"rope\": {\"rope_theta\": -1}}}\n```\n");
    file.close();
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    const Scenario before = w.model()->scenario();
    QVERIFY(!w.openLesson(path));
    QVERIFY2(w.statusMessage().contains(QStringLiteral("broken.md:5:")), qPrintable(w.statusMessage()));
    QVERIFY2(w.statusMessage().contains(QStringLiteral("rope_theta")), qPrintable(w.statusMessage()));
    QCOMPARE(w.model()->scenario(), before);
    QVERIFY(!w.currentLesson());
    // A missing file and a binary file are messages too.
    QVERIFY(!w.openLesson(dir.filePath(QStringLiteral("missing.md"))));
    QVERIFY(w.statusMessage().contains(QStringLiteral("missing.md")));
    QFile binary(dir.filePath(QStringLiteral("bin.md")));
    QVERIFY(binary.open(QIODevice::WriteOnly));
    binary.write(QByteArray("\xff\xfe\x00\x01# x", 7));
    binary.close();
    QVERIFY(!w.openLesson(binary.fileName()));
    QCOMPARE(w.model()->scenario(), before);
}

void LessonTests::presentationStepsThroughLesson()
{
    QTemporaryDir dir;
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    w.show();
    const QString path = course_lessons(QStringLiteral("en")).value(0);
    QVERIFY(w.openLesson(path));
    w.presentation()->enter();
    QTRY_VERIFY(w.isFullScreen());
    QCOMPARE(w.presentation()->stepSource()->count(), static_cast<int>(w.currentLesson()->steps.size()));
    QCOMPARE(w.presentation()->currentStep(), 0);
    QVERIFY(w.lessonDock()->isVisible()); // the lesson text stays beside the figure
    QTest::keyClick(&w, Qt::Key_PageDown);
    QCOMPARE(w.currentLessonStep(), 1);
    QCOMPARE(w.lessonPanel()->step(), 1);
    QVERIFY(w.presentation()->stepLabel().contains(w.currentLesson()->steps[1].title));
    w.lessonPanel()->previousButton()->click(); // the panel's buttons move the overlay too
    QCOMPARE(w.presentation()->currentStep(), 0);
    w.presentation()->leave();
}

void LessonTests::startPageOnce()
{
    QTemporaryDir dir;
    MainWindow w(dir.filePath(QStringLiteral("settings.ini")));
    QVERIFY(!w.lessonDock()->isVisibleTo(&w)); // a settings file of its own: no start page by itself
    QVERIFY(w.showStartPageOnce());
    QVERIFY(w.lessonDock()->isVisibleTo(&w));
    QVERIFY(w.lessonPanel()->isCoursePageShown());
    QVERIFY(w.lessonPanel()->courseCount() >= 11);
    // The course page typesets its summaries' formulas (no raw $…$ left) and links every lesson.
    const QTextDocument* course = w.lessonPanel()->courseText()->document();
    QVERIFY(lesson_formula_count(course) > 0);
    QVERIFY2(!course->toPlainText().contains(QLatin1Char('$')), qPrintable(course->toPlainText().left(400)));
    QVERIFY(course->toHtml().contains(QStringLiteral("lesson:11")));
    if (const QString shots = qEnvironmentVariable("POSATLAS_SCREENSHOT_DIR"); !shots.isEmpty()) {
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(waitIdle(w.jobs()));
        w.grab().save(QDir(shots).filePath(QStringLiteral("course-page.png")));
    }
    QVERIFY(!w.showStartPageOnce());
    // Choosing a lesson on the course page (its link) opens it.
    emit w.lessonPanel()->courseText()->anchorClicked(QUrl(QStringLiteral("lesson:1")));
    QVERIFY(w.currentLesson());
    QCOMPARE(w.currentLesson()->source, course_lessons(course_language(currentLanguage())).value(1));
}

QTEST_MAIN(LessonTests)
#include "test_lessons.moc"
