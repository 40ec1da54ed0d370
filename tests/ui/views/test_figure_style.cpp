// SPDX-License-Identifier: GPL-3.0-or-later
// How every figure looks: the colour maps (tables, indices, the diverging centre, ids) and titles that
// break at a separator. Reference colours are matplotlib 3.6's tables (lib/matplotlib/_cm_listed.py,
// lib/matplotlib/_cm.py::_coolwarm_data) converted to hex the way matplotlib.colors.to_hex does
// (round(channel * 255)), computed with a separate python3 script, not with our code.
#include "view_fixtures.h"
#include "views/colormap.h"
#include "views/figure_style.h"

#include <QFont>
#include <QFontMetricsF>
#include <QTest>

#include <cmath>

using namespace posatlas;
using namespace posatlas::ui;
using namespace posatlas::test;

class FigureStyleTest : public QObject
{
    Q_OBJECT

private slots:
    void colormapTables_data();
    void colormapTables();
    void colormapIndex_data();
    void colormapIndex();
    void divergingCentre();
    void colormapIds();
    void longTitlesBreakAtASeparator();
    void captionsBreakWithoutLosingNumbers();
};

void FigureStyleTest::colormapTables_data()
{
    QTest::addColumn<Colormap>("map");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("middle"); // entry 128
    QTest::addColumn<QString>("last");
    // matplotlib 3.6 _cm_listed.py entries 0, 128, 255 rounded to 8 bits (python3 round(v * 255)).
    QTest::newRow("viridis") << Colormap::Viridis << "#440154"
                             << "#21918c"
                             << "#fde725";
    QTest::newRow("magma") << Colormap::Magma << "#000004"
                           << "#b73779"
                           << "#fcfdbf";
    QTest::newRow("cividis") << Colormap::Cividis << "#00224e"
                             << "#7d7c78"
                             << "#fee838";
    // coolwarm control points x = 0, 0.5, 1 of _cm.py::_coolwarm_data (entry 128 is the centre by design).
    QTest::newRow("diverging") << Colormap::Diverging << "#3b4cc0"
                               << "#dddddd"
                               << "#b40426";
}

void FigureStyleTest::colormapTables()
{
    QFETCH(Colormap, map);
    QFETCH(QString, first);
    QFETCH(QString, middle);
    QFETCH(QString, last);
    const QVector<QRgb> table = colormap_table(map);
    QCOMPARE(table.size(), 256);
    QCOMPARE(QColor(table[0]).name(), first);
    QCOMPARE(QColor(table[128]).name(), middle);
    QCOMPARE(QColor(table[255]).name(), last);
    // Perceptually uniform sequential maps are monotonic in lightness; the diverging map is darkest
    // at both ends and lightest at its centre.
    if (map != Colormap::Diverging) {
        for (int i = 1; i < 256; ++i)
            QVERIFY2(QColor(table[i]).lightnessF() >= QColor(table[i - 1]).lightnessF() - 0.01,
                     qPrintable(QString::number(i)));
    } else {
        QVERIFY(QColor(table[128]).lightness() > QColor(table[0]).lightness());
        QVERIFY(QColor(table[128]).lightness() > QColor(table[255]).lightness());
    }
}

void FigureStyleTest::colormapIndex_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("index");
    // floor((v - lo) / (hi - lo) * 256) clamped to [0, 255] (matplotlib Colormap.__call__ on Normalize).
    QTest::newRow("low end") << 0.0 << 0.0 << 1.0 << 0;
    QTest::newRow("high end") << 1.0 << 0.0 << 1.0 << 255;
    QTest::newRow("half") << 0.5 << 0.0 << 1.0 << 128;
    QTest::newRow("quarter") << 0.25 << 0.0 << 1.0 << 64;
    QTest::newRow("just below half") << 0.4999 << 0.0 << 1.0 << 127;
    QTest::newRow("below range") << -5.0 << 0.0 << 1.0 << 0;
    QTest::newRow("above range") << 7.0 << 0.0 << 1.0 << 255;
    QTest::newRow("shifted") << 15.0 << 10.0 << 20.0 << 128;
    QTest::newRow("nan") << kNaN << 0.0 << 1.0 << -1;
    QTest::newRow("degenerate") << 3.0 << 3.0 << 3.0 << 128;
}

void FigureStyleTest::colormapIndex()
{
    QFETCH(double, value);
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, index);
    QCOMPARE(colormap_index(value, ColorRange{lo, hi}), index);
}

void FigureStyleTest::divergingCentre()
{
    // Asymmetric data still centres the diverging map on 0: the range becomes [-5, 5].
    const ColorRange r = color_range(Colormap::Diverging, -3.0, 5.0);
    QCOMPARE(r.lo, -5.0);
    QCOMPARE(r.hi, 5.0);
    QCOMPARE(colormap_index(0.0, r), kDivergingCentre);
    QCOMPARE(kDivergingCentre, 128);
    QCOMPARE(colormap_index(-5.0, r), 0);
    QCOMPARE(colormap_index(5.0, r), 255);
    // Sequential maps span [min, max] as given.
    const ColorRange s = color_range(Colormap::Viridis, -3.0, 5.0);
    QCOMPARE(s.lo, -3.0);
    QCOMPARE(s.hi, 5.0);
}

void FigureStyleTest::colormapIds()
{
    for (Colormap m : all_colormaps()) {
        QCOMPARE(parse_colormap(colormap_id(m)), std::optional<Colormap>(m));
        QVERIFY(!colormap_name(m).isEmpty());
    }
    QCOMPARE(parse_colormap(u"VIRIDIS"), std::optional<Colormap>(Colormap::Viridis));
    QVERIFY(!parse_colormap(u"jet").has_value());
    QCOMPARE(default_colormap(true), Colormap::Diverging);
    QCOMPARE(default_colormap(false), Colormap::Viridis);
}

// A figure title too long for a docked view breaks after a " · " instead of losing its end to an
// ellipsis (the heatmap's "… · 注意力分数 (log…" in a 1280-px window).
void FigureStyleTest::longTitlesBreakAtASeparator()
{
    QFont font;
    font.setPixelSize(14);
    const QFontMetricsF fm(font);
    const QString title =
        QStringLiteral("RoPE (Su et al. 2021) · θ 10000 · d 128 · N 256 · 注意力分数 (logit)");
    const double full = fm.horizontalAdvance(title);
    QCOMPARE(title_lines(title, fm, full + 1), QStringList{title});
    const QString tail = QStringLiteral("注意力分数 (logit)");
    const QStringList two = title_lines(title, fm, full - fm.horizontalAdvance(tail) / 2);
    QCOMPARE(two.size(), 2);
    QCOMPARE(two.at(0), QStringLiteral("RoPE (Su et al. 2021) · θ 10000 · d 128 · N 256"));
    QCOMPARE(two.at(1), tail);
    // No separator fits: one elided line.
    const QStringList one = title_lines(title, fm, fm.horizontalAdvance(QStringLiteral("RoPE (Su")));
    QCOMPARE(one.size(), 1);
    QVERIFY(one.at(0).endsWith(QChar(0x2026)));
}

// A caption or legend entry narrower than its text takes more lines, broken at " · ", then between
// words, Chinese between characters; nothing elided while every unit fits ("θ = 5.25…", "RoFor…").
void FigureStyleTest::captionsBreakWithoutLosingNumbers()
{
    QFont font;
    font.setPixelSize(14);
    const QFontMetricsF fm(font);
    const auto check = [&fm](const QString& caption, const QString& widest, const QString& firstLine) {
        const QStringList lines = caption_lines(caption, fm, fm.horizontalAdvance(widest) + 1);
        QString joined = lines.join(QString());
        QString expected = caption;
        joined.remove(QLatin1Char(' ')).remove(QStringLiteral("·"));
        expected.remove(QLatin1Char(' ')).remove(QStringLiteral("·"));
        QCOMPARE(joined, expected); // everything, in order: nothing elided
        QCOMPARE(lines.constFirst(), firstLine);
        for (const QString& line : lines)
            QVERIFY2(fm.horizontalAdvance(line) <= fm.horizontalAdvance(widest) + 1, qPrintable(line));
    };
    check(QStringLiteral("pair 32 · θ = 5.25e-05"), QStringLiteral("θ = 5.25e-05"),
          QStringLiteral("pair 32"));
    check(QStringLiteral("wavelength 1.12e+03"), QStringLiteral("wavelength"), QStringLiteral("wavelength"));
    check(QStringLiteral("维度对 16 · θ = 0.0376"), QStringLiteral("θ = 0.0376"),
          QStringLiteral("维度对 16"));
    // Chinese between characters, the closing bracket with the character before it.
    check(QStringLiteral("RoFormer 上界（相对 r = 0）"), QStringLiteral("RoFormer"),
          QStringLiteral("RoFormer"));
}

QTEST_MAIN(FigureStyleTest)
#include "test_figure_style.moc"
