// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the figure views: theme colours, fonts, tick placement and number formatting for
// the hand-painted figures (heatmap, rotation diagram), and a Qt Charts chart that shows a CurveData
// (used by CurveView and, twice, by SpectrumView) together with its export path.
#pragma once

#include "view_data.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QFont>
#include <QPointer>

#include <vector>

class QPainter;
class QPalette;
class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QAbstractAxis;

namespace posatlas::ui {

// ----------------------------------------------------------------- colours, fonts, ticks
struct FigureColors {
    QColor background, text, muted, axis, grid, overlay; // overlay: readout box background
};
FigureColors figure_colors(bool dark);
// True when the palette's window colour is dark (lightness < 128): the views then switch to dark colours.
bool palette_is_dark(const QPalette& palette);
// `base` with its point size multiplied by scale * relative (pixel-sized fonts are scaled in pixels).
QFont scaled_font(const QFont& base, double scale, double relative = 1.0, bool bold = false);
// Line colours for series without their own colour (matplotlib's tab10, lightened on dark backgrounds).
QColor series_color(int index, bool dark);

// Hard cap on the ticks or labels of any one axis or colour bar, whatever a caller asks for.
inline constexpr int kMaxTicks = 64;
// "Nice" tick values (1, 2, 2.5, 5 x 10^k steps) inside [lo, hi], at most about max_ticks of them and never
// more than kMaxTicks; strictly increasing and finite. Terminates for every input: a range that is empty or
// narrower than the resolution of its values (1 +- 1e-16) gives the one midpoint, non-finite bounds give
// none, and ranges wider than a double can span (+-1e300) or made of subnormals work as any other.
std::vector<double> nice_ticks(double lo, double hi, int max_ticks);
// Makes [lo, hi] a range an axis can divide: an empty or nearly empty range (span <= 1e-9 of its magnitude,
// e.g. a ratio that is 1 +- 1e-16 everywhere) becomes mid +- max(0.5, 5 % of |mid|); bounds beyond
// +-DBL_MAX / 4 are clamped so that hi - lo stays finite. Non-finite bounds are left alone.
void widen_degenerate_range(double& lo, double& hi);
// Compact number for ticks and readouts: integers as integers, else `significant` digits, exponent
// notation for very small or large magnitudes, "NaN" for NaN.
QString format_number(double value, int significant = 4);

// ----------------------------------------------------------------- Qt Charts
struct ChartStyle {
    bool dark = false;
    double font_scale = 1.0;
    QFont font; // the widget font the chart's fonts derive from
};

// A chart that shows one CurveData: line (or step) series, linear or log axes, markers as labelled
// dashed lines, and a hover crosshair. Series are updated with replace() when only the numbers change.
class CurveChart : public QChart
{
    Q_OBJECT
public:
    explicit CurveChart(QGraphicsItem* parent = nullptr);

    void setCurveData(const CurveData& data);
    const CurveData& curveData() const { return m_data; }
    // Overrides data.log_x (the view's log/linear toggle).
    void setLogX(bool log);
    bool logX() const { return m_logX; }
    void setChartStyle(const ChartStyle& style);
    const ChartStyle& chartStyle() const { return m_style; }
    // Shows the chart title inside the chart (the views paint their own title on export).
    void setShowTitle(bool show);

    // Crosshair at a point in chart (item) coordinates: returns the readout ("x = 12 · RoPE: 0.53 ·
    // ..."), empty (and hides the crosshair) when the point is outside the plot area.
    QString showCrosshair(const QPointF& chartPos);
    void hideCrosshair();
    // The crosshair's text at x: each series' exact value where it has one (value_at, at the integer
    // nearest x), else interpolated between its samples.
    QString readoutAt(double x) const;

private:
    void rebuild();          // series and axes from scratch (structure or axis type changed)
    void updateSeriesData(); // replace() on existing series
    void updateRanges();
    void updateOverlays(); // marker lines and labels, after geometry or range changes
    void applyStyle();

    CurveData m_data;
    ChartStyle m_style;
    bool m_logX = false;
    bool m_logXOverridden = false;
    bool m_showTitle = true;
    QList<QAbstractSeries*> m_series;
    QAbstractAxis* m_axisX = nullptr;
    QAbstractAxis* m_axisY = nullptr;
    struct MarkerItems {
        QGraphicsLineItem* line = nullptr;
        QGraphicsSimpleTextItem* label = nullptr;
        QGraphicsRectItem* box = nullptr;
    };
    QList<MarkerItems> m_markerItems;
    QGraphicsLineItem* m_crossLine = nullptr;
    QGraphicsRectItem* m_crossBox = nullptr;
    QGraphicsSimpleTextItem* m_crossText = nullptr;
};

// A QChartView around a CurveChart that tracks the mouse for the crosshair and emits its readout.
class CurveChartView : public QChartView
{
    Q_OBJECT
public:
    explicit CurveChartView(CurveChart* chart, QWidget* parent = nullptr);
    CurveChart* curveChart() const { return m_chart; }
    // Matches the view's background to the chart's (no frame of window colour around the chart).
    void setDark(bool dark);

signals:
    void hovered(const QString& readout);

public:
    // The keyboard crosshair's x in the plot area as a fraction (0 left, 1 right); negative when hidden.
    double keyboardCrosshair() const { return m_keyFraction; }

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    // Left / Right move a crosshair one pixel (Shift: a tenth of the plot), Home / End to the ends,
    // Escape hides it: the readout the mouse gives, from the keyboard.
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void showKeyboardCrosshair();
    CurveChart* m_chart;
    double m_keyFraction = -1.0;
};

// Paints `data` as a chart into `target` of any painter (QImage, QSvgGenerator, QPdfWriter): a fresh
// chart in an offscreen scene, sized to the target, rendered with QGraphicsScene::render so that lines
// and text stay vectors. The on-screen chart is left untouched.
void render_curve_chart(const CurveData& data, bool log_x, QPainter& painter, const QRectF& target,
                        const ChartStyle& style, bool show_title);

// Paints a title line (bold) and returns the remaining rect below it; and a caption line at the bottom,
// returning the rect above it. Both elide rather than clip.
QRectF paint_title(QPainter& painter, const QRectF& rect, const QString& title, const QFont& font,
                   const QColor& color);
QRectF paint_caption(QPainter& painter, const QRectF& rect, const QString& caption, const QFont& font,
                     const QColor& color);

} // namespace posatlas::ui
