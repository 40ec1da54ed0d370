// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson file format (lessons/lesson.h, lesson_document.h, lesson_quotes.h): the reader's steps and
// every message it gives (file, line, what); formulas found and typeset, displayed ones at the text's size;
// quoted numbers read, shown and checked at their precision; Chinese line breaks.
#include "lesson_fixtures.h"
#include "lessons/lesson.h"
#include "lessons/lesson_document.h"
#include "lessons/lesson_panel.h"
#include "lessons/lesson_quotes.h"
#include "lessons/step_box.h"
#include "math/formula.h"

#include <QPushButton>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextLayout>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

namespace {

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

} // namespace

class LessonFormatTest : public QObject
{
    Q_OBJECT

private slots:
    void readsSteps();
    void readsAnimation();
    void splitsFormulas_data();
    void splitsFormulas();
    void refusesBadLessons_data();
    void refusesBadLessons();
    void namesFormulaErrors();
    void typesetsFormulas();
    void showsTheLabsFiguresAtTheColumnsWidth();
    void displayFormulasKeepTheTextSize();
    void readsQuotedNumbers();
    void quotedNumbersAreCheckedAtTheirPrecision();
    void chineseLineBreaksAddNoSpace();
    void linesKeepNumbersAndClosingPunctuation();
    void stepTitleWrapsInANarrowPanel();
};

void LessonFormatTest::readsSteps()
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

void LessonFormatTest::readsAnimation()
{
    const Lesson l = parse_lesson(
        lessonWith(QStringLiteral(
            "```posatlas\n{\"scenario\": {\"method\": \"rope\"}, \"views\": {\"current\": "
            "\"spectrum\"},\n \"animate\": \"rope_theta=10000:500000:log frames=40 fps=8\"}\n```\n\n"
            "## Still\n\n```posatlas\n{}\n```\n")),
        QStringLiteral("x.md"));
    QCOMPARE(l.steps.size(), std::size_t{2});
    const LessonStep& s = l.steps[0];
    QVERIFY(s.animation);
    QCOMPARE(s.animation->sweep.field, std::string("rope_theta"));
    QCOMPARE(s.animation->sweep.from, 10000.0);
    QCOMPARE(s.animation->sweep.to, 500000.0);
    QVERIFY(s.animation->sweep.log);
    QCOMPARE(s.animation->sweep.frames, 40);
    QCOMPARE(s.animation->fps, 8);
    QVERIFY(!l.steps[1].animation); // optional
    // The request the panel plays and the dialog is filled with: the step's view, scenario and sweep.
    const AnimationRequest r = lesson_animation_request(s, ViewKind::Heatmap);
    QCOMPARE(r.view, ViewKind::Spectrum);
    QCOMPARE(r.scenario, s.session.scenario);
    QCOMPARE(r.sweep.field, std::string("rope_theta"));
    QCOMPARE(r.fps, 8);
    // Defaults: 40 frames at 12 fps; the panel offers Play and Export only for an animated step.
    const LessonAnimation plain = parse_lesson_animation(QStringLiteral("factor=1:8"));
    QCOMPARE(plain.sweep.frames, LessonAnimation::kLessonAnimationFrames);
    QCOMPARE(plain.fps, LessonAnimation::kLessonAnimationFps);
    QVERIFY(!plain.sweep.log);
    LessonPanel panel;
    panel.showLesson(&l, 0);
    QVERIFY(!panel.playAnimationButton()->isHidden());
    QVERIFY(!panel.exportAnimationButton()->isHidden());
    panel.setStep(1);
    QVERIFY(panel.playAnimationButton()->isHidden());
    QVERIFY(panel.exportAnimationButton()->isHidden());
}

void LessonFormatTest::splitsFormulas_data()
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

void LessonFormatTest::splitsFormulas()
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

void LessonFormatTest::refusesBadLessons_data()
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
    // A lab figure that the shipped results do not have (line 7: the text after the block).
    QTest::newRow("missing lab figure")
        << lessonWith(block + "\nSee ![the sweep](lab-runs:copy/nothing.png).\n") << "x.md:9:"
        << "figure lab-runs:copy/nothing.png: not a sweep";
    QTest::newRow("lab figure outside the results")
        << lessonWith(block + "\n![x](lab-runs:../../README.md)\n") << "x.md:9:"
        << "figure lab-runs:../../README.md: not a sweep";
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
    const auto animated = [](const char* animate) {
        return lessonWith(
            QStringLiteral(
                "```posatlas\n{\"scenario\": {\"method\": \"rope\"},\n \"animate\": \"%1\"}\n```\n")
                .arg(QLatin1String(animate)));
    };
    QTest::newRow("animate: log through 0") << animated("rope_theta=0:500000:log") << "x.md:5:"
                                            << "rope_theta";
    QTest::newRow("animate: unknown field") << animated("rope_thetta=1:2") << "x.md:5:"
                                            << "rope_thetta";
    QTest::newRow("animate: form") << animated("rope_theta 1 2") << "x.md:5:"
                                   << "animate";
    QTest::newRow("animate: frames") << animated("rope_theta=10:20 frames=0") << "x.md:5:"
                                     << "frames";
    QTest::newRow("animate: fps") << animated("rope_theta=10:20 fps=500") << "x.md:5:"
                                  << "fps";
    QTest::newRow("animate: not text")
        << lessonWith(QStringLiteral("```posatlas\n{\"animate\": 3}\n```\n")) << "x.md:5:"
        << "animate";
    QTest::newRow("quote in summary")
        << QStringLiteral("# L\n\n[[1 = theta(0)]]\n\n## S\n\n") + block << "x.md:3:"
        << "belongs in a step";
}

void LessonFormatTest::refusesBadLessons()
{
    QFETCH(QString, text);
    QFETCH(QString, where);
    QFETCH(QString, what);
    const QString error = errorOf(text);
    QVERIFY2(error.startsWith(where), qPrintable(error));
    QVERIFY2(error.contains(what), qPrintable(error));
}

void LessonFormatTest::namesFormulaErrors()
{
    const QString text = lessonWith("fine $x$\n\nbroken $\\frac{a}$ here\n\n```posatlas\n{}\n```\n");
    const QString error = errorOf(text, typeset_checker());
    QVERIFY2(error.startsWith(QStringLiteral("x.md:7: formula \\frac{a}")), qPrintable(error));
    QVERIFY(
        errorOf(lessonWith("fine $\\frac{a}{b}$\n\n```posatlas\n{}\n```\n"), typeset_checker()).isEmpty());
}

// A lab figure (the shipped sweep's, embedded in the program) is an image of the text, scaled to the
// column it is given and keeping its proportions.
void LessonFormatTest::showsTheLabsFiguresAtTheColumnsWidth()
{
    const QImage sweep = lab_figure_image(QStringLiteral("lab-runs:copy/sweep.png"), 400, 2);
    QCOMPARE(sweep.size(), QSize(800, 800)); // 400 x 400 logical (a narrow column), twice the pixels
    QCOMPARE(lab_figure_image(QStringLiteral("lab-runs:copy/sweep.png"), 600, 1).size(), QSize(600, 400));
    QVERIFY(lab_figure_image(QStringLiteral("lab-runs:copy/sweep.json")).isNull()); // a sweep's figure only
    QVERIFY(lab_figure_image(QStringLiteral("lab-runs:nothing/sweep.png")).isNull());
    QTextDocument doc;
    LessonTextStyle style;
    style.maxDisplayWidth = 400;
    set_lesson_markdown(&doc, QStringLiteral("Text\n\n![the sweep](lab-runs:copy/sweep.png)\n"), style);
    int figures = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            if (!f.isImageFormat() || f.toImageFormat().name() != QLatin1String("lab-runs:copy/sweep.png"))
                continue;
            ++figures;
            QCOMPARE(f.toImageFormat().width(), 400.0);
            QCOMPARE(f.toImageFormat().height(), 400.0);
            QCOMPARE(b.blockFormat().alignment() & Qt::AlignHorizontal_Mask, Qt::AlignHCenter);
        }
    QCOMPARE(figures, 1);
    const QImage shown =
        doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("lab-runs:copy/sweep.png")))
            .value<QImage>();
    QCOMPARE(shown.deviceIndependentSize(), QSizeF(400, 400));
}

void LessonFormatTest::typesetsFormulas()
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
// a place to break is scaled down to the column. Lesson 2's sinusoidal PE
// formula was shrunk to half size (about 6 px letters) in a narrow panel.
void LessonFormatTest::displayFormulasKeepTheTextSize()
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

    // Transformer-XL's four terms (lesson 5): broken before a + at the full size, not scaled down.
    const Lesson xl = load_lesson(course_lessons(QStringLiteral("en")).value(4), typeset_checker());
    QString terms;
    for (const LessonPiece& p : split_formulas(xl.steps[0].text, QStringLiteral("t"), 1))
        if (p.formula && p.formula->display && terms.isEmpty())
            terms = p.formula->latex;
    const math::Formula termsLine = math::Formula::parse(terms, full);
    QVERIFY2(termsLine.size().width() > style.maxDisplayWidth, qPrintable(terms));
    set_lesson_markdown(&doc, QStringLiteral("$$\n") + terms + QStringLiteral("\n$$"), style);
    const QSizeF termsImage =
        doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:0")))
            .value<QImage>()
            .deviceIndependentSize();
    QVERIFY2(termsImage.width() <= style.maxDisplayWidth + 4,
             qPrintable(QString::number(termsImage.width())));
    QVERIFY2(termsImage.height() >= 1.8 * termsLine.size().height(),
             qPrintable(QStringLiteral("%1 px for a %2 px line")
                            .arg(termsImage.height())
                            .arg(termsLine.size().height())));

    // Nowhere to break: scaled down to the column (lesson 5's four terms were cut off at the panel's right
    // edge behind a scroll bar), and the panel does not scroll sideways.
    const QString unbreakable =
        QStringLiteral("\\frac{q_{1} k_{1} + q_{2} k_{2} + q_{3} k_{3} + q_{4} k_{4} + q_{5} k_{5} "
                       "+ q_{6} k_{6} + q_{7} k_{7} + q_{8} k_{8}}{\\sqrt{d}}");
    const math::Formula one = math::Formula::parse(unbreakable, full);
    set_lesson_markdown(&doc, QStringLiteral("$$\n") + unbreakable + QStringLiteral("\n$$"), style);
    const QImage wide = doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:0")))
                            .value<QImage>();
    QVERIFY(one.size().width() > style.maxDisplayWidth);
    QVERIFY2(wide.deviceIndependentSize().width() <= style.maxDisplayWidth + 4,
             qPrintable(QString::number(wide.deviceIndependentSize().width())));

    // The same written inline ("the logit is $…$."): too wide for any line of the column, it takes a
    // centred line of its own, scaled to the column with its glued full stop (lesson 14's MLA logit ran
    // off the presented panel's right edge).
    set_lesson_markdown(&doc, QStringLiteral("The logit is $") + unbreakable + QStringLiteral("$. Next."),
                        style);
    const QImage inlineWide =
        doc.resource(QTextDocument::ImageResource, QUrl(QStringLiteral("posatlas-formula:0")))
            .value<QImage>();
    QVERIFY2(!inlineWide.isNull() && inlineWide.deviceIndependentSize().width() <= style.maxDisplayWidth + 4,
             qPrintable(QString::number(inlineWide.deviceIndependentSize().width())));
    int ownLines = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat()) {
                ++ownLines;
                QCOMPARE(b.text().trimmed().size(), 1); // the image alone in its block
                QCOMPARE(b.blockFormat().alignment() & Qt::AlignHorizontal_Mask, Qt::AlignHCenter);
            }
    QCOMPARE(ownLines, 1);
    QVERIFY(doc.toPlainText().contains(QStringLiteral("Next.")));
    // An inline formula that fits stays in its line.
    set_lesson_markdown(&doc, QStringLiteral("The logit is $q_1 k_1$. Next."), style);
    QCOMPARE(doc.blockCount(), 1);

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
    QVERIFY2(sideways->maximum() == 0, "the wide formula fits the panel");
}

void LessonFormatTest::readsQuotedNumbers()
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

void LessonFormatTest::quotedNumbersAreCheckedAtTheirPrecision()
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

void LessonFormatTest::chineseLineBreaksAddNoSpace()
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
    // (The number glued by word joiners, U+2060: drawn as nothing, no line break inside it.)
    QCOMPARE(document.toPlainText().remove(QChar(0x2060)), QStringLiteral("平移就是编码的旋转 0.5"));
}

// Chinese text laid out at every column width: no line starts inside a number ("0." / "354" in lesson
// 10) nor with closing punctuation after an inline formula ("：" after $a^K_{ij}$ in lesson 4, "，" in 7).
void LessonFormatTest::linesKeepNumbersAndClosingPunctuation()
{
    QTextDocument document;
    LessonTextStyle style;
    style.pointSize = 14;
    set_lesson_markdown(&document,
                        QStringLiteral("从查询 $i$ 看，词 $j$ 的键加上一个可学习向量 $a^K_{ij}$：斜率依次减半"
                                       "（[[0.707 = 0.707]]、[[0.354 = 0.354]]、0.177 与 2.5e-05）；"
                                       "距离 $k$，以及 $\\theta_i$。再看 $r$：它"),
                        style);
    const QString closing = QStringLiteral("，。：；、）");
    int lines = 0;
    for (int width = 120; width <= 700; width += 3) { // from eight characters a line
        document.setTextWidth(width);
        (void)document.size(); // lays the document out
        for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
            const QString text = block.text();
            QTextLayout* layout = block.layout();
            for (int l = 1; l < layout->lineCount(); ++l) {
                ++lines;
                const int at = layout->lineAt(l).textStart();
                if (at <= 0 || at >= text.size())
                    continue;
                // The break is between text[at - 1] and text[at], word joiners aside.
                int before = at - 1;
                while (before > 0 && text[before] == QChar(0x2060))
                    --before;
                int after = at;
                while (after + 1 < text.size() && text[after] == QChar(0x2060))
                    ++after;
                const QString where = QStringLiteral("width %1: \"%2\" / \"%3\"")
                                          .arg(width)
                                          .arg(text.left(at).right(6), text.mid(at, 6));
                QVERIFY2(!closing.contains(text[after]), qPrintable(where));
                const bool inNumber = (text[before].isDigit() || text[before] == QLatin1Char('.')) &&
                                      (text[after].isDigit() || text[after] == QLatin1Char('.'));
                QVERIFY2(!inNumber, qPrintable(where));
            }
        }
    }
    QVERIFY(lines > 100); // the text did wrap, at many places
}

// The step chooser in a 1280x720 window's lesson dock cut its title ("1 / 4 · Attention sees a bag of
// wor"): the closed box shows it whole, on as many lines as it needs, and is as tall as they are.
void LessonFormatTest::stepTitleWrapsInANarrowPanel()
{
    const Lesson lesson =
        parse_lesson(QStringLiteral("# L\n\n## Attention sees a bag of words, whatever the order\n\nText.\n\n"
                                    "```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n"),
                     QStringLiteral("x.md"), typeset_checker());
    LessonPanel panel;
    panel.resize(290, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    // As the window does: a short step first, then the long one at the same width (no resize between).
    const Lesson shortStep = parse_lesson(
        QStringLiteral("# L\n\n## S\n\nText.\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n"),
        QStringLiteral("s.md"), typeset_checker());
    panel.showLesson(&shortStep, 0);
    QCoreApplication::processEvents();
    panel.showLesson(&lesson, 0);
    QCoreApplication::processEvents();
    auto* box = qobject_cast<StepBox*>(panel.stepBox());
    QVERIFY(box);
    const QStringList lines = box->shownLines();
    QVERIFY2(lines.size() >= 2, qPrintable(lines.join(QLatin1Char('|'))));
    QCOMPARE(lines.join(QLatin1Char(' ')), box->currentText());
    for (const QString& line : lines)
        QVERIFY2(box->fontMetrics().horizontalAdvance(line) <= box->width(), qPrintable(line));
    QVERIFY2(box->height() >= static_cast<int>(lines.size()) * box->fontMetrics().height(),
             qPrintable(QString::number(box->height())));
}

QTEST_MAIN(LessonFormatTest)
#include "test_lesson_format.moc"
