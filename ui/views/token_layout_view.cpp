// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/token_layout_view.h"

#include "io/mrope_columns.h"

#include "views/figure_style.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace posatlas::ui {

namespace {

// The ids' font from the largest to the smallest size tried, relative to the figure's font: a short
// layout fills the view with large cells (legible on a projector); below the last size the ids would not
// be legible from the back of a room, so the cells stop there and the figure says how many fit.
constexpr std::array<double, 11> kIdSizes = {2.4, 2.0, 1.7, 1.45, 1.25, 1.1, 1.0, 0.95, 0.9, 0.85, 0.8};

// The colour of axis a (0 t, 1 h, 2 w): the first three series colours, darkened on light backgrounds so
// that the ids written in them stay legible on the cells' tints.
QColor axis_color(int axis, bool dark)
{
    const QColor c = series_color(axis, dark);
    return dark ? c : c.darker(135);
}

QColor cell_fill(LayoutTokenKind kind, bool dark)
{
    switch (kind) {
    case LayoutTokenKind::Text: return dark ? QColor(58, 58, 62) : QColor(238, 238, 240);
    case LayoutTokenKind::Image: return dark ? QColor(40, 62, 84) : QColor(220, 234, 248);
    case LayoutTokenKind::Video: return dark ? QColor(70, 52, 84) : QColor(236, 224, 246);
    }
    return {};
}

QString axis_letter(int axis)
{
    const std::string_view id = mrope_axis_id(axis);
    return QString::fromLatin1(id.data(), static_cast<qsizetype>(id.size()));
}

} // namespace

struct TokenLayoutView::Plan {
    QFont id_font, label_font;
    double cell_w = 0.0, cell_h = 0.0;
    std::vector<QRectF> cells; // per token, in order; those that fit
    struct Label {
        QPointF at; // its baseline's start
        QString text;
        std::size_t first; // the block's first token: drawn when its cell is
    };
    std::vector<Label> labels;
    QRectF legend, strip;
    bool all_fit = true;
};

TokenLayoutView::TokenLayoutView(QWidget* parent) : QWidget(parent)
{
    // Room for the title, the legend, two rows of cells at the smallest legible size and the pairs' strip
    // with its caption on two lines (Chinese breaks it there at 1280 pixels).
    setMinimumSize(240, 290);
}

void TokenLayoutView::setData(const TokenLayoutData& data)
{
    m_data = data;
    update();
}

QStringList TokenLayoutView::cellLines(std::size_t token) const
{
    return {QString::number(m_data.ids_t.at(token)), QString::number(m_data.ids_h.at(token)),
            QString::number(m_data.ids_w.at(token))};
}

QString TokenLayoutView::pairsCaption() const
{
    const auto n = static_cast<int>(m_data.pair_axes.size());
    std::array<int, 3> count{};
    for (int a : m_data.pair_axes)
        ++count[static_cast<std::size_t>(std::clamp(a, 0, 2))];
    if (m_data.interleaved)
        return tr("the %1 rotary pairs of a head, interleaved: t h w t h w … · t %2 pairs · h %3 · w %4")
            .arg(n)
            .arg(count[0])
            .arg(count[1])
            .arg(count[2]);
    // Chunked: each axis one run of pairs; the runs read off the axes core gives.
    QStringList runs;
    int start = 0;
    for (int i = 1; i <= n; ++i)
        if (i == n || m_data.pair_axes[static_cast<std::size_t>(i)] !=
                          m_data.pair_axes[static_cast<std::size_t>(start)]) {
            runs << tr("%1: pairs %2–%3")
                        .arg(axis_letter(m_data.pair_axes[static_cast<std::size_t>(start)]))
                        .arg(start)
                        .arg(i - 1);
            start = i;
        }
    return tr("the %1 rotary pairs of a head, in chunks · %2").arg(n).arg(runs.join(tr(" · ")));
}

TokenLayoutView::Plan TokenLayoutView::plan(const QRectF& area, const RenderOptions& options) const
{
    Plan best;
    for (std::size_t attempt = 0; attempt < kIdSizes.size(); ++attempt) {
        Plan p;
        // The blocks' labels grow with the cells, less than they do.
        p.label_font =
            scaled_font(font(), options.font_scale, 0.85 * std::clamp(kIdSizes[attempt], 1.0, 1.3));
        const QFontMetricsF lfm(p.label_font);
        const double gap = lfm.height() * 0.6;
        p.id_font = scaled_font(font(), options.font_scale, kIdSizes[attempt]);
        const QFontMetricsF fm(p.id_font);
        double widest = fm.horizontalAdvance(QStringLiteral("00"));
        for (std::size_t i = 0; i < m_data.ids_t.size(); ++i)
            for (const QString& s : cellLines(i))
                widest = std::max(widest, fm.horizontalAdvance(s));
        const double pad = std::max(2.0, fm.height() * 0.2);
        p.cell_w = std::ceil(widest + 2 * pad);
        p.cell_h = std::ceil(3 * fm.height() + 2 * pad);
        const double frame_gap = p.cell_w * 0.35;
        double x = area.left(), y = area.top(), row_h = 0.0;
        for (const LayoutBlock& b : m_data.blocks) {
            const double label_w = lfm.horizontalAdvance(b.label);
            std::int64_t cols = b.columns, rows = b.rows;
            double grid_w = 0.0;
            if (b.kind == LayoutTokenKind::Text) {
                const auto fit =
                    std::max<std::int64_t>(1, static_cast<std::int64_t>(area.width() / p.cell_w));
                cols = std::min(b.tokens, fit);
                rows = (b.tokens + cols - 1) / cols;
                grid_w = static_cast<double>(cols) * p.cell_w;
            } else {
                grid_w = static_cast<double>(b.frames * cols) * p.cell_w +
                         static_cast<double>(b.frames - 1) * frame_gap;
            }
            const double block_w = std::max(grid_w, label_w);
            const double block_h = lfm.height() + gap * 0.3 + static_cast<double>(rows) * p.cell_h;
            if (x > area.left() && x + block_w > area.right()) {
                x = area.left();
                y += row_h + gap;
                row_h = 0.0;
            }
            p.labels.push_back({QPointF(x, y + lfm.ascent()), b.label, static_cast<std::size_t>(b.first)});
            const double grid_top = y + lfm.height() + gap * 0.3;
            for (std::int64_t k = 0; k < b.tokens; ++k) {
                double cx = 0.0, cy = 0.0;
                if (b.kind == LayoutTokenKind::Text) {
                    cx = x + static_cast<double>(k % cols) * p.cell_w;
                    cy = grid_top + static_cast<double>(k / cols) * p.cell_h;
                } else {
                    const std::int64_t per_frame = rows * cols, f = k / per_frame, r = (k % per_frame) / cols,
                                       c = k % cols;
                    cx = x + static_cast<double>(f) * (static_cast<double>(cols) * p.cell_w + frame_gap) +
                         static_cast<double>(c) * p.cell_w;
                    cy = grid_top + static_cast<double>(r) * p.cell_h;
                }
                p.cells.emplace_back(cx, cy, p.cell_w, p.cell_h);
            }
            x += block_w + gap;
            row_h = std::max(row_h, block_h);
        }
        p.all_fit = y + row_h <= area.bottom() + 0.5;
        if (p.all_fit || attempt + 1 == kIdSizes.size()) {
            if (!p.all_fit) // the smallest cells: keep those inside the area
                p.cells.erase(std::find_if(p.cells.begin(), p.cells.end(),
                                           [&](const QRectF& c) { return c.bottom() > area.bottom() + 0.5; }),
                              p.cells.end());
            best = std::move(p);
            break;
        }
    }
    return best;
}

std::vector<QRectF> TokenLayoutView::cellRects(const QRectF& target, const RenderOptions& options) const
{
    QImage scratch(target.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&scratch);
    return paintFigure(painter, target, options).cells;
}

double TokenLayoutView::cellFontPixels(const QRectF& target, const RenderOptions& options) const
{
    QImage scratch(target.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&scratch);
    const Plan p = paintFigure(painter, target, options);
    return QFontMetricsF(p.id_font).height();
}

void TokenLayoutView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    RenderOptions options;
    options.dark = palette_is_dark(palette());
    paintFigure(painter, rect(), options);
}

void TokenLayoutView::renderFigure(QPainter& painter, const QRectF& target,
                                   const RenderOptions& options) const
{
    paintFigure(painter, target, options);
}

TokenLayoutView::Plan TokenLayoutView::paintFigure(QPainter& painter, const QRectF& target,
                                                   const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(target, colors.background);
    const double margin = 6.0 * options.font_scale;
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    const QFont title_font = scaled_font(font(), options.font_scale, 1.25, true);
    if (m_data.blocks.empty()) {
        painter.setPen(colors.text);
        painter.setFont(title_font);
        painter.drawText(rect, Qt::AlignCenter | Qt::TextWordWrap, m_data.title);
        painter.restore();
        return {};
    }
    rect = paint_title(painter, rect, m_data.title, title_font, colors.text);
    const QFont small = scaled_font(font(), options.font_scale, 0.9);
    const QFontMetricsF sfm(small);
    // The caption whole, on as many lines as it takes (a gallery's description is a sentence or two); the
    // lines are painted from the bottom up.
    const QStringList caption =
        caption_lines(options.caption, QFontMetricsF(small, painter.device()), rect.width());
    for (auto line = caption.crbegin(); line != caption.crend(); ++line)
        rect = paint_caption(painter, rect, *line, small, colors.muted);
    rect = paint_caption(painter, rect, m_data.note, small, colors.muted);

    // The pairs' strip at the bottom: its caption, the strip, the pair numbers under it.
    rect = paint_caption(painter, rect, pairsCaption(), small, colors.text);
    const double strip_h = std::ceil(sfm.height() * 1.5);
    const QRectF ticks(rect.left(), rect.bottom() - sfm.height(), rect.width(), sfm.height());
    const QRectF strip(rect.left(), ticks.top() - strip_h - 2.0, rect.width(), strip_h);
    rect.setBottom(strip.top() - sfm.height() * 0.6);

    // The legend: what the three lines of a cell are.
    const QRectF legend(rect.left(), rect.top(), rect.width(), sfm.height());
    rect.setTop(legend.bottom() + sfm.height() * 0.5);
    painter.setFont(small);
    double lx = legend.left();
    painter.setPen(colors.text);
    const QString intro = tr("each cell, top to bottom:");
    painter.drawText(QPointF(lx, legend.top() + sfm.ascent()), intro);
    lx += sfm.horizontalAdvance(intro) + sfm.height() * 0.5;
    const QString names[3] = {tr("t (time)"), tr("h (row)"), tr("w (column)")};
    for (int a = 0; a < 3; ++a) {
        painter.setPen(axis_color(a, options.dark));
        painter.drawText(QPointF(lx, legend.top() + sfm.ascent()), names[a]);
        lx += sfm.horizontalAdvance(names[a]) + sfm.height() * 0.8;
    }

    Plan p = plan(rect, options);
    painter.setFont(p.label_font);
    painter.setPen(colors.text);
    for (const Plan::Label& label : p.labels)
        if (label.first < p.cells.size())
            painter.drawText(label.at, label.text);
    painter.setFont(p.id_font);
    const QFontMetricsF fm(p.id_font);
    const double line = fm.height();
    QPen border(colors.axis);
    border.setWidthF(std::max(1.0, 0.06 * line) * colors.line_scale);
    for (std::size_t i = 0; i < p.cells.size(); ++i) {
        const QRectF& c = p.cells[i];
        const auto kind =
            std::find_if(m_data.blocks.rbegin(), m_data.blocks.rend(), [&](const LayoutBlock& b) {
                return b.first <= static_cast<std::int64_t>(i);
            })->kind;
        painter.setPen(border);
        painter.setBrush(cell_fill(kind, options.dark));
        painter.drawRect(c.adjusted(0.5, 0.5, -0.5, -0.5));
        const QStringList lines = cellLines(i);
        const double top = c.top() + (c.height() - 3 * line) / 2.0;
        for (int a = 0; a < 3; ++a) {
            painter.setPen(axis_color(a, options.dark));
            painter.drawText(QRectF(c.left(), top + a * line, c.width(), line), Qt::AlignCenter, lines[a]);
        }
    }
    if (!p.all_fit) {
        painter.setFont(small);
        painter.setPen(colors.text);
        painter.drawText(
            QRectF(rect.left(), rect.bottom() - sfm.height(), rect.width(), sfm.height()),
            Qt::AlignRight | Qt::AlignVCenter,
            tr("%1 of %2 tokens fit; enlarge the view").arg(p.cells.size()).arg(m_data.ids_t.size()));
    }

    // The strip: one rectangle per pair in its axis' colour, the letter in it when there is room.
    const auto n = static_cast<int>(m_data.pair_axes.size());
    if (n > 0) {
        const double w = strip.width() / n;
        painter.setFont(small);
        const bool letters = w >= sfm.horizontalAdvance(QStringLiteral("w")) + 2.0;
        for (int i = 0; i < n; ++i) {
            const int a = m_data.pair_axes[static_cast<std::size_t>(i)];
            const QRectF r(strip.left() + i * w, strip.top(), w, strip.height());
            const QColor c = series_color(a, options.dark);
            painter.fillRect(r, c);
            if (letters) {
                painter.setPen(options.dark ? Qt::black : Qt::white);
                painter.drawText(r, Qt::AlignCenter, axis_letter(a));
            }
        }
        painter.setPen(colors.text);
        const int step =
            std::max(1, static_cast<int>(std::ceil(sfm.horizontalAdvance(QStringLiteral("000")) * 2.0 / w)));
        for (int i = 0; i < n; i += step) {
            const QString label = QString::number(i);
            const double cx = strip.left() + (i + 0.5) * w;
            painter.drawText(QRectF(cx - 40.0 * options.font_scale, ticks.top(), 80.0 * options.font_scale,
                                    ticks.height()),
                             Qt::AlignHCenter | Qt::AlignTop, label);
        }
    }
    painter.restore();
    return p;
}

} // namespace posatlas::ui
