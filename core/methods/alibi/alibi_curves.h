// SPDX-License-Identifier: GPL-3.0-or-later
// ALiBi's curve family and the slopes its panel shows beside the sliders (registry.h).
#pragma once

#include "methods/registry.h"

namespace posatlas {

// Each head's weight factor exp(−m r) against distance (Press et al. 2022: the bias −m r becomes this
// factor on the softmax weight), at most 8 heads so that the legend stays readable.
CurveFamily alibi_decay_family();

// The slopes the figures use (alibi_scaled_slopes: the length scaling and the slope scale applied after
// the sliders' values) and why they differ from the sliders' (Field::displayed_values of "slopes").
DisplayedValues alibi_displayed_slopes(const Scenario& s);

} // namespace posatlas
