// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/patch_grid_view.h"

#include "views/figure_style.h"

#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

Colormap mapOf(const PatchGridRow& row)
{
    return default_colormap(row.is_signed);
}

QFont titleFont(const QFont& base, const RenderOptions& o)
{
    return scaled_font(base, o.font_scale, 1.25, true);
}

QFont smallFont(const QFont& base, const RenderOptions& o)
{
    return scaled_font(base, o.font_scale, 0.9);
}

double marginOf(const RenderOptions& o)
{
    return 6.0 * o.font_scale;
}

} // namespace

PatchGridView::PatchGridView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PatchGridView::setData(PatchGridData data)
{
    m_data = std::move(data);
    m_image = QImage();
    if (const std::optional<PatchGridRow>& row = m_data.row) {
        const int w = static_cast<int>(row->grid.width), h = static_cast<int>(row->grid.height);
        const Colormap map = mapOf(*row);
        const QVector<QRgb> table = colormap_table(map);
        const ColorRange range = color_range(map, row->min, row->max);
        const QRgb nan = nan_fill_color(false).rgb();
        m_image = QImage(w, h, QImage::Format_RGB32);
        for (int r = 0; r < h; ++r) {
            auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(r));
            for (int c = 0; c < w; ++c) {
                const int index = colormap_index(row->values[static_cast<std::size_t>(r * w + c)], range);
                line[c] = index < 0 ? nan : table[index];
            }
        }
    }
    update();
}

RenderOptions PatchGridView::screenOptions() const
{
    RenderOptions o;
    o.dark = palette_is_dark(palette());
    return o;
}

QRectF PatchGridView::plotArea(const QRectF& target, const RenderOptions& options, int dropped) const
{
    const double margin = marginOf(options);
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    if (!m_data.title.isEmpty() && dropped < 3) {
        const QFontMetricsF fm(titleFont(font(), options));
        const auto lines = static_cast<double>(title_lines(m_data.title, fm, rect.width()).size());
        rect.setTop(rect.top() + fm.height() * (lines + 0.35)); // as paint_title leaves it
    }
    const QFontMetricsF sfm(smallFont(font(), options));
    for (const QString& line :
         {dropped < 4 ? options.caption : QString(), dropped < 2 ? m_data.note : QString()})
        if (!line.isEmpty())
            rect.setBottom(rect.bottom() - sfm.height() * 1.3); // as paint_caption leaves it
    return rect;
}

PatchGridView::Layout PatchGridView::layout(const QRectF& target, const RenderOptions& options) const
{
    constexpr double kLegibleCell = 4.0; // pixels a patch needs to be told from its neighbours
    Layout l;
    for (int dropped = 0; dropped <= 4; ++dropped) {
        l = layoutDropping(target, options, dropped);
        if (!m_data.row || (l.cell >= kLegibleCell && target.contains(contentOf(l))))
            break;
    }
    return l;
}

QRectF PatchGridView::contentOf(const Layout& l) const
{
    if (!m_data.row)
        return {};
    QRectF all = l.grid.united(l.bar);
    if (m_data.row->min <= m_data.row->max) {
        const ColorRange range = color_range(mapOf(*m_data.row), m_data.row->min, m_data.row->max);
        for (const auto& tick : barTicks(l, range))
            all = all.united(tickTextRect(l, tick.first, format_number(tick.second)));
    }
    for (const auto& label : axisLabels(l))
        all = all.united(label.first);
    return all;
}

PatchGridView::Layout PatchGridView::layoutDropping(const QRectF& target, const RenderOptions& options,
                                                    int dropped) const
{
    Layout l;
    l.dropped = dropped;
    l.font = scaled_font(font(), options.font_scale);
    if (!m_data.row)
        return l;
    const PatchGridRow& row = *m_data.row;
    const QFontMetricsF fm(l.font);
    const double gap = fm.height() * 0.6, barThickness = fm.height();
    // Room for the row numbers on the left and the column numbers on top (the last one may reach half
    // its width past the grid).
    QRectF area = plotArea(target, options, dropped);
    if (dropped < 1) {
        const double rowLabels =
            fm.horizontalAdvance(QString::number(row.grid.height - 1)) + fm.height() * 0.3;
        area.adjust(rowLabels, fm.height() * 1.1,
                    -fm.horizontalAdvance(QString::number(row.grid.width - 1)) / 2, 0);
    }
    // The widest tick label of the colour bar (its ends and its middle).
    const ColorRange range = color_range(mapOf(row), row.min, row.max);
    double labels = 0;
    for (double v : {range.lo, range.hi, (range.lo + range.hi) / 2})
        labels = std::max(labels, fm.horizontalAdvance(format_number(v)));
    const double availW = area.width(), availH = area.height();
    const double w = static_cast<double>(row.grid.width), h = static_cast<double>(row.grid.height);
    // The bar beside the grid, or below it when that leaves the patches larger (a narrow dock, a tall
    // grid such as Swin's, large text).
    const double besideW = gap + barThickness + fm.height() * 0.3 + labels;
    // Below, the two end numbers go on two lines when the area is too narrow for them side by side.
    const bool stacked = availW < 2 * labels + gap;
    const double belowH = gap + barThickness + fm.height() * 0.2 + fm.height() * (stacked ? 2 : 1);
    const double beside = std::min((availW - besideW) / w, availH / h);
    const double below = std::min(availW / w, (availH - belowH) / h);
    // Beside a grid shorter than its two end numbers, the numbers would overlap: below then.
    l.horizontalBar = below > beside || beside * h < 2.2 * fm.height();
    l.stackedLabels = l.horizontalBar && stacked;
    l.cell = std::max(1.0, l.horizontalBar ? below : beside);
    const QSizeF gridSize(l.cell * w, l.cell * h);
    if (l.horizontalBar) {
        // As wide as the area allows (at least the grid), so that its three numbers have room; the grid
        // and the bar centred across the area.
        const double barW = std::max({gridSize.width(), std::min(availW, 3 * labels + 2 * gap)});
        const double left = area.left() + std::max(0.0, (availW - barW) / 2);
        l.grid = QRectF(QPointF(left + (barW - gridSize.width()) / 2, area.top()), gridSize);
        l.bar = QRectF(left, l.grid.bottom() + gap, barW, barThickness);
    } else {
        const double left = area.left() + std::max(0.0, (availW - gridSize.width() - besideW) / 2);
        l.grid = QRectF(QPointF(left, area.top()), gridSize);
        l.bar = QRectF(l.grid.right() + gap, area.top(), barThickness, l.grid.height());
    }
    return l;
}

std::vector<std::pair<QRectF, QString>> PatchGridView::axisLabels(const Layout& l) const
{
    std::vector<std::pair<QRectF, QString>> labels;
    if (!m_data.row || l.dropped >= 1)
        return labels;
    const QFontMetricsF fm(l.font);
    const PatchGrid g = m_data.row->grid;
    // Every k-th number, k the smallest step whose numbers keep a gap between them.
    const auto step = [&](double needed) {
        return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(needed / l.cell)));
    };
    const double widest = fm.horizontalAdvance(QString::number(std::max(g.width, g.height) - 1));
    const std::int64_t columnStep = step(widest + fm.height() * 0.6);
    const std::int64_t rowStep = step(fm.height() * 1.15);
    const auto indices = [](std::int64_t count, std::int64_t k) {
        std::vector<std::int64_t> out;
        for (std::int64_t i = 0; i < count; i += k)
            if (i == 0 || count - 1 - i >= k) // the last one has room
                out.push_back(i);
        if (count > 1)
            out.push_back(count - 1);
        return out;
    };
    for (std::int64_t c : indices(g.width, columnStep)) {
        const QString text = QString::number(c);
        const double x = l.grid.left() + (static_cast<double>(c) + 0.5) * l.cell;
        const double w = fm.horizontalAdvance(text);
        labels.emplace_back(QRectF(x - w / 2, l.grid.top() - fm.height() * 1.05, w, fm.height()), text);
    }
    for (std::int64_t r : indices(g.height, rowStep)) {
        const QString text = QString::number(r);
        const double y = l.grid.top() + (static_cast<double>(r) + 0.5) * l.cell;
        const double w = fm.horizontalAdvance(text);
        labels.emplace_back(
            QRectF(l.grid.left() - fm.height() * 0.3 - w, y - fm.height() / 2, w, fm.height()), text);
    }
    return labels;
}

QRectF PatchGridView::cellRect(const Layout& l, std::int64_t row, std::int64_t column) const
{
    if (!m_data.row)
        return {};
    return QRectF(l.grid.left() + static_cast<double>(column) * l.cell,
                  l.grid.top() + static_cast<double>(row) * l.cell, l.cell, l.cell);
}

QRectF PatchGridView::cellRect(std::int64_t row, std::int64_t column) const
{
    return cellRect(layout(rect(), screenOptions()), row, column);
}

std::optional<std::int64_t> PatchGridView::patchAt(QPointF point) const
{
    const Layout l = layout(rect(), screenOptions());
    if (!m_data.row || !l.grid.contains(point))
        return std::nullopt;
    const PatchGridRow& row = *m_data.row;
    const auto c = std::min<std::int64_t>(static_cast<std::int64_t>((point.x() - l.grid.left()) / l.cell),
                                          row.grid.width - 1);
    const auto r = std::min<std::int64_t>(static_cast<std::int64_t>((point.y() - l.grid.top()) / l.cell),
                                          row.grid.height - 1);
    const std::int64_t patch = r * row.grid.width + c;
    if (patch >= static_cast<std::int64_t>(row.values.size()))
        return std::nullopt;
    return patch;
}

std::vector<QRectF> PatchGridView::colourBarLabelRects(const QRectF& target,
                                                       const RenderOptions& options) const
{
    std::vector<QRectF> rects;
    if (!m_data.row || m_data.row->min > m_data.row->max)
        return rects;
    const Layout l = layout(target, options);
    const ColorRange range = color_range(mapOf(*m_data.row), m_data.row->min, m_data.row->max);
    for (const auto& [anchor, value] : barTicks(l, range))
        rects.push_back(tickTextRect(l, anchor, format_number(value)));
    return rects;
}

std::vector<QRectF> PatchGridView::colourBarLabelRects() const
{
    return colourBarLabelRects(rect(), screenOptions());
}

QRectF PatchGridView::contentRect(const QRectF& target, const RenderOptions& options) const
{
    if (!m_data.row)
        return {};
    return contentOf(layout(target, options));
}

QRectF PatchGridView::contentRect() const
{
    return contentRect(rect(), screenOptions());
}

QRectF PatchGridView::gridRect(const QRectF& target, const RenderOptions& options) const
{
    return layout(target, options).grid;
}

std::vector<std::pair<double, double>> PatchGridView::barTicks(const Layout& l, const ColorRange& range) const
{
    // (position along the bar 0..1 from its low end, value): the ends, and the middle (0 on the
    // diverging map) when the bar is long enough for a third number.
    std::vector<std::pair<double, double>> ticks{{0.0, range.lo}, {1.0, range.hi}};
    const QFontMetricsF fm(l.font);
    double widest = 0;
    for (double v : {range.lo, range.hi, (range.lo + range.hi) / 2})
        widest = std::max(widest, fm.horizontalAdvance(format_number(v)));
    const double room = l.horizontalBar ? l.bar.width() / (3 * widest + 2 * fm.height() * 0.5)
                                        : l.bar.height() / (4 * fm.height());
    if (room >= 1)
        ticks.emplace_back(0.5, (range.lo + range.hi) / 2);
    return ticks;
}

QRectF PatchGridView::tickTextRect(const Layout& l, double anchor, const QString& text) const
{
    const QFontMetricsF fm(l.font);
    const double tw = fm.horizontalAdvance(text), th = fm.height();
    if (l.horizontalBar) {
        // Under the bar: the low end's number starts at its left edge, the high end's ends at its right.
        const double x = l.bar.left() + anchor * l.bar.width();
        const double left = anchor <= 0 ? x : anchor >= 1 ? x - tw : x - tw / 2;
        const double line = l.stackedLabels && anchor >= 1 ? th : 0; // the high end's on the second line
        return QRectF(left, l.bar.bottom() + fm.height() * 0.2 + line, tw, th);
    }
    // Right of the bar: the high end's number at its top, the low end's at its bottom.
    const double y = l.bar.bottom() - anchor * l.bar.height();
    const double top = anchor >= 1 ? y : anchor <= 0 ? y - th : y - th / 2;
    return QRectF(l.bar.right() + fm.height() * 0.3, top, tw, th);
}

QSize PatchGridView::sizeHint() const
{
    const int e = fontMetrics().height();
    return {e * 22, e * 20};
}

QSize PatchGridView::minimumSizeHint() const
{
    // Small enough that the dock fits beside the heatmap in presentation mode at 250 %.
    const int e = fontMetrics().height();
    return {e * 6, e * 6};
}

void PatchGridView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    renderFigure(p, rect(), screenOptions());
}

void PatchGridView::renderFigure(QPainter& p, const QRectF& target, const RenderOptions& options) const
{
    const FigureColors colors = figure_colors(options.dark);
    p.save();
    p.fillRect(target, colors.background);
    const double margin = marginOf(options);
    QRectF rect = target.adjusted(margin, margin, -margin, -margin);
    if (!m_data.row) {
        p.setPen(colors.text);
        p.setFont(titleFont(font(), options));
        p.drawText(rect, Qt::AlignCenter | Qt::TextWordWrap, m_data.title);
        p.restore();
        return;
    }
    const PatchGridRow& row = *m_data.row;
    const Layout l = layout(target, options);
    if (l.dropped < 3)
        paint_title(p, rect, m_data.title, titleFont(font(), options), colors.text);
    if (l.dropped < 4)
        rect = paint_caption(p, rect, options.caption, smallFont(font(), options), colors.muted);
    if (l.dropped < 2)
        paint_caption(p, rect, m_data.note, smallFont(font(), options), colors.muted);

    // Nearest neighbour, one square per patch, also in SVG and PDF (no smoothing of the 16 x 16 image).
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(l.grid, m_image);
    // Thin lines between patches once a cell is large enough to show them.
    if (l.cell >= 6) {
        p.setPen(QPen(QColor(255, 255, 255, 60), 1));
        for (std::int64_t c = 1; c < row.grid.width; ++c) {
            const double x = l.grid.left() + static_cast<double>(c) * l.cell;
            p.drawLine(QPointF(x, l.grid.top()), QPointF(x, l.grid.bottom()));
        }
        for (std::int64_t r = 1; r < row.grid.height; ++r) {
            const double y = l.grid.top() + static_cast<double>(r) * l.cell;
            p.drawLine(QPointF(l.grid.left(), y), QPointF(l.grid.right(), y));
        }
    }
    // The query patch: a frame in two colours, visible on any colour of the map.
    const QRectF q = cellRect(l, row.query / row.grid.width, row.query % row.grid.width);
    const double penWidth = std::max(2.0, QFontMetricsF(l.font).height() / 8.0);
    // Inside the cell when it is large, around it when it is small (a long grid such as Swin's at 200 %).
    const QRectF frame = q.width() >= 4 * penWidth ? q.adjusted(penWidth, penWidth, -penWidth, -penWidth)
                                                   : q.adjusted(-penWidth, -penWidth, penWidth, penWidth);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::black, penWidth * 2));
    p.drawRect(frame);
    p.setPen(QPen(Qt::white, penWidth));
    p.drawRect(frame);

    // The colour bar: the largest value on top, or on the right when it lies below the grid.
    const QVector<QRgb> table = colormap_table(mapOf(row));
    QImage bar = l.horizontalBar ? QImage(kColormapSize, 1, QImage::Format_RGB32)
                                 : QImage(1, kColormapSize, QImage::Format_RGB32);
    for (int i = 0; i < kColormapSize; ++i) {
        if (l.horizontalBar)
            bar.setPixel(i, 0, table[i]);
        else
            bar.setPixel(0, kColormapSize - 1 - i, table[i]);
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform, true);
    p.drawImage(l.bar, bar);
    p.setPen(QPen(colors.axis, colors.line_scale));
    p.drawRect(l.bar);
    p.setFont(l.font);
    p.setPen(colors.muted);
    for (const auto& [box, text] : axisLabels(l))
        p.drawText(box, Qt::AlignCenter, text);
    if (row.min <= row.max) {
        p.setPen(colors.text);
        const ColorRange range = color_range(mapOf(row), row.min, row.max);
        for (const auto& [anchor, value] : barTicks(l, range)) {
            const QString text = format_number(value);
            p.drawText(tickTextRect(l, anchor, text), Qt::AlignCenter, text);
        }
    }
    p.restore();
}

void PatchGridView::mousePressEvent(QMouseEvent* e)
{
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton)
        return;
    if (const std::optional<std::int64_t> patch = patchAt(e->position()))
        emit patchClicked(*patch);
}

void PatchGridView::mouseMoveEvent(QMouseEvent* e)
{
    emit hovered(patchAt(e->position()));
}

void PatchGridView::leaveEvent(QEvent*)
{
    emit hovered(std::nullopt);
}

void PatchGridView::keyPressEvent(QKeyEvent* e)
{
    switch (e->key()) {
    case Qt::Key_Left: emit stepped(0, -1); break;
    case Qt::Key_Right: emit stepped(0, 1); break;
    case Qt::Key_Up: emit stepped(-1, 0); break;
    case Qt::Key_Down: emit stepped(1, 0); break;
    default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

} // namespace posatlas::ui
