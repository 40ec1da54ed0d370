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

} // namespace

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
    for (const LessonPiece& piece : pieces) {
        if (!piece.formula) {
            md += join_cjk_line_breaks(show_lesson_quotes(piece.markdown, QuoteForm::Text));
            continue;
        }
        LessonFormula f = *piece.formula;
        f.latex = show_lesson_quotes(f.latex, QuoteForm::Latex);
        math::FormulaStyle fs;
        fs.pointSize = style.pointSize * 1.1;
        fs.color = style.color;
        fs.display = f.display;
        math::Formula formula = math::Formula::parse(f.latex, fs);
        if (formula.isValid() && f.display && style.maxDisplayWidth > 0 &&
            formula.size().width() > style.maxDisplayWidth) {
            fs.pointSize *= std::max(0.5, style.maxDisplayWidth / formula.size().width());
            formula = math::Formula::parse(f.latex, fs);
        }
        if (!formula.isValid()) {
            md += QStringLiteral("`") + QString(f.latex).replace(QLatin1Char('`'), QLatin1Char('\'')) +
                  QStringLiteral("`");
            continue;
        }
        const QSizeF size = formula.size();
        const qreal depth = size.height() - formula.baseline();
        // Inline: the image's bottom sits on the line's bottom (AlignBottom); padding below the formula's
        // depth up to the text's descent puts the formula's baseline on the text's.
        const qreal pad = f.display ? 0.0 : std::max<qreal>(0, textDescent - depth);
        const QSizeF logical(std::ceil(size.width()) + 2, std::ceil(size.height() + pad) + 2);
        QImage image((logical * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
            formula.paint(&painter, QPointF(1, 1));
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

    // Sizes in logical units (the images are dpr times larger), alignment, centred display formulas.
    // Collected first: changing a fragment's format while walking the fragments would invalidate the walk.
    struct Place {
        int position, length;
        std::size_t index;
    };
    std::vector<Place> places;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                continue;
            const QString name = fragment.charFormat().toImageFormat().name();
            if (!name.startsWith(QLatin1String(kScheme)))
                continue;
            const auto index = static_cast<std::size_t>(name.section(QLatin1Char(':'), 1).toULongLong());
            if (index < images.size())
                places.push_back({fragment.position(), fragment.length(), index});
        }
    for (const Place& place : places) {
        const Typeset& t = images[place.index];
        QTextCursor cursor(document);
        cursor.setPosition(place.position);
        cursor.setPosition(place.position + place.length, QTextCursor::KeepAnchor);
        QTextImageFormat format = cursor.charFormat().toImageFormat();
        format.setName(QStringLiteral("%1:%2").arg(QLatin1String(kScheme)).arg(place.index));
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
    document->setProperty(kCountProperty, static_cast<int>(places.size())); // images placed in the text
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
