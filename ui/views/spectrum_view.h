// SPDX-License-Identifier: GPL-3.0-or-later
// RoPE frequency spectrum: (a) the wavelength of every pair, original (dashed) and after scaling, on a
// log axis with the trained and target context lengths as reference lines; (b) the ratio theta'/theta
// per pair and, for YaRN, the ramp that blends interpolation and extrapolation.
#pragma once

#include "jobs/view_data.h"
#include "views/curve_chart.h"
#include "views/figure.h"

#include <QWidget>

class QLabel;

namespace posatlas::ui {

class SpectrumView : public QWidget, public Figure
{
    Q_OBJECT
public:
    explicit SpectrumView(QWidget* parent = nullptr);

    void setData(const SpectrumData& data);
    const SpectrumData& data() const { return m_data; }

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override;

    // The two plots of `data` as curve data (what both the screen and the export show); colours follow the
    // theme. No widget: an animation's worker takes their axes' ranges from them.
    static CurveData wavelengthCurves(const SpectrumData& data, bool dark);
    static CurveData ratioCurves(const SpectrumData& data, bool dark);

signals:
    void hovered(const QString& readout);

protected:
    void changeEvent(QEvent* event) override;

private:
    void restyle();
    QString factorText() const;

    SpectrumData m_data;
    QLabel* m_title;
    CurveChart* m_wavelengthChart;
    CurveChart* m_ratioChart;
    CurveChartView* m_wavelengthView;
    CurveChartView* m_ratioView;
    QLabel* m_factor;
};

} // namespace posatlas::ui
