// SPDX-License-Identifier: GPL-3.0-or-later
// QtTest for the formula typesetter (ui/math/formula.h): layout properties that follow from the
// TeXbook's appendix G rules (fractions stack about the axis, scripts are raised/lowered and smaller,
// display limits go above/below, delimiters grow with their content, matrices have rows and columns),
// code points of the symbol commands, errors with their columns for bad and hostile input, raster and
// SVG output; the course's formulas each render with ink, alone and together on one sheet.
#include "math/formula.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QPainter>
#include <QSvgGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace posatlas::ui::math;

namespace {

std::vector<FormulaItem> glyphsOf(const Formula& f, const QString& text)
{
    std::vector<FormulaItem> out;
    for (const FormulaItem& it : f.items())
        if (it.kind == FormulaItem::Kind::Glyphs && it.text == text)
            out.push_back(it);
    return out;
}

FormulaItem onlyGlyph(const Formula& f, const QString& text)
{
    const auto all = glyphsOf(f, text);
    if (all.size() != 1)
        qFatal("expected exactly one glyph run '%s', found %d", qPrintable(text), int(all.size()));
    return all.front();
}

std::vector<FormulaItem> pathsOf(const Formula& f, const QString& what)
{
    std::vector<FormulaItem> out;
    for (const FormulaItem& it : f.items())
        if (it.kind == FormulaItem::Kind::Path && it.text == what)
            out.push_back(it);
    return out;
}

Formula valid(const QString& latex, bool display = true, qreal pt = 14)
{
    FormulaStyle style;
    style.display = display;
    style.pointSize = pt;
    Formula f = Formula::parse(latex, style);
    if (!f.isValid())
        qFatal("'%s' did not parse: %s", qPrintable(latex), qPrintable(f.error()));
    return f;
}

int inkPixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += qAlpha(image.pixel(x, y)) > 64 ? 1 : 0;
    return n;
}

// The course's formulas (PE lessons): sinusoidal PE, RoPE, YaRN's ramp, ALiBi, attention.
const QStringList kCourse = {
    QStringLiteral("PE_{(pos,2i)} = \\sin\\left(\\frac{pos}{10000^{2i/d}}\\right)"),
    QStringLiteral("R_{\\Theta,m} = \\begin{pmatrix} \\cos m\\theta_i & -\\sin m\\theta_i \\\\ \\sin "
                   "m\\theta_i & \\cos m\\theta_i \\end{pmatrix}"),
    QStringLiteral("(R_m q)^\\top (R_n k) = q^\\top R_{n-m} k"),
    QStringLiteral("\\gamma(r) = \\begin{cases} 0, & r < \\alpha \\\\ 1, & r > \\beta \\\\ "
                   "\\frac{r-\\alpha}{\\beta-\\alpha}, & \\text{otherwise} \\end{cases}"),
    QStringLiteral("m_h = 2^{-8h/H}, \\quad h = 1, \\ldots, H"),
    QStringLiteral("\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d}} + B\\right) V"),
    QStringLiteral("\\theta_i = b^{-2i/d}, \\quad i = 0, 1, \\ldots, \\frac{d}{2} - 1"),
    QStringLiteral("\\sum_{i=0}^{d/2-1} \\left\\| \\hat{q}_i \\right\\| \\cdot \\tilde{k}_i \\le "
                   "\\sqrt[3]{x^2 + y_j^2} \\text{（位置编码）}"),
    QStringLiteral("\\lambda_i = \\frac{2\\pi}{\\theta_i}, \\quad r(i) = \\frac{L}{\\lambda_i}, \\quad "
                   "\\sqrt{\\frac{1}{t}} = 0.1 \\ln s + 1"),
    // Lesson 8, step 1: primes on q and the rotation matrix in tall parentheses.
    QStringLiteral("\\begin{pmatrix} q'_{2i} \\\\ q'_{2i+1} \\end{pmatrix} = \\begin{pmatrix} \\cos "
                   "m\\theta_i & -\\sin m\\theta_i \\\\ \\sin m\\theta_i & \\cos m\\theta_i \\end{pmatrix} "
                   "\\begin{pmatrix} q_{2i} \\\\ q_{2i+1} \\end{pmatrix}"),
};

} // namespace

class FormulaTest : public QObject
{
    Q_OBJECT
private slots:
    void fractionStacksNumeratorOverDenominator()
    {
        const Formula a = valid("a");
        const Formula f = valid("\\frac{a}{b}");
        QVERIFY(f.size().height() > a.size().height() * 1.5);
        const FormulaItem num = onlyGlyph(f, "a"), den = onlyGlyph(f, "b");
        QVERIFY2(num.box.bottom() < den.box.top(), "numerator above the denominator");
        // The bar lies between them, across the wider of the two.
        const auto rules = std::count_if(f.items().begin(), f.items().end(), [](const FormulaItem& it) {
            return it.kind == FormulaItem::Kind::Rule;
        });
        QCOMPARE(rules, 1);
        const FormulaItem bar = *std::find_if(f.items().begin(), f.items().end(), [](const FormulaItem& it) {
            return it.kind == FormulaItem::Kind::Rule;
        });
        QVERIFY(bar.box.top() > num.box.bottom() && bar.box.bottom() < den.box.top());
        QVERIFY(bar.box.width() >= std::max(num.box.width(), den.box.width()));
        // The bar is on the math axis: about a quarter em above the baseline (0.15 .. 0.35 em).
        const qreal em = 14 * 96.0 / 72.0;
        const qreal axis = f.baseline() - bar.box.center().y();
        QVERIFY2(axis > 0.15 * em && axis < 0.35 * em, qPrintable(QString::number(axis / em)));
        // Display fractions keep letters at full size; inline ones use script size (70 %).
        QCOMPARE(num.sizePx, em);
        QCOMPARE(onlyGlyph(valid("\\frac{a}{b}", false), "a").sizePx, 0.7 * em);
        QCOMPARE(onlyGlyph(valid("\\dfrac{a}{b}", false), "a").sizePx, em);
    }

    void superscriptIsRaisedAndSmaller()
    {
        const Formula f = valid("x^2");
        const FormulaItem x = onlyGlyph(f, "x"), two = onlyGlyph(f, "2");
        QVERIFY(two.sizePx < x.sizePx);
        QCOMPARE(two.sizePx, x.sizePx * 0.7);
        QVERIFY2(two.baseline < x.baseline - 0.3 * x.sizePx,
                 "superscript raised by at least sup2 = 0.363 em");
        QVERIFY(two.box.left() >= x.box.right() - 0.01);
        QVERIFY(x.italic);
        QVERIFY(!two.italic);
        // Second-level scripts are at 50 %.
        const Formula g = valid("e^{x^2}");
        QCOMPARE(onlyGlyph(g, "2").sizePx, x.sizePx * 0.5);
    }

    void subAndSuperscriptStack()
    {
        const Formula f = valid("x_i^2");
        const FormulaItem x = onlyGlyph(f, "x"), i = onlyGlyph(f, "i"), two = onlyGlyph(f, "2");
        QVERIFY(two.baseline < x.baseline);
        QVERIFY(i.baseline > x.baseline);
        // Both start right of the base, one above the other, not overlapping (4 rule thicknesses apart).
        QVERIFY(std::abs(i.box.left() - x.box.right()) < 0.15 * x.sizePx);
        QVERIFY(two.box.left() >= i.box.left());
        QVERIFY(two.box.bottom() < i.box.top());
        // The stack is narrower than the scripts side by side.
        QVERIFY(f.size().width() < valid("x_i{}^2").size().width());
    }

    void displayLimitsAboveAndBelow()
    {
        const QString sum = "\\sum_{i=0}^{n} x_i";
        const Formula display = valid(sum, true), inl = valid(sum, false);
        QVERIFY(display.size().height() > inl.size().height() * 1.3);
        const FormulaItem sigma = onlyGlyph(display, QString(QChar(0x2211)));
        const FormulaItem n = onlyGlyph(display, "n"), zero = onlyGlyph(display, "0");
        QVERIFY2(n.box.bottom() < sigma.box.top(), "upper limit above the sign");
        QVERIFY2(zero.box.top() > sigma.box.bottom(), "lower limit below the sign");
        QVERIFY(std::abs(n.box.center().x() - sigma.box.center().x()) < 0.1 * sigma.sizePx);
        // Inline: limits beside, right of the sign.
        const FormulaItem sigmaInl = onlyGlyph(inl, QString(QChar(0x2211)));
        QVERIFY(onlyGlyph(inl, "n").box.left() >= sigmaInl.box.right() - 0.01);
        QVERIFY(onlyGlyph(inl, "0").box.left() >= sigmaInl.box.right() - 0.01);
        QVERIFY(sigma.sizePx > sigmaInl.sizePx);
        // \int keeps its scripts beside even in display style; \limits forces them above.
        const Formula integral = valid("\\int_0^1 f");
        const FormulaItem intSign = onlyGlyph(integral, QString(QChar(0x222B)));
        QVERIFY(onlyGlyph(integral, "1").box.left() > intSign.box.left() + intSign.box.width() / 2);
        const Formula forced = valid("\\int\\limits_0^1 f");
        QVERIFY(onlyGlyph(forced, "1").box.bottom() < onlyGlyph(forced, QString(QChar(0x222B))).box.top());
        // \max takes limits in display style, \operatorname{softmax} does not; \operatorname* does.
        const Formula mx = valid("\\max_{j} s_j");
        const auto js = glyphsOf(mx, "j");
        QCOMPARE(js.size(), size_t(2));
        QVERIFY(js[0].box.top() > onlyGlyph(mx, "max").box.bottom());
        const Formula sm = valid("\\operatorname{softmax}_j");
        QVERIFY(onlyGlyph(sm, "j").box.left() >= onlyGlyph(sm, "softmax").box.right() - 0.01);
        QVERIFY(!onlyGlyph(sm, "softmax").italic);
        const Formula am = valid("\\operatorname*{argmax}_j", true);
        QVERIFY(onlyGlyph(am, "j").box.top() > onlyGlyph(am, "argmax").box.bottom());
    }

    void sqrtCoversItsBody()
    {
        const Formula x = valid("x"), r = valid("\\sqrt{x}");
        QVERIFY(r.size().width() > x.size().width() + 0.4 * 14);
        const auto sign = pathsOf(r, "sqrt");
        QCOMPARE(sign.size(), size_t(1));
        const FormulaItem body = onlyGlyph(r, "x");
        QVERIFY2(sign[0].box.top() < body.box.top(), "the overline is above the body");
        QVERIFY(sign[0].box.right() >= body.box.right());
        QVERIFY(sign[0].box.left() < body.box.left());
        // A taller body gets a taller sign.
        const auto tall = pathsOf(valid("\\sqrt{\\frac{a}{b}}"), "sqrt");
        QVERIFY(tall[0].box.height() > sign[0].box.height() * 1.5);
        // The index sits small, up and left.
        const Formula cube = valid("\\sqrt[3]{x}");
        const FormulaItem three = onlyGlyph(cube, "3");
        QVERIFY(three.sizePx < onlyGlyph(cube, "x").sizePx * 0.6);
        QVERIFY(three.baseline < onlyGlyph(cube, "x").baseline);
    }

    void matrixHasRowsAndColumns()
    {
        const Formula m = valid("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}");
        const FormulaItem a = onlyGlyph(m, "a"), b = onlyGlyph(m, "b"), c = onlyGlyph(m, "c"),
                          d = onlyGlyph(m, "d");
        QCOMPARE(a.baseline, b.baseline);
        QCOMPARE(c.baseline, d.baseline);
        QVERIFY(c.baseline > a.baseline + 0.9 * a.sizePx);
        QVERIFY(b.box.left() > a.box.right() + 0.5 * a.sizePx);
        QVERIFY(std::abs(a.box.center().x() - c.box.center().x()) < 0.2 * a.sizePx);
        // About two lines tall (2 x 1.2 em plus the parentheses' overshoot), with the drawn parentheses
        // around.
        const qreal em = a.sizePx;
        QVERIFY2(m.size().height() > 2.0 * em && m.size().height() < 3.2 * em,
                 qPrintable(QString::number(m.size().height() / em)));
        const auto open = pathsOf(m, "("), close = pathsOf(m, ")");
        QCOMPARE(open.size(), size_t(1));
        QCOMPARE(close.size(), size_t(1));
        QVERIFY(open[0].box.right() < a.box.left() && close[0].box.left() > b.box.right());
        QVERIFY(open[0].box.top() < a.box.top() && open[0].box.bottom() > c.box.bottom());
        // bmatrix: brackets; a trailing \\ adds no row.
        const Formula bm = valid("\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\\\ \\end{bmatrix}");
        QCOMPARE(pathsOf(bm, "[").size(), size_t(1));
        QVERIFY(std::abs(bm.size().height() - m.size().height()) < 0.3 * em);
    }

    // q' as TeX sets it: a prime wedge at script size, readable (its ink several pixels tall at 14 pt,
    // 1x), above the letter's x-height and right of it; '' gives two. The font's U+2032 at script size
    // was a faint dot.
    void primeIsAReadableSuperscript()
    {
        FormulaStyle style;
        style.pointSize = 14;
        const QString latex = QStringLiteral("q'_{2i} + x''");
        const Formula f = Formula::parse(latex, style);
        QVERIFY(f.isValid());
        const auto primes = pathsOf(f, QStringLiteral("prime"));
        QCOMPARE(primes.size(), size_t(2));
        const FormulaItem q = onlyGlyph(f, "q"), two = onlyGlyph(f, "2");
        const qreal em = q.sizePx;
        const FormulaItem& prime = primes[0];
        QVERIFY2(prime.box.height() >= 0.3 * em, qPrintable(QString::number(prime.box.height() / em)));
        QVERIFY(prime.box.left() >= q.box.right() - 0.05 * em);
        QVERIFY2(prime.box.bottom() < q.baseline - 0.3 * em, "above the x-height's middle");
        QVERIFY2(prime.box.bottom() < two.box.top(), "above the subscript");
        QVERIFY(primes[1].box.width() > 1.6 * prime.box.width() * 0.8); // two wedges side by side
        // On screen: at least 0.3 em of pixel rows with solid ink in the prime's columns.
        const QImage img = renderFormula(latex, style, 1.0);
        int rows = 0;
        for (int y = 0; y < img.height(); ++y) {
            int darkest = 0;
            for (int x = int(prime.box.left()); x <= int(std::ceil(prime.box.right())) && x < img.width();
                 ++x)
                if (y >= int(prime.box.top()) - 1 && y <= int(prime.box.bottom()) + 1)
                    darkest = std::max(darkest, qAlpha(img.pixel(x, y)));
            rows += darkest >= 128 ? 1 : 0;
        }
        QVERIFY2(rows >= int(std::floor(0.3 * em)),
                 qPrintable(QStringLiteral("%1 rows of ink, em %2").arg(rows).arg(em)));
    }

    // A drawn parenthesis is one stroke from end to end at screen sizes: every pixel row of its box has
    // solid ink (its thin ends faded out at 14 pt, 1x, and the parenthesis looked broken in three).
    void tallParenthesesAreContinuous_data()
    {
        QTest::addColumn<QString>("latex");
        QTest::addColumn<qreal>("dpr");
        QTest::newRow("lesson 8 step 1, 1x") << kCourse.back() << 1.0;
        QTest::newRow("lesson 8 step 1, 2x") << kCourse.back() << 2.0;
        QTest::newRow("fraction") << QStringLiteral("\\left( \\frac{a}{b} \\right)") << 1.0;
        QTest::newRow("four rows") << QStringLiteral("\\begin{pmatrix} a \\\\ b \\\\ c \\\\ d \\end{pmatrix}")
                                   << 1.0;
    }
    void tallParenthesesAreContinuous()
    {
        QFETCH(QString, latex);
        QFETCH(qreal, dpr);
        FormulaStyle style;
        style.pointSize = 14;
        const Formula f = Formula::parse(latex, style);
        QVERIFY(f.isValid());
        const QImage img = renderFormula(latex, style, dpr);
        int checked = 0;
        for (const QString& which : {QStringLiteral("("), QStringLiteral(")")})
            for (const FormulaItem& paren : pathsOf(f, which)) {
                // Every row inside the box (renderFormula paints at the origin), end to end.
                const int x0 = int(std::floor(paren.box.left() * dpr)),
                          x1 = int(std::ceil(paren.box.right() * dpr));
                const int y0 = int(std::ceil(paren.box.top() * dpr)) + 1,
                          y1 = int(std::floor(paren.box.bottom() * dpr)) - 1;
                for (int y = y0; y <= y1; ++y) {
                    int darkest = 0;
                    for (int x = std::max(0, x0); x <= std::min(img.width() - 1, x1); ++x)
                        darkest = std::max(darkest, qAlpha(img.pixel(x, y)));
                    QVERIFY2(darkest >= 160, qPrintable(QStringLiteral("%1 at row %2 of %3..%4: alpha %5")
                                                            .arg(which)
                                                            .arg(y)
                                                            .arg(y0)
                                                            .arg(y1)
                                                            .arg(darkest)));
                }
                ++checked;
            }
        QVERIFY(checked >= 2);
    }

    void leftRightGrowsWithContent()
    {
        const Formula f = valid("\\left( \\frac{a}{b} \\right)");
        const auto open = pathsOf(f, "("), close = pathsOf(f, ")");
        QCOMPARE(open.size(), size_t(1));
        QCOMPARE(close.size(), size_t(1));
        const FormulaItem a = onlyGlyph(f, "a"), b = onlyGlyph(f, "b");
        QVERIFY2(open[0].box.top() <= a.box.top() + 0.05 * a.sizePx, "parenthesis reaches the numerator");
        QVERIFY2(open[0].box.bottom() >= b.box.bottom() - 0.05 * a.sizePx, "and the denominator");
        QCOMPARE(open[0].box.height(), close[0].box.height());
        // Without \left the parentheses stay glyphs of text size.
        const Formula plain = valid("( \\frac{a}{b} )");
        QCOMPARE(glyphsOf(plain, "(").size(), size_t(1));
        QVERIFY(glyphsOf(plain, "(")[0].box.height() < open[0].box.height());
        // \left. is empty; \middle| is as tall as the others.
        const Formula mid = valid("\\left. \\frac{a}{b} \\middle| x \\right\\}");
        QCOMPARE(pathsOf(mid, "|").size(), size_t(1));
        QCOMPARE(pathsOf(mid, "}").size(), size_t(1));
        // (the brace is a stroke: its outline reaches half a stroke further at each end)
        QVERIFY2(std::abs(pathsOf(mid, "|")[0].box.height() - pathsOf(mid, "}")[0].box.height()) <
                     0.1 * a.sizePx,
                 qPrintable(QStringLiteral("%1 %2")
                                .arg(pathsOf(mid, "|")[0].box.height())
                                .arg(pathsOf(mid, "}")[0].box.height())));
        QVERIFY(pathsOf(mid, "|")[0].box.height() > open[0].box.height() * 0.9);
    }

    void commandsMapToCodePoints()
    {
        const QList<QPair<QString, char16_t>> table = {{"\\theta", 0x03B8},  {"\\alpha", 0x03B1},
                                                       {"\\pi", 0x03C0},     {"\\lambda", 0x03BB},
                                                       {"\\Theta", 0x0398},  {"\\Sigma", 0x03A3},
                                                       {"\\le", 0x2264},     {"\\ge", 0x2265},
                                                       {"\\ne", 0x2260},     {"\\approx", 0x2248},
                                                       {"\\equiv", 0x2261},  {"\\in", 0x2208},
                                                       {"\\to", 0x2192},     {"\\rightarrow", 0x2192},
                                                       {"\\mapsto", 0x21A6}, {"\\propto", 0x221D},
                                                       {"\\sim", 0x223C},    {"\\cdot", 0x22C5},
                                                       {"\\times", 0x00D7},  {"\\pm", 0x00B1},
                                                       {"\\infty", 0x221E},  {"\\partial", 0x2202},
                                                       {"\\nabla", 0x2207},  {"\\ldots", 0x2026},
                                                       {"\\cdots", 0x22EF},  {"\\top", 0x22A4},
                                                       {"\\lfloor", 0x230A}, {"\\rceil", 0x2309},
                                                       {"\\{", u'{'},        {"-", 0x2212}};
        for (const auto& [cmd, code] : table) {
            const Formula f = valid("a " + cmd + " b");
            QVERIFY2(glyphsOf(f, QString(QChar(code))).size() == 1, qPrintable(cmd));
        }
        // Lowercase Greek is italic like Latin letters, capitals upright; digits and operator names upright.
        QVERIFY(onlyGlyph(valid("\\theta"), QString(QChar(0x03B8))).italic);
        QVERIFY(!onlyGlyph(valid("\\Theta"), QString(QChar(0x0398))).italic);
        QVERIFY(!onlyGlyph(valid("\\sin x"), "sin").italic);
        QVERIFY(!onlyGlyph(valid("\\mathrm{d}x"), "d").italic);
        QVERIFY(onlyGlyph(valid("\\mathbf{W}"), "W").bold);
        QVERIFY(!onlyGlyph(valid("\\mathbf{W}"), "W").italic);
        // \text keeps its words and spaces, CJK included.
        QCOMPARE(glyphsOf(valid("\\text{if } x"), "if ").size(), size_t(1));
        QCOMPARE(glyphsOf(valid("\\text{位置编码}"), QString::fromUtf8("位置编码")).size(), size_t(1));
        // Spacing: a relation gets thick spaces (5mu each side), a binary operator medium ones (4mu).
        const qreal em = 14 * 96.0 / 72.0;
        const Formula eq = valid("a=b"), plus = valid("a+b");
        const qreal gapEq = onlyGlyph(eq, "b").box.left() - onlyGlyph(eq, "a").box.right();
        const qreal gapPlus = onlyGlyph(plus, "b").box.left() - onlyGlyph(plus, "a").box.right();
        QVERIFY(gapEq > gapPlus);
        QVERIFY(gapEq > 10.0 / 18 * em);
        // A leading minus is unary: no space between it and the number.
        const Formula neg = valid("-1");
        QVERIFY(onlyGlyph(neg, "1").box.left() - onlyGlyph(neg, QString(QChar(0x2212))).box.right() <
                0.05 * em);
        // Accents sit above their letter.
        const Formula hat = valid("\\hat{q}");
        QCOMPARE(pathsOf(hat, "hat").size(), size_t(1));
        QVERIFY(pathsOf(hat, "hat")[0].box.bottom() < onlyGlyph(hat, "q").box.top());
        for (const auto& acc : {QStringLiteral("tilde"), QStringLiteral("bar"), QStringLiteral("vec")}) {
            const Formula g = valid("\\" + acc + "{x}");
            QCOMPARE(pathsOf(g, acc).size(), size_t(1));
            QVERIFY(pathsOf(g, acc)[0].box.bottom() < onlyGlyph(g, "x").box.top());
        }
    }

    void errorsNameTheirColumn_data()
    {
        QTest::addColumn<QString>("latex");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("words");
        QTest::newRow("unclosed brace") << "a + {b" << 5 << "never closed";
        QTest::newRow("stray brace") << "a}b" << 2 << "without an opening";
        QTest::newRow("unknown command") << "x + \\foo y" << 5 << "unknown command \\foo";
        QTest::newRow("row break outside") << "a \\\\ b" << 3 << "outside a matrix";
        QTest::newRow("ampersand outside") << "a & b" << 3 << "outside a matrix";
        QTest::newRow("double superscript") << "x^2^3" << 4 << "double superscript";
        QTest::newRow("double subscript") << "x_1_2" << 4 << "double subscript";
        QTest::newRow("missing script") << "x^" << 2 << "missing";
        QTest::newRow("frac one argument") << "\\frac{a}" << 1 << "second argument";
        QTest::newRow("left without right") << "\\left( x" << 1 << "\\left without \\right";
        QTest::newRow("right without left") << "x \\right)" << 3 << "\\right without \\left";
        QTest::newRow("bad delimiter") << "\\left x \\right)" << 7 << "delimiter";
        QTest::newRow("env mismatch") << "\\begin{pmatrix} a \\end{bmatrix}" << 19 << "ended by";
        QTest::newRow("env unclosed") << "\\begin{cases} a & b" << 1 << "\\begin without \\end";
        QTest::newRow("unknown env") << "\\begin{tabular} a \\end{tabular}" << 1 << "unknown environment";
        QTest::newRow("dollar") << "$x$" << 1 << "without $";
        QTest::newRow("trailing backslash") << "x\\" << 2 << "backslash at the end";
        QTest::newRow("empty") << "   " << 1 << "empty";
        QTest::newRow("limits after letter") << "x\\limits" << 2 << "must follow an operator";
        QTest::newRow("text unclosed") << "\\text{abc" << 6 << "never closed";
        QTest::newRow("end alone") << "a \\end{pmatrix}" << 3 << "\\end without \\begin";
        QTest::newRow("column after CJK") << QString::fromUtf8("位置 \\oops") << 4 << "unknown command";
    }

    void errorsNameTheirColumn()
    {
        QFETCH(QString, latex);
        QFETCH(int, column);
        QFETCH(QString, words);
        const Formula f = Formula::parse(latex);
        QVERIFY(!f.isValid());
        QVERIFY2(f.error().startsWith(QStringLiteral("column %1: ").arg(column)), qPrintable(f.error()));
        QVERIFY2(f.error().contains(words), qPrintable(f.error()));
        QVERIFY(f.size().isEmpty());
        QVERIFY(f.items().empty());
        QString error;
        QVERIFY(renderFormula(latex, {}, 1.0, &error).isNull());
        QCOMPARE(error, f.error());
        // Painting an invalid formula does nothing (and does not crash).
        QImage image(10, 10, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        f.paint(&painter, QPointF(0, 0));
        painter.end();
        QCOMPARE(inkPixels(image), 0);
    }

    void hostileInputIsBounded()
    {
        // Deep nesting: refused past kMaxDepth, at the column where it goes too deep.
        const int depth = 4000;
        const Formula deep = Formula::parse(QString(depth, '{') + "x" + QString(depth, '}'));
        QVERIFY(!deep.isValid());
        QVERIFY2(deep.error().contains("nesting deeper than"), qPrintable(deep.error()));
        QVERIFY(deep.error().startsWith(QStringLiteral("column %1:").arg(Formula::kMaxDepth + 1)));
        // Nesting without braces (\sqrt\sqrt\sqrt..., x^{x^{...}}) is bounded too.
        QString sqrts;
        for (int i = 0; i < 2000; ++i)
            sqrts += "\\sqrt";
        QVERIFY(!Formula::parse(sqrts + "x").isValid());
        QString powers = "x";
        for (int i = 0; i < 500; ++i)
            powers = "x^{" + powers + "}";
        QVERIFY(Formula::parse(powers).error().contains("nesting deeper than"));
        // Within the limits it still works.
        QVERIFY(Formula::parse(QString(20, '{') + "x" + QString(20, '}')).isValid());
        // 10^5 characters: refused by length before any work, column just past the limit.
        const Formula longOne = Formula::parse(QString(100000, 'x'));
        QVERIFY(!longOne.isValid());
        QVERIFY2(longOne.error().startsWith(QStringLiteral("column %1:").arg(Formula::kMaxLength + 1)),
                 qPrintable(longOne.error()));
        // The longest allowed formula parses.
        QVERIFY(Formula::parse(QString(Formula::kMaxLength / 2, 'x') + QString(Formula::kMaxLength / 2, ' '))
                    .isValid());
        // Unbalanced and junk input.
        for (const QString& junk :
             {QString("{{{{"), QString("}}}}"), QString("\\left(\\left(\\left("), QString("\\begin{matrix}"),
              QString("^^^"), QString("\\frac"), QString("\\sqrt["), QString("\\text"), QString("a_"),
              QString("\\\\"), QString("&&"), QString("\\end"), QString("\\right"), QString(QChar(0xD800)),
              QString("\\begin{pmatrix}a&b\\\\"), QString("x^{2")}) {
            const Formula f = Formula::parse(junk);
            QVERIFY2(!f.isValid() && f.error().startsWith("column "), qPrintable(junk + " -> " + f.error()));
        }
        // A huge matrix is refused by its cell count.
        QString cells = "\\begin{matrix}";
        for (int i = 0; i < Formula::kMaxCells + 10; ++i)
            cells += "a&";
        cells += "a\\end{matrix}";
        QVERIFY(Formula::parse(cells).error().contains("matrix cells"));
        // Bad point sizes are reported, not laid out.
        FormulaStyle bad;
        bad.pointSize = 0;
        QVERIFY(Formula::parse("x", bad).error().contains("point size"));
        bad.pointSize = std::numeric_limits<qreal>::quiet_NaN();
        QVERIFY(!Formula::parse("x", bad).isValid());
    }

    void renderedImageHasInk()
    {
        FormulaStyle style;
        style.pointSize = 20;
        style.color = QColor(200, 0, 0);
        QString error = "unchanged";
        const QImage img = renderFormula("\\frac{a}{b} + \\sqrt{x}", style, 2.0, &error);
        QVERIFY(!img.isNull());
        QVERIFY(error.isEmpty());
        QCOMPARE(img.devicePixelRatio(), 2.0);
        const Formula f = Formula::parse("\\frac{a}{b} + \\sqrt{x}", style);
        QCOMPARE(img.width(), int(std::ceil(f.size().width() * 2)));
        QCOMPARE(qAlpha(img.pixel(0, 0)), 0); // transparent background
        const int ink = inkPixels(img);
        QVERIFY(ink > 200);
        QVERIFY(ink < img.width() * img.height() / 2);
        // The ink is the style's colour.
        bool red = false;
        for (int y = 0; y < img.height() && !red; ++y)
            for (int x = 0; x < img.width() && !red; ++x) {
                const QRgb p = img.pixel(x, y);
                red = qAlpha(p) == 255 && qRed(p) == 200 && qGreen(p) == 0;
            }
        QVERIFY(red);
        // Nothing is clipped: the outermost rows and columns stay (almost) empty.
        for (int x = 0; x < img.width(); ++x) {
            QVERIFY(qAlpha(img.pixel(x, 0)) < 128);
            QVERIFY(qAlpha(img.pixel(x, img.height() - 1)) < 128);
        }
        for (int y = 0; y < img.height(); ++y) {
            QVERIFY(qAlpha(img.pixel(0, y)) < 128);
            QVERIFY(qAlpha(img.pixel(img.width() - 1, y)) < 128);
        }
        // Twice the point size, about twice the size: the layout scales.
        style.pointSize = 40;
        const Formula big = Formula::parse("\\frac{a}{b} + \\sqrt{x}", style);
        QVERIFY(std::abs(big.size().width() / f.size().width() - 2.0) < 0.1);
        QVERIFY(std::abs(big.baseline() / f.baseline() - 2.0) < 0.1);
    }

    void paintsVectorPathsIntoSvg()
    {
        const Formula f = valid("\\sum_{i=1}^{n} \\left( \\frac{\\alpha_i}{\\sqrt{d}} \\right)");
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(f.size().toSize() + QSize(1, 1));
        svg.setViewBox(QRectF(QPointF(0, 0), f.size()));
        QPainter painter(&svg);
        f.paint(&painter, QPointF(0, 0));
        painter.end();
        const QByteArray text = buffer.data();
        QVERIFY(text.contains("<svg"));
        QVERIFY2(text.count("<path") >= int(f.items().size()) - 1, text.left(400).constData());
        QVERIFY(!text.contains("<image")); // vectors, no raster
    }

    void baselineAlignsWithText()
    {
        // Letters on the baseline: the baseline is inside the formula, below the x's top.
        const Formula x = valid("x", false);
        const FormulaItem g = onlyGlyph(x, "x");
        QCOMPARE(g.baseline, x.baseline());
        QVERIFY(x.baseline() > 0 && x.baseline() < x.size().height());
        // All the terms of a sum share the baseline; a fraction's baseline is the outer one.
        const Formula f = valid("a + \\frac{b}{c} = d", false);
        QCOMPARE(onlyGlyph(f, "a").baseline, f.baseline());
        QCOMPARE(onlyGlyph(f, "d").baseline, f.baseline());
        QVERIFY(onlyGlyph(f, "b").baseline < f.baseline());
        QVERIFY(onlyGlyph(f, "c").baseline > f.baseline());
    }

    void courseFormulasRender()
    {
        // Every one lays out without error and has ink, at a text size and at a projector's.
        for (int i = 0; i < kCourse.size(); ++i) {
            for (const qreal pt : {14.0, 40.0}) {
                FormulaStyle style;
                style.pointSize = pt;
                QString error;
                const QImage img = renderFormula(kCourse[i], style, 1.0, &error);
                QVERIFY2(!img.isNull(), qPrintable(kCourse[i] + ": " + error));
                QVERIFY(inkPixels(img) > 50);
            }
        }
        // All of them on one sheet, inline and display, at 2x dpr: each paints ink in its own band only.
        const qreal dpr = 2.0;
        std::vector<Formula> shown;
        qreal height = 10, width = 10;
        for (const QString& latex : kCourse) {
            for (const bool display : {false, true}) {
                FormulaStyle style;
                style.display = display;
                shown.push_back(Formula::parse(latex, style));
                height += shown.back().size().height() + 8;
                width = std::max(width, shown.back().size().width() + 20);
            }
        }
        QImage sheet(QSize(int(width * dpr), int(height * dpr)), QImage::Format_ARGB32_Premultiplied);
        sheet.setDevicePixelRatio(dpr);
        sheet.fill(Qt::transparent);
        QPainter painter(&sheet);
        qreal y = 10;
        std::vector<QRect> bands; // in device pixels
        for (const Formula& f : shown) {
            f.paint(&painter, QPointF(10, y));
            bands.emplace_back(0, int(std::floor(y * dpr)), sheet.width(),
                               int(std::ceil(f.size().height() * dpr)));
            y += f.size().height() + 8;
        }
        painter.end();
        int inBands = 0;
        for (std::size_t i = 0; i < bands.size(); ++i) {
            const int ink = inkPixels(sheet.copy(bands[i]));
            QVERIFY2(
                ink > 50,
                qPrintable(
                    QStringLiteral("%1 (%2)").arg(kCourse[int(i / 2)]).arg(i % 2 ? "display" : "inline")));
            inBands += ink;
        }
        QCOMPARE(inkPixels(sheet), inBands); // nothing painted outside a formula's box
    }
};

int main(int argc, char** argv)
{
    QGuiApplication app(argc, argv);
    FormulaTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_formula.moc"
