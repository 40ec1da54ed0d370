// SPDX-License-Identifier: GPL-3.0-or-later
// The curves view's per-method curves. By default a method is drawn as the logit of the last query
// against relative distance (curve_job.cpp), which every method has; a method whose mechanism is better
// seen in a unit of its own (RoPE's long-term decay, ALiBi's per-head weight factors, T5's and DeBERTa's
// buckets) declares a curve family in its descriptor (core methods/curve_family.h), which returns the
// series in numbers and words. This file only turns them into the chart's data; curve_job() then adds
// overlays, the log-axis clean-up and the marker filter around them.
#pragma once

#include "jobs/view_data.h"
#include "jobs/view_jobs.h"

#include <cstdint>
#include <vector>

namespace posatlas {
struct CurveFamily;
}

namespace posatlas::ui {

// Fills the title, y_label, y_column, series (each with an id), markers and note of `data` from the
// family `family` of s's method; x is the distance (curve_job sets x_label and x_column).
void family_curves(const CurveFamily& family, const Scenario& s, std::int64_t max_distance,
                   const std::vector<double>& dist, const CancelFn& cancel, const ProgressFn& progress,
                   CurveData& data);

} // namespace posatlas::ui
