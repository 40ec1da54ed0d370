// SPDX-License-Identifier: GPL-3.0-or-later
#include "math/formula_layout.h"

#include <cmath>

namespace posatlas::ui::math::detail {

// Primes drawn as TeX draws \prime: a wedge about half an em tall that stands on the baseline, made to
// be read at script size (cmsy10's prime: height 0.56 em, width 0.275 em). A font's U+2032 is a text
// prime already placed high and small: as a superscript it shrank to a faint dot above the letter.
Box Layout::primes(int count, qreal px)
{
    Box b;
    const qreal pitch = 0.25 * px;
    QPainterPath p;
    for (int k = 0; k < count; ++k) {
        const qreal x = k * pitch;
        QPainterPath wedge;
        wedge.moveTo(x + 0.13 * px, -0.51 * px);
        wedge.cubicTo(x + 0.15 * px, -0.6 * px, x + 0.29 * px, -0.6 * px, x + 0.285 * px, -0.5 * px);
        wedge.lineTo(x + 0.095 * px, -0.045 * px);
        wedge.quadTo(x + 0.07 * px, -0.005 * px, x + 0.05 * px, -0.05 * px);
        wedge.closeSubpath();
        p.addPath(wedge);
    }
    b.items.push_back(pathItem(QStringLiteral("prime"), p));
    b.w = (count - 1) * pitch + 0.3 * px;
    b.h = 0.59 * px;
    b.d = 0;
    return b;
}

Box Layout::symbol(const Node& n, Style st)
{
    if (n.font == Font::Math && !n.text.isEmpty() &&
        std::all_of(n.text.begin(), n.text.end(), [](QChar c) { return c == QChar(0x2032); }))
        return primes(int(n.text.size()), em(st));
    qreal px = em(st);
    Font font = n.font;
    bool bold = false, italic = false;
    switch (n.font) {
    case Font::Italic:
        font = Font::Roman;
        italic = true;
        break;
    case Font::Bold:
        font = Font::Roman;
        bold = true;
        break;
    case Font::BoldItalic:
        font = Font::Roman;
        bold = true;
        italic = true;
        break;
    case Font::Text:
        bold = n.wide;
        italic = n.limitsDefault;
        break;
    default: break;
    }
    if (n.bigOp && st == Style::D)
        px *= 1.45; // the display-size operator (TeX's next larger \sum in cmex10 is about 1.4x)
    Box b = glyphs(n.text, font, bold, italic, px);
    b.isChar = n.text.size() == 1 || (n.text.size() == 2 && n.text.at(0).isHighSurrogate());
    if (n.bigOp) {
        // Centre the operator on the math axis (rule 13).
        const qreal shift = (b.h - b.d) / 2 - axis_ * em(st);
        Box c;
        c.w = b.w;
        c.h = b.h - shift;
        c.d = b.d + shift;
        c.italic = b.italic;
        c.add(b, 0, shift);
        // The integral's slant: scripts sit further right (TeX's italic correction of \int).
        if (n.text.at(0) == QChar(0x222B) || n.text.at(0) == QChar(0x222C) || n.text.at(0) == QChar(0x222E))
            c.italic = 0.15 * em(st) * (st == Style::D ? 1.45 : 1.0);
        return c;
    }
    return b;
}

Box Layout::atom(const Node& n, Style st, bool cramped, qreal middleHeight)
{
    Box nucleus;
    switch (n.kind) {
    case NK::Sym: nucleus = symbol(n, st); break;
    case NK::Group: nucleus = list(n.body, st, cramped); break;
    case NK::Frac: nucleus = fraction(n, st, cramped); break;
    case NK::Sqrt: nucleus = radical(n, st); break;
    case NK::Accent: nucleus = accent(n, st, cramped); break;
    case NK::LeftRight: nucleus = leftRight(n.text, n.rightDelim, n.body, st, cramped); break;
    case NK::Delim:
        nucleus = delimiter(n.text, n.size * base_ * (st >= Style::S ? em(st) / base_ : 1.0), st);
        break;
    case NK::Middle: nucleus = delimiter(n.text, std::max(middleHeight, 0.0), st); break;
    case NK::Matrix: nucleus = matrix(n, st); break;
    case NK::Space:
    case NK::StyleSwitch: break;
    }
    if (!n.sub && !n.sup)
        return nucleus;
    const bool useLimits =
        n.cls == Cls::Op && (n.limits == 1 || (n.limits == -1 && n.limitsDefault && st == Style::D));
    return useLimits ? limits(std::move(nucleus), n, st, cramped)
                     : scripts(std::move(nucleus), n, st, cramped);
}

// Rule 18: superscripts and subscripts (sigma 13-19 of cmsy10 and xi 8 of cmex10, in em).
Box Layout::scripts(Box nuc, const Node& n, Style st, bool cramped)
{
    const qreal e = em(st);
    const Style ss = supStyle(st);
    const qreal es = em(ss);
    const qreal t = rule_ * e;
    Box sup, sub;
    if (n.sup)
        sup = atom(*n.sup, ss, cramped, -1);
    if (n.sub)
        sub = atom(*n.sub, ss, true, -1);
    qreal u = nuc.isChar ? 0 : nuc.h - 0.386 * es; // sup_drop
    qreal v = nuc.isChar ? 0 : nuc.d + 0.05 * es;  // sub_drop
    const qreal xh = xh_ * e;
    if (n.sup) {
        const qreal p = cramped ? 0.289 * e : st == Style::D ? 0.413 * e : 0.363 * e;
        u = std::max({u, p, sup.d + xh / 4});
    }
    if (n.sub && !n.sup)
        v = std::max({v, 0.15 * e, sub.h - 0.8 * xh});
    if (n.sub && n.sup) {
        v = std::max(v, 0.247 * e);
        const qreal gap = (u - sup.d) - (sub.h - v);
        if (gap < 4 * t) {
            v += 4 * t - gap;
            const qreal psi = 0.8 * xh - (u - sup.d);
            if (psi > 0) {
                u += psi;
                v -= psi;
            }
        }
    }
    Box b;
    const qreal x = nuc.w;
    const qreal supX = x + nuc.italic;
    // An operator's subscript tucks under its slant (integral): no italic correction for it.
    b.add(nuc, 0, 0);
    qreal right = x;
    b.h = nuc.h;
    b.d = nuc.d;
    if (n.sup) {
        b.add(sup, supX, -u);
        right = std::max(right, supX + sup.w);
        b.h = std::max(b.h, u + sup.h);
        b.d = std::max(b.d, sup.d - u);
    }
    if (n.sub) {
        const qreal subX = n.cls == Cls::Op ? x : x;
        b.add(sub, subX, v);
        right = std::max(right, subX + sub.w);
        b.d = std::max(b.d, v + sub.d);
        b.h = std::max(b.h, sub.h - v);
    }
    b.w = right + 0.05 * e; // \scriptspace
    return b;
}

// Rule 13a: limits above and below a display operator (xi 9-13 of cmex10).
Box Layout::limits(Box op, const Node& n, Style st, bool cramped)
{
    const qreal e = em(st);
    const Style ss = supStyle(st);
    Box sup, sub;
    if (n.sup)
        sup = atom(*n.sup, ss, cramped, -1);
    if (n.sub)
        sub = atom(*n.sub, ss, true, -1);
    const qreal w = std::max({op.w, sup.w, sub.w});
    Box b;
    b.w = w;
    b.add(op, (w - op.w) / 2, 0);
    b.h = op.h;
    b.d = op.d;
    if (n.sup) {
        const qreal shift = op.h + std::max(0.111 * e, 0.2 * e - sup.d) + sup.d;
        b.add(sup, (w - sup.w) / 2 + op.italic / 2, -shift);
        b.h = shift + sup.h + 0.1 * e;
    }
    if (n.sub) {
        const qreal shift = op.d + std::max(0.167 * e, 0.6 * e - sub.h) + sub.h;
        b.add(sub, (w - sub.w) / 2 - op.italic / 2, shift);
        b.d = shift + sub.d + 0.1 * e;
    }
    return b;
}

// Rule 15: fractions; the bar sits on the math axis.
Box Layout::fraction(const Node& n, Style st, bool cramped)
{
    const Style fs = n.fracStyle >= 0 ? Style(n.fracStyle) : st;
    const qreal e = em(fs);
    const qreal t = rule_ * e;
    const qreal a = axis_ * e;
    const Style inner = fracStyle(fs);
    Box num = list(n.body, inner, cramped);
    Box den = list(n.body2, inner, true);
    qreal u = fs == Style::D ? 0.677 * e : n.bar ? 0.394 * e : 0.444 * e;
    qreal v = fs == Style::D ? 0.686 * e : 0.345 * e;
    if (n.bar) {
        const qreal phi = fs == Style::D ? 3 * t : t;
        const qreal numGap = (u - num.d) - (a + t / 2);
        if (numGap < phi)
            u += phi - numGap;
        const qreal denGap = (a - t / 2) - (den.h - v);
        if (denGap < phi)
            v += phi - denGap;
    } else {
        const qreal phi = fs == Style::D ? 7 * t : 3 * t;
        const qreal gap = (u - num.d) - (den.h - v);
        if (gap < phi) {
            u += (phi - gap) / 2;
            v += (phi - gap) / 2;
        }
    }
    const qreal pad = 0.12 * e; // \nulldelimiterspace on each side
    const qreal over = n.bar ? 0.06 * e : 0;
    const qreal inner_w = std::max(num.w, den.w) + 2 * over;
    Box b;
    b.w = inner_w + 2 * pad;
    b.add(num, pad + (inner_w - num.w) / 2, -u);
    b.add(den, pad + (inner_w - den.w) / 2, v);
    if (n.bar)
        b.add(rule(pad, -a - t / 2, inner_w, t), 0, 0);
    b.h = u + num.h;
    b.d = v + den.d;
    if (!n.bar) // \binom: parentheses of the delimiter size 2.39em / 1.01em (sigma 20, 21)
        return fenced(QStringLiteral("("), QStringLiteral(")"), std::move(b), fs);
    return b;
}

// Rule 11: the radical sign drawn as a path over the body, the overline a rule thickness thick.
Box Layout::radical(const Node& n, Style st)
{
    const qreal e = em(st);
    const qreal t = rule_ * e;
    Box body = list(n.body, st, true);
    const qreal phi = st == Style::D ? xh_ * e : t;
    const qreal clr = t + phi / 4;
    const qreal top = -(std::max(body.h, xh_ * e) + clr + t);
    const qreal bottom = std::max(body.d, 0.0) + clr + 0.04 * e;
    const qreal height = bottom - top;
    const qreal sw = e * (0.5 + 0.06 * std::min(height / e, 5.0));
    Box index;
    qreal x0 = 0;
    if (!n.body2.empty()) {
        index = list(n.body2, Style::SS, false);
        x0 = std::max(0.0, index.w + 0.15 * e - 0.55 * sw);
    }
    // The sign: a short upstroke, a heavy downstroke to the bottom, a thin long stroke up to the bar.
    const qreal hookY = bottom - std::min(0.45 * height, 0.5 * e);
    QPainterPath thin;
    thin.moveTo(x0 + 0.42 * sw, bottom);
    thin.lineTo(x0 + sw, top + t / 2);
    thin.lineTo(x0 + sw + body.w + 0.1 * e, top + t / 2);
    QPainterPath heavy;
    heavy.moveTo(x0, hookY + 0.08 * e);
    heavy.lineTo(x0 + 0.16 * sw, hookY);
    heavy.lineTo(x0 + 0.42 * sw, bottom - t);
    QPainterPath sign = stroke(thin, t).united(stroke(heavy, 2.0 * t));
    Box b;
    b.items.push_back(pathItem(QStringLiteral("sqrt"), sign));
    b.add(body, x0 + sw + 0.05 * e, 0);
    b.w = x0 + sw + body.w + 0.1 * e + 0.05 * e;
    b.h = -top;
    b.d = bottom;
    if (!n.body2.empty()) {
        const qreal raise =
            0.6 * height - bottom + index.d; // the index's bottom at 60 % of the sign (plain.tex \root)
        const qreal ix = std::max(0.0, x0 + 0.55 * sw - index.w - 0.05 * e);
        b.add(index, ix, -raise);
        b.h = std::max(b.h, raise + index.h);
    }
    return b;
}

// Rule 12: accents over the body (skewed right over italic letters), rules for over/underline.
Box Layout::accent(const Node& n, Style st, bool cramped)
{
    const qreal e = em(st);
    const qreal t = rule_ * e;
    Box body = list(n.body, st, true);
    Box b;
    b.w = body.w;
    b.d = body.d;
    b.add(body, 0, 0);
    (void)cramped;
    if (n.text == QLatin1String("underline")) {
        b.add(rule(0, body.d + 2 * t, body.w, t), 0, 0);
        b.d = body.d + 3 * t;
        b.h = body.h;
        return b;
    }
    if (n.text == QLatin1String("overline")) {
        b.add(rule(0, -(body.h + 3 * t), body.w, t), 0, 0);
        b.h = body.h + 4 * t;
        return b;
    }
    // A single italic letter: the accent is centred over the slanted stem (TeX's skewchar kern).
    bool italicChar = false;
    if (n.body.size() == 1 && n.body.front()->kind == NK::Sym && n.body.front()->text.size() == 1)
        italicChar = n.body.front()->font == Font::Italic || n.body.front()->font == Font::BoldItalic;
    const qreal cx = body.w / 2 + (italicChar ? 0.08 * e : 0);
    const qreal base = -(std::max(body.h, xh_ * e) + 0.08 * e);
    const qreal w = n.wide ? std::max(body.w, 0.4 * e) : 0.36 * e;
    QPainterPath p;
    qreal top = base - 0.14 * e;
    const QString& a = n.text;
    if (a == QLatin1String("hat") || a == QLatin1String("widehat")) {
        const qreal hgt = n.wide ? std::min(0.25 * e, 0.1 * e + 0.05 * w) : 0.16 * e;
        QPainterPath c;
        c.moveTo(cx - w / 2, base);
        c.lineTo(cx, base - hgt);
        c.lineTo(cx + w / 2, base);
        p = stroke(c, 1.2 * t);
        top = base - hgt - t;
    } else if (a == QLatin1String("check")) {
        QPainterPath c;
        c.moveTo(cx - w / 2, base - 0.16 * e);
        c.lineTo(cx, base);
        c.lineTo(cx + w / 2, base - 0.16 * e);
        p = stroke(c, 1.2 * t);
        top = base - 0.16 * e - t;
    } else if (a == QLatin1String("tilde") || a == QLatin1String("widetilde")) {
        const qreal hgt = 0.09 * e;
        QPainterPath c;
        c.moveTo(cx - w / 2, base - hgt * 0.2);
        c.cubicTo(cx - w / 4, base - hgt * 1.6, cx, base - hgt * 0.6, cx, base - hgt * 0.5);
        c.cubicTo(cx, base - hgt * 0.4, cx + w / 4, base + hgt * 0.6, cx + w / 2, base - hgt * 0.8);
        p = stroke(c, 1.3 * t, Qt::RoundCap);
        top = base - hgt * 1.4 - t;
    } else if (a == QLatin1String("bar")) {
        p.addRect(QRectF(cx - w / 2, base - t, w, t));
        top = base - t;
    } else if (a == QLatin1String("vec") || a == QLatin1String("overrightarrow")) {
        const qreal aw = n.wide ? body.w : 0.42 * e;
        const qreal y = base - 0.08 * e;
        const qreal l = n.wide ? 0 : cx - aw / 2 + (italicChar ? 0.02 * e : 0);
        QPainterPath c;
        c.moveTo(l, y);
        c.lineTo(l + aw, y);
        QPainterPath head;
        head.moveTo(l + aw - 0.12 * e, y - 0.08 * e);
        head.lineTo(l + aw, y);
        head.lineTo(l + aw - 0.12 * e, y + 0.08 * e);
        p = stroke(c, t).united(stroke(head, t));
        top = y - 0.08 * e - t;
        b.w = std::max(b.w, l + aw);
    } else if (a == QLatin1String("dot") || a == QLatin1String("ddot")) {
        const qreal r = 0.05 * e;
        const qreal y = base - r;
        if (a == QLatin1String("dot"))
            p.addEllipse(QPointF(cx, y), r, r);
        else {
            p.addEllipse(QPointF(cx - 0.11 * e, y), r, r);
            p.addEllipse(QPointF(cx + 0.11 * e, y), r, r);
        }
        top = y - r;
    } else if (a == QLatin1String("breve")) {
        QPainterPath c;
        c.moveTo(cx - w / 2, base - 0.14 * e);
        c.quadTo(cx, base + 0.06 * e, cx + w / 2, base - 0.14 * e);
        p = stroke(c, 1.2 * t);
        top = base - 0.14 * e - t;
    }
    b.items.push_back(pathItem(a, p));
    b.h = std::max(body.h, -top);
    return b;
}

// Rules 5-20 for a list: atom classes (Bin -> Ord where it cannot be binary), TeX's spacing table.
Box Layout::list(const List& nodes, Style st, bool cramped, qreal middleHeight)
{
    // Spacing between atom classes in mu (0: none, 1: thin 3mu, 2: medium 4mu, 3: thick 5mu; negative:
    // only in display and text style), the TeXbook chapter 18 table.
    static const int table[8][8] = {
        /*Ord*/ {0, 1, -2, -3, 0, 0, 0, -1},
        /*Op*/ {1, 1, 0, -3, 0, 0, 0, -1},
        /*Bin*/ {-2, -2, 0, 0, -2, 0, 0, -2},
        /*Rel*/ {-3, -3, 0, 0, -3, 0, 0, -3},
        /*Open*/ {0, 0, 0, 0, 0, 0, 0, 0},
        /*Close*/ {0, 1, -2, -3, 0, 0, 0, -1},
        /*Punct*/ {-1, -1, 0, -1, -1, -1, -1, -1},
        /*Inner*/ {-1, 1, -2, -3, -1, 0, -1, -1},
    };
    // Classes after rule 5/6: a Bin with nothing binary on its left, or before Rel/Close/Punct, is an Ord.
    std::vector<Cls> cls(nodes.size(), Cls::Ord);
    int prev = -1;
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (!nodes[i]->isAtom())
            continue;
        Cls c = nodes[i]->cls;
        if (c == Cls::Bin) {
            if (prev < 0)
                c = Cls::Ord;
            else {
                const Cls p = cls[size_t(prev)];
                if (p == Cls::Bin || p == Cls::Op || p == Cls::Rel || p == Cls::Open || p == Cls::Punct)
                    c = Cls::Ord;
            }
        }
        if ((c == Cls::Rel || c == Cls::Close || c == Cls::Punct) && prev >= 0 &&
            cls[size_t(prev)] == Cls::Bin)
            cls[size_t(prev)] = Cls::Ord;
        cls[i] = c;
        prev = int(i);
    }
    if (prev >= 0 && cls[size_t(prev)] == Cls::Bin)
        cls[size_t(prev)] = Cls::Ord;

    Box b;
    qreal x = 0;
    int last = -1;
    Style cur = st;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const Node& n = *nodes[i];
        if (n.kind == NK::StyleSwitch) {
            cur = n.style;
            continue;
        }
        const qreal mu = em(cur) / 18;
        if (n.kind == NK::Space) {
            x += n.size * 18 * mu;
            continue;
        }
        if (last >= 0) {
            const int sp = table[int(cls[size_t(last)])][int(cls[i])];
            if (sp > 0 || (sp < 0 && cur <= Style::T))
                x += (std::abs(sp) + 2) * mu; // 1 -> 3mu, 2 -> 4mu, 3 -> 5mu
        }
        Box a = atom(n, cur, cramped, middleHeight);
        b.add(a, x, 0);
        x += a.w;
        b.h = std::max(b.h, a.h);
        b.d = std::max(b.d, a.d);
        b.italic = a.italic;
        last = int(i);
    }
    b.w = std::max(x, 0.0);
    // A list of one character keeps its character nature for script placement (rule 18a).
    if (nodes.size() == 1 && nodes[0]->kind == NK::Sym && !nodes[0]->sub && !nodes[0]->sup &&
        !nodes[0]->bigOp)
        b.isChar = nodes[0]->text.size() <= 2;
    else
        b.italic = nodes.size() == 1 ? b.italic : 0;
    return b;
}

} // namespace posatlas::ui::math::detail
