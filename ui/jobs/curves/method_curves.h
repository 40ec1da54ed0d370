// SPDX-License-Identifier: GPL-3.0-or-later
// The curves view's per-method curves. By default a method is drawn as the logit of the last query
// against relative distance (curve_job.cpp), which every method has; a method whose mechanism is
// better seen in a unit of its own (RoPE's long-term decay, ALiBi's per-head weight factors, T5's and
// DeBERTa's buckets) registers a builder here: one function in its own file under curves/ and one
// line in method_curves.cpp's table. curve_job() then adds overlays, the log-axis clean-up and the
// marker filter around whatever the builder made.
#pragma once

#include "jobs/view_data.h"
#include "jobs/view_jobs.h"

#include <cstdint>
#include <vector>

namespace posatlas::ui {

struct CurveRequest {
    const Scenario& s;
    const ViewSettings& v;
    std::int64_t max_distance;       // the largest distance r shown
    const std::vector<double>& dist; // the distances to sample (whole numbers, decay_distances)
    CancelFn cancel;
    ProgressFn progress;
};

// Fills the title, y_label, y_column, series (each with an id) and markers of `data`; x is the
// distance (curve_job sets x_label and x_column).
using CurveBuilder = void (*)(const CurveRequest&, CurveData&);

// The builder of m's own curves; null: m is drawn as its logit against distance.
CurveBuilder method_curve_builder(Method m);

// The registered builders (each in curves/<method>_curves.cpp).
void rope_curves(const CurveRequest& r, CurveData& data);
void alibi_curves(const CurveRequest& r, CurveData& data);
void t5_curves(const CurveRequest& r, CurveData& data);
void deberta_curves(const CurveRequest& r, CurveData& data);

} // namespace posatlas::ui
