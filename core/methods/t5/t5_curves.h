// SPDX-License-Identifier: GPL-3.0-or-later
// T5's curve families (MethodDescriptor::curve_families).
#pragma once

#include "methods/curve_family.h"

namespace posatlas {

// A trained table (bias_path set): each head's learned bias against distance.
CurveFamily t5_trained_bias_family();
// The relative-position bucket of a key r positions after and before the query.
CurveFamily t5_bucket_family();

} // namespace posatlas
