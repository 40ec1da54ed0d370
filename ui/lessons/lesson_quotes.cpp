// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_quotes.h"

#include "analysis/lab_results.h"
#include "analysis/quoted_value.h"
#include "io/number_text.h"
#include "lab/lab_sweep.h"
#include "lab/lab_sweep_figure.h"
#include "model/session.h"

#include <QFile>
#include <QPainter>

#include <QFileInfo>
#include <cmath>

#include <nlohmann/json.hpp>

namespace posatlas::ui {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const QString& source, int line, const QString& what)
{
    throw_lesson_error(source, line, what);
}

// The end (one past) of a JSON object starting at `from` ('{'), honouring strings; -1 when unclosed.
qsizetype jsonObjectEnd(const QString& s, qsizetype from)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = from; i < s.size(); ++i) {
        const QChar c = s[i];
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('"'))
                inString = false;
            continue;
        }
        if (c == QLatin1Char('"'))
            inString = true;
        else if (c == QLatin1Char('{'))
            ++depth;
        else if (c == QLatin1Char('}') && --depth == 0)
            return i + 1;
    }
    return -1;
}

bool isCjk(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 0x4E00 && u <= 0x9FFF) || (u >= 0x3400 && u <= 0x4DBF) || (u >= 0x3000 && u <= 0x303F) ||
           (u >= 0xFF00 && u <= 0xFFEF) || u == 0x201C || u == 0x201D;
}

QString shown(const QString& printed, QuoteForm form)
{
    QString mantissa = printed;
    QString exponent;
    const qsizetype e = printed.indexOf(QLatin1Char('e'), 0, Qt::CaseInsensitive);
    if (e >= 0) {
        mantissa = printed.left(e);
        exponent = printed.mid(e + 1);
        if (exponent.startsWith(QLatin1Char('+')))
            exponent.remove(0, 1);
    }
    if (form == QuoteForm::Latex)
        return exponent.isEmpty() ? mantissa : mantissa + QStringLiteral(" \\times 10^{%1}").arg(exponent);
    const auto minus = [](QString s) { return s.replace(QLatin1Char('-'), QChar(0x2212)); };
    if (exponent.isEmpty())
        return minus(mantissa);
    return minus(mantissa) + QStringLiteral(" × 10") +
           QString::fromStdString(superscript_digits(exponent.toLong()));
}

} // namespace

std::vector<LessonQuote> find_lesson_quotes(const QString& text, const QString& source, int firstLine)
{
    std::vector<LessonQuote> quotes;
    qsizetype from = 0;
    while (true) {
        const qsizetype open = text.indexOf(QStringLiteral("[["), from);
        if (open < 0)
            break;
        const int line = firstLine + static_cast<int>(text.left(open).count(QLatin1Char('\n')));
        const qsizetype eq = text.indexOf(QLatin1Char('='), open + 2);
        const qsizetype nl = text.indexOf(QLatin1Char('\n'), open);
        if (eq < 0 || (nl >= 0 && eq > nl))
            fail(source, line,
                 QStringLiteral("a quoted number is written [[0.034 = weights(2, 1)]] (\"=\" is missing)"));
        LessonQuote q;
        q.line = line;
        q.offset = open;
        q.printed = text.mid(open + 2, eq - open - 2).trimmed();
        const auto printed = parse_printed_number(q.printed.toStdString());
        if (!printed)
            fail(source, line,
                 QStringLiteral("\"%1\" is not a number as a lesson prints one (0.034, -1.5, 3.16e-4)")
                     .arg(q.printed));
        // The expression runs to "@" or "]]" outside brackets.
        int depth = 0;
        qsizetype i = eq + 1;
        qsizetype exprEnd = -1, close = -1;
        for (; i < text.size(); ++i) {
            const QChar c = text[i];
            if (c == QLatin1Char('\n') && text.mid(i).startsWith(QStringLiteral("\n\n")))
                break;
            if (c == QLatin1Char('(') || c == QLatin1Char('['))
                ++depth;
            else if (c == QLatin1Char(')') || (c == QLatin1Char(']') && depth > 0))
                --depth;
            else if (depth == 0 && c == QLatin1Char('@')) {
                exprEnd = i;
                break;
            } else if (depth == 0 && c == QLatin1Char(']') && i + 1 < text.size() &&
                       text[i + 1] == QLatin1Char(']')) {
                exprEnd = i;
                close = i + 2;
                break;
            }
        }
        if (exprEnd < 0)
            fail(source, line,
                 QStringLiteral("the quoted number [[%1 = … is not closed with \"]]\"").arg(q.printed));
        q.expression = text.mid(eq + 1, exprEnd - eq - 1).simplified();
        if (close < 0) { // a patch: "@ {json}" then "]]"
            qsizetype j = exprEnd + 1;
            while (j < text.size() && text[j].isSpace())
                ++j;
            const qsizetype end =
                j < text.size() && text[j] == QLatin1Char('{') ? jsonObjectEnd(text, j) : -1;
            if (end < 0)
                fail(source, line,
                     QStringLiteral("after \"@\" a quoted number takes a JSON object of scenario keys "
                                    "({\"seq_len\": 64})"));
            q.patch = text.mid(j, end - j);
            qsizetype k = end;
            while (k < text.size() && text[k].isSpace())
                ++k;
            if (!text.mid(k).startsWith(QStringLiteral("]]")))
                fail(source, line,
                     QStringLiteral(
                         "the quoted number [[%1 = … is not closed with \"]]\" after its JSON object")
                         .arg(q.printed));
            close = k + 2;
            const json patch = json::parse(q.patch.toStdString(), nullptr, false);
            if (patch.is_discarded() || !patch.is_object())
                fail(source, line,
                     QStringLiteral("the JSON after \"@\" in [[%1 = …]] is not a valid object")
                         .arg(q.printed));
        }
        if (!q.cited()) {
            try {
                QuoteExpression::parse(q.expression.toStdString());
            } catch (const QuoteError& e) {
                fail(source, line,
                     QStringLiteral("quoted number %1: %2").arg(q.printed, QString::fromStdString(e.what())));
            }
        } else if (!q.patch.isEmpty()) {
            fail(source, line,
                 QStringLiteral("a cited number [[%1 = cited]] has no scenario").arg(q.printed));
        }
        q.length = close - open;
        quotes.push_back(q);
        from = close;
    }
    return quotes;
}

QString show_lesson_quotes(const QString& text, QuoteForm form)
{
    if (!text.contains(QStringLiteral("[[")))
        return text;
    std::vector<LessonQuote> quotes;
    try {
        quotes = find_lesson_quotes(text, QStringLiteral("lesson"), 1);
    } catch (const LessonError&) {
        return text; // unreachable for a lesson that was read: shown as written
    }
    QString out;
    qsizetype at = 0;
    for (const LessonQuote& q : quotes) {
        out += text.mid(at, q.offset - at);
        out += shown(q.printed, form);
        at = q.offset + q.length;
    }
    out += text.mid(at);
    return out;
}

QString join_cjk_line_breaks(const QString& markdown)
{
    QString out;
    out.reserve(markdown.size());
    for (qsizetype i = 0; i < markdown.size(); ++i) {
        const QChar c = markdown[i];
        if (c == QLatin1Char('\n') && i > 0 && i + 1 < markdown.size() && isCjk(markdown[i - 1]) &&
            isCjk(markdown[i + 1]))
            continue;
        out += c;
    }
    return out;
}

Scenario quote_scenario(const LessonStep& step, const LessonQuote& quote, const QString& source)
{
    if (quote.patch.isEmpty())
        return step.session.scenario;
    json block = json::parse(step.block.toStdString());
    block.erase("animate"); // the step's animation (LessonStep::animation), not part of its session
    json scenario = block.contains("scenario") ? block["scenario"] : json::object();
    scenario.merge_patch(json::parse(quote.patch.toStdString()));
    block["scenario"] = scenario;
    block["format"] = "posatlas-session";
    block["version"] = kSessionVersion;
    const QString baseDir =
        source.startsWith(QLatin1Char(':')) ? QString() : QFileInfo(source).absolutePath();
    SessionReadReport report;
    Scenario scenario_of_quote;
    try {
        scenario_of_quote =
            session_from_json(QByteArray::fromStdString(block.dump()), baseDir, &report).scenario;
    } catch (const SessionError& e) {
        fail(source, quote.line,
             QStringLiteral("quoted number %1, its scenario: %2")
                 .arg(quote.printed, QString::fromUtf8(e.what())));
    }
    if (!report.unknown_keys.empty())
        fail(source, quote.line,
             QStringLiteral("quoted number %1, its scenario: %2")
                 .arg(quote.printed,
                      QString::fromStdString(unknown_key_message(report.unknown_keys.front()))));
    return scenario_of_quote;
}

// The lab results the course quotes are embedded as :/posatlas/lab-runs/… (ui/CMakeLists.txt): the last
// place analysis/lab_results.h looks, so an installed program checks its lessons without the source tree.
namespace {
void use_embedded_lab_results()
{
    static const bool installed = [] {
        set_lab_results_fallback([](const std::string& relative) -> std::optional<std::string> {
            QFile f(QStringLiteral(":/posatlas/lab-runs/") + QString::fromStdString(relative));
            if (!f.open(QIODevice::ReadOnly))
                return std::nullopt;
            return f.readAll().toStdString();
        });
        return true;
    }();
    (void)installed;
}
} // namespace

namespace {
// The sweep table a figure address names ("lab-runs:copy/sweep.png": copy/sweep.json); nullopt when the
// address is not one or the table does not read.
std::optional<lab::SweepTable> lab_figure_table(const QString& address)
{
    use_embedded_lab_results();
    const QLatin1String scheme(kLabFigureScheme), figure("/sweep.png");
    if (!address.startsWith(scheme) || !address.endsWith(figure))
        return std::nullopt;
    const std::string table =
        address.mid(scheme.size(), address.size() - scheme.size() - figure.size()).toStdString() +
        "/sweep.json";
    try {
        return lab::read_sweep_json(read_lab_results_file(table), table);
    } catch (const std::exception&) {
        return std::nullopt; // no such sweep (or a path outside lab-runs), or a table that does not read
    }
}
} // namespace

bool lab_figure_available(const QString& address)
{
    return lab_figure_table(address).has_value();
}

QImage lab_figure_image(const QString& address, qreal width, qreal dpr)
{
    const std::optional<lab::SweepTable> table = lab_figure_table(address);
    if (!table || width < 16 || dpr <= 0)
        return {};
    const LabSweepFigure sweep(lab_sweep_curves(*table));
    // Square in a narrow column (the legend beside the plot takes a good part of its width), else 3 : 2.
    const QSizeF logical(width, std::round(width < 480 ? width : width * 2 / 3));
    QImage image((logical * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    sweep.renderFigure(painter, QRectF(QPointF(0, 0), logical), {});
    return image;
}

std::vector<CheckedQuote> check_lesson_quotes(const Lesson& lesson)
{
    use_embedded_lab_results();
    std::vector<CheckedQuote> out;
    for (std::size_t s = 0; s < lesson.steps.size(); ++s)
        for (const LessonQuote& q : lesson.steps[s].quotes) {
            CheckedQuote c;
            c.quote = q;
            c.step = static_cast<int>(s);
            const auto printed = parse_printed_number(q.printed.toStdString());
            if (q.cited()) {
                c.matches = true;
                c.update = q.printed;
                out.push_back(c);
                continue;
            }
            try {
                const Scenario scenario = quote_scenario(lesson.steps[s], q, lesson.source);
                c.value = QuoteExpression::parse(q.expression.toStdString()).evaluate(scenario);
                c.matches = printed && printed_number_matches(*printed, *c.value);
                c.update = printed ? QString::fromStdString(print_like(*printed, *c.value)) : q.printed;
            } catch (const QuoteError& e) {
                c.error = QString::fromStdString(e.what());
            } catch (const LessonError& e) {
                c.error = QString::fromUtf8(e.what());
            } catch (const std::exception& e) {
                c.error = QString::fromUtf8(e.what());
            }
            out.push_back(c);
        }
    return out;
}

} // namespace posatlas::ui
