// SPDX-License-Identifier: GPL-3.0-or-later
// Node tree -> boxes of positioned items, after the TeXbook's appendix G (rules 11-20), with Computer
// Modern's font parameters sigma/xi expressed in em. formula_layout.cpp holds atoms, scripts, fractions,
// radicals, accents and lists; formula_delimiters.cpp the stretched delimiters and matrices. Internal.
#pragma once

#include "math/formula.h"
#include "math/formula_tree.h"

#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPainterPath>
#include <QPainterPathStroker>

#include <algorithm>

namespace posatlas::ui::math::detail {

// ---------------------------------------------------------------------------------------------------
// Boxes and layout

struct Item {
    FormulaItem::Kind kind = FormulaItem::Kind::Glyphs;
    QString text;
    Font font = Font::Roman;
    bool bold = false, italic = false;
    qreal size = 0;    // em in px
    QPointF pos;       // Glyphs: baseline origin; relative to the box origin (baseline left, y down)
    QRectF rect;       // Rule: the rectangle; Glyphs: advance box
    QPainterPath path; // Path: filled outline
};

struct Box {
    qreal w = 0, h = 0, d = 0;
    qreal italic = 0; // italic correction of a single character
    bool isChar = false;
    std::vector<Item> items;

    void add(const Box& b, qreal x, qreal y)
    {
        for (const Item& it : b.items) {
            Item c = it;
            c.pos += QPointF(x, y);
            c.rect.translate(x, y);
            if (!c.path.isEmpty())
                c.path.translate(x, y);
            items.push_back(std::move(c));
        }
    }
};

constexpr qreal kRefPx = 200; // fonts are measured and outlined at this pixel size, then scaled

struct FontSet {
    QFont fonts[6][4]; // by Font, by (bold, italic)
    QFontMetricsF* metrics[6][4] = {};
    std::vector<std::unique_ptr<QFontMetricsF>> owned;

    FontSet()
    {
        const QStringList serif = {"DejaVu Serif", "Noto Serif CJK SC", "Noto Serif", "FreeSerif",
                                   "Liberation Serif"};
        const QStringList math = {"DejaVu Math TeX Gyre", "DejaVu Serif", "DejaVu Sans", "Noto Sans Math"};
        for (int f = 0; f < 6; ++f) {
            for (int v = 0; v < 4; ++v) {
                QFont font;
                font.setFamilies(Font(f) == Font::Math ? math : serif);
                font.setStyleHint(QFont::Serif, QFont::PreferOutline);
                font.setHintingPreference(QFont::PreferNoHinting);
                font.setKerning(true);
                font.setPixelSize(int(kRefPx));
                font.setBold(v & 1);
                font.setItalic(v & 2);
                fonts[f][v] = font;
                owned.push_back(std::make_unique<QFontMetricsF>(font));
                metrics[f][v] = owned.back().get();
            }
        }
    }
};

struct Measure {
    qreal advance, top, bottom, right; // in em
};

class Layout
{
public:
    explicit Layout(qreal basePx) : base_(basePx)
    {
        const QFontMetricsF& fm = *fs_.metrics[int(Font::Roman)][0];
        xh_ = fm.xHeight() / kRefPx;
        if (!(xh_ > 0.2 && xh_ < 0.8))
            xh_ = 0.45;
        const QRectF plus = fs_.metrics[int(Font::Math)][0]->tightBoundingRect(QStringLiteral("+"));
        axis_ = -(plus.top() + plus.bottom()) / 2 / kRefPx;
        if (!(axis_ > 0.15 && axis_ < 0.4))
            axis_ = 0.25;
        const QRectF minus = fs_.metrics[int(Font::Math)][0]->tightBoundingRect(QString(QChar(0x2212)));
        rule_ = std::clamp(minus.height() / kRefPx * 0.8, 0.035, 0.07);
    }

    Box list(const List& nodes, Style st, bool cramped, qreal middleHeight = -1);
    const FontSet& fonts() const { return fs_; }

private:
    FontSet fs_;
    qreal base_;
    qreal xh_ = 0.45, axis_ = 0.25, rule_ = 0.045;
    QHash<QString, Measure> cache_;

    qreal em(Style st) const { return base_ * (st == Style::S ? 0.7 : st == Style::SS ? 0.5 : 1.0); }
    static Style supStyle(Style st) { return st <= Style::T ? Style::S : Style::SS; }
    static Style fracStyle(Style st)
    {
        return st == Style::D ? Style::T : st == Style::T ? Style::S : Style::SS;
    }

    int variant(bool bold, bool italic) const { return (bold ? 1 : 0) | (italic ? 2 : 0); }

    Measure measure(const QString& text, Font font, bool bold, bool italic)
    {
        const QString key = QString::number(int(font) * 4 + variant(bold, italic)) + QLatin1Char('|') + text;
        if (const auto it = cache_.find(key); it != cache_.end())
            return it.value();
        const QFontMetricsF& fm = *fs_.metrics[int(font)][variant(bold, italic)];
        const QRectF ink = fm.tightBoundingRect(text);
        Measure m{fm.horizontalAdvance(text) / kRefPx, ink.top() / kRefPx, ink.bottom() / kRefPx,
                  ink.right() / kRefPx};
        cache_.insert(key, m);
        return m;
    }

    Box glyphs(const QString& text, Font font, bool bold, bool italic, qreal px)
    {
        const Measure m = measure(text, font, bold, italic);
        Box b;
        b.w = m.advance * px;
        b.h = std::max(0.0, -m.top * px);
        b.d = std::max(0.0, m.bottom * px);
        if (italic)
            b.italic = std::max(0.0, (m.right - m.advance) * px);
        Item it;
        it.kind = FormulaItem::Kind::Glyphs;
        it.text = text;
        it.font = font;
        it.bold = bold;
        it.italic = italic;
        it.size = px;
        it.pos = QPointF(0, 0);
        it.rect = QRectF(0, -b.h, b.w, b.h + b.d);
        b.items.push_back(std::move(it));
        return b;
    }

    Box rule(qreal x, qreal y, qreal w, qreal h)
    {
        Box b;
        Item it;
        it.kind = FormulaItem::Kind::Rule;
        it.text = QStringLiteral("rule");
        it.rect = QRectF(x, y, w, h);
        it.path.addRect(it.rect);
        b.items.push_back(std::move(it));
        return b;
    }

    static Item pathItem(const QString& what, const QPainterPath& p)
    {
        Item it;
        it.kind = FormulaItem::Kind::Path;
        it.text = what;
        it.path = p;
        it.rect = p.boundingRect();
        return it;
    }

    static QPainterPath stroke(const QPainterPath& p, qreal width, Qt::PenCapStyle cap = Qt::FlatCap)
    {
        QPainterPathStroker st;
        st.setWidth(width);
        st.setCapStyle(cap);
        st.setJoinStyle(Qt::MiterJoin);
        QPainterPath out = st.createStroke(p);
        out.setFillRule(Qt::WindingFill);
        return out.simplified();
    }

    Box primes(int count, qreal px);
    Box symbol(const Node& n, Style st);
    Box atom(const Node& n, Style st, bool cramped, qreal middleHeight);
    Box scripts(Box nucleus, const Node& n, Style st, bool cramped);
    Box limits(Box op, const Node& n, Style st, bool cramped);
    Box fraction(const Node& n, Style st, bool cramped);
    Box radical(const Node& n, Style st);
    Box accent(const Node& n, Style st, bool cramped);
    Box delimiter(const QString& delim, qreal height, Style st);
    Box leftRight(const QString& left, const QString& right, const List& body, Style st, bool cramped);
    Box fenced(const QString& left, const QString& right, Box inner, Style st, qreal fixedHeight = -1);
    Box matrix(const Node& n, Style st);
    qreal delimiterHeight(const Box& inner, Style st) const;
};

} // namespace posatlas::ui::math::detail
