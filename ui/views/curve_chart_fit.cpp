// SPDX-License-Identifier: GPL-3.0-or-later
// CurveChart's title and legend fitted to the chart's width (curve_chart.h): at presentation sizes the
// title ("RoPE long-term decay · θ 500000 · d 128 · Llama 3 · × 8 · ...") and the legend entries
// ("unscaled θ: RoFormer bound ÷ bound(0)") were elided by Qt Charts, numbers and all.
#include "views/curve_chart.h"

#include "views/figure_style.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QFontMetricsF>
#include <QGraphicsSceneResizeEvent>
#include <QLegend>
#include <QLogValueAxis>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

// Smallest the title shrinks to before it takes a second line, relative to its size.
constexpr double kTitleFloor = 0.8;

} // namespace

double CurveChart::textWidth() const
{
    // Qt Charts lays the title and the legend out in the chart minus its margins; the text items' own
    // document margins (4 px a side) come off too.
    return size().width() - margins().left() - margins().right() - 10.0;
}

void CurveChart::updateTitle()
{
    const QFont full = scaled_font(m_style.font, m_style.font_scale, 1.15, true);
    const double width = textWidth();
    QFont font = full;
    QStringList lines{m_showTitle ? m_data.title : QString()};
    if (width > 0 && !lines.constFirst().isEmpty() &&
        QFontMetricsF(full).horizontalAdvance(lines.constFirst()) > width) {
        // Smaller first, down to the floor; then two lines (or more) at full size, broken at " · ".
        bool fits = false;
        for (double f = 0.95; f >= kTitleFloor - 1e-9 && !fits; f -= 0.05) {
            font = scaled_font(m_style.font, m_style.font_scale, 1.15 * f, true);
            fits = QFontMetricsF(font).horizontalAdvance(lines.constFirst()) <= width;
        }
        if (!fits) {
            font = full;
            lines = caption_lines(lines.constFirst(), QFontMetricsF(full), width);
        }
    }
    QStringList html;
    for (const QString& line : lines)
        html << line.toHtmlEscaped();
    const QString text = html.join(QStringLiteral("<br>"));
    if (titleFont() != font)
        setTitleFont(font);
    if (title() != text)
        setTitle(text);
}

void CurveChart::updateLegendSide()
{
    // Qt Charts gives a bottom legend one row, each entry an equal share of the width, elided to it:
    // eight ALiBi heads in a docked chart were elided to "m₀…", hiding the slopes, and at presentation
    // sizes "unscaled θ: RoFormer bound ÷ bound(0)" lost its end. More than four entries go in a column at
    // the right; an entry wider than its share of the row (or than the column Qt Charts allows, under half
    // the chart) takes more lines, broken between words.
    const bool column = m_data.series.size() > 4;
    const Qt::Alignment side = column ? Qt::AlignRight : Qt::AlignBottom;
    if (legend()->alignment() != side)
        legend()->setAlignment(side);
    const QFontMetricsF fm(legend()->font());
    const double entries = static_cast<double>(std::max<qsizetype>(1, m_data.series.size()));
    const double share = (column ? textWidth() * 0.45 : textWidth() / entries) - fm.height() * 2.5;
    for (qsizetype i = 0; i < m_series.size() && i < m_data.series.size(); ++i) {
        const QString& name = m_data.series[i].name;
        QStringList lines{name};
        if (share > fm.height() * 3 && fm.horizontalAdvance(name) > share)
            lines = caption_lines(name, fm, share);
        QString text = name;
        if (lines.size() > 1) {
            for (QString& line : lines)
                line = line.toHtmlEscaped();
            text = lines.join(QStringLiteral("<br>"));
        }
        if (m_series[i]->name() != text)
            m_series[i]->setName(text);
    }
}

void CurveChart::updateAxisTitles()
{
    // Qt Charts elides an axis title longer than its side of the plot ("relative distance r (posi…" in
    // the lesson's narrow curves column): such a title takes two lines (or more) instead, broken between
    // words, each within the plot's side.
    const auto fit = [this](QAbstractAxis* axis, const QString& label, double length) {
        if (!axis)
            return;
        QString text = label;
        const QFontMetricsF fm(axis->titleFont());
        if (length > fm.height() * 3 && fm.horizontalAdvance(label) > length) {
            QStringList lines = caption_lines(label, fm, length);
            for (QString& line : lines)
                line = line.toHtmlEscaped();
            text = lines.join(QStringLiteral("<br>"));
        }
        if (axis->titleText() != text)
            axis->setTitleText(text);
    };
    const QRectF plot = plotArea();
    // Before the first layout there is no plot area: the chart's text width stands in for both sides.
    const double width = plot.width() > 0 ? plot.width() : textWidth();
    const double height = plot.height() > 0 ? plot.height() : size().height();
    fit(m_axisX, m_data.x_label, width - 8.0);
    fit(m_axisY, m_data.y_label, height - 8.0);
}

void CurveChart::updateLogXBase()
{
    auto* axis = qobject_cast<QLogValueAxis*>(m_axisX);
    if (!axis || !(axis->min() > 0) || !(axis->max() > axis->min()))
        return;
    const double lo = axis->min(), hi = axis->max();
    // Less than two decades: ticks at powers of 2 (1, 2, 4, ... 64), else at decades. A sentence's axis
    // (distances 1 ... 4) had one labelled tick, "1", with decades. Where a decade's labels do not fit
    // side by side (1 to 10⁶ in the lesson's narrow curves column), every second or third decade: Qt
    // Charts elided them to "10…", numbers a reader could not read.
    double base = hi / lo < 100.0 ? 2.0 : 10.0;
    const double width = plotArea().width();
    if (base == 10.0 && width > 0) {
        const QFontMetricsF fm(axis->labelsFont());
        const double gap = fm.horizontalAdvance(QStringLiteral("00"));
        // The plot's width depends on the labels (the last one may overhang its end), so a base only
        // gives way to a finer one with room to spare: else the two could take turns without end.
        const auto crowded = [&](double b, double room) {
            const double widest = std::pow(b, std::floor(std::log(hi) / std::log(b) + 1e-9));
            const double label = fm.horizontalAdvance(QString::number(widest, 'g', 10)) + gap;
            return width * std::log(b) / std::log(hi / lo) < label * room;
        };
        const double current = axis->base();
        for (const double coarser : {100.0, 1000.0})
            if (crowded(base, base < current ? 1.25 : 1.0))
                base = coarser;
    }
    if (axis->base() != base)
        axis->setBase(base);
    // Qt's -1 draws base − 2 minor ticks a step: the eight of a decade, not ninety-eight.
    const int minor = base == 10.0 ? -1 : 0;
    if (axis->minorTickCount() != minor)
        axis->setMinorTickCount(minor);
}

void CurveChart::resizeEvent(QGraphicsSceneResizeEvent* event)
{
    QChart::resizeEvent(event);
    updateTitle();
    updateLegendSide();
}

} // namespace posatlas::ui
