// SPDX-License-Identifier: GPL-3.0-or-later
// A method's own curves against relative distance (MethodDescriptor::curve_families): RoPE's long-term
// decay, ALiBi's per-head weight factors, T5's and DeBERTa's buckets, T5's trained bias per head. The
// curves view draws a method as its logit against distance unless the method declares a family here; then
// it draws the series the family returns, in the family's unit. Each family lives in its method's folder
// (<method>_curves.cpp) and returns numbers and words (methods/wording.h), never pixels.
#pragma once

#include "methods/wording.h"
#include "scenario/types.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace posatlas {

struct Scenario;
struct CurveEnvelope;

struct FamilySeries {
    std::string id;           // its machine name in data exports ("mean_cos", "head_3"; io/columns.h)
    Wording name;             // the legend's entry
    std::vector<double> x, y; // one point per distance, or with `envelope` a bin's min and max
    bool envelope = false;    // x / y are the exact min and max over every integer of each bin
    bool step = false;        // a step function (buckets)
    bool dashed = false;      // a reference (the unscaled θ, the bucket before clamping)
    int color_index = -1;     // >= 0: shares the palette's colour of this index (a head's two series)
    // The exact value at distance x (rounded to an integer), computed by core: the crosshair's readout.
    // Cheap (one distance) and safe to call from any thread. Null: the readout interpolates the samples.
    std::function<double(double)> value_at;
};

struct FamilyMarker {
    double value = 0.0; // a distance (a vertical line)
    Wording label;      // "trained 4096"
};

struct FamilyCurves {
    Wording title;        // the figure's title before the scenario's caption ("RoPE long-term decay · ")
    Wording y_label;      // the y axis
    std::string y_column; // its machine name in data exports (io/columns.h)
    std::vector<FamilySeries> series;
    std::vector<FamilyMarker> markers;
    std::vector<Wording> notes; // one line under the chart, joined with " · "
};

struct CurveFamilyRequest {
    const Scenario& s;               // validated, of the family's method
    std::int64_t max_distance;       // the largest distance shown
    const std::vector<double>& dist; // the distances to sample: whole numbers from 0 (decay_distances)
    CancelFn cancel;
    ProgressFn progress;
};

struct CurveFamily {
    std::string id; // "decay", "buckets", "trained_bias"
    // The family applies to s (T5's trained bias needs a table from a file); null: always.
    std::function<bool(const Scenario&)> applies;
    std::function<FamilyCurves(const CurveFamilyRequest&)> build;
};

// The family the curves view draws for s: the first of its method's curve_families that applies; null
// when none does (the method is drawn as its logit against distance).
const CurveFamily* curve_family_for(const Scenario& s);

// ------------------------------------------------------------------ helpers for the families
// Appends to x / y, for each bin b of distances starting at dist[b], the envelope's min and max divided by
// `scale` (alternating their order so that the polyline zigzags through every peak); sets envelope.
void append_envelope(FamilySeries& series, const std::vector<double>& dist, const CurveEnvelope& env,
                     double scale);
// The bin edges of core's envelope functions for the sampled distances: dist[b] .. dist[b + 1] - 1, the
// last bin ending at last + 1.
std::vector<std::int64_t> curve_bin_edges(const std::vector<double>& dist, std::int64_t last);
// Heads shown as curves: all of them up to max_shown, else evenly spaced, first and last included.
std::vector<int> sampled_curve_heads(int heads, int max_shown);

} // namespace posatlas
