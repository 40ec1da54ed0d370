// SPDX-License-Identifier: GPL-3.0-or-later
// Line and step plots of one CurveData (decay curves, bucket functions, ...) on Qt Charts, with
// markers, a hover crosshair and a log/linear toggle for x.
#pragma once

#include "jobs/view_data.h"
#include "views/curve_chart.h"
#include "views/figure.h"

#include <QWidget>

class QCheckBox;

namespace posatlas::ui {

class NoteText;

class CurveView : public QWidget, public Figure
{
    Q_OBJECT
public:
    explicit CurveView(QWidget* parent = nullptr);

    void setData(const CurveData& data);
    const CurveData& data() const { return m_data; }
    // Log or linear x axis; overrides CurveData.log_x from the first call on.
    void setLogX(bool log);
    bool logX() const;

    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_data.title; }
    CurveChartView* chartView() const { return m_chartView; }
    CurveChart* chart() const { return m_chart; }
    // The note under the chart (CurveData::note), wrapped, cut with "…" where the view is short.
    NoteText* note() const { return m_note; }

signals:
    void hovered(const QString& readout); // "x = 12 · RoPE: 0.53 · ALiBi: -1.2"
    void logXChanged(bool log);
    // The chart's plot area moved or changed size (CurveChart::plotPixels()).
    void plotAreaChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void restyle();

    CurveData m_data;
    CurveChart* m_chart;
    CurveChartView* m_chartView;
    NoteText* m_note;
    QCheckBox* m_logX;
};

} // namespace posatlas::ui
