// SPDX-License-Identifier: GPL-3.0-or-later
// Stretched delimiters (a glyph at the text size, a drawn path when taller), \left ... \right with
// \middle, and the matrix, cases and aligned environments.
#include "math/formula_layout.h"

#include <cmath>

namespace posatlas::ui::math::detail {

qreal Layout::delimiterHeight(const Box& inner, Style st) const
{
    // Rule 19: cover the content symmetrically about the axis. TeX may fall short by \delimiterfactor 901
    // and \delimitershortfall 5pt but then picks the next larger font size, which usually overshoots;
    // drawn delimiters have any size, so they cover the content fully.
    const qreal e = em(st);
    const qreal a = axis_ * e;
    const qreal half = std::max(inner.h - a, inner.d + a);
    return std::max(2 * half + 0.04 * e, 1.0 * e);
}

// A delimiter `height` tall centred on the axis: a glyph at the text size, a drawn path when larger.
Box Layout::delimiter(const QString& delim, qreal height, Style st)
{
    const qreal e = em(st);
    const qreal t = rule_ * e;
    const qreal a = axis_ * e;
    Box b;
    if (delim == QLatin1String(".") || delim.isEmpty()) {
        b.w = 0.12 * e;
        return b;
    }
    if (height <= 1.2 * e) {
        const QString glyph = delim == QLatin1String("{") || delim == QLatin1String("}") ? delim : delim;
        Box g = glyphs(glyph, Font::Math, false, false, e);
        // Centre the glyph on the axis as TeX does for delimiters.
        const qreal shift = (g.h - g.d) / 2 - a;
        b.w = g.w;
        b.h = g.h - shift;
        b.d = g.d + shift;
        b.add(g, 0, shift);
        return b;
    }
    const qreal top = -a - height / 2, bottom = -a + height / 2, mid = -a;
    const qreal hEm = height / e;
    const QChar c = delim.at(0);
    QPainterPath p;
    qreal w = 0;
    const qreal side = 0.08 * e; // space either side of the drawn delimiter
    if (c == u'(' || c == u')') {
        w = e * std::min(0.3 + 0.05 * hEm, 0.6);
        const qreal tk = std::min(0.075 * e + 0.015 * height, 0.14 * e); // the stroke's thickness mid-height
        // Outer and inner outlines meet the ends side by side (the outer one left of the inner one), so
        // the stroke never pinches: with the ends the other way round the two outlines crossed near each
        // end, and a 14 pt parenthesis read as three broken pieces on screen. The ends are thinner than
        // the middle, as a font's, but not hairlines.
        const qreal xl = 0, xr = w, end = std::max(1.5 * t, 0.4 * tk);
        const qreal cOut = xl, cIn = xl + (tk - 0.25 * end) / 0.75; // mid-height: 0.25 end + 0.75 cIn = tk
        p.moveTo(xr - end, top);
        p.cubicTo(cOut, top + height * 0.28, cOut, bottom - height * 0.28, xr - end, bottom);
        p.lineTo(xr, bottom);
        p.cubicTo(cIn, bottom - height * 0.28, cIn, top + height * 0.28, xr, top);
        p.closeSubpath();
        if (c == u')')
            p = QTransform(-1, 0, 0, 1, w, 0).map(p);
    } else if (c == u'[' || c == u']' || c == QChar(0x230A) || c == QChar(0x230B) || c == QChar(0x2308) ||
               c == QChar(0x2309)) {
        w = 0.32 * e;
        const qreal stem = 1.4 * t;
        const bool topArm = c == u'[' || c == u']' || c == QChar(0x2308) || c == QChar(0x2309);
        const bool bottomArm = c == u'[' || c == u']' || c == QChar(0x230A) || c == QChar(0x230B);
        p.addRect(QRectF(0.05 * e, top, stem, height));
        if (topArm)
            p.addRect(QRectF(0.05 * e, top, w - 0.05 * e, t));
        if (bottomArm)
            p.addRect(QRectF(0.05 * e, bottom - t, w - 0.05 * e, t));
        p.setFillRule(Qt::WindingFill);
        p = p.simplified();
        if (c == u']' || c == QChar(0x230B) || c == QChar(0x2309))
            p = QTransform(-1, 0, 0, 1, w, 0).map(p);
    } else if (c == u'|' || c == QChar(0x2016)) {
        const bool dbl = c == QChar(0x2016);
        w = dbl ? 0.3 * e : 0.16 * e;
        if (dbl) {
            p.addRect(QRectF(0.06 * e, top, t, height));
            p.addRect(QRectF(w - 0.06 * e - t, top, t, height));
        } else
            p.addRect(QRectF(w / 2 - t / 2, top, t, height));
    } else if (c == u'{' || c == u'}') {
        w = e * std::min(0.4 + 0.02 * hEm, 0.6);
        const qreal xm = w / 2, r = std::min(0.2 * e, height / 8);
        // The stroke's ends are horizontal: keep its outline within top..bottom.
        const qreal top = -a - height / 2 + 0.8 * t, bottom = -a + height / 2 - 0.8 * t;
        QPainterPath q;
        q.moveTo(w, top);
        q.quadTo(xm, top, xm, top + r);
        q.lineTo(xm, mid - r);
        q.quadTo(xm, mid, 0, mid);
        q.quadTo(xm, mid, xm, mid + r);
        q.lineTo(xm, bottom - r);
        q.quadTo(xm, bottom, w, bottom);
        p = stroke(q, 1.6 * t);
        if (c == u'}')
            p = QTransform(-1, 0, 0, 1, w, 0).map(p);
    } else if (c == QChar(0x27E8) || c == QChar(0x27E9)) {
        w = e * std::min(0.3 + 0.04 * hEm, 0.55);
        QPainterPath q;
        q.moveTo(w, top);
        q.lineTo(0.04 * e, mid);
        q.lineTo(w, bottom);
        p = stroke(q, 1.2 * t);
        if (c == QChar(0x27E9))
            p = QTransform(-1, 0, 0, 1, w, 0).map(p);
    } else { // '/' and '\': a slanted stroke
        w = std::min(0.3 * height, 1.0 * e);
        QPainterPath q;
        if (c == u'/') {
            q.moveTo(0, bottom);
            q.lineTo(w, top);
        } else {
            q.moveTo(0, top);
            q.lineTo(w, bottom);
        }
        p = stroke(q, 1.2 * t);
    }
    p.translate(side, 0);
    b.items.push_back(pathItem(delim, p));
    b.w = w + 2 * side;
    b.h = a + height / 2;
    b.d = height / 2 - a;
    return b;
}

Box Layout::fenced(const QString& left, const QString& right, Box inner, Style st, qreal fixedHeight)
{
    const qreal height = fixedHeight > 0 ? fixedHeight : delimiterHeight(inner, st);
    Box l = delimiter(left, height, st);
    Box r = delimiter(right, height, st);
    Box b;
    b.add(l, 0, 0);
    b.add(inner, l.w, 0);
    b.add(r, l.w + inner.w, 0);
    b.w = l.w + inner.w + r.w;
    b.h = std::max({l.h, inner.h, r.h});
    b.d = std::max({l.d, inner.d, r.d});
    return b;
}

Box Layout::leftRight(const QString& left, const QString& right, const List& body, Style st, bool cramped)
{
    Box inner = list(body, st, cramped);
    const bool hasMiddle =
        std::any_of(body.begin(), body.end(), [](const NodeP& n) { return n->kind == NK::Middle; });
    if (!hasMiddle)
        return fenced(left, right, std::move(inner), st);
    // \middle: as tall as the outer pair, which is sized by the content without it.
    const qreal height = delimiterHeight(inner, st);
    return fenced(left, right, list(body, st, cramped, height), st, height);
}

// Matrices and cases: cells in text style, rows at least a strut (0.7/0.3 of \baselineskip 1.2em)
// apart, the whole centred on the axis; amsmath's column spacing (2 \arraycolsep = 1em; cases: 1em).
Box Layout::matrix(const Node& n, Style st)
{
    const Style cs = n.text == QLatin1String("smallmatrix") ? Style::S
                     : st <= Style::T ? (n.text == QLatin1String("aligned") ? Style::D : Style::T)
                                      : st;
    const qreal e = em(st);
    const qreal ce = em(cs);
    size_t cols = 0;
    for (const auto& row : n.rows)
        cols = std::max(cols, row.size());
    std::vector<std::vector<Box>> boxes(n.rows.size());
    std::vector<qreal> colW(cols, 0), rowH(n.rows.size(), 0), rowD(n.rows.size(), 0);
    const bool cases = n.text == QLatin1String("cases");
    const qreal strutH = (cases ? 0.85 : 0.7) * 1.2 * ce, strutD = (cases ? 0.45 : 0.3) * 1.2 * ce;
    for (size_t r = 0; r < n.rows.size(); ++r) {
        rowH[r] = strutH;
        rowD[r] = strutD;
        for (size_t c = 0; c < n.rows[r].size(); ++c) {
            boxes[r].push_back(list(n.rows[r][c], cs, false));
            colW[c] = std::max(colW[c], boxes[r][c].w);
            rowH[r] = std::max(rowH[r], boxes[r][c].h);
            rowD[r] = std::max(rowD[r], boxes[r][c].d);
        }
    }
    const bool aligned = n.text == QLatin1String("aligned");
    const qreal sep = aligned ? 0 : (n.text == QLatin1String("smallmatrix") ? 0.55 : 1.0) * ce;
    std::vector<qreal> colX(cols, 0);
    qreal x = cases ? 0.0 : 0.0;
    for (size_t c = 0; c < cols; ++c) {
        colX[c] = x;
        x += colW[c] + (c + 1 < cols ? sep : 0);
    }
    qreal total = 0;
    for (size_t r = 0; r < n.rows.size(); ++r)
        total += rowH[r] + rowD[r];
    Box inner;
    inner.w = x;
    const qreal a = axis_ * e;
    inner.h = total / 2 + a;
    inner.d = total / 2 - a;
    qreal y = -inner.h;
    for (size_t r = 0; r < n.rows.size(); ++r) {
        y += rowH[r];
        for (size_t c = 0; c < boxes[r].size(); ++c) {
            const Box& cell = boxes[r][c];
            qreal cx = colX[c] + (colW[c] - cell.w) / 2; // centred
            if (cases)
                cx = colX[c];
            else if (aligned)
                cx = c % 2 == 0 ? colX[c] + colW[c] - cell.w : colX[c];
            inner.add(cell, cx, y);
        }
        y += rowD[r];
    }
    static const QHash<QString, QPair<QString, QString>> fences = {
        {"pmatrix", {"(", ")"}},
        {"bmatrix", {"[", "]"}},
        {"Bmatrix", {"{", "}"}},
        {"vmatrix", {"|", "|"}},
        {"Vmatrix", {QString(QChar(0x2016)), QString(QChar(0x2016))}},
        {"cases", {"{", "."}}};
    const auto it = fences.find(n.text);
    if (it == fences.end()) {
        Box b;
        b.add(inner, 0.1 * e, 0);
        b.w = inner.w + 0.2 * e;
        b.h = inner.h;
        b.d = inner.d;
        return b;
    }
    // A little room between the fence and the cells (amsmath's \arraycolsep inside the delimiters is removed;
    // the drawn delimiters carry their own side bearing).
    Box padded;
    padded.add(inner, cases ? 0.12 * e : 0.06 * e, 0);
    padded.w = inner.w + (cases ? 0.12 * e : 0.12 * e);
    padded.h = inner.h;
    padded.d = inner.d;
    return fenced(it.value().first, it.value().second, std::move(padded), st);
}

} // namespace posatlas::ui::math::detail
