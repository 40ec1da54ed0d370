// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small LaTeX math typesetter for the course's formulas: a parser to a box tree and a
// TeX-like layout (the TeXbook's appendix G rules, simplified), painted with QPainter paths so that the
// formula is vector-sharp on screen at any zoom, in PNG at any device pixel ratio, and in SVG/PDF.
//
// Units: every length (size(), baseline(), the debug items) is in logical pixels at 96 dpi, as a
// QFont point size shows on a 96-dpi screen: one em is pointSize * 96 / 72 px.
//
// Supported subset: letters (italic), digits, + - = < > ( ) [ ] | / , ; : . ! ' and Unicode text;
// ^ _ with any nesting; \frac \dfrac \tfrac \binom \sqrt[n]{}; Greek letters; \sum \prod \int \lim \max
// \min ... with limits above/below in display style and beside in inline style (\limits \nolimits);
// \sin \cos \log \exp ... and \operatorname{..} / \operatorname*{..}; accents \hat \tilde \bar \vec \dot
// \ddot \widehat \widetilde \overline \underline; fonts \mathbf \mathrm \mathit \mathcal \mathbb
// \boldsymbol \text{..} (any script, CJK included); relations, binary operators, arrows, dots; spaces
// \, \: \; \! \quad \qquad "\ " ~; \left \middle \right and \big \Big \bigg \Bigg with ( ) [ ] \{ \} | \|
// \langle \rangle \lfloor \rfloor \lceil \rceil and "."; environments matrix pmatrix bmatrix Bmatrix
// vmatrix Vmatrix cases aligned with & and \\; \displaystyle \textstyle \scriptstyle.
// Hostile input is bounded: at most kMaxLength characters, kMaxDepth nested groups, kMaxCells matrix
// cells; anything outside the subset is an error naming its column, never a crash or an exception.

#include <QColor>
#include <QImage>
#include <QPainter>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <memory>
#include <vector>

namespace posatlas::ui::math {

struct FormulaStyle {
    qreal pointSize = 14;
    QColor color = Qt::black;
    bool display = true;
};

// One painted piece of a laid-out formula, for tests and debugging: a run of glyphs, a rule (fraction
// bar, overline) or a stroked/filled path (radical sign, stretched delimiter, accent).
struct FormulaItem {
    enum class Kind { Glyphs, Rule, Path };
    Kind kind = Kind::Glyphs;
    QString text;       // Glyphs: the characters; Path: what it draws ("(", "sqrt", "hat", ...)
    QRectF box;         // Glyphs: advance box (top = baseline - ascent of the ink); others: their extent
    qreal baseline = 0; // Glyphs: y of the baseline, from the formula's top
    qreal sizePx = 0;   // Glyphs: the font's em in px
    bool italic = false;
    bool bold = false;
};

class Formula
{
public:
    static constexpr int kMaxLength = 8192;
    static constexpr int kMaxDepth = 48;
    static constexpr int kMaxCells = 1024;

    Formula();
    // Parses `latex` (without $ delimiters). On error: isValid() false, error() = "column N: what is
    // wrong" (1-based column); never a crash, no exception escapes.
    static Formula parse(const QString& latex, const FormulaStyle& style = {});
    bool isValid() const;
    QString error() const;
    QSizeF size() const;    // logical px at 96 dpi (see the top of this file)
    qreal baseline() const; // distance from the top to the baseline
    void paint(QPainter* painter, const QPointF& topLeft) const;

    // The laid-out pieces, in formula coordinates (origin at the top left), in painting order.
    const std::vector<FormulaItem>& items() const;

private:
    struct Data;
    std::shared_ptr<const Data> d_;
};

// An image at devicePixelRatio (setDevicePixelRatio set), transparent background; a null QImage and
// *error set on a parse error.
QImage renderFormula(const QString& latex, const FormulaStyle& style, qreal devicePixelRatio = 1.0,
                     QString* error = nullptr);

} // namespace posatlas::ui::math
