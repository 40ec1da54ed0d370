// SPDX-License-Identifier: GPL-3.0-or-later
// The formula typesetter: LaTeX subset -> node tree (Parser) -> boxes of positioned items (Layout, after
// the TeXbook's appendix G, rules 11-20, with Computer Modern's font parameters sigma/xi expressed in em)
// -> one filled QPainterPath per item (glyph outlines, rules, stroked delimiters), painted many times.
#include "math/formula.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QTransform>
#include <algorithm>
#include <cmath>
#include <new>

namespace posatlas::ui::math {

namespace {

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
    QString text;              // Sym: characters; Accent: accent name; Delim/Middle: delimiter; Matrix: env
    Font font = Font::Roman;
    bool bigOp = false;        // \sum \int ...: larger in display style
    bool limitsDefault = false; // limits above/below in display style
    int limits = -1;           // \limits (1) / \nolimits (0) / default (-1)
    bool wide = false;         // \widehat, \overline ...
    bool bar = true;           // Frac: false for \binom
    int fracStyle = -1;        // Frac: forced style (\dfrac, \tfrac)
    qreal size = 0;            // Space: em; Delim: height in em
    QString rightDelim;        // LeftRight
    Style style = Style::T;    // StyleSwitch
    List body, body2;          // Group/Sqrt/Accent/LeftRight: body; Frac: body num, body2 den; Sqrt: body2 index
    std::vector<std::vector<List>> rows; // Matrix
    NodeP sub, sup;
    bool isAtom() const { return kind != NK::Space && kind != NK::StyleSwitch; }
};

struct ParseError {
    int pos;
    QString message;
};

struct SymbolInfo {
    const char* name;
    char16_t code;
    Cls cls;
};

// Symbols by command name (Unicode code points as in unicode-math's table, unimath-symbols.pdf).
const SymbolInfo kSymbols[] = {
    {"le", 0x2264, Cls::Rel}, {"leq", 0x2264, Cls::Rel}, {"ge", 0x2265, Cls::Rel}, {"geq", 0x2265, Cls::Rel},
    {"ne", 0x2260, Cls::Rel}, {"neq", 0x2260, Cls::Rel}, {"approx", 0x2248, Cls::Rel}, {"equiv", 0x2261, Cls::Rel},
    {"in", 0x2208, Cls::Rel}, {"notin", 0x2209, Cls::Rel}, {"ni", 0x220B, Cls::Rel}, {"to", 0x2192, Cls::Rel},
    {"rightarrow", 0x2192, Cls::Rel}, {"leftarrow", 0x2190, Cls::Rel}, {"gets", 0x2190, Cls::Rel},
    {"leftrightarrow", 0x2194, Cls::Rel}, {"Rightarrow", 0x21D2, Cls::Rel}, {"Leftarrow", 0x21D0, Cls::Rel},
    {"Leftrightarrow", 0x21D4, Cls::Rel}, {"implies", 0x27F9, Cls::Rel}, {"iff", 0x27FA, Cls::Rel},
    {"mapsto", 0x21A6, Cls::Rel}, {"longrightarrow", 0x27F6, Cls::Rel}, {"propto", 0x221D, Cls::Rel},
    {"sim", 0x223C, Cls::Rel}, {"simeq", 0x2243, Cls::Rel}, {"cong", 0x2245, Cls::Rel}, {"ll", 0x226A, Cls::Rel},
    {"gg", 0x226B, Cls::Rel}, {"subset", 0x2282, Cls::Rel}, {"supset", 0x2283, Cls::Rel},
    {"subseteq", 0x2286, Cls::Rel}, {"supseteq", 0x2287, Cls::Rel}, {"mid", 0x2223, Cls::Rel},
    {"perp", 0x27C2, Cls::Rel}, {"parallel", 0x2225, Cls::Rel}, {"coloneqq", 0x2254, Cls::Rel},
    {"triangleq", 0x225C, Cls::Rel}, {"uparrow", 0x2191, Cls::Rel}, {"downarrow", 0x2193, Cls::Rel},
    {"cdot", 0x22C5, Cls::Bin}, {"times", 0x00D7, Cls::Bin}, {"pm", 0x00B1, Cls::Bin}, {"mp", 0x2213, Cls::Bin},
    {"div", 0x00F7, Cls::Bin}, {"circ", 0x2218, Cls::Bin}, {"ast", 0x2217, Cls::Bin}, {"star", 0x22C6, Cls::Bin},
    {"bullet", 0x2219, Cls::Bin}, {"otimes", 0x2297, Cls::Bin}, {"oplus", 0x2295, Cls::Bin},
    {"odot", 0x2299, Cls::Bin}, {"cap", 0x2229, Cls::Bin}, {"cup", 0x222A, Cls::Bin}, {"wedge", 0x2227, Cls::Bin},
    {"land", 0x2227, Cls::Bin}, {"vee", 0x2228, Cls::Bin}, {"lor", 0x2228, Cls::Bin}, {"setminus", 0x2216, Cls::Bin},
    {"infty", 0x221E, Cls::Ord}, {"partial", 0x2202, Cls::Ord}, {"nabla", 0x2207, Cls::Ord},
    {"ldots", 0x2026, Cls::Inner}, {"dots", 0x2026, Cls::Inner}, {"cdots", 0x22EF, Cls::Inner},
    {"vdots", 0x22EE, Cls::Ord}, {"ddots", 0x22F1, Cls::Inner}, {"forall", 0x2200, Cls::Ord},
    {"exists", 0x2203, Cls::Ord}, {"emptyset", 0x2205, Cls::Ord}, {"varnothing", 0x2205, Cls::Ord},
    {"neg", 0x00AC, Cls::Ord}, {"lnot", 0x00AC, Cls::Ord}, {"top", 0x22A4, Cls::Ord}, {"bot", 0x22A5, Cls::Ord},
    {"dagger", 0x2020, Cls::Ord}, {"prime", 0x2032, Cls::Ord}, {"ell", 0x2113, Cls::Ord}, {"hbar", 0x210F, Cls::Ord},
    {"Re", 0x211C, Cls::Ord}, {"Im", 0x2111, Cls::Ord}, {"angle", 0x2220, Cls::Ord}, {"triangle", 0x25B3, Cls::Ord},
    {"backslash", 0x005C, Cls::Ord}, {"vert", 0x007C, Cls::Ord}, {"Vert", 0x2016, Cls::Ord}, {"|", 0x2016, Cls::Ord},
    {"lfloor", 0x230A, Cls::Open}, {"rfloor", 0x230B, Cls::Close}, {"lceil", 0x2308, Cls::Open},
    {"rceil", 0x2309, Cls::Close}, {"langle", 0x27E8, Cls::Open}, {"rangle", 0x27E9, Cls::Close},
    {"lvert", 0x007C, Cls::Open}, {"rvert", 0x007C, Cls::Close}, {"lVert", 0x2016, Cls::Open},
    {"rVert", 0x2016, Cls::Close}, {"{", 0x007B, Cls::Open}, {"}", 0x007D, Cls::Close}, {"lbrace", 0x007B, Cls::Open},
    {"rbrace", 0x007D, Cls::Close}, {"colon", 0x003A, Cls::Punct}, {"#", 0x0023, Cls::Ord}, {"%", 0x0025, Cls::Ord},
    {"&", 0x0026, Cls::Ord}, {"_", 0x005F, Cls::Ord}, {"$", 0x0024, Cls::Ord},
};

struct GreekInfo {
    const char* name;
    char16_t code;
};
const GreekInfo kGreek[] = {
    {"alpha", 0x03B1}, {"beta", 0x03B2}, {"gamma", 0x03B3}, {"delta", 0x03B4}, {"epsilon", 0x03F5},
    {"varepsilon", 0x03B5}, {"zeta", 0x03B6}, {"eta", 0x03B7}, {"theta", 0x03B8}, {"vartheta", 0x03D1},
    {"iota", 0x03B9}, {"kappa", 0x03BA}, {"lambda", 0x03BB}, {"mu", 0x03BC}, {"nu", 0x03BD}, {"xi", 0x03BE},
    {"pi", 0x03C0}, {"varpi", 0x03D6}, {"rho", 0x03C1}, {"varrho", 0x03F1}, {"sigma", 0x03C3},
    {"varsigma", 0x03C2}, {"tau", 0x03C4}, {"upsilon", 0x03C5}, {"phi", 0x03D5}, {"varphi", 0x03C6},
    {"chi", 0x03C7}, {"psi", 0x03C8}, {"omega", 0x03C9},
    // Capitals are upright in TeX.
    {"Gamma", 0x0393}, {"Delta", 0x0394}, {"Theta", 0x0398}, {"Lambda", 0x039B}, {"Xi", 0x039E},
    {"Pi", 0x03A0}, {"Sigma", 0x03A3}, {"Upsilon", 0x03A5}, {"Phi", 0x03A6}, {"Psi", 0x03A8}, {"Omega", 0x03A9},
};

struct BigOpInfo {
    const char* name;
    char16_t code;
    bool limits;
};
const BigOpInfo kBigOps[] = {
    {"sum", 0x2211, true}, {"prod", 0x220F, true}, {"coprod", 0x2210, true}, {"int", 0x222B, false},
    {"iint", 0x222C, false}, {"oint", 0x222E, false}, {"bigcup", 0x22C3, true}, {"bigcap", 0x22C2, true},
    {"bigoplus", 0x2A01, true}, {"bigotimes", 0x2A02, true}, {"bigvee", 0x22C1, true}, {"bigwedge", 0x22C0, true},
};

// Operator names set upright (amsmath's \DeclareMathOperator list); the second set takes limits.
const char* const kOperatorNames[] = {"sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos",
    "arctan", "sinh", "cosh", "tanh", "coth", "log", "ln", "lg", "exp", "dim", "ker", "deg", "arg", "hom"};
const char* const kLimitOperatorNames[] = {"lim", "limsup", "liminf", "max", "min", "sup", "inf", "det",
    "Pr", "gcd", "argmax", "argmin"};

struct Parser {
    const QString& s;
    int pos = 0;
    int depth = 0;
    Font letterFont = Font::Italic;
    int cells = 0;

    explicit Parser(const QString& src) : s(src) {}

    [[noreturn]] void fail(int at, const QString& message) const { throw ParseError{at, message}; }

    struct DepthGuard {
        Parser& p;
        explicit DepthGuard(Parser& parser) : p(parser)
        {
            if (++p.depth > Formula::kMaxDepth)
                p.fail(p.pos, FormulaTexts::tr("nesting deeper than %1 levels").arg(Formula::kMaxDepth));
        }
        ~DepthGuard() { --p.depth; }
    };

    bool atEnd() const { return pos >= s.size(); }
    QChar peek() const { return atEnd() ? QChar() : s.at(pos); }

    void skipSpaces()
    {
        while (!atEnd()) {
            const QChar c = s.at(pos);
            if (c.isSpace())
                ++pos;
            else if (c == u'%') { // a comment runs to the end of the line, as in TeX
                while (!atEnd() && s.at(pos) != u'\n')
                    ++pos;
            } else
                break;
        }
    }

    // The name after a backslash at pos (letters, or one other character); pos moves past it.
    QString readCommand()
    {
        const int start = pos;
        ++pos; // backslash
        if (atEnd())
            fail(start, FormulaTexts::tr("a backslash at the end of the formula"));
        if (isAsciiLetter(s.at(pos))) {
            const int b = pos;
            while (!atEnd() && isAsciiLetter(s.at(pos)))
                ++pos;
            return s.mid(b, pos - b);
        }
        return QString(s.at(pos++));
    }

    static bool isAsciiLetter(QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); }

    // What stops a list: end of input, '}', ']', & / \\ / \end, \right.
    enum Stop { Top, Brace, Bracket, Env, LeftRight };

    // Is the input at a token that ends a list of kind `stop`? Errors for tokens that are out of place.
    bool atListEnd(Stop stop, int openPos)
    {
        skipSpaces();
        if (atEnd()) {
            switch (stop) {
            case Top: return true;
            case Brace: fail(openPos, FormulaTexts::tr("'{' is never closed by '}'"));
            case Bracket: fail(openPos, FormulaTexts::tr("'[' is never closed by ']'"));
            case Env: fail(openPos, FormulaTexts::tr("\\begin without \\end"));
            case LeftRight: fail(openPos, FormulaTexts::tr("\\left without \\right"));
            }
        }
        const QChar c = s.at(pos);
        if (c == u'}') {
            if (stop == Brace)
                return true;
            fail(pos, FormulaTexts::tr("'}' without an opening '{'"));
        }
        if (c == u']' && stop == Bracket)
            return true;
        if (c == u'&') {
            if (stop == Env)
                return true;
            fail(pos, FormulaTexts::tr("'&' outside a matrix, cases or aligned environment"));
        }
        if (c == u'\\' && pos + 1 < s.size()) {
            const int save = pos;
            const QString name = readCommand();
            pos = save;
            if (name == QLatin1String("\\")) {
                if (stop == Env)
                    return true;
                fail(pos, FormulaTexts::tr("'\\\\' (new row) outside a matrix, cases or aligned environment"));
            }
            if (name == QLatin1String("end")) {
                if (stop == Env)
                    return true;
                fail(pos, FormulaTexts::tr("\\end without \\begin"));
            }
            if (name == QLatin1String("right")) {
                if (stop == LeftRight)
                    return true;
                fail(pos, FormulaTexts::tr("\\right without \\left"));
            }
            if (name == QLatin1String("middle") && stop != LeftRight)
                fail(pos, FormulaTexts::tr("\\middle outside \\left ... \\right"));
        }
        return false;
    }

    List parseList(Stop stop, int openPos)
    {
        DepthGuard guard(*this);
        List list;
        while (!atListEnd(stop, openPos)) {
            const QChar c = s.at(pos);
            if (c == u'^' || c == u'_' || c == u'\'') {
                if (list.empty() || !list.back()->isAtom()) {
                    auto empty = std::make_unique<Node>();
                    empty->kind = NK::Group;
                    list.push_back(std::move(empty));
                }
                parseScript(*list.back());
                continue;
            }
            if (c == u'\\') {
                const int save = pos;
                const QString name = readCommand();
                if (name == QLatin1String("limits") || name == QLatin1String("nolimits")) {
                    if (list.empty() || list.back()->cls != Cls::Op || list.back()->sub || list.back()->sup)
                        fail(save, FormulaTexts::tr("\\%1 must follow an operator such as \\sum").arg(name));
                    list.back()->limits = name == QLatin1String("limits") ? 1 : 0;
                    continue;
                }
                pos = save;
            }
            list.push_back(parseAtom());
        }
        return list;
    }

    void parseScript(Node& target)
    {
        const int at = pos;
        const QChar c = s.at(pos++);
        if (c == u'\'') {
            if (target.sup)
                fail(at, FormulaTexts::tr("a prime after a superscript; write x'^2 instead of x^2'"));
            auto prime = std::make_unique<Node>();
            prime->kind = NK::Group;
            int count = 1;
            while (!atEnd() && s.at(pos) == u'\'') {
                ++pos;
                ++count;
            }
            auto sym = std::make_unique<Node>();
            sym->text = QString(count, QChar(0x2032));
            sym->font = Font::Math;
            prime->body.push_back(std::move(sym));
            // x'^2: the superscript joins the primes.
            skipSpaces();
            if (!atEnd() && s.at(pos) == u'^') {
                ++pos;
                prime->body.push_back(parseArgument(at, FormulaTexts::tr("a superscript after '^'")));
            }
            target.sup = std::move(prime);
            return;
        }
        NodeP& slot = c == u'^' ? target.sup : target.sub;
        if (slot)
            fail(at, c == u'^' ? FormulaTexts::tr("double superscript; use braces, e.g. {x^a}^b")
                               : FormulaTexts::tr("double subscript; use braces, e.g. {x_a}_b"));
        slot = parseArgument(at, c == u'^' ? FormulaTexts::tr("a superscript after '^'")
                                           : FormulaTexts::tr("a subscript after '_'"));
    }

    // One argument: {group} or a single token (\frac12, x^2, \sqrt\alpha).
    NodeP parseArgument(int ownerPos, const QString& what)
    {
        skipSpaces();
        if (atEnd() || s.at(pos) == u'}' || s.at(pos) == u'&' || s.at(pos) == u'^' || s.at(pos) == u'_')
            fail(atEnd() ? ownerPos : pos, FormulaTexts::tr("missing %1").arg(what));
        if (s.at(pos) == u'{') {
            const int open = pos++;
            auto group = std::make_unique<Node>();
            group->kind = NK::Group;
            group->body = parseList(Brace, open);
            ++pos; // '}'
            return group;
        }
        DepthGuard guard(*this);
        return parseAtom();
    }

    List argumentList(int ownerPos, const QString& what)
    {
        NodeP arg = parseArgument(ownerPos, what);
        if (arg->kind == NK::Group && !arg->sub && !arg->sup)
            return std::move(arg->body);
        List list;
        list.push_back(std::move(arg));
        return list;
    }

    // {name} after \begin, \end, \operatorname: letters (and '*').
    QString readName(int ownerPos, const QString& what)
    {
        skipSpaces();
        if (atEnd() || s.at(pos) != u'{')
            fail(atEnd() ? ownerPos : pos, FormulaTexts::tr("missing %1").arg(what));
        const int open = pos++;
        QString name;
        while (!atEnd() && s.at(pos) != u'}') {
            if (s.at(pos) == u'{' || s.at(pos) == u'\\')
                fail(pos, FormulaTexts::tr("only letters are allowed in %1").arg(what));
            name += s.at(pos++);
        }
        if (atEnd())
            fail(open, FormulaTexts::tr("'{' is never closed by '}'"));
        ++pos;
        return name.trimmed();
    }

    // \text{...}: characters as they are (any script), spaces kept, a few escapes.
    QString readText(int ownerPos)
    {
        skipSpaces();
        if (atEnd() || s.at(pos) != u'{')
            fail(atEnd() ? ownerPos : pos, FormulaTexts::tr("missing {text} after \\text"));
        const int open = pos++;
        QString out;
        int level = 0;
        while (true) {
            if (atEnd())
                fail(open, FormulaTexts::tr("'{' is never closed by '}'"));
            const QChar c = s.at(pos);
            if (c == u'}') {
                ++pos;
                if (level == 0)
                    break;
                --level;
                continue;
            }
            if (c == u'{') {
                ++pos;
                ++level;
                continue;
            }
            if (c == u'$')
                fail(pos, FormulaTexts::tr("math inside \\text is not supported; close the text first"));
            if (c == u'\\') {
                const int at = pos;
                const QString name = readCommand();
                static const QString escapes = QStringLiteral("{}$%&_# ,");
                if (name.size() == 1 && escapes.contains(name.at(0)))
                    out += name == QLatin1String(",") ? QString(QChar(0x2009)) : name;
                else
                    fail(at, FormulaTexts::tr("\\%1 is not supported inside \\text").arg(name));
                continue;
            }
            if (c.unicode() < 0x20 && !c.isSpace())
                fail(pos, FormulaTexts::tr("invalid control character"));
            if (c.isSpace()) {
                if (!out.endsWith(u' '))
                    out += u' ';
                ++pos;
                continue;
            }
            out += c == u'~' ? QChar(0x00A0) : c;
            ++pos;
        }
        return out;
    }

    NodeP sym(const QString& text, Cls cls, Font font)
    {
        auto n = std::make_unique<Node>();
        n->text = text;
        n->cls = cls;
        n->font = font;
        return n;
    }

    // A delimiter after \left, \right, \middle, \big...: ( ) [ ] | / . < > or \{ \} \| \langle ...
    QString readDelimiter(int ownerPos, const QString& owner)
    {
        skipSpaces();
        if (atEnd())
            fail(ownerPos, FormulaTexts::tr("%1 must be followed by a delimiter such as ( or \\{").arg(owner));
        const QChar c = s.at(pos);
        static const QString plain = QStringLiteral("()[]|/.");
        if (plain.contains(c)) {
            ++pos;
            return QString(c);
        }
        if (c == u'<' || c == u'>') {
            ++pos;
            return QString(QChar(c == u'<' ? 0x27E8 : 0x27E9));
        }
        if (c == u'\\') {
            const int at = pos;
            const QString name = readCommand();
            static const QHash<QString, QString> named = {
                {"{", "{"}, {"}", "}"}, {"lbrace", "{"}, {"rbrace", "}"}, {"|", QString(QChar(0x2016))},
                {"Vert", QString(QChar(0x2016))}, {"lVert", QString(QChar(0x2016))}, {"rVert", QString(QChar(0x2016))},
                {"vert", "|"}, {"lvert", "|"}, {"rvert", "|"}, {"langle", QString(QChar(0x27E8))},
                {"rangle", QString(QChar(0x27E9))}, {"lfloor", QString(QChar(0x230A))},
                {"rfloor", QString(QChar(0x230B))}, {"lceil", QString(QChar(0x2308))},
                {"rceil", QString(QChar(0x2309))}, {"backslash", "\\"}};
            const auto it = named.find(name);
            if (it != named.end())
                return it.value();
            fail(at, FormulaTexts::tr("%1 must be followed by a delimiter such as ( or \\{").arg(owner));
        }
        fail(pos, FormulaTexts::tr("%1 must be followed by a delimiter such as ( or \\{").arg(owner));
    }

    static Font mapLetterFont(Font mode, bool upperGreek)
    {
        if (upperGreek && mode == Font::Italic)
            return Font::Roman;
        return mode;
    }

    static QString mathAlphabet(QChar c, bool blackboard)
    {
        // Unicode's Mathematical Alphanumeric Symbols with their Letterlike Symbols holes.
        const int i = c.unicode() - 'A';
        if (i < 0 || i >= 26)
            return QString(c);
        static const char16_t calHoles[26] = {0, 0x212C, 0, 0, 0x2130, 0x2131, 0, 0x210B, 0x2110, 0, 0, 0x2112,
            0x2133, 0, 0, 0, 0, 0x211B, 0, 0, 0, 0, 0, 0, 0, 0};
        static const char16_t bbHoles[26] = {0, 0, 0x2102, 0, 0, 0, 0, 0x210D, 0, 0, 0, 0, 0, 0x2115, 0,
            0x2119, 0x211A, 0x211D, 0, 0, 0, 0, 0, 0, 0, 0x2124};
        const char16_t hole = blackboard ? bbHoles[i] : calHoles[i];
        if (hole)
            return QString(QChar(hole));
        const char32_t code = (blackboard ? 0x1D538 : 0x1D49C) + static_cast<char32_t>(i);
        return QString::fromUcs4(&code, 1);
    }

    NodeP parseAtom()
    {
        skipSpaces();
        const int at = pos;
        const QChar c = s.at(pos);
        if (c == u'{') {
            ++pos;
            auto group = std::make_unique<Node>();
            group->kind = NK::Group;
            group->body = parseList(Brace, at);
            ++pos;
            return group;
        }
        if (c == u'\\')
            return parseCommand();
        ++pos;
        if (c == u'$')
            fail(at, FormulaTexts::tr("'$' inside a formula; write the formula without $ delimiters"));
        if (c == u'#')
            fail(at, FormulaTexts::tr("'#' is not allowed in a formula; write \\# for the sign"));
        if (c == u'~') {
            auto n = std::make_unique<Node>();
            n->kind = NK::Space;
            n->size = 0.3333;
            return n;
        }
        if (isAsciiLetter(c))
            return sym(QString(c), Cls::Ord, letterFont);
        if (c.isDigit() || c == u'.')
            return sym(QString(c), Cls::Ord, letterFont == Font::Bold || letterFont == Font::BoldItalic ? Font::Bold : Font::Roman);
        switch (c.unicode()) {
        case '+': return sym(QStringLiteral("+"), Cls::Bin, Font::Math);
        case '-': return sym(QString(QChar(0x2212)), Cls::Bin, Font::Math);
        case '*': return sym(QString(QChar(0x2217)), Cls::Bin, Font::Math);
        case '=': case '<': case '>': case ':': return sym(QString(c), Cls::Rel, Font::Math);
        case ',': case ';': return sym(QString(c), Cls::Punct, Font::Math);
        case '(': case '[': return sym(QString(c), Cls::Open, Font::Math);
        case ')': case ']': case '!': case '?': return sym(QString(c), Cls::Close, Font::Math);
        case '|': case '/': case '@': case '"': return sym(QString(c), Cls::Ord, Font::Math);
        default: break;
        }
        if (c.isHighSurrogate() && !atEnd() && s.at(pos).isLowSurrogate()) {
            const QString pair = s.mid(at, 2);
            ++pos;
            return sym(pair, Cls::Ord, Font::Text);
        }
        if (c.isSurrogate() || c.unicode() < 0x20 || c.category() == QChar::Other_Control)
            fail(at, FormulaTexts::tr("invalid character"));
        // Typed Unicode: Greek small letters are variables (italic); anything else upright, CJK included.
        if (c.unicode() >= 0x03B1 && c.unicode() <= 0x03C9)
            return sym(QString(c), Cls::Ord, letterFont);
        return sym(QString(c), Cls::Ord, c.isLetter() || c.isNumber() ? Font::Text : Font::Math);
    }

    NodeP parseCommand()
    {
        const int at = pos;
        const QString name = readCommand();
        const auto unknown = [&] { fail(at, FormulaTexts::tr("unknown command \\%1").arg(name)); };

        for (const auto& g : kGreek) {
            if (name == QLatin1String(g.name)) {
                const bool upper = g.code < 0x03B1;
                return sym(QString(QChar(g.code)), Cls::Ord, mapLetterFont(letterFont, upper));
            }
        }
        for (const auto& sy : kSymbols) {
            if (name == QLatin1String(sy.name))
                return sym(QString(QChar(sy.code)), sy.cls, Font::Math);
        }
        for (const auto& op : kBigOps) {
            if (name == QLatin1String(op.name)) {
                auto n = sym(QString(QChar(op.code)), Cls::Op, Font::Math);
                n->bigOp = true;
                n->limitsDefault = op.limits;
                return n;
            }
        }
        for (const char* op : kOperatorNames)
            if (name == QLatin1String(op))
                return sym(name, Cls::Op, Font::Roman);
        for (const char* op : kLimitOperatorNames) {
            if (name == QLatin1String(op)) {
                QString text = name;
                if (name == QLatin1String("argmax") || name == QLatin1String("argmin"))
                    text.insert(3, QChar(0x2009));
                else if (name == QLatin1String("limsup") || name == QLatin1String("liminf"))
                    text.insert(3, QChar(0x2009));
                auto n = sym(text, Cls::Op, Font::Roman);
                n->limitsDefault = true;
                return n;
            }
        }
        if (name == QLatin1String("operatorname") || name == QLatin1String("operatorname*")) {
            bool star = false;
            if (!atEnd() && s.at(pos) == u'*') {
                ++pos;
                star = true;
            }
            const QString text = readName(at, FormulaTexts::tr("{name} after \\operatorname"));
            if (text.isEmpty())
                fail(at, FormulaTexts::tr("empty \\operatorname"));
            auto n = sym(text, Cls::Op, Font::Roman);
            n->limitsDefault = star;
            return n;
        }
        // Spaces (thin 3mu, medium 4mu, thick 5mu, negative thin; quad = 1em).
        static const QHash<QString, qreal> spaces = {{",", 3.0 / 18}, {":", 4.0 / 18}, {">", 4.0 / 18},
            {";", 5.0 / 18}, {"!", -3.0 / 18}, {" ", 0.3333}, {"quad", 1.0}, {"qquad", 2.0}, {"enspace", 0.5},
            {"thinspace", 3.0 / 18}, {"medspace", 4.0 / 18}, {"thickspace", 5.0 / 18}};
        if (const auto it = spaces.find(name); it != spaces.end()) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Space;
            n->size = it.value();
            return n;
        }
        if (name == QLatin1String("frac") || name == QLatin1String("dfrac") || name == QLatin1String("tfrac")
            || name == QLatin1String("binom")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Frac;
            n->cls = Cls::Inner;
            n->bar = name != QLatin1String("binom");
            n->fracStyle = name == QLatin1String("dfrac") ? int(Style::D) : name == QLatin1String("tfrac") ? int(Style::T) : -1;
            n->body = argumentList(at, FormulaTexts::tr("the first argument of \\%1").arg(name));
            n->body2 = argumentList(at, FormulaTexts::tr("the second argument of \\%1").arg(name));
            return n;
        }
        if (name == QLatin1String("sqrt")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Sqrt;
            skipSpaces();
            if (!atEnd() && s.at(pos) == u'[') {
                const int open = pos++;
                n->body2 = parseList(Bracket, open);
                ++pos;
            }
            n->body = argumentList(at, FormulaTexts::tr("the argument of \\sqrt"));
            return n;
        }
        static const QStringList accents = {"hat", "widehat", "tilde", "widetilde", "bar", "overline",
            "underline", "vec", "overrightarrow", "dot", "ddot", "check", "breve"};
        if (accents.contains(name)) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Accent;
            n->text = name;
            n->wide = name.startsWith(QLatin1String("wide")) || name == QLatin1String("overline")
                || name == QLatin1String("underline") || name == QLatin1String("overrightarrow");
            n->body = argumentList(at, FormulaTexts::tr("the argument of \\%1").arg(name));
            return n;
        }
        static const QHash<QString, Font> fonts = {{"mathbf", Font::Bold}, {"mathrm", Font::Roman},
            {"mathit", Font::Italic}, {"boldsymbol", Font::BoldItalic}, {"bm", Font::BoldItalic},
            {"mathsf", Font::Roman}, {"mathtt", Font::Roman}, {"mathnormal", Font::Italic}};
        if (const auto it = fonts.find(name); it != fonts.end()) {
            const Font saved = letterFont;
            letterFont = it.value();
            auto n = std::make_unique<Node>();
            n->kind = NK::Group;
            n->body = argumentList(at, FormulaTexts::tr("the argument of \\%1").arg(name));
            letterFont = saved;
            return n;
        }
        if (name == QLatin1String("mathcal") || name == QLatin1String("mathbb")) {
            const QString text = readName(at, FormulaTexts::tr("{letters} after \\%1").arg(name));
            QString out;
            for (QChar ch : text) {
                if (ch < u'A' || ch > u'Z')
                    fail(at, FormulaTexts::tr("\\%1 takes capital letters A-Z").arg(name));
                out += mathAlphabet(ch, name == QLatin1String("mathbb"));
            }
            return sym(out, Cls::Ord, Font::Math);
        }
        if (name == QLatin1String("text") || name == QLatin1String("textrm") || name == QLatin1String("mbox")
            || name == QLatin1String("textbf") || name == QLatin1String("textit") || name == QLatin1String("mathrm*")) {
            auto n = sym(readText(at), Cls::Ord, Font::Text);
            if (name == QLatin1String("textbf"))
                n->wide = true; // bold text: the layout reads `wide` on Text symbols as bold
            if (name == QLatin1String("textit"))
                n->limitsDefault = true; // italic text
            return n;
        }
        if (name == QLatin1String("displaystyle") || name == QLatin1String("textstyle")
            || name == QLatin1String("scriptstyle") || name == QLatin1String("scriptscriptstyle")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::StyleSwitch;
            n->style = name == QLatin1String("displaystyle") ? Style::D
                : name == QLatin1String("textstyle")         ? Style::T
                : name == QLatin1String("scriptstyle")       ? Style::S
                                                              : Style::SS;
            return n;
        }
        if (name == QLatin1String("left")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::LeftRight;
            n->cls = Cls::Inner;
            n->text = readDelimiter(at, QStringLiteral("\\left"));
            n->body = parseList(LeftRight, at);
            readCommand(); // \right
            n->rightDelim = readDelimiter(at, QStringLiteral("\\right"));
            return n;
        }
        if (name == QLatin1String("middle")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Middle;
            n->cls = Cls::Rel;
            n->text = readDelimiter(at, QStringLiteral("\\middle"));
            return n;
        }
        static const QHash<QString, qreal> bigs = {{"big", 1.2}, {"Big", 1.8}, {"bigg", 2.4}, {"Bigg", 3.0}};
        for (auto it = bigs.begin(); it != bigs.end(); ++it) {
            const QString& base = it.key();
            if (name.startsWith(base) && name.size() <= base.size() + 1) {
                const QString suffix = name.mid(base.size());
                if (!suffix.isEmpty() && suffix != QLatin1String("l") && suffix != QLatin1String("r")
                    && suffix != QLatin1String("m"))
                    continue;
                auto n = std::make_unique<Node>();
                n->kind = NK::Delim;
                n->size = it.value();
                n->cls = suffix == QLatin1String("l") ? Cls::Open
                    : suffix == QLatin1String("r")    ? Cls::Close
                    : suffix == QLatin1String("m")    ? Cls::Rel
                                                      : Cls::Ord;
                n->text = readDelimiter(at, QLatin1Char('\\') + name);
                return n;
            }
        }
        if (name == QLatin1String("begin"))
            return parseEnvironment(at);
        if (name == QLatin1String("bmod") || name == QLatin1String("mod"))
            return sym(QStringLiteral("mod"), Cls::Bin, Font::Roman);
        unknown();
        return nullptr;
    }

    NodeP parseEnvironment(int at)
    {
        const QString env = readName(at, FormulaTexts::tr("{environment} after \\begin"));
        static const QStringList known = {"matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix",
            "cases", "aligned", "smallmatrix"};
        if (!known.contains(env))
            fail(at, FormulaTexts::tr("unknown environment '%1' (supported: %2)").arg(env, known.join(QLatin1String(", "))));
        auto n = std::make_unique<Node>();
        n->kind = NK::Matrix;
        n->cls = Cls::Inner;
        n->text = env;
        n->rows.emplace_back();
        while (true) {
            if (++cells > Formula::kMaxCells)
                fail(pos, FormulaTexts::tr("more than %1 matrix cells").arg(Formula::kMaxCells));
            n->rows.back().push_back(parseList(Env, at));
            if (s.at(pos) == u'&') {
                ++pos;
                continue;
            }
            const int cmd = pos;
            const QString name = readCommand();
            if (name == QLatin1String("\\")) {
                n->rows.emplace_back();
                continue;
            }
            // \end
            const QString endName = readName(cmd, FormulaTexts::tr("{environment} after \\end"));
            if (endName != env)
                fail(cmd, FormulaTexts::tr("\\begin{%1} is ended by \\end{%2}").arg(env, endName));
            break;
        }
        // A trailing \\ does not start a row (as in LaTeX).
        if (n->rows.size() > 1 && n->rows.back().size() == 1 && n->rows.back().front().empty())
            n->rows.pop_back();
        return n;
    }
};

// ---------------------------------------------------------------------------------------------------
// Boxes and layout

struct Item {
    FormulaItem::Kind kind = FormulaItem::Kind::Glyphs;
    QString text;
    Font font = Font::Roman;
    bool bold = false, italic = false;
    qreal size = 0;  // em in px
    QPointF pos;     // Glyphs: baseline origin; relative to the box origin (baseline left, y down)
    QRectF rect;     // Rule: the rectangle; Glyphs: advance box
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
        const QStringList serif = {"DejaVu Serif", "Noto Serif CJK SC", "Noto Serif", "FreeSerif", "Liberation Serif"};
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

class Layout {
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

private:
    FontSet fs_;
    qreal base_;
    qreal xh_ = 0.45, axis_ = 0.25, rule_ = 0.045;
    QHash<QString, Measure> cache_;

    qreal em(Style st) const { return base_ * (st == Style::S ? 0.7 : st == Style::SS ? 0.5 : 1.0); }
    static Style supStyle(Style st) { return st <= Style::T ? Style::S : Style::SS; }
    static Style fracStyle(Style st) { return st == Style::D ? Style::T : st == Style::T ? Style::S : Style::SS; }

    int variant(bool bold, bool italic) const { return (bold ? 1 : 0) | (italic ? 2 : 0); }

    Measure measure(const QString& text, Font font, bool bold, bool italic)
    {
        const QString key = QString::number(int(font) * 4 + variant(bold, italic)) + QLatin1Char('|') + text;
        if (const auto it = cache_.find(key); it != cache_.end())
            return it.value();
        const QFontMetricsF& fm = *fs_.metrics[int(font)][variant(bold, italic)];
        const QRectF ink = fm.tightBoundingRect(text);
        Measure m{fm.horizontalAdvance(text) / kRefPx, ink.top() / kRefPx, ink.bottom() / kRefPx, ink.right() / kRefPx};
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

Box Layout::symbol(const Node& n, Style st)
{
    qreal px = em(st);
    Font font = n.font;
    bool bold = false, italic = false;
    switch (n.font) {
    case Font::Italic: font = Font::Roman; italic = true; break;
    case Font::Bold: font = Font::Roman; bold = true; break;
    case Font::BoldItalic: font = Font::Roman; bold = true; italic = true; break;
    case Font::Text: bold = n.wide; italic = n.limitsDefault; break;
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
    case NK::Delim: nucleus = delimiter(n.text, n.size * base_ * (st >= Style::S ? em(st) / base_ : 1.0), st); break;
    case NK::Middle: nucleus = delimiter(n.text, std::max(middleHeight, 0.0), st); break;
    case NK::Matrix: nucleus = matrix(n, st); break;
    case NK::Space:
    case NK::StyleSwitch: break;
    }
    if (!n.sub && !n.sup)
        return nucleus;
    const bool useLimits = n.cls == Cls::Op && (n.limits == 1 || (n.limits == -1 && n.limitsDefault && st == Style::D));
    return useLimits ? limits(std::move(nucleus), n, st, cramped) : scripts(std::move(nucleus), n, st, cramped);
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
        const qreal raise = 0.6 * height - bottom + index.d; // the index's bottom at 60 % of the sign (plain.tex \root)
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
        const qreal xl = 0, xr = w, end = 1.0 * t;
        const qreal cOut = xl, cIn = xl + (tk + 0.25 * end) / 0.75;
        p.moveTo(xr, top);
        p.cubicTo(cOut, top + height * 0.28, cOut, bottom - height * 0.28, xr, bottom);
        p.lineTo(xr - end, bottom);
        p.cubicTo(cIn, bottom - height * 0.28, cIn, top + height * 0.28, xr - end, top);
        p.closeSubpath();
        if (c == u')')
            p = QTransform(-1, 0, 0, 1, w, 0).map(p);
    } else if (c == u'[' || c == u']' || c == QChar(0x230A) || c == QChar(0x230B) || c == QChar(0x2308)
               || c == QChar(0x2309)) {
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
    const bool hasMiddle = std::any_of(body.begin(), body.end(), [](const NodeP& n) { return n->kind == NK::Middle; });
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
    const Style cs = n.text == QLatin1String("smallmatrix") ? Style::S : st <= Style::T ? (n.text == QLatin1String("aligned") ? Style::D : Style::T) : st;
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
    static const QHash<QString, QPair<QString, QString>> fences = {{"pmatrix", {"(", ")"}},
        {"bmatrix", {"[", "]"}}, {"Bmatrix", {"{", "}"}}, {"vmatrix", {"|", "|"}},
        {"Vmatrix", {QString(QChar(0x2016)), QString(QChar(0x2016))}}, {"cases", {"{", "."}}};
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
        if ((c == Cls::Rel || c == Cls::Close || c == Cls::Punct) && prev >= 0 && cls[size_t(prev)] == Cls::Bin)
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
    if (nodes.size() == 1 && nodes[0]->kind == NK::Sym && !nodes[0]->sub && !nodes[0]->sup && !nodes[0]->bigOp)
        b.isChar = nodes[0]->text.size() <= 2;
    else
        b.italic = nodes.size() == 1 ? b.italic : 0;
    return b;
}

} // namespace

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
            throw ParseError{kMaxLength, FormulaTexts::tr("the formula is longer than %1 characters").arg(kMaxLength)};
        if (latex.trimmed().isEmpty())
            throw ParseError{0, FormulaTexts::tr("the formula is empty")};
        if (!(style.pointSize > 0 && style.pointSize <= 1000))
            throw ParseError{0, FormulaTexts::tr("point size %1 is outside 0 < size <= 1000").arg(style.pointSize)};
        Parser parser(latex);
        List root = parser.parseList(Parser::Top, 0);
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
        data->size = QSizeF(std::max(ink.right(), box.w) - left + margin + box.italic, ink.bottom() - top + margin);
        const QPointF shift(-left, -top);
        FontSet fonts;
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
                p = QTransform::fromTranslate(it.pos.x() + shift.x(), it.pos.y() + shift.y()).scale(k, k).map(g);
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
                data->size = data->size.expandedTo(QSizeF(bounds.right() + margin / 2, bounds.bottom() + margin / 2));
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

bool Formula::isValid() const { return d_->valid; }
QString Formula::error() const { return d_->error; }
QSizeF Formula::size() const { return d_->valid ? d_->size : QSizeF(); }
qreal Formula::baseline() const { return d_->baseline; }
const std::vector<FormulaItem>& Formula::items() const { return d_->items; }

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
    const QSize pixels(std::max(1, int(std::ceil(f.size().width() * dpr))), std::max(1, int(std::ceil(f.size().height() * dpr))));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        if (error)
            *error = FormulaTexts::tr("the image of %1 x %2 pixels could not be allocated").arg(pixels.width()).arg(pixels.height());
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
