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
// The ids at the body text's size: the height the view asks for (heightForCells) fits every cell there.
constexpr std::size_t kBodySize = 6;
static_assert(kIdSizes[kBodySize] == 1.0);

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
    std::size_t size = 0;        // the ids' font: kIdSizes[size]
    bool side_by_side = false;   // a cell's ids on one line (t h w), not stacked
    bool ticks = true;           // the pair numbers under the strip are drawn
    double tick_row = 0.0;       // their height
    double pad = 0.0;            // inside a cell, around its ids
    QRectF area;                 // where the cells are laid out
    double content_height = 0.0; // from the area's top to the last row's bottom
    bool all_fit = true;
    QRectF count_line; // where "k of n tokens fit" is written when not all fit
};

TokenLayoutView::TokenLayoutView(QWidget* parent) : QWidget(parent)
{
    // Room for the title, the legend, two rows of cells at the smallest legible size and the pairs' strip
    // with its caption on two lines (Chinese breaks it there at 1280 pixels).
    setMinimumSize(240, kMinimumHeight);
}

void TokenLayoutView::setData(const TokenLayoutData& data)
{
    m_data = data;
    m_heightForCells.reset();
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

TokenLayoutView::Plan TokenLayoutView::planAt(const QRectF& area, const RenderOptions& options,
                                              std::size_t size, bool side_by_side) const
{
    Plan p;
    p.area = area;
    p.size = size;
    p.side_by_side = side_by_side;
    // The blocks' labels grow with the cells, less than they do.
    p.label_font = scaled_font(font(), options.font_scale, 0.85 * std::clamp(kIdSizes[size], 1.0, 1.3));
    const QFontMetricsF lfm(p.label_font);
    const double gap = lfm.height() * 0.6;
    p.id_font = scaled_font(font(), options.font_scale, kIdSizes[size]);
    const QFontMetricsF fm(p.id_font);
    double widest = fm.horizontalAdvance(QStringLiteral("00"));
    for (std::size_t i = 0; i < m_data.ids_t.size(); ++i)
        for (const QString& s : cellLines(i))
            widest = std::max(widest, fm.horizontalAdvance(s));
    p.pad = std::max(2.0, fm.height() * 0.2);
    // Side by side, each id in a column of the widest id's width, a third of a line apart.
    p.cell_w = std::ceil(side_by_side ? 3 * widest + 2 * (fm.height() / 3) + 2 * p.pad : widest + 2 * p.pad);
    p.cell_h = std::ceil((side_by_side ? 1 : 3) * fm.height() + 2 * p.pad);
    const double frame_gap = p.cell_w * 0.35;
    double x = area.left(), y = area.top(), row_h = 0.0;
    for (const LayoutBlock& b : m_data.blocks) {
        const double label_w = lfm.horizontalAdvance(b.label);
        std::int64_t cols = b.columns, rows = b.rows;
        double grid_w = 0.0;
        if (b.kind == LayoutTokenKind::Text) {
            const auto fit = std::max<std::int64_t>(1, static_cast<std::int64_t>(area.width() / p.cell_w));
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
    p.content_height = y + row_h - area.top();
    p.all_fit = y + row_h <= area.bottom() + 0.5;
    return p;
}

TokenLayoutView::Plan TokenLayoutView::plan(const QRectF& area, const RenderOptions& options) const
{
    // Stacked ids (three lines: t, h, w) at the body text's size or larger; then side by side (one line,
    // a third of the height, three times the width: a projector's large text leaves a short, wide dock);
    // then smaller, down to the smallest legible size.
    for (std::size_t size = 0; size <= kBodySize; ++size)
        if (Plan p = planAt(area, options, size, false); p.all_fit)
            return p;
    for (std::size_t size = 0; size < kIdSizes.size(); ++size)
        if (Plan p = planAt(area, options, size, true); p.all_fit)
            return p;
    for (std::size_t size = kBodySize + 1; size < kIdSizes.size(); ++size)
        if (Plan p = planAt(area, options, size, false); p.all_fit)
            return p;
    // None fits: the smallest cells, in the arrangement that shows more of them, those inside the area.
    std::array<Plan, 2> smallest = {planAt(area, options, kIdSizes.size() - 1, false),
                                    planAt(area, options, kIdSizes.size() - 1, true)};
    for (Plan& p : smallest)
        p.cells.erase(std::find_if(p.cells.begin(), p.cells.end(),
                                   [&](const QRectF& c) { return c.bottom() > area.bottom() + 0.5; }),
                      p.cells.end());
    return std::move(smallest[1].cells.size() > smallest[0].cells.size() ? smallest[1] : smallest[0]);
}

int TokenLayoutView::heightForCells(int width) const
{
    // Asked at each layout request of the window (token_layout_controller.h): measured once for each
    // layout, width and font.
    const QString fontKey = font().key();
    if (m_heightForCells && m_heightForCells->width == width && m_heightForCells->font == fontKey)
        return m_heightForCells->height;
    const int height = measureHeightForCells(width);
    m_heightForCells = HeightForCells{width, fontKey, height};
    return height;
}

int TokenLayoutView::measureHeightForCells(int width) const
{
    // The title, legend, captions and pairs' strip take the same height in any target of this width; the
    // cells' area is what is left. Laid out in a tall target (painted into a scratch image: the captions
    // wrap as painted), then the cells at the body text's size added to that chrome.
    const QRectF tall(0.0, 0.0, std::max(width, 1), 100000.0);
    QImage scratch(1, 1, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&scratch);
    const RenderOptions options; // on screen: the widget's font is the presented one
    const Plan chrome = paintFigure(painter, tall, options);
    if (m_data.blocks.empty())
        return kMinimumHeight;
    // The shorter arrangement at the body text's size (plan() takes the stacked one when it fits too).
    const double content = std::min(planAt(chrome.area, options, kBodySize, false).content_height,
                                    planAt(chrome.area, options, kBodySize, true).content_height);
    // Without the strip's pair numbers: the dock asks for no more than the cells need.
    const double needed = tall.height() - chrome.area.height() - chrome.tick_row + content;
    return std::max(kMinimumHeight, static_cast<int>(std::ceil(needed)));
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

QRectF TokenLayoutView::countLine(const QRectF& target, const RenderOptions& options) const
{
    QImage scratch(target.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&scratch);
    return paintFigure(painter, target, options).count_line;
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

    // The pairs' strip at the bottom: its caption, the strip, the pair numbers under it. Without the
    // numbers (the caption gives each axis' pairs) when that lets more cells in, or larger ones: a
    // projector's large text leaves a short dock.
    rect = paint_caption(painter, rect, pairsCaption(), small, colors.text);
    const double strip_h = std::ceil(sfm.height() * 1.2);
    const double tick_row = sfm.height();
    const auto cells_area = [&](bool ticks) {
        QRectF area = rect;
        area.setBottom(rect.bottom() - (ticks ? tick_row : 0.0) - strip_h - 2.0 - sfm.height() * 0.4);
        area.setTop(rect.top() + sfm.height() * 1.35); // under the legend
        return area;
    };
    Plan p = plan(cells_area(true), options);
    p.ticks = true;
    if (!p.all_fit || p.size > kBodySize)
        if (Plan compact = plan(cells_area(false), options);
            compact.cells.size() > p.cells.size() ||
            (compact.cells.size() == p.cells.size() && compact.size < p.size)) {
            p = std::move(compact);
            p.ticks = false;
        }
    p.tick_row = tick_row;
    const QRectF ticks(rect.left(), rect.bottom() - tick_row, rect.width(), tick_row);
    const QRectF strip(rect.left(), (p.ticks ? ticks.top() : rect.bottom()) - strip_h - 2.0, rect.width(),
                       strip_h);
    rect = p.area;
    // Not all fit: the last line of the area says how many did, so no cell reaches into it.
    if (!p.all_fit) {
        p.count_line = QRectF(rect.left(), rect.bottom() - sfm.height(), rect.width(), sfm.height());
        p.cells.erase(std::find_if(p.cells.begin(), p.cells.end(),
                                   [&](const QRectF& c) { return c.bottom() > p.count_line.top() + 0.5; }),
                      p.cells.end());
    }

    // The legend: what the three lines (or columns) of a cell are.
    const QRectF legend(rect.left(), rect.top() - sfm.height() * 1.35, rect.width(), sfm.height());
    painter.setFont(small);
    double lx = legend.left();
    painter.setPen(colors.text);
    const QString intro = p.side_by_side ? tr("each cell, left to right:") : tr("each cell, top to bottom:");
    painter.drawText(QPointF(lx, legend.top() + sfm.ascent()), intro);
    lx += sfm.horizontalAdvance(intro) + sfm.height() * 0.5;
    const QString names[3] = {tr("t (time)"), tr("h (row)"), tr("w (column)")};
    for (int a = 0; a < 3; ++a) {
        painter.setPen(axis_color(a, options.dark));
        painter.drawText(QPointF(lx, legend.top() + sfm.ascent()), names[a]);
        lx += sfm.horizontalAdvance(names[a]) + sfm.height() * 0.8;
    }

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
        const QRectF inner = c.adjusted(p.pad, p.pad, -p.pad, -p.pad);
        for (int a = 0; a < 3; ++a) {
            painter.setPen(axis_color(a, options.dark));
            const QRectF at =
                p.side_by_side
                    ? QRectF(inner.left() + a * inner.width() / 3, inner.top(), inner.width() / 3, line)
                    : QRectF(c.left(), c.top() + (c.height() - 3 * line) / 2.0 + a * line, c.width(), line);
            painter.drawText(at, Qt::AlignCenter, lines[a]);
        }
    }
    if (!p.all_fit) {
        painter.setFont(small);
        painter.setPen(colors.text);
        painter.drawText(
            p.count_line, Qt::AlignRight | Qt::AlignVCenter,
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
        for (int i = 0; p.ticks && i < n; i += step) {
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
