// SPDX-License-Identifier: GPL-3.0-or-later
// A small hand-painted plot for the context-extension explorer: line / point series on linear or log
// axes, filled ranges, shaded x bands with labels (the regimes), labelled reference lines (trained and
// target context, thresholds, regime boundaries) placed so that their labels do not collide, an
// optional reciprocal right axis (YaRN's r = L / lambda beside the wavelength) and colour strips under
// the x axis (one cell per pair: regimes, never-seen rotations). The same paint routine draws the
// screen and every export (Figure), as the other views do; Qt Charts has no shaded bands or strips.
#pragma once

#include "views/figure.h"

#include <QColor>
#include <QFont>
#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>
#include <vector>

namespace posatlas::ui {

struct PlotSeries {
    QString name; // legend entry; empty: not in the legend
    std::vector<double> x, y;
    QColor color;
    bool dashed = false;
    bool line = true;    // connect the points
    bool points = false; // draw a dot at each point
    double width = 2.0;
};
// The area between lo(x) and hi(x), e.g. the trained angle range [0, L theta_i].
struct PlotFill {
    QString name;
    std::vector<double> x, lo, hi;
    QColor color;
};
// A shaded x range over the whole plot height with a label at its top ("kept\npairs 0-28").
struct PlotBand {
    double from = 0.0, to = 0.0;
    QColor color;
    QString label;
};
// A reference line across the plot: vertical at x = value or horizontal at y = value.
struct PlotLine {
    double value = 0.0;
    bool vertical = false;
    QColor color;
    QString label;
    bool dashed = true;
};
// One row of coloured cells under the x axis; cell i spans x in [i - 0.5, i + 0.5].
struct PlotStrip {
    QString label;
    std::vector<QColor> cells;
};
struct PlotLegendItem {
    QString name;
    QColor color;
    bool swatch = false; // a filled square (bands, strips) instead of a line
    bool dashed = false;
};

struct PlotSpec {
    QString title, x_label, y_label;
    QString note; // one line under the plot
    bool log_x = false, log_y = false;
    std::optional<double> x_min, x_max, y_min, y_max; // fixed range; unset: from the data
    double right_reciprocal = 0.0;                    // > 0: a right axis showing right_reciprocal / y
    QString right_label;
    QVector<PlotSeries> series;
    QVector<PlotFill> fills;
    QVector<PlotBand> bands;
    QVector<PlotLine> lines;
    QVector<PlotStrip> strips;
    QVector<PlotLegendItem> extra_legend; // after the series' entries
};

// Paints `spec` into `target` (title, legend row, axes, plot, strips, note). `base` is the font the
// sizes derive from.
void paint_plot(QPainter& painter, const QRectF& target, const PlotSpec& spec, const RenderOptions& options,
                const QFont& base);

// Number of series in the plot that have points (the tests count curves with it).
int plot_series_count(const PlotSpec& spec);

// Tick values of a plot axis over [lo, hi] (log: powers of ten, with 2 and 5 on short ranges), at most
// min(max_ticks, kMaxPlotTicks) of them.
inline constexpr int kMaxPlotTicks = 10;
std::vector<double> plot_axis_ticks(double lo, double hi, bool log, int max_ticks);

class PlotWidget : public QWidget, public Figure
{
    Q_OBJECT
public:
    explicit PlotWidget(QWidget* parent = nullptr);
    void setSpec(const PlotSpec& spec);
    const PlotSpec& spec() const { return m_spec; }

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_spec.title; }
    QSize sizeHint() const override { return {640, 420}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    PlotSpec m_spec;
};

} // namespace posatlas::ui
