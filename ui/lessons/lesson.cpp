// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson.h"

#include "export/animation_dialog.h"
#include "lessons/lesson_quotes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>

namespace posatlas::ui {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const QString& source, int line, const QString& what)
{
    throw_lesson_error(source, line, what);
}

enum class Part { Text, Try, Question, Answer };

QString partName(Part p)
{
    switch (p) {
    case Part::Text: break;
    case Part::Try: return QStringLiteral("::: try");
    case Part::Question: return QStringLiteral("::: question");
    case Part::Answer: return QStringLiteral("::: answer");
    }
    return QStringLiteral("text");
}

// Text of one part of a step, with the file line of its first line (for formula messages).
struct Segment {
    QString text;
    int firstLine = 0;
    void append(const QString& line, int lineNumber)
    {
        if (text.isEmpty() && line.trimmed().isEmpty())
            return; // leading blank lines
        if (text.isEmpty())
            firstLine = lineNumber;
        text += line;
        text += QLatin1Char('\n');
    }
};

// A fence line: its marker (``` or ~~~, three or more) and info string; nullopt when not a fence.
struct Fence {
    QChar ch;
    int length = 0;
    QString info;
};

std::optional<Fence> fenceOf(const QString& line)
{
    const QString t = line.trimmed();
    if (t.size() < 3 || (t[0] != QLatin1Char('`') && t[0] != QLatin1Char('~')))
        return std::nullopt;
    int n = 0;
    while (n < t.size() && t[n] == t[0])
        ++n;
    if (n < 3)
        return std::nullopt;
    return Fence{t[0], n, t.mid(n).trimmed()};
}

bool closesFence(const QString& line, const Fence& open)
{
    const auto f = fenceOf(line);
    return f && f->ch == open.ch && f->length >= open.length && f->info.isEmpty();
}

class Reader
{
public:
    Reader(const QString& source, const FormulaChecker& check, QString baseDir)
        : m_source(source), m_check(check), m_baseDir(std::move(baseDir))
    {
    }

    Lesson read(const QString& text)
    {
        QString normalised = text;
        normalised.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
        const QStringList lines = normalised.split(QLatin1Char('\n'));
        Lesson lesson;
        lesson.source = m_source;
        int i = 0;
        while (i < lines.size() && lines[i].trimmed().isEmpty())
            ++i;
        if (i == lines.size())
            fail(m_source, 1,
                 QStringLiteral("the lesson is empty (it starts with its title, a line \"# Title\")"));
        if (!lines[i].startsWith(QLatin1String("# ")) || lines[i].mid(2).trimmed().isEmpty())
            fail(m_source, i + 1, QStringLiteral("a lesson starts with its title, a line \"# Title\""));
        lesson.title = lines[i].mid(2).trimmed();
        Segment summary;
        for (++i; i < lines.size(); ++i)
            line(lesson, summary, lines[i], i + 1);
        if (m_fence)
            fail(m_source, m_fenceLine,
                 QStringLiteral("the %1 block opened here is not closed")
                     .arg(QString(m_fence->length, m_fence->ch)));
        if (m_open)
            fail(m_source, m_openLine,
                 QStringLiteral("the %1 opened here is not closed (a line \":::\" closes it)")
                     .arg(partName(*m_open)));
        if (!m_step)
            fail(m_source, static_cast<int>(lines.size()),
                 QStringLiteral("the lesson has no steps (each step starts with a line \"## Step title\")"));
        finishStep(lesson);
        checkFormulas(summary);
        if (const auto quotes = find_lesson_quotes(summary.text, m_source, summary.firstLine);
            !quotes.empty())
            fail(m_source, quotes.front().line,
                 QStringLiteral("a quoted number [[…]] belongs in a step (it is computed on the step's "
                                "scenario), not in the summary"));
        lesson.summary = summary.text.trimmed();
        return lesson;
    }

private:
    void line(Lesson& lesson, Segment& summary, const QString& text, int number)
    {
        if (m_fence) {
            if (closesFence(text, *m_fence)) {
                m_fence.reset();
                if (m_inBlock) {
                    m_inBlock = false;
                    readBlock();
                    return;
                }
            } else if (m_inBlock) {
                m_block += text;
                m_block += QLatin1Char('\n');
                return;
            }
            segment(summary).append(text, number);
            return;
        }
        if (const auto fence = fenceOf(text)) {
            m_fence = fence;
            m_fenceLine = number;
            if (fence->info == QLatin1String("posatlas")) {
                if (!m_step)
                    fail(m_source, number,
                         QStringLiteral("a ```posatlas block before the first step (\"## Step title\")"));
                if (m_open)
                    fail(m_source, number,
                         QStringLiteral("a ```posatlas block inside the %1 opened at line %2")
                             .arg(partName(*m_open))
                             .arg(m_openLine));
                if (m_blockLine)
                    fail(
                        m_source, number,
                        QStringLiteral("step \"%1\" has a second ```posatlas block (the first is at line %2)")
                            .arg(m_step->title)
                            .arg(m_blockLine));
                m_inBlock = true;
                m_blockLine = number;
                m_block.clear();
                return;
            }
            segment(summary).append(text, number);
            return;
        }
        const QString trimmed = text.trimmed();
        if (trimmed.startsWith(QLatin1String(":::"))) {
            container(trimmed.mid(3).trimmed(), number);
            return;
        }
        if (text.startsWith(QLatin1String("## "))) {
            if (m_open)
                fail(m_source, m_openLine,
                     QStringLiteral("the %1 opened here is not closed (a line \":::\") before the next step")
                         .arg(partName(*m_open)));
            if (m_step)
                finishStep(lesson);
            if (static_cast<int>(lesson.steps.size()) >= kMaxLessonSteps)
                fail(m_source, number, QStringLiteral("more than %1 steps").arg(kMaxLessonSteps));
            const QString title = text.mid(3).trimmed();
            if (title.isEmpty())
                fail(m_source, number, QStringLiteral("a step needs a title after \"## \""));
            m_step.emplace();
            m_step->title = title;
            m_step->line = number;
            m_parts = {};
            m_blockLine = 0;
            m_questionLine = 0;
            return;
        }
        if (text.startsWith(QLatin1String("# ")))
            fail(m_source, number,
                 QStringLiteral("a lesson has one title (\"# …\"); its steps are \"## …\" headings"));
        segment(summary).append(text, number);
    }

    void container(const QString& word, int number)
    {
        if (word.isEmpty()) {
            if (!m_open)
                fail(
                    m_source, number,
                    QStringLiteral("\":::\" closes nothing (open one with \"::: try\" or \"::: question\")"));
            if (*m_open == Part::Question)
                fail(
                    m_source, m_openLine,
                    QStringLiteral("the question has no answer (\"::: answer\" before the closing \":::\")"));
            m_open.reset();
            return;
        }
        if (!m_step)
            fail(m_source, number,
                 QStringLiteral("\"::: %1\" before the first step (\"## Step title\")").arg(word));
        if (word == QLatin1String("answer")) {
            if (m_open != Part::Question)
                fail(m_source, number, QStringLiteral("\"::: answer\" must follow a \"::: question\""));
            m_open = Part::Answer;
            return;
        }
        if (word != QLatin1String("try") && word != QLatin1String("question"))
            fail(m_source, number,
                 QStringLiteral("unknown block \"::: %1\" (try, question, answer)").arg(word));
        if (m_open)
            fail(m_source, number,
                 QStringLiteral("\"::: %1\" inside the %2 opened at line %3 (close it with \":::\" first)")
                     .arg(word, partName(*m_open))
                     .arg(m_openLine));
        const Part part = word == QLatin1String("try") ? Part::Try : Part::Question;
        if (!m_parts[static_cast<int>(part)].text.isEmpty() || (part == Part::Question && m_questionLine))
            fail(m_source, number,
                 QStringLiteral("step \"%1\" has a second \"::: %2\"").arg(m_step->title, word));
        if (part == Part::Question)
            m_questionLine = number;
        m_open = part;
        m_openLine = number;
    }

    Segment& segment(Segment& summary)
    {
        if (!m_step)
            return summary;
        return m_parts[static_cast<int>(m_open.value_or(Part::Text))];
    }

    void readBlock()
    {
        json j;
        try {
            j = json::parse(m_block.toStdString());
        } catch (const json::parse_error& e) {
            const std::string bytes = m_block.toStdString();
            const std::string before = bytes.substr(0, std::min<std::size_t>(e.byte, bytes.size()));
            const int offset = static_cast<int>(std::count(before.begin(), before.end(), '\n'));
            fail(m_source, m_blockLine + 1 + offset,
                 QStringLiteral("the posatlas block is not valid JSON (%1)")
                     .arg(QString::fromStdString(e.what())));
        }
        if (!j.is_object())
            fail(m_source, m_blockLine,
                 QStringLiteral("the posatlas block must be a JSON object {\"scenario\": …, \"views\": …}"));
        for (const auto& [key, value] : j.items())
            if (key != "scenario" && key != "views" && key != "figure" && key != "animate")
                fail(m_source, m_blockLine,
                     QStringLiteral(
                         "unknown key \"%1\" in the posatlas block (scenario, views, figure, animate)")
                         .arg(QString::fromStdString(key)));
        std::optional<LessonAnimation> animation;
        if (j.contains("animate")) {
            if (!j["animate"].is_string())
                fail(m_source, m_blockLine,
                     QStringLiteral(
                         "posatlas block: animate must be a text \"FIELD=FROM:TO[:log] frames=N fps=N\""));
            try {
                animation = parse_lesson_animation(QString::fromStdString(j["animate"].get<std::string>()));
            } catch (const ParameterError& e) {
                fail(m_source, m_blockLine,
                     QStringLiteral("posatlas block: %1").arg(QString::fromUtf8(e.what())));
            }
            j.erase("animate");
        }
        j["format"] = "posatlas-session";
        j["version"] = kSessionVersion;
        SessionReadReport report;
        try {
            m_step->session = session_from_json(QByteArray::fromStdString(j.dump()), m_baseDir, &report);
        } catch (const SessionError& e) {
            fail(m_source, m_blockLine,
                 QStringLiteral("posatlas block: %1").arg(QString::fromUtf8(e.what())));
        }
        // A misspelt key would silently show the default instead of what the text describes.
        if (!report.unknown_keys.empty())
            fail(m_source, m_blockLine,
                 QStringLiteral("posatlas block: %1")
                     .arg(QString::fromStdString(unknown_key_message(report.unknown_keys.front()))));
        m_step->block = m_block.toUtf8();
        if (animation) {
            // The field and its range against the step's own scenario and view, as the export checks them.
            m_step->animation = std::move(animation);
            try {
                check_animation_request(lesson_animation_request(*m_step, ViewKind::Heatmap));
            } catch (const ParameterError& e) {
                fail(m_source, m_blockLine,
                     QStringLiteral("posatlas block: %1").arg(QString::fromUtf8(e.what())));
            }
        }
    }

    // Every lab figure the text shows can be drawn (lesson_quotes.h, lab_figure_available).
    void checkFigures(const Segment& s)
    {
        static const QRegularExpression figure(QStringLiteral(R"(\]\((lab-runs:[^)\s]*)\))"));
        for (auto it = figure.globalMatch(s.text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            if (!lab_figure_available(m.captured(1)))
                fail(m_source,
                     s.firstLine + static_cast<int>(s.text.left(m.capturedStart()).count(QLatin1Char('\n'))),
                     QStringLiteral("figure %1: not a sweep of the lab's shipped results "
                                    "(resources/lab-runs/NAME/sweep.png)")
                         .arg(m.captured(1)));
        }
    }

    void checkFormulas(const Segment& s)
    {
        for (const LessonPiece& p : split_formulas(s.text, m_source, s.firstLine))
            if (p.formula && m_check) {
                const QString error = m_check(show_lesson_quotes(p.formula->latex, QuoteForm::Latex));
                if (!error.isEmpty())
                    fail(m_source, p.formula->line,
                         QStringLiteral("formula %1: %2").arg(p.formula->latex.left(60), error));
            }
    }

    void finishStep(Lesson& lesson)
    {
        if (!m_blockLine)
            fail(m_source, m_step->line,
                 QStringLiteral("step \"%1\" has no ```posatlas block (the scenario it shows)")
                     .arg(m_step->title));
        for (const Segment& s : m_parts) {
            checkFormulas(s);
            checkFigures(s);
            for (LessonQuote& q : find_lesson_quotes(s.text, m_source, s.firstLine))
                m_step->quotes.push_back(std::move(q));
        }
        m_step->text = m_parts[static_cast<int>(Part::Text)].text.trimmed();
        m_step->tryThis = m_parts[static_cast<int>(Part::Try)].text.trimmed();
        m_step->question = m_parts[static_cast<int>(Part::Question)].text.trimmed();
        m_step->answer = m_parts[static_cast<int>(Part::Answer)].text.trimmed();
        lesson.steps.push_back(std::move(*m_step));
        m_step.reset();
    }

    QString m_source;
    const FormulaChecker& m_check;
    QString m_baseDir;
    std::optional<LessonStep> m_step;
    std::array<Segment, 4> m_parts;
    std::optional<Part> m_open;
    int m_openLine = 0;
    int m_questionLine = 0;
    std::optional<Fence> m_fence;
    int m_fenceLine = 0;
    bool m_inBlock = false;
    QString m_block;
    int m_blockLine = 0;
};

// The index of the next unescaped '$' at or after `from` on the same line (or anywhere when
// `acrossLines`), -1 when none.
qsizetype findDollar(const QString& s, qsizetype from, bool acrossLines, bool doubled)
{
    for (qsizetype i = from; i < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('\\')) {
            ++i;
            continue;
        }
        if (c == QLatin1Char('\n') && !acrossLines)
            return -1;
        if (c == QLatin1Char('$') && (!doubled || (i + 1 < s.size() && s[i + 1] == QLatin1Char('$'))))
            return i;
    }
    return -1;
}

} // namespace

std::vector<LessonPiece> split_formulas(const QString& markdown, const QString& source, int firstLine)
{
    std::vector<LessonPiece> pieces;
    QString text;
    int line = firstLine;
    bool inFence = false;
    std::optional<Fence> fence;
    bool inCode = false;
    const auto flush = [&] {
        if (!text.isEmpty())
            pieces.push_back({text, std::nullopt});
        text.clear();
    };
    for (qsizetype i = 0; i < markdown.size(); ++i) {
        const QChar c = markdown[i];
        const bool lineStart = i == 0 || markdown[i - 1] == QLatin1Char('\n');
        if (lineStart) {
            const qsizetype end = markdown.indexOf(QLatin1Char('\n'), i);
            const QString whole = markdown.mid(i, end < 0 ? -1 : end - i);
            if (inFence ? closesFence(whole, *fence) : fenceOf(whole).has_value()) {
                if (!inFence)
                    fence = fenceOf(whole);
                inFence = !inFence;
            }
            inCode = false;
        }
        if (c == QLatin1Char('\n'))
            ++line;
        if (inFence) {
            text += c;
            continue;
        }
        if (c == QLatin1Char('`'))
            inCode = !inCode;
        if (inCode || c != QLatin1Char('$')) {
            if (c == QLatin1Char('\\') && !inCode && i + 1 < markdown.size() &&
                markdown[i + 1] == QLatin1Char('$')) {
                text += QStringLiteral("\\$");
                ++i;
                continue;
            }
            text += c;
            continue;
        }
        const bool display = i + 1 < markdown.size() && markdown[i + 1] == QLatin1Char('$');
        const qsizetype start = i + (display ? 2 : 1);
        const qsizetype close = findDollar(markdown, start, display, display);
        if (close < 0)
            fail(source, line,
                 display ? QStringLiteral("$$ is not closed")
                         : QStringLiteral("$ is not closed on its line (write \\$ for a dollar sign)"));
        const QString latex = markdown.mid(start, close - start).trimmed();
        if (latex.isEmpty())
            fail(source, line, QStringLiteral("an empty formula"));
        flush();
        pieces.push_back({QString(), LessonFormula{latex, display, line}});
        line += static_cast<int>(markdown.mid(start, close - start).count(QLatin1Char('\n')));
        i = close + (display ? 1 : 0);
    }
    flush();
    return pieces;
}

void throw_lesson_error(const QString& source, int line, const QString& what)
{
    throw LessonError(
        (source + QLatin1Char(':') + QString::number(line) + QStringLiteral(": ") + what).toStdString());
}

Lesson parse_lesson(const QString& text, const QString& source, const FormulaChecker& check)
{
    return Reader(source, check, {}).read(text);
}

Lesson load_lesson(const QString& path, const FormulaChecker& check)
{
    QByteArray bytes;
    QString baseDir;
    if (path.startsWith(QLatin1Char(':'))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw LessonError((path + QStringLiteral(": no such lesson")).toStdString());
        bytes = file.read(kMaxLessonBytes + 1);
    } else {
        const std::string name = QFile::encodeName(path).toStdString();
        try {
            bytes = QByteArray::fromStdString(read_input_file(name, kMaxLessonBytes)); // names the path
        } catch (const InputFileError& e) {
            throw LessonError(e.what());
        }
        baseDir = QFileInfo(path).absolutePath();
    }
    if (bytes.size() > kMaxLessonBytes)
        throw LessonError((path + QStringLiteral(": larger than %1 MiB; a lesson is a text file of a few kB")
                                      .arg(kMaxLessonBytes >> 20))
                              .toStdString());
    const QString text = QString::fromUtf8(bytes);
    if (text.contains(QChar::ReplacementCharacter) && !bytes.contains("\xEF\xBF\xBD"))
        throw LessonError((path + QStringLiteral(": not UTF-8 text")).toStdString());
    return Reader(path, check, baseDir).read(text);
}

QStringList course_lessons(const QString& language)
{
    const auto list = [](const QString& lang) {
        const QString dir = QStringLiteral(":/posatlas/lessons/") + lang;
        QStringList paths;
        for (const QString& name : QDir(dir).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
            paths << dir + QLatin1Char('/') + name;
        return paths;
    };
    QStringList paths = list(language);
    return paths.isEmpty() && language != QLatin1String("en") ? list(QStringLiteral("en")) : paths;
}

QString course_language(const QString& uiLanguage)
{
    return uiLanguage.startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

LessonAnimation parse_lesson_animation(const QString& text)
{
    LessonAnimation a;
    a.text = text.simplified();
    const QStringList words = a.text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.isEmpty())
        throw ParameterError("animate", sweep_form() + " [frames=N] [fps=N]", "\"\"");
    int frames = LessonAnimation::kLessonAnimationFrames;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const QString name = words[i].section(QLatin1Char('='), 0, 0);
        bool ok = false;
        const int value = words[i].section(QLatin1Char('='), 1).toInt(&ok);
        if (name == QLatin1String("frames") && ok)
            frames = value;
        else if (name == QLatin1String("fps") && ok && value >= 1 && value <= 120)
            a.fps = value;
        else if (name == QLatin1String("fps"))
            throw ParameterError("fps", "an integer in [1, 120]", words[i].toStdString());
        else
            throw ParameterError("animate", sweep_form() + " [frames=N] [fps=N]", words[i].toStdString());
    }
    a.sweep = parse_sweep(words.front().toStdString(), frames);
    return a;
}

AnimationRequest lesson_animation_request(const LessonStep& step, ViewKind fallback)
{
    AnimationRequest r;
    r.view = parse_view_kind(step.session.current_view).value_or(fallback);
    r.scenario = step.session.scenario;
    r.figure = default_animation_figure();
    r.settings = export_view_settings(step.session.settings, r.figure);
    r.colormap = step.session.colormap;
    if (step.animation) {
        r.sweep = step.animation->sweep;
        r.fps = step.animation->fps;
    }
    return r;
}

} // namespace posatlas::ui
