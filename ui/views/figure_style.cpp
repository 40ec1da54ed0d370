// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/figure_style.h"

#include "io/number_text.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

namespace {
bool g_high_contrast = false;
} // namespace

void set_high_contrast_figures(bool on)
{
    g_high_contrast = on;
}

bool high_contrast_figures()
{
    return g_high_contrast;
}

FigureColors figure_colors(bool dark)
{
    if (!dark && g_high_contrast)
        // Grid lines stay grey (they are not text) but dark enough to show on a washed-out projector.
        return {QColor(Qt::white),
                QColor(Qt::black),
                QColor(Qt::black),
                QColor(Qt::black),
                QColor(0xa0, 0xa0, 0xa0),
                QColor(0xff, 0xff, 0xff, 245),
                1.75};
    if (dark)
        return {QColor(0x1e, 0x1f, 0x22), QColor(0xe8, 0xea, 0xed), QColor(0xa8, 0xad, 0xb3),
                QColor(0xbd, 0xc1, 0xc6), QColor(0x3c, 0x40, 0x43), QColor(0x2b, 0x2d, 0x31, 235)};
    return {QColor(Qt::white),        QColor(0x20, 0x21, 0x24), QColor(0x5f, 0x63, 0x68),
            QColor(0x3c, 0x40, 0x43), QColor(0xe3, 0xe5, 0xe8), QColor(0xff, 0xff, 0xff, 235)};
}

bool palette_is_dark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QFont scaled_font(const QFont& base, double scale, double relative, bool bold)
{
    QFont f(base);
    const double factor = std::max(0.1, scale * relative);
    if (base.pointSizeF() > 0)
        f.setPointSizeF(std::max(base.pointSizeF(), 9.0) * factor);
    else if (base.pixelSize() > 0)
        f.setPixelSize(std::max(1, static_cast<int>(std::lround(base.pixelSize() * factor))));
    if (bold)
        f.setBold(true);
    return f;
}

QColor series_color(int index, bool dark)
{
    // matplotlib's tab10 cycle: distinct hues that stay apart for most colour-vision deficiencies.
    static const QRgb tab10[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};
    QColor c = QColor::fromRgb(tab10[static_cast<std::size_t>(std::abs(index)) % 10]);
    if (dark)
        return c.lighter(135);
    // High contrast: tab10's pale members (grey, olive, cyan) darkened to stand out on white.
    return g_high_contrast ? c.darker(130) : c;
}

QRectF paint_title(QPainter& painter, const QRectF& rect, const QString& title, const QFont& font,
                   const QColor& color)
{
    if (title.isEmpty())
        return rect;
    const QFontMetricsF fm(font, painter.device());
    painter.save();
    painter.setFont(font);
    painter.setPen(color);
    const QStringList lines = title_lines(title, fm, rect.width());
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QRectF line(rect.left(), rect.top() + fm.height() * static_cast<double>(i), rect.width(),
                          fm.height());
        painter.drawText(line, Qt::AlignHCenter | Qt::AlignVCenter, lines[i]);
    }
    painter.restore();
    const double used = fm.height() * (static_cast<double>(lines.size()) + 0.35);
    return rect.adjusted(0, used, 0, 0);
}

QStringList title_lines(const QString& title, const QFontMetricsF& fm, double width)
{
    if (fm.horizontalAdvance(title) <= width)
        return {title};
    // The last separator whose left part fits: the first line is as full as it can be.
    qsizetype best = -1;
    for (const QString& sep : {QStringLiteral(" · "), QStringLiteral(" • ")})
        for (qsizetype at = title.indexOf(sep); at > 0; at = title.indexOf(sep, at + 1))
            if (fm.horizontalAdvance(title.left(at)) <= width && at > best)
                best = at;
    if (best < 0)
        return {fm.elidedText(title, Qt::ElideRight, width)};
    const QString rest = title.mid(best + 3);
    return {title.left(best), fm.elidedText(rest, Qt::ElideRight, width)};
}

QRectF paint_caption(QPainter& painter, const QRectF& rect, const QString& caption, const QFont& font,
                     const QColor& color)
{
    if (caption.isEmpty())
        return rect;
    const QFontMetricsF fm(font, painter.device());
    painter.save();
    painter.setFont(font);
    painter.setPen(color);
    const QString text = fm.elidedText(caption, Qt::ElideRight, rect.width());
    const QRectF line(rect.left(), rect.bottom() - fm.height(), rect.width(), fm.height());
    painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, text);
    painter.restore();
    return rect.adjusted(0, 0, 0, -fm.height() * 1.3);
}

double readout_offset(double length, double lo, double hi, double min, double max, double gap)
{
    const double after = hi + gap, before = lo - gap - length;
    if (after + length <= max)
        return after;
    if (before >= min)
        return before;
    const double start = max - hi >= lo - min ? after : before;
    return std::max(min, std::min(start, max - length));
}

QRectF place_readout_box(const QSizeF& size, const QRectF& anchor, const QRectF& bounds, double gap)
{
    const double x =
        readout_offset(size.width(), anchor.left(), anchor.right(), bounds.left(), bounds.right(), gap);
    const double y =
        readout_offset(size.height(), anchor.top(), anchor.bottom(), bounds.top(), bounds.bottom(), gap);
    return {QPointF(x, y), size};
}

} // namespace posatlas::ui
