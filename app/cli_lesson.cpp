// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lesson.h"

#include "cli_help.h"
#include "cli_i18n.h"
#include "cli_options.h"
#include "export/figure_export.h"
#include "lessons/lesson.h"
#include "lessons/lesson_quotes.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>

namespace posatlas::cli {

namespace {

OptionTable lesson_table()
{
    return {
        {.name = "update",
         .type = ArgType::Flag,
         .help = translate(
             "Cli", "Rewrite each quoted number that differs from its computed value, at the same printed "
                    "precision (lesson files only; the built-in course is checked, not rewritten).")}};
}

std::string quote_line(const ui::Lesson& lesson, const ui::CheckedQuote& c)
{
    std::string line = lesson.source.toStdString() + ":" + std::to_string(c.quote.line) + ": step " +
                       std::to_string(c.step + 1) + ": " + c.quote.printed.toStdString() + " = " +
                       c.quote.expression.toStdString();
    if (!c.quote.patch.isEmpty())
        line += " @ " + c.quote.patch.toStdString();
    if (c.quote.cited())
        return line + "  (cited, not computed)";
    if (!c.error.isEmpty())
        return line + "  ERROR: " + c.error.toStdString();
    char value[64];
    std::snprintf(value, sizeof value, "%.9g", *c.value);
    line += std::string("  -> ") + value;
    return line + (c.matches ? "  ok" : "  DIFFERS (prints as " + c.update.toStdString() + ")");
}

// The file's text with the differing quotes' printed numbers replaced (quotes are found again in the
// whole file, in the order the reader met them: text, try, question, answer of each step).
QString updated_text(const QString& text, const std::vector<ui::CheckedQuote>& checked)
{
    QString out = text;
    // Replace from the end so earlier offsets stay valid; match each quote by its line and its text.
    const QStringList lines = text.split(QLatin1Char('\n'));
    std::vector<qsizetype> lineStart(lines.size() + 1, 0);
    for (qsizetype i = 0; i < lines.size(); ++i)
        lineStart[i + 1] = lineStart[i] + lines[i].size() + 1;
    struct Edit {
        qsizetype at, length;
        QString with;
    };
    std::vector<Edit> edits;
    // Every quote, matching or not, moves the cursor past itself: several quotes on one line (a table's
    // row) each find their own [[…]], not the first one with the same printed number.
    std::map<int, qsizetype> cursor; // per line: past the last quote found on it
    for (const ui::CheckedQuote& c : checked) {
        if (c.quote.line < 1 || c.quote.line > lines.size())
            continue;
        const QString needle = QStringLiteral("[[") + c.quote.printed;
        qsizetype at = std::max(cursor[c.quote.line], lineStart[c.quote.line - 1]);
        for (;; ++at) {
            at = text.indexOf(needle, at);
            const qsizetype after = at + needle.size();
            // The whole number: "[[0" is not the start of "[[0.5 = …".
            if (at < 0 || after >= text.size() || text[after] == QLatin1Char(' ') ||
                text[after] == QLatin1Char('='))
                break;
        }
        if (at < 0 || at >= lineStart[c.quote.line])
            continue;
        cursor[c.quote.line] = at + needle.size();
        if (!c.matches && c.value)
            edits.push_back({at + 2, c.quote.printed.size(), c.update});
    }
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
    for (const Edit& e : edits)
        out.replace(e.at, e.length, e.with);
    return out;
}

} // namespace

OptionSet lesson_option_set()
{
    return option_set(lesson_table());
}

std::string lesson_help()
{
    return render_help(
        usage_prefix() + "posatlas lesson check [--update] [FILE.md ...]",
        translate(
            "Cli",
            "Computes every number a lesson quotes ([[0.034 = weights(2, 1)]]: the printed number, then "
            "what it is, evaluated on the step's own scenario) and compares it with the printed text at "
            "its printed precision. One line per number; exit status 2 when any differs or cannot be "
            "computed. Without files: the built-in course, every language. resources/lessons/README.md "
            "lists the functions."),
        {{translate("Cli", "Options"), lesson_table()}, {translate("Cli", "Help"), {help_option()}}});
}

int run_lesson(const std::vector<std::string>& args, std::ostream& out)
{
    const Options o(args, lesson_table());
    if (o.help()) {
        out << lesson_help();
        return 0;
    }
    std::vector<std::string> files = o.positional();
    if (files.empty() || files.front() != "check")
        throw UsageError(translate(
            "Cli", "lesson takes the action 'check' (posatlas lesson check [--update] [FILE.md ...])"));
    files.erase(files.begin());
    const bool update = o.flag("update");
    QStringList paths;
    for (const std::string& f : files)
        paths << QString::fromStdString(f);
    if (paths.isEmpty()) {
        if (update)
            throw UsageError(
                translate("Cli", "--update rewrites lesson files: name them (resources/lessons/*/*.md)"));
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")})
            paths << ui::course_lessons(language);
    }
    int bad = 0, errors = 0, total = 0;
    for (const QString& path : paths) {
        const ui::Lesson lesson = ui::load_lesson(path); // LessonError: an InputFileError, exit 2
        const std::vector<ui::CheckedQuote> checked = ui::check_lesson_quotes(lesson);
        for (const ui::CheckedQuote& c : checked) {
            out << quote_line(lesson, c) << '\n';
            ++total;
            if (!c.matches)
                ++bad;
            if (!c.matches && !c.value)
                ++errors;
        }
        if (update && std::any_of(checked.begin(), checked.end(),
                                  [](const ui::CheckedQuote& c) { return !c.matches && c.value; })) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                throw UsageError(path.toStdString() + ": cannot read it again");
            const QString text = QString::fromUtf8(file.readAll());
            try {
                ui::write_file_atomically(path, updated_text(text, checked).toUtf8());
            } catch (const ui::ExportError& e) {
                throw UsageError(path.toStdString() + ": " + e.what());
            }
            out << path.toStdString() << ": updated\n";
        }
    }
    out << total << " quoted numbers: " << total - bad << " agree with the app, " << bad - errors << " differ"
        << (update && bad > errors ? " (updated)" : "") << ", " << errors << " cannot be computed\n";
    return errors == 0 && (bad == 0 || update) ? 0 : 2;
}

} // namespace posatlas::cli
