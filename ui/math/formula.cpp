// SPDX-License-Identifier: GPL-3.0-or-later
// The formula typesetter: LaTeX subset -> node tree (formula_parser.cpp) -> boxes of positioned items
// (formula_layout.cpp, formula_delimiters.cpp) -> one filled QPainterPath per item (glyph outlines, rules,
// stroked delimiters), painted many times.
#include "math/formula.h"

#include "math/formula_layout.h"
#include "math/formula_parser.h"

#include <QTransform>

#include <algorithm>
#include <cmath>
#include <new>

namespace posatlas::ui::math {

using namespace detail;

struct Formula::Data {
    bool valid = false;
    QString error;
    QSizeF size;
    qreal baseline = 0;
    QColor color;
    std::vector<FormulaItem> items;
    std::vector<QPainterPath> paths;
};

Formula::Formula() : d_(std::make_shared<Data>()) {}

Formula Formula::parse(const QString& latex, const FormulaStyle& style)
{
    auto data = std::make_shared<Data>();
    data->color = style.color;
    const auto columnOf = [&latex](int pos) {
        // 1-based column in characters (a surrogate pair is one character).
        int col = 1;
        for (int i = 0; i < std::min<int>(pos, int(latex.size())); ++i)
            if (!latex.at(i).isLowSurrogate())
                ++col;
        return col;
    };
    try {
        if (latex.size() > kMaxLength)
            throw ParseError{kMaxLength,
                             FormulaTexts::tr("the formula is longer than %1 characters").arg(kMaxLength)};
        if (latex.trimmed().isEmpty())
            throw ParseError{0, FormulaTexts::tr("the formula is empty")};
        if (!(style.pointSize > 0 && style.pointSize <= 1000))
            throw ParseError{
                0, FormulaTexts::tr("point size %1 is outside 0 < size <= 1000").arg(style.pointSize)};
        const List root = parse_tree(latex);
        const qreal px = style.pointSize * 96.0 / 72.0; // one em at 96 dpi
        Layout layout(px);
        Box box = layout.list(root, style.display ? Style::D : Style::T, false);
        // A little room so that italic overhangs and drawn strokes are not clipped.
        const qreal margin = 0.08 * px;
        QRectF ink(0, -box.h, box.w, box.h + box.d);
        for (const Item& it : box.items) {
            if (it.kind == FormulaItem::Kind::Glyphs)
                continue;
            ink = ink.united(it.path.boundingRect());
        }
        const qreal left = std::min(0.0, ink.left()) - margin;
        const qreal top = ink.top() - margin;
        data->baseline = -top;
        data->size =
            QSizeF(std::max(ink.right(), box.w) - left + margin + box.italic, ink.bottom() - top + margin);
        const QPointF shift(-left, -top);
        const FontSet& fonts = layout.fonts(); // the fonts the layout measured with
        for (const Item& it : box.items) {
            FormulaItem out;
            out.kind = it.kind;
            out.text = it.text;
            out.bold = it.bold;
            out.italic = it.italic;
            out.sizePx = it.size;
            QPainterPath p;
            if (it.kind == FormulaItem::Kind::Glyphs) {
                const QFont& f = fonts.fonts[int(it.font)][(it.bold ? 1 : 0) | (it.italic ? 2 : 0)];
                QPainterPath g;
                g.addText(QPointF(0, 0), f, it.text);
                const qreal k = it.size / kRefPx;
                p = QTransform::fromTranslate(it.pos.x() + shift.x(), it.pos.y() + shift.y())
                        .scale(k, k)
                        .map(g);
                out.box = it.rect.translated(shift);
                out.baseline = it.pos.y() + shift.y();
            } else {
                p = it.path.translated(shift);
                out.box = p.boundingRect();
                out.baseline = out.box.bottom();
            }
            data->paths.push_back(std::move(p));
            data->items.push_back(std::move(out));
            // Glyph ink may reach outside the advance box (italic overhang): grow the size to hold it.
            const QRectF bounds = data->paths.back().boundingRect();
            if (!bounds.isEmpty())
                data->size =
                    data->size.expandedTo(QSizeF(bounds.right() + margin / 2, bounds.bottom() + margin / 2));
        }
        data->valid = true;
    } catch (const ParseError& e) {
        data = std::make_shared<Data>();
        data->error = FormulaTexts::tr("column %1: %2").arg(columnOf(e.pos)).arg(e.message);
    } catch (const std::bad_alloc&) {
        data = std::make_shared<Data>();
        data->error = FormulaTexts::tr("column %1: %2").arg(1).arg(FormulaTexts::tr("out of memory"));
    } catch (...) {
        data = std::make_shared<Data>();
        data->error = FormulaTexts::tr("column %1: %2").arg(1).arg(FormulaTexts::tr("internal error"));
    }
    Formula f;
    f.d_ = std::move(data);
    return f;
}

bool Formula::isValid() const
{
    return d_->valid;
}
QString Formula::error() const
{
    return d_->error;
}
QSizeF Formula::size() const
{
    return d_->valid ? d_->size : QSizeF();
}
qreal Formula::baseline() const
{
    return d_->baseline;
}
const std::vector<FormulaItem>& Formula::items() const
{
    return d_->items;
}

void Formula::paint(QPainter* painter, const QPointF& topLeft) const
{
    if (!painter || !d_->valid)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(Qt::NoPen);
    painter->setBrush(d_->color);
    painter->translate(topLeft);
    for (const QPainterPath& p : d_->paths)
        painter->drawPath(p);
    painter->restore();
}

QImage renderFormula(const QString& latex, const FormulaStyle& style, qreal devicePixelRatio, QString* error)
{
    const Formula f = Formula::parse(latex, style);
    if (!f.isValid()) {
        if (error)
            *error = f.error();
        return {};
    }
    const qreal dpr = std::clamp(devicePixelRatio, 0.25, 8.0);
    const QSize pixels(std::max(1, int(std::ceil(f.size().width() * dpr))),
                       std::max(1, int(std::ceil(f.size().height() * dpr))));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        if (error)
            *error = FormulaTexts::tr("the image of %1 x %2 pixels could not be allocated")
                         .arg(pixels.width())
                         .arg(pixels.height());
        return {};
    }
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    f.paint(&painter, QPointF(0, 0));
    painter.end();
    if (error)
        error->clear();
    return image;
}

} // namespace posatlas::ui::math
