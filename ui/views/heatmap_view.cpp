// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/heatmap_view.h"

#include "views/figure_style.h"
#include "views/heatmap_layout.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace posatlas::ui {

QString matrixLabel(const std::string& label)
{
    return QCoreApplication::translate("MatrixLabel", label.c_str());
}

namespace {

constexpr int kViewportDebounceMs = 100;

HeatmapView::Viewport union_viewport(double r0, double r1, double c0, double c1)
{
    return {r0, c0, r1 - r0, c1 - c0};
}

bool inside(const HeatmapView::Viewport& inner, const HeatmapView::Viewport& outer)
{
    const double tol = 1e-6 + 0.5; // half a position: windows are whole positions, extents estimates
    return inner.row0 >= outer.row0 - tol && inner.col0 >= outer.col0 - tol &&
           inner.row0 + inner.rows <= outer.row0 + outer.rows + tol &&
           inner.col0 + inner.cols <= outer.col0 + outer.cols + tol;
}

bool same_viewport(const HeatmapView::Viewport& a, const HeatmapView::Viewport& b)
{
    const double tol = 1e-9 * std::max({1.0, std::abs(b.rows), std::abs(b.cols)});
    return std::abs(a.row0 - b.row0) < tol && std::abs(a.col0 - b.col0) < tol &&
           std::abs(a.rows - b.rows) < tol && std::abs(a.cols - b.cols) < tol;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setCursor(Qt::CrossCursor);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(160, 120);
    setToolTip(tr("Wheel or + / −: zoom · drag or arrow keys: pan · double-click or 0: show everything · "
                  "hover: the value under the cursor"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_fitAction = new QAction(tr("&Fit Colours to View"), this);
    m_fitAction->setObjectName(QStringLiteral("fitColorsToViewAction"));
    m_fitAction->setCheckable(true);
    m_fitAction->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    m_fitAction->setStatusTip(tr("Heatmap: colour scale over the visible window's values (off: the whole "
                                 "matrix's scale, so a cell keeps its colour while you zoom and pan)"));
    connect(m_fitAction, &QAction::toggled, this, &HeatmapView::setFitColorsToView);
    addAction(m_fitAction); // its shortcut works wherever the view is
    m_viewportTimer.setSingleShot(true);
    m_viewportTimer.setInterval(kViewportDebounceMs);
    connect(&m_viewportTimer, &QTimer::timeout, this, [this] {
        if (m_view.rows <= 0 || m_view.cols <= 0)
            return;
        // Whole positions covering the visible window, never outside the matrix first shown.
        const double hr0 = std::round(m_home.row0), hc0 = std::round(m_home.col0);
        const double hr1 = std::round(m_home.row0 + m_home.rows), hc1 = std::round(m_home.col0 + m_home.cols);
        const double r0 = std::clamp(std::floor(m_view.row0), hr0, hr1);
        const double c0 = std::clamp(std::floor(m_view.col0), hc0, hc1);
        const double r1 = std::clamp(std::ceil(m_view.row0 + m_view.rows), r0 + 1, std::max(r0 + 1, hr1));
        const double c1 = std::clamp(std::ceil(m_view.col0 + m_view.cols), c0 + 1, std::max(c0 + 1, hc1));
        emit viewportRequested(static_cast<std::int64_t>(r0), static_cast<std::int64_t>(c0),
                               static_cast<std::int64_t>(r1 - r0), static_cast<std::int64_t>(c1 - c0));
    });
}

HeatmapView::Extent HeatmapView::extent_of(const std::vector<std::int64_t>& index,
                                           const std::vector<std::int64_t>& block_end)
{
    Extent e;
    e.count = static_cast<qsizetype>(index.size());
    if (index.empty())
        return e;
    e.lo = static_cast<double>(index.front());
    if (block_end.size() == index.size() && block_end.back() - index.back() > 1) {
        // Block means (attention_logits.h): contiguous blocks from index.front() to block_end.back().
        e.step = static_cast<double>(block_end.back() - index.front()) / static_cast<double>(index.size());
        return e;
    }
    if (index.size() > 1) {
        // Point samples sit at row0 + floor((r + 0.5) * rows / out_rows) (attention_logits.h), so the
        // stride is rows / out_rows and the first sample sits half a stride in.
        const double step =
            static_cast<double>(index.back() - index.front()) / static_cast<double>(index.size() - 1);
        if (step > 1.0) {
            e.step = step;
            e.lo -= std::floor(0.5 * step);
        }
    }
    return e;
}

HeatmapView::Extent HeatmapView::row_extent(const MatrixResult& m, const HeatmapWindow& window)
{
    if (window.rows <= 0 || m.row_index.empty())
        return extent_of(m.row_index, m.row_block_end);
    // Output row r covers [row0 + r rows / out_rows, row0 + (r + 1) rows / out_rows) (attention_logits.h).
    const auto count = static_cast<qsizetype>(m.row_index.size());
    return {static_cast<double>(window.row0), static_cast<double>(window.rows) / static_cast<double>(count),
            count};
}

HeatmapView::Extent HeatmapView::col_extent(const MatrixResult& m, const HeatmapWindow& window)
{
    if (window.cols <= 0 || m.col_index.empty())
        return extent_of(m.col_index, m.col_block_end);
    const auto count = static_cast<qsizetype>(m.col_index.size());
    return {static_cast<double>(window.col0), static_cast<double>(window.cols) / static_cast<double>(count),
            count};
}

const MatrixResult& HeatmapView::scaleMatrix(int panel) const
{
    const HeatmapPanel& p = m_data.panels[panel];
    return p.whole && !m_fitToView ? *p.whole : p.matrix;
}

bool HeatmapView::anySigned() const
{
    // The whole matrix's: the colour map does not change with the zoom window.
    bool any_signed = false;
    for (const HeatmapPanel& p : m_data.panels)
        any_signed = any_signed || (p.whole ? p.whole->is_signed : p.matrix.is_signed);
    return any_signed;
}

bool HeatmapView::hasWholeMatrix() const
{
    return std::any_of(m_data.panels.begin(), m_data.panels.end(),
                       [](const HeatmapPanel& p) { return p.whole != nullptr; });
}

void HeatmapView::setData(const HeatmapData& data)
{
    m_data = data;
    m_perPanel = data.per_panel_scales;
    m_subtractMean = data.subtract_mean;
    m_rowExtent.clear();
    m_colExtent.clear();
    m_wholeRowExtent.clear();
    m_wholeColExtent.clear();
    double r0 = std::numeric_limits<double>::infinity(), r1 = -r0, c0 = r0, c1 = -r0;
    for (const HeatmapPanel& p : m_data.panels) {
        const Extent re = row_extent(p.matrix, m_data.window), ce = col_extent(p.matrix, m_data.window);
        m_rowExtent.append(re);
        m_colExtent.append(ce);
        m_wholeRowExtent.append(p.whole ? row_extent(*p.whole, m_data.whole) : Extent{});
        m_wholeColExtent.append(p.whole ? col_extent(*p.whole, m_data.whole) : Extent{});
        if (re.count > 0 && ce.count > 0) {
            r0 = std::min(r0, re.lo);
            r1 = std::max(r1, re.hi());
            c0 = std::min(c0, ce.lo);
            c1 = std::max(c1, ce.hi());
        }
    }
    if (std::isfinite(r0) && m_data.whole.rows > 0 && m_data.whole.cols > 0) {
        // The job says which matrix the window belongs to: zoomed into the same matrix, the view stays
        // where the user put it (the data is for that window, or one a step behind); otherwise it shows
        // the data's window of the (new) matrix.
        const Viewport whole{static_cast<double>(m_data.whole.row0), static_cast<double>(m_data.whole.col0),
                             static_cast<double>(m_data.whole.rows), static_cast<double>(m_data.whole.cols)};
        if (!m_zoomed || !same_viewport(whole, m_home)) {
            m_home = whole;
            m_view = union_viewport(r0, r1, c0, c1);
            clampView();
            m_zoomed = !same_viewport(m_view, m_home);
        }
    } else if (std::isfinite(r0)) {
        const Viewport extent = union_viewport(r0, r1, c0, c1);
        // While zoomed, data for (part of) the home window keeps the zoom: it usually is the window
        // this view asked for. Anything else (a new sequence length, a new kind) starts afresh.
        if (!m_zoomed || !inside(extent, m_home)) {
            m_home = extent;
            m_view = extent;
            m_zoomed = false;
        }
    } else {
        m_home = m_view = Viewport{};
        m_zoomed = false;
    }
    if (!m_colormapExplicit) {
        const Colormap automatic = default_colormap(anySigned() || m_subtractMean);
        if (automatic != m_colormap) {
            m_colormap = automatic;
            emit colormapChanged(m_colormap);
        }
    }
    updateRange();
    rebuildImages();
    m_hoverText.clear();
    if (m_data.linked_rows.empty()) { // linked rows: keep the highlighted word's pair if it still has one
        m_highlight.clear();
        m_highlightPinned = false;
    } else if (!m_highlight.isEmpty()) {
        highlightRow(m_highlight.front().first, m_highlight.front().second);
    }
    update();
}

void HeatmapView::setFitColorsToView(bool on)
{
    if (on == m_fitToView)
        return;
    m_fitToView = on;
    m_fitAction->setChecked(on); // toggled() comes back here and returns above
    updateRange();
    rebuildImages();
    update();
    emit fitColorsToViewChanged(on);
}

QString HeatmapView::scaleLabel() const
{
    // An animation's frames share one scale, every frame's extremes together (HeatmapData::fixed_extremes).
    if (!m_data.fixed_extremes.empty())
        return usesPanelScales() ? tr("scale: each panel's own, fixed over the animation")
                                 : tr("scale: fixed over the animation");
    // With one scale per panel the strip has no shared numbers: each panel's range is in its caption.
    if (usesPanelScales())
        return m_fitToView ? tr("scale: each panel's view (range in its title)")
                           : tr("scale: each panel's own (range in its title)");
    return m_fitToView ? tr("scale: fitted to view") : tr("scale: whole matrix");
}

void HeatmapView::setColormap(Colormap map)
{
    m_colormapExplicit = true;
    if (map == m_colormap)
        return;
    m_colormap = map;
    updateRange();
    rebuildImages();
    update();
    emit colormapChanged(m_colormap);
}

void HeatmapView::setAutomaticColormap()
{
    setColormap(default_colormap(anySigned()));
    m_colormapExplicit = false;
}

const QImage& HeatmapView::panelImage(int panel) const
{
    static const QImage empty;
    return panel >= 0 && panel < m_images.size() ? m_images[panel] : empty;
}

ColorRange HeatmapView::panelRange(int panel) const
{
    return usesPanelScales() && panel >= 0 && panel < m_panelRanges.size() ? m_panelRanges[panel] : m_range;
}

void HeatmapView::setPerPanelScales(bool on)
{
    if (on == m_perPanel)
        return;
    m_perPanel = on;
    updateRange();
    rebuildImages();
    update();
}

void HeatmapView::setSubtractMean(bool on)
{
    if (on == m_subtractMean)
        return;
    m_subtractMean = on;
    if (!m_colormapExplicit) { // centred values are signed: the diverging map, unless the user chose one
        if (const Colormap automatic = default_colormap(anySigned() || on); automatic != m_colormap) {
            m_colormap = automatic;
            emit colormapChanged(m_colormap);
        }
    }
    updateRange();
    rebuildImages();
    update();
}

void HeatmapView::updateRange()
{
    // The colour scale is the whole matrix's, or the visible window's when fitted to the view
    // (scaleMatrix): its extremes, and its mean when the mean is subtracted.
    // Means of the finite cells (the matrices carry their extremes, not their means).
    m_panelMeans.clear();
    double sum_all = 0.0;
    qint64 count_all = 0;
    for (qsizetype i = 0; i < m_data.panels.size(); ++i) {
        double sum = 0.0;
        qint64 count = 0;
        const Eigen::MatrixXd& v = scaleMatrix(static_cast<int>(i)).values;
        for (Eigen::Index c = 0; c < v.cols(); ++c)
            for (Eigen::Index r = 0; r < v.rows(); ++r)
                if (std::isfinite(v(r, c))) {
                    sum += v(r, c);
                    ++count;
                }
        m_panelMeans.append(count > 0 ? sum / static_cast<double>(count) : 0.0);
        sum_all += sum;
        count_all += count;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    m_panelRanges.clear();
    for (qsizetype i = 0; i < m_data.panels.size(); ++i) {
        const MatrixResult& m = scaleMatrix(static_cast<int>(i));
        const double shift = m_subtractMean ? m_panelMeans[i] : 0.0;
        // An animation's fixed scale (HeatmapData::fixed_extremes) replaces the panel's own extremes.
        const bool fixed = static_cast<std::size_t>(i) < m_data.fixed_extremes.size();
        const double panel_lo = fixed ? m_data.fixed_extremes[i].first : m.min - shift;
        const double panel_hi = fixed ? m_data.fixed_extremes[i].second : m.max - shift;
        m_panelRanges.append(color_range(m_colormap, panel_lo, panel_hi));
        if (m.values.size() == 0 && !fixed)
            continue;
        lo = std::min(lo, panel_lo);
        hi = std::max(hi, panel_hi);
    }
    m_range = color_range(m_colormap, lo, hi);

    double data_lo = std::numeric_limits<double>::infinity(), data_hi = -data_lo;
    for (qsizetype i = 0; i < m_data.panels.size(); ++i)
        if (const MatrixResult& m = scaleMatrix(static_cast<int>(i)); m.values.size() > 0) {
            data_lo = std::min(data_lo, m.min);
            data_hi = std::max(data_hi, m.max);
        }
    const double mean = count_all > 0 ? sum_all / static_cast<double>(count_all) : 0.0;
    const double spread = data_hi - data_lo;
    m_tinySpread = std::isfinite(spread) && spread > 0.0 && spread < kTinySpread * std::abs(mean);
    QStringList notes;
    if (!m_data.permutation_caption.isEmpty())
        notes << m_data.permutation_caption;
    if (m_subtractMean)
        notes << (m_data.panels.size() > 1 ? tr("each panel's mean subtracted")
                                           : tr("mean %1 subtracted").arg(format_number(mean)));
    else if (m_tinySpread)
        notes << tr("values %1 … %2: spread %3 % of the mean")
                     .arg(format_number(data_lo), format_number(data_hi),
                          format_number(100.0 * spread / std::abs(mean), 2));
    if (usesPanelScales())
        notes << tr("one colour scale per panel");
    if (!m_data.sampling_note.isEmpty())
        notes << m_data.sampling_note;
    m_note = notes.join(QStringLiteral(" · "));
}

void HeatmapView::rebuildImages()
{
    // Rebuilt only here (data, colour map or scale changed); painting and zooming reuse these images.
    const QVector<QRgb> table = colormap_table(m_colormap);
    m_images.clear();
    m_wholeImages.clear();
    m_hasNan = false;
    const auto image_of = [&](const Eigen::MatrixXd& v, const ColorRange& range, double shift) {
        const int rows = static_cast<int>(v.rows()), cols = static_cast<int>(v.cols());
        QImage image(std::max(cols, 1), std::max(rows, 1), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        for (int r = 0; r < rows; ++r) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
            for (int c = 0; c < cols; ++c) {
                const int idx = colormap_index(v(r, c) - shift, range);
                if (idx < 0) {
                    line[c] = 0; // transparent: the NaN hatch underneath shows through
                    m_hasNan = true;
                } else {
                    line[c] = table[idx];
                }
            }
        }
        return image;
    };
    for (qsizetype i = 0; i < m_data.panels.size(); ++i) {
        const HeatmapPanel& p = m_data.panels[i];
        const ColorRange range = panelRange(static_cast<int>(i));
        const double shift = m_subtractMean && i < m_panelMeans.size() ? m_panelMeans[i] : 0.0;
        m_images.append(image_of(p.matrix.values, range, shift));
        // The same colours for the whole matrix behind the window.
        m_wholeImages.append(p.whole ? image_of(p.whole->values, range, shift) : QImage());
    }
}

// ----------------------------------------------------------------- screen painting

void HeatmapView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    RenderOptions options;
    options.dark = palette_is_dark(palette());
    paintFigure(painter, rect(), options);
    paintHover(painter);
}

QRectF HeatmapView::hoverBox() const
{
    if (m_hoverText.isEmpty())
        return {};
    const QFontMetricsF fm(font(), this);
    double w = 0;
    const QStringList lines = m_hoverText.split(QStringLiteral(" · "));
    for (const QString& l : lines)
        w = std::max(w, fm.horizontalAdvance(l));
    const double pad = fm.height() * 0.35;
    const QSizeF size(w + 2 * pad, fm.height() * static_cast<double>(lines.size()) + 2 * pad);
    // Beside the hovered cell and the cross cursor (about 24 px across): the row and the column the
    // readout names stay in view, as they did not when the box sat a fixed offset below the cursor over
    // large (zoomed) cells.
    const QRectF anchor = m_hoverCell.united(QRectF(m_hoverPos - QPointF(12, 12), QSizeF(24, 24)));
    return place_readout_box(size, anchor, QRectF(rect()), 4.0);
}

void HeatmapView::paintHover(QPainter& painter) const
{
    const QRectF box = hoverBox();
    if (box.isEmpty())
        return;
    const FigureColors colors = figure_colors(palette_is_dark(palette()));
    const QFontMetricsF fm(font(), this);
    const QStringList lines = m_hoverText.split(QStringLiteral(" · "));
    const double pad = fm.height() * 0.35;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(colors.grid, 1.0));
    painter.setBrush(colors.overlay);
    painter.drawRoundedRect(box, pad, pad);
    painter.setPen(colors.text);
    painter.setFont(font());
    for (qsizetype i = 0; i < lines.size(); ++i)
        painter.drawText(QRectF(box.left() + pad, box.top() + pad + static_cast<double>(i) * fm.height(),
                                box.width() - 2 * pad + 1, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
    painter.restore();
}

// ----------------------------------------------------------------- interaction

HeatmapView::Layout HeatmapView::screenLayout() const
{
    const Fonts fonts{scaled_font(font(), 1.0, 1.2, true), scaled_font(font(), 1.0),
                      scaled_font(font(), 1.0, 0.9)};
    return computeLayout(QRectF(rect()).adjusted(4, 0, -4, -4), fonts, const_cast<HeatmapView*>(this));
}

QSize HeatmapView::heatmapPixelSize() const
{
    const Layout L = screenLayout();
    if (L.panels.isEmpty())
        return {};
    const double dpr = devicePixelRatioF();
    return QSize(static_cast<int>(std::ceil(L.panelArea.width() * dpr)),
                 static_cast<int>(std::ceil(L.panelArea.height() * dpr)));
}

PanelChrome HeatmapView::heatmapPanelChrome() const
{
    const Layout L = screenLayout();
    const double dpr = devicePixelRatioF();
    return {L.chrome.gap * dpr, L.chrome.tick_width * dpr, L.chrome.tick_height * dpr,
            L.chrome.caption_height * dpr};
}

int HeatmapView::panelAt(const QPointF& pos, const Layout& layout) const
{
    for (qsizetype i = 0; i < layout.panels.size(); ++i)
        if (layout.panels[i].heat.contains(pos))
            return static_cast<int>(i);
    return -1;
}

QString HeatmapView::readoutAt(const QPointF& pos, int* panel_out, QRectF* cell_out) const
{
    const Layout L = screenLayout();
    const int i = panelAt(pos, L);
    if (panel_out)
        *panel_out = i;
    if (i < 0 || m_view.rows <= 0 || m_view.cols <= 0)
        return {};
    const QRectF heat = L.panels[i].heat;
    const double pr = m_view.row0 + (pos.y() - heat.top()) / heat.height() * m_view.rows;
    const double pc = m_view.col0 + (pos.x() - heat.left()) / heat.width() * m_view.cols;
    const auto cell = [&](const Extent& re, const Extent& ce, qsizetype& r, qsizetype& c) {
        r = static_cast<qsizetype>(std::floor((pr - re.lo) / re.step));
        c = static_cast<qsizetype>(std::floor((pc - ce.lo) / ce.step));
        return r >= 0 && c >= 0 && r < re.count && c < ce.count;
    };
    qsizetype r = 0, c = 0;
    const MatrixResult* mp = &m_data.panels[i].matrix;
    const Extent *re = &m_rowExtent[i], *ce = &m_colExtent[i];
    if (!cell(*re, *ce, r, c)) {
        // Outside the computed window, where the whole matrix's picture shows: its cell.
        re = &m_wholeRowExtent[i];
        ce = &m_wholeColExtent[i];
        if (!m_data.panels[i].whole || !cell(*re, *ce, r, c))
            return {};
        mp = m_data.panels[i].whole.get();
    }
    if (cell_out) {
        const auto map_x = [&](double p) {
            return heat.left() + (p - m_view.col0) / m_view.cols * heat.width();
        };
        const auto map_y = [&](double p) {
            return heat.top() + (p - m_view.row0) / m_view.rows * heat.height();
        };
        const auto k = [](qsizetype v) { return static_cast<double>(v); };
        *cell_out = QRectF(QPointF(map_x(ce->lo + k(c) * ce->step), map_y(re->lo + k(r) * re->step)),
                           QPointF(map_x(ce->lo + k(c + 1) * ce->step), map_y(re->lo + k(r + 1) * re->step)))
                        .intersected(heat);
    }
    const MatrixResult& m = *mp;
    const double value = m.values(r, c);
    QStringList parts;
    if (!m_data.panels[i].label.isEmpty())
        parts << m_data.panels[i].label;
    // A block-mean pixel covers positions first .. last; say so, and say when a pixel is a point sample.
    // (A result built by hand may leave the block ends empty: then each pixel is one position.)
    const auto position = [](const std::vector<std::int64_t>& index, const std::vector<std::int64_t>& end,
                             qsizetype k) {
        const auto u = static_cast<std::size_t>(k);
        const std::int64_t first = index[u], stop = u < end.size() ? end[u] : first + 1;
        return stop - first > 1 ? QStringLiteral("%1 … %2").arg(first).arg(stop - 1) : QString::number(first);
    };
    // With a sentence as the positions, a single position is read with its word, as the axes show it.
    const auto withWord = [this](const QString& text, const QStringList& tokens,
                                 const std::vector<std::int64_t>& index, const std::vector<std::int64_t>& end,
                                 qsizetype k) {
        const auto u = static_cast<std::size_t>(k);
        const std::int64_t first = index[u];
        const bool single = u >= end.size() || end[u] - first <= 1;
        if (!single || first < 0 || first >= tokens.size())
            return text;
        return tr("%1 “%2”", "a position and the word at it")
            .arg(text, tokens[static_cast<qsizetype>(first)]);
    };
    parts << tr("%1 = %2").arg(
        matrixLabel(m.row_label),
        withWord(position(m.row_index, m.row_block_end, r), rowTokens(i), m.row_index, m.row_block_end, r));
    parts << tr("%1 = %2").arg(
        matrixLabel(m.col_label),
        withWord(position(m.col_index, m.col_block_end, c), colTokens(i), m.col_index, m.col_block_end, c));
    const QString what = m.sampling == MatrixSampling::BlockMean ? tr("mean ")
                         : m.sampling == MatrixSampling::Point   ? tr("point sample of ")
                                                                 : QString();
    parts << tr("%1%2 = %3")
                 .arg(what, m.value_label.empty() ? tr("value") : matrixLabel(m.value_label),
                      std::isnan(value) ? tr("no value (masked)") : format_number(value, 5));
    // A sentence beside its permutation: where this row's word stands in the other sentence.
    const std::int64_t row = m.row_index[static_cast<std::size_t>(r)];
    if (const std::int64_t other = linkedRow(i, row); other >= 0 && other < rowTokens(1 - i).size())
        parts << tr("same word in the other sentence: row %1 “%2”")
                     .arg(other)
                     .arg(rowTokens(1 - i)[static_cast<qsizetype>(other)]);
    return parts.join(QStringLiteral(" · "));
}

void HeatmapView::clampView()
{
    m_view.rows = std::clamp(m_view.rows, std::min(kMinSpan, m_home.rows), m_home.rows);
    m_view.cols = std::clamp(m_view.cols, std::min(kMinSpan, m_home.cols), m_home.cols);
    m_view.row0 = std::clamp(m_view.row0, m_home.row0, m_home.row0 + m_home.rows - m_view.rows);
    m_view.col0 = std::clamp(m_view.col0, m_home.col0, m_home.col0 + m_home.cols - m_view.cols);
}

void HeatmapView::viewChanged()
{
    m_zoomed = !same_viewport(m_view, m_home);
    update(); // the cached images, transformed, right away
    m_viewportTimer.start();
}

void HeatmapView::resetViewport()
{
    m_view = m_home;
    m_zoomed = false;
    m_viewportTimer.stop();
    update();
    if (m_home.rows > 0 && m_home.cols > 0)
        emit viewportRequested(static_cast<std::int64_t>(std::round(m_home.row0)),
                               static_cast<std::int64_t>(std::round(m_home.col0)),
                               static_cast<std::int64_t>(std::round(m_home.rows)),
                               static_cast<std::int64_t>(std::round(m_home.cols)));
}

} // namespace posatlas::ui
