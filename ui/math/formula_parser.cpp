// SPDX-License-Identifier: GPL-3.0-or-later
// The formula parser: a recursive descent over the LaTeX subset of formula.h into formula_tree.h's nodes,
// with the symbol tables (Unicode code points as in unicode-math's table).
#include "math/formula_parser.h"

#include "math/formula.h"
#include "math/formula_symbols.h"

namespace posatlas::ui::math::detail {

namespace {

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
                fail(pos,
                     FormulaTexts::tr("'\\\\' (new row) outside a matrix, cases or aligned environment"));
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
            fail(ownerPos,
                 FormulaTexts::tr("%1 must be followed by a delimiter such as ( or \\{").arg(owner));
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
            static const QHash<QString, QString> named = {{"{", "{"},
                                                          {"}", "}"},
                                                          {"lbrace", "{"},
                                                          {"rbrace", "}"},
                                                          {"|", QString(QChar(0x2016))},
                                                          {"Vert", QString(QChar(0x2016))},
                                                          {"lVert", QString(QChar(0x2016))},
                                                          {"rVert", QString(QChar(0x2016))},
                                                          {"vert", "|"},
                                                          {"lvert", "|"},
                                                          {"rvert", "|"},
                                                          {"langle", QString(QChar(0x27E8))},
                                                          {"rangle", QString(QChar(0x27E9))},
                                                          {"lfloor", QString(QChar(0x230A))},
                                                          {"rfloor", QString(QChar(0x230B))},
                                                          {"lceil", QString(QChar(0x2308))},
                                                          {"rceil", QString(QChar(0x2309))},
                                                          {"backslash", "\\"}};
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
        static const char16_t calHoles[26] = {0, 0x212C, 0,      0,      0x2130, 0x2131, 0, 0x210B, 0x2110,
                                              0, 0,      0x2112, 0x2133, 0,      0,      0, 0,      0x211B,
                                              0, 0,      0,      0,      0,      0,      0, 0};
        static const char16_t bbHoles[26] = {0, 0, 0x2102, 0, 0,      0, 0,      0x210D, 0,
                                             0, 0, 0,      0, 0x2115, 0, 0x2119, 0x211A, 0x211D,
                                             0, 0, 0,      0, 0,      0, 0,      0x2124};
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
            return sym(QString(c), Cls::Ord,
                       letterFont == Font::Bold || letterFont == Font::BoldItalic ? Font::Bold : Font::Roman);
        switch (c.unicode()) {
        case '+': return sym(QStringLiteral("+"), Cls::Bin, Font::Math);
        case '-': return sym(QString(QChar(0x2212)), Cls::Bin, Font::Math);
        case '*': return sym(QString(QChar(0x2217)), Cls::Bin, Font::Math);
        case '=':
        case '<':
        case '>':
        case ':': return sym(QString(c), Cls::Rel, Font::Math);
        case ',':
        case ';': return sym(QString(c), Cls::Punct, Font::Math);
        case '(':
        case '[': return sym(QString(c), Cls::Open, Font::Math);
        case ')':
        case ']':
        case '!':
        case '?': return sym(QString(c), Cls::Close, Font::Math);
        case '|':
        case '/':
        case '@':
        case '"': return sym(QString(c), Cls::Ord, Font::Math);
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
        static const QHash<QString, qreal> spaces = {
            {",", 3.0 / 18},  {":", 4.0 / 18},         {">", 4.0 / 18},        {";", 5.0 / 18},
            {"!", -3.0 / 18}, {" ", 0.3333},           {"quad", 1.0},          {"qquad", 2.0},
            {"enspace", 0.5}, {"thinspace", 3.0 / 18}, {"medspace", 4.0 / 18}, {"thickspace", 5.0 / 18}};
        if (const auto it = spaces.find(name); it != spaces.end()) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Space;
            n->size = it.value();
            return n;
        }
        if (name == QLatin1String("frac") || name == QLatin1String("dfrac") ||
            name == QLatin1String("tfrac") || name == QLatin1String("binom")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Frac;
            n->cls = Cls::Inner;
            n->bar = name != QLatin1String("binom");
            n->fracStyle = name == QLatin1String("dfrac")   ? int(Style::D)
                           : name == QLatin1String("tfrac") ? int(Style::T)
                                                            : -1;
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
        static const QStringList accents = {"hat",      "widehat",   "tilde", "widetilde",      "bar",
                                            "overline", "underline", "vec",   "overrightarrow", "dot",
                                            "ddot",     "check",     "breve"};
        if (accents.contains(name)) {
            auto n = std::make_unique<Node>();
            n->kind = NK::Accent;
            n->text = name;
            n->wide = name.startsWith(QLatin1String("wide")) || name == QLatin1String("overline") ||
                      name == QLatin1String("underline") || name == QLatin1String("overrightarrow");
            n->body = argumentList(at, FormulaTexts::tr("the argument of \\%1").arg(name));
            return n;
        }
        static const QHash<QString, Font> fonts = {{"mathbf", Font::Bold},   {"mathrm", Font::Roman},
                                                   {"mathit", Font::Italic}, {"boldsymbol", Font::BoldItalic},
                                                   {"bm", Font::BoldItalic}, {"mathsf", Font::Roman},
                                                   {"mathtt", Font::Roman},  {"mathnormal", Font::Italic}};
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
        if (name == QLatin1String("text") || name == QLatin1String("textrm") ||
            name == QLatin1String("mbox") || name == QLatin1String("textbf") ||
            name == QLatin1String("textit") || name == QLatin1String("mathrm*")) {
            auto n = sym(readText(at), Cls::Ord, Font::Text);
            if (name == QLatin1String("textbf"))
                n->wide = true; // bold text: the layout reads `wide` on Text symbols as bold
            if (name == QLatin1String("textit"))
                n->limitsDefault = true; // italic text
            return n;
        }
        if (name == QLatin1String("displaystyle") || name == QLatin1String("textstyle") ||
            name == QLatin1String("scriptstyle") || name == QLatin1String("scriptscriptstyle")) {
            auto n = std::make_unique<Node>();
            n->kind = NK::StyleSwitch;
            n->style = name == QLatin1String("displaystyle")  ? Style::D
                       : name == QLatin1String("textstyle")   ? Style::T
                       : name == QLatin1String("scriptstyle") ? Style::S
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
                if (!suffix.isEmpty() && suffix != QLatin1String("l") && suffix != QLatin1String("r") &&
                    suffix != QLatin1String("m"))
                    continue;
                auto n = std::make_unique<Node>();
                n->kind = NK::Delim;
                n->size = it.value();
                n->cls = suffix == QLatin1String("l")   ? Cls::Open
                         : suffix == QLatin1String("r") ? Cls::Close
                         : suffix == QLatin1String("m") ? Cls::Rel
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
        static const QStringList known = {"matrix",  "pmatrix", "bmatrix", "Bmatrix",    "vmatrix",
                                          "Vmatrix", "cases",   "aligned", "smallmatrix"};
        if (!known.contains(env))
            fail(at, FormulaTexts::tr("unknown environment '%1' (supported: %2)")
                         .arg(env, known.join(QLatin1String(", "))));
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

} // namespace

List parse_tree(const QString& latex)
{
    Parser parser(latex);
    return parser.parseList(Parser::Top, 0);
}

} // namespace posatlas::ui::math::detail
