// SPDX-License-Identifier: GPL-3.0-or-later
// The formula typesetter's node tree (formula.h): what formula_parser.cpp builds from the LaTeX and
// formula_layout.cpp lays out. Internal to ui/math.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <memory>
#include <vector>

namespace posatlas::ui::math::detail {

// The typesetter's messages, in the translation context of the class users see.
struct FormulaTexts {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::math::Formula)
};

// ---------------------------------------------------------------------------------------------------
// Node tree

enum class Cls { Ord, Op, Bin, Rel, Open, Close, Punct, Inner };
enum class Font { Italic, Roman, Bold, BoldItalic, Math, Text };
enum class Style { D = 0, T = 1, S = 2, SS = 3 };
enum class NK { Sym, Group, Frac, Sqrt, Accent, LeftRight, Delim, Matrix, Space, StyleSwitch, Middle };

struct Node;
using NodeP = std::unique_ptr<Node>;
using List = std::vector<NodeP>;

struct Node {
    NK kind = NK::Sym;
    Cls cls = Cls::Ord;
    QString text; // Sym: characters; Accent: accent name; Delim/Middle: delimiter; Matrix: env
    Font font = Font::Roman;
    bool bigOp = false;         // \sum \int ...: larger in display style
    bool limitsDefault = false; // limits above/below in display style
    int limits = -1;            // \limits (1) / \nolimits (0) / default (-1)
    bool wide = false;          // \widehat, \overline ...
    bool bar = true;            // Frac: false for \binom
    int fracStyle = -1;         // Frac: forced style (\dfrac, \tfrac)
    qreal size = 0;             // Space: em; Delim: height in em
    QString rightDelim;         // LeftRight
    Style style = Style::T;     // StyleSwitch
    List body, body2; // Group/Sqrt/Accent/LeftRight: body; Frac: body num, body2 den; Sqrt: body2 index
    std::vector<std::vector<List>> rows; // Matrix
    NodeP sub, sup;
    bool isAtom() const { return kind != NK::Space && kind != NK::StyleSwitch; }
};

struct ParseError {
    int pos;
    QString message;
};

} // namespace posatlas::ui::math::detail
