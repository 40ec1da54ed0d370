// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in course (resources/lessons): both languages with the same steps and scenarios and every
// formula typeset, every quoted number the app's own, no decimal left untied in the prose, and the Chinese
// course in a Chinese class's terms.
#include "lesson_fixtures.h"
#include "lessons/lesson.h"
#include "lessons/lesson_document.h"
#include "lessons/lesson_quotes.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>

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

} // namespace

class CourseTest : public QObject
{
    Q_OBJECT

private slots:
    void courseInBothLanguages();
    void everyQuotedNumberIsTheAppsNumber();
    void noUntiedNumbersInTheCourse();
    void chineseCourseUsesTheClassTerms();
};

void CourseTest::courseInBothLanguages()
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

// Every number the course quotes, in every lesson and both languages, is what the app computes on that
// step's scenario, to the printed precision; the two languages quote as many numbers in each step.
void CourseTest::everyQuotedNumberIsTheAppsNumber()
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
void CourseTest::noUntiedNumbersInTheCourse()
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

// The Chinese course says what a Chinese class expects (resources/translations/translations.py AVOID has
// the interface's list): 注意力分数 / 注意力权重, 词袋, 频谱; full-width quotes in its prose.
void CourseTest::chineseCourseUsesTheClassTerms()
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

QTEST_MAIN(CourseTest)
#include "test_course.moc"
