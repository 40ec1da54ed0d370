// SPDX-License-Identifier: GPL-3.0-or-later
// A Qt Charts chart that shows a CurveData (used by CurveView and, twice, by SpectrumView), the view
// around it with its mouse and keyboard crosshair, and its export path. Colours, fonts and ticks come from
// figure_style.h.
#pragma once

#include "jobs/view_data.h"

#include <QChart>
#include <QChartView>
#include <QFont>
#include <QPointer>

class QPainter;
class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QAbstractAxis;

namespace posatlas::ui {
class DashedPolylineItem;
}

namespace posatlas::ui {

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
    // Where the crosshair's readout box is, in chart coordinates (empty while hidden): beside the line,
    // inside the chart.
    QRectF crosshairBox() const;
    // The crosshair's text at x: each series' exact value where it has one (value_at, at the integer
    // nearest x), else interpolated between its samples.
    QString readoutAt(double x) const;
    // The plot area in device pixels of the view's viewport (what ViewSettings::curve_plot_left / width
    // pass to the job).
    QRectF plotPixels() const;
    // Whether the series show the job's points decimated for this plot (CurveData::drawn_columns).
    bool showsDrawnPoints() const { return m_showsDrawn; }
    // The points series `series` is drawn through (axis values), whether by its QLineSeries or, dashed,
    // by its own item.
    QList<QPointF> drawnPoints(qsizetype series) const;

protected:
    void resizeEvent(QGraphicsSceneResizeEvent* event) override;

private:
    // The title and the legend fitted to the width (curve_chart_fit.cpp): the title shrinks to a floor,
    // then takes a second line; the legend goes in a column at the right when one row cuts its entries.
    void updateTitle();
    void updateLegendSide();
    void updateAxisTitles(); // each axis title on as many lines as its side of the plot needs
    void updateLogXBase();   // a log distance axis' ticks: as many as have room for their labels
    double textWidth() const;
    void rebuild();          // series and axes from scratch (structure or axis type changed)
    void updateSeriesData(); // replace() on existing series
    void updateRanges();
    void updateOverlays(); // marker lines and labels, after geometry or range changes
    void applyStyle();
    bool drawnFitsPlot() const; // the data's drawn points are for this plot area and x axis
    void updateDashed();        // the dashed curves' items, after their points, the axes or the plot moved

    CurveData m_data;
    ChartStyle m_style;
    bool m_logX = false;
    bool m_logXOverridden = false;
    bool m_showTitle = true;
    bool m_showsDrawn = false;
    QList<QAbstractSeries*> m_series;
    // Per series: the item that strokes it when dashed (else null), and its points (axis values).
    QList<DashedPolylineItem*> m_dashed;
    QList<QList<QPointF>> m_dashedPoints;
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
    // The view's minimum, the chart's (axes, title, legend at their present fonts).
    void fitMinimum();
    CurveChart* m_chart;
    double m_keyFraction = -1.0;
};

// Paints `data` as a chart into `target` of any painter (QImage, QSvgGenerator, QPdfWriter): a fresh
// chart in an offscreen scene, sized to the target, rendered with QGraphicsScene::render so that lines
// and text stay vectors. The on-screen chart is left untouched.
void render_curve_chart(const CurveData& data, bool log_x, QPainter& painter, const QRectF& target,
                        const ChartStyle& style, bool show_title);

} // namespace posatlas::ui
