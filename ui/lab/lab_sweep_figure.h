// SPDX-License-Identifier: GPL-3.0-or-later
// A lab sweep's figure (lab/lab_sweep.h's table): answer accuracy against length on a logarithmic axis,
// one line per encoding (the mean over the seeds) with the lowest and highest seed dashed in its colour,
// and the trained length as a vertical marker. Drawn with the curve charts (views/curve_chart.h) by the
// Lab window and by `posatlas lab sweep` alike.
#pragma once

#include "jobs/view_data.h"
#include "lab/lab_sweep.h"
#include "views/figure.h"

namespace posatlas::ui {

// The curves of the table's defined rows (a length beyond a learned table has no point). A method with no
// row yet has no series.
CurveData lab_sweep_curves(const lab::SweepTable& table);

class LabSweepFigure : public Figure
{
public:
    explicit LabSweepFigure(CurveData data) : m_data(std::move(data)) {}
    void renderFigure(QPainter& painter, const QRectF& target, const RenderOptions& options) const override;
    QString figureTitle() const override { return m_data.title; }
    const CurveData& data() const { return m_data; }

private:
    CurveData m_data;
};

} // namespace posatlas::ui
