// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/patch_grid_panel.h"

#include "jobs/figure_numbers.h"
#include "jobs/job_tracker.h"
#include "model/scenario_model.h"
#include "views/colormap.h"

#include <QCoreApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace posatlas::ui {

namespace {

QString valueLabel(const PatchGridRow& row)
{
    return QCoreApplication::translate("MatrixLabel", row.value_label.c_str());
}

Colormap mapOf(const PatchGridRow& row)
{
    return default_colormap(row.is_signed);
}

} // namespace

// ---------------------------------------------------------------- canvas

PatchGridCanvas::PatchGridCanvas(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PatchGridCanvas::setRow(std::optional<PatchGridRow> row)
{
    m_row = std::move(row);
    m_image = QImage();
    if (m_row) {
        const int w = static_cast<int>(m_row->grid.width), h = static_cast<int>(m_row->grid.height);
        const Colormap map = mapOf(*m_row);
        const QVector<QRgb> table = colormap_table(map);
        const ColorRange range = color_range(map, m_row->min, m_row->max);
        const QRgb nan = nan_fill_color(false).rgb();
        m_image = QImage(w, h, QImage::Format_RGB32);
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                const int index = colormap_index(m_row->values[static_cast<std::size_t>(r * w + c)], range);
                m_image.setPixel(c, r, index < 0 ? nan : table[index]);
            }
    }
    update();
}

PatchGridCanvas::Layout PatchGridCanvas::layout() const
{
    Layout l;
    if (!m_row)
        return l;
    const QFontMetricsF fm(font());
    const double gap = fm.height() * 0.6, margin = fm.height() * 0.5, barThickness = fm.height();
    // The widest tick label of the colour bar (its ends and its middle).
    const ColorRange range = color_range(mapOf(*m_row), m_row->min, m_row->max);
    double labels = 0;
    for (double v : {range.lo, range.hi, (range.lo + range.hi) / 2})
        labels = std::max(labels, fm.horizontalAdvance(format_number(v)));
    const double availW = width() - 2 * margin, availH = height() - 2 * margin;
    const double w = static_cast<double>(m_row->grid.width), h = static_cast<double>(m_row->grid.height);
    // The bar beside the grid, or below it when that leaves the patches larger (a narrow dock, a tall
    // grid such as Swin's, large text).
    const double besideW = gap + barThickness + fm.height() * 0.3 + labels;
    // Below, the two end numbers go on two lines when the canvas is too narrow for them side by side.
    const bool stacked = availW < 2 * labels + gap;
    const double belowH = gap + barThickness + fm.height() * 0.2 + fm.height() * (stacked ? 2 : 1);
    const double beside = std::min((availW - besideW) / w, availH / h);
    const double below = std::min(availW / w, (availH - belowH) / h);
    l.horizontalBar = below > beside;
    l.stackedLabels = l.horizontalBar && stacked;
    l.cell = std::max(1.0, l.horizontalBar ? below : beside);
    l.grid = QRectF(margin, margin, l.cell * w, l.cell * h);
    if (l.horizontalBar) {
        // As wide as the canvas allows (at least the grid), so that its three numbers have room.
        const double barW = std::max({l.grid.width(), std::min(availW, 3 * labels + 2 * gap)});
        l.bar = QRectF(margin, l.grid.bottom() + gap, barW, barThickness);
    } else {
        // At least two numbers tall (its ends' numbers would overlap beside a grid of a few text lines,
        // a 16 × 16 grid in a narrow dock at 250 %), within the canvas.
        const double barH = std::min(availH, std::max(l.grid.height(), 2 * fm.height()));
        l.bar = QRectF(l.grid.right() + gap, margin, barThickness, barH);
    }
    return l;
}

QRectF PatchGridCanvas::cellRect(std::int64_t row, std::int64_t column) const
{
    const Layout l = layout();
    if (!m_row)
        return {};
    return QRectF(l.grid.left() + static_cast<double>(column) * l.cell,
                  l.grid.top() + static_cast<double>(row) * l.cell, l.cell, l.cell);
}

std::optional<std::int64_t> PatchGridCanvas::patchAt(QPointF point) const
{
    const Layout l = layout();
    if (!m_row || !l.grid.contains(point))
        return std::nullopt;
    const auto c = std::min<std::int64_t>(static_cast<std::int64_t>((point.x() - l.grid.left()) / l.cell),
                                          m_row->grid.width - 1);
    const auto r = std::min<std::int64_t>(static_cast<std::int64_t>((point.y() - l.grid.top()) / l.cell),
                                          m_row->grid.height - 1);
    const std::int64_t patch = r * m_row->grid.width + c;
    if (patch >= static_cast<std::int64_t>(m_row->values.size()))
        return std::nullopt;
    return patch;
}

std::vector<QRectF> PatchGridCanvas::colourBarLabelRects() const
{
    std::vector<QRectF> rects;
    if (!m_row || m_row->min > m_row->max)
        return rects;
    const Layout l = layout();
    const ColorRange range = color_range(mapOf(*m_row), m_row->min, m_row->max);
    for (const auto& [anchor, value] : barTicks(l, range))
        rects.push_back(tickTextRect(l, anchor, format_number(value)));
    return rects;
}

QRectF PatchGridCanvas::contentRect() const
{
    if (!m_row)
        return {};
    const Layout l = layout();
    const QFontMetricsF fm(font());
    const ColorRange range = color_range(mapOf(*m_row), m_row->min, m_row->max);
    QRectF all = l.grid.united(l.bar);
    for (const auto& [anchor, value] : barTicks(l, range))
        all = all.united(tickTextRect(l, anchor, format_number(value)));
    return all;
}

std::vector<std::pair<double, double>> PatchGridCanvas::barTicks(const Layout& l,
                                                                 const ColorRange& range) const
{
    // (position along the bar 0..1 from its low end, value): the ends, and the middle (0 on the
    // diverging map) when the bar is long enough for a third number.
    std::vector<std::pair<double, double>> ticks{{0.0, range.lo}, {1.0, range.hi}};
    const QFontMetricsF fm(font());
    double widest = 0;
    for (double v : {range.lo, range.hi, (range.lo + range.hi) / 2})
        widest = std::max(widest, fm.horizontalAdvance(format_number(v)));
    const double room = l.horizontalBar ? l.bar.width() / (3 * widest + 2 * fm.height() * 0.5)
                                        : l.bar.height() / (4 * fm.height());
    if (room >= 1)
        ticks.emplace_back(0.5, (range.lo + range.hi) / 2);
    return ticks;
}

QRectF PatchGridCanvas::tickTextRect(const Layout& l, double anchor, const QString& text) const
{
    const QFontMetricsF fm(font());
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

QSize PatchGridCanvas::sizeHint() const
{
    const int e = fontMetrics().height();
    return {e * 22, e * 18};
}

QSize PatchGridCanvas::minimumSizeHint() const
{
    // Small enough that the dock fits beside the heatmap in presentation mode at 250 %.
    const int e = fontMetrics().height();
    return {e * 6, e * 4};
}

void PatchGridCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (!m_row)
        return;
    const Layout l = layout();
    p.drawImage(l.grid, m_image); // nearest neighbour: one square per patch
    // Thin lines between patches once a cell is large enough to show them.
    if (l.cell >= 6) {
        p.setPen(QPen(QColor(255, 255, 255, 60), 1));
        for (std::int64_t c = 1; c < m_row->grid.width; ++c) {
            const double x = l.grid.left() + static_cast<double>(c) * l.cell;
            p.drawLine(QPointF(x, l.grid.top()), QPointF(x, l.grid.bottom()));
        }
        for (std::int64_t r = 1; r < m_row->grid.height; ++r) {
            const double y = l.grid.top() + static_cast<double>(r) * l.cell;
            p.drawLine(QPointF(l.grid.left(), y), QPointF(l.grid.right(), y));
        }
    }
    // The query patch: a frame in two colours, visible on any colour of the map.
    const QRectF q = cellRect(m_row->query / m_row->grid.width, m_row->query % m_row->grid.width);
    const double penWidth = std::max(2.0, fontMetrics().height() / 8.0);
    // Inside the cell when it is large, around it when it is small (a long grid such as Swin's at 200 %).
    const QRectF frame = q.width() >= 4 * penWidth ? q.adjusted(penWidth, penWidth, -penWidth, -penWidth)
                                                   : q.adjusted(-penWidth, -penWidth, penWidth, penWidth);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::black, penWidth * 2));
    p.drawRect(frame);
    p.setPen(QPen(Qt::white, penWidth));
    p.drawRect(frame);

    // The colour bar: the largest value on top, or on the right when it lies below the grid.
    const QVector<QRgb> table = colormap_table(mapOf(*m_row));
    QImage bar = l.horizontalBar ? QImage(kColormapSize, 1, QImage::Format_RGB32)
                                 : QImage(1, kColormapSize, QImage::Format_RGB32);
    for (int i = 0; i < kColormapSize; ++i) {
        if (l.horizontalBar)
            bar.setPixel(i, 0, table[i]);
        else
            bar.setPixel(0, kColormapSize - 1 - i, table[i]);
    }
    p.drawImage(l.bar, bar);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(l.bar);
    if (m_row->min <= m_row->max) {
        const ColorRange range = color_range(mapOf(*m_row), m_row->min, m_row->max);
        for (const auto& [anchor, value] : barTicks(l, range)) {
            const QString text = format_number(value);
            p.drawText(tickTextRect(l, anchor, text), Qt::AlignCenter, text);
        }
    }
}

void PatchGridCanvas::mousePressEvent(QMouseEvent* e)
{
    setFocus(Qt::MouseFocusReason);
    if (e->button() != Qt::LeftButton)
        return;
    if (const std::optional<std::int64_t> patch = patchAt(e->position()))
        emit patchClicked(*patch);
}

void PatchGridCanvas::mouseMoveEvent(QMouseEvent* e)
{
    emit hovered(patchAt(e->position()));
}

void PatchGridCanvas::leaveEvent(QEvent*)
{
    emit hovered(std::nullopt);
}

void PatchGridCanvas::keyPressEvent(QKeyEvent* e)
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

// ---------------------------------------------------------------- panel

PatchGridPanel::PatchGridPanel(ScenarioModel* model, JobTracker* jobs, int slot, QWidget* parent)
    : QWidget(parent), m_model(model), m_jobs(jobs), m_slot(slot), m_title(new QLabel(this)),
      m_canvas(new PatchGridCanvas(this)), m_queryLabel(new QLabel(this)), m_hoverLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("PatchGridPanel"));
    m_title->setWordWrap(true);
    m_queryLabel->setWordWrap(true);
    m_hoverLabel->setWordWrap(true);
    m_queryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hoverLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* box = new QVBoxLayout(this);
    // The readouts above the image: the canvas takes the rest, and its grid sits at the top of it.
    box->addWidget(m_title);
    box->addWidget(m_queryLabel);
    box->addWidget(m_hoverLabel);
    box->addWidget(m_canvas, 1);

    connect(m_model, &ScenarioModel::scenarioChanged, this, &PatchGridPanel::onScenarioChanged);
    connect(m_jobs, &JobTracker::jobFailed, this, [this](int slot, const QString& message) {
        if (slot != m_slot)
            return;
        m_canvas->setRow(std::nullopt);
        updateTexts();
        m_hoverLabel->setText(message);
    });
    connect(m_canvas, &PatchGridCanvas::patchClicked, this, &PatchGridPanel::setQuery);
    connect(m_canvas, &PatchGridCanvas::hovered, this, &PatchGridPanel::onHovered);
    connect(m_canvas, &PatchGridCanvas::stepped, this, [this](int rows, int columns) {
        const std::optional<PatchGrid> grid = patch_grid(m_model->scenario());
        if (!grid)
            return;
        const std::int64_t r = m_query / grid->width + rows, c = m_query % grid->width + columns;
        if (r < 0 || c < 0 || c >= grid->width)
            return;
        const std::int64_t next = r * grid->width + c;
        if (next < m_model->scenario().seq_len)
            setQuery(next);
    });
    updateTexts();
}

bool PatchGridPanel::applies() const
{
    return patch_grid(m_model->scenario()).has_value();
}

const std::optional<PatchGridRow>& PatchGridPanel::shown() const
{
    return m_canvas->row();
}

void PatchGridPanel::setQuery(std::int64_t patch)
{
    const std::int64_t clamped =
        std::clamp<std::int64_t>(patch, 0, std::max<std::int64_t>(0, m_model->scenario().seq_len - 1));
    if (clamped == m_query)
        return;
    m_query = clamped;
    updateTexts();
    emit queryChanged(m_query);
    refresh();
}

void PatchGridPanel::refresh()
{
    const Scenario& s = m_model->scenario();
    if (!patch_grid(s)) {
        m_jobs->cancel(m_slot);
        m_canvas->setRow(std::nullopt);
        updateTexts();
        return;
    }
    m_jobs->submit(
        m_slot,
        [s, query = m_query](const JobControl& job) {
            return patch_grid_row(s, query, job.cancel, job.progress);
        },
        [this](PatchGridRow&& row) {
            m_canvas->setRow(std::move(row));
            updateTexts();
        });
}

void PatchGridPanel::onScenarioChanged()
{
    const Scenario& s = m_model->scenario();
    if (m_query >= s.seq_len) {
        m_query = std::max<std::int64_t>(0, s.seq_len - 1);
        emit queryChanged(m_query);
    }
    refresh();
}

void PatchGridPanel::onHovered(std::optional<std::int64_t> patch)
{
    m_hover = patch;
    updateTexts();
}

QString PatchGridPanel::queryText() const
{
    return m_queryLabel->text();
}

QString PatchGridPanel::hoverText() const
{
    return m_hoverLabel->text();
}

void PatchGridPanel::updateTexts()
{
    const std::optional<PatchGridRow>& row = m_canvas->row();
    const std::optional<PatchGrid> grid = patch_grid(m_model->scenario());
    if (!grid) {
        m_title->setText(
            tr("The patch grid is shown for methods of image patches (2D RoPE, RoPE-Mixed, Swin, ViT)."));
        m_queryLabel->clear();
        m_hoverLabel->clear();
        return;
    }
    const QString label = row ? valueLabel(*row) : QCoreApplication::translate("MatrixLabel", "logit");
    m_title->setText((grid->cls_left_out ? tr("The query patch against every patch of the %1 × %2 grid: %3 "
                                              "(the CLS token's row left out)")
                                         : tr("The query patch against every patch of the %1 × %2 grid: %3"))
                         .arg(grid->height)
                         .arg(grid->width)
                         .arg(label));
    m_queryLabel->setText(tr("Query patch %1 at row %2, column %3")
                              .arg(m_query)
                              .arg(m_query / grid->width)
                              .arg(m_query % grid->width));
    if (!row || !m_hover) {
        m_hoverLabel->setText(
            tr("Point at a patch to read its value; click it, or use the arrow keys, to make it the query."));
        return;
    }
    const std::int64_t p = *m_hover;
    if (p >= static_cast<std::int64_t>(row->values.size())) {
        m_hoverLabel->setText(
            tr("Point at a patch to read its value; click it, or use the arrow keys, to make it the query."));
        return;
    }
    const double v = row->values[static_cast<std::size_t>(p)];
    const QString value = std::isnan(v) ? tr("no value") : format_number(v);
    m_hoverLabel->setText(tr("Patch %1 at row %2, column %3: %4 %5")
                              .arg(p)
                              .arg(p / row->grid.width)
                              .arg(p % row->grid.width)
                              .arg(label, value));
}

void PatchGridPanel::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        updateTexts();
    QWidget::changeEvent(e);
}

void PatchGridPanel::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (!shown() || shown()->query != m_query)
        refresh();
}

} // namespace posatlas::ui
