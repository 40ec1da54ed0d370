// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/curves/method_curves.h"

#include "jobs/view_job_support.h"
#include "jobs/wording_text.h"
#include "methods/curve_family.h"

namespace posatlas::ui {

void family_curves(const CurveFamily& family, const Scenario& s, std::int64_t max_distance,
                   const std::vector<double>& dist, const CancelFn& cancel, const ProgressFn& progress,
                   CurveData& data)
{
    FamilyCurves curves = family.build(CurveFamilyRequest{s, max_distance, dist, cancel, progress});
    data.title = wording_text(curves.title) + scenario_caption(s, false);
    data.y_label = wording_text(curves.y_label);
    data.y_column = QString::fromStdString(curves.y_column);
    for (FamilySeries& f : curves.series) {
        CurveSeries series;
        series.name = wording_text(f.name);
        series.id = QString::fromStdString(f.id);
        series.x = std::move(f.x);
        series.y = std::move(f.y);
        series.envelope = f.envelope;
        series.step = f.step;
        series.dashed = f.dashed;
        series.color_index = f.color_index;
        series.value_at = std::move(f.value_at);
        data.series.push_back(std::move(series));
    }
    for (const FamilyMarker& m : curves.markers) {
        CurveMarker marker;
        marker.value = m.value;
        marker.label = wording_text(m.label);
        data.markers.push_back(marker);
    }
    data.note = wording_text(curves.notes, view_job_support::ViewJobs::tr(" · "));
}

} // namespace posatlas::ui
