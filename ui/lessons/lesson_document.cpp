// SPDX-License-Identifier: GPL-3.0-or-later
#include "lessons/lesson_document.h"

#include "lessons/lesson.h"
#include "lessons/lesson_quotes.h"
#include "math/formula.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QUrl>

#include <cmath>
#include <vector>

namespace posatlas::ui {

namespace {

constexpr auto kScheme = "posatlas-formula";
constexpr auto kCountProperty = "posatlasFormulaCount";

struct Typeset {
    QImage image;
    QSizeF logical; // the image's size in the document's units
    bool display = false;
};

// U+2060 WORD JOINER: no line break on either side of it, and nothing drawn.
constexpr char16_t kWordJoiner = 0x2060;

// Punctuation that closes what comes before it: never the first character of a line (Chinese line
// breaking rules), which Qt allows after an inline formula's image.
bool closes(QChar c)
{
    static const QString closing = QStringLiteral("，。：；、！？）》」』】,.:;!?)]”’");
    return closing.contains(c);
}

// Whether text[at] is part of a link's address ("](https://arxiv.org/abs/2104.09864)"), which must stay
// as written.
bool inLink(const QString& text, qsizetype at)
{
    qsizetype from = at, to = at;
    while (from > 0 && !text[from - 1].isSpace())
        --from;
    while (to < text.size() && !text[to].isSpace())
        ++to;
    const QString token = text.mid(from, to - from);
    return token.contains(QLatin1String("://")) || token.contains(QLatin1String("](")) ||
           token.contains(QLatin1String("www."));
}

// Text between formulas, glued where a line must not break: inside a number ("0.354" was broken into
// "0." / "354" between Chinese characters).
QString keep_together(const QString& text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        out += c;
        const bool separator = c == QLatin1Char('.') || c == QLatin1Char(',');
        if (separator && i > 0 && i + 1 < text.size() && text[i - 1].isDigit() && text[i + 1].isDigit() &&
            !inLink(text, i)) {
            out.insert(out.size() - 1, QChar(kWordJoiner));
            out += QChar(kWordJoiner);
        }
    }
    return out;
}

// A piece of a displayed formula between two places where a line may break, and what joins it to the
// piece before it on one line ("\quad " where a \quad was the break, nothing after a comma or before a
// relation).
struct Piece {
    QString join;
    QString latex;
};

// Where a displayed formula may break, weakest break first: 0 at a top-level \quad or \qquad (removed
// at the break), 1 after a top-level comma, 2 before a top-level relation (the line after starts with
// it), 3 before a top-level binary + or -. Top level: outside braces, brackets, parentheses, \left ... \right
// and environments.
struct Break {
    int at, end; // the break's text [at, end) is dropped (a \quad); at == end otherwise
    int strength;
};

// Whether the + or - at `at` is a binary operator: something other than an operator or an opening
// bracket comes before it.
bool binary_at(const QString& latex, int at)
{
    int k = at - 1;
    while (k >= 0 && latex.at(k).isSpace())
        --k;
    return k >= 0 && !QStringLiteral("=<>+-,({[&").contains(latex.at(k));
}

std::vector<Break> display_breaks(const QString& latex)
{
    static const QStringList relations = {
        QStringLiteral("le"),     QStringLiteral("leq"),    QStringLiteral("ge"),
        QStringLiteral("geq"),    QStringLiteral("approx"), QStringLiteral("equiv"),
        QStringLiteral("sim"),    QStringLiteral("ne"),     QStringLiteral("neq"),
        QStringLiteral("propto"), QStringLiteral("to"),     QStringLiteral("Rightarrow")};
    std::vector<Break> out;
    int depth = 0;
    const int n = static_cast<int>(latex.size());
    for (int i = 0; i < n;) {
        const QChar c = latex.at(i);
        if (c == u'\\') {
            int j = i + 1;
            while (j < n && latex.at(j).isLetter())
                ++j;
            if (j == i + 1 && j < n)
                ++j; // \{ \, \\ ...: one character
            const QString name = latex.mid(i + 1, j - i - 1);
            if (name == QLatin1String("left") || name == QLatin1String("begin"))
                ++depth;
            else if (name == QLatin1String("right") || name == QLatin1String("end"))
                --depth;
            else if (depth == 0 && (name == QLatin1String("quad") || name == QLatin1String("qquad")))
                out.push_back({i, j, 0});
            else if (depth == 0 && relations.contains(name))
                out.push_back({i, i, 2});
            // The delimiter after \left / \right is not a bracket of its own.
            if (name == QLatin1String("left") || name == QLatin1String("right")) {
                while (j < n && latex.at(j).isSpace())
                    ++j;
                if (j < n && latex.at(j) == u'\\') {
                    ++j;
                    while (j < n && latex.at(j).isLetter())
                        ++j;
                    if (j < n && !latex.at(j - 1).isLetter())
                        ++j;
                } else if (j < n) {
                    ++j;
                }
            }
            i = j;
            continue;
        }
        if (c == u'{' || c == u'(' || c == u'[')
            ++depth;
        else if (c == u'}' || c == u')' || c == u']')
            --depth;
        else if (depth == 0 && c == u',')
            out.push_back({i + 1, i + 1, 1});
        else if (depth == 0 && (c == u'=' || c == u'<' || c == u'>'))
            out.push_back({i, i, 2});
        else if (depth == 0 && (c == u'+' || c == u'-') && binary_at(latex, i))
            out.push_back({i, i, 3});
        ++i;
    }
    return out;
}

std::vector<Piece> display_pieces(const QString& latex, const std::vector<Break>& breaks, int strongest)
{
    std::vector<Piece> out;
    QString join;
    int from = 0;
    for (const Break& b : breaks) {
        if (b.strength > strongest)
            continue;
        const QString text = latex.mid(from, b.at - from).trimmed();
        if (!text.isEmpty())
            out.push_back({join, text});
        join = b.end > b.at ? latex.mid(b.at, b.end - b.at) + QLatin1Char(' ') : QString();
        from = b.end;
    }
    const QString rest = latex.mid(from).trimmed();
    if (!rest.isEmpty())
        out.push_back({join, rest});
    return out;
}

// The lines of a displayed formula too wide for `maxWidth`: broken at its weakest top-level breaks that
// make every line fit, else at all of them (a line that still does not fit scrolls). The formula is
// never typeset smaller than the text around it.
std::vector<QString> display_lines(const QString& latex, const math::FormulaStyle& fs, qreal maxWidth)
{
    const std::vector<Break> breaks = display_breaks(latex);
    std::vector<QString> best = {latex};
    for (int strongest = 0; strongest <= 3; ++strongest) {
        const std::vector<Piece> pieces = display_pieces(latex, breaks, strongest);
        if (pieces.size() < 2)
            continue;
        std::vector<QString> lines;
        bool fits = true, valid = true;
        QString line;
        const auto close = [&] {
            const math::Formula f = math::Formula::parse(line, fs);
            valid = valid && f.isValid();
            fits = fits && f.isValid() && f.size().width() <= maxWidth;
            lines.push_back(line);
        };
        for (const Piece& p : pieces) {
            const QString longer = line.isEmpty() ? p.latex : line + QLatin1Char(' ') + p.join + p.latex;
            const math::Formula f = math::Formula::parse(longer, fs);
            if (line.isEmpty() || (f.isValid() && f.size().width() <= maxWidth)) {
                line = longer;
                continue;
            }
            close();
            line = p.latex;
        }
        close();
        if (!valid)
            continue;
        best = std::move(lines);
        if (fits)
            break;
    }
    return best;
}

} // namespace

// The images of the document whose name starts with `scheme`, in text order. Collected first: changing a
// fragment's format while walking the fragments would invalidate the walk.
struct ImagePlace {
    int position, length;
    QString name;
};
static std::vector<ImagePlace> image_places(const QTextDocument* document, const char* scheme)
{
    std::vector<ImagePlace> places;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                continue;
            const QString name = fragment.charFormat().toImageFormat().name();
            if (name.startsWith(QLatin1String(scheme)))
                places.push_back({fragment.position(), fragment.length(), name});
        }
    return places;
}

// The lab's figures a lesson shows (`![…](lab-runs:copy/sweep.png)`, lesson_quotes.h): drawn from the
// shipped results as wide as the column (maxDisplayWidth, else 36 em), centred on a line of their own.
static void place_lab_figures(QTextDocument* document, const LessonTextStyle& style)
{
    const std::vector<ImagePlace> places = image_places(document, kLabFigureScheme);
    const qreal em = QFontMetricsF(document->defaultFont()).height();
    const qreal width = std::floor(style.maxDisplayWidth > 0 ? style.maxDisplayWidth : 36 * em);
    for (const ImagePlace& place : places) {
        const QImage image = lab_figure_image(place.name, width, std::max<qreal>(1, style.devicePixelRatio));
        if (image.isNull())
            continue; // lesson check refuses a lesson whose figure is missing; shown as its alt text
        document->addResource(QTextDocument::ImageResource, QUrl(place.name), image);
        QTextCursor cursor(document);
        cursor.setPosition(place.position);
        cursor.setPosition(place.position + place.length, QTextCursor::KeepAnchor);
        QTextImageFormat format = cursor.charFormat().toImageFormat();
        format.setWidth(width);
        format.setHeight(image.deviceIndependentSize().height());
        cursor.setCharFormat(format);
        QTextBlockFormat centred = cursor.blockFormat();
        centred.setAlignment(Qt::AlignHCenter);
        cursor.mergeBlockFormat(centred);
    }
}

void set_lesson_markdown(QTextDocument* document, const QString& markdown, const LessonTextStyle& style)
{
    std::vector<LessonPiece> pieces;
    try {
        pieces = split_formulas(markdown, QStringLiteral("lesson"), 1);
    } catch (const LessonError&) {
        pieces = {{markdown, std::nullopt}}; // unreachable for a lesson that was read: shown as written
    }
    QFont body = document->defaultFont();
    body.setPointSizeF(style.pointSize);
    document->setDefaultFont(body);
    const qreal textDescent = QFontMetricsF(body).descent();
    const qreal dpr = std::max<qreal>(1, style.devicePixelRatio);

    QString md;
    std::vector<Typeset> images;
    qsizetype glued = 0; // closing punctuation the previous inline formula's image took
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const LessonPiece& piece = pieces[k];
        if (!piece.formula) {
            md += keep_together(
                join_cjk_line_breaks(show_lesson_quotes(piece.markdown.mid(glued), QuoteForm::Text)));
            glued = 0;
            continue;
        }
        // Qt may break a line after an inline image whatever follows it: the closing punctuation right
        // after an inline formula ("$a^K_{ij}$：") is drawn in the formula's image, so it never starts a
        // line.
        QString trailing;
        if (!piece.formula->display && k + 1 < pieces.size() && !pieces[k + 1].formula) {
            const QString& next = pieces[k + 1].markdown;
            while (trailing.size() < 2 && trailing.size() < next.size() && closes(next[trailing.size()]))
                trailing += next[trailing.size()];
        }
        glued = trailing.size();
        LessonFormula f = *piece.formula;
        f.latex = show_lesson_quotes(f.latex, QuoteForm::Latex);
        math::FormulaStyle fs;
        fs.pointSize = style.pointSize * 1.1;
        fs.color = style.color;
        fs.display = f.display;
        const math::Formula formula = math::Formula::parse(f.latex, fs);
        if (!formula.isValid()) {
            md += QStringLiteral("`") + QString(f.latex).replace(QLatin1Char('`'), QLatin1Char('\'')) +
                  QStringLiteral("`");
            continue;
        }
        // An inline formula wider than the column (MLA's logit in a presented lesson) cannot stay in the
        // line: it takes a line of its own, as a displayed one does.
        if (!f.display && style.maxDisplayWidth > 0 && formula.size().width() > style.maxDisplayWidth)
            f.display = true;
        // A displayed formula wider than the column: lines, each at the full size.
        std::vector<math::Formula> lines = {formula};
        if (f.display && style.maxDisplayWidth > 0 && formula.size().width() > style.maxDisplayWidth) {
            lines.clear();
            for (const QString& line : display_lines(f.latex, fs, style.maxDisplayWidth))
                lines.push_back(math::Formula::parse(line, fs));
        }
        const qreal gap = 0.3 * fs.pointSize * 96.0 / 72.0;
        QSizeF size(0, 0);
        for (const math::Formula& line : lines)
            size = QSizeF(std::max(size.width(), line.size().width()), size.height() + line.size().height());
        size.rheight() += gap * static_cast<qreal>(lines.size() - 1);
        // A line that still does not fit (no break left, Transformer-XL's four terms in a 1280-px window):
        // the formula scaled down to the column rather than cut off behind a scroll bar.
        // The glued punctuation beside it counts (an inline formula that took its own line keeps it).
        const QFontMetricsF bodyMetrics(body);
        const qreal trailingWidth = trailing.isEmpty() ? 0.0 : bodyMetrics.horizontalAdvance(trailing);
        const qreal room = style.maxDisplayWidth - trailingWidth;
        const qreal fit = f.display && style.maxDisplayWidth > 0 && size.width() > room
                              ? std::max<qreal>(room, 1) / size.width()
                              : 1.0;
        const QSizeF unscaled = size;
        size *= fit;
        const qreal depth = size.height() - formula.baseline() * fit;
        // Inline: the image's bottom sits on the line's bottom (AlignBottom); padding below the formula's
        // depth up to the text's descent puts the formula's baseline on the text's.
        const qreal pad = f.display ? 0.0 : std::max<qreal>(0, textDescent - depth);
        // The glued punctuation on the formula's baseline, in the text's font: room beside the formula and
        // above it when the text's ascent is taller.
        const qreal above =
            trailing.isEmpty() ? 0.0 : std::max<qreal>(0, bodyMetrics.ascent() - formula.baseline());
        const QSizeF logical(std::ceil(size.width() + trailingWidth) + 2,
                             std::ceil(size.height() + pad + above) + 2);
        QImage image((logical * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
            painter.translate(1, 1 + above);
            // The glued punctuation after the last line, on its baseline (the formula's when one line).
            const math::Formula& last = lines.back();
            const qreal lastTop = unscaled.height() - last.size().height();
            if (!trailing.isEmpty()) {
                painter.setFont(body);
                painter.setPen(style.color);
                painter.drawText(QPointF((unscaled.width() + last.size().width()) / 2 * fit,
                                         (lastTop + last.baseline()) * fit),
                                 trailing);
            }
            painter.scale(fit, fit);
            qreal y = 0;
            for (const math::Formula& line : lines) {
                line.paint(&painter, QPointF((unscaled.width() - line.size().width()) / 2, y));
                y += line.size().height() + gap;
            }
        }
        const QString name = QStringLiteral("%1:%2").arg(QLatin1String(kScheme)).arg(images.size());
        images.push_back({std::move(image), logical, f.display});
        // Qt's Markdown reader inserts an image when it reads its alternative text: an empty one drops it.
        md += f.display ? QStringLiteral("\n\n![formula](%1)\n\n").arg(name)
                        : QStringLiteral("![formula](%1)").arg(name);
    }
    document->clear();
    document->setMarkdown(md);
    for (std::size_t i = 0; i < images.size(); ++i)
        document->addResource(QTextDocument::ImageResource,
                              QUrl(QStringLiteral("%1:%2").arg(QLatin1String(kScheme)).arg(i)),
                              images[i].image);
    place_lab_figures(document, style);

    // Sizes in logical units (the images are dpr times larger), alignment, centred display formulas.
    // Collected first: changing a fragment's format while walking the fragments would invalidate the walk.
    const std::vector<ImagePlace> places = image_places(document, kScheme);
    int placed = 0;
    for (const ImagePlace& place : places) {
        const auto index = static_cast<std::size_t>(place.name.section(QLatin1Char(':'), 1).toULongLong());
        if (index >= images.size())
            continue;
        ++placed;
        const Typeset& t = images[index];
        QTextCursor cursor(document);
        cursor.setPosition(place.position);
        cursor.setPosition(place.position + place.length, QTextCursor::KeepAnchor);
        QTextImageFormat format = cursor.charFormat().toImageFormat();
        format.setName(QStringLiteral("%1:%2").arg(QLatin1String(kScheme)).arg(index));
        format.setWidth(t.logical.width());
        format.setHeight(t.logical.height());
        format.setVerticalAlignment(t.display ? QTextCharFormat::AlignNormal : QTextCharFormat::AlignBottom);
        cursor.setCharFormat(format);
        if (t.display) {
            QTextBlockFormat centred = cursor.blockFormat();
            centred.setAlignment(Qt::AlignHCenter);
            cursor.mergeBlockFormat(centred);
        }
    }
    document->setProperty(kCountProperty, placed); // images placed in the text
}

FormulaChecker typeset_checker()
{
    return [](const QString& latex) {
        const math::Formula f = math::Formula::parse(latex);
        return f.isValid() ? QString() : f.error();
    };
}

int lesson_formula_count(const QTextDocument* document)
{
    return document->property(kCountProperty).toInt();
}

} // namespace posatlas::ui
