// SPDX-License-Identifier: GPL-3.0-or-later
// Heatmaps of attention matrices (logits, biases, encodings, bucket indices), as one panel or as small
// multiples, with hover readout, wheel zoom and drag pan.
//
// Small multiples get one colour scale per panel by default (ALiBi's slow heads span a hundredth of the
// fast ones' range and would look flat on a shared scale); a shared scale is a choice. A matrix whose
// spread is tiny against its mean (DeBERTa, Shaw, Transformer-XL logits: 4.612 .. 4.626) is flagged on
// the figure, and its mean can be subtracted to show the structure.
//
// Each panel's matrix is turned into a QImage once per data or colour-map change (one pixel per cell,
// filled row by row through scanLine() from the 256-entry table of colormap.h); painting only scales
// that image. Zoom and pan first repaint the cached image transformed, then, debounced, ask for the
// exactly visible window through viewportRequested() so that just those cells are computed.
//
// Zooming keeps the colours: the colour map and the colour scale are those of the whole matrix (the
// data's HeatmapPanel::whole, which the job computes with every zoomed window), so a cell has the same
// colour at any zoom. Fitting the scale to the visible window is a choice (setFitColorsToView, the
// "Fit Colours to View" action), and the colour bar says which scale is in use. Where a pan or zoom
// shows cells outside the window received so far, the whole matrix's picture fills in until the new
// window arrives.
#pragma once

#include "jobs/heatmap_grid.h"
#include "jobs/view_data.h"
#include "views/colormap.h"
#include "views/figure.h"

#include <QImage>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <cstdint>

namespace posatlas::ui {

// A matrix's axis or value label as core names it ("query position i", "logit"; context "MatrixLabel"),
// in the interface's language. Data exports keep core's English names.
QString matrixLabel(const std::string& label);

class HeatmapView : public QWidget, public Figure
{
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setData(const HeatmapData& data);
    const HeatmapData& data() const { return m_data; }

    // Until setColormap() is called the view picks default_colormap(): diverging for signed data.
    void setColormap(Colormap map);
    // Back to the automatic choice (default_colormap of the data), e.g. when a session says "auto".
    void setAutomaticColormap();
    Colormap colormap() const { return m_colormap; }

    // The value interval the colour table spans over all panels (symmetric about 0 for the diverging
    // map), and the one panel `i` is coloured with (its own with per-panel scales, else colorRange()).
    ColorRange colorRange() const { return m_range; }
    ColorRange panelRange(int panel) const;

    // One colour scale per small-multiple panel (default) or one shared by all. setData() takes both
    // choices from the data (ViewSettings); these setters change them until the next data.
    void setPerPanelScales(bool on);
    bool perPanelScales() const { return m_perPanel; }
    // Colours each panel's values minus the panel's mean (readouts keep the values themselves).
    void setSubtractMean(bool on);
    bool subtractMean() const { return m_subtractMean; }
    // The line the figure shows under its title: a tiny spread against the mean, a subtracted mean,
    // per-panel scales. Empty when there is nothing to say.
    QString note() const { return m_note; }
    // Colour scale fitted to the visible window (its extremes) instead of the whole matrix's (default).
    // Applies at once; the data's own values decide the colours either way.
    void setFitColorsToView(bool on);
    bool fitColorsToView() const { return m_fitToView; }
    // The checkable action behind it (the view's context menu; the main window adds it to View).
    QAction* fitColorsAction() const { return m_fitAction; }
    // What the colour bar says about its scale: "scale: whole matrix" or "scale: fitted to view".
    QString scaleLabel() const;
    // True when the view shows a zoomed window with the whole matrix's colour scale available.
    bool hasWholeMatrix() const;
    // True when the values span less than kTinySpread of their mean's magnitude.
    bool spreadIsTiny() const { return m_tinySpread; }
    static constexpr double kTinySpread = 0.01;
    // One pixel per matrix cell, ARGB32 premultiplied; NaN cells are transparent (the hatch shows).
    const QImage& panelImage(int panel) const;

    // Where renderFigure() puts each panel's heatmap inside `target` (for tests and export tools).
    QList<QRectF> heatmapRects(const QRectF& target, const RenderOptions& options) const;
    // Device-pixel size of the area the panels' grid fills on screen (ViewSettings::pixel_width /
    // pixel_height): the job divides it among the panels by heatmap_grid, as the painter does, so that
    // one matrix cell is one physical pixel on high-DPI screens.
    QSize heatmapPixelSize() const;
    // What each panel needs besides its heatmap on screen, device pixels (ViewSettings::panel_chrome):
    // the gaps, tick labels and caption band the painter measured, so that the job's grid is the
    // painter's.
    PanelChrome heatmapPanelChrome() const;

    // The visible window in positions: rows [row0, row0 + rows), columns [col0, col0 + cols).
    struct Viewport {
        double row0 = 0, col0 = 0, rows = 0, cols = 0;
    };
    Viewport viewport() const { return m_view; }

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_data.title; }
    // What the hover readout says at widget position `pos` ("" outside the cells); `panel`: which panel;
    // `cell`: where the cell (the block of positions the readout reports) is in the widget.
    QString readoutAt(const QPointF& pos, int* panel = nullptr, QRectF* cell = nullptr) const;
    // The hovered cell, and the box the hover readout is painted in (empty when nothing is hovered): beside
    // the cell diagonally, so that the box leaves the hovered row and column in view, inside the widget.
    QRectF hoverCell() const { return m_hoverText.isEmpty() ? QRectF() : m_hoverCell; }
    QRectF hoverBox() const;
    // Each panel's caption as painted on screen, line by line (a line that had to be elided ends with
    // "…"; a range such as "−1.9…0" has its ellipsis inside).
    QList<QStringList> screenCaptions() const;

    // A sentence beside its permutation (HeatmapData::linked_rows): the row of `position` in panel `from`
    // links to the row of the same word in the other panel; its position there, -1 when none.
    std::int64_t linkedRow(int from, std::int64_t position) const;
    // Highlights row `position` of `panel` and its linked row in the other panel (what hovering a row
    // does; a click keeps it until the next click); panel -1 clears. Rows of unlinked data: none.
    void highlightRow(int panel, std::int64_t position);
    // The highlighted rows as (panel, position), the one asked for first; empty when none.
    QList<QPair<int, std::int64_t>> highlightedRows() const { return m_highlight; }
    // The position of the row under widget position `pos` and its panel (-1, -1 outside the cells).
    std::int64_t rowAt(const QPointF& pos, int* panel) const;
    // The words along panel i's rows and columns: its own (a sentence beside its permutation) or the data's.
    const QStringList& rowTokens(int panel) const;
    const QStringList& colTokens(int panel) const;

public slots:
    // Back to the whole matrix (as first received); emits viewportRequested at once.
    void resetViewport();

signals:
    void hovered(const QString& readout); // "query position i = 12 · key position j = 40 · logit = 0.53"
    // Emitted ~100 ms after the last zoom or pan step with the visible window in whole positions.
    void viewportRequested(std::int64_t row0, std::int64_t col0, std::int64_t rows, std::int64_t cols);
    void colormapChanged(Colormap map);
    void fitColorsToViewChanged(bool on);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    // Arrows pan by a tenth of the window (Shift: a whole window), + and − zoom about the centre,
    // 0 (or Home) shows everything again: what the wheel, a drag and a double-click do.
    void keyPressEvent(QKeyEvent* event) override;

private:
    static constexpr double kMinSpan = 4.0; // positions: the deepest zoom still shows a few cells
    // Extent of a panel's cells along one axis, in positions: cell k covers [lo + k step, lo + (k+1) step).
    struct Extent {
        double lo = 0, step = 1;
        qsizetype count = 0;
        double hi() const { return lo + step * static_cast<double>(count); }
    };
    struct PanelGeometry {
        QRectF heat;  // the heatmap itself
        QRectF label; // small-multiple caption above it (as wide as the panel's share of the row)
        bool xTicks = true, yTicks = true;
        bool twoLineCaption = false; // name, then colour range, at captionScale of the label font
        bool rangeSplit = false;     // the range on two lines of its own: "−5.6", then "…−0.022"
        double captionScale = 1.0;
    };
    // One line of a panel's caption: its text (elided only when nothing else fits), font and place.
    struct CaptionLine {
        QString text;
        QFont font;
        QRectF rect;
    };
    struct Layout {
        QRectF title;
        QRectF note; // under the title: tiny spread, subtracted mean, per-panel scales
        QList<PanelGeometry> panels;
        QRectF colorbar;     // the colour strip
        QRectF colorbarArea; // strip + ticks + label
        QRectF xTitle, yTitle;
        // The area the panels' grid fills (heatmap_grid's width and height): what the title, the
        // colour bar, the axis titles and a shared grid's tick labels leave.
        QSizeF panelArea;
        // What each panel needs besides its heatmap on that grid (gaps, tick labels, caption band).
        PanelChrome chrome;
    };
    struct Fonts;
    // Room for tick labels (left of and under a heatmap), and whether the panels share them.
    struct TickSpace {
        double width = 0.0, height = 0.0;
        bool shared = true;
    };
    // The grid of the panels, the caption band above each and how its captions are set.
    struct GridPlan {
        HeatmapGrid grid;
        double label_h = 0.0;
        bool two_lines = false;    // name, then colour range
        bool range_split = false;  // and the range itself on two lines (its ends): three lines in all
        double caption_font = 1.0; // scale of the label font
    };

    static Extent extent_of(const std::vector<std::int64_t>& index,
                            const std::vector<std::int64_t>& block_end);
    // Exact extents when the window the matrix covers is known, else estimated from the indices.
    static Extent row_extent(const MatrixResult& m, const HeatmapWindow& window);
    static Extent col_extent(const MatrixResult& m, const HeatmapWindow& window);
    // The matrix whose extremes (and mean) give panel i's colour scale: the window's own when fitted
    // to the view (or when there is no separate whole matrix), else the whole matrix.
    const MatrixResult& scaleMatrix(int panel) const;
    bool anySigned() const;
    void rebuildImages();
    void updateRange();
    bool usesPanelScales() const { return m_perPanel && m_data.panels.size() > 1; }
    double panelShift(int panel) const
    {
        return m_subtractMean && panel >= 0 && panel < m_panelMeans.size() ? m_panelMeans[panel] : 0.0;
    }
    // With per-panel scales, the span of panel `index`'s colours ("−205…0"); empty otherwise.
    QString panelRangeText(int index) const;
    // `text` followed by that span, as one caption line ("m₀=0.84 −205…0").
    QString withPanelRange(int index, const QString& text) const;
    Layout computeLayout(const QRectF& target, const Fonts& fonts, QPaintDevice* device) const;
    double colorbarWidth(const Fonts& fonts, QPaintDevice* device) const;
    TickSpace tickSpace(const Fonts& fonts, QPaintDevice* device) const;
    GridPlan planGrid(const QSizeF& avail, PanelChrome chrome, const Fonts& fonts,
                      QPaintDevice* device) const;
    void placePanels(Layout& layout, const QRectF& area, const GridPlan& plan, const PanelChrome& chrome,
                     const TickSpace& ticks, double text_h, double pad, double label_line,
                     double bar_w) const;
    void paintFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const;
    void paintPanel(QPainter& painter, int index, const PanelGeometry& geometry, const Fonts& fonts,
                    const RenderOptions& options) const;
    QList<CaptionLine> captionLines(int index, const PanelGeometry& geometry, const Fonts& fonts,
                                    QPaintDevice* device) const;
    void paintColorbar(QPainter& painter, const Layout& layout, const Fonts& fonts,
                       const RenderOptions& options) const;
    void paintHover(QPainter& painter) const;
    // The highlighted row of panel `index` outlined across `heat` (heatmap_links.cpp).
    void paintLinkedRow(QPainter& painter, int index, const QRectF& heat, const RenderOptions& options) const;
    // Hover and click on linked rows (mouse move / release without a drag).
    void hoverLinkedRow(const QPointF& pos);
    void clampView();
    void zoomAbout(double fx, double fy, double factor); // fx, fy: fraction of the window that stays put
    void viewChanged();
    int panelAt(const QPointF& pos, const Layout& layout) const;
    Layout screenLayout() const;

    HeatmapData m_data;
    QList<QImage> m_images;
    QList<Extent> m_rowExtent, m_colExtent;
    // The whole matrix behind a zoomed window (null images when there is none): shown where the
    // window's cells do not reach, e.g. during a pan before the new window arrives.
    QList<QImage> m_wholeImages;
    QList<Extent> m_wholeRowExtent, m_wholeColExtent;
    bool m_fitToView = false;
    QPointer<QAction> m_fitAction;
    bool m_hasNan = false;
    Colormap m_colormap = Colormap::Viridis;
    bool m_colormapExplicit = false;
    ColorRange m_range;
    QList<ColorRange> m_panelRanges;
    QList<double> m_panelMeans;
    bool m_perPanel = true;
    bool m_subtractMean = false;
    bool m_tinySpread = false;
    QString m_note;

    Viewport m_view, m_home;
    bool m_zoomed = false;
    bool m_dragging = false;
    QPointF m_dragStart;
    Viewport m_dragView;
    QTimer m_viewportTimer;

    QString m_hoverText;
    QPointF m_hoverPos;
    QRectF m_hoverCell;
    QList<QPair<int, std::int64_t>> m_highlight; // linked rows: (panel, position)
    bool m_highlightPinned = false;              // a click keeps the highlight while hovering elsewhere
};

} // namespace posatlas::ui
